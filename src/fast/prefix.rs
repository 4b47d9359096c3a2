//! The grammar's byte-at-a-time form: [`Prefix`] says, as each byte of a
//! line arrives, whether some ending of the line could still conform to
//! `grammar` (spec/format.md), so that a line spanning chunks is held only as
//! far as a conforming one needs (`partial`). It decides no fault: the
//! grammar names it from the bytes kept, and `partial` tells the same fault
//! from the byte refused or the line's end when memory for the bytes ran
//! out.

/// How far a line has got through the grammar, byte by byte: enough to say,
/// as each byte arrives, whether some ending of the line could still
/// conform. The streaming judge uses it to cut a line at its first byte that
/// cannot (the grammar then names the fault from the bytes up to it, which is
/// the fault it finds in the whole line) and so never holds more of a line
/// than a conforming one needs. Carriage returns are left to the caller (one
/// before the line feed is part of the terminator).
///
/// The `parse` fuzz target holds it, and `partial` built on it, to the
/// grammar on every line of its input (`connectz_testkit::grammar_forms`):
/// it refuses a byte exactly where the grammar reports a fault at that byte,
/// and the grammar finds that fault in the line cut there. The property test
/// below checks the same on random near-miss lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prefix {
    /// In the header: `field` numbers begun (0 to 3), `digits` true when the
    /// current one has a digit.
    Header {
        /// Numbers begun.
        field: u8,
        /// The current number has a digit.
        digits: bool,
    },
    /// In a move line.
    Move,
}

impl Prefix {
    /// The start of line 1.
    pub(crate) fn header() -> Prefix {
        Prefix::Header {
            field: 1,
            digits: false,
        }
    }

    /// True when the bytes so far, at least one, are a whole line's shape
    /// (the header's three numbers, or a move's digits): the line may end
    /// here.
    pub(crate) fn complete(&self) -> bool {
        match self {
            Prefix::Move => true,
            Prefix::Header { field, digits } => *field == 3 && *digits,
        }
    }

    /// Takes the next byte; false when no conforming line starts with the
    /// bytes so far (r[format.header], r[format.move]).
    #[inline]
    pub(crate) fn accept(&mut self, byte: u8) -> bool {
        match self {
            Prefix::Move => byte.is_ascii_digit(),
            Prefix::Header { field, digits } => {
                if byte.is_ascii_digit() {
                    *digits = true;
                    true
                } else if byte == b' ' && *digits && *field < 3 {
                    *field += 1;
                    *digits = false;
                    true
                } else {
                    false
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{FormatFault, parse_header, parse_move};

    /// The grammar vouches for `Prefix`: it accepts a byte exactly when the
    /// grammar does not fail at that byte, on every prefix of random lines
    /// (carriage returns are the caller's, so none here).
    #[test]
    fn the_grammar_vouches_for_prefix() {
        let mut state = 3u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let alphabet = b"0123456789  0x";
        let mut cuts = 0;
        for _ in 0..100_000 {
            let header = next() % 2 == 0;
            let len = 1 + (next() % 12) as usize;
            let line: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let parse = |bytes: &[u8]| -> Option<FormatFault> {
                if header {
                    parse_header(bytes).err()
                } else {
                    parse_move(bytes).err()
                }
            };
            let mut prefix = if header {
                Prefix::header()
            } else {
                Prefix::Move
            };
            for i in 0..line.len() {
                let accepted = prefix.accept(line[i]);
                // The grammar on the line up to and including this byte
                // fails at this byte exactly when Prefix refuses it.
                let fails_here = matches!(
                    parse(&line[..=i]),
                    Some(FormatFault::UnexpectedByte { column, .. }) if column == i + 1
                );
                assert_eq!(
                    !accepted,
                    fails_here,
                    "{} {:?}",
                    if header { "header" } else { "move" },
                    line[..=i].escape_ascii().to_string()
                );
                if !accepted {
                    cuts += 1;
                    break;
                }
            }
        }
        assert!(cuts > 10_000, "only {cuts} lines cut");
    }
}
