//! Board snapshots against the truth: every position some legal game
//! reaches, found by playing every game (the test kit's oracle, which finds
//! lines by its own full scan).

use std::collections::HashMap;

use connectz_games::snapshot::{Answer, Side, Snapshot, judge};
use connectz_rng::Rng;

fn from_stacks(stacks: &[Vec<Side>], height: usize) -> Snapshot {
    let width = stacks.len();
    let mut cells = vec![None; width * height];
    for (c, s) in stacks.iter().enumerate() {
        for (k, &side) in s.iter().enumerate() {
            cells[(height - 1 - k) * width + c] = Some(side);
        }
    }
    Snapshot {
        width,
        height,
        cells,
        symbols: ['x', 'o'],
    }
}

/// Every position some legal game reaches, with its true verdict (the
/// oracle plays every game and scans for lines itself).
fn reachable_truth(width: usize, height: usize, z: usize) -> HashMap<Vec<Vec<Side>>, Answer> {
    use connectz_testkit::oracle::Standing;
    connectz_testkit::oracle::reachable_positions(width, height, z)
        .into_iter()
        .map(|(stacks, standing)| {
            let stacks = stacks
                .into_iter()
                .map(|s| {
                    s.into_iter()
                        .map(|p| if p == 1 { Side::First } else { Side::Second })
                        .collect()
                })
                .collect();
            let verdict = match standing {
                Standing::FirstMoves => Answer::FirstMoves,
                Standing::SecondMoves => Answer::SecondMoves,
                Standing::FirstWins => Answer::FirstWins,
                Standing::SecondWins => Answer::SecondWins,
                Standing::Draw => Answer::Draw,
            };
            (stacks, verdict)
        })
        .collect()
}

/// All columns of up to `height` counters.
fn all_stacks(height: usize) -> Vec<Vec<Side>> {
    let mut out = vec![Vec::new()];
    let mut k = 0;
    while k < out.len() {
        if out[k].len() < height {
            for side in [Side::First, Side::Second] {
                let mut s = out[k].clone();
                s.push(side);
                out.push(s);
            }
        }
        k += 1;
    }
    out
}

#[test]
fn validity_matches_brute_force_over_all_games() {
    let mut checked = 0;
    let mut valid = 0;
    for (width, height, z) in [
        (3, 3, 3),
        (4, 3, 3),
        (3, 4, 3),
        (5, 2, 3),
        (4, 3, 2),
        (2, 4, 2),
        (6, 2, 4),
    ] {
        let truth = reachable_truth(width, height, z);
        let columns = all_stacks(height);
        let mut index = vec![0usize; width];
        loop {
            let stacks: Vec<Vec<Side>> = index.iter().map(|&i| columns[i].clone()).collect();
            let expected = truth.get(&stacks).copied().unwrap_or(Answer::Invalid);
            let got = judge(&from_stacks(&stacks, height), z, true).unwrap();
            assert_eq!(
                got.answer, expected,
                "{width}x{height} z={z} {stacks:?}: {:?}",
                got.why
            );
            checked += 1;
            valid += usize::from(expected != Answer::Invalid);
            // Next combination of columns.
            let mut i = 0;
            while i < width {
                index[i] += 1;
                if index[i] < columns.len() {
                    break;
                }
                index[i] = 0;
                i += 1;
            }
            if i == width {
                break;
            }
        }
    }
    assert!(
        checked > 50_000 && valid > 5_000,
        "{checked} checked, {valid} valid"
    );
}

/// The snapshot's runs are those the judge's own board finds in the same
/// columns (built whole with `Board::from_stacks`, the core's public way to
/// hold a position that is not a game).
#[test]
fn runs_agree_with_the_judges_board() {
    use connectz::Nat;
    use connectz::board::{Board, Player};
    let mut rng = Rng::new(5);
    for _ in 0..500 {
        let (w, h, z) = (
            1 + rng.below(7) as usize,
            1 + rng.below(6) as usize,
            2 + rng.below(3) as usize,
        );
        let stacks: Vec<Vec<Side>> = (0..w)
            .map(|_| {
                (0..rng.below(h as u64 + 1))
                    .map(|_| {
                        if rng.below(2) == 0 {
                            Side::First
                        } else {
                            Side::Second
                        }
                    })
                    .collect()
            })
            .collect();
        let p = from_stacks(&stacks, h);
        let owners: Vec<Vec<Player>> = stacks
            .iter()
            .map(|s| {
                s.iter()
                    .map(|&side| match side {
                        Side::First => Player::One,
                        Side::Second => Player::Two,
                    })
                    .collect()
            })
            .collect();
        let columns = owners
            .iter()
            .enumerate()
            .map(|(c, o)| (Nat::from(c as u64 + 1), o.as_slice()));
        let (_, holds) = Board::from_stacks(
            &(w as u64).into(),
            &(h as u64).into(),
            &(z as u64).into(),
            columns,
        )
        .expect("stacks inside the frame");
        for (k, side) in [Side::First, Side::Second].into_iter().enumerate() {
            assert_eq!(
                p.runs(z).any(|r| r.side == side),
                holds[k],
                "{stacks:?} z={z}"
            );
        }
    }
}
