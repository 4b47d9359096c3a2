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

/// A natural number (zero included) of any size.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Nat(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(u64),
    /// ASCII digits without leading zeros, always greater than `u64::MAX`;
    /// shared, so that a frame's X, held by the header, the game and the
    /// board, is held once.
    Big(Arc<[u8]>),
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
        if digits.len() <= 19 {
            let value = digits
                .iter()
                .fold(0u64, |acc, &d| acc * 10 + u64::from(d.wrapping_sub(b'0')));
            return Nat(Repr::Small(value));
        }
        let start = digits
            .iter()
            .position(|&d| d != b'0')
            .unwrap_or(digits.len());
        Self::from_significant(&digits[start..])
    }

    /// `digits` are ASCII digits with no leading zero (possibly empty = 0).
    fn from_significant(digits: &[u8]) -> Nat {
        if digits.len() <= 19 {
            let value = digits
                .iter()
                .fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0'));
            return Nat(Repr::Small(value));
        }
        let mut value: u64 = 0;
        for &d in digits {
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
            {
                Some(v) => value = v,
                None => return Nat(Repr::Big(digits.into())),
            }
        }
        Nat(Repr::Small(value))
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
            Repr::Big(d) if d.len() > n => Self::from_significant(&d[..n]),
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

    fn digits(&self) -> Vec<u8> {
        match &self.0 {
            Repr::Small(v) => v.to_string().into_bytes(),
            Repr::Big(d) => d.to_vec(),
        }
    }

    /// `self + other`, exactly.
    pub fn add(&self, other: &Nat) -> Nat {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0)
            && let Some(sum) = a.checked_add(*b)
        {
            return Nat(Repr::Small(sum));
        }
        let (a, b) = (self.digits(), other.digits());
        let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
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
        Self::from_significant(&out)
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
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0) {
            return a.checked_sub(*b).map(Nat::from);
        }
        if self < other {
            return None;
        }
        let mut out = self.digits();
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
        let start = out.iter().position(|&c| c != b'0').unwrap_or(out.len());
        Some(Self::from_significant(&out[start..]))
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
