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
//! once: time is linear in the line's length.
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
    }

    /// Forgets the line (keeping the memory for the next).
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.drops.clear();
        self.seen = 0;
        self.carriage_return = false;
        self.discard = false;
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
                return Pushed::Cut;
            }
            if byte == b'\r' {
                self.carriage_return = true;
                self.keep_byte(byte);
                continue;
            }
            if !self.prefix.accept(byte) {
                self.keep_byte(byte);
                return Pushed::Cut;
            }
            if !byte.is_ascii_digit() {
                self.number = Number::Start;
                self.keep_byte(byte);
                continue;
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
