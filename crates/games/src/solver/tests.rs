use super::*;

/// Solves `p` with word `W`, on a fresh table.
fn score_with<W: Word>(p: &Position, weak: bool) -> Option<i32> {
    let goal = if weak { Goal::Sign } else { Goal::Exact };
    dispatch::<W>(&Table::new(2), p, goal, u64::MAX, 1, None).0
}

#[test]
fn both_words_give_the_same_scores_on_64_bit_frames() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver");
    for (file, step) in [("Test_L2_R1", 20), ("Test_L1_R1", 50)] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text.lines().step_by(step) {
            let (moves, score) = line.split_once(' ').unwrap();
            let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
            let want = score.parse().ok();
            assert_eq!(score_with::<u64>(&p, false), want, "{moves}");
            assert_eq!(score_with::<u128>(&p, false), want, "{moves} in 128 bits");
        }
    }
    // Other run lengths and frames, every detector.
    for (width, height, z, moves) in [
        (6, 5, 3, "3434"),
        (4, 5, 5, "2"),
        (4, 4, 2, ""),
        (5, 4, 4, "3"),
        (3, 10, 9, "2"),
    ] {
        let p = Position::from_moves(Shape { width, height, z }, moves).unwrap();
        assert_eq!(
            score_with::<u64>(&p, false),
            score_with::<u128>(&p, false),
            "{width}x{height} z={z} {moves}"
        );
    }
}

#[test]
fn a_score_known_to_lie_between_bounds_is_the_exact_score() {
    // Every bound that holds the score, tight or loose, above or below
    // it, gives the score the unbounded search gives.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver");
    let text = std::fs::read_to_string(dir.join("Test_L2_R1")).unwrap();
    let mut checked = 0;
    for line in text.lines().step_by(50) {
        let (moves, score) = line.split_once(' ').unwrap();
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        let want: i32 = score.parse().unwrap();
        // A floor that is the score costs one null-window search: as
        // many nodes as asking whether the score is above it.
        let table = Table::new(2);
        let floor = dispatch::<u64>(&table, &p, Goal::Between(want, i32::MAX), u64::MAX, 1, None);
        let fresh = Table::new(2);
        let above = dispatch::<u64>(&fresh, &p, Goal::AtLeast(want + 1), u64::MAX, 1, None);
        assert_eq!((floor.0, above.0), (Some(want), Some(0)), "{moves}");
        assert_eq!(floor.1, above.1, "{moves}");
        for (lo, hi) in [
            (want, want),
            (want, i32::MAX),
            (i32::MIN, want),
            (want - 1, want + 1),
            (want - 5, want + 2),
        ] {
            let goal = Goal::Between(lo, hi);
            let got = dispatch::<u64>(&Table::new(2), &p, goal, u64::MAX, 1, None).0;
            assert_eq!(got, Some(want), "{moves} in [{lo}, {hi}]");
        }
        checked += 1;
    }
    assert_eq!(checked, 20);
    // The book's score of a position bounds its replies: analysing a
    // position of the book's depth (whose replies it does not hold)
    // searches with the bound and finds what the search without the
    // book finds.
    let p = Position::from_moves(Shape::CLASSIC, "3443534252").unwrap();
    assert_eq!(p.moves() as usize, crate::book::CLASSIC_DEPTH);
    let mut with = Solver::with_table_mb(8);
    let mut without = Solver::with_table_mb(8).without_book();
    assert_eq!(with.analyze(&p, false), without.analyze(&p, false));
    assert!(with.nodes() > 0);
}

#[test]
fn the_shipped_book_is_consulted_only_where_it_answers_or_bounds() {
    // r[solve.book]: at most its depth it answers, one move deeper it
    // bounds (Book::floor); later positions never read it.
    let solver = Solver::with_table_mb(2);
    let depth = crate::book::CLASSIC_DEPTH;
    let mut p = Position::new(Shape::CLASSIC);
    for (i, c) in "14112242444532".chars().enumerate() {
        assert_eq!(p.moves() as usize, i);
        assert_eq!(solver.book_for(&p).is_some(), i <= depth + 1, "{i} moves");
        p.play_column(c as usize - '1' as usize);
    }
    // Other frames and the other choices.
    let other = Position::new(Shape {
        width: 7,
        height: 7,
        z: 4,
    });
    assert!(solver.book_for(&other).is_none());
    let start = Position::new(Shape::CLASSIC);
    assert!(
        Solver::with_table_mb(2)
            .without_book()
            .book_for(&start)
            .is_none()
    );
    let given = Arc::new(Book::new(Shape::CLASSIC, 2, false));
    let with = Solver::with_table_mb(2).with_book(given);
    assert!(with.book_for(&p).is_some());
}

#[test]
fn a_search_that_gives_up_says_so() {
    // Past the book: searched, and the budget stops it.
    let p = Position::from_moves(Shape::CLASSIC, "14772267714").unwrap();
    let mut solver = Solver::with_table_mb(2);
    assert_eq!(solver.solve_within(&p, false, 5_000), None);
    assert!(solver.nodes() >= 5_000 && solver.nodes() < 5_000 + 2_048);
}

#[test]
fn a_cancelled_search_gives_up_within_a_thousand_nodes_a_thread() {
    // The empty frame takes hundreds of millions of nodes: only the
    // flag stops these searches.
    let p = Position::new(Shape::CLASSIC);
    for jobs in [1, 2] {
        let flag = Arc::new(AtomicBool::new(true));
        let mut solver = Solver::with_table_mb(2)
            .without_book()
            .with_jobs(jobs)
            .with_cancel(flag.clone());
        assert_eq!(solver.solve_within(&p, false, u64::MAX), None);
        assert_eq!(solver.best_within(&p, true, u64::MAX), None);
        assert!(
            solver.nodes() <= 2 * 1_024 * jobs as u64,
            "{}",
            solver.nodes()
        );
        let options = crate::engine::Options {
            shape: Shape::CLASSIC,
            level: crate::engine::Level::Perfect,
        };
        // A position past the opening plan that takes seconds to solve.
        let moves = [3, 3, 4, 2];
        let mut none = |_| 0;
        let choice =
            crate::engine::try_choose_with(&options, &moves, &mut none, &mut solver, &mut || {});
        assert_eq!(choice, None);
        // Cleared, the same solver finishes.
        flag.store(false, Relaxed);
        let q =
            Position::from_moves(Shape::CLASSIC, "2252576253462244111563365343671351441").unwrap();
        assert_eq!(solver.solve_within(&q, false, u64::MAX), Some(-1));
    }
}
