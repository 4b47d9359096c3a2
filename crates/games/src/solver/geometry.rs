//! A frame as bitboard masks, and run detection over a word.
//!
//! Column `c` holds bits `c * (height + 1) ..`, bottom first, with one spare
//! bit on top that is never a counter, so shifts by `height + 1` (across),
//! `height` and `height + 2` (the diagonals) and 1 (up) never join cells of
//! different columns into a run.

use super::word::Word;

/// The masks of one frame, for word `W`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry<W> {
    pub width: usize,
    pub height: usize,
    pub z: usize,
    /// The bottom cell of every column.
    pub bottom: W,
    /// Every cell of the frame.
    pub board: W,
    /// Cells of one column, at column 0.
    column0: W,
    /// The cells (and spare bits on top) an odd number of rows below the
    /// spare bit: a column whose next free cell is one of them has an odd
    /// number of empty cells.
    pub odd_below_top: W,
    /// The cells an even number of rows below the spare bit: when every
    /// column has an even number of empty cells, the side to move gets
    /// exactly the empty ones of these if the opponent always replies on
    /// top of its counter (r[solve.claimeven]).
    pub even_below_top: W,
    /// Columns, centre first, then outwards, left before right.
    pub order: [u8; 64],
}

impl<W: Word> Geometry<W> {
    /// The masks of a frame that fits `W` (`width * (height + 1) <= W::BITS`).
    pub fn new(width: usize, height: usize, z: usize) -> Geometry<W> {
        debug_assert!(width * (height + 1) <= W::BITS as usize && width <= 64);
        let mut bottom = W::ZERO;
        for c in 0..width {
            bottom = bottom | W::ONE << (c * (height + 1)) as u32;
        }
        let column0 = (W::ONE << height as u32) - W::ONE;
        let mut board = W::ZERO;
        for c in 0..width {
            board = board | column0 << (c * (height + 1)) as u32;
        }
        let (mut odd_below_top, mut even_below_top) = (W::ZERO, W::ZERO);
        for c in 0..width {
            for r in 0..=height {
                let bit = W::ONE << (c * (height + 1) + r) as u32;
                if (height - r) % 2 == 1 {
                    odd_below_top = odd_below_top | bit;
                } else if r < height {
                    even_below_top = even_below_top | bit;
                }
            }
        }
        let mut columns: Vec<usize> = (0..width).collect();
        columns.sort_by_key(|&c| ((2 * c as i64 - (width as i64 - 1)).unsigned_abs(), c));
        let mut order = [0u8; 64];
        for (slot, c) in order.iter_mut().zip(columns) {
            *slot = c as u8;
        }
        Geometry {
            width,
            height,
            z,
            bottom,
            board,
            column0,
            odd_below_top,
            even_below_top,
            order,
        }
    }

    /// Cells of column `col`.
    #[inline(always)]
    pub fn column(&self, col: usize) -> W {
        self.column0 << (col * (self.height + 1)) as u32
    }

    /// The set seen in a mirror: column `c` becomes `width - 1 - c`.
    #[inline(always)]
    pub fn mirror(&self, x: W) -> W {
        let step = (self.height + 1) as u32;
        let whole = (self.column0 << 1) | W::ONE;
        let mut out = W::ZERO;
        for c in 0..self.width as u32 {
            let column = (x >> (c * step)) & whole;
            out = out | column << ((self.width as u32 - 1 - c) * step);
        }
        out
    }

    /// [`Geometry::mirror`] by swaps, for work that mirrors many sets.
    pub fn mirror_by_swaps(&self) -> Mirror<W> {
        Mirror::new(self)
    }

    /// The top cell of column `col`.
    #[inline(always)]
    pub fn top(&self, col: usize) -> W {
        W::ONE << (col * (self.height + 1) + self.height - 1) as u32
    }

    /// The bottom cell of column `col`.
    #[inline(always)]
    pub fn bottom_of(&self, col: usize) -> W {
        W::ONE << (col * (self.height + 1)) as u32
    }

    /// Cells of the frame (the `cells` of a score).
    pub fn cells(&self) -> i32 {
        (self.width * self.height) as i32
    }

    /// True when a run of z fits the frame in some direction.
    pub fn run_fits(&self) -> bool {
        self.z <= self.width.max(self.height)
    }

    /// The fastest run detector for this frame.
    pub fn detector(&self) -> Detector {
        if !self.run_fits() {
            Detector::None
        } else if self.z == 4 && 3 * (self.height + 2) < W::BITS as usize {
            Detector::Four
        } else if self.z <= 8 {
            Detector::Short
        } else {
            Detector::Long
        }
    }
}

/// Which [`RunDetector`] implementation a frame uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detector {
    /// No run fits: nobody ever wins.
    None,
    /// z = 4: the shift-and-AND form.
    Four,
    /// z <= 8: runs in fixed arrays of 8.
    Short,
    /// Any z: runs in fixed arrays of 128.
    Long,
}

/// Run detection: the cells that would complete a run of z for `own`.
/// The result is not masked: callers keep only the empty cells.
pub(crate) trait RunDetector<W: Word>: Copy + Send + Sync + 'static {
    fn wins(g: &Geometry<W>, own: W) -> W;
}

/// Nobody ever wins (z longer than both sides).
#[derive(Clone, Copy)]
pub(crate) struct NoRuns;

impl<W: Word> RunDetector<W> for NoRuns {
    #[inline(always)]
    fn wins(_: &Geometry<W>, _: W) -> W {
        W::ZERO
    }
}

/// z = 4, three cells of a direction ANDed by shifts (every shift below the
/// word's width: `3 * (height + 2) < W::BITS`).
#[derive(Clone, Copy)]
pub(crate) struct Four;

impl<W: Word> RunDetector<W> for Four {
    #[inline(always)]
    fn wins(g: &Geometry<W>, p: W) -> W {
        four(p, g.height as u32)
    }
}

/// [`Four`] on frames `H` rows high: the shifts are constants.
#[derive(Clone, Copy)]
pub(crate) struct FourHigh<const H: u32>;

impl<W: Word, const H: u32> RunDetector<W> for FourHigh<H> {
    #[inline(always)]
    fn wins(g: &Geometry<W>, p: W) -> W {
        debug_assert_eq!(g.height as u32, H);
        four(p, H)
    }
}

/// The cells that complete a run of four for `p` on a frame `h` high.
#[inline(always)]
fn four<W: Word>(p: W, h: u32) -> W {
    // Up: the three cells below.
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for s in [h + 1, h, h + 2] {
        let a = (p << s) & (p << (2 * s));
        r = r | (a & (p << (3 * s))) | (a & (p >> s));
        let b = (p >> s) & (p >> (2 * s));
        r = r | (b & (p << s)) | (b & (p >> (3 * s)));
    }
    r
}

/// Any z up to `N`: `left[k]` holds the cells whose k neighbours before them
/// in a direction are own, `right[k]` those whose k after them are; a cell
/// completes a run when `left[k] & right[z - 1 - k]` for some k.
#[derive(Clone, Copy)]
pub(crate) struct Runs<const N: usize>;

impl<W: Word, const N: usize> RunDetector<W> for Runs<N> {
    #[inline(always)]
    fn wins(g: &Geometry<W>, own: W) -> W {
        let (h, z) = (g.height as u32, g.z);
        debug_assert!(z <= N);
        let mut out = W::ZERO;
        for s in [1, h + 1, h, h + 2] {
            let mut left = [!W::ZERO; N];
            let mut right = [!W::ZERO; N];
            for k in 1..z {
                left[k] = left[k - 1] & own.shl_or_zero(k as u32 * s);
                right[k] = right[k - 1] & own.shr_or_zero(k as u32 * s);
            }
            for k in 0..z {
                out = out | (left[k] & right[z - 1 - k]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Winning cells by looking at every cell and direction, for `own` on
    /// the frame (cells by (column, row)).
    fn plain<W: Word>(g: &Geometry<W>, own: W) -> W {
        let at = |c: i64, r: i64| -> bool {
            c >= 0
                && r >= 0
                && (c as usize) < g.width
                && (r as usize) < g.height
                && !(own & W::ONE << (c as usize * (g.height + 1) + r as usize) as u32).is_zero()
        };
        let mut out = W::ZERO;
        for c in 0..g.width as i64 {
            for r in 0..g.height as i64 {
                let wins = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    let run = |sign: i64| {
                        (1..)
                            .take_while(|&k| at(c + sign * k * dc, r + sign * k * dr))
                            .count()
                    };
                    run(1) + run(-1) + 1 >= g.z
                });
                if wins {
                    out = out | W::ONE << (c as usize * (g.height + 1) + r as usize) as u32;
                }
            }
        }
        out
    }

    fn agree<W: Word>(width: usize, height: usize, z: usize, seed: u64) {
        let g = Geometry::<W>::new(width, height, z);
        let mut state = seed | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200 {
            // Random column heights, and a random part of the counters own;
            // the detectors answer for the empty cells.
            let (mut own, mut filled) = (W::ZERO, W::ZERO);
            for col in 0..width {
                let h = (next() % (height as u64 + 1)) as usize;
                for row in 0..h {
                    let cell = W::ONE << (col * (height + 1) + row) as u32;
                    filled = filled | cell;
                    if next() % 3 != 0 {
                        own = own | cell;
                    }
                }
            }
            let empty = g.board & !filled;
            let want = plain(&g, own) & empty;
            let got = match g.detector() {
                Detector::None => W::ZERO,
                Detector::Four => Four::wins(&g, own),
                Detector::Short => Runs::<8>::wins(&g, own),
                Detector::Long => Runs::<128>::wins(&g, own),
            } & empty;
            assert_eq!(got, want, "{width}x{height} z={z} own={own:?}");
            if g.run_fits() && z <= 8 {
                assert_eq!(Runs::<8>::wins(&g, own) & empty, want);
            }
        }
    }

    #[test]
    fn every_detector_agrees_with_looking() {
        for (w, h) in [(7, 6), (1, 8), (8, 1), (4, 4), (6, 9), (3, 15)] {
            for z in 1..=9 {
                agree::<u64>(w, h, z, (w * 100 + h * 10 + z) as u64);
            }
        }
        for (w, h) in [(8, 8), (9, 7), (10, 6), (16, 6), (1, 127), (64, 1), (12, 9)] {
            for z in [1, 2, 3, 4, 5, 8, 9, 12] {
                agree::<u128>(w, h, z, (w * 100 + h * 10 + z) as u64);
            }
        }
        // The longest lines a word holds.
        agree::<u64>(1, 63, 63, 7);
        agree::<u64>(32, 1, 32, 8);
        agree::<u128>(1, 127, 127, 9);
        agree::<u128>(64, 1, 64, 10);
    }
}

/// [`Geometry::mirror`] in a few swaps where the frame allows: with its
/// columns padded to a power of two that still fits the word, neighbouring
/// columns swap, then neighbouring pairs, and so on (three swaps on 7 x 6,
/// instead of a shift and a mask a column), and the padding is shifted
/// out. Any other frame mirrors column by column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mirror<W> {
    /// Each swap's mask (the lower block of each pair) and its block's
    /// bits, the swaps being `stages` of them; none when the padded
    /// columns do not fit.
    swaps: [(W, u32); 6],
    stages: usize,
    /// The padding's bits, shifted out at the end.
    padding: u32,
    g: Geometry<W>,
}

impl<W: Word> Mirror<W> {
    fn new(g: &Geometry<W>) -> Mirror<W> {
        let step = g.height as u32 + 1;
        let padded = (g.width as u32).next_power_of_two();
        let mut swaps = [(W::ZERO, 0); 6];
        let mut stages = 0;
        if padded.checked_mul(step).is_some_and(|bits| bits <= W::BITS) {
            let mut block = 1;
            while block < padded {
                let bits = block * step;
                let mut mask = W::ZERO;
                for first in (0..padded).step_by(2 * block as usize) {
                    for c in first..first + block {
                        mask = mask | ((W::ONE << step) - W::ONE).shl_or_zero(c * step);
                    }
                }
                swaps[stages] = (mask, bits);
                stages += 1;
                block *= 2;
            }
        }
        Mirror {
            swaps,
            stages,
            padding: (padded - g.width as u32) * step,
            g: *g,
        }
    }

    /// The set seen in the mirror ([`Geometry::mirror`]), for a set of the
    /// frame's columns.
    #[inline(always)]
    pub fn apply(&self, x: W) -> W {
        if self.stages == 0 {
            return self.g.mirror(x);
        }
        let mut x = x;
        for &(mask, bits) in &self.swaps[..self.stages] {
            x = (x & mask) << bits | (x >> bits) & mask;
        }
        x >> self.padding
    }
}
