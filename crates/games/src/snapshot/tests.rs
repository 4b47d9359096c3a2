use std::collections::HashSet;

use super::order::{ColumnStacks, Suffixes, Work, reachable, side_of};
use super::*;

/// The pruned search against a plain one (every move, dead ends
/// remembered by heights) on random columns, up to 6 x 6: the pruning,
/// the symmetry and the greedy pass never change an answer.
#[test]
fn search_matches_a_plain_search() {
    fn plain(stacks: &[Vec<Side>]) -> bool {
        let total: usize = stacks.iter().map(Vec::len).sum();
        let mut dead = HashSet::new();
        fn go(
            st: &[Vec<Side>],
            h: &mut Vec<usize>,
            placed: usize,
            total: usize,
            dead: &mut HashSet<Vec<usize>>,
        ) -> bool {
            if placed == total {
                return true;
            }
            if dead.contains(h) {
                return false;
            }
            for c in 0..st.len() {
                if st[c].get(h[c]) == Some(&side_of(placed + 1)) {
                    h[c] += 1;
                    let found = go(st, h, placed + 1, total, dead);
                    h[c] -= 1;
                    if found {
                        return true;
                    }
                }
            }
            dead.insert(h.clone());
            false
        }
        go(stacks, &mut vec![0; stacks.len()], 0, total, &mut dead)
    }
    let mut rng = connectz_rng::Rng::new(11);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..40_000 {
        let width = 1 + rng.below(6) as usize;
        let tallest = 1 + rng.below(6);
        let stacks: Vec<Vec<Side>> = (0..width)
            .map(|_| {
                let mut side = rng.below(2) == 0;
                (0..rng.below(tallest + 1))
                    .map(|_| {
                        // Runs of one side make hard positions.
                        if rng.below(3) == 0 {
                            side = !side;
                        }
                        if side { Side::First } else { Side::Second }
                    })
                    .collect()
            })
            .collect();
        let firsts = stacks
            .iter()
            .flatten()
            .filter(|&&s| s == Side::First)
            .count();
        let total: usize = stacks.iter().map(Vec::len).sum();
        if firsts != total - total / 2 {
            continue;
        }
        let expected = plain(&stacks);
        assert_eq!(
            reachable(
                &ColumnStacks::from_columns(&stacks),
                &mut Work::default_bounds()
            )
            .unwrap(),
            Some(expected),
            "{stacks:?}"
        );
        if expected { yes += 1 } else { no += 1 }
    }
    assert!(yes > 1000 && no > 1000, "{yes} reachable, {no} not");
}

/// r[board.undecided]: the budget counts the set-up, and the set-up is
/// linear: one column of 100,000 alternating counters (whose suffixes
/// were once hashed whole, 247 s) costs a few steps a counter, and
/// equal suffixes still share their number.
#[test]
fn set_up_is_counted_and_linear_in_the_counters() {
    for n in [2usize, 1_000, 100_000] {
        let column: Vec<Side> = (0..n)
            .map(|k| {
                if k % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                }
            })
            .collect();
        let stacks = ColumnStacks::from_columns(&[column.clone(), column]);
        let mut work = Work::default_bounds();
        let reachable = reachable(&stacks, &mut work).unwrap();
        assert_eq!(reachable, Some(true), "{n}");
        let counters = 2 * n as u64;
        assert!(work.done >= counters, "{n}: set-up not counted");
        assert!(work.done <= 4 * counters, "{n}: {} steps", work.done);
        // Two equal columns: the same numbers, suffix by suffix.
        let suffix = Suffixes::new(&stacks).unwrap();
        assert_eq!(suffix.column(0), suffix.column(1));
        let mut distinct = suffix.column(0).to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), n + 1, "{n}");
    }
    // Suffixes equal across columns of different heights.
    let a = vec![Side::Second, Side::First, Side::Second];
    let b = vec![Side::First, Side::Second];
    let stacks = ColumnStacks::from_columns(&[a, b]);
    let suffix = Suffixes::new(&stacks).unwrap();
    assert_eq!(suffix.column(0)[1], suffix.column(1)[0]);
    assert_eq!(suffix.column(0)[3], suffix.column(1)[2]);
    assert_ne!(suffix.column(0)[0], suffix.column(1)[0]);
}

#[test]
fn grid_reader_and_errors() {
    let g = parse_grid(b"..x\n.ox\nxoo\n").unwrap();
    assert_eq!((g.width, g.height), (3, 3));
    let g = parse_grid(b"0 1 2;1 2 0").unwrap();
    assert_eq!((g.row(0), g.row(1)), (&b"012"[..], &b"120"[..]));
    assert_eq!(parse_grid(b"OOX/OXY").unwrap().height, 2);
    assert_eq!(
        parse_grid(b"..x\n.o\n"),
        Err(GridError::Ragged {
            row: 2,
            width: 2,
            expected: 3
        })
    );
    assert_eq!(
        parse_grid(b"..x\n.o#\n"),
        Err(GridError::UnexpectedByte {
            row: 2,
            column: 3,
            byte: b'#'
        })
    );
    assert_eq!(parse_grid(b""), Err(GridError::Empty));
    // Where the grammar stops: a second space, an empty row, a second
    // separator, a lone CR; a bad byte is said before an earlier ragged row.
    let at = |row, column, byte| Err(GridError::UnexpectedByte { row, column, byte });
    assert_eq!(parse_grid(b"x  o"), at(1, 3, b' '));
    assert_eq!(parse_grid(b"xo\n\nxo"), at(2, 1, b'\n'));
    assert_eq!(parse_grid(b"xo;;"), at(2, 1, b';'));
    assert_eq!(parse_grid(b"x\rx"), at(1, 2, b'\r'));
    assert_eq!(parse_grid(b" x"), at(1, 1, b' '));
    assert_eq!(parse_grid(b"xo\nx\nx#"), at(3, 2, b'#'));
    assert_eq!(parse_grid(b"xo\r\n\r\n").map(|g| g.height), Ok(1));
    let three = parse_grid(b"xoz").unwrap();
    assert_eq!(
        from_grid(&three, None, None),
        Err(GridError::ThirdSymbol {
            row: 1,
            column: 3,
            symbol: 'z'
        })
    );
}
