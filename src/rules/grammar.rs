//! The line grammar of spec/format.md, written out with `nom` over bytes.
//!
//! What ends a line is stated here (`line_content`: LF, a CR before it, the
//! optional last terminator); the streaming reader in `judge` splits a file
//! at its LFs and hands each line to it. The rest of this module parses the
//! content of one line, terminator removed. Every parser sits under the ABNF
//! line it implements.
//!
//! This grammar is the one statement of the format in code. The judge also
//! reads lines in two faster forms, machinery outside `rules/`: `Prefix`
//! (`fast/prefix.rs`, used through `fast/partial.rs` for a line that spans
//! chunks), which says byte by byte whether a line can still conform, and
//! the byte scanners of `fast/scan.rs` (`plain_move`, `plain_lines`,
//! `skim_lines`), which vouch for plain move lines in bulk and leave every
//! other line to this grammar. The `parse` fuzz target
//! holds both forms to this grammar line by line
//! (`connectz_testkit::grammar_forms`, through `connectz::hooks`): the same
//! value, or the same fault at the same byte; `cargo test` replays its
//! corpus.
//!
//! Which fault a line reports (r[format.positive]): its shape is checked
//! before its values. A line whose bytes stop matching the grammar is
//! faulted where they stop (a byte out of place, a lone carriage return,
//! or the end of the line), even when a number before that byte is zero:
//! `0 6 x` is faulted at byte 5, the `x`. Only a line of the right shape is
//! faulted for a zero, at the first byte of its first number whose value is
//! zero. An empty line is faulted as such.

use nom::bytes::complete::take_while1;
use nom::character::complete::char;
use nom::combinator::all_consuming;
use nom::{Finish, IResult, Parser};

use crate::nat::Nat;

/// What is wrong with a file that does not conform to the format (code 8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatFault {
    /// The file holds no bytes at all (r[format.file]).
    EmptyFile,
    /// A line with nothing on it, also the last one (r[format.empty-line]).
    EmptyLine,
    /// A carriage return not followed by a line feed (r[format.eol]).
    LoneCarriageReturn {
        /// 1-based byte position in the line.
        column: usize,
    },
    /// A byte the grammar does not allow here (r[format.header], r[format.move]).
    UnexpectedByte {
        /// The byte found.
        byte: u8,
        /// 1-based byte position in the line.
        column: usize,
    },
    /// The line ended where the grammar wanted more (r[format.header]).
    UnexpectedEnd {
        /// 1-based position just past the last byte.
        column: usize,
    },
    /// A number whose value is zero (r[format.positive]).
    Zero {
        /// 1-based byte position of the number in the line.
        column: usize,
    },
}

/// The frame declared on line 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Columns.
    pub x: Nat,
    /// Rows.
    pub y: Nat,
    /// Length of a winning run.
    pub z: Nat,
}

// number = 1*DIGIT ; value > 0, checked after parsing (r[format.number])
// ASCII digits only: no sign, no `_`, no other script's digits (r[decision.number-syntax]).
fn digits(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|b: u8| b.is_ascii_digit()).parse(input)
}

// header = number SP number SP number (r[format.header])
// Exactly one space between fields, nothing else (r[decision.separator]).
fn header_fields(input: &[u8]) -> IResult<&[u8], [&[u8]; 3]> {
    all_consuming((digits, char(' '), digits, char(' '), digits))
        .map(|(x, _, y, _, z)| [x, y, z])
        .parse(input)
}

// move = number (r[format.move])
fn move_field(input: &[u8]) -> IResult<&[u8], &[u8]> {
    all_consuming(digits).parse(input)
}

/// Runs one of the line parsers above over the whole line, turning nom's
/// failure into the typed fault at the byte where parsing stopped. The
/// parsers are nom's `complete` ones, which never answer `Incomplete` (that
/// is for streaming parsers, which wait for more input): nom's `Finish`
/// gives their result without that case (it panics on `Incomplete`, which
/// these parsers never return; the `parse` fuzz target would catch one).
fn shape<'a, O>(
    line: &'a [u8],
    parser: impl FnOnce(&'a [u8]) -> IResult<&'a [u8], O>,
) -> Result<O, FormatFault> {
    parser(line)
        .finish()
        .map(|(_, fields)| fields)
        .map_err(|e| fault_at(line, e.input))
}

/// The typed fault at the byte where parsing stopped.
fn fault_at(line: &[u8], rest: &[u8]) -> FormatFault {
    let offset = line.len() - rest.len();
    match rest.first() {
        None => FormatFault::UnexpectedEnd { column: offset + 1 },
        Some(b'\r') => FormatFault::LoneCarriageReturn { column: offset + 1 },
        Some(&byte) => FormatFault::UnexpectedByte {
            byte,
            column: offset + 1,
        },
    }
}

/// r[format.positive], r[decision.zero]: zero is a format fault, never a column or frame fault.
fn positive(line: &[u8], field: &[u8]) -> Result<(), FormatFault> {
    // `field` is a subslice of `line` that passed `digits`.
    if field.iter().all(|&d| d == b'0') {
        let column = field.as_ptr() as usize - line.as_ptr() as usize + 1;
        return Err(FormatFault::Zero { column });
    }
    Ok(())
}

/// r[format.empty-line], r[decision.blank-line]: no line is empty.
fn check_line(line: &[u8]) -> Result<(), FormatFault> {
    if line.is_empty() {
        Err(FormatFault::EmptyLine)
    } else {
        Ok(())
    }
}

/// Parses line 1 (without its terminator).
///
/// # Errors
/// The line's fault (see the module's comment): where its bytes stop
/// matching the grammar, else its first zero.
pub fn parse_header(line: &[u8]) -> Result<Header, FormatFault> {
    header_digits(line).map(|[x, y, z]| Header {
        x: Nat::from_ascii_digits(x),
        y: Nat::from_ascii_digits(y),
        z: Nat::from_ascii_digits(z),
    })
}

/// The digits of line 1's three numbers, checked by the grammar.
pub(crate) fn header_digits(line: &[u8]) -> Result<[&[u8]; 3], FormatFault> {
    check_line(line)?;
    // The shape first, then the values, left to right.
    let [x, y, z] = shape(line, header_fields)?;
    positive(line, x)?;
    positive(line, y)?;
    positive(line, z)?;
    Ok([x, y, z])
}

/// A line's content, its terminator taken off: r[format.eol],
/// r[decision.line-ending]: a line ends at LF, and a CR just before the LF
/// is part of the terminator (any other CR stays, and is a fault the
/// grammar finds); r[decision.final-newline]: the last line may come
/// without a terminator (`terminated` false), and is then all content.
/// `line` comes without its LF.
#[inline]
pub(crate) fn line_content(line: &[u8], terminated: bool) -> &[u8] {
    if terminated {
        line.strip_suffix(b"\r").unwrap_or(line)
    } else {
        line
    }
}

/// Parses a move line (without its terminator): the column, 1-based.
///
/// # Errors
/// The line's fault (see the module's comment): where its bytes stop
/// matching the grammar, else a zero.
pub fn parse_move(line: &[u8]) -> Result<Nat, FormatFault> {
    move_digits(line).map(Nat::from_ascii_digits)
}

/// Checks a move line (without its terminator) as [`parse_move`] does and
/// returns its digits, leading zeros included, without making the number:
/// for a caller that can tell from their count alone that the column is
/// past the frame.
///
/// # Errors
/// As [`parse_move`].
pub(crate) fn move_digits(line: &[u8]) -> Result<&[u8], FormatFault> {
    check_line(line)?;
    let column = shape(line, move_field)?;
    positive(line, column)?;
    Ok(column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_three_single_spaced_numbers() {
        let h = parse_header(b"7 6 4").unwrap();
        assert_eq!((h.x, h.y, h.z), (7.into(), 6.into(), 4.into()));
        assert_eq!(
            parse_header(b"7  6 4"),
            Err(FormatFault::UnexpectedByte {
                byte: b' ',
                column: 3
            })
        );
        assert_eq!(
            parse_header(b"7\t6 4"),
            Err(FormatFault::UnexpectedByte {
                byte: b'\t',
                column: 2
            })
        );
        assert_eq!(
            parse_header(b"7 6"),
            Err(FormatFault::UnexpectedEnd { column: 4 })
        );
        assert_eq!(
            parse_header(b"7 6 4 "),
            Err(FormatFault::UnexpectedByte {
                byte: b' ',
                column: 6
            })
        );
        assert_eq!(parse_header(b"7 0 4"), Err(FormatFault::Zero { column: 3 }));
        assert_eq!(
            parse_header(b"7 6 4\r"),
            Err(FormatFault::LoneCarriageReturn { column: 6 })
        );
    }

    /// r[format.positive]: a line's shape is checked before its values,
    /// so a zero before a byte out of place is not what is reported.
    #[test]
    fn the_shape_is_faulted_before_a_zero() {
        let x_at = |column| FormatFault::UnexpectedByte { byte: b'x', column };
        assert_eq!(parse_header(b"0 6 x"), Err(x_at(5)));
        assert_eq!(parse_header(b"0 x 6"), Err(x_at(3)));
        assert_eq!(parse_header(b"x 0 6"), Err(x_at(1)));
        assert_eq!(parse_header(b"0 6 4x"), Err(x_at(6)));
        assert_eq!(
            parse_header(b"0 6"),
            Err(FormatFault::UnexpectedEnd { column: 4 })
        );
        assert_eq!(
            parse_header(b"0 6 4\r"),
            Err(FormatFault::LoneCarriageReturn { column: 6 })
        );
        assert_eq!(parse_move(b"0x"), Err(x_at(2)));
        // A line of the right shape: its first zero, at the number's first byte.
        assert_eq!(
            parse_header(b"7 00 0"),
            Err(FormatFault::Zero { column: 3 })
        );
        assert_eq!(parse_header(b"0 6 4"), Err(FormatFault::Zero { column: 1 }));
    }

    #[test]
    fn move_is_one_positive_number() {
        assert_eq!(parse_move(b"007"), Ok(7.into()));
        assert_eq!(
            parse_move(b"+1"),
            Err(FormatFault::UnexpectedByte {
                byte: b'+',
                column: 1
            })
        );
        assert_eq!(parse_move(b"000"), Err(FormatFault::Zero { column: 1 }));
        assert_eq!(parse_move(b""), Err(FormatFault::EmptyLine));
        assert_eq!(
            parse_move(b"1 "),
            Err(FormatFault::UnexpectedByte {
                byte: b' ',
                column: 2
            })
        );
    }
}
