//! The grid as written (spec/board.md, r[board.grid]): rows of cells,
//! parsed strictly into a typed error.

use std::fmt;

/// A grid as written: rows top-down, each a list of cell symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    /// Cells in a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells' symbols row by row, the top row first: `width * height`
    /// bytes.
    pub cells: Vec<u8>,
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
    /// The memory to hold the grid, or to judge it, cannot be had.
    OutOfMemory,
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
            GridError::OutOfMemory => f.write_str("the grid needs more memory than can be had"),
        }
    }
}

// cell = ALPHA / DIGIT / "." / "_"
fn is_cell(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'_'
}

// separator = "\n" / "\r\n" / "/" / ";"
fn separator(input: &[u8]) -> Option<usize> {
    match input {
        [b'\r', b'\n', ..] => Some(2),
        [b'\n' | b'/' | b';', ..] => Some(1),
        _ => None,
    }
}

/// Reads a grid (r[board.grid]): rows top-down, separated by line feeds,
/// `/` or `;`; cells are letters, digits, `.` or `_`, optionally separated by
/// single spaces; every row the same width. The cells are held one byte
/// each, in memory asked for before it is used.
///
/// # Errors
/// The first fault, with its row and column (a byte that is not a cell
/// before a row of the wrong width, wherever each is), or
/// [`GridError::OutOfMemory`].
pub(crate) fn parse_grid(input: &[u8]) -> Result<Grid, GridError> {
    // A file's final line feed ends its last line, after a final `/` or `;`
    // too: `..;xo;` and a line feed is two rows.
    let input = input
        .strip_suffix(b"\r\n")
        .or_else(|| input.strip_suffix(b"\n"))
        .unwrap_or(input);
    if input.is_empty() {
        return Err(GridError::Empty);
    }
    let unexpected = |offset: usize| {
        let before = &input[..offset];
        let row = 1 + before
            .iter()
            .filter(|&&b| matches!(b, b'\n' | b'/' | b';'))
            .count();
        let start = before
            .iter()
            .rposition(|&b| matches!(b, b'\n' | b'/' | b';'))
            .map_or(0, |p| p + 1);
        GridError::UnexpectedByte {
            row,
            column: offset - start + 1,
            byte: input.get(offset).copied().unwrap_or(b' '),
        }
    };
    let mut cells = Vec::new();
    cells
        .try_reserve_exact(input.iter().filter(|&&b| is_cell(b)).count())
        .map_err(|_| GridError::OutOfMemory)?;
    let (mut at, mut height, mut width) = (0, 0, 0);
    let mut ragged = None;
    // grid = row *(separator row) [separator]
    loop {
        // row = 1*(cell [SP])
        let row_start = cells.len();
        while let Some(&b) = input.get(at).filter(|&&b| is_cell(b)) {
            cells.push(b);
            at += 1;
            if input.get(at) == Some(&b' ') {
                at += 1;
            }
        }
        let cells_in_row = cells.len() - row_start;
        if cells_in_row == 0 {
            return Err(unexpected(at));
        }
        height += 1;
        if height == 1 {
            width = cells_in_row;
        } else if cells_in_row != width && ragged.is_none() {
            ragged = Some(GridError::Ragged {
                row: height,
                width: cells_in_row,
                expected: width,
            });
        }
        if at == input.len() {
            break;
        }
        let Some(n) = separator(&input[at..]) else {
            return Err(unexpected(at));
        };
        at += n;
        if at == input.len() {
            break;
        }
    }
    match ragged {
        Some(e) => Err(e),
        None => Ok(Grid {
            width,
            height,
            cells,
        }),
    }
}

impl Grid {
    /// Row `r`, from the top, from 0.
    #[cfg(test)]
    pub(crate) fn row(&self, r: usize) -> &[u8] {
        &self.cells[r * self.width..(r + 1) * self.width]
    }

    /// The symbols of counters on the grid, in reading order, at most the
    /// first two (`.`, `_`, `0` and `empty` are empty cells).
    pub(crate) fn symbols(&self, empty: Option<char>) -> Vec<char> {
        let mut symbols = Vec::new();
        for &b in &self.cells {
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
