//! Winnability: which frames some legal game can win, and why the others
//! cannot (r[rule.winnable]), whatever the moves.

use crate::nat::Nat;

/// r[rule.winnable]: can any legal sequence of moves on an `x` by `y` frame
/// complete a run of `z`?
///
/// Holds exactly when `z = 1`, or `y >= 2 and x >= z` (player 1 builds the
/// bottom row while player 2 stacks on top), or `x >= 2 and y >= z` (player 1
/// builds a column while player 2 plays beside it), or `y = 1 and x >= 2z - 1`
/// (a single row must also hold the loser's `z - 1` counters). spec/rules.md
/// carries the proof that nothing else can be won. r[decision.unwinnable]:
/// this, not "a run fits", is what code 7 means.
pub fn winnable(x: &Nat, y: &Nat, z: &Nat) -> bool {
    unwinnable(x, y, z).is_none()
}

/// Why no legal game on a frame can complete a winning run: the three ways
/// the conditions of r[rule.winnable] can all fail (its proof's cases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwinnable {
    /// One row with room for a run of `z` but not for the loser's `z - 1`
    /// counters beside it: `y = 1`, `z <= x < 2z - 1`.
    OneRow,
    /// One column tall enough for a run: its counters alternate between
    /// the players, so no two neighbours match (`x = 1`, `y >= z >= 2`).
    OneColumn,
    /// No row, column or diagonal has `z` cells: `x < z` and `y < z`.
    NoRunFits,
}

/// r[rule.winnable]: `None` when some legal game on an `x` by `y` frame
/// completes a run of `z`, else which case of the proof rules it out.
pub fn unwinnable(x: &Nat, y: &Nat, z: &Nat) -> Option<Unwinnable> {
    // x + 1 >= 2z is compared digit by digit: a header's numbers may be as
    // long as memory holds, and this makes no other number.
    let wins = *z == 1
        || (*y >= 2 && x >= z)
        || (*x >= 2 && y >= z)
        || (*y == 1 && x.succ_cmp_double(z).is_ge());
    if wins {
        None
    } else if *y == 1 && x >= z {
        Some(Unwinnable::OneRow)
    } else if *x == 1 && y >= z {
        Some(Unwinnable::OneColumn)
    } else {
        Some(Unwinnable::NoRunFits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(x: u64, y: u64, z: u64) -> bool {
        winnable(&x.into(), &y.into(), &z.into())
    }

    #[test]
    fn brief_and_ruling_examples() {
        assert!(!w(2, 4, 6));
        assert!(!w(1, 5, 2));
        assert!(!w(4, 1, 4));
        assert!(w(7, 1, 4));
        assert!(!w(6, 1, 4));
        assert!(w(1, 1, 1));
        assert!(w(7, 6, 4));
        assert!(!w(3, 3, 4));
    }

    #[test]
    fn huge_frames() {
        let big = Nat::from_digits(b"99999999999999999999999").unwrap();
        assert!(winnable(&big, &1.into(), &1.into()));
        assert!(!winnable(&big, &1.into(), &big.checked_sub_u64(1).unwrap()));
        let half = Nat::from_digits(b"50000000000000000000000").unwrap();
        assert!(winnable(&big, &1.into(), &half));
    }

    /// Each case of the proof, checked against what it claims of the frame.
    #[test]
    fn every_unwinnable_frame_has_the_case_its_sizes_show() {
        for x in 1..=12u64 {
            for y in 1..=12u64 {
                for z in 1..=14u64 {
                    let why = unwinnable(&x.into(), &y.into(), &z.into());
                    let expected = if w(x, y, z) {
                        None
                    } else if x < z && y < z {
                        Some(Unwinnable::NoRunFits)
                    } else if y == 1 {
                        assert!(x < 2 * z - 1, "{x} {y} {z}");
                        Some(Unwinnable::OneRow)
                    } else {
                        assert_eq!(x, 1, "{x} {y} {z}");
                        Some(Unwinnable::OneColumn)
                    };
                    assert_eq!(why, expected, "{x} {y} {z}");
                }
            }
        }
    }
}
