//! The array store: every cell of the frame, row after row.

use std::hint::select_unpredictable;

use crate::fast::prefetch::prefetch;

use super::{CellLanes, Lane, Player, SIDEWAYS, player_from_tag, tag, totals};
use crate::nat::Nat;

/// Cells `[horizontal, diagonal, anti-diagonal, owner]` in one array, row
/// after row: the cells a move reads and writes lie in the three rows around
/// it, so the rows being filled stay few pages however wide the frame. Rows
/// are committed as counters reach them, so a frame with few counters costs
/// little; the array's capacity is reserved (address space only) up front.
///
/// A cell above a column's top is always empty (cells are only ever written
/// where a counter lies), and so is the cell a counter is about to fill. The
/// array is padded by one cell at each end, so a neighbour in the same row
/// always has an index (at the frame's left and right edges it is masked);
/// a neighbour below row 0, or in a row not yet committed, is read as the
/// cell itself, which is empty. No padding rows: the rows above the
/// counters cost nothing.
#[derive(Clone, Debug)]
pub(super) struct Dense<L> {
    pub(super) width: usize,
    pub(super) rows: u32,
    cells: Vec<CellLanes<L>>,
    /// Cells of the padded array: `rows * width + 2`.
    total: usize,
    /// Rows committed (kept beside `cells.len()` so the hot loop needs no
    /// division).
    committed: usize,
    pub(super) heights: Vec<u32>,
    pub(super) top_runs: Vec<u32>,
}

impl<L: Lane> Dense<L> {
    /// An empty array, or `None` when the memory cannot be had.
    pub(super) fn try_new(width: usize, rows: u32) -> Option<Dense<L>> {
        let total = (rows as usize).checked_mul(width)?.checked_add(2)?;
        let mut cells = Vec::new();
        cells.try_reserve_exact(total).ok()?;
        let mut heights = Vec::new();
        heights.try_reserve_exact(width).ok()?;
        heights.resize(width, 0);
        let mut top_runs = Vec::new();
        top_runs.try_reserve_exact(width).ok()?;
        top_runs.resize(width, 0);
        Some(Dense {
            width,
            rows,
            cells,
            total,
            committed: 0,
            heights,
            top_runs,
        })
    }

    /// Index of (col, row), 0-based, in the padded array.
    #[inline]
    pub(super) fn index(&self, col: usize, row: usize) -> usize {
        row * self.width + col + 1
    }

    /// The index steps one cell to the right along the sideways directions.
    #[inline]
    fn steps(&self) -> [isize; 3] {
        SIDEWAYS.map(|(_, dr)| 1 + dr as isize * self.width as isize)
    }

    /// Commits rows up to and including `row` (capacity is reserved), and
    /// the padding around them.
    #[inline]
    pub(super) fn commit(&mut self, row: usize) {
        if self.committed <= row {
            let need = ((row + 1) * self.width + 2).min(self.total);
            self.cells.resize(need, [L::default(); 4]);
            self.committed = row + 1;
        }
    }

    /// The cell at `index`: empty where the array is not yet committed.
    #[inline]
    fn cell(&self, index: usize) -> CellLanes<L> {
        self.cells.get(index).copied().unwrap_or_default()
    }

    /// Sets the cell at (col, row), 0-based, committing its row.
    pub(super) fn set(&mut self, col: usize, row: usize, cell: CellLanes<L>) {
        self.commit(row);
        let i = self.index(col, row);
        self.cells[i] = cell;
    }

    pub(super) fn height(&self, col: usize) -> u64 {
        self.heights.get(col).map_or(0, |&h| u64::from(h))
    }

    /// The first and last occupied column (0-based) and the tallest
    /// column's height; `None` when the board is empty.
    pub(super) fn span(&self) -> Option<(usize, usize, u64)> {
        let first = self.heights.iter().position(|&h| h > 0)?;
        let last = self.heights.iter().rposition(|&h| h > 0)?;
        let top = self.heights[first..=last].iter().max().copied()?;
        Some((first, last, u64::from(top)))
    }

    /// Who owns (col, row), 0-based.
    pub(super) fn owner(&self, col: usize, row: u64) -> Option<Player> {
        let height = *self.heights.get(col)?;
        if row >= u64::from(height) {
            return None;
        }
        player_from_tag(self.cell(self.index(col, row as usize))[3].get())
    }

    /// The vertical run and the (back, ahead) runs a counter of `player`'s
    /// at `row` of `col` would join: the top of `col` or above it (above
    /// it, the vertical run is 1).
    pub(super) fn beside_at(
        &self,
        col: usize,
        row: usize,
        player: Player,
    ) -> (u64, [(u64, u64); 3]) {
        self.runs(col, row, L::put(tag(player)), |i| self.cell(i))
    }

    /// [`Dense::beside_at`] with the cells read by `read`: the array
    /// itself where `row` is committed (the hot loop), else [`Dense::cell`].
    /// Selects rather than branches: whether a neighbour is the same
    /// player's is a coin toss in most games, and a mispredicted branch
    /// costs more than the select.
    #[inline(always)]
    fn runs(
        &self,
        col: usize,
        row: usize,
        tag: L,
        read: impl Fn(usize) -> CellLanes<L>,
    ) -> (u64, [(u64, u64); 3]) {
        let here = self.index(col, row);
        let steps = self.steps();
        let (left, right) = (col > 0, col + 1 < self.width);
        let (down, up) = (row > 0, row + 1 < self.committed);
        // A neighbour below row 0 or in a row not committed: the empty
        // cell `here`.
        let beside =
            |ok: bool, step: isize| select_unpredictable(ok, here.wrapping_add_signed(step), here);
        let index = [
            [here - 1, here + 1],
            [beside(down, -steps[1]), beside(up, steps[1])],
            [beside(up, -steps[2]), beside(down, steps[2])],
        ];
        let run = |cell: CellLanes<L>, dir: usize, edge: bool| {
            select_unpredictable(edge & (cell[3] == tag), cell[dir].get(), 0)
        };
        // Above the top, the cell below is empty: a vertical run of 1.
        let below = read(beside(down, -(self.width as isize)))[3] == tag;
        let vertical = 1 + select_unpredictable(below, u64::from(self.top_runs[col]), 0);
        let mut runs = [(0, 0); 3];
        for (dir, [b, a]) in index.into_iter().enumerate() {
            runs[dir] = (run(read(b), dir, left), run(read(a), dir, right));
        }
        (vertical, runs)
    }

    /// Places `player`'s counter on top of `col` (inside the frame, not
    /// full), and updates the runs at the ends of the runs it joins.
    pub(super) fn place(&mut self, col: usize, player: Player) {
        let tag = L::put(tag(player));
        let row = self.heights[col] as usize;
        self.commit(row);
        let (vertical, sides) = self.runs(col, row, tag, |i| self.cells[i]);
        self.write(col, row, tag, vertical, sides, totals(sides));
    }

    /// Writes a counter tagged `tag` at the top of `col` (its row
    /// committed): the run totals at both ends of the runs it joins (only
    /// the ends of a run are ever read again), the cell, the height and the
    /// vertical run. An end `0` away is the cell itself, written last, so
    /// no end needs a test.
    #[inline]
    fn write(
        &mut self,
        col: usize,
        row: usize,
        tag: L,
        vertical: u64,
        sides: [(u64, u64); 3],
        totals: [u64; 3],
    ) {
        let here = self.index(col, row);
        for (dir, step) in self.steps().into_iter().enumerate() {
            let (b, a) = sides[dir];
            let total = L::put(totals[dir]);
            self.cells[here.wrapping_add_signed(-step * b as isize)][dir] = total;
            self.cells[here.wrapping_add_signed(step * a as isize)][dir] = total;
        }
        self.cells[here] = [L::put(totals[0]), L::put(totals[1]), L::put(totals[2]), tag];
        self.heights[col] += 1;
        // The column's height fits in u32 (Board::new), so its run does too.
        self.top_runs[col] = vertical as u32;
    }

    /// The hot loop of dense games: steps through the longest prefix of `columns`
    /// (1-based), `first` moving first, whose moves are ordinary: inside
    /// the frame, into a column with room, completing no run of `z`.
    /// Returns how many it stepped; the move after them is left to the
    /// rules' `step`. The same runs as [`Dense::place`].
    pub(super) fn step_ordinary(&mut self, columns: &[u64], first: Player, z: u64) -> usize {
        let width = self.width;
        let mut player = tag(first);
        for (i, &column) in columns.iter().enumerate() {
            let col = column.wrapping_sub(1);
            if col >= width as u64 {
                return i;
            }
            let col = col as usize;
            let row = self.heights[col] as usize;
            if row == self.rows as usize {
                return i;
            }
            self.commit(row);
            let tag = L::put(player);
            let (vertical, sides) = self.runs(col, row, tag, |i| self.cells[i]);
            let totals = totals(sides);
            let longest = totals.into_iter().fold(vertical, u64::max);
            if longest >= z {
                return i;
            }
            self.write(col, row, tag, vertical, sides, totals);
            player ^= 3;
        }
        columns.len()
    }

    /// Asks for the cells a move into `column` (1-based) will touch, so that their cache
    /// lines are on their way while the moves before it are played.
    #[inline]
    pub(super) fn warm(&self, column: u64) {
        let col = column.wrapping_sub(1) as usize;
        if let Some(&h) = self.heights.get(col) {
            let i = self.index(col, h as usize);
            for j in [i.wrapping_sub(self.width), i, i + self.width] {
                prefetch(&self.cells, j);
            }
        }
    }

    /// Heights, vertical runs and every cell of the frame and its padding,
    /// however much of the array is committed: for tests.
    #[cfg(test)]
    pub(super) fn contents(&self) -> (Vec<u32>, Vec<u32>, Vec<CellLanes<L>>) {
        let cells = (0..self.total).map(|i| self.cell(i)).collect();
        (self.heights.clone(), self.top_runs.clone(), cells)
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.cells.capacity() * size_of::<CellLanes<L>>()
            + (self.heights.capacity() + self.top_runs.capacity()) * size_of::<u32>()
    }
}

#[inline]
pub(super) fn dense_index(column: &Nat) -> Option<usize> {
    usize::try_from(column.to_u64()?.checked_sub(1)?).ok()
}
