//! The sparse stores: occupied columns only, and heights only.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;

use super::dense::Dense;
use super::{Cell, Exhausted, Lane, Placement, Player, SIDEWAYS, join, tag};
use crate::nat::Nat;

/// A hash map keyed by input-chosen numbers: r[resource.time], SipHash-1-3
/// with a random key per process, so no file can be built to collide.
pub(super) type KeyedMap<K, V> = HashMap<K, V, RandomState>;

/// Bytes a hash map of `capacity` entries of `entry` bytes occupies (its
/// buckets are a power of two at most 7/8 full, plus a control byte each).
pub(super) fn map_bytes(capacity: usize, entry: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two();
    buckets * (entry + 1)
}

/// Frames up to this many columns index their columns by an array, wider
/// ones by keyed hash maps.
pub const ARRAY_COLUMNS: u64 = 1 << 16;

/// A value per column, empty by default: an array for narrow frames, keyed
/// maps for wide ones (and a second map for columns past 2^64).
#[derive(Clone, Debug)]
pub(super) struct Columns<V> {
    array: Vec<V>,
    map: KeyedMap<u64, V>,
    big: KeyedMap<Nat, V>,
}

impl<V: Default + Clone> Columns<V> {
    /// Columns of an `x`-wide frame, in an array when `x` is at most
    /// `array_limit`.
    pub(super) fn new(x: &Nat, array_limit: u64) -> Columns<V> {
        let width = x.to_u64().filter(|&w| w <= array_limit).unwrap_or(0);
        Columns {
            array: vec![V::default(); width as usize],
            map: KeyedMap::default(),
            big: KeyedMap::default(),
        }
    }

    #[inline]
    pub(super) fn get(&self, col: &Nat) -> Option<&V> {
        match small(col) {
            Some(c) => match self.array.get(c.wrapping_sub(1) as usize) {
                Some(v) => Some(v),
                None if self.array.is_empty() => self.map.get(&c),
                None => None,
            },
            None => self.big.get(col),
        }
    }

    /// The value for `col`, made (empty) if need be.
    #[inline]
    pub(super) fn entry(&mut self, col: &Nat) -> Result<&mut V, Exhausted> {
        match small(col) {
            Some(c) if !self.array.is_empty() => self
                .array
                .get_mut(c.wrapping_sub(1) as usize)
                .ok_or(Exhausted),
            Some(c) => {
                self.map.try_reserve(1).map_err(|_| Exhausted)?;
                Ok(self.map.entry(c).or_default())
            }
            None => {
                self.big.try_reserve(1).map_err(|_| Exhausted)?;
                Ok(self.big.entry(col.clone()).or_default())
            }
        }
    }

    #[inline]
    pub(super) fn get_mut(&mut self, col: &Nat) -> Option<&mut V> {
        match small(col) {
            Some(c) if !self.array.is_empty() => self.array.get_mut(c.wrapping_sub(1) as usize),
            Some(c) => self.map.get_mut(&c),
            None => self.big.get_mut(col),
        }
    }

    /// Every column that fits a machine word, with its 1-based number.
    pub(super) fn small_columns(&self) -> impl Iterator<Item = (u64, &V)> {
        let array = self
            .array
            .iter()
            .enumerate()
            .map(|(i, v)| (i as u64 + 1, v));
        array.chain(self.map.iter().map(|(&c, v)| (c, v)))
    }

    /// The first and last column whose `height` is not zero, and the
    /// greatest height; `None` when every height is zero.
    pub(super) fn span(&self, height: impl Fn(&V) -> u64) -> Option<(Nat, Nat, u64)> {
        let mut small: Option<(u64, u64, u64)> = None;
        for (c, v) in self.small_columns() {
            let h = height(v);
            if h > 0 {
                let (lo, hi, top) = small.unwrap_or((c, c, h));
                small = Some((lo.min(c), hi.max(c), top.max(h)));
            }
        }
        let mut span = small.map(|(lo, hi, top)| (Nat::from(lo), Nat::from(hi), top));
        for (c, v) in &self.big {
            let h = height(v);
            if h > 0 {
                span = Some(match span {
                    None => (c.clone(), c.clone(), h),
                    Some((lo, hi, top)) => (
                        if *c < lo { c.clone() } else { lo },
                        if *c > hi { c.clone() } else { hi },
                        top.max(h),
                    ),
                });
            }
        }
        span
    }

    /// The same columns with values mapped by `f`, or `None` when memory is short.
    pub(super) fn map_values<W: Default + Clone>(
        &self,
        x: &Nat,
        f: impl Fn(&V) -> W,
    ) -> Option<Columns<W>> {
        let mut out = Columns::<W>::new(x, ARRAY_COLUMNS);
        for (i, v) in self.array.iter().enumerate() {
            out.array[i] = f(v);
        }
        out.map.try_reserve(self.map.len()).ok()?;
        out.map.extend(self.map.iter().map(|(&c, v)| (c, f(v))));
        out.big.try_reserve(self.big.len()).ok()?;
        out.big
            .extend(self.big.iter().map(|(c, v)| (c.clone(), f(v))));
        Some(out)
    }

    pub(super) fn heap_bytes(&self, extra: impl Fn(&V) -> usize) -> usize {
        let entry = size_of::<V>();
        self.array.capacity() * entry
            + map_bytes(self.map.capacity(), size_of::<u64>() + entry)
            + map_bytes(self.big.capacity(), size_of::<Nat>() + entry)
            + self.array.iter().map(&extra).sum::<usize>()
            + self.map.values().map(&extra).sum::<usize>()
            + self.big.values().map(&extra).sum::<usize>()
    }
}

/// A column of the sparse store: most hold one counter, which lives inline;
/// taller ones move to a stack of their own.
#[derive(Clone, Debug, Default)]
pub(super) enum Column<L> {
    #[default]
    Empty,
    One(Cell<L>),
    Many(Box<Stack<L>>),
}

#[derive(Clone, Debug)]
pub(super) struct Stack<L> {
    /// The vertical run of the top counter.
    top_run: u64,
    cells: Vec<Cell<L>>,
}

impl<L: Lane> Column<L> {
    pub(super) fn height(&self) -> u64 {
        match self {
            Column::Empty => 0,
            Column::One(_) => 1,
            Column::Many(s) => s.cells.len() as u64,
        }
    }

    pub(super) fn cell(&self, row: u64) -> Option<&Cell<L>> {
        match self {
            Column::Empty => None,
            Column::One(c) => (row == 0).then_some(c),
            Column::Many(s) => s.cells.get(usize::try_from(row).ok()?),
        }
    }

    pub(super) fn cell_mut(&mut self, row: u64) -> Option<&mut Cell<L>> {
        match self {
            Column::Empty => None,
            Column::One(c) => (row == 0).then_some(c),
            Column::Many(s) => s.cells.get_mut(usize::try_from(row).ok()?),
        }
    }

    /// The top counter's tag and its vertical run.
    pub(super) fn top(&self) -> (L, u64) {
        match self {
            Column::Empty => (L::default(), 0),
            Column::One(c) => (c[3], 1),
            Column::Many(s) => (s.cells.last().map_or(L::default(), |c| c[3]), s.top_run),
        }
    }

    pub(super) fn push(&mut self, cell: Cell<L>, top_run: u64) -> Result<(), Exhausted> {
        match self {
            Column::Empty => *self = Column::One(cell),
            Column::One(first) => {
                let mut cells = Vec::new();
                cells.try_reserve_exact(2).map_err(|_| Exhausted)?;
                cells.push(*first);
                cells.push(cell);
                *self = Column::Many(Box::new(Stack { top_run, cells }));
            }
            Column::Many(s) => {
                s.cells.try_reserve(1).map_err(|_| Exhausted)?;
                s.cells.push(cell);
                s.top_run = top_run;
            }
        }
        Ok(())
    }

    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Column::Empty | Column::One(_) => 0,
            Column::Many(s) => size_of::<Stack<L>>() + s.cells.capacity() * size_of::<Cell<L>>(),
        }
    }
}

/// A column number in the sparse stores: most fit in a machine word; the
/// rest (frames wider than 2^64) keep their exact value.
#[inline]
fn small(column: &Nat) -> Option<u64> {
    column.to_u64()
}

/// Occupied columns only.
#[derive(Clone, Debug)]
pub(super) struct Sparse<L> {
    pub(super) columns: Columns<Column<L>>,
}

impl<L: Lane> Sparse<L> {
    pub(super) fn new(x: &Nat) -> Sparse<L> {
        Sparse {
            columns: Columns::new(x, ARRAY_COLUMNS),
        }
    }

    pub(super) fn column(&self, col: &Nat) -> Option<&Column<L>> {
        self.columns.get(col)
    }

    /// The column `by` (-1 or 1) beside `col`; none left of column 1.
    pub(super) fn beside_column(&self, col: &Nat, by: i64) -> Option<&Column<L>> {
        match small(col).map(|c| c.checked_add_signed(by)) {
            Some(Some(0)) => None,
            Some(Some(n)) => self.columns.get(&Nat::from(n)),
            _ => self.columns.get(&shift(col, by)?),
        }
    }

    pub(super) fn height(&self, col: &Nat) -> u64 {
        self.column(col).map_or(0, Column::height)
    }

    /// The runs a counter tagged `tag` on top of `col` would join: its row
    /// (0-based), its vertical run, and the (back, ahead) runs beside it in
    /// each sideways direction. Three lookups: the column and its two
    /// neighbours.
    pub(super) fn beside(&self, col: &Nat, tag: L) -> (u64, u64, [(u64, u64); 3]) {
        self.beside_at(col, None, tag)
    }

    /// [`Sparse::beside`] at `row` (`None`: the top of `col`; a row above
    /// the top has a vertical run of 1).
    pub(super) fn beside_at(
        &self,
        col: &Nat,
        row: Option<u64>,
        tag: L,
    ) -> (u64, u64, [(u64, u64); 3]) {
        let here = self.column(col);
        let top = here.map_or(0, Column::height);
        let row = row.unwrap_or(top);
        let vertical = match here.map(Column::top) {
            Some((owner, run)) if owner == tag && row == top => run + 1,
            _ => 1,
        };
        let left = self.beside_column(col, -1);
        let right = self.beside_column(col, 1);
        let run = |column: Option<&Column<L>>, row: Option<u64>, dir: usize| -> u64 {
            column
                .zip(row)
                .and_then(|(c, r)| c.cell(r))
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

    /// Places `player`'s counter on top of `col` and updates the ends of the
    /// runs it joins.
    pub(super) fn place(&mut self, col: &Nat, player: Player) -> Result<Placement, Exhausted> {
        let tag = L::put(tag(player));
        let (row, vertical, sides) = self.beside(col, tag);
        let (totals, direction, length, back) = join(vertical, sides);
        let cell = [L::put(totals[0]), L::put(totals[1]), L::put(totals[2]), tag];
        self.columns.entry(col)?.push(cell, vertical)?;
        for (dir, dr) in SIDEWAYS {
            let (b, a) = sides[dir];
            // Only the ends of a run are ever read again: update those.
            if b > 0 {
                let k = -(b as i64);
                self.set_run(col, k, row, k * dr, dir, totals[dir]);
            }
            if a > 0 {
                let k = a as i64;
                self.set_run(col, k, row, k * dr, dir, totals[dir]);
            }
        }
        Ok(Placement {
            row,
            direction,
            length,
            back,
        })
    }

    pub(super) fn longest_if_played(&self, col: &Nat, row: Option<u64>, player: Player) -> u64 {
        let (_, vertical, sides) = self.beside_at(col, row, L::put(tag(player)));
        sides
            .iter()
            .map(|(b, a)| b + 1 + a)
            .fold(vertical, u64::max)
    }

    pub(super) fn set_run(&mut self, col: &Nat, dc: i64, row: u64, dr: i64, dir: usize, len: u64) {
        let (Some(col), Some(row)) = (shift(col, dc), row.checked_add_signed(dr)) else {
            return;
        };
        if let Some(cell) = self.columns.get_mut(&col).and_then(|c| c.cell_mut(row)) {
            cell[dir] = L::put(len);
        }
    }

    pub(super) fn owner(&self, col: &Nat, row: u64) -> Option<Player> {
        Player::from_tag(self.column(col)?.cell(row)?[3].get())
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.columns.heap_bytes(Column::heap_bytes)
    }

    /// The same counters in an array, or `None` when memory is short.
    pub(super) fn to_dense(&self, width: usize, rows: u32) -> Option<Dense<L>> {
        let mut dense = Dense::try_new(width, rows)?;
        let tallest = self.columns.small_columns().map(|(_, c)| c.height()).max();
        if let Some(tallest) = tallest.filter(|&t| t > 0) {
            dense.commit(tallest as usize - 1);
        }
        for (c, column) in self.columns.small_columns() {
            let height = column.height();
            if height == 0 {
                continue;
            }
            let col = usize::try_from(c - 1).ok()?;
            dense.heights[col] = u32::try_from(height).ok()?;
            dense.top_runs[col] = u32::try_from(column.top().1).ok()?;
            for row in 0..height {
                let i = dense.index(col, row as usize);
                dense.cells[i] = *column.cell(row)?;
            }
        }
        Some(dense)
    }
}

/// `col + by`, or `None` left of column 1.
pub(super) fn shift(col: &Nat, by: i64) -> Option<Nat> {
    if by >= 0 {
        Some(col.add_u64(by as u64))
    } else {
        col.checked_sub_u64(by.unsigned_abs())
            .filter(|c| !c.is_zero())
    }
}

/// Heights only: once no more lines are looked for, a counter's owner and
/// runs no longer matter, only whether its column is full.
pub(super) type Heights = Columns<u64>;

impl Heights {
    pub(super) fn height(&self, col: &Nat) -> u64 {
        self.get(col).copied().unwrap_or(0)
    }

    /// One more counter in `col` (inside the frame, not full): its row.
    pub(super) fn stack(&mut self, col: &Nat) -> Result<u64, Exhausted> {
        let slot = self.entry(col)?;
        *slot += 1;
        Ok(*slot - 1)
    }
}
