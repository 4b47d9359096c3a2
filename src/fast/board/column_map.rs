//! The hash table of the sparse stores: columns (machine words, never 0)
//! to values, open addressing with linear probing.
//!
//! r[resource.time]: the hash is keyed and mixes fully. Each table draws
//! four random words from the standard library's per-process random keys,
//! and a column's group number is hashed by two rounds of a folded multiply
//! (the 128-bit product of the value xor one word by another, odd, word,
//! its halves xored). One round alone behaves like multiplicative hashing
//! on consecutive numbers: its top bits clump when the multiplier lies near
//! a fraction with a small denominator, and some keys made consecutive
//! columns probe tens to hundreds of slots a lookup. The second round
//! spreads every input bit over every output bit, so no family of columns
//! (consecutive, strided, descending, bit-reversed) is slower for any key:
//! the tests count probes over many keys and such families. Two multiplies
//! a lookup, against SipHash's dozens of operations: the sparse store looks
//! up three columns a move.
//!
//! r[resource.board]: a slot is the column and its value side by side, one
//! cache line a lookup; the table grows to twice its size at 3/4 full, so it
//! is between 3/8 and 3/4 full (and the old table lives only while the new
//! one is filled). Every allocation is fallible.

use std::hash::{BuildHasher, RandomState};

use super::OutOfMemory;

/// The empty slot's key: no column is 0.
const EMPTY: u64 = 0;

/// Slots of the smallest table that holds anything.
const MIN_SLOTS: usize = 16;

/// Consecutive columns share a group of slots: a column's home is the
/// slot of its number mod 4 in the group its number / 4 hashes to, so the
/// two neighbours a move looks up are mostly in the same group.
const GROUP: usize = 4;

/// Four slots: a group.
#[derive(Clone, Debug)]
struct SlotGroup<V>([(u64, V); GROUP]);

/// A map from nonzero machine words to `V`.
#[derive(Clone, Debug)]
pub(super) struct ColumnMap<V> {
    groups: Vec<SlotGroup<V>>,
    len: usize,
    /// `64 - log2(groups)`: a hash's top bits are its home group.
    shift: u32,
    seeds: [u64; 4],
    /// Lookups, and slots they examined past the first (counted, not timed:
    /// r[resource.time]).
    probes: std::cell::Cell<Probes>,
}

/// The work of a table's lookups: how many, and how many slots they looked
/// at beyond each one's home slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probes {
    /// Lookups made.
    pub lookups: u64,
    /// Slots examined past each lookup's home slot.
    pub extra: u64,
}

impl std::ops::AddAssign for Probes {
    fn add_assign(&mut self, other: Probes) {
        self.lookups += other.lookups;
        self.extra += other.extra;
    }
}

/// The high and low halves of the 128-bit product, xored.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

impl<V: Default + Clone> ColumnMap<V> {
    /// An empty table with fresh random seeds; allocates nothing.
    pub(super) fn new() -> ColumnMap<V> {
        let keys = RandomState::new();
        Self::with_seeds([
            keys.hash_one(1u64),
            keys.hash_one(2u64),
            keys.hash_one(3u64),
            keys.hash_one(4u64),
        ])
    }

    /// An empty table hashing with `seeds` (multipliers made odd).
    fn with_seeds(seeds: [u64; 4]) -> ColumnMap<V> {
        ColumnMap {
            groups: Vec::new(),
            len: 0,
            shift: 64,
            seeds: [seeds[0], seeds[1] | 1, seeds[2], seeds[3] | 1],
            probes: Default::default(),
        }
    }

    /// The lookups made so far and the slots they examined.
    pub(super) fn probes(&self) -> Probes {
        self.probes.get()
    }

    /// Entries in the table.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Slots in the table.
    #[inline]
    fn slots(&self) -> usize {
        self.groups.len() * GROUP
    }

    #[inline]
    fn slot(&self, i: usize) -> &(u64, V) {
        &self.groups[i / GROUP].0[i % GROUP]
    }

    #[inline]
    fn slot_mut(&mut self, i: usize) -> &mut (u64, V) {
        &mut self.groups[i / GROUP].0[i % GROUP]
    }

    /// The home slot of `key`.
    #[inline]
    fn home(&self, key: u64) -> usize {
        // With no slots the shift is 64: checked_shr gives None, and no
        // caller probes an empty table.
        let once = fold((key / GROUP as u64) ^ self.seeds[0], self.seeds[1]);
        let group = fold(once ^ self.seeds[2], self.seeds[3])
            .checked_shr(self.shift)
            .unwrap_or(0) as usize;
        group * GROUP + (key % GROUP as u64) as usize
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.slots() - 1;
        let mut i = self.home(key);
        let mut extra = 0;
        loop {
            let k = self.slot(i).0;
            if k == key || k == EMPTY {
                let mut probes = self.probes.get();
                probes += Probes { lookups: 1, extra };
                self.probes.set(probes);
                return i;
            }
            i = (i + 1) & mask;
            extra += 1;
        }
    }

    /// The value of `key` (none for 0).
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<&V> {
        if self.len == 0 || key == EMPTY {
            return None;
        }
        let slot = self.slot(self.find(key));
        (slot.0 == key).then_some(&slot.1)
    }

    /// The value of `key` (none for 0), to change.
    #[inline]
    pub(super) fn get_mut(&mut self, key: u64) -> Option<&mut V> {
        if self.len == 0 || key == EMPTY {
            return None;
        }
        let i = self.find(key);
        let slot = self.slot_mut(i);
        (slot.0 == key).then_some(&mut slot.1)
    }

    /// The value of `key` (not 0), made (default) if need be; `OutOfMemory`
    /// when the table must grow and the memory cannot be had.
    #[inline]
    pub(super) fn entry(&mut self, key: u64) -> Result<&mut V, OutOfMemory> {
        debug_assert_ne!(key, EMPTY);
        if (self.len + 1) * 4 > self.slots() * 3 {
            self.grow()?;
        }
        let i = self.find(key);
        if self.slot(i).0 == EMPTY {
            self.slot_mut(i).0 = key;
            self.len += 1;
        }
        Ok(&mut self.slot_mut(i).1)
    }

    /// Twice the slots (at least [`MIN_SLOTS`]), every entry moved over.
    fn grow(&mut self) -> Result<(), OutOfMemory> {
        let size = (self.groups.len() * 2).max(MIN_SLOTS / GROUP);
        let mut groups = Vec::new();
        groups.try_reserve_exact(size).map_err(|_| OutOfMemory)?;
        groups.resize(
            size,
            SlotGroup(std::array::from_fn(|_| (EMPTY, V::default()))),
        );
        let old = std::mem::replace(&mut self.groups, groups);
        self.shift = 64 - size.trailing_zeros();
        let mask = self.slots() - 1;
        for (key, value) in old.into_iter().flat_map(|g| g.0) {
            if key != EMPTY {
                // Keys are distinct: the first empty slot from home.
                let mut i = self.home(key);
                while self.slot(i).0 != EMPTY {
                    i = (i + 1) & mask;
                }
                *self.slot_mut(i) = (key, value);
            }
        }
        Ok(())
    }

    /// Asks for the home groups of `key` and its two neighbours: a hint,
    /// changes nothing. Neighbours mostly share the key's group; only at a
    /// group's ends does one need a group of its own.
    #[inline]
    pub(super) fn prefetch_around(&self, key: u64) {
        if self.len == 0 {
            return;
        }
        let ask = |k: u64| crate::fast::prefetch::prefetch(&self.groups, self.home(k) / GROUP);
        ask(key);
        match (key % GROUP as u64) as usize {
            0 => ask(key.wrapping_sub(1)),
            r if r == GROUP - 1 => ask(key.wrapping_add(1)),
            _ => {}
        }
    }

    /// Every entry, in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, &V)> {
        self.groups
            .iter()
            .flat_map(|g| &g.0)
            .filter(|(k, _)| *k != EMPTY)
            .map(|(k, v)| (*k, v))
    }

    /// The same keys with values mapped by `f`; `OutOfMemory` when memory is
    /// short.
    pub(super) fn try_map<W: Default + Clone>(
        &self,
        f: impl Fn(&V) -> W,
    ) -> Result<ColumnMap<W>, OutOfMemory> {
        let mut groups = Vec::new();
        groups
            .try_reserve_exact(self.groups.len())
            .map_err(|_| OutOfMemory)?;
        groups.extend(
            self.groups
                .iter()
                .map(|g| SlotGroup(std::array::from_fn(|i| (g.0[i].0, f(&g.0[i].1))))),
        );
        Ok(ColumnMap {
            groups,
            len: self.len,
            shift: self.shift,
            seeds: self.seeds,
            probes: self.probes.clone(),
        })
    }

    /// Bytes of the slots.
    pub(super) fn heap_bytes(&self) -> usize {
        self.groups.capacity() * size_of::<SlotGroup<V>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connectz_rng::Rng;
    use std::collections::HashMap;

    /// The table is a map: on random keys (few distinct, so entries are
    /// found again, and across growth) it answers as `HashMap` does.
    #[test]
    fn the_table_is_a_map() {
        let mut rng = Rng::new(3);
        for round in 0..200 {
            let mut table = ColumnMap::<u64>::new();
            let mut model = HashMap::new();
            let spread = 1 + rng.below(1 << (round % 20));
            for _ in 0..rng.below(3000) {
                let key = 1 + rng.below(spread) * if round % 2 == 0 { 1 } else { 1 << 32 };
                match rng.below(3) {
                    0 => assert_eq!(table.get(key), model.get(&key)),
                    1 => {
                        if let Some(v) = table.get_mut(key) {
                            *v += 1;
                        }
                        if let Some(v) = model.get_mut(&key) {
                            *v += 1;
                        }
                    }
                    _ => {
                        *table.entry(key).unwrap() += 10;
                        *model.entry(key).or_default() += 10;
                    }
                }
                assert_eq!(table.len(), model.len());
            }
            let mut entries: Vec<(u64, u64)> = table.iter().map(|(k, v)| (k, *v)).collect();
            entries.sort_unstable();
            let mut expected: Vec<(u64, u64)> = model.into_iter().collect();
            expected.sort_unstable();
            assert_eq!(entries, expected);
            // No column is 0: the empty slots' key is never found.
            assert_eq!(table.get(0), None);
            assert_eq!(table.get_mut(0), None);
            // At most 3/4 full, at least 3/8 once past the smallest size.
            let slots = table.slots();
            assert!(table.len() * 4 <= slots * 3);
            assert!(slots <= MIN_SLOTS || table.len() * 8 >= slots * 3);
        }
    }

    /// Structured families of columns: consecutive, strided by 4 and by
    /// powers of two, descending, bit-reversed, a row far out, and two
    /// strides at once.
    fn family(kind: usize, n: u64) -> Vec<u64> {
        (1..=n)
            .map(|k| match kind {
                0 => k,
                1 => 4 * k,
                2 => k << 20,
                3 => k << 40,
                4 => u64::MAX - k,
                5 => k.reverse_bits() | 1,
                6 => 1_000_000_000_000 + k,
                _ => (k << 32) + k,
            })
            .collect()
    }

    /// Inserts every column of `keys`, then looks each up again with its
    /// two neighbours, as moves do; returns the slots examined past home,
    /// per lookup.
    fn extra_per_lookup(table: &mut ColumnMap<u64>, keys: &[u64]) -> f64 {
        for &k in keys {
            *table.entry(k).unwrap() += 1;
        }
        for &k in keys {
            let _ = table.get(k.wrapping_sub(1));
            let _ = table.get(k);
            let _ = table.get(k.wrapping_add(1));
        }
        let p = table.probes();
        p.extra as f64 / p.lookups as f64
    }

    /// r[resource.time]: no key makes any family slow. Counted over 200
    /// random keys and every family, at two loads (a single folded multiply
    /// fails this: some keys gave consecutive columns over 250 slots a lookup).
    #[test]
    fn no_key_makes_a_family_of_columns_probe_long() {
        let mut rng = Rng::new(21);
        let mut worst: f64 = 0.0;
        // Tables just past a growth (3/8 full) and just before one (3/4).
        for n in [12_289, 24_575] {
            for round in 0..100 {
                let seeds = std::array::from_fn(|_| rng.next_u64());
                for kind in 0..8 {
                    let keys = family(kind, n);
                    let mut table = ColumnMap::<u64>::with_seeds(seeds);
                    let extra = extra_per_lookup(&mut table, &keys);
                    worst = worst.max(extra);
                    assert!(
                        extra < 16.0,
                        "{n} keys, round {round}, family {kind}, seeds {seeds:x?}: {extra:.1} extra slots a lookup"
                    );
                }
            }
        }
        // Groups of four neighbours fill together, so consecutive columns
        // probe 4 to 10 slots past home (in a cache line or two), random
        // ones about 3; one folded multiply gave some keys over 250.
        let mut random = ColumnMap::<u64>::with_seeds([1, 2, 3, 4]);
        let keys: Vec<u64> = (0..20_000).map(|_| 1 + rng.below(1 << 62)).collect();
        let base = extra_per_lookup(&mut random, &keys);
        assert!(base < 4.0, "random columns: {base:.1}");
        assert!(worst < 16.0, "worst {worst:.1}");
    }

    /// The hash's avalanche: flipping any one input bit of the group number
    /// flips each output bit about half the time, for random keys.
    #[test]
    fn every_input_bit_reaches_every_output_bit() {
        let mut rng = Rng::new(8);
        let mut flips = [[0u32; 64]; 64];
        let trials = 400;
        for _ in 0..trials {
            let table = ColumnMap::<u64>::with_seeds(std::array::from_fn(|_| rng.next_u64()));
            let hash = |g: u64| {
                let once = fold(g ^ table.seeds[0], table.seeds[1]);
                fold(once ^ table.seeds[2], table.seeds[3])
            };
            let g = rng.next_u64() >> 2;
            let h = hash(g);
            for (bit, row) in flips.iter_mut().enumerate() {
                let d = h ^ hash(g ^ (1 << bit));
                for (out, count) in row.iter_mut().enumerate() {
                    *count += ((d >> out) & 1) as u32;
                }
            }
        }
        // Group numbers are columns / 4: their top two bits are always 0.
        for (bit, row) in flips.iter().enumerate().take(62) {
            for (out, &count) in row.iter().enumerate() {
                let share = f64::from(count) / f64::from(trials);
                assert!(
                    (0.35..=0.65).contains(&share),
                    "input bit {bit} flips output bit {out} {share:.2} of the time"
                );
            }
        }
    }

    /// Two tables of one process draw different seeds: where a column
    /// lands is not a property of the column.
    #[test]
    fn tables_are_keyed() {
        let (a, b) = (ColumnMap::<u64>::new(), ColumnMap::<u64>::new());
        assert_ne!(a.seeds, b.seeds);
        assert_eq!(a.seeds[1] % 2, 1);
        assert_eq!(a.seeds[3] % 2, 1);
    }
}
