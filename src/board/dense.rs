//! The array store: every cell of the frame, row after row.

use super::{Cell, Lane, Placement, Player, SIDEWAYS, join, tag};

/// Cells `[horizontal, diagonal, anti-diagonal, owner]` in one array, row
/// after row: the cells a move reads and writes lie in the three rows around
/// it, so the rows being filled stay few pages however wide the frame. Rows
/// are committed as counters reach them, so a frame with few counters costs
/// little; the array's capacity is reserved (address space only) up front.
#[derive(Clone, Debug)]
pub(super) struct Dense<L> {
    pub(super) width: usize,
    pub(super) rows: u32,
    pub(super) cells: Vec<Cell<L>>,
    pub(super) heights: Vec<u32>,
    pub(super) top_runs: Vec<u32>,
}

impl<L: Lane> Dense<L> {
    /// An empty array, or `None` when the memory cannot be had.
    pub(super) fn try_new(width: usize, rows: u32) -> Option<Dense<L>> {
        let total = width.checked_mul(rows as usize)?;
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
            heights,
            top_runs,
        })
    }

    /// Index of (col, row), 0-based.
    #[inline]
    pub(super) fn index(&self, col: usize, row: usize) -> usize {
        row * self.width + col
    }

    /// The index step one cell to the right along a sideways direction
    /// whose row changes by `dr` per column.
    #[inline]
    fn step(&self, dr: i64) -> isize {
        1 + dr as isize * self.width as isize
    }

    /// Commits rows up to and including `row` (capacity is reserved).
    #[inline]
    pub(super) fn commit(&mut self, row: usize) {
        let need = (row + 1) * self.width;
        if self.cells.len() < need {
            self.cells.resize(need, [L::default(); 4]);
        }
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
        Player::from_tag(self.cells[self.index(col, row as usize)][3].get())
    }

    /// The vertical run and the (back, ahead) runs a counter tagged `tag` on
    /// top of `col` would join.
    #[inline]
    pub(super) fn beside(&self, col: usize, tag: L) -> (u64, [(u64, u64); 3]) {
        self.beside_at(col, self.heights[col] as usize, tag)
    }

    /// [`Dense::beside`] for a cell at `row` (the top of `col` or above it;
    /// above it, the vertical run is 1).
    #[inline]
    pub(super) fn beside_at(&self, col: usize, row: usize, tag: L) -> (u64, [(u64, u64); 3]) {
        let here = self.index(col, row);
        let on_top = row == self.heights[col] as usize;
        let vertical = if on_top && row > 0 && self.cells[here - self.width][3] == tag {
            u64::from(self.top_runs[col]) + 1
        } else {
            1
        };
        // Heights of the neighbouring columns; 0 beyond the frame's edges.
        let left = col.checked_sub(1).map_or(0, |c| self.heights[c] as usize);
        let right = self.heights.get(col + 1).map_or(0, |&h| h as usize);
        let mut sides = [(0, 0); 3];
        for (dir, dr) in SIDEWAYS {
            let step = self.step(dr);
            // The cell beside, if occupied by the same player, ends a run there.
            if row.wrapping_add_signed(-dr as isize) < left {
                let cell = self.cells[here.wrapping_add_signed(-step)];
                if cell[3] == tag {
                    sides[dir].0 = cell[dir].get();
                }
            }
            if row.wrapping_add_signed(dr as isize) < right {
                let cell = self.cells[here.wrapping_add_signed(step)];
                if cell[3] == tag {
                    sides[dir].1 = cell[dir].get();
                }
            }
        }
        (vertical, sides)
    }

    /// Places `player`'s counter on top of `col` (inside the frame, not
    /// full) and updates the runs at the ends of the runs it joins: the hot
    /// loop of dense games.
    #[inline]
    pub(super) fn place(&mut self, col: usize, player: Player) -> Placement {
        let tag = L::put(tag(player));
        let row = self.heights[col] as usize;
        self.commit(row);
        let here = self.index(col, row);
        let (vertical, sides) = self.beside(col, tag);
        let (totals, direction, length, back) = join(vertical, sides);
        for (dir, dr) in SIDEWAYS {
            let step = self.step(dr);
            let (b, a) = sides[dir];
            let total = L::put(totals[dir]);
            // Only the ends of a run are ever read again: update those.
            if b != 0 {
                let end = here.wrapping_add_signed(-step * b as isize);
                self.cells[end][dir] = total;
            }
            if a != 0 {
                let end = here.wrapping_add_signed(step * a as isize);
                self.cells[end][dir] = total;
            }
        }
        self.cells[here] = [L::put(totals[0]), L::put(totals[1]), L::put(totals[2]), tag];
        self.heights[col] += 1;
        // The column's height fits in u32 (Board::new), so its run does too.
        self.top_runs[col] = vertical as u32;
        Placement {
            row: row as u64,
            direction,
            length,
            back,
        }
    }

    pub(super) fn longest_if_played(&self, col: usize, row: usize, player: Player) -> u64 {
        let (vertical, sides) = self.beside_at(col, row, L::put(tag(player)));
        sides
            .iter()
            .map(|(b, a)| b + 1 + a)
            .fold(vertical, u64::max)
    }

    /// Reads the cells a move into `col` will touch, so that their cache
    /// lines are on their way while the current move is played.
    #[inline]
    pub(super) fn warm(&self, col: usize) {
        if let Some(&h) = self.heights.get(col) {
            let i = self.index(col, h as usize);
            for j in [i.wrapping_sub(self.width), i, i.wrapping_add(self.width)] {
                if let Some(cell) = self.cells.get(j) {
                    std::hint::black_box(cell[0]);
                }
            }
        }
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.cells.capacity() * size_of::<Cell<L>>()
            + (self.heights.capacity() + self.top_runs.capacity()) * size_of::<u32>()
    }
}
