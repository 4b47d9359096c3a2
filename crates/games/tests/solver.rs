//! The exact solver on the public benchmark sets of Pascal Pons' solver
//! (tests/data/solver): every score must be exact.

use connectz_rng::Rng;
use std::fs;

use connectz_games::solver::{Position, PositionError, Shape, Solver};

fn check_set(name: &str) -> (usize, f64) {
    let text = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/solver")
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
fn other_frames_and_run_lengths() {
    // Small frames against a minimax over every game.
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
                memo_minimax(&p, &mut std::collections::HashMap::new()),
                "{width}x{height} z={z} after {} moves",
                p.moves()
            );
        }
    }
}

/// Exact scores by a memoised minimax over every continuation, scored in
/// the words of r[solve.score] and sharing no formula with the solver: the
/// counters of each side are tallied as they are played, and a win scores
/// (cells + 1) / 2 + 1 minus the winner's tally.
fn memo_minimax(p: &Position, memo: &mut std::collections::HashMap<u128, i32>) -> i32 {
    // Counters so far: the first player's are the 1st, 3rd, ... moves.
    let (mut mover, mut other) = (0, 0);
    for _ in 0..p.moves() {
        (mover, other) = (other, mover + 1);
    }
    tallied_minimax(p, mover, other, memo)
}

/// Negamax with `mover` and `other` the counters the side to move and its
/// opponent have played.
fn tallied_minimax(
    p: &Position,
    mover: i32,
    other: i32,
    memo: &mut std::collections::HashMap<u128, i32>,
) -> i32 {
    if let Some(&s) = memo.get(&p.key()) {
        return s;
    }
    let cells = p.shape().cells();
    let mut best = if p.moves() == cells { 0 } else { -cells };
    for col in 0..p.shape().width {
        if !p.can_play(col) {
            continue;
        }
        let score = if p.is_winning_move(col) {
            (cells + 1) / 2 + 1 - (mover + 1)
        } else {
            let mut next = *p;
            next.play_column(col);
            -tallied_minimax(&next, other, mover + 1, memo)
        };
        best = best.max(score);
    }
    memo.insert(p.key(), best);
    best
}

/// A random game of `moves` moves on `shape` that completes no run
/// (restarting when one would), from the workspace generator (SplitMix64).
fn random_position(shape: Shape, moves: usize, rng: &mut Rng) -> Position {
    for _ in 0..100_000 {
        let mut p = Position::new(shape);
        for _ in 0..moves {
            let open: Vec<usize> = (0..shape.width)
                .filter(|&c| p.can_play(c) && !p.is_winning_move(c))
                .collect();
            if open.is_empty() {
                break;
            }
            p.play_column(open[rng.below(open.len() as u64) as usize]);
        }
        if p.moves() as usize == moves {
            return p;
        }
    }
    panic!("no game of {moves} moves without a run found on {shape:?}");
}

#[test]
fn frames_past_64_bits_agree_with_minimax() {
    // 128-bit frames (8 x 8, 9 x 7, 10 x 6, 16 x 6, 42 x 2, 2 x 63, 64 x 1,
    // with several run lengths), near their end so that minimax can
    // finish. Lines long enough that a random game can fill most of the
    // frame without completing one.
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut solver = Solver::with_table_mb(2);
    for (width, height, z, empty) in [
        (8, 8, 5, 14),
        (9, 7, 5, 13),
        (10, 6, 5, 12),
        (10, 6, 6, 14),
        (16, 6, 6, 10),
        (42, 2, 4, 10),
        (2, 63, 4, 12),
        (64, 1, 4, 12),
        (11, 10, 7, 10),
        (8, 8, 9, 12),
    ] {
        let shape = Shape { width, height, z };
        // Each column takes height + 1 bits: past 64 in all, a 128-bit search.
        assert!(shape.fits() && width * (height + 1) > 64, "{shape:?}");
        for _ in 0..6 {
            let p = random_position(shape, width * height - empty, &mut rng);
            if p.can_win_next() {
                continue;
            }
            solver.reset();
            let mut memo = std::collections::HashMap::new();
            assert_eq!(
                solver.solve(&p, false),
                memo_minimax(&p, &mut memo),
                "{width}x{height} z={z} key {:x}",
                p.key()
            );
        }
    }
}

#[test]
fn the_widest_and_tallest_frames_fit() {
    for (width, height) in [(64, 1), (1, 127), (16, 7), (8, 15)] {
        let shape = Shape {
            width,
            height,
            z: 6,
        };
        assert!(shape.fits());
        let mut solver = Solver::with_table_mb(2);
        let mut rng = Rng::new((width * 1000 + height) as u64);
        let p = random_position(shape, width * height - 8, &mut rng);
        if !p.can_win_next() {
            let mut memo = std::collections::HashMap::new();
            assert_eq!(solver.solve(&p, false), memo_minimax(&p, &mut memo));
        }
    }
    for (width, height) in [(65, 1), (1, 128), (8, 16), (13, 9)] {
        assert!(
            !Shape {
                width,
                height,
                z: 4
            }
            .fits(),
            "{width}x{height}"
        );
    }
}

#[test]
fn threads_sharing_a_table_agree_with_one() {
    // Begin-Easy positions: the longest searches of the shared sets.
    let text = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver/Test_L1_R1"),
    )
    .unwrap();
    let mut one = Solver::with_table_mb(8);
    let mut two = Solver::with_table_mb(8).with_jobs(2);
    for line in text.lines().step_by(25) {
        let (moves, score) = line.split_once(' ').unwrap();
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        let want: i32 = score.parse().unwrap();
        one.reset();
        two.reset();
        assert_eq!(one.solve(&p, false), want, "{moves}");
        assert_eq!(two.solve(&p, false), want, "{moves} on two threads");
        assert_eq!(two.solve(&p, true), want.signum(), "{moves} weak");
    }
}

#[test]
fn columns_past_nine_are_letters() {
    let shape = Shape {
        width: 12,
        height: 5,
        z: 4,
    };
    let p = Position::from_moves(shape, "abcAB9").unwrap();
    assert_eq!(p.moves(), 6);
    assert!(!p.can_play(12));
    assert_eq!(
        Position::from_moves(shape, "d"),
        Err(PositionError::BadDigit { at: 1, found: 'd' })
    );
    assert_eq!(
        Position::from_moves(Shape::CLASSIC, "a"),
        Err(PositionError::BadDigit { at: 1, found: 'a' })
    );
}

/// A frame as people draw it: a grid of cells, 0 empty, 1 and 2 the
/// players, played column by column from the bottom. Shares nothing with
/// the solver: no bitboard, no key, no run detector.
#[derive(Clone)]
struct PlainBoard {
    width: usize,
    height: usize,
    z: usize,
    cells: Vec<u8>,
    heights: Vec<usize>,
    played: usize,
}

impl PlainBoard {
    fn new(width: usize, height: usize, z: usize) -> PlainBoard {
        PlainBoard {
            width,
            height,
            z,
            cells: vec![0; width * height],
            heights: vec![0; width],
            played: 0,
        }
    }

    fn at(&self, col: isize, row: isize) -> u8 {
        if col < 0 || row < 0 || col >= self.width as isize || row >= self.height as isize {
            return 0;
        }
        self.cells[row as usize * self.width + col as usize]
    }

    /// Does the side to move complete a run of `z` in `col`? Counts its
    /// counters on each side of the new one, in each of the four directions.
    fn completes(&self, col: usize) -> bool {
        let me = (self.played % 2) as u8 + 1;
        let (c, r) = (col as isize, self.heights[col] as isize);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let mut run = 1;
            for sign in [1, -1] {
                let mut k = 1;
                while self.at(c + sign * k * dc, r + sign * k * dr) == me {
                    run += 1;
                    k += 1;
                }
            }
            run >= self.z
        })
    }

    fn play(&mut self, col: usize) {
        let me = (self.played % 2) as u8 + 1;
        self.cells[self.heights[col] * self.width + col] = me;
        self.heights[col] += 1;
        self.played += 1;
    }

    /// r[solve.score], from its words: 0 for a draw; a win of the side to
    /// move scores (cells + 1) / 2 + 1 minus the counters the winner has
    /// played when its run is completed; a loss, minus the opponent's score.
    fn minimax(&self, memo: &mut std::collections::HashMap<Vec<u8>, i32>) -> i32 {
        if let Some(&s) = memo.get(&self.cells) {
            return s;
        }
        let total = (self.width * self.height) as i32;
        let mine_after_move = (self.played / 2) as i32 + 1;
        let mut best: Option<i32> = None;
        for col in 0..self.width {
            if self.heights[col] == self.height {
                continue;
            }
            let score = if self.completes(col) {
                (total + 1) / 2 + 1 - mine_after_move
            } else {
                let mut next = self.clone();
                next.play(col);
                -next.minimax(memo)
            };
            best = Some(best.map_or(score, |b| b.max(score)));
        }
        let score = best.unwrap_or(0);
        memo.insert(self.cells.clone(), score);
        score
    }
}

#[test]
fn larger_and_odd_frames_agree_with_a_grid_minimax() {
    // 7 x 7, 8 x 7 and 6 x 6 (the frames people play beyond 7 x 6), odd frames
    // (49, 35, 25 and 63 cells), a 128-bit one, several run lengths: random
    // games that complete no run, a dozen or so cells short of the end.
    let mut rng = Rng::new(0x5EED_0FDD);
    let mut solver = Solver::with_table_mb(2);
    let (mut checked, mut decided) = (0, 0);
    for (width, height, z, empty) in [
        (7, 7, 4, 13),
        (8, 7, 4, 13),
        (6, 6, 4, 14),
        (7, 5, 4, 14),
        (5, 5, 4, 15),
        (5, 5, 3, 13),
        (9, 7, 4, 12),
        (7, 7, 5, 14),
        (6, 6, 3, 12),
    ] {
        let shape = Shape { width, height, z };
        for _ in 0..5 {
            // A game that never completes a run, restarted when stuck.
            let (grid, moves) = loop {
                let mut grid = PlainBoard::new(width, height, z);
                let mut moves = Vec::new();
                while grid.played < width * height - empty {
                    let open: Vec<usize> = (0..width)
                        .filter(|&c| grid.heights[c] < height && !grid.completes(c))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    let c = open[rng.below(open.len() as u64) as usize];
                    grid.play(c);
                    moves.push(c);
                }
                if grid.played == width * height - empty {
                    break (grid, moves);
                }
            };
            let mut p = Position::new(shape);
            for &c in &moves {
                p.play_column(c);
            }
            let want = grid.minimax(&mut std::collections::HashMap::new());
            solver.reset();
            assert_eq!(
                solver.solve(&p, false),
                want,
                "{width}x{height} z={z}: {}",
                Position::moves_text(&moves)
            );
            solver.reset();
            assert_eq!(solver.solve(&p, true), want.signum(), "weak");
            checked += 1;
            decided += usize::from(want != 0);
        }
    }
    assert_eq!(checked, 45);
    assert!(
        decided >= 15,
        "only {decided} of 45 positions are won or lost"
    );
}

#[test]
fn bounds_and_best_columns_agree_with_exact_scores() {
    // Middle-Easy positions, and the same after one more move (some with a
    // win at once, some lost): at_least_within is the exact score compared,
    // and best_within's column has the best of every column's exact score.
    let text = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver/Test_L2_R1"),
    )
    .unwrap();
    let mut solver = Solver::with_table_mb(8);
    let mut checker = Solver::with_table_mb(8);
    let mut checked = 0;
    for (i, line) in text.lines().step_by(40).enumerate() {
        let (moves, _) = line.split_once(' ').unwrap();
        let mut p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        if i % 2 == 1 {
            let c = (0..7)
                .find(|&c| p.can_play(c) && !p.is_winning_move(c))
                .unwrap();
            p.play_column(c);
        }
        checker.reset();
        let score = checker.solve(&p, false);
        for v in [score - 2, score - 1, score, score + 1, score + 2] {
            solver.reset();
            assert_eq!(
                solver.at_least_within(&p, v, u64::MAX),
                Some(score >= v),
                "{moves} at least {v}"
            );
        }
        for weak in [false, true] {
            solver.reset();
            let (got, column) = solver.best_within(&p, weak, u64::MAX).unwrap();
            let want = if weak { score.signum() } else { score };
            assert_eq!(got, want, "{moves}");
            let column = column.unwrap();
            let scores = checker.analyze(&p, false);
            let best = scores.iter().flatten().max().copied();
            if weak {
                assert_eq!(
                    scores[column].map(i32::signum),
                    best.map(i32::signum),
                    "{moves}"
                );
            } else {
                assert_eq!(scores[column], best, "{moves}: {scores:?}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 25);
    // A budget too small gives up, past the book or without it.
    for (moves, mut solver) in [
        ("14772267714", Solver::with_table_mb(8)),
        ("4444", Solver::with_table_mb(8).without_book()),
    ] {
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        assert_eq!(solver.best_within(&p, false, 5_000), None);
        // (At least 2: the book's floor under 14772267714, its parents', is 0.)
        assert_eq!(solver.at_least_within(&p, 2, 5_000), None);
    }
}

#[test]
fn a_position_and_its_mirror_share_the_table_far_from_the_end() {
    // Positions far from the end (fewer than 20 moves on 7 x 6) are stored
    // under the smaller of their key and their mirror image's: once one is
    // weakly solved (won or lost: one bound answers), the other is answered
    // by the root's entry; later positions each have entries of their own.
    let mirror = |moves: &str| -> String {
        moves
            .chars()
            .map(|c| char::from(b'0' + 8 - c.to_digit(10).unwrap() as u8))
            .collect()
    };
    for (moves, shared) in [
        ("5257756336435712", true),
        ("362264563444244", true),
        ("3274517567331552", true),
        ("1257676743157613416644", false),
    ] {
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        let q = Position::from_moves(Shape::CLASSIC, &mirror(moves)).unwrap();
        let mut solver = Solver::with_table_mb(16);
        let score = solver.solve(&p, true);
        let first = solver.nodes();
        assert!(first > 300, "{moves}: {first} nodes");
        assert_eq!(solver.solve(&q, true), score, "{moves} mirrored");
        let second = solver.nodes() - first;
        if shared {
            assert_eq!(second, 1, "{moves} mirrored");
        } else {
            assert!(second > 100, "{moves} mirrored: {second} nodes");
        }
    }
}
