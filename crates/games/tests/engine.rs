//! The engine's choices in positions with a known answer.

use connectz_games::engine::{Level, Options, choose};
use connectz_games::solver::{Shape, Solver};
use connectz_testkit::rng::Rng;

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
