use super::*;

/// A position's parents are exactly the positions one move earlier
/// from which a move that completes no run leads to it, found here
/// forwards, and others no game reaches: every game of up to five
/// moves on a frame with runs of 3
/// (where some moves complete one) and on one with 128-bit boards.
#[test]
fn parents_are_the_positions_a_move_leads_from() {
    use std::collections::{BTreeSet, HashMap};
    for (width, height, z) in [(4, 3, 3), (9, 12, 4)] {
        let shape = Shape { width, height, z };
        let mut level = vec![Position::new(shape)];
        let (mut some_parents, mut unreachable) = (0, 0);
        for _ in 0..5 {
            let mut led_from: HashMap<u128, BTreeSet<u128>> = HashMap::new();
            let mut next = HashMap::new();
            for q in &level {
                for c in (0..width).filter(|&c| q.can_play(c) && !q.is_winning_move(c)) {
                    let mut p = *q;
                    p.play_column(c);
                    led_from.entry(p.key()).or_default().insert(q.key());
                    next.insert(p.key(), p);
                }
            }
            let reached: BTreeSet<u128> = level.iter().map(Position::key).collect();
            for (key, p) in &next {
                let found: BTreeSet<u128> = p.parents().map(|q| q.key()).collect();
                assert_eq!(found.len(), p.parents().count(), "{p:?}");
                // Those a game reaches; the others no game does (a
                // counter of the second player's under the first's in
                // a column of two, with the first to move).
                let played: BTreeSet<u128> = found.intersection(&reached).copied().collect();
                assert_eq!(&played, &led_from[key], "{p:?}");
                unreachable += found.len() - played.len();
                for q in p.parents() {
                    assert_eq!(q.moves(), p.moves() - 1);
                    assert_eq!(q.shape(), shape);
                }
                some_parents += found.len();
            }
            level = next.into_values().collect();
        }
        assert!(some_parents > level.len(), "{shape:?}");
        assert!(unreachable > 0, "{shape:?}");
    }
    assert_eq!(Position::new(Shape::CLASSIC).parents().count(), 0);
}

#[test]
fn the_search_mirrors_keys_as_positions_mirror() {
    // The search keys positions far from the end by the smaller of their
    // key and the mirror of it (Geometry::mirror, on the key's columns);
    // the mirror position is the game replayed with column c played as
    // width - 1 - c. Reading a book works on 64-bit words where the
    // frame fits them, and mirrors by swaps (Mirror): the same keys and
    // columns that win.
    let mut rng = connectz_rng::Rng::new(0x4D49_5252);
    let mut winning = 0;
    for (width, height) in [
        (7, 6),
        (6, 6),
        (7, 7),
        (8, 7),
        (1, 5),
        (2, 3),
        (3, 6),
        (4, 6),
        (5, 6),
        (9, 7),
        (16, 6),
        (64, 1),
        (1, 127),
        (11, 10),
    ] {
        let shape = Shape {
            width,
            height,
            z: 4,
        };
        let g128 = shape.geometry::<u128>();
        let g64 = shape.fits_64().then(|| shape.geometry::<u64>());
        for _ in 0..40 {
            let mut p = Position::new(shape);
            let mut q = Position::new(shape);
            let moves = rng.below((width * height) as u64 + 1);
            for _ in 0..moves {
                let open: Vec<usize> = (0..width).filter(|&c| p.can_play(c)).collect();
                let c = open[rng.below(open.len() as u64) as usize];
                p.play_column(c);
                q.play_column(width - 1 - c);
            }
            let want = q.key();
            assert_eq!(p.mirrored().key(), want, "{width}x{height}");
            assert_eq!(g128.mirror(p.key()), want, "{width}x{height}");
            assert_eq!(g128.mirror(want), p.key(), "{width}x{height}");
            let by_swaps = g128.mirror_by_swaps();
            assert_eq!(by_swaps.apply(p.key()), want, "{width}x{height}");
            assert_eq!(by_swaps.apply(p.p.mask), g128.mirror(p.p.mask));
            assert_eq!(p.symmetric_key(), want.min(p.key()));
            let wins = p.winning_columns();
            if let Some(g64) = &g64 {
                assert_eq!(u128::from(g64.mirror(p.key() as u64)), want);
                let by_swaps = g64.mirror_by_swaps();
                assert_eq!(u128::from(by_swaps.apply(p.key() as u64)), want);
                let at_64 = winning_columns_in(g64, &p.narrow::<u64>());
                assert_eq!(at_64, wins, "{width}x{height}");
            }
            winning += usize::from(wins != 0);
        }
    }
    assert!(winning > 20, "{winning}");
}
