//! The part of a line read so far, when a line spans chunks: kept in memory
//! that does not grow with the line beyond what exactness needs
//! (r[resource.line]).
//!
//! As bytes arrive they go through [`Prefix`], the grammar's byte-at-a-time
//! form: at the first byte after which the line cannot conform, the line is
//! cut there and handed to the grammar, which finds the same fault it would
//! find in the whole line. Until then only bytes that can matter are kept:
//! the leading zeros of a number collapse to one, and a column keeps at most
//! one digit more than X has (such a number is past the frame whatever its
//! remaining digits). The positions of dropped bytes are remembered, so a
//! fault is reported at its byte in the file's line. r[resource.time]: each byte is looked at
//! once: time is linear in the line's length. Where memory for the kept
//! bytes runs out (r[decision.out-of-memory]), the line is still followed
//! byte by byte, and its fault, if any, is told from the byte that cut it or
//! from its end (its first zero, a header short of numbers): the one the
//! grammar finds in the whole line, as a test below holds on random lines.
//!
//! The `parse` fuzz target holds this form to the grammar on every line of
//! its input, pushed in chunks of several sizes
//! (`connectz_testkit::grammar_forms`, through `connectz::hooks`): the same
//! fault at the same byte of the line, or, for a line that conforms, the
//! same header, or a column with the same leading significant digits.

use super::prefix::Prefix;
use crate::grammar::FormatFault;

/// Where a number of the line stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Number {
    /// No digit yet.
    Start,
    /// Only zeros so far (one kept).
    Zeros,
    /// This many significant digits kept.
    Significant(usize),
}

/// What [`Partial::push`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pushed {
    /// Every byte taken; the line can still conform.
    Open,
    /// The line cannot conform: it ends at this byte (kept), and the rest of
    /// the pushed bytes do not matter.
    Cut,
    /// Memory for the kept bytes could not be had: the line is followed to
    /// its end but nothing more of it is kept (r[decision.out-of-memory]).
    OutOfMemory,
}

/// A line not yet ended.
#[derive(Debug)]
pub(crate) struct Partial {
    bytes: Vec<u8>,
    /// `(at, count)`: `count` bytes were dropped just before kept byte `at`.
    drops: Vec<(usize, usize)>,
    prefix: Prefix,
    number: Number,
    /// Significant digits a number keeps (a column: X's digits plus one).
    keep: usize,
    /// The last byte taken was a CR: the next must be the LF that ends the line.
    carriage_return: bool,
    /// Bytes of the line seen (kept or not).
    seen: usize,
    /// Memory ran out: the line is followed but nothing more is kept.
    discard: bool,
    /// The fault at the byte where the line was cut, told by the byte
    /// itself: what the grammar finds there, kept bytes or not.
    cut: Option<FormatFault>,
    /// The 1-based position of the current number's first byte.
    number_at: usize,
    /// The position of the line's first number that is all zeros.
    first_zero: Option<usize>,
}

impl Partial {
    /// An empty partial line.
    pub(crate) fn new() -> Partial {
        Partial {
            bytes: Vec::new(),
            drops: Vec::new(),
            prefix: Prefix::header(),
            number: Number::Start,
            keep: usize::MAX,
            carriage_return: false,
            seen: 0,
            discard: false,
            cut: None,
            number_at: 0,
            first_zero: None,
        }
    }

    /// True when no byte of a line is held.
    pub(crate) fn is_empty(&self) -> bool {
        self.seen == 0
    }

    /// Starts a line: the header (`keep` ignored) or a move line whose
    /// numbers keep at most `keep` significant digits.
    pub(crate) fn start(&mut self, header: bool, keep: usize) {
        self.bytes.clear();
        self.drops.clear();
        self.prefix = if header {
            Prefix::header()
        } else {
            Prefix::Move
        };
        self.number = Number::Start;
        self.keep = if header { usize::MAX } else { keep.max(1) };
        self.carriage_return = false;
        self.seen = 0;
        self.discard = false;
        self.cut = None;
        self.number_at = 0;
        self.first_zero = None;
    }

    /// Forgets the line (keeping the memory for the next).
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.drops.clear();
        self.seen = 0;
        self.carriage_return = false;
        self.discard = false;
        self.cut = None;
        self.number_at = 0;
        self.first_zero = None;
    }

    /// Gives back memory beyond a small buffer, once a long line is over.
    pub(crate) fn shrink(&mut self) {
        self.bytes.shrink_to(1 << 16);
        self.drops.shrink_to(4);
    }

    /// The bytes kept, for the grammar.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// True when memory ran out on this line (its bytes are incomplete).
    pub(crate) fn discarded(&self) -> bool {
        self.discard
    }

    /// The fault of a line that was cut ([`Pushed::Cut`], or memory ran out
    /// in the push that cut it), at its byte in the file's line: the one
    /// the grammar finds in the bytes up to the cut, known even when they
    /// were not kept.
    pub(crate) fn cut_fault(&self) -> Option<FormatFault> {
        self.cut.clone()
    }

    /// The fault of a line that was not cut, now that it has ended (at a
    /// line feed when `terminated`), told without its kept bytes: the one
    /// the grammar finds in the whole line, or `None` when it conforms.
    pub(crate) fn end_fault(&self, terminated: bool) -> Option<FormatFault> {
        let terminator = usize::from(terminated && self.carriage_return);
        let content = self.seen - terminator;
        if self.carriage_return && !terminated {
            return Some(FormatFault::LoneCarriageReturn { column: self.seen });
        }
        if content == 0 {
            return Some(FormatFault::EmptyLine);
        }
        if !self.prefix.complete() {
            return Some(FormatFault::UnexpectedEnd {
                column: content + 1,
            });
        }
        let last_zero = (self.number == Number::Zeros).then_some(self.number_at);
        self.first_zero
            .or(last_zero)
            .map(|column| FormatFault::Zero { column })
    }

    /// Bytes held, including spare capacity.
    pub(crate) fn capacity(&self) -> usize {
        self.bytes.capacity() + self.drops.capacity() * size_of::<(usize, usize)>()
    }

    /// Takes more bytes of the line (no line feed among them).
    pub(crate) fn push(&mut self, more: &[u8]) -> Pushed {
        let was_discarding = self.discard;
        let pushed = self.take(more);
        if self.discard && !was_discarding {
            Pushed::OutOfMemory
        } else {
            pushed
        }
    }

    fn take(&mut self, more: &[u8]) -> Pushed {
        for &byte in more {
            self.seen += 1;
            if self.carriage_return {
                // r[format.eol]: a CR not followed by LF; the grammar reports it.
                self.cut = Some(FormatFault::LoneCarriageReturn {
                    column: self.seen - 1,
                });
                return Pushed::Cut;
            }
            if byte == b'\r' {
                self.carriage_return = true;
                self.keep_byte(byte);
                continue;
            }
            if !self.prefix.accept(byte) {
                self.keep_byte(byte);
                self.cut = Some(FormatFault::UnexpectedByte {
                    byte,
                    column: self.seen,
                });
                return Pushed::Cut;
            }
            if !byte.is_ascii_digit() {
                if self.number == Number::Zeros && self.first_zero.is_none() {
                    self.first_zero = Some(self.number_at);
                }
                self.number = Number::Start;
                self.keep_byte(byte);
                continue;
            }
            if self.number == Number::Start {
                self.number_at = self.seen;
            }
            match (self.number, byte) {
                (Number::Start, b'0') => {
                    self.number = Number::Zeros;
                    self.keep_byte(byte);
                }
                (Number::Zeros, b'0') => self.drop_byte(),
                (Number::Start | Number::Zeros, _) => {
                    self.number = Number::Significant(1);
                    self.keep_byte(byte);
                }
                (Number::Significant(n), _) if n >= self.keep => self.drop_byte(),
                (Number::Significant(n), _) => {
                    self.number = Number::Significant(n + 1);
                    self.keep_byte(byte);
                }
            }
        }
        Pushed::Open
    }

    #[inline]
    fn keep_byte(&mut self, byte: u8) {
        if self.discard {
            return;
        }
        if self.bytes.len() == self.bytes.capacity() && self.bytes.try_reserve(1).is_err() {
            self.discard = true;
            self.bytes.clear();
            return;
        }
        self.bytes.push(byte);
    }

    #[inline]
    fn drop_byte(&mut self) {
        let at = self.bytes.len();
        match self.drops.last_mut() {
            Some((last, count)) if *last == at => *count += 1,
            _ => self.drops.push((at, 1)),
        }
    }

    /// The fault's position in the file's line, from its position among the
    /// kept bytes.
    pub(crate) fn locate(&self, fault: FormatFault) -> FormatFault {
        let map = |column: usize| {
            let index = column - 1;
            let dropped: usize = self
                .drops
                .iter()
                .take_while(|(at, _)| *at <= index)
                .map(|(_, n)| n)
                .sum();
            column + dropped
        };
        match fault {
            FormatFault::UnexpectedByte { byte, column } => FormatFault::UnexpectedByte {
                byte,
                column: map(column),
            },
            FormatFault::LoneCarriageReturn { column } => FormatFault::LoneCarriageReturn {
                column: map(column),
            },
            FormatFault::UnexpectedEnd { column } => FormatFault::UnexpectedEnd {
                column: map(column),
            },
            FormatFault::Zero { column } => FormatFault::Zero {
                column: map(column),
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{parse_header, parse_move};

    fn pushed(header: bool, keep: usize, chunks: &[&[u8]]) -> (Partial, Pushed) {
        let mut p = Partial::new();
        p.start(header, keep);
        let mut last = Pushed::Open;
        for c in chunks {
            last = p.push(c);
            if last != Pushed::Open {
                break;
            }
        }
        (p, last)
    }

    /// A line's fault is told without its kept bytes (as when memory for
    /// them ran out) exactly as the grammar finds it in the whole line:
    /// where the line was cut, or at its end. Random near-miss lines,
    /// pushed in chunks of 1 to 4 bytes, with and without a line feed.
    #[test]
    fn the_fault_is_known_without_the_kept_bytes() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let alphabet = b"0123456789 0 0x\r";
        let mut told = [0usize; 6];
        for _ in 0..200_000 {
            let header = next(2) == 0;
            let terminated = next(2) == 0;
            let len = next(14) as usize;
            let line: Vec<u8> = (0..len)
                .map(|_| alphabet[next(alphabet.len() as u64) as usize])
                .collect();
            let chunks: Vec<&[u8]> = {
                let mut out = Vec::new();
                let mut rest = &line[..];
                while !rest.is_empty() {
                    let (chunk, more) = rest.split_at((1 + next(4) as usize).min(rest.len()));
                    out.push(chunk);
                    rest = more;
                }
                out
            };
            let (p, r) = pushed(header, 1 + next(3) as usize, &chunks);
            let content = crate::grammar::line_content(&line, terminated);
            let expected = if header {
                parse_header(content).err()
            } else {
                parse_move(content).err()
            };
            let got = match r {
                Pushed::Cut => p.cut_fault(),
                _ => p.end_fault(terminated),
            };
            assert_eq!(
                got,
                expected,
                "{} {:?}, terminated {terminated}",
                if header { "header" } else { "move" },
                line.escape_ascii().to_string()
            );
            told[match got {
                None => 0,
                Some(FormatFault::EmptyLine) => 1,
                Some(FormatFault::LoneCarriageReturn { .. }) => 2,
                Some(FormatFault::UnexpectedByte { .. }) => 3,
                Some(FormatFault::UnexpectedEnd { .. }) => 4,
                Some(_) => 5,
            }] += 1;
        }
        // Every kind of answer came up often.
        assert!(told.iter().all(|&n| n > 1000), "{told:?}");
    }

    #[test]
    fn leading_zeros_collapse_and_positions_survive() {
        let zeros = vec![b'0'; 5000];
        let (p, r) = pushed(true, 0, &[&zeros, b"7 00006 4x"]);
        assert_eq!(r, Pushed::Cut);
        assert_eq!(p.bytes(), b"07 06 4x");
        let fault = parse_header(p.bytes()).unwrap_err();
        assert_eq!(
            p.locate(fault),
            FormatFault::UnexpectedByte {
                byte: b'x',
                column: 5000 + 1 + 1 + 5 + 1 + 1 + 1
            }
        );
    }

    #[test]
    fn columns_keep_one_digit_more_than_x() {
        let nines = vec![b'9'; 100_000];
        let (p, r) = pushed(false, 3, &[&nines, &nines]);
        assert_eq!(r, Pushed::Open);
        assert_eq!(p.bytes(), b"999");
        assert!(p.capacity() < 2 << 20);
        let (p, r) = pushed(false, 3, &[&nines, b"5x"]);
        assert_eq!(r, Pushed::Cut);
        let fault = parse_move(p.bytes()).unwrap_err();
        assert_eq!(
            p.locate(fault),
            FormatFault::UnexpectedByte {
                byte: b'x',
                column: 100_002
            }
        );
    }

    #[test]
    fn a_carriage_return_waits_for_the_next_byte() {
        let (p, r) = pushed(false, 3, &[b"12\r"]);
        assert_eq!((p.bytes(), r), (&b"12\r"[..], Pushed::Open));
        let (p, r) = pushed(false, 3, &[b"12\r", b"3"]);
        assert_eq!((p.bytes(), r), (&b"12\r"[..], Pushed::Cut));
        let (p, r) = pushed(true, 0, &[b"\x00\x00"]);
        assert_eq!((p.bytes(), r), (&b"\x00"[..], Pushed::Cut));
    }
}
