//! The games' tests of the slow tier (`cargo test --test slow`; `.ci/run`
//! runs it): the perfect engine and the shipped plan against the solver on
//! early 7 x 6 positions, each of which takes the solver seconds.

use connectz_games::engine::{Level, Options, choose};
use connectz_games::plan::classic;
use connectz_games::solver::{Position, Shape, Solver};
use connectz_rng::Rng;

/// The perfect engine takes a win and blocks a run, on positions of five
/// and six moves that it solves through.
#[test]
fn the_perfect_engine_takes_wins_and_blocks_runs() {
    let mut rng = Rng::new(1);
    let mut solver = Solver::new();
    let options = Options {
        shape: Shape::CLASSIC,
        level: Level::Perfect,
    };
    // Player 1 has three in column 1 (0-based 0) and is to move: win there.
    let win = choose(
        &options,
        &[0, 1, 0, 1, 0, 2],
        &mut |n| rng.below(n),
        &mut solver,
    );
    assert_eq!(win.column, 0);
    // Player 2 to move must block column 1.
    let block = choose(
        &options,
        &[0, 1, 0, 1, 0],
        &mut |n| rng.below(n),
        &mut solver,
    );
    assert_eq!(block.column, 0);
}

/// A random sample of the plan's deepest entries, re-solved: the exact
/// score, and the column keeps it (every entry: `cargo bench --bench engine
/// -- --plan`).
#[test]
fn shipped_plan_entries_are_what_the_solver_says() {
    let plan = classic();
    let lines: Vec<String> = plan.to_text().lines().skip(1).map(String::from).collect();
    let deep: Vec<&String> = lines
        .iter()
        .filter(|l| l.split(' ').next().unwrap().len() + 3 >= plan.plies())
        .collect();
    assert!(!deep.is_empty());
    // A fixed seed, so a failure replays (every entry: the bench above).
    let mut rng = Rng::new(8);
    let mut solver = Solver::with_table_mb(64);
    for _ in 0..8 {
        let line = deep[rng.below(deep.len() as u64) as usize];
        let moves = line.split(' ').next().unwrap();
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        let (column, score) = plan.get(&p).unwrap();
        solver.reset();
        assert_eq!(solver.solve(&p, false), score, "entry {line}");
        let mut child = p;
        child.play_column(column);
        solver.reset();
        assert_eq!(
            -solver.solve(&child, false),
            score,
            "entry {line}: its column"
        );
    }
}

/// Past the plan, a position whose proof takes more than the budget: the
/// engine says it is thinking (once), then plays a move of the best exact
/// score, `cz solve --best`'s score for it (`3455 -3 5`). The opening book
/// holds it, so the solver is made without it here, to search.
#[test]
fn the_perfect_engine_says_it_is_thinking_and_still_plays_exactly() {
    let options = Options {
        shape: Shape::CLASSIC,
        level: Level::Perfect,
    };
    let mut solver = Solver::with_table_mb(64).without_book();
    let mut thought = 0;
    let choice = connectz_games::engine::choose_with(
        &options,
        &[2, 3, 4, 4],
        &mut |_| 0,
        &mut solver,
        &mut || thought += 1,
    );
    assert_eq!(thought, 1);
    assert!(choice.evaluation.contains("score -3"), "{choice:?}");
    // Its move has that score (several columns tie at -3).
    let mut p = connectz_games::solver::Position::new(Shape::CLASSIC);
    for c in [2, 3, 4, 4, choice.column] {
        p.play_column(c);
    }
    assert_eq!(-Solver::with_table_mb(64).solve(&p, false), -3);
}

/// r[solve.book]: 24 of the shipped book's deepest positions (the ones
/// `cz book` solved; the rest are checked against their children when the
/// book is read), at random with a fixed seed, searched without the book.
#[test]
fn shipped_book_entries_are_what_the_search_says() {
    use connectz_games::book::{self, CLASSIC_DEPTH};
    let deepest: Vec<(String, Position)> = book::positions(Shape::CLASSIC, CLASSIC_DEPTH)
        .into_iter()
        .filter(|(_, p)| p.moves() as usize == CLASSIC_DEPTH)
        .collect();
    let mut rng = Rng::new(24);
    let mut solver = Solver::with_table_mb(64).without_book();
    for _ in 0..24 {
        let (moves, p) = &deepest[rng.below(deepest.len() as u64) as usize];
        solver.reset();
        assert_eq!(
            Some(solver.solve(p, false)),
            book::classic().score(p),
            "{moves}"
        );
    }
}
