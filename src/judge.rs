//! The streaming judge: reads a file in chunks of any size and feeds the
//! rules: line 1 to the header's grammar and winnability, each move line to
//! the grammar and [`step`] (the ordinary moves batched,
//! `Game::step_ordinary`), what each line and move did to the findings
//! (`rules::findings`), which give the verdict at the end. It reads and
//! feeds; what anything means is the rules' to say.

use memchr::memchr;

use crate::board::Keep;
use crate::fast::Storage;
use crate::fast::partial::{Partial, Pushed};
use crate::fast::scan::{BATCH, SKIM_BLOCK, plain_lines, plain_move, skim_lines};
use crate::findings::{Findings, longer_than_frame};
use crate::game::{Game, step};
use crate::grammar::{FormatFault, Header, header_digits, line_content, move_digits};
use crate::messages::SHOWN_DIGITS;
use crate::nat::Nat;
use crate::verdict::{Code, Finding};

/// What later lines can still change, given the strongest fault so far:
/// what the judge must still read them for.
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

impl Watch {
    /// What a later line can still change, as the findings say
    /// (`rules::findings`: whether play goes on, whether columns still
    /// count, whether the verdict is settled).
    fn after(findings: &Findings) -> Watch {
        if findings.settled() {
            Watch::Nothing
        } else if !findings.columns_count() {
            Watch::Format
        } else if !findings.plays_on() {
            Watch::Columns
        } else {
            Watch::Play
        }
    }
}

/// Plain move lines parsed ahead of play (see [`Judge::step_plain`]).
struct Batch {
    columns: [u64; BATCH],
    /// The index past each line's terminator.
    ends: [usize; BATCH],
    len: usize,
}

impl Default for Batch {
    fn default() -> Self {
        Batch {
            columns: [0; BATCH],
            ends: [0; BATCH],
            len: 0,
        }
    }
}

impl Batch {
    /// Up to [`BATCH`] plain move lines from `at`; fewer where a line is
    /// not plain or the bytes end.
    #[inline]
    fn parse(bytes: &[u8], mut at: usize) -> Batch {
        let mut batch = Batch::default();
        while batch.len < BATCH {
            let Some((column, end)) = plain_move(bytes, at) else {
                break;
            };
            batch.columns[batch.len] = column;
            batch.ends[batch.len] = end;
            batch.len += 1;
            at = end;
        }
        batch
    }
}

/// The judge's verdict with the evidence behind it.
#[derive(Clone, Debug)]
pub struct Report {
    /// The finding that decides the code.
    pub verdict: Finding,
    /// The first finding of each kind of fault, in file order.
    pub faults: Vec<Finding>,
    /// The result of play (the first winning run, a full frame, or unfinished) as
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
    /// The store the game's board is kept in.
    storage: Storage,
    lines: u64,
    /// The line not yet ended, when it spans chunks.
    partial: Partial,
    seen_bytes: bool,
    header: Option<Header>,
    /// Significant digits of X: a column with more is outside the frame.
    x_digits: usize,
    game: Option<Game>,
    findings: Findings,
    watch: Watch,
    /// The last line that held a move.
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
    /// to the end for pictures of it.
    pub fn keeping(keep: Keep) -> Judge {
        Judge::keeping_in(keep, Storage::Auto)
    }

    /// [`Judge::keeping`], its board in the store `storage` says (`Auto`
    /// but for the test hooks).
    pub(crate) fn keeping_in(keep: Keep, storage: Storage) -> Judge {
        Judge {
            keep,
            storage,
            lines: 0,
            partial: Partial::new(),
            seen_bytes: false,
            header: None,
            x_digits: 0,
            game: None,
            findings: Findings::default(),
            watch: Watch::Play,
            last_move: 0,
        }
    }

    /// The game so far, once the header is read and the frame can be won.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Bytes held for a line not yet ended (r[resource.line]); tests read
    /// it through `hooks::buffered`.
    #[allow(dead_code, reason = "read only through the test hooks")]
    pub(crate) fn buffered(&self) -> usize {
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
                    Watch::Play => self.step_plain(rest),
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

    /// A line whose bytes memory could not hold is over, with its fault.
    fn end_discarded(&mut self, fault: Option<FormatFault>) {
        self.lines += 1;
        if let Some(fault) = fault {
            self.findings.format(self.lines, fault);
        }
        self.rewatch();
    }

    /// The partial line is over: it reached its line feed (`at_line_feed`),
    /// the grammar can already tell it does not conform, or memory ran out.
    fn end_partial(&mut self, pushed: Pushed, at_line_feed: bool) {
        let partial = std::mem::replace(&mut self.partial, Partial::new());
        match pushed {
            Pushed::OutOfMemory => {
                // The line is followed to its end but not kept; it is judged
                // as far as that allows.
                self.findings.out_of_memory(self.lines + 1);
                self.game = None;
                let fault = match partial.cut_fault() {
                    // The same bytes cut it: its fault is known all the same.
                    Some(fault) => Some(fault),
                    None if at_line_feed => partial.end_fault(true),
                    None => {
                        self.rewatch();
                        self.partial = partial;
                        return;
                    }
                };
                self.end_discarded(fault);
            }
            // Its bytes were not kept: the partial line tells its fault.
            Pushed::Cut if partial.discarded() => self.end_discarded(partial.cut_fault()),
            Pushed::Open if partial.discarded() => {
                self.end_discarded(partial.end_fault(at_line_feed));
            }
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
            if local && let Some(feeds) = plain_lines(block, prev, max_digit, single_digit) {
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

    /// Steps through plain move lines (see [`plain_move`]) straight from the bytes,
    /// while every move still matters; stops at the first line it cannot
    /// vouch for, or once a fault changes what must be watched. Returns the
    /// bytes and lines consumed.
    fn step_plain(&mut self, bytes: &[u8]) -> (usize, u64) {
        let mut start = 0;
        let mut lines = 0;
        // A batch is parsed and the cells its moves will touch asked for
        // before any is stepped, so its cache misses overlap.
        let mut batch = Batch::parse(bytes, 0);
        while self.watch == Watch::Play && batch.len > 0 {
            if let Some(game) = &self.game {
                game.warm(&batch.columns[..batch.len]);
            }
            let next_at = batch.ends[batch.len - 1];
            let full = batch.len == BATCH;
            let (columns, ends) = (&batch.columns[..batch.len], &batch.ends[..batch.len]);
            let mut i = 0;
            while i < columns.len() && self.watch == Watch::Play {
                // Ordinary moves in one go; the first that is not (a win, a
                // full column, a column past the frame) is a `step`.
                let stepped = self
                    .game
                    .as_mut()
                    .map_or(0, |g| g.step_ordinary(&columns[i..]));
                if stepped > 0 {
                    i += stepped;
                    lines += stepped as u64;
                    start = ends[i - 1];
                    self.last_move = self.lines + lines;
                }
                if i < columns.len() {
                    lines += 1;
                    let number = self.lines + lines;
                    self.last_move = number;
                    self.step_line(number, Nat::from(columns[i]));
                    start = ends[i];
                    i += 1;
                }
            }
            // The next batch is parsed here rather than at the loop's head
            // from `start` (the same bytes): that form measured 1.1x slower
            // on the dense workload (paired whole-process timings).
            batch = match full {
                true => Batch::parse(bytes, next_at),
                false => Batch::default(),
            };
        }
        (start, lines)
    }

    /// What must still be watched, after a finding was recorded.
    fn rewatch(&mut self) {
        self.watch = Watch::after(&self.findings);
    }

    /// One line, its LF removed, `terminated` false for a last line without
    /// one (its content: [`line_content`]). `partial` holds the positions of
    /// bytes dropped from a long line.
    fn take_line(&mut self, line: &[u8], terminated: bool, partial: Option<&Partial>) {
        self.lines += 1;
        let content = line_content(line, terminated);
        let number = self.lines;
        let locate = |fault: FormatFault| partial.map_or(fault.clone(), |p| p.locate(fault));
        if number == 1 {
            self.take_header(content, &locate);
            return self.rewatch();
        }
        let digits = match move_digits(content) {
            Ok(digits) => digits,
            Err(fault) => {
                self.findings.format(number, locate(fault));
                return self.rewatch();
            }
        };
        self.last_move = number;
        let Some(header) = &self.header else {
            return;
        };
        if self.watch == Watch::Format || self.watch == Watch::Nothing {
            return;
        }
        let zeros = digits.iter().take_while(|&&d| d == b'0').count();
        if longer_than_frame(digits.len() - zeros, &header.x) {
            // Only its first digits are kept, and shown.
            let kept = &digits[zeros..(zeros + SHOWN_DIGITS + 1).min(digits.len())];
            self.findings
                .long_column(number, Nat::from_ascii_digits(kept));
            return self.rewatch();
        }
        let Ok(column) = Nat::try_from_ascii_digits(digits) else {
            self.game = None;
            self.findings.out_of_memory(number);
            return self.rewatch();
        };
        match self.watch {
            Watch::Play => self.step_line(number, column),
            Watch::Columns => {
                self.findings.unplayed(number, &column, &header.x);
                self.rewatch();
            }
            Watch::Format | Watch::Nothing => {}
        }
    }

    /// Line 1: the header's grammar, then winnability. Its numbers' memory
    /// can fail (without X, the rest of the file is read for format faults
    /// only).
    fn take_header(&mut self, content: &[u8], locate: &dyn Fn(FormatFault) -> FormatFault) {
        let [x, y, z] = match header_digits(content) {
            Ok(digits) => digits,
            Err(fault) => return self.findings.format(1, locate(fault)),
        };
        let header = match [x, y, z].map(Nat::try_from_ascii_digits) {
            [Ok(x), Ok(y), Ok(z)] => Header { x, y, z },
            _ => return self.findings.out_of_memory(1),
        };
        if self.findings.header(&header) {
            self.game = Some(Game::in_store(&header, self.keep, self.storage));
        }
        self.x_digits = header.x.digit_count();
        self.header = Some(header);
    }

    /// Steps the game with the move of line `number` and tells the
    /// findings what it did.
    #[inline(never)]
    fn step_line(&mut self, number: u64, column: Nat) {
        let Some(game) = self.game.take() else {
            return;
        };
        let (game, effect) = step(game, &column);
        if self.findings.moved(number, &column, effect) {
            self.game = Some(game);
        }
        self.rewatch();
    }

    /// Ends the input and gives the verdict.
    pub fn finish(mut self) -> Report {
        if !self.partial.is_empty() && !self.is_settled() {
            self.end_partial(Pushed::Open, false);
        }
        let (verdict, faults, result) = self.findings.finish(
            !self.seen_bytes,
            self.game.as_ref(),
            self.last_move,
            self.lines,
        );
        Report {
            verdict,
            faults,
            result,
            header: self.header,
            game: self.game,
        }
    }
}
