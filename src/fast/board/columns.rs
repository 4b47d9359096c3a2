//! A value per column, whatever the frame's width: an array for narrow
//! frames, a keyed table for wide ones, a keyed map past 2^64; and the
//! store that keeps heights alone.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;

use super::OutOfMemory;
use super::column_map::{ColumnMap, Probes};
use crate::memory::{or_abort, try_vec};
use crate::nat::Nat;

/// A hash map keyed by numbers past 2^64 (frames wider than a machine word):
/// r[resource.time], SipHash-1-3 with a random key per process.
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
/// ones by a keyed table.
pub(super) const ARRAY_COLUMNS: u64 = 1 << 16;

/// A value per column, empty by default: an array for narrow frames, a
/// keyed table for wide ones (and a keyed map for columns past 2^64).
#[derive(Clone, Debug)]
pub(super) struct Columns<V> {
    array: Vec<V>,
    table: ColumnMap<V>,
    big: KeyedMap<Nat, V>,
}

impl<V: Default + Clone> Columns<V> {
    /// Columns of an `x`-wide frame, in an array when `x` is at most
    /// `array_limit`.
    pub(super) fn new(x: &Nat, array_limit: u64) -> Columns<V> {
        // At most ARRAY_COLUMNS slots where the callers ask for new ones: a
        // bounded allocation.
        or_abort(Self::try_new(x, array_limit), 0)
    }

    /// [`Columns::new`], or [`OutOfMemory`] when the array's memory cannot be
    /// had.
    pub(super) fn try_new(x: &Nat, array_limit: u64) -> Result<Columns<V>, OutOfMemory> {
        let width = x.to_u64().filter(|&w| w <= array_limit).unwrap_or(0);
        let width = usize::try_from(width).map_err(|_| OutOfMemory)?;
        let mut array = try_vec(width)?;
        array.resize(width, V::default());
        Ok(Columns {
            array,
            table: ColumnMap::new(),
            big: KeyedMap::default(),
        })
    }

    /// The value of column `c` (1-based, a machine word).
    #[inline]
    pub(super) fn get_small(&self, c: u64) -> Option<&V> {
        if self.array.is_empty() {
            self.table.get(c)
        } else {
            self.array.get(c.wrapping_sub(1) as usize)
        }
    }

    /// [`Columns::get_small`], to change.
    #[inline]
    pub(super) fn get_small_mut(&mut self, c: u64) -> Option<&mut V> {
        if self.array.is_empty() {
            self.table.get_mut(c)
        } else {
            self.array.get_mut(c.wrapping_sub(1) as usize)
        }
    }

    /// [`Columns::entry`] for column `c` (1-based, a machine word).
    #[inline]
    pub(super) fn entry_small(&mut self, c: u64) -> Result<&mut V, OutOfMemory> {
        if self.array.is_empty() {
            self.table.entry(c)
        } else {
            self.array
                .get_mut(c.wrapping_sub(1) as usize)
                .ok_or(OutOfMemory)
        }
    }

    #[inline]
    pub(super) fn get(&self, col: &Nat) -> Option<&V> {
        match small(col) {
            Some(c) => self.get_small(c),
            None => self.big.get(col),
        }
    }

    /// The value for `col`, made (empty) if need be.
    #[inline]
    pub(super) fn entry(&mut self, col: &Nat) -> Result<&mut V, OutOfMemory> {
        match small(col) {
            Some(c) => self.entry_small(c),
            None => {
                self.big.try_reserve(1).map_err(|_| OutOfMemory)?;
                Ok(self.big.entry(col.clone()).or_default())
            }
        }
    }

    #[inline]
    pub(super) fn get_mut(&mut self, col: &Nat) -> Option<&mut V> {
        match small(col) {
            Some(c) => self.get_small_mut(c),
            None => self.big.get_mut(col),
        }
    }

    /// Asks for the memory of column `c` (1-based) and its neighbours: a
    /// hint.
    #[inline]
    pub(super) fn prefetch_around(&self, c: u64) {
        if self.array.is_empty() {
            self.table.prefetch_around(c);
        }
    }

    /// Every column that fits a machine word, with its 1-based number.
    pub(super) fn small_columns(&self) -> impl Iterator<Item = (u64, &V)> {
        let array = self
            .array
            .iter()
            .enumerate()
            .map(|(i, v)| (i as u64 + 1, v));
        array.chain(self.table.iter())
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
        out.table = self.table.try_map(&f).ok()?;
        out.big.try_reserve(self.big.len()).ok()?;
        out.big
            .extend(self.big.iter().map(|(c, v)| (c.clone(), f(v))));
        Some(out)
    }

    /// The keyed table's lookups and probe steps so far.
    pub(super) fn probes(&self) -> Probes {
        self.table.probes()
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.array.capacity() * size_of::<V>()
            + self.table.heap_bytes()
            + map_bytes(self.big.capacity(), size_of::<Nat>() + size_of::<V>())
    }
}

/// Heights only: once no more runs are looked for, a counter's owner and
/// runs no longer matter, only whether its column is full.
pub(super) type Heights = Columns<u64>;

impl Heights {
    pub(super) fn height(&self, col: &Nat) -> u64 {
        self.get(col).copied().unwrap_or(0)
    }

    /// One more counter in `col` (inside the frame, not full): its row.
    pub(super) fn step(&mut self, col: &Nat) -> Result<u64, OutOfMemory> {
        let slot = self.entry(col)?;
        *slot += 1;
        Ok(*slot - 1)
    }
}

/// A column number in the sparse stores: most fit in a machine word; the
/// rest (frames wider than 2^64) keep their exact value.
#[inline]
pub(super) fn small(column: &Nat) -> Option<u64> {
    column.to_u64()
}
