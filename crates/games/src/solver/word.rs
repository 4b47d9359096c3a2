//! The bitboard word: `u64` for frames with `width * (height + 1) <= 64`,
//! `u128` up to 128. The search is generic over it, so a 64-bit frame pays
//! nothing for the wider type.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Shl, Shr, Sub};

/// An unsigned machine word used as a set of cells.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Debug
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Bits in the word.
    const BITS: u32;
    /// The empty set.
    const ZERO: Self;
    /// The cell 0.
    const ONE: Self;
    /// Cells in the set.
    fn ones(self) -> u32;
    /// True for the empty set.
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    /// True when the set has more than one cell.
    fn several(self) -> bool {
        self & (self - Self::ONE) != Self::ZERO
    }
    /// A bijective mix of the word (multiplication by an odd constant), whose
    /// top bits index the table and whose other bits are stored to tell
    /// positions apart exactly.
    fn mix(self) -> Self;
    /// Bits `from..from + 64` of the word (zero past its end).
    fn slice64(self, from: u32) -> u64;
    /// The low bits of a 128-bit set (the caller knows they fit).
    fn from_u128(x: u128) -> Self;
    /// The set as a 128-bit one.
    fn to_u128(self) -> u128;

    /// Shift left, zero when the shift is the word's width or more.
    fn shl_or_zero(self, s: u32) -> Self {
        if s >= Self::BITS {
            Self::ZERO
        } else {
            self << s
        }
    }
    /// Shift right, zero when the shift is the word's width or more.
    fn shr_or_zero(self, s: u32) -> Self {
        if s >= Self::BITS {
            Self::ZERO
        } else {
            self >> s
        }
    }
}

/// The two words differ only in width and in the odd constant of the mix.
macro_rules! word {
    ($t:ty, $mix:expr) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn mix(self) -> Self {
                self.wrapping_mul($mix)
            }
            #[inline(always)]
            fn slice64(self, from: u32) -> u64 {
                self.shr_or_zero(from) as u64
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

word!(u64, 0x9E37_79B9_7F4A_7C15);
word!(u128, 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);

#[cfg(test)]
mod tests {
    use super::*;

    fn laws<W: Word>(samples: &[W]) {
        for &a in samples {
            assert_eq!(a.shl_or_zero(W::BITS), W::ZERO);
            assert_eq!(a.shr_or_zero(W::BITS + 3), W::ZERO);
            if !a.is_zero() {
                assert_eq!(a.several(), a.ones() > 1);
                let bits = (0..W::BITS).filter(|&i| !((a >> i) & W::ONE).is_zero());
                assert_eq!(a.ones() as usize, bits.count());
            }
            for &b in samples {
                // The mix is a bijection: different words never collide.
                assert_eq!(a.mix() == b.mix(), a == b);
            }
        }
    }

    #[test]
    fn both_words_keep_the_laws() {
        laws::<u64>(&[0, 1, 2, 3, 1 << 63, u64::MAX, 0x0123_4567_89AB_CDEF]);
        laws::<u128>(&[0, 1, 2, 3, 1 << 64, 1 << 127, u128::MAX, (1 << 64) | 1]);
        assert_eq!((u128::MAX).slice64(64), u64::MAX);
        assert_eq!((1u128 << 100).slice64(64), 1 << 36);
        assert_eq!((1u128 << 100).slice64(120), 0);
    }
}
