//! The benchmark workloads: files shaped to stress one part of a judge,
//! written as they are made.

use std::io::{self, Write};

use connectz_rng::Rng;

/// The benchmark workloads: files shaped to stress one part of a judge.
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

/// The largest side of a `Dense` workload: its frame then holds 10^10
/// counters, and the generator keeps two numbers per column.
pub const MAX_DENSE_SIDE: u64 = 100_000;

/// Writes a workload. `size` scales it: moves after the win for `Tail`, the
/// side of the frame for `Dense` (at most [`MAX_DENSE_SIDE`]), the row length
/// for `Ladder`, moves for `Sparse`. Every shape but `Dense` is written as
/// it is generated, in constant memory, so any size works.
///
/// # Errors
/// Any error of `out`; a `Dense` side above [`MAX_DENSE_SIDE`] (invalid input).
pub fn workload(kind: Workload, size: u64, seed: u64, out: impl Write) -> io::Result<()> {
    let mut rng = Rng::new(seed);
    if kind == Workload::Dense && size > MAX_DENSE_SIDE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the dense workload's side is at most {MAX_DENSE_SIDE} (its frame then holds 10^10 counters)"
            ),
        ));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use connectz::{Code, judge_bytes};

    #[test]
    fn workloads_have_their_shape() {
        let mut out = Vec::new();
        workload(Workload::Ladder, 5, 0, &mut out).unwrap();
        assert_eq!(out, b"5 2 5\n1\n1\n2\n2\n3\n3\n4\n4\n5\n");
        assert_eq!(judge_bytes(&out).code(), Code::WinOne);
        out.clear();
        workload(Workload::Dense, 40, 3, &mut out).unwrap();
        let report = judge_bytes(&out);
        assert!(report.game.as_ref().is_some_and(|g| g.placed() == 1600));
        out.clear();
        workload(Workload::Tail, 100, 0, &mut out).unwrap();
        assert_eq!(judge_bytes(&out).code(), Code::IllegalRow);
    }
}
