//! The sparse store: occupied columns only.

use super::column_map::Probes;
use super::columns::{ARRAY_COLUMNS, Columns, Heights, small};
use super::dense::Dense;
use super::{CellLanes, Lane, OutOfMemory, Player, SIDEWAYS, player_from_tag, tag, totals};
use crate::nat::Nat;

/// What a counter on a cell would join: its row (0-based), its vertical run,
/// and the (back, ahead) runs beside it in each sideways direction.
pub(super) type Beside = (u64, u64, [(u64, u64); 3]);

/// A column of the sparse store: most hold one counter, which lives in the
/// column's entry; taller ones hold the index of a stack of their own. Two
/// words with 8-bit lanes, so a table slot is two words.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Column<L> {
    #[default]
    Empty,
    One(CellLanes<L>),
    Many(u32),
}

/// The counters of a column taller than one.
#[derive(Clone, Debug)]
pub(super) struct Stack<L> {
    /// The vertical run of the top counter.
    top_run: u64,
    cells: Vec<CellLanes<L>>,
}

/// The stacks of a store's tall columns, indexed by [`Column::Many`].
pub(super) type Stacks<L> = Vec<Stack<L>>;

impl<L: Lane> Column<L> {
    pub(super) fn height(&self, stacks: &Stacks<L>) -> u64 {
        match self {
            Column::Empty => 0,
            Column::One(_) => 1,
            Column::Many(i) => stacks[*i as usize].cells.len() as u64,
        }
    }

    pub(super) fn cell<'a>(&'a self, stacks: &'a Stacks<L>, row: u64) -> Option<&'a CellLanes<L>> {
        match self {
            Column::Empty => None,
            Column::One(c) => (row == 0).then_some(c),
            Column::Many(i) => stacks[*i as usize].cells.get(usize::try_from(row).ok()?),
        }
    }

    /// The top counter's tag and its vertical run.
    pub(super) fn top(&self, stacks: &Stacks<L>) -> (L, u64) {
        match self {
            Column::Empty => (L::default(), 0),
            Column::One(c) => (c[3], 1),
            Column::Many(i) => {
                let s = &stacks[*i as usize];
                (s.cells.last().map_or(L::default(), |c| c[3]), s.top_run)
            }
        }
    }

    /// One more counter on top; a second one moves the column to a stack.
    pub(super) fn push(
        &mut self,
        stacks: &mut Stacks<L>,
        cell: CellLanes<L>,
        top_run: u64,
    ) -> Result<(), OutOfMemory> {
        match self {
            Column::Empty => *self = Column::One(cell),
            Column::One(first) => {
                let index = u32::try_from(stacks.len()).map_err(|_| OutOfMemory)?;
                let mut cells = Vec::new();
                cells.try_reserve_exact(2).map_err(|_| OutOfMemory)?;
                cells.push(*first);
                cells.push(cell);
                stacks.try_reserve(1).map_err(|_| OutOfMemory)?;
                stacks.push(Stack { top_run, cells });
                *self = Column::Many(index);
            }
            Column::Many(i) => {
                let s = &mut stacks[*i as usize];
                s.cells.try_reserve(1).map_err(|_| OutOfMemory)?;
                s.cells.push(cell);
                s.top_run = top_run;
            }
        }
        Ok(())
    }
}

/// Sets run `len` in direction `dir` of the cell `dr` rows from `row` in
/// `column`, if it holds one.
fn set_run<L: Lane>(
    column: Option<&mut Column<L>>,
    stacks: &mut Stacks<L>,
    row: u64,
    dr: i64,
    dir: usize,
    len: u64,
) {
    let Some(row) = row.checked_add_signed(dr) else {
        return;
    };
    let cell = match column {
        Some(Column::One(cell)) if row == 0 => cell,
        Some(Column::Many(i)) => match stacks[*i as usize].cells.get_mut(row as usize) {
            Some(cell) => cell,
            None => return,
        },
        _ => return,
    };
    cell[dir] = L::put(len);
}

/// Heap bytes of the stacks.
fn stacks_bytes<L>(stacks: &Stacks<L>) -> usize {
    stacks.capacity() * size_of::<Stack<L>>()
        + stacks
            .iter()
            .map(|s| s.cells.capacity() * size_of::<CellLanes<L>>())
            .sum::<usize>()
}

/// Occupied columns only.
#[derive(Clone, Debug)]
pub(super) struct Sparse<L> {
    pub(super) columns: Columns<Column<L>>,
    stacks: Stacks<L>,
}

impl<L: Lane> Sparse<L> {
    pub(super) fn new(x: &Nat) -> Sparse<L> {
        Sparse {
            columns: Columns::new(x, ARRAY_COLUMNS),
            stacks: Vec::new(),
        }
    }

    /// The keyed table's lookups and probe steps so far.
    pub(super) fn probes(&self) -> Probes {
        self.columns.probes()
    }

    pub(super) fn column(&self, col: &Nat) -> Option<&Column<L>> {
        self.columns.get(col)
    }

    /// The column `by` (-1 or 1) beside `col`; none left of column 1.
    /// A column past 2^64 has its neighbour's number made, which can fail.
    pub(super) fn beside_column(
        &self,
        col: &Nat,
        by: i64,
    ) -> Result<Option<&Column<L>>, OutOfMemory> {
        Ok(match small(col).map(|c| c.checked_add_signed(by)) {
            Some(Some(0)) => None,
            Some(Some(n)) => self.columns.get_small(n),
            _ => match shift(col, by)? {
                Some(beside) => self.columns.get(&beside),
                None => None,
            },
        })
    }

    pub(super) fn height(&self, col: &Nat) -> u64 {
        self.column(col).map_or(0, |c| c.height(&self.stacks))
    }

    /// Counters in every column: for the store that keeps heights only.
    pub(super) fn heights(&self, x: &Nat) -> Option<Heights> {
        self.columns.map_values(x, |c| c.height(&self.stacks))
    }

    /// The first and last occupied column and the tallest height.
    pub(super) fn span(&self) -> Option<(Nat, Nat, u64)> {
        self.columns.span(|c| c.height(&self.stacks))
    }

    /// Asks for the memory a move into column `c` (1-based) reads.
    #[inline]
    pub(super) fn warm(&self, c: u64) {
        self.columns.prefetch_around(c);
    }

    /// The runs a counter tagged `tag` on top of `col` would join: its row
    /// (0-based), its vertical run, and the (back, ahead) runs beside it in
    /// each sideways direction. Three lookups: the column and its two
    /// neighbours.
    pub(super) fn beside(&self, col: &Nat, player: Player) -> Result<Beside, OutOfMemory> {
        self.beside_at(col, None, player)
    }

    /// [`Sparse::beside`] for a counter of `player`'s at `row` (`None`: the
    /// top of `col`; a row above the top has a vertical run of 1).
    pub(super) fn beside_at(
        &self,
        col: &Nat,
        row: Option<u64>,
        player: Player,
    ) -> Result<Beside, OutOfMemory> {
        let tag = L::put(tag(player));
        let columns = [
            self.beside_column(col, -1)?,
            self.column(col),
            self.beside_column(col, 1)?,
        ];
        Ok(self.runs(columns, row, tag))
    }

    /// [`Sparse::beside_at`] given the columns left of, at and right of the
    /// cell.
    #[inline]
    fn runs(
        &self,
        [left, here, right]: [Option<&Column<L>>; 3],
        row: Option<u64>,
        tag: L,
    ) -> (u64, u64, [(u64, u64); 3]) {
        let stacks = &self.stacks;
        let top = here.map_or(0, |c| c.height(stacks));
        let row = row.unwrap_or(top);
        let vertical = match here.map(|c| c.top(stacks)) {
            Some((owner, run)) if owner == tag && row == top => run + 1,
            _ => 1,
        };
        let run = |column: Option<&Column<L>>, row: Option<u64>, dir: usize| -> u64 {
            column
                .zip(row)
                .and_then(|(c, r)| c.cell(stacks, r))
                .filter(|cell| cell[3] == tag)
                .map_or(0, |cell| cell[dir].get())
        };
        let mut sides = [(0, 0); 3];
        for (dir, dr) in SIDEWAYS {
            sides[dir] = (
                run(left, row.checked_add_signed(-dr), dir),
                run(right, row.checked_add_signed(dr), dir),
            );
        }
        (row, vertical, sides)
    }

    /// Places `player`'s counter on top of `col` and updates the ends of
    /// the runs it joins.
    pub(super) fn place(&mut self, col: &Nat, player: Player) -> Result<(), OutOfMemory> {
        let tag = L::put(tag(player));
        let (row, vertical, sides) = self.beside(col, player)?;
        let totals = totals(sides);
        let cell = [L::put(totals[0]), L::put(totals[1]), L::put(totals[2]), tag];
        self.columns
            .entry(col)?
            .push(&mut self.stacks, cell, vertical)?;
        for (dir, dr) in SIDEWAYS {
            let (b, a) = sides[dir];
            // Only the ends of a run are ever read again: update those.
            for k in [-(b as i64), a as i64] {
                if k != 0
                    && let Some(end) = shift(col, k)?
                {
                    let column = self.columns.get_mut(&end);
                    set_run(column, &mut self.stacks, row, k * dr, dir, totals[dir]);
                }
            }
        }
        Ok(())
    }

    /// The sparse store's hot loop, as [`Dense::step_ordinary`]: steps
    /// through the longest prefix of `columns` (1-based machine words),
    /// `first` moving first, whose moves are ordinary (at most `x`, into a column with
    /// fewer than `y` counters, completing no run of `z`), at most `limit`
    /// of them. Returns how many it stepped. The same placements as
    /// [`Sparse::place`], without a `Nat` per column.
    pub(super) fn step_ordinary(
        &mut self,
        columns: &[u64],
        first: Player,
        [x, y, z]: [u64; 3],
        limit: usize,
    ) -> usize {
        let mut player = first;
        for (i, &c) in columns.iter().enumerate().take(limit) {
            if c == 0 || c > x {
                return i;
            }
            let tag = L::put(tag(player));
            let beside = [
                self.columns.get_small(c - 1),
                self.columns.get_small(c),
                c.checked_add(1).and_then(|n| self.columns.get_small(n)),
            ];
            if beside[1].is_some_and(|h| h.height(&self.stacks) >= y) {
                return i;
            }
            let (row, vertical, sides) = self.runs(beside, None, tag);
            let totals = totals(sides);
            if totals.into_iter().fold(vertical, u64::max) >= z {
                return i;
            }
            let cell = [L::put(totals[0]), L::put(totals[1]), L::put(totals[2]), tag];
            // Out of memory: the slow path meets it again and says so.
            let Ok(column) = self.columns.entry_small(c) else {
                return i;
            };
            if column.push(&mut self.stacks, cell, vertical).is_err() {
                return i;
            }
            for (dir, dr) in SIDEWAYS {
                let (b, a) = sides[dir];
                for k in [-(b as i64), a as i64] {
                    if k != 0 {
                        // Run ends lie inside the frame: no wrap.
                        let column = self.columns.get_small_mut(c.wrapping_add_signed(k));
                        set_run(column, &mut self.stacks, row, k * dr, dir, totals[dir]);
                    }
                }
            }
            player = player.other();
        }
        columns.len().min(limit)
    }

    pub(super) fn owner(&self, col: &Nat, row: u64) -> Option<Player> {
        player_from_tag(self.column(col)?.cell(&self.stacks, row)?[3].get())
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.columns.heap_bytes() + stacks_bytes(&self.stacks)
    }

    /// The same counters in an array, or `None` when memory is short.
    pub(super) fn to_dense(&self, width: usize, rows: u32) -> Option<Dense<L>> {
        let mut dense = Dense::try_new(width, rows)?;
        for (c, column) in self.columns.small_columns() {
            let height = column.height(&self.stacks);
            if height == 0 {
                continue;
            }
            let col = usize::try_from(c - 1).ok()?;
            dense.heights[col] = u32::try_from(height).ok()?;
            dense.top_runs[col] = u32::try_from(column.top(&self.stacks).1).ok()?;
            for row in 0..height {
                dense.set(col, row as usize, *column.cell(&self.stacks, row)?);
            }
        }
        Some(dense)
    }
}

/// `col + by`, or `None` left of column 1.
pub(super) fn shift(col: &Nat, by: i64) -> Result<Option<Nat>, OutOfMemory> {
    if by >= 0 {
        col.try_add(&Nat::from(by as u64)).map(Some)
    } else {
        Ok(col
            .try_checked_sub(&Nat::from(by.unsigned_abs()))?
            .filter(|c| !c.is_zero()))
    }
}
