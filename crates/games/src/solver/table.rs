//! The transposition table: bounds on scores, shared by every thread of a
//! search, sized in megabytes, cleared in O(1).
//!
//! An entry is found by the top `bits` bits of the mixed key (a bijection of
//! the key, see [`Word::mix`]) and keeps the mixed key's other bits, so a
//! hit is exact: two positions never share an entry's identity. On a 64-bit
//! frame an entry is one word:
//!
//! ```text
//! generation:8 | lower:1 | score+128:8 | rest of the mixed key:47
//! ```
//!
//! (a part of the table has at least 2^17 entries, so the rest of a 64-bit
//! key takes at most 47 bits). On a 128-bit frame an entry is two words: the first is
//! the low 64 bits of the mixed key XOR the second, which is laid out as
//! above with the key's bits 64 and up. Words are atomics written and read
//! with relaxed ordering; a single word cannot tear, and a two-word entry
//! torn by two threads writing at once fails its XOR check (but for a
//! chance of one in 2^64 per torn read).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::word::Word;

/// The fewest entries a part of the table has (2^17: 1 MB of 64-bit
/// entries).
pub(crate) const MIN_BITS: u32 = 17;

const REST_BITS: u32 = 47;
const REST_MASK: u64 = (1 << REST_BITS) - 1;

/// A bound the table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is at least this.
    Lower(i32),
    /// The score is at most this.
    Upper(i32),
}

/// Which part of the table holds a position's entry, by how far the
/// position is from the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TablePart {
    /// At most about half the frame empty (three sevenths with other
    /// threads): most of the nodes, whose entries are worth least; a part
    /// small enough for a core's own cache.
    Near,
    /// Between the far and the near ones (on 7 x 6, from 14 moves played
    /// to 19, or to 23 with other threads): a few megabytes, so that a
    /// search's far nodes do not all reach into the whole table.
    Mid,
    /// The rest: the positions nearest the start, whose entries are worth
    /// most; the bulk of the table.
    Far,
}

/// The table's words: the near part, the mid part, then the far part.
pub(crate) struct Table {
    words: Box<[AtomicU64]>,
    /// Words of the near part (at the start of `words`).
    near: usize,
    /// The generation of live entries, 1..=255; 0 marks an empty word.
    generation: u8,
}

/// The near part's entries: 2^17, the fewest a part may have: 1 MB on
/// 64-bit frames, 2 MB on 128-bit ones. Small enough to stay mostly in a
/// core's own cache: with 4 MB (an eighth of the table, as it was) it lived
/// in the cache the cores share, and on a machine shared with other work
/// the search ran at about half the speed (Begin-Medium and Begin-Hard, one
/// thread: 1.9 s and 28 s with 4 MB, 1.2 s and 15 s with 1 MB, for 8 % and
/// 14 % more nodes).
pub(crate) const NEAR_ENTRIES: usize = 1 << MIN_BITS;

/// Words of the mid part: 4 MB (on Begin-Easy and Begin-Medium, where most
/// far nodes are mid ones, about a tenth less time for the same nodes).
pub(crate) const MID_WORDS: usize = 1 << 19;

/// Words of an entry of word `W`.
fn slots<W: Word>() -> usize {
    (W::BITS / 64) as usize
}

impl Table {
    /// A table of about `megabytes` (rounded down to a power of two of
    /// words, at least 2^18), a near part ([`NEAR_ENTRIES`]) and a mid part
    /// ([`MID_WORDS`]).
    #[cfg(test)]
    pub fn new(megabytes: usize) -> Table {
        Self::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Table::new`], or why its memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<Table, String> {
        let words = megabytes.max(1).saturating_mul(1 << 20) / 8;
        let far = 1usize << words.ilog2().max(MIN_BITS + 1);
        let near = NEAR_ENTRIES * slots::<u128>();
        let all = far + near + MID_WORDS;
        let mut table = Vec::new();
        table.try_reserve_exact(all).map_err(|_| {
            format!(
                "cannot have {} MB of memory for the transposition table (ask for less with --table-mb)",
                (all * 8) >> 20
            )
        })?;
        table.resize_with(all, || AtomicU64::new(0));
        Ok(Table {
            words: table.into_boxed_slice(),
            near,
            generation: 1,
        })
    }

    /// Bytes the table occupies.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Forgets every entry (in O(1) but once in 255 calls).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            for w in self.words.iter_mut() {
                *w.get_mut() = 0;
            }
            self.generation = 1;
        }
    }

    /// A view for keys of word `W`.
    pub fn view<W: Word>(&self) -> View<'_, W> {
        self.view_with_near(&self.words[..NEAR_ENTRIES * slots::<W>()])
    }

    /// Empty words for a thread's own near part of word `W`.
    pub fn private_near<W: Word>(&self) -> Box<[AtomicU64]> {
        (0..NEAR_ENTRIES * slots::<W>())
            .map(|_| AtomicU64::new(0))
            .collect()
    }

    /// A view for keys of word `W` whose near part is `near` (the table's,
    /// or a thread's own from [`Table::private_near`]).
    pub fn view_with_near<'a, W: Word>(&'a self, near: &'a [AtomicU64]) -> View<'a, W> {
        let slots = slots::<W>();
        let (mid, far) = self.words[self.near..].split_at(MID_WORDS);
        View {
            near: Region::new(near, slots),
            mid: Region::new(mid, slots),
            far: Region::new(far, slots),
            slots,
            generation: u64::from(self.generation),
            _word: std::marker::PhantomData,
        }
    }
}

/// One part of the table.
struct Region<'t> {
    words: &'t [AtomicU64],
    /// log2 of its entries.
    bits: u32,
}

impl<'t> Region<'t> {
    fn new(words: &'t [AtomicU64], slots: usize) -> Region<'t> {
        Region {
            words,
            bits: (words.len() / slots).ilog2(),
        }
    }
}

/// The table seen by a search of word `W`.
pub(crate) struct View<'t, W> {
    near: Region<'t>,
    mid: Region<'t>,
    far: Region<'t>,
    slots: usize,
    generation: u64,
    _word: std::marker::PhantomData<W>,
}

impl<W: Word> View<'_, W> {
    /// The region, the first word of the entry, the key's low 64 bits for
    /// two-word entries, and the rest of the key kept in the entry's last word.
    #[inline(always)]
    fn locate(&self, key: W, part: TablePart) -> (&[AtomicU64], usize, u64, u64) {
        let region = match part {
            TablePart::Near => &self.near,
            TablePart::Mid => &self.mid,
            TablePart::Far => &self.far,
        };
        let h = key.mix();
        let index = h.slice64(W::BITS - region.bits) as usize;
        let rest = h.slice64(W::BITS - 64) & (REST_MASK >> (region.bits - MIN_BITS));
        let low = if self.slots == 2 { h.slice64(0) } else { 0 };
        (region.words, index * self.slots, low, rest)
    }

    /// The bound stored for `key` in `part`, if any.
    #[inline(always)]
    pub fn get(&self, key: W, part: TablePart) -> Option<Bound> {
        let (words, at, low, rest) = self.locate(key, part);
        let last = words[at + self.slots - 1].load(Relaxed);
        if last >> 56 != self.generation || last & REST_MASK != rest {
            return None;
        }
        if self.slots == 2 && words[at].load(Relaxed) ^ last != low {
            return None;
        }
        let score = ((last >> REST_BITS) & 0xFF) as i32 - 128;
        Some(if last >> 55 & 1 == 1 {
            Bound::Lower(score)
        } else {
            Bound::Upper(score)
        })
    }

    /// Stores a bound for `key` (scores within -128..=127), replacing what
    /// the entry held.
    #[inline(always)]
    pub fn put(&self, key: W, part: TablePart, bound: Bound) {
        let (words, at, low, rest) = self.locate(key, part);
        let (lower, score) = match bound {
            Bound::Lower(s) => (1u64, s),
            Bound::Upper(s) => (0u64, s),
        };
        debug_assert!((-128..=127).contains(&score));
        let last =
            self.generation << 56 | lower << 55 | ((score + 128) as u64 & 0xFF) << REST_BITS | rest;
        if self.slots == 2 {
            words[at].store(low ^ last, Relaxed);
        }
        words[at + self.slots - 1].store(last, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_with_a_floor_and_a_near_part() {
        // 64 MB far, 4 MB mid, 2 MB near (1 MB of it used on 64-bit frames).
        assert_eq!(Table::new(64).bytes(), (64 + 4 + 2) << 20);
        assert_eq!(Table::new(100).bytes(), (64 + 4 + 2) << 20);
        // The smallest: 2 MB far.
        assert_eq!(Table::new(0).bytes(), (2 + 4 + 2) << 20);
        assert_eq!(Table::new(1).bytes(), (2 + 4 + 2) << 20);
        assert_eq!(Table::new(16).bytes(), (16 + 4 + 2) << 20);
        let table = Table::new(1);
        assert_eq!(table.view::<u64>().mid.bits, 19);
        assert_eq!(table.view::<u128>().mid.bits, 18);
        assert_eq!(table.view::<u64>().far.bits, MIN_BITS + 1);
        assert_eq!(table.view::<u64>().near.bits, MIN_BITS);
        assert_eq!(table.view::<u128>().far.bits, MIN_BITS);
        assert_eq!(table.view::<u128>().near.bits, MIN_BITS);
        assert_eq!(table.private_near::<u64>().len(), 1 << 17);
        assert_eq!(table.private_near::<u128>().len(), 1 << 18);
    }

    fn exact<W: Word>(keys: &[W]) {
        let mut table = Table::new(1);
        let view = table.view::<W>();
        let bound = |i: usize| {
            if i.is_multiple_of(2) {
                Bound::Lower(i as i32 - 60)
            } else {
                Bound::Upper(60 - i as i32)
            }
        };
        for part in [TablePart::Far, TablePart::Mid, TablePart::Near] {
            for (i, &k) in keys.iter().enumerate() {
                view.put(k, part, bound(i));
                assert_eq!(view.get(k, part), Some(bound(i)));
            }
            // After all are stored, a key answers with its own bound or not
            // at all (when a later key took its entry), never with another's.
            for (i, &k) in keys.iter().enumerate() {
                assert!(view.get(k, part).is_none_or(|b| b == bound(i)), "{k:?}");
            }
        }
        table.clear();
        let view = table.view::<W>();
        assert!(keys.iter().all(|&k| {
            [TablePart::Far, TablePart::Mid, TablePart::Near]
                .iter()
                .all(|&p| view.get(k, p).is_none())
        }));
    }

    #[test]
    fn hits_are_exact_and_clearing_forgets() {
        // Keys that differ only above the index bits, only below, and at the
        // ends of the word.
        let k64: Vec<u64> = (0..40)
            .map(|i| (i << 50) | (i * 7))
            .chain([u64::MAX, 1])
            .collect();
        exact(&k64);
        let k128: Vec<u128> = (0..40u128)
            .map(|i| (i << 120) | (i << 63) | i)
            .chain([u128::MAX, 1, 1 << 127])
            .collect();
        exact(&k128);
    }

    #[test]
    fn colliding_keys_replace_each_other_and_parts_are_apart() {
        let table = Table::new(1);
        let view = table.view::<u64>();
        // Two keys whose mixes share the top bits: found by search.
        let first = 12345u64;
        let index = |k: u64| k.mix() >> (64 - view.far.bits);
        let second = (first + 1..).find(|&k| index(k) == index(first)).unwrap();
        view.put(first, TablePart::Far, Bound::Upper(3));
        view.put(second, TablePart::Far, Bound::Lower(-3));
        assert_eq!(view.get(first, TablePart::Far), None);
        assert_eq!(view.get(second, TablePart::Far), Some(Bound::Lower(-3)));
        assert_eq!(view.get(second, TablePart::Mid), None);
        assert_eq!(view.get(second, TablePart::Near), None);
        view.put(second, TablePart::Mid, Bound::Upper(5));
        assert_eq!(view.get(second, TablePart::Far), Some(Bound::Lower(-3)));
        assert_eq!(view.get(second, TablePart::Mid), Some(Bound::Upper(5)));
        assert_eq!(view.get(second, TablePart::Near), None);
    }

    #[test]
    fn generations_wrap_cleanly() {
        let mut table = Table::new(1);
        for round in 0..600u64 {
            let view = table.view::<u64>();
            assert_eq!(view.get(round, TablePart::Far), None, "round {round}");
            view.put(round, TablePart::Far, Bound::Upper(1));
            view.put(round + 1, TablePart::Far, Bound::Upper(2));
            assert_eq!(view.get(round, TablePart::Far), Some(Bound::Upper(1)));
            table.clear();
        }
    }
}
