//! The judge: reads a file in chunks, folds [`step`] over its moves and
//! applies the precedence of spec/codes.md in one place, [`decide`].

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use memchr::memchr;

use crate::board::{Player, Storage, WinLine};
use crate::game::{Effect, Game, Keep, step};
use crate::grammar::{FormatFault, Header, move_digits, parse_header};
use crate::nat::Nat;
use crate::partial::{Partial, Pushed};
use crate::rules::winnable;

/// The code a checker prints (r[code.table]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// 0: the frame filled with no line.
    Draw,
    /// 1: player 1 completed a line.
    WinOne,
    /// 2: player 2 completed a line.
    WinTwo,
    /// 3: no line, frame not full.
    Incomplete,
    /// 4: a move after a line was completed.
    IllegalContinue,
    /// 5: a move into a full column.
    IllegalRow,
    /// 6: a column greater than X.
    IllegalColumn,
    /// 7: a frame on which no line can ever be completed.
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
    /// No line can ever be completed on the frame (r[rule.winnable]).
    Unwinnable,
    /// The game needed more memory than the judge could get, at this line
    /// (r[decision.out-of-memory]): only a format fault or a column outside
    /// the frame can still decide the code; otherwise it is 9.
    Exhausted {
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
    /// A move after a line was completed (r[rule.after-win]).
    AfterLine {
        /// 1-based line.
        line: u64,
    },
    /// A line was completed (r[rule.line]).
    Line {
        /// 1-based line of the completing move.
        line: u64,
        /// The line.
        win: WinLine,
    },
    /// The frame filled with no line (r[rule.end]).
    Full {
        /// 1-based line of the last move.
        line: u64,
    },
    /// Moves ran out with no line and room left (r[rule.end]).
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
            Finding::Exhausted { .. } => Code::FileError,
            Finding::OffFrame { .. } => Code::IllegalColumn,
            Finding::ColumnFull { .. } => Code::IllegalRow,
            Finding::AfterLine { .. } => Code::IllegalContinue,
            Finding::Line { win, .. } => match win.player {
                Player::One => Code::WinOne,
                Player::Two => Code::WinTwo,
            },
            Finding::Full { .. } => Code::Draw,
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
            Finding::Exhausted { .. } => "decision.out-of-memory",
            Finding::OffFrame { .. } => "rule.column-range",
            Finding::ColumnFull { .. } => "rule.column-full",
            Finding::AfterLine { .. } => "rule.after-win",
            Finding::Line { .. } => "rule.line",
            Finding::Full { .. } | Finding::Unfinished { .. } => "rule.end",
        }
    }

    /// The 1-based line it happened on, if it belongs to one.
    pub fn line(&self) -> Option<u64> {
        match self {
            Finding::Unreadable { .. } => None,
            Finding::Unwinnable => Some(1),
            Finding::Format { line, .. }
            | Finding::Exhausted { line }
            | Finding::OffFrame { line, .. }
            | Finding::ColumnFull { line, .. }
            | Finding::AfterLine { line }
            | Finding::Line { line, .. }
            | Finding::Full { line }
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
                "line 1: no line of that length can ever be completed on this frame"
            ),
            Finding::Exhausted { line } => write!(
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
            Finding::AfterLine { line } => write!(f, "line {line}: move after the game was won"),
            Finding::Line { line, win } => write!(
                f,
                "line {line}: player {} completes a line of {} ({} from column {}, row {})",
                win.player.number(),
                win.length,
                win.direction,
                win.column,
                win.row
            ),
            Finding::Full { line } => write!(f, "line {line}: the frame is full with no line"),
            Finding::Unfinished { line } => {
                write!(f, "line {line}: moves end with no line and room left")
            }
        }
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
        Finding::Exhausted { .. } => 3,
        Finding::ColumnFull { .. } => 2,
        Finding::AfterLine { .. } => 1,
        Finding::Line { .. } | Finding::Full { .. } | Finding::Unfinished { .. } => 0,
    }
}

/// What later lines can still change, given the strongest finding so far
/// (derived from [`rank`], so it cannot disagree with [`decide`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Watch {
    /// Everything: play every move.
    Play,
    /// Only format faults and columns outside the frame.
    Columns,
    /// Only format faults.
    Format,
    /// Nothing: the verdict is final.
    Nothing,
}

fn watch(strongest: &Finding) -> Watch {
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

/// The judge's verdict with the evidence behind it.
#[derive(Clone, Debug)]
pub struct Report {
    /// The finding that decides the code.
    pub verdict: Finding,
    /// The first finding of each kind of fault, in file order.
    pub faults: Vec<Finding>,
    /// The result of play (the first line, a full frame, or unfinished) as
    /// far as moves were played: play stops at a fault of code 5 or above.
    pub result: Option<Finding>,
    /// The frame, if the header was read.
    pub header: Option<Header>,
    /// The game as it stood at the end, if it was played.
    pub game: Option<Game>,
}

impl Report {
    /// The code to print.
    pub fn code(&self) -> Code {
        self.verdict.code()
    }
}

/// A streaming judge: feed it the file's bytes in chunks of any size, then
/// call [`Judge::finish`]. Memory does not grow with the file's length, nor
/// with a line's beyond what exactness needs (r[resource.line]), and once the
/// verdict is settled it reads nothing more (r[resource.settled]).
#[derive(Debug)]
pub struct Judge {
    keep: Keep,
    lines: u64,
    /// The line not yet ended, when it spans chunks.
    partial: Partial,
    seen_bytes: bool,
    header: Option<Header>,
    /// Significant digits of X: a column with more is outside the frame.
    x_digits: usize,
    game: Option<Game>,
    faults: Vec<Finding>,
    watch: Watch,
    line_found: Option<Finding>,
    last_move: u64,
}

impl Default for Judge {
    fn default() -> Self {
        Judge::new()
    }
}

impl Judge {
    /// A judge that keeps only what the verdict needs.
    pub fn new() -> Judge {
        Judge::keeping(Keep::default())
    }

    /// A judge whose game keeps its board as `keep` says: the whole board
    /// to the end for pictures of it, a forced store for tests.
    pub fn keeping(keep: Keep) -> Judge {
        Judge {
            keep,
            lines: 0,
            partial: Partial::new(),
            seen_bytes: false,
            header: None,
            x_digits: 0,
            game: None,
            faults: Vec::new(),
            watch: Watch::Play,
            line_found: None,
            last_move: 0,
        }
    }

    /// A judge whose board is always the sparse map, whatever the frame:
    /// for tests that hold the stores to each other.
    pub fn with_sparse_board() -> Judge {
        Judge::keeping(Keep {
            storage: Storage::Sparse,
            board: false,
        })
    }

    /// The game so far, once the header is read and the frame can be won.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Bytes held for a line not yet ended (r[resource.line]).
    pub fn buffered(&self) -> usize {
        self.partial.capacity()
    }

    /// True once the verdict can no longer change: the rest need not be read.
    pub fn is_settled(&self) -> bool {
        self.watch == Watch::Nothing
    }

    /// Takes the next chunk of the file.
    pub fn feed(&mut self, chunk: &[u8]) {
        if chunk.is_empty() || self.is_settled() {
            return;
        }
        self.seen_bytes = true;
        let mut rest = chunk;
        if !self.partial.is_empty() {
            match memchr(b'\n', rest) {
                Some(end) => {
                    let pushed = self.partial.push(&rest[..end]);
                    self.end_partial(pushed, true);
                    rest = &rest[end + 1..];
                }
                None => {
                    let pushed = self.partial.push(rest);
                    if pushed != Pushed::Open {
                        self.end_partial(pushed, false);
                    }
                    return;
                }
            }
        }
        while !rest.is_empty() && !self.is_settled() {
            if self.lines > 0 {
                let (bytes, lines) = match self.watch {
                    Watch::Play => self.play_plain(rest),
                    _ => self.skim(rest),
                };
                rest = &rest[bytes..];
                self.lines += lines;
            }
            match memchr(b'\n', rest) {
                Some(end) => {
                    self.take_line(&rest[..end], true, None);
                    rest = &rest[end + 1..];
                }
                None => {
                    // Enough digits to compare a column with X and to show it.
                    let keep = match self.watch {
                        Watch::Play | Watch::Columns => self.x_digits.max(SHOWN_DIGITS) + 1,
                        Watch::Format | Watch::Nothing => 1,
                    };
                    self.partial.start(self.lines == 0, keep);
                    let pushed = self.partial.push(rest);
                    if pushed != Pushed::Open {
                        self.end_partial(pushed, false);
                    }
                    break;
                }
            }
        }
    }

    /// The partial line is over: it reached its line feed (`at_line_feed`),
    /// the grammar can already tell it does not conform, or memory ran out.
    fn end_partial(&mut self, pushed: Pushed, at_line_feed: bool) {
        let partial = std::mem::replace(&mut self.partial, Partial::new());
        match pushed {
            Pushed::Exhausted => {
                // r[decision.out-of-memory]: the line is followed to its end
                // but not kept; it is judged as far as that allows.
                self.record(Finding::Exhausted {
                    line: self.lines + 1,
                });
                self.game = None;
                self.partial = partial;
                if at_line_feed {
                    self.lines += 1;
                    self.partial.clear();
                }
                return;
            }
            Pushed::Open if partial.discarded() => self.lines += 1,
            Pushed::Open if at_line_feed => self.take_line(partial.bytes(), true, Some(&partial)),
            // The line cannot conform whatever follows: the grammar names the
            // fault from the bytes up to it.
            Pushed::Cut | Pushed::Open => self.take_line(partial.bytes(), false, Some(&partial)),
        }
        self.partial = partial;
        self.partial.clear();
        // A long line's memory is not kept for the lines after it.
        self.partial.shrink();
    }

    /// Skips whole lines that conform and can change nothing but a bound
    /// check: the fast path once only format faults (and columns outside
    /// the frame) still matter. Any line it cannot vouch for is left to
    /// [`Judge::take_line`], so faults are always described by the grammar.
    /// Returns the bytes and lines skipped.
    fn skim(&self, bytes: &[u8]) -> (usize, u64) {
        let limit = match self.watch {
            Watch::Format => u64::MAX,
            Watch::Columns => match self.header.as_ref().and_then(|h| h.x.to_u64()) {
                Some(x) => x,
                None => return (0, 0),
            },
            Watch::Play | Watch::Nothing => return (0, 0),
        };
        // Blocks that pass a byte-local test (vectorised by the compiler)
        // are vouched for at once; the rest go line by line.
        let single_digit = limit <= 9;
        let max_digit = if single_digit {
            b'0' + limit as u8
        } else {
            b'9'
        };
        let local = single_digit || self.watch == Watch::Format;
        let mut start = 0;
        let mut lines = 0;
        let mut pos = 0;
        while pos < bytes.len() {
            let end = (pos + SKIM_BLOCK).min(bytes.len());
            let block = &bytes[pos..end];
            let prev = if pos == 0 { b'\n' } else { bytes[pos - 1] };
            if local && plain_block(block, prev, max_digit, single_digit) {
                let feeds = count_line_feeds(block);
                if let Some(last) = memchr::memrchr(b'\n', block) {
                    start = pos + last + 1;
                    lines += feeds;
                }
                pos = end;
                continue;
            }
            let (skipped, n) = skim_lines(&bytes[start..], end - start, limit);
            start += skipped;
            lines += n;
            if start < end {
                return (start, lines);
            }
            pos = start;
        }
        (start, lines)
    }

    /// Plays plain move lines (see [`plain_move`]) straight from the bytes,
    /// while every move still matters; stops at the first line it cannot
    /// vouch for, or once a fault changes what must be watched. Returns the
    /// bytes and lines consumed.
    fn play_plain(&mut self, bytes: &[u8]) -> (usize, u64) {
        let mut start = 0;
        let mut lines = 0;
        let mut batch = [(0u64, 0usize); BATCH];
        while self.watch == Watch::Play {
            // Parse a batch ahead and touch the cells its moves will use, so
            // their cache misses overlap instead of coming one per move.
            let mut parsed = 0;
            let mut at = start;
            while parsed < BATCH {
                let Some((column, end)) = plain_move(bytes, at) else {
                    break;
                };
                batch[parsed] = (column, end);
                parsed += 1;
                at = end;
            }
            let Some(game) = &self.game else {
                break;
            };
            for &(column, _) in &batch[..parsed] {
                game.warm(column);
            }
            for &(column, end) in &batch[..parsed] {
                if self.watch != Watch::Play {
                    break;
                }
                lines += 1;
                let number = self.lines + lines;
                self.last_move = number;
                self.play(number, Nat::from(column));
                start = end;
            }
            if parsed < BATCH {
                break;
            }
        }
        (start, lines)
    }

    fn record(&mut self, finding: Finding) {
        let kind = std::mem::discriminant(&finding);
        if self
            .faults
            .iter()
            .any(|f| std::mem::discriminant(f) == kind)
        {
            return;
        }
        self.faults.push(finding);
        if let Some(strongest) = decide(&self.faults) {
            self.watch = watch(strongest);
        }
    }

    /// One line, its LF removed. r[format.eol], r[decision.line-ending]: a CR
    /// before the LF is part of the terminator; any other CR is a fault,
    /// found by the grammar. r[decision.final-newline]: the last line may
    /// come without terminator (`terminated` false). `partial` holds the
    /// positions of bytes dropped from a long line.
    fn take_line(&mut self, line: &[u8], terminated: bool, partial: Option<&Partial>) {
        self.lines += 1;
        let content = if terminated {
            line.strip_suffix(b"\r").unwrap_or(line)
        } else {
            line
        };
        let number = self.lines;
        let locate = |fault: FormatFault| partial.map_or(fault.clone(), |p| p.locate(fault));
        if number == 1 {
            match parse_header(content) {
                Err(fault) => self.record(Finding::Format {
                    line: 1,
                    fault: locate(fault),
                }),
                Ok(header) => self.take_header(header),
            }
            return;
        }
        let digits = match move_digits(content) {
            Ok(digits) => digits,
            Err(fault) => {
                return self.record(Finding::Format {
                    line: number,
                    fault: locate(fault),
                });
            }
        };
        self.last_move = number;
        if self.watch == Watch::Format || self.watch == Watch::Nothing {
            return;
        }
        // r[decision.big-numbers]: a column with more significant digits than
        // X is past the frame whatever they are; only its first are kept.
        let zeros = digits.iter().take_while(|&&d| d == b'0').count();
        if self.header.is_some() && digits.len() - zeros > self.x_digits {
            let shown = &digits[zeros..(zeros + SHOWN_DIGITS + 1).min(digits.len())];
            return self.record(Finding::OffFrame {
                line: number,
                column: Nat::from_ascii_digits(shown),
            });
        }
        let column = Nat::from_ascii_digits(digits);
        match self.watch {
            Watch::Play => self.play(number, column),
            Watch::Columns => {
                if self.header.as_ref().is_some_and(|h| column > h.x) {
                    self.record(Finding::OffFrame {
                        line: number,
                        column: column.leading(SHOWN_DIGITS + 1),
                    });
                }
            }
            Watch::Format | Watch::Nothing => {}
        }
    }

    fn take_header(&mut self, header: Header) {
        if winnable(&header.x, &header.y, &header.z) {
            self.game = Some(Game::new(&header, self.keep));
        } else {
            self.record(Finding::Unwinnable);
        }
        self.x_digits = header.x.digit_count();
        self.header = Some(header);
    }

    #[inline]
    fn play(&mut self, number: u64, column: Nat) {
        let Some(game) = self.game.take() else {
            return;
        };
        let (game, effect) = step(game, &column);
        self.game = Some(game);
        match effect {
            Effect::OffFrame => self.record(Finding::OffFrame {
                line: number,
                column: column.leading(SHOWN_DIGITS + 1),
            }),
            Effect::ColumnFull => self.record(Finding::ColumnFull {
                line: number,
                column,
            }),
            Effect::Exhausted => {
                // r[decision.out-of-memory]: the board is given up; the rest
                // of the file is still read for faults that outrank it.
                self.game = None;
                self.record(Finding::Exhausted { line: number });
            }
            Effect::Placed {
                after_line: true, ..
            } => self.record(Finding::AfterLine { line: number }),
            Effect::Placed {
                completes: true, ..
            } => {
                if let Some(win) = self.game.as_ref().and_then(Game::line) {
                    self.line_found = Some(Finding::Line {
                        line: number,
                        win: win.clone(),
                    });
                }
            }
            Effect::Placed { .. } => {}
        }
    }

    /// Ends the input and gives the verdict.
    pub fn finish(mut self) -> Report {
        if !self.partial.is_empty() && !self.is_settled() {
            self.end_partial(Pushed::Open, false);
        }
        // r[format.file], r[decision.empty-file]: no bytes, no header.
        if !self.seen_bytes {
            self.record(Finding::Format {
                line: 1,
                fault: FormatFault::EmptyFile,
            });
        }
        // r[rule.end]: the result of play when no fault outranks it; a line
        // wins even on the last cell (r[decision.win-on-last-cell]), and a
        // header alone is unfinished (r[decision.header-only]).
        let result = match (&self.line_found, &self.game) {
            (Some(line), _) => Some(line.clone()),
            (None, Some(game)) if game.is_full() => Some(Finding::Full {
                line: self.last_move,
            }),
            (None, Some(_)) => Some(Finding::Unfinished {
                line: self.lines.max(1),
            }),
            (None, None) => None,
        };
        // Without a game a fault was always recorded (no bytes, a bad header,
        // a frame that cannot be won, or memory ran out), so `decide` always
        // has a finding; the fallback only keeps this function total.
        let verdict = decide(self.faults.iter().chain(result.iter()))
            .cloned()
            .unwrap_or(Finding::Format {
                line: 1,
                fault: FormatFault::EmptyFile,
            });
        Report {
            verdict,
            faults: self.faults,
            result,
            header: self.header,
            game: self.game,
        }
    }
}

/// Judges `bytes` fed in chunks of the given sizes (cycling; 0 counts as 1):
/// the verdict must not depend on how the input is cut.
pub fn judge_chunked(bytes: &[u8], sizes: &[usize]) -> Report {
    let mut judge = Judge::new();
    let mut rest = bytes;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() || judge.is_settled() {
            break;
        }
        let n = size.clamp(1, rest.len());
        judge.feed(&rest[..n]);
        rest = &rest[n..];
    }
    judge.finish()
}

/// Moves parsed ahead by [`Judge::play_plain`].
const BATCH: usize = 16;

/// Bytes tested at once by the fast path.
const SKIM_BLOCK: usize = 4096;

/// True when every line ending in `block` surely conforms: only digits and
/// LFs, every LF preceded by a digit 1 to `max_digit` (so no empty line and no
/// line of zeros), and with `single_digit`, every nonzero digit followed by
/// an LF (so each line's value is its last digit, at most `max_digit`).
/// `prev` is the byte before the block (LF at the start of a line).
fn plain_block(block: &[u8], prev: u8, max_digit: u8, single_digit: bool) -> bool {
    let pair_is_bad = |p: u8, b: u8| -> u8 {
        let digit = b.wrapping_sub(b'0') < 10;
        let lf = b == b'\n';
        let p_nonzero = p.wrapping_sub(b'1') < 9;
        let p_allowed = p.wrapping_sub(b'1') < max_digit - b'0';
        u8::from(!(digit | lf) | (lf & !p_allowed) | (single_digit & p_nonzero & !lf))
    };
    let Some(&first) = block.first() else {
        return true;
    };
    // Separate slices (not a chained iterator) so the loop vectorises.
    let bad = block[..block.len() - 1]
        .iter()
        .zip(&block[1..])
        .fold(pair_is_bad(prev, first), |bad, (&p, &b)| {
            bad | pair_is_bad(p, b)
        });
    bad == 0
}

/// Line feeds in `bytes`, counted in byte lanes so the loop vectorises.
fn count_line_feeds(bytes: &[u8]) -> u64 {
    bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
            u64::from(n)
        })
        .sum()
}

/// The common move line, recognised without the full grammar: 1 to 19
/// digits (so the value cannot wrap) with a value above zero, then LF or
/// CRLF. Returns the value and the index past the terminator. Anything else,
/// including a line cut by the end of `bytes`, is `None` and left to the
/// grammar (r[format.move]).
#[inline]
fn plain_move(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    // Twenty bytes at most: 19 digits and the terminator.
    let limit = bytes.len().min(start.saturating_add(20));
    let mut i = start;
    let mut value: u64 = 0;
    while i < limit {
        let d = bytes[i].wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    let digits = i - start;
    if digits == 0 || digits > 19 || value == 0 {
        return None;
    }
    match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b'\n'), _) => Some((value, i + 1)),
        (Some(b'\r'), Some(b'\n')) => Some((value, i + 2)),
        _ => None,
    }
}

/// Line by line: skips plain move lines with value at most `limit` that
/// start before `stop`. Returns bytes and lines.
fn skim_lines(bytes: &[u8], stop: usize, limit: u64) -> (usize, u64) {
    let mut start = 0;
    let mut lines = 0;
    while start < stop {
        match plain_move(bytes, start) {
            Some((value, end)) if value <= limit => {
                lines += 1;
                start = end;
            }
            _ => break,
        }
    }
    (start, lines)
}

/// Judges a whole file held in memory.
pub fn judge_bytes(bytes: &[u8]) -> Report {
    judge_bytes_with(bytes, Judge::new())
}

/// [`judge_bytes`] with a judge of the caller's making.
pub fn judge_bytes_with(bytes: &[u8], mut judge: Judge) -> Report {
    judge.feed(bytes);
    judge.finish()
}

/// A column outside the frame is shown by at most this many digits (and is
/// kept by one more, to tell that it was longer).
pub const SHOWN_DIGITS: usize = 40;

/// Chunk size for reading files.
const CHUNK: usize = 1 << 20;

/// Judges everything `reader` yields, read in chunks, until the verdict is
/// settled (r[resource.settled]): an endless reader gets its verdict once a
/// format fault is seen. A read error is code 9 (r[code.io]).
pub fn judge_reader(reader: impl Read) -> Report {
    judge_reader_with(reader, Judge::new())
}

/// [`judge_reader`] with a judge of the caller's making.
pub fn judge_reader_with(mut reader: impl Read, mut judge: Judge) -> Report {
    // A large buffer when memory allows, else a small one on the stack:
    // never an abort for want of a megabyte.
    let mut heap = Vec::new();
    let mut stack = [0u8; 4096];
    let buffer: &mut [u8] = if heap.try_reserve_exact(CHUNK).is_ok() {
        heap.resize(CHUNK, 0);
        &mut heap
    } else {
        &mut stack
    };
    loop {
        match reader.read(buffer) {
            Ok(0) => return judge.finish(),
            Ok(n) => {
                judge.feed(&buffer[..n]);
                if judge.is_settled() {
                    return judge.finish();
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return unreadable(&e),
        }
    }
}

/// Judges the file at `path`: r[code.io], r[decision.unreadable]: a path that cannot be opened or
/// read (missing, a directory, no permission, an I/O error) is code 9.
pub fn judge_path(path: &Path) -> Report {
    judge_path_with(path, Judge::new())
}

/// [`judge_path`] with a judge of the caller's making.
pub fn judge_path_with(path: &Path, judge: Judge) -> Report {
    match File::open(path) {
        Ok(file) => judge_reader_with(file, judge),
        Err(e) => unreadable(&e),
    }
}

fn unreadable(error: &io::Error) -> Report {
    Report {
        verdict: Finding::Unreadable {
            error: error.to_string(),
        },
        faults: Vec::new(),
        result: None,
        header: None,
        game: None,
    }
}
