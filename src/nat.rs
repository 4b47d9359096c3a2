//! Natural numbers of any length.
//!
//! r[format.number], r[decision.big-numbers]: a number is exact at any
//! number of digits. Values that fit
//! in a `u64` stay in a machine word; larger ones keep their decimal digits.
//! Only the few operations the rules need are provided, so nothing can
//! overflow, wrap or lose precision.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use crate::memory::{OutOfMemory, or_abort, try_vec};

/// A natural number (zero included) of any size.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Nat(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(u64),
    /// ASCII digits without leading zeros, always greater than `u64::MAX`;
    /// shared, so that a frame's X, held by the header, the game and the
    /// board, is held once. A `Vec` so that its memory is asked for
    /// fallibly (r[decision.out-of-memory]) and taken over without a copy.
    Big(Arc<Vec<u8>>),
}

/// The digits of a number: borrowed from a big one, written out for a
/// machine word.
enum Digits<'a> {
    Word([u8; 20], usize),
    Big(&'a [u8]),
}

impl std::ops::Deref for Digits<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Digits::Word(buf, start) => &buf[*start..],
            Digits::Big(d) => d,
        }
    }
}

impl Nat {
    /// Zero.
    pub const ZERO: Nat = Nat(Repr::Small(0));

    /// Reads a run of ASCII digits (leading zeros allowed). Returns `None` if
    /// `digits` is empty or holds anything but `0`..=`9`.
    pub fn from_digits(digits: &[u8]) -> Option<Nat> {
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(Self::from_ascii_digits(digits))
    }

    /// Like [`Nat::from_digits`] for input already known to be 1 or more
    /// ASCII digits (the grammar checked them).
    pub(crate) fn from_ascii_digits(digits: &[u8]) -> Nat {
        or_abort(Self::try_from_ascii_digits(digits), digits.len())
    }

    /// [`Nat::from_ascii_digits`], or [`OutOfMemory`] when the memory for a
    /// big number cannot be had.
    pub(crate) fn try_from_ascii_digits(digits: &[u8]) -> Result<Nat, OutOfMemory> {
        if digits.len() <= 19 {
            let value = digits
                .iter()
                .fold(0u64, |acc, &d| acc * 10 + u64::from(d.wrapping_sub(b'0')));
            return Ok(Nat(Repr::Small(value)));
        }
        let start = digits
            .iter()
            .position(|&d| d != b'0')
            .unwrap_or(digits.len());
        Self::from_significant(&digits[start..])
    }

    /// The value of 20 or fewer ASCII digits, if it fits a machine word.
    fn word(digits: &[u8]) -> Option<u64> {
        if digits.len() > 20 {
            return None;
        }
        digits.iter().try_fold(0u64, |value, &d| {
            value.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        })
    }

    /// `digits` are ASCII digits with no leading zero (possibly empty = 0).
    fn from_significant(digits: &[u8]) -> Result<Nat, OutOfMemory> {
        if let Some(value) = Self::word(digits) {
            return Ok(Nat(Repr::Small(value)));
        }
        let mut big = try_vec(digits.len())?;
        big.extend_from_slice(digits);
        Ok(Nat(Repr::Big(Arc::new(big))))
    }

    /// Takes over `digits` (ASCII, possibly with leading zeros): no copy.
    fn from_vec(mut digits: Vec<u8>) -> Nat {
        let start = digits
            .iter()
            .position(|&c| c != b'0')
            .unwrap_or(digits.len());
        digits.drain(..start);
        match Self::word(&digits) {
            Some(value) => Nat(Repr::Small(value)),
            None => Nat(Repr::Big(Arc::new(digits))),
        }
    }

    /// The value, if it fits in a `u64`.
    #[inline]
    pub fn to_u64(&self) -> Option<u64> {
        match self.0 {
            Repr::Small(v) => Some(v),
            Repr::Big(_) => None,
        }
    }

    /// Decimal digits of the value (1 for zero).
    pub fn digit_count(&self) -> usize {
        match &self.0 {
            Repr::Small(v) => v.checked_ilog10().map_or(1, |d| d as usize + 1),
            Repr::Big(d) => d.len(),
        }
    }

    /// The number made of the first `n` digits of the value (all of them
    /// when it has at most `n`).
    pub fn leading(&self, n: usize) -> Nat {
        match &self.0 {
            Repr::Big(d) if d.len() > n => or_abort(Self::from_significant(&d[..n]), n),
            Repr::Small(v) if self.digit_count() > n => {
                Nat::from(v / 10u64.pow((self.digit_count() - n) as u32))
            }
            _ => self.clone(),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.0 == Repr::Small(0)
    }

    fn digits(&self) -> Digits<'_> {
        match &self.0 {
            &Repr::Small(mut v) => {
                let mut buf = [b'0'; 20];
                let mut start = 20;
                loop {
                    start -= 1;
                    buf[start] = b'0' + (v % 10) as u8;
                    v /= 10;
                    if v == 0 {
                        break Digits::Word(buf, start);
                    }
                }
            }
            Repr::Big(d) => Digits::Big(d),
        }
    }

    /// `self + other`, exactly.
    pub fn add(&self, other: &Nat) -> Nat {
        or_abort(
            self.try_add(other),
            self.digit_count().max(other.digit_count()) + 1,
        )
    }

    /// [`Nat::add`], or [`OutOfMemory`] when the memory cannot be had.
    pub(crate) fn try_add(&self, other: &Nat) -> Result<Nat, OutOfMemory> {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0)
            && let Some(sum) = a.checked_add(*b)
        {
            return Ok(Nat(Repr::Small(sum)));
        }
        let (a, b) = (self.digits(), other.digits());
        let mut out = try_vec(a.len().max(b.len()) + 1)?;
        let mut carry = 0u8;
        let (mut i, mut j) = (a.len(), b.len());
        while i > 0 || j > 0 || carry > 0 {
            let mut d = carry;
            if i > 0 {
                i -= 1;
                d += a[i] - b'0';
            }
            if j > 0 {
                j -= 1;
                d += b[j] - b'0';
            }
            out.push(b'0' + d % 10);
            carry = d / 10;
        }
        out.reverse();
        Ok(Self::from_vec(out))
    }

    /// `self + k`.
    pub fn add_u64(&self, k: u64) -> Nat {
        self.add(&Nat::from(k))
    }

    /// `self - k`, or `None` if that would be negative.
    pub fn checked_sub_u64(&self, k: u64) -> Option<Nat> {
        self.checked_sub(&Nat::from(k))
    }

    /// `self - other`, or `None` if that would be negative.
    pub fn checked_sub(&self, other: &Nat) -> Option<Nat> {
        or_abort(self.try_checked_sub(other), self.digit_count())
    }

    /// [`Nat::checked_sub`], or [`OutOfMemory`] when the memory cannot be had.
    pub(crate) fn try_checked_sub(&self, other: &Nat) -> Result<Option<Nat>, OutOfMemory> {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0) {
            return Ok(a.checked_sub(*b).map(Nat::from));
        }
        if self < other {
            return Ok(None);
        }
        let digits = self.digits();
        let mut out = try_vec(digits.len())?;
        out.extend_from_slice(&digits);
        let sub = other.digits();
        let mut borrow = 0u8;
        let mut j = sub.len();
        for slot in out.iter_mut().rev() {
            let s = if j > 0 {
                j -= 1;
                sub[j] - b'0'
            } else {
                0
            };
            let need = s + borrow;
            let have = *slot - b'0';
            if have >= need {
                *slot = b'0' + have - need;
                borrow = 0;
            } else {
                *slot = b'0' + have + 10 - need;
                borrow = 1;
            }
        }
        // self >= other, so no borrow is left.
        Ok(Some(Self::from_vec(out)))
    }

    /// How `self + 1` compares with `2 * z`, without making either number:
    /// r[rule.winnable] asks it of a header's numbers, which may be as long
    /// as the memory holds.
    pub(crate) fn succ_cmp_double(&self, z: &Nat) -> Ordering {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &z.0) {
            return (u128::from(*a) + 1).cmp(&(2 * u128::from(*b)));
        }
        let (a, b) = (self.digits(), z.digits());
        // Digits of 2z from the most significant: digit i is 2 b[i] plus the
        // carry from the digit below (1 exactly when it is 5 or more), mod 10;
        // one more leading 1 when b's first digit is 5 or more.
        let carry = |i: usize| u8::from(b.get(i + 1).is_some_and(|&d| d >= b'5'));
        let twice_len = b.len() + usize::from(b[0] >= b'5');
        let twice = |k: usize| -> u8 {
            // k-th digit of 2z from the most significant, 0-based.
            if twice_len > b.len() {
                if k == 0 {
                    return 1;
                }
                let i = k - 1;
                (2 * (b[i] - b'0') + carry(i)) % 10
            } else {
                (2 * (b[k] - b'0') + carry(k)) % 10
            }
        };
        // Digits of a + 1 from the most significant: digit i is a[i] + 1
        // (mod 10) when every digit below it is 9; a leading 1 when all are.
        let last_below_nine = a.iter().rposition(|&d| d != b'9');
        let succ_len = a.len() + usize::from(last_below_nine.is_none());
        let succ = |k: usize| -> u8 {
            let Some(last) = last_below_nine else {
                return u8::from(k == 0);
            };
            let d = a[k] - b'0';
            match k.cmp(&last) {
                Ordering::Less => d,
                Ordering::Equal => d + 1,
                Ordering::Greater => 0,
            }
        };
        succ_len.cmp(&twice_len).then_with(|| {
            (0..succ_len)
                .map(|k| succ(k).cmp(&twice(k)))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    }
}

impl From<u64> for Nat {
    fn from(v: u64) -> Nat {
        Nat(Repr::Small(v))
    }
}

impl Ord for Nat {
    fn cmp(&self, other: &Nat) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            (Repr::Small(_), Repr::Big(_)) => Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
        }
    }
}

impl PartialOrd for Nat {
    fn partial_cmp(&self, other: &Nat) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<u64> for Nat {
    fn eq(&self, other: &u64) -> bool {
        self.0 == Repr::Small(*other)
    }
}

impl PartialOrd<u64> for Nat {
    fn partial_cmp(&self, other: &u64) -> Option<Ordering> {
        Some(match self.0 {
            Repr::Small(v) => v.cmp(other),
            Repr::Big(_) => Ordering::Greater,
        })
    }
}

impl fmt::Display for Nat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(v) => write!(f, "{v}"),
            Repr::Big(d) => f.write_str(&String::from_utf8_lossy(d)),
        }
    }
}

impl fmt::Debug for Nat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Nat {
        Nat::from_digits(s.as_bytes()).unwrap()
    }

    #[test]
    fn reads_leading_zeros_and_rejects_signs() {
        assert_eq!(n("007"), 7);
        assert_eq!(n("0000"), 0);
        assert!(Nat::from_digits(b"+1").is_none());
        assert!(Nat::from_digits(b"").is_none());
        assert!(Nat::from_digits(b"1 ").is_none());
    }

    #[test]
    fn boundary_of_u64() {
        assert_eq!(n("18446744073709551615").to_u64(), Some(u64::MAX));
        assert_eq!(n("18446744073709551616").to_u64(), None);
        assert!(n("18446744073709551616") > n("18446744073709551615"));
        assert!(n("99999999999999999999999") > n("99999999999999999999998"));
        assert!(n("100000000000000000000000") > n("99999999999999999999999"));
        assert_eq!(n("00018446744073709551616"), n("18446744073709551616"));
    }

    #[test]
    fn succ_cmp_double_is_the_comparison_of_the_sums() {
        // Around the word's edge, runs of nines and fives (where the carries
        // turn), and lengths that differ by one.
        let mut values = vec![n("0"), n("1"), n("4"), n("5"), n("9"), n("10")];
        for base in [
            "18446744073709551615",
            "9223372036854775807",
            "9223372036854775808",
        ] {
            for d in 0..3 {
                values.push(n(base).add_u64(d));
                values.push(n(base).checked_sub_u64(d).unwrap());
            }
        }
        for digits in [19, 20, 21, 40] {
            for d in [b'4', b'5', b'9'] {
                let same = vec![d; digits];
                values.push(Nat::from_digits(&same).unwrap());
                let mut mixed = same.clone();
                mixed[digits / 2] = b'0';
                values.push(Nat::from_digits(&mixed).unwrap());
            }
            let mut one = vec![b'0'; digits];
            one[0] = b'1';
            values.push(Nat::from_digits(&one).unwrap());
        }
        for x in &values {
            for z in &values {
                let want = x.add_u64(1).cmp(&z.add(z));
                assert_eq!(x.succ_cmp_double(z), want, "{x} + 1 vs 2 * {z}");
            }
            // x + 1 = 2z exactly, when x is odd.
            let z = x.add_u64(1);
            if z.to_string().ends_with(['0', '2', '4', '6', '8']) {
                let half = half_of(&z);
                assert_eq!(x.succ_cmp_double(&half), Ordering::Equal, "{x}");
            }
        }
    }

    /// Half of an even number, by long division.
    fn half_of(even: &Nat) -> Nat {
        let mut out = Vec::new();
        let mut rest = 0;
        for d in even.to_string().bytes() {
            let v = rest * 10 + (d - b'0');
            out.push(b'0' + v / 2);
            rest = v % 2;
        }
        Nat::from_digits(&out).unwrap()
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(
            n("18446744073709551615").add_u64(1),
            n("18446744073709551616")
        );
        assert_eq!(
            n("18446744073709551616").checked_sub_u64(1),
            Some(n("18446744073709551615"))
        );
        assert_eq!(
            n("99999999999999999999999").add(&n("99999999999999999999999")),
            n("199999999999999999999998")
        );
        assert_eq!(
            n("100000000000000000000000").checked_sub_u64(1),
            Some(n("99999999999999999999999"))
        );
        assert_eq!(n("3").checked_sub_u64(4), None);
        assert_eq!(
            n("100000000000000000000000").checked_sub(&n("99999999999999999999999")),
            Some(n("1"))
        );
        assert_eq!(n("5").checked_sub(&n("100000000000000000000000")), None);
        assert_eq!(n("12").to_string(), "12");
        assert_eq!(n("0").digit_count(), 1);
        assert_eq!(n("123456").leading(3), n("123"));
        assert_eq!(n("123").leading(3), n("123"));
        assert_eq!(
            n("99999999999999999999999").leading(20),
            n("99999999999999999999")
        );
        assert_eq!(n("99999999999999999999999").leading(2), n("99"));
        assert_eq!(n("9").digit_count(), 1);
        assert_eq!(n("10").digit_count(), 2);
        assert_eq!(n("18446744073709551615").digit_count(), 20);
        assert_eq!(n("0018446744073709551616").digit_count(), 20);
        assert_eq!(
            n("0099999999999999999999999").to_string(),
            "99999999999999999999999"
        );
    }
}
