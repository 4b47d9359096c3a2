//! The verdict's vocabulary: the codes, the findings a judge establishes, and
//! the one place that decides between findings (r[code.precedence]).

use std::fmt;

use super::grammar::FormatFault;
use super::run::{Player, WinningRun};
use crate::nat::Nat;

/// The brief's message for a command line without exactly one file
/// (r[code.args]), byte for byte.
pub const USAGE: &str = "connectz.py: Provide one input file";

/// A column outside the frame is shown by at most this many digits (and is
/// kept by one more, to tell that it was longer).
pub const SHOWN_DIGITS: usize = 40;

/// The code a checker prints (r[code.table]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// 0: the frame filled with no winning run.
    Draw,
    /// 1: player 1 completed a winning run.
    WinOne,
    /// 2: player 2 completed a winning run.
    WinTwo,
    /// 3: no winning run, frame not full.
    Incomplete,
    /// 4: a move after a winning run was completed.
    IllegalContinue,
    /// 5: a move into a full column.
    IllegalRow,
    /// 6: a column greater than X.
    IllegalColumn,
    /// 7: a frame on which no winning run can ever be completed.
    IllegalGame,
    /// 8: the file does not conform to the format.
    InvalidFile,
    /// 9: the file cannot be opened or read.
    FileError,
}

impl Code {
    /// All codes, 0 to 9.
    pub const ALL: [Code; 10] = [
        Code::Draw,
        Code::WinOne,
        Code::WinTwo,
        Code::Incomplete,
        Code::IllegalContinue,
        Code::IllegalRow,
        Code::IllegalColumn,
        Code::IllegalGame,
        Code::InvalidFile,
        Code::FileError,
    ];

    /// The digit printed.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The code for a digit 0 to 9.
    pub fn from_number(n: u8) -> Option<Code> {
        Code::ALL.get(usize::from(n)).copied()
    }

    /// The brief's name for it.
    pub fn name(self) -> &'static str {
        [
            "draw",
            "win for player 1",
            "win for player 2",
            "incomplete",
            "illegal continue",
            "illegal row",
            "illegal column",
            "illegal game",
            "invalid file",
            "file error",
        ][self as usize]
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Something the judge established about the file, with where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The file could not be opened or read (r[code.io]).
    Unreadable {
        /// The operating system's words.
        error: String,
    },
    /// The file breaks the format at this line (r[format.file] and below).
    Format {
        /// 1-based line.
        line: u64,
        /// What is wrong.
        fault: FormatFault,
    },
    /// No winning run can ever be completed on the frame (r[rule.winnable]).
    Unwinnable,
    /// The game needed more memory than the judge could get, at this line
    /// (r[decision.out-of-memory]): only a format fault or a column outside
    /// the frame can still decide the code; otherwise it is 9.
    OutOfMemory {
        /// 1-based line.
        line: u64,
    },
    /// A column greater than X (r[rule.column-range]).
    OffFrame {
        /// 1-based line.
        line: u64,
        /// The column asked for; of a longer one, its first
        /// [`SHOWN_DIGITS`] + 1 digits (r[decision.big-numbers]).
        column: Nat,
    },
    /// A move into a full column (r[rule.column-full]).
    ColumnFull {
        /// 1-based line.
        line: u64,
        /// The full column.
        column: Nat,
    },
    /// A move after a run won the game (r[rule.after-win]).
    AfterWin {
        /// 1-based line.
        line: u64,
    },
    /// A winning run was completed (r[rule.line]).
    Won {
        /// 1-based line of the completing move.
        line: u64,
        /// The winning run.
        run: WinningRun,
    },
    /// The frame filled with no winning run: a draw (r[rule.end]).
    Draw {
        /// 1-based line of the last move.
        line: u64,
    },
    /// Moves ran out with no winning run and room left (r[rule.end]).
    Unfinished {
        /// 1-based last line.
        line: u64,
    },
}

impl Finding {
    /// The code this finding gives when it decides the verdict.
    pub fn code(&self) -> Code {
        match self {
            Finding::Unreadable { .. } => Code::FileError,
            Finding::Format { .. } => Code::InvalidFile,
            Finding::Unwinnable => Code::IllegalGame,
            Finding::OutOfMemory { .. } => Code::FileError,
            Finding::OffFrame { .. } => Code::IllegalColumn,
            Finding::ColumnFull { .. } => Code::IllegalRow,
            Finding::AfterWin { .. } => Code::IllegalContinue,
            Finding::Won { run, .. } => match run.player {
                Player::One => Code::WinOne,
                Player::Two => Code::WinTwo,
            },
            Finding::Draw { .. } => Code::Draw,
            Finding::Unfinished { .. } => Code::Incomplete,
        }
    }

    /// The spec clause behind it.
    pub fn rule(&self) -> &'static str {
        match self {
            Finding::Unreadable { .. } => "code.io",
            Finding::Format { line, fault } => match fault {
                FormatFault::EmptyFile => "format.file",
                FormatFault::EmptyLine => "format.empty-line",
                FormatFault::LoneCarriageReturn { .. } => "format.eol",
                FormatFault::Zero { .. } => "format.positive",
                FormatFault::UnexpectedByte { .. } | FormatFault::UnexpectedEnd { .. } => {
                    if *line == 1 {
                        "format.header"
                    } else {
                        "format.move"
                    }
                }
            },
            Finding::Unwinnable => "rule.winnable",
            Finding::OutOfMemory { .. } => "decision.out-of-memory",
            Finding::OffFrame { .. } => "rule.column-range",
            Finding::ColumnFull { .. } => "rule.column-full",
            Finding::AfterWin { .. } => "rule.after-win",
            Finding::Won { .. } => "rule.line",
            Finding::Draw { .. } | Finding::Unfinished { .. } => "rule.end",
        }
    }

    /// The 1-based line it happened on, if it belongs to one.
    pub fn line(&self) -> Option<u64> {
        match self {
            Finding::Unreadable { .. } => None,
            Finding::Unwinnable => Some(1),
            Finding::Format { line, .. }
            | Finding::OutOfMemory { line }
            | Finding::OffFrame { line, .. }
            | Finding::ColumnFull { line, .. }
            | Finding::AfterWin { line }
            | Finding::Won { line, .. }
            | Finding::Draw { line }
            | Finding::Unfinished { line } => Some(*line),
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

/// The result of play, when no fault outranks it (r[rule.end]): the first
/// winning run (`won`: a run wins even on the last cell,
/// r[decision.win-on-last-cell]); else a draw when the frame is full, at
/// the last move line (`last_move`); else unfinished, at the last line
/// (`lines`; a header alone is unfinished, r[decision.header-only]). No
/// game (`full` `None`: no header, a frame that cannot be won, or memory
/// gone) has no result.
pub(crate) fn result_of_play(
    won: Option<&Finding>,
    full: Option<bool>,
    last_move: u64,
    lines: u64,
) -> Option<Finding> {
    match (won, full) {
        (Some(won), _) => Some(won.clone()),
        (None, Some(true)) => Some(Finding::Draw { line: last_move }),
        (None, Some(false)) => Some(Finding::Unfinished { line: lines.max(1) }),
        (None, None) => None,
    }
}

/// r[code.precedence], r[decision.precedence]: the one place that decides
/// between findings.
/// 9 > 8 > 7 > 6 > 5 > 4 > the result of play (1, 2, 0 or 3); among findings
/// of the same code the first in the file stands. A game the judge could not
/// hold in memory (r[decision.out-of-memory]) ranks between 6 and 5: a format
/// fault or a column outside the frame still decides, nothing else can.
pub fn decide<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Option<&'a Finding> {
    let mut best: Option<&Finding> = None;
    for finding in findings {
        if best.is_none_or(|b| rank(finding) > rank(b)) {
            best = Some(finding);
        }
    }
    best
}

fn rank(finding: &Finding) -> u8 {
    match finding {
        Finding::Unreadable { .. } => 7,
        Finding::Format { .. } => 6,
        Finding::Unwinnable => 5,
        Finding::OffFrame { .. } => 4,
        Finding::OutOfMemory { .. } => 3,
        Finding::ColumnFull { .. } => 2,
        Finding::AfterWin { .. } => 1,
        Finding::Won { .. } | Finding::Draw { .. } | Finding::Unfinished { .. } => 0,
    }
}

/// What later lines can still change, given the strongest finding so far
/// (derived from [`rank`], so it cannot disagree with [`decide`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Watch {
    /// Everything: play every move.
    Play,
    /// Only format faults and columns outside the frame.
    Columns,
    /// Only format faults.
    Format,
    /// Nothing: the verdict is final.
    Nothing,
}

pub(crate) fn watch(strongest: &Finding) -> Watch {
    let r = rank(strongest);
    if r >= rank(&Finding::Format {
        line: 0,
        fault: FormatFault::EmptyFile,
    }) {
        Watch::Nothing
    } else if r >= rank(&Finding::Unwinnable) {
        Watch::Format
    } else if r
        >= rank(&Finding::ColumnFull {
            line: 0,
            column: Nat::ZERO,
        })
    {
        Watch::Columns
    } else {
        Watch::Play
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// r[decision.precedence]: among findings of one rank the first in the
    /// file stands.
    #[test]
    fn the_first_of_equal_findings_stands() {
        let fault = |line| Finding::Format {
            line,
            fault: crate::grammar::FormatFault::EmptyLine,
        };
        let findings = [fault(2), fault(5)];
        assert_eq!(decide(&findings), Some(&findings[0]));
        let findings = [Finding::AfterWin { line: 4 }, fault(9), fault(3)];
        assert_eq!(decide(&findings), Some(&findings[1]));
    }
}
