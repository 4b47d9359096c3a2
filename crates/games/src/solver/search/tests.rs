use super::*;
use crate::solver::geometry::Four;
use crate::solver::table::Table;

/// The parts of a search on one thread and on several, by moves played:
/// the boundaries the docs give, on 7 x 6 and on a frame of an odd
/// number of cells (7 x 7).
#[test]
fn threads_share_the_positions_from_half_to_three_sevenths_empty() {
    let table = Table::new(2);
    let stop = AtomicBool::new(false);
    let busy = Busy::new();
    // (width, height, first near move on one thread, with threads).
    for (width, height, alone, shared) in [(7, 6, 20, 24), (7, 7, 24, 28), (6, 6, 17, 21)] {
        let g = Geometry::<u64>::new(width, height, 4);
        let cells = (width * height) as i32;
        let parts = |busy: Option<&Busy>| {
            let limits = SearchBounds {
                budget: 0,
                stop: &stop,
                cancel: None,
            };
            let s = Search::<u64, Four>::new(g, table.view::<u64>(), limits, 0, busy);
            (s.parts.to_vec(), s.far_below)
        };
        for (busy, near) in [(None, alone), (Some(&busy), shared)] {
            let (parts, far_below) = parts(busy);
            assert_eq!(parts.len() as i32, cells + 1);
            // Far from the end (mirror keys, busy marks) does not move.
            assert_eq!(far_below, alone, "{width} x {height}");
            for (moves, &part) in parts.iter().enumerate() {
                let moves = moves as i32;
                let want = if moves >= near {
                    TablePart::Near
                } else if moves >= cells / 3 {
                    TablePart::Mid
                } else {
                    TablePart::Far
                };
                assert_eq!(part, want, "{width} x {height}, {moves} moves");
            }
            // Empty cells at the first near move: about half, or three
            // sevenths with threads.
            let empty = cells - near;
            if busy.is_none() {
                assert!(empty * 2 <= cells + 2 && empty * 2 >= cells, "{empty}");
            } else {
                assert!(
                    empty * 7 <= cells * 3 && (empty + 1) * 7 > cells * 3,
                    "{empty}"
                );
            }
        }
    }
}

/// r[solve.claimeven] against the reference's published scores (Pascal
/// Pons' End-Easy, Middle-Easy and Begin-Easy sets, 3,000 positions):
/// every bound the strategy of answering on top gives holds, each of
/// its four kinds is found, and many are the score itself.
#[test]
fn answering_on_top_bounds_the_published_scores() {
    use crate::solver::{Position, Shape};
    let g = Geometry::<u64>::new(7, 6, 4);
    let last = win_score(42, 41);
    assert_eq!(last, 1);
    let (mut kinds, mut tight, mut checked) = ([0usize; 4], 0, 0);
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/solver")
            .join(set);
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let (moves, score) = line.split_once(' ').unwrap();
            let score: i32 = score.parse().unwrap();
            let q = Position::from_moves(Shape::CLASSIC, moves).unwrap();
            let p = q.narrow::<u64>();
            checked += 1;
            // Windows at which each bound is looked for in full: the
            // ceiling with the opponent's run looked for (alpha below
            // 0), the floor with the side to move's (beta above 0). At
            // the other window neither run is looked for: a ceiling of
            // 0 already cuts a window from 0, a floor of 0 one below it.
            for (alpha, beta) in [(-last, 1 - last), (last - 1, last)] {
                match follow_up::<u64, Four>(&g, p, alpha, beta) {
                    Some(Bound::Upper(u)) => {
                        assert!(score <= u, "{moves}: {score} above {u}");
                        assert!(u == 0 || (u == -last && alpha < 0), "{moves}: {u}");
                        kinds[usize::from(u == 0)] += 1;
                        tight += usize::from(score == u);
                    }
                    Some(Bound::Lower(l)) => {
                        assert!(score >= l, "{moves}: {score} below {l}");
                        assert!(l == 0 || (l == last && beta > 0), "{moves}: {l}");
                        kinds[2 + usize::from(l == 0)] += 1;
                        tight += usize::from(score == l);
                    }
                    None => {}
                }
            }
            // A ceiling cannot cut a window below the last counter's
            // loss, nor a floor one above its win: neither is looked for.
            assert!(!matches!(
                follow_up::<u64, Four>(&g, p, -10, -9),
                Some(Bound::Upper(_))
            ));
            assert!(!matches!(
                follow_up::<u64, Four>(&g, p, 9, 10),
                Some(Bound::Lower(_))
            ));
        }
    }
    assert_eq!(checked, 3000);
    // (loses at most, at most 0, wins at least, at least 0)
    assert!(kinds.iter().all(|&k| k >= 40), "{kinds:?}");
    assert!(tight >= 500, "{tight} of {kinds:?}");
}
