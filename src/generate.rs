//! Deterministic generators of game files: benchmark workloads and games
//! with a chosen outcome.

use std::io::{self, Write};

/// SplitMix64: small, fast, seedable, and the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// The benchmark shapes of the performance issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// A 7x6 game won at move 7, then `moves` more moves.
    Tail,
    /// A `side` x `side` frame, z = 30, filled completely in random column order.
    Dense,
    /// `n 2 n`: player 1's bottom row grows to n and wins on the last move.
    Ladder,
    /// A 10^12 x 10^12 frame, z = 5, `moves` moves in random columns.
    Sparse,
}

/// Buffered writer of one number per line.
struct Lines<W: Write> {
    out: io::BufWriter<W>,
    buf: itoa_buf::Buf,
}

mod itoa_buf {
    /// Formats u64s without allocating.
    pub struct Buf([u8; 21]);
    impl Buf {
        pub fn new() -> Buf {
            Buf([0; 21])
        }
        pub fn line(&mut self, mut v: u64) -> &[u8] {
            let mut i = 20;
            self.0[20] = b'\n';
            loop {
                i -= 1;
                self.0[i] = b'0' + (v % 10) as u8;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            &self.0[i..]
        }
    }
}

impl<W: Write> Lines<W> {
    fn new(out: W, header: &str) -> io::Result<Lines<W>> {
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        writeln!(out, "{header}")?;
        Ok(Lines {
            out,
            buf: itoa_buf::Buf::new(),
        })
    }
    fn push(&mut self, column: u64) -> io::Result<()> {
        self.out.write_all(self.buf.line(column))
    }
    fn done(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes a workload. `size` scales it: moves after the win for `Tail`, the
/// side of the frame for `Dense`, the row length for `Ladder`, moves for
/// `Sparse`.
///
/// # Errors
/// Any error of `out`.
pub fn workload(kind: Workload, size: u64, seed: u64, out: impl Write) -> io::Result<()> {
    let mut rng = Rng::new(seed);
    match kind {
        Workload::Tail => {
            let mut lines = Lines::new(out, "7 6 4")?;
            for column in [1, 2, 1, 2, 1, 2, 1] {
                lines.push(column)?;
            }
            for i in 0..size {
                lines.push(i % 7 + 1)?;
            }
            lines.done()
        }
        Workload::Dense => {
            let side = size.max(1);
            let mut lines = Lines::new(out, &format!("{side} {side} 30"))?;
            // Every column exactly `side` times, in random order.
            let mut left: Vec<u64> = vec![side; side as usize];
            let mut open: Vec<u64> = (1..=side).collect();
            while !open.is_empty() {
                let i = rng.below(open.len() as u64) as usize;
                let column = open[i];
                lines.push(column)?;
                let slot = &mut left[column as usize - 1];
                *slot -= 1;
                if *slot == 0 {
                    open.swap_remove(i);
                }
            }
            lines.done()
        }
        Workload::Ladder => {
            let n = size.max(1);
            let mut lines = Lines::new(out, &format!("{n} 2 {n}"))?;
            for column in 1..=n {
                lines.push(column)?;
                if column < n {
                    lines.push(column)?;
                }
            }
            lines.done()
        }
        Workload::Sparse => {
            let side: u64 = 1_000_000_000_000;
            let mut lines = Lines::new(out, &format!("{side} {side} 5"))?;
            for _ in 0..size {
                lines.push(rng.below(side) + 1)?;
            }
            lines.done()
        }
    }
}
