//! The engine's choices in positions with a known answer.

use connectz_games::engine::{Level, Options, choose};
use connectz_games::solver::{Shape, Solver};
use connectz_rng::Rng;

#[test]
fn engines_take_wins_and_block_lines() {
    let mut rng = Rng::new(1);
    let mut solver = Solver::new();
    for level in [Level::Easy, Level::Medium, Level::Perfect] {
        let options = Options {
            shape: Shape::CLASSIC,
            level,
        };
        // Player 1 has three in column 1 (0-based 0) and is to move: win there.
        let win = choose(
            &options,
            &[0, 1, 0, 1, 0, 2],
            &mut |n| rng.below(n),
            &mut solver,
        );
        assert_eq!(win.column, 0, "{level:?}");
        // Player 2 to move must block column 1.
        let block = choose(
            &options,
            &[0, 1, 0, 1, 0],
            &mut |n| rng.below(n),
            &mut solver,
        );
        assert_eq!(block.column, 0, "{level:?}");
    }
    // A frame too large for a bitboard still wins and blocks.
    let big = Options {
        shape: Shape {
            width: 40,
            height: 30,
            z: 4,
        },
        level: Level::Medium,
    };
    assert_eq!(
        choose(
            &big,
            &[0, 1, 0, 1, 0, 2],
            &mut |n| rng.below(n),
            &mut solver
        )
        .column,
        0
    );
    assert_eq!(
        choose(&big, &[0, 1, 0, 1, 0], &mut |n| rng.below(n), &mut solver).column,
        0
    );
}

#[test]
fn the_perfect_engine_opens_from_the_book_and_keeps_the_value() {
    use connectz_games::book::{self, classic};
    let book = classic();
    assert!(book.depth() >= 1, "the shipped book covers the first move");
    let options = Options {
        shape: Shape::CLASSIC,
        level: Level::Perfect,
    };
    let mut solver = Solver::with_table_mb(2);
    let first = choose(&options, &[], &mut |_| 0, &mut solver);
    assert_eq!(first.column, 3, "the centre wins");
    assert!(first.evaluation.contains("opening book"), "{first:?}");
    // Every position before the book's last ply: the engine answers from the
    // book, and its move keeps the position's value.
    for (moves, p) in book::positions(Shape::CLASSIC, book.depth() - 1) {
        let played: Vec<usize> = if moves == "." {
            Vec::new()
        } else {
            moves.bytes().map(|b| usize::from(b - b'1')).collect()
        };
        let choice = choose(&options, &played, &mut |_| 0, &mut solver);
        assert!(
            choice.evaluation.contains("opening book"),
            "{moves}: {choice:?}"
        );
        let mut child = p;
        child.play_column(choice.column);
        let value = book.score(&p).expect("in the book");
        let kept = if p.is_winning_move(choice.column) {
            1
        } else {
            -book
                .score(&child)
                .expect("the move's position is in the book")
        };
        assert_eq!(kept.signum(), value.signum(), "{moves}");
    }
}

#[test]
fn shipped_book_entries_are_what_the_solver_says() {
    use connectz_games::book::{self, classic};
    let book = classic();
    let deepest: Vec<_> = book::positions(Shape::CLASSIC, book.depth())
        .into_iter()
        .filter(|(_, p)| p.moves() as usize == book.depth())
        .collect();
    assert!(!deepest.is_empty());
    // Every entry above the last ply is the best of its moves' entries.
    for (moves, p) in book::positions(Shape::CLASSIC, book.depth() - 1) {
        let (_, best) = book.best(&p).expect("every move's entry");
        assert_eq!(book.score(&p), Some(best), "entry {moves}");
    }
    // One of the deepest entries, picked at random, re-solved on both cores
    // (about a minute).
    let mut solver = Solver::with_table_mb(256).with_jobs(2);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..1 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let (moves, p) = &deepest[state as usize % deepest.len()];
        solver.reset();
        assert_eq!(
            Some(solver.solve(p, book.weak())),
            book.score(p),
            "book entry {moves}"
        );
    }
}
