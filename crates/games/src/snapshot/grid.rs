//! The grid as written (spec/board.md, r[board.grid]): rows of cells,
//! parsed strictly into a typed error.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, satisfy};
use nom::combinator::{all_consuming, opt};
use nom::multi::{many1, separated_list1};
use nom::sequence::terminated;
use nom::{IResult, Parser};

/// A grid as written: rows top-down, each a list of cell symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Rows, top first; every row has the same width.
    pub rows: Vec<Vec<u8>>,
}

/// What is wrong with a grid (r[board.grid]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// No rows at all.
    Empty,
    /// A byte that is not a cell symbol, at 1-based row and column.
    UnexpectedByte {
        /// Row, from the top.
        row: usize,
        /// Byte position in the row.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// A row of another width than the first.
    Ragged {
        /// Row, from the top.
        row: usize,
        /// Its width.
        width: usize,
        /// The first row's width.
        expected: usize,
    },
    /// A third kind of counter, at 1-based row and column.
    ThirdSymbol {
        /// Row, from the top.
        row: usize,
        /// Cell, from the left.
        column: usize,
        /// The symbol.
        symbol: char,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Empty => write!(f, "the grid has no rows"),
            GridError::UnexpectedByte { row, column, byte } => {
                write!(
                    f,
                    "row {row}, byte {column}: '{}' is not a cell",
                    [*byte].escape_ascii()
                )
            }
            GridError::Ragged {
                row,
                width,
                expected,
            } => {
                write!(f, "row {row} has {width} cells, the first row {expected}")
            }
            GridError::ThirdSymbol {
                row,
                column,
                symbol,
            } => write!(
                f,
                "row {row}, column {column}: '{symbol}' is a third kind of counter (two players only; empty is '.', '_' or '0')"
            ),
        }
    }
}

// cell = ALPHA / DIGIT / "." / "_"
fn cell(input: &[u8]) -> IResult<&[u8], u8> {
    satisfy(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        .map(|c| c as u8)
        .parse(input)
}

// row = 1*(cell [SP])
fn row(input: &[u8]) -> IResult<&[u8], Vec<u8>> {
    many1(terminated(cell, opt(char(' ')))).parse(input)
}

// grid = row *(("\n" / "\r\n" / "/" / ";") row) [newline]
fn grid(input: &[u8]) -> IResult<&[u8], Vec<Vec<u8>>> {
    let separator = || {
        alt((
            tag(&b"\r\n"[..]),
            tag(&b"\n"[..]),
            tag(&b"/"[..]),
            tag(&b";"[..]),
        ))
    };
    all_consuming(terminated(
        separated_list1(separator(), row),
        opt(separator()),
    ))
    .parse(input)
}

/// Reads a grid (r[board.grid]): rows top-down, separated by line feeds,
/// `/` or `;`; cells are letters, digits, `.` or `_`, optionally separated by
/// single spaces; every row the same width.
///
/// # Errors
/// The first fault, with its row and column.
pub fn parse_grid(input: &[u8]) -> Result<Grid, GridError> {
    // A file's final line feed ends its last line, after a final `/` or `;`
    // too: `..;xo;` and a line feed is two rows.
    let input = input
        .strip_suffix(b"\r\n")
        .or_else(|| input.strip_suffix(b"\n"))
        .unwrap_or(input);
    if input.is_empty() {
        return Err(GridError::Empty);
    }
    let rows = match grid(input) {
        Ok((_, rows)) => rows,
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let offset = input.len() - e.input.len();
            let before = &input[..offset];
            let row = 1 + before
                .iter()
                .filter(|&&b| matches!(b, b'\n' | b'/' | b';'))
                .count();
            let start = before
                .iter()
                .rposition(|&b| matches!(b, b'\n' | b'/' | b';'))
                .map_or(0, |p| p + 1);
            return Err(GridError::UnexpectedByte {
                row,
                column: offset - start + 1,
                byte: e.input.first().copied().unwrap_or(b' '),
            });
        }
        Err(nom::Err::Incomplete(_)) => return Err(GridError::Empty),
    };
    let expected = rows[0].len();
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != expected) {
        return Err(GridError::Ragged {
            row: i + 1,
            width: r.len(),
            expected,
        });
    }
    Ok(Grid { rows })
}

impl Grid {
    /// The symbols of counters on the grid, in reading order, at most the
    /// first two (`.`, `_`, `0` and `empty` are empty cells).
    pub fn symbols(&self, empty: Option<char>) -> Vec<char> {
        let mut symbols = Vec::new();
        for &b in self.rows.iter().flatten() {
            let s = char::from(b);
            if matches!(b, b'.' | b'_' | b'0') || Some(s) == empty || symbols.contains(&s) {
                continue;
            }
            symbols.push(s);
            if symbols.len() == 2 {
                break;
            }
        }
        symbols
    }
}
