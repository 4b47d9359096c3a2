//! The exact solver on the public benchmark sets of Pascal Pons' solver
//! (tests/data/solver): every score must be exact.

use std::fs;

use connectz_games::solver::{Position, PositionError, Shape, Solver};

fn check_set(name: &str) -> (usize, f64) {
    let text = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/solver")
            .join(name),
    )
    .unwrap();
    let mut solver = Solver::new();
    let mut count = 0;
    let mut nodes = 0u64;
    for line in text.lines() {
        let (moves, score) = line.split_once(' ').unwrap();
        let position = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        solver.reset();
        assert_eq!(
            solver.solve(&position, false),
            score.parse::<i32>().unwrap(),
            "{name}: {moves}"
        );
        // The weak solve agrees on the sign.
        solver.reset();
        assert_eq!(
            solver.solve(&position, true),
            score.parse::<i32>().unwrap().signum(),
            "{name}: {moves}"
        );
        nodes += solver.nodes();
        count += 1;
    }
    (count, nodes as f64 / count as f64)
}

#[test]
fn end_easy_scores_are_exact() {
    assert_eq!(check_set("Test_L3_R1").0, 1000);
}

#[test]
fn middle_easy_scores_are_exact() {
    assert_eq!(check_set("Test_L2_R1").0, 1000);
}

#[test]
fn begin_easy_scores_are_exact() {
    assert_eq!(check_set("Test_L1_R1").0, 1000);
}

#[test]
fn illegal_positions_are_errors() {
    let shape = Shape::CLASSIC;
    assert_eq!(
        Position::from_moves(shape, "48"),
        Err(PositionError::BadDigit { at: 2, found: '8' })
    );
    assert_eq!(
        Position::from_moves(shape, "4x"),
        Err(PositionError::BadDigit { at: 2, found: 'x' })
    );
    assert_eq!(
        Position::from_moves(shape, "1111111"),
        Err(PositionError::FullColumn { at: 7, column: 1 })
    );
    assert_eq!(
        Position::from_moves(shape, "1212121"),
        Err(PositionError::AlreadyWon { at: 7 })
    );
    assert_eq!(
        Position::from_moves(shape, "12121213"),
        Err(PositionError::AlreadyWon { at: 7 })
    );
}

#[test]
fn other_frames_and_line_lengths() {
    // Small frames against a plain minimax over every game.
    fn minimax(p: &Position) -> i32 {
        let cells = p.shape().cells();
        if p.moves() == cells {
            return 0;
        }
        let mut best = -cells;
        for col in 0..p.shape().width {
            if !p.can_play(col) {
                continue;
            }
            let score = if p.is_winning_move(col) {
                (cells + 1 - p.moves()) / 2
            } else {
                let mut next = *p;
                next.play_column(col);
                -minimax(&next)
            };
            best = best.max(score);
        }
        best
    }
    let mut solver = Solver::new();
    for (width, height, z) in [
        (3, 3, 3),
        (4, 3, 3),
        (3, 4, 2),
        (2, 2, 2),
        (1, 5, 1),
        (5, 2, 3),
        (6, 2, 4),
        (4, 3, 2),
    ] {
        let shape = Shape { width, height, z };
        let empty = Position::new(shape);
        // Every position after one or two moves, too.
        let mut positions = vec![empty];
        for a in 0..width {
            let mut p = empty;
            p.play_column(a);
            positions.push(p);
            for b in 0..width {
                if p.can_play(b) && !p.is_winning_move(b) {
                    let mut q = p;
                    q.play_column(b);
                    positions.push(q);
                }
            }
        }
        for p in positions {
            if p.can_win_next() && p.moves() == 0 {
                continue;
            }
            solver.reset();
            assert_eq!(
                solver.solve(&p, false),
                minimax(&p),
                "{width}x{height} z={z} after {} moves",
                p.moves()
            );
        }
    }
}
