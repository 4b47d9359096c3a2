//! How a book keeps its scores: by the positions' symmetric keys, in maps
//! with a quick hash of their own or, for a packed book of a small frame,
//! sorted.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use crate::solver::Shape;

/// A book's scores by the positions' symmetric keys. A key below 2^64
/// (every key of a frame of at most 64 bits, 7 x 6 among them) is kept in
/// a map of 16-byte slots, any other in one of 32: on 7 x 6, half the
/// memory of one map for every key. A packed book of a frame of at most 56
/// bits (7 x 6 among them) is read into `sorted` instead: each entry its
/// key shifted left a byte and its score in that byte, in order, 8 bytes an
/// entry and found by a binary search. Filling it is a sort, where inserts
/// into a map of a million keys each wait on memory.
#[derive(Clone, Debug, Default)]
pub(super) struct Scores {
    pub(super) narrow: HashMap<u64, i32, KeyHash>,
    pub(super) wide: HashMap<u128, i32, KeyHash>,
    pub(super) sorted: Vec<u64>,
}

/// Bits of a key [`Scores::sorted`] takes.
pub(super) const SORTED_BITS: usize = 56;

impl Scores {
    pub(super) fn insert(&mut self, key: u128, score: i32) {
        if let Some(i) = self.sorted_index(key) {
            if let Ok(byte) = i8::try_from(score) {
                self.sorted[i] = (key as u64) << 8 | u64::from(byte as u8);
                return;
            }
            self.sorted.remove(i);
        }
        match u64::try_from(key) {
            Ok(key) => self.narrow.insert(key, score),
            Err(_) => self.wide.insert(key, score),
        };
    }

    /// Where `key` is in `sorted`.
    fn sorted_index(&self, key: u128) -> Option<usize> {
        if self.sorted.is_empty() || key >> SORTED_BITS != 0 {
            return None;
        }
        let key = key as u64;
        let i = self.sorted.partition_point(|&e| e >> 8 < key);
        (self.sorted.get(i).is_some_and(|&e| e >> 8 == key)).then_some(i)
    }

    pub(super) fn get(&self, key: u128) -> Option<i32> {
        if let Some(i) = self.sorted_index(key) {
            return Some(i32::from(self.sorted[i] as u8 as i8));
        }
        match u64::try_from(key) {
            Ok(key) => self.narrow.get(&key),
            Err(_) => self.wide.get(&key),
        }
        .copied()
    }

    pub(super) fn contains(&self, key: u128) -> bool {
        self.get(key).is_some()
    }

    pub(super) fn len(&self) -> usize {
        self.narrow.len() + self.wide.len() + self.sorted.len()
    }

    /// Every entry, in no particular order.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u128, i32)> + '_ {
        let sorted = self
            .sorted
            .iter()
            .map(|&e| (u128::from(e >> 8), i32::from(e as u8 as i8)));
        let narrow = self.narrow.iter().map(|(&k, &s)| (u128::from(k), s));
        let wide = self.wide.iter().map(|(&k, &s)| (k, s));
        sorted.chain(narrow).chain(wide)
    }

    /// Room for `more` keys of frame `shape`.
    pub(super) fn reserve(&mut self, shape: Shape, more: usize) {
        if shape.fits_64() {
            self.narrow.reserve(more);
        } else {
            self.wide.reserve(more);
        }
    }
}

/// Two books' scores are equal when they hold the same keys with the same
/// scores, however each keeps them.
impl PartialEq for Scores {
    fn eq(&self, other: &Scores) -> bool {
        self.len() == other.len() && self.entries().all(|(k, s)| other.get(k) == Some(s))
    }
}

impl Eq for Scores {}

/// Hashes the solver's position keys: a multiply and shifts (SplitMix64's
/// finaliser), several times quicker than the standard library's SipHash,
/// whose work was a third of reading the shipped book. The keys are the
/// positions' own, which no input chooses beyond the positions it names.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHash;

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

/// [`KeyHash`]'s hasher.
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = mix(self.0 ^ key);
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = mix(self.0 ^ key as u64 ^ ((key >> 64) as u64).rotate_left(32));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// SplitMix64's finaliser: every bit of `z` moves every bit of the result.
pub(super) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
