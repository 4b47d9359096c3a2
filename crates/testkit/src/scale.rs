//! The scale suite's games: files whose code is known by construction, at
//! any size, streamed from generators rather than kept (r[resource.board]).
//!
//! Each family is parameterised by a length `n`; tests and the bench place
//! `n` just below, at and above the limits of the judge's representations
//! (the run lanes of 8, 16 and 32 bits, the column index, numbers past
//! 2^64). [`Scale::reader`] yields the file's bytes on demand, so a game of
//! millions of moves costs no memory to produce.

use std::fmt;
use std::io::{self, Read};

use connectz::Code;

/// The families: games built to a length n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `2 n n`: player 1 stacks `n` counters in column 1, player 2 in column
    /// 2; player 1 wins with the `n`th. Unwon: `2 (n + 1) (n + 1)`.
    Vertical,
    /// `n 2 n`: player 1 fills row 1 left to right, player 2 each column's
    /// second cell: player 1 completes a row of `n` (the ladder). Unwon:
    /// `(n + 1) 2 (n + 1)`.
    Row,
    /// `(n + 2) n z`: player 1's diagonal from (1, 1) to (n, n), on
    /// fillers coloured by the parity of column + row (so no other line
    /// reaches n), player 2's spare turns in column n + 2.
    Staircase,
    /// `2 n 2` (`n` at least 3): player 1 wins at move 3, then column 1 is
    /// filled to its top and played once more: illegal row (5), also with
    /// runs of 3 (unwon).
    FullAfterWin,
    /// `(2^64 + n - 1) 2 4`: a row of four across the columns 2^64 - 2 to
    /// 2^64 + 1, where a machine word ends; with `n = 1` the last of them is
    /// one past the frame (6).
    AcrossTwoToThe64,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 5] = [
        Family::Vertical,
        Family::Row,
        Family::Staircase,
        Family::FullAfterWin,
        Family::AcrossTwoToThe64,
    ];

    /// The family named `name` (as in [`Family::name`]).
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its name in spec examples and the bench.
    pub fn name(self) -> &'static str {
        match self {
            Family::Vertical => "vertical",
            Family::Row => "row",
            Family::Staircase => "staircase",
            Family::FullAfterWin => "full-after-win",
            Family::AcrossTwoToThe64 => "across-2^64",
        }
    }
}

/// A generated game: a family, its length, and whether the line must reach
/// exactly `n` (`z = n`) or one more (`z = n + 1`, so nobody wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// The family.
    pub family: Family,
    /// Its length.
    pub n: u64,
    /// Ask for a run one longer than the family builds.
    pub longer: bool,
}

const TWO_TO_THE_64: u128 = 1 << 64;

impl Scale {
    /// The game `family` at length `n`, won where the family wins.
    pub fn new(family: Family, n: u64) -> Scale {
        let least = if family == Family::FullAfterWin { 3 } else { 1 };
        Scale {
            family,
            n: n.max(least),
            longer: false,
        }
    }

    /// The same moves with `z` one longer: nobody completes a run.
    pub fn unwon(self) -> Scale {
        Scale {
            longer: true,
            ..self
        }
    }

    fn z(&self) -> u64 {
        self.n + u64::from(self.longer)
    }

    /// The header line, without its line feed.
    pub fn header(&self) -> String {
        let (n, z, more) = (self.n, self.z(), u64::from(self.longer));
        match self.family {
            Family::Vertical => format!("2 {} {z}", n + more),
            Family::Row => format!("{} 2 {z}", n + more),
            Family::Staircase => format!("{} {n} {z}", n + 2),
            Family::FullAfterWin => format!("2 {n} {}", 2 + more),
            Family::AcrossTwoToThe64 => {
                format!("{} 2 {}", TWO_TO_THE_64 + u128::from(n) - 1, 4 + more)
            }
        }
    }

    /// The code the file has, by construction.
    pub fn expect(&self) -> Code {
        match (self.family, self.longer) {
            // Without the early win the column still overfills.
            (Family::FullAfterWin, _) => Code::IllegalRow,
            (Family::AcrossTwoToThe64, _) if self.n < 2 => Code::IllegalColumn,
            (_, true) => Code::Incomplete,
            (_, false) => Code::WinOne,
        }
    }

    /// The number of moves.
    pub fn moves(&self) -> u64 {
        let n = self.n;
        match self.family {
            Family::Vertical | Family::Row => 2 * n - 1,
            // The triangle and the diagonal, and player 2's spare turns.
            Family::Staircase => n * (n + 1) / 2 + n.saturating_sub(1) / 2,
            Family::FullAfterWin => n + 2,
            Family::AcrossTwoToThe64 => 7,
        }
    }

    /// The columns played, in order (1-based; `u128` so that columns past
    /// 2^64 can be written).
    pub fn columns(&self) -> Box<dyn Iterator<Item = u128> + Send> {
        let n = self.n;
        match self.family {
            Family::Vertical => Box::new((0..2 * n - 1).map(|i| 1 + u128::from(i % 2))),
            Family::Row => Box::new((0..2 * n - 1).map(|i| 1 + u128::from(i / 2))),
            Family::Staircase => Box::new(staircase(n)),
            Family::FullAfterWin => {
                // 1 2 1 wins (z = 2); then column 1 alone: it holds 2 and
                // takes n - 2 more, then one too many. Column 2 is played
                // only while it has room, alternating turns do not matter
                // to fullness.
                let opening = [1u128, 2, 1].into_iter();
                Box::new(opening.chain(std::iter::repeat_n(1, (n - 2) as usize + 1)))
            }
            Family::AcrossTwoToThe64 => {
                let base = TWO_TO_THE_64 - 2;
                // Player 1 on row 1 of base..base+3, player 2 on row 2 of
                // the first three.
                let moves = [0u128, 0, 1, 1, 2, 2, 3].map(|k| base + k);
                Box::new(moves.into_iter())
            }
        }
    }

    /// The file's bytes, generated as they are read.
    pub fn reader(&self) -> impl Read + Send + use<> {
        let mut header = self.header().into_bytes();
        header.push(b'\n');
        Generated::new(std::iter::once(header).chain(lines(self.columns())))
    }

    /// The whole file in memory (for small sizes).
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.reader()
            .read_to_end(&mut out)
            .expect("a generator does not fail");
        out
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} n={}", self.family.name(), self.n)?;
        if self.longer {
            f.write_str(" z=n+1")?;
        }
        Ok(())
    }
}

/// The staircase's moves: columns 1..=n bottom-up, column k holding k - 1
/// fillers and then player 1's diagonal cell (k, k); the filler at (c, r)
/// belongs to player 1 when c + r is even. Each column alternates owners,
/// so play alternates once player 2 plays column n + 2 before every odd
/// column from 3 on.
fn staircase(n: u64) -> impl Iterator<Item = u128> {
    (1..=n).flat_map(move |k| {
        let spare = (k >= 3 && k % 2 == 1).then_some(u128::from(n) + 2);
        spare
            .into_iter()
            .chain(std::iter::repeat_n(u128::from(k), k as usize))
    })
}

/// A [`Read`] over bytes made on demand: each item of `chunks` is appended
/// as the reader reaches it, so an input of any size costs a chunk of memory.
pub struct Generated<I> {
    chunks: I,
    pending: Vec<u8>,
    at: usize,
}

impl<I: Iterator<Item = Vec<u8>>> Generated<I> {
    /// A reader of the concatenated chunks.
    pub fn new(chunks: I) -> Generated<I> {
        Generated {
            chunks,
            pending: Vec::new(),
            at: 0,
        }
    }
}

impl<I: Iterator<Item = Vec<u8>>> Read for Generated<I> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut written = 0;
        while written < buf.len() {
            if self.at == self.pending.len() {
                let Some(chunk) = self.chunks.next() else {
                    break;
                };
                self.pending = chunk;
                self.at = 0;
                continue;
            }
            let n = (self.pending.len() - self.at).min(buf.len() - written);
            buf[written..written + n].copy_from_slice(&self.pending[self.at..self.at + n]);
            self.at += n;
            written += n;
        }
        Ok(written)
    }
}

/// The bytes of `columns`, one per line, in chunks of about 64 KiB.
fn lines(columns: impl Iterator<Item = u128>) -> impl Iterator<Item = Vec<u8>> {
    let mut columns = columns.peekable();
    std::iter::from_fn(move || {
        columns.peek()?;
        let mut chunk = Vec::with_capacity(1 << 16);
        for column in columns.by_ref().take(4096) {
            chunk.extend_from_slice(column.to_string().as_bytes());
            chunk.push(b'\n');
        }
        Some(chunk)
    })
}

/// A reader of the input a spec `resource` example describes.
pub fn resource_reader(parts: Vec<connectz_spec::Part>) -> impl Read {
    use connectz_spec::Part;
    let chunks = parts
        .into_iter()
        .flat_map(|part| -> Box<dyn Iterator<Item = Vec<u8>>> {
            match part {
                Part::Repeat { bytes, times } if bytes.is_empty() || times == Some(0) => {
                    Box::new(std::iter::empty())
                }
                Part::Repeat { bytes, times } => {
                    // Repeat in chunks of about 64 KiB.
                    let per = (1 << 16) / bytes.len() + 1;
                    let chunk = bytes.repeat(per);
                    match times {
                        None => Box::new(std::iter::repeat(chunk)),
                        Some(t) => {
                            let whole = t / per as u64;
                            let rest = bytes.repeat((t % per as u64) as usize);
                            Box::new(
                                std::iter::repeat_n(chunk, whole as usize)
                                    .chain(std::iter::once(rest)),
                            )
                        }
                    }
                }
                Part::Multiples { step, count } => Box::new(lines(
                    (1..=u128::from(count)).map(move |k| k * u128::from(step)),
                )),
            }
        });
    Generated::new(chunks)
}

/// The limits of the judge's representations that the scale suite brackets:
/// the largest value of an 8-, 16- and 32-bit lane.
pub const LANE_LIMITS: [u64; 3] = [u8::MAX as u64, u16::MAX as u64, u32::MAX as u64];

/// Lengths just below, at and above each limit (and the limit plus one and
/// two, where a run of z needs a lane of z - 1), up to `max`.
pub fn boundaries(max: u64) -> Vec<u64> {
    let mut out: Vec<u64> = LANE_LIMITS
        .iter()
        .flat_map(|&l| [l - 1, l, l + 1, l + 2])
        .filter(|&n| n <= max)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle;
    use connectz::judge_bytes;

    /// Small sizes against the oracle: the constructions mean what they say.
    #[test]
    fn families_give_their_code_at_small_sizes() {
        let mut checked = 0;
        for family in Family::ALL {
            for n in 1..=12 {
                for scale in [Scale::new(family, n), Scale::new(family, n).unwon()] {
                    let bytes = scale.bytes();
                    assert_eq!(scale.moves(), scale.columns().count() as u64, "{scale}");
                    let code = judge_bytes(&bytes).code();
                    assert_eq!(
                        code,
                        scale.expect(),
                        "{scale}: {}",
                        String::from_utf8_lossy(&bytes)
                    );
                    if let Some(truth) = oracle::judge(&bytes) {
                        assert_eq!(truth, scale.expect(), "{scale} (oracle)");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 60, "the oracle checked only {checked}");
    }

    #[test]
    fn boundaries_bracket_each_limit() {
        assert_eq!(boundaries(300), vec![254, 255, 256, 257]);
        assert_eq!(boundaries(70_000).len(), 8);
    }
}
