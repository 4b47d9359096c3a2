//! The verdict's vocabulary: the codes, the findings a judge establishes, and
//! the one place that decides between findings (r[code.precedence]).

use std::fmt;

use super::grammar::FormatFault;
use super::run::{Player, WinningRun};
use crate::nat::Nat;

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
        /// The column asked for; of one with more significant digits than
        /// X, which is not read whole (r[decision.big-numbers]), its first
        /// 41 (one more than a message shows, to tell that it was longer).
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
    /// The code this finding gives when it decides the verdict: its
    /// rank's (r[code.table]), or the result of play's.
    pub fn code(&self) -> Code {
        if let Some(code) = self.rank().code() {
            return code;
        }
        match self {
            Finding::Won { run, .. } if run.player == Player::Two => Code::WinTwo,
            Finding::Won { .. } => Code::WinOne,
            Finding::Draw { .. } => Code::Draw,
            _ => Code::Incomplete,
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

/// How strongly a finding decides the code, from the weakest
/// (r[code.precedence], r[decision.precedence], r[decision.out-of-memory]):
/// 9 > 8 > 7 > 6 > 5 > 4 > the result of play, the order of the codes,
/// where a game the judge could not hold in memory is a 9 that ranks
/// between 6 and 5 (a format fault, an unwinnable frame or a column
/// outside the frame needs no board, and still decides; a full column, a
/// move after the win and the result of play need the board, and cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// A winning run, a draw or unfinished play: 1, 2, 0 or 3.
    Result,
    /// 4: a move after the win.
    AfterWin,
    /// 5: a full column.
    ColumnFull,
    /// 9: memory for the game ran out.
    OutOfMemory,
    /// 6: a column outside the frame.
    OffFrame,
    /// 7: no game on the frame can be won.
    Unwinnable,
    /// 8: a format fault.
    Format,
    /// 9: the file cannot be read.
    Unreadable,
}

impl Rank {
    /// Every rank, the strongest first.
    pub const STRONGEST_FIRST: [Rank; 8] = [
        Rank::Unreadable,
        Rank::Format,
        Rank::Unwinnable,
        Rank::OffFrame,
        Rank::OutOfMemory,
        Rank::ColumnFull,
        Rank::AfterWin,
        Rank::Result,
    ];

    /// The code a finding of this rank gives; `None` for the result of
    /// play, which is 1, 2, 0 or 3.
    pub fn code(self) -> Option<Code> {
        match self {
            Rank::Unreadable | Rank::OutOfMemory => Some(Code::FileError),
            Rank::Format => Some(Code::InvalidFile),
            Rank::Unwinnable => Some(Code::IllegalGame),
            Rank::OffFrame => Some(Code::IllegalColumn),
            Rank::ColumnFull => Some(Code::IllegalRow),
            Rank::AfterWin => Some(Code::IllegalContinue),
            Rank::Result => None,
        }
    }

    /// What findings of this rank are, in a word or two.
    pub fn name(self) -> &'static str {
        match self {
            Rank::Unreadable => "unreadable file",
            Rank::Format => "format fault",
            Rank::Unwinnable => "unwinnable frame",
            Rank::OffFrame => "column outside the frame",
            Rank::OutOfMemory => "out of memory",
            Rank::ColumnFull => "full column",
            Rank::AfterWin => "move after the win",
            Rank::Result => "result of play",
        }
    }
}

impl Finding {
    /// How strongly it decides the code ([`Rank`]).
    pub fn rank(&self) -> Rank {
        match self {
            Finding::Unreadable { .. } => Rank::Unreadable,
            Finding::Format { .. } => Rank::Format,
            Finding::Unwinnable => Rank::Unwinnable,
            Finding::OffFrame { .. } => Rank::OffFrame,
            Finding::OutOfMemory { .. } => Rank::OutOfMemory,
            Finding::ColumnFull { .. } => Rank::ColumnFull,
            Finding::AfterWin { .. } => Rank::AfterWin,
            Finding::Won { .. } | Finding::Draw { .. } | Finding::Unfinished { .. } => Rank::Result,
        }
    }
}

/// r[code.precedence], r[decision.precedence]: the one place that decides
/// between findings. The strongest [`Rank`] decides; among findings of
/// one rank, the first in the file stands.
pub fn decide<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Option<&'a Finding> {
    let mut best: Option<&Finding> = None;
    for finding in findings {
        if best.is_none_or(|b| finding.rank() > b.rank()) {
            best = Some(finding);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

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
