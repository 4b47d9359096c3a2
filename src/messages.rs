//! The words the judge uses for what it found: the messages of findings and
//! format faults, and how a long column is shown. Presentation only: which
//! finding a file gets is for the rules (`rules/`), not for these.

use std::fmt;

use crate::grammar::FormatFault;
use crate::run::Direction;
use crate::verdict::Finding;

/// A column outside the frame is shown by at most this many digits. Public
/// because a finding keeps a column with more digits than X by its first
/// `SHOWN_DIGITS + 1` (the judge never reads such a column whole,
/// r[decision.big-numbers]): whoever draws or prints one shows this many
/// and marks the cut, as the messages here do.
pub const SHOWN_DIGITS: usize = 40;

impl fmt::Display for FormatFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatFault::EmptyFile => write!(f, "the file is empty"),
            FormatFault::EmptyLine => write!(f, "empty line"),
            FormatFault::LoneCarriageReturn { column } => {
                write!(f, "carriage return without line feed at byte {column}")
            }
            FormatFault::UnexpectedByte { byte, column } => {
                write!(
                    f,
                    "unexpected byte '{}' at byte {column}",
                    [*byte].escape_ascii()
                )
            }
            FormatFault::UnexpectedEnd { column } => {
                write!(f, "line ends early at byte {column}")
            }
            FormatFault::Zero { column } => {
                write!(f, "zero is not a positive integer (byte {column})")
            }
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Unreadable { error } => write!(f, "cannot read the file: {error}"),
            Finding::Format { line, fault } => write!(f, "line {line}: {fault}"),
            Finding::Unwinnable => write!(
                f,
                "line 1: no winning run can ever be completed on this frame"
            ),
            Finding::OutOfMemory { line } => write!(
                f,
                "line {line}: the game needs more memory than the judge could get"
            ),
            Finding::OffFrame { line, column } if column.digit_count() > SHOWN_DIGITS => write!(
                f,
                "line {line}: column {}... (more than {SHOWN_DIGITS} digits) is outside the frame",
                column.leading(SHOWN_DIGITS)
            ),
            Finding::OffFrame { line, column } => {
                write!(f, "line {line}: column {column} is outside the frame")
            }
            Finding::ColumnFull { line, column } => {
                write!(f, "line {line}: column {column} is already full")
            }
            Finding::AfterWin { line } => write!(f, "line {line}: move after the game was won"),
            Finding::Won { line, run } => write!(
                f,
                "line {line}: player {} completes a run of {} ({} from column {}, row {})",
                run.player.number(),
                run.length,
                run.direction,
                run.column,
                run.row
            ),
            Finding::Draw { line } => {
                write!(f, "line {line}: the frame is full with no winning run")
            }
            Finding::Unfinished { line } => {
                write!(
                    f,
                    "line {line}: moves end with no winning run and room left"
                )
            }
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Horizontal => "horizontal",
            Direction::Vertical => "vertical",
            Direction::Diagonal => "diagonal",
            Direction::AntiDiagonal => "anti-diagonal",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;

    /// r[decision.big-numbers]: a column past the frame is shown whole up
    /// to SHOWN_DIGITS digits, and by its first SHOWN_DIGITS beyond: just
    /// below, at and above the limit.
    #[test]
    fn columns_past_the_frame_are_shown_up_to_the_limit() {
        for digits in [SHOWN_DIGITS - 1, SHOWN_DIGITS, SHOWN_DIGITS + 1] {
            let column = Nat::from_digits("7".repeat(digits).as_bytes()).unwrap();
            let text = Finding::OffFrame { line: 2, column }.to_string();
            let shown = "7".repeat(digits.min(SHOWN_DIGITS));
            if digits <= SHOWN_DIGITS {
                assert_eq!(text, format!("line 2: column {shown} is outside the frame"));
            } else {
                assert_eq!(
                    text,
                    format!(
                        "line 2: column {shown}... (more than {SHOWN_DIGITS} digits) is outside the frame"
                    )
                );
            }
        }
    }
}
