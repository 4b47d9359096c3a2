//! The streaming judge: reads a file in chunks of any size, folds [`step`]
//! over its moves (the ordinary ones batched, `Game::step_ordinary`) and keeps the findings; [`decide`] chooses the verdict.

use memchr::memchr;

use crate::fast::Storage;
use crate::fast::partial::{Partial, Pushed};
use crate::fast::scan::{BATCH, SKIM_BLOCK, plain_lines, plain_move, skim_lines};
use crate::game::{Effect, Game, Keep, step};
use crate::grammar::{FormatFault, Header, line_content, move_digits, try_parse_header};
use crate::memory::OutOfMemory;
use crate::nat::Nat;
use crate::verdict::{Code, Finding, SHOWN_DIGITS, Watch, decide, result_of_play, watch};
use crate::winnability::winnable;

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
    faults: Vec<Finding>,
    watch: Watch,
    /// The game's first winning run, as a finding.
    won: Option<Finding>,
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
            faults: Vec::new(),
            watch: Watch::Play,
            won: None,
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

    /// The partial line is over: it reached its line feed (`at_line_feed`),
    /// the grammar can already tell it does not conform, or memory ran out.
    fn end_partial(&mut self, pushed: Pushed, at_line_feed: bool) {
        let partial = std::mem::replace(&mut self.partial, Partial::new());
        match pushed {
            Pushed::OutOfMemory => {
                // r[decision.out-of-memory]: the line is followed to its end
                // but not kept; it is judged as far as that allows.
                self.record(Finding::OutOfMemory {
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

    /// One line, its LF removed, `terminated` false for a last line without
    /// one (its content: [`line_content`]). `partial` holds the positions of
    /// bytes dropped from a long line.
    fn take_line(&mut self, line: &[u8], terminated: bool, partial: Option<&Partial>) {
        self.lines += 1;
        let content = line_content(line, terminated);
        let number = self.lines;
        let locate = |fault: FormatFault| partial.map_or(fault.clone(), |p| p.locate(fault));
        if number == 1 {
            match try_parse_header(content) {
                Err(fault) => self.record(Finding::Format {
                    line: 1,
                    fault: locate(fault),
                }),
                Ok(Ok(header)) => self.take_header(header),
                // r[decision.out-of-memory]: without X, the rest of the file
                // is read for format faults only.
                Ok(Err(OutOfMemory)) => self.record(Finding::OutOfMemory { line: 1 }),
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
        let Ok(column) = Nat::try_from_ascii_digits(digits) else {
            // r[decision.out-of-memory]: the board is given up.
            self.game = None;
            return self.record(Finding::OutOfMemory { line: number });
        };
        match self.watch {
            Watch::Play => self.step_line(number, column),
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
            self.game = Some(Game::in_store(&header, self.keep, self.storage));
        } else {
            self.record(Finding::Unwinnable);
        }
        self.x_digits = header.x.digit_count();
        self.header = Some(header);
    }

    /// Steps the game with the move of line `number` (r[rule.gravity]) and
    /// records what the move did.
    #[inline]
    fn step_line(&mut self, number: u64, column: Nat) {
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
            Effect::OutOfMemory => {
                // r[decision.out-of-memory]: the board is given up; the rest
                // of the file is still read for faults that outrank it.
                self.game = None;
                self.record(Finding::OutOfMemory { line: number });
            }
            Effect::Placed {
                after_win: true, ..
            } => self.record(Finding::AfterWin { line: number }),
            Effect::Placed { .. } => {}
            Effect::Won { run, .. } => {
                self.won = Some(Finding::Won { line: number, run });
            }
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
        let result = result_of_play(
            self.won.as_ref(),
            self.game.as_ref().map(Game::is_full),
            self.last_move,
            self.lines,
        );
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
