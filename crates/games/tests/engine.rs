//! The engine's choices in positions with a known answer.

use connectz_games::engine::{EXACT_NODES, FALLBACK_NODES, Level, Options, choose, choose_with};
use connectz_games::plan::{Plan, classic};
use connectz_games::solver::{Position, Shape, Solver};
use connectz_rng::Rng;

#[test]
fn engines_take_wins_and_block_runs() {
    let mut rng = Rng::new(1);
    let mut solver = Solver::new();
    // The perfect engine's are in the slow tier (`slow.rs`): it solves
    // these early positions through, which takes seconds.
    for level in [Level::Easy, Level::Medium] {
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

/// On a frame without a plan, the perfect engine's reply is bounded: the
/// empty 8 x 7 frame takes minutes to prove, so within its budget the
/// engine says it is thinking, then plays the medium search's move and says
/// that it is not proven.
#[test]
fn the_perfect_engine_falls_back_within_its_budget_and_says_so() {
    let shape = Shape {
        width: 8,
        height: 7,
        z: 4,
    };
    let options = Options {
        shape,
        level: Level::Perfect,
    };
    let mut solver = Solver::new().with_jobs(1);
    let mut thought = 0;
    let choice = choose_with(&options, &[], &mut |_| 0, &mut solver, &mut || thought += 1);
    assert_eq!(thought, 1);
    assert!(
        choice.evaluation.starts_with(
            "not proven: no exact answer within 12,000,000 nodes, so the medium search chose it ("
        ),
        "{}",
        choice.evaluation
    );
    // A search stops within 1,024 nodes of its budget.
    let budget = EXACT_NODES + FALLBACK_NODES;
    assert!(
        (budget..budget + 2048).contains(&solver.nodes()),
        "{} nodes",
        solver.nodes()
    );
    // The medium search opens in one of the two central columns.
    assert!([3, 4].contains(&choice.column), "column {}", choice.column);
    // A frame the solver proves within the budget gets an exact move.
    let small = Options {
        shape: Shape {
            width: 5,
            height: 4,
            z: 4,
        },
        level: Level::Perfect,
    };
    let exact = choose(&small, &[], &mut |_| 0, &mut solver);
    assert!(
        exact.evaluation.starts_with("exact: "),
        "{}",
        exact.evaluation
    );
}

/// The exact score of `p` as the plan knows it: an entry, or a win at once.
fn planned(plan: &Plan, p: &Position) -> Option<i32> {
    if p.can_win_next() {
        return Some(p.shape().win_score(p.moves()));
    }
    plan.get(p).map(|(_, score)| score)
}

/// Every entry of the shipped plan whose opponent's replies are all in it
/// is the worst of them for the engine (the engine's move is fixed, the
/// opponent picks), and the engine plays the plan's column in each.
#[test]
fn the_shipped_plan_is_consistent_and_the_engine_plays_it() {
    let plan = classic();
    let shape = Shape::CLASSIC;
    assert_eq!(plan.shape(), shape);
    let options = Options {
        shape,
        level: Level::Perfect,
    };
    let mut solver = Solver::with_table_mb(2);
    let (mut entries, mut inner) = (0, 0);
    for line in plan.to_text().lines().skip(1) {
        let moves = line.split(' ').next().unwrap();
        let p = Position::from_moves(shape, moves).unwrap();
        let (column, score) = plan.get(&p).unwrap();
        entries += 1;
        let played: Vec<usize> = if moves == "." {
            Vec::new()
        } else {
            moves.bytes().map(|b| usize::from(b - b'1')).collect()
        };
        let choice = choose(&options, &played, &mut |_| 0, &mut solver);
        assert_eq!(choice.column, column, "{moves}");
        assert!(choice.evaluation.contains("opening plan"), "{choice:?}");
        if p.moves() as usize + 2 > plan.plies() {
            continue;
        }
        // r[solve.score]: the engine's move, then the opponent's best reply.
        let mut after = p;
        after.play_column(column);
        let replies = (0..shape.width).filter(|&r| after.can_play(r)).map(|r| {
            if after.is_winning_move(r) {
                Some(-shape.win_score(after.moves()))
            } else {
                let mut next = after;
                next.play_column(r);
                if next.moves() == shape.cells() {
                    Some(0)
                } else {
                    planned(plan, &next)
                }
            }
        });
        let worst = replies
            .collect::<Option<Vec<i32>>>()
            .expect("every reply in the plan");
        assert_eq!(Some(score), worst.into_iter().min(), "entry {moves}");
        inner += 1;
    }
    assert!(
        entries >= inner && inner > 0,
        "{entries} entries, {inner} inner"
    );
}

/// The perfect engine's every move has the best exact score the solver
/// gives any move (the soonest win, else a draw, else the longest
/// resistance), so it keeps the position's value, and its evaluation is
/// never a heuristic's: against a random, a greedy and a perfect opponent,
/// as first and as second player, on even and odd frames, with the solver
/// checking move by move.
#[test]
fn the_perfect_engine_keeps_the_value_with_the_best_score_at_every_move() {
    let mut checked = 0;
    for (width, height, z) in [(5, 4, 3), (5, 3, 3), (4, 5, 3), (5, 5, 4)] {
        let shape = Shape { width, height, z };
        let perfect = Options {
            shape,
            level: Level::Perfect,
        };
        let greedy = Options {
            shape,
            level: Level::Easy,
        };
        let mut engine_solver = Solver::with_table_mb(8);
        let mut checker = Solver::with_table_mb(8);
        for opponent in ["random", "greedy", "perfect"] {
            for engine_first in [true, false] {
                let mut rng = Rng::new(checked as u64 + 7);
                let mut p = connectz_games::solver::Position::new(shape);
                let mut moves: Vec<usize> = Vec::new();
                loop {
                    let engine_turn = moves.len().is_multiple_of(2) == engine_first;
                    let playable: Vec<usize> = (0..width).filter(|&c| p.can_play(c)).collect();
                    let column = if engine_turn {
                        let choice =
                            choose(&perfect, &moves, &mut |n| rng.below(n), &mut engine_solver);
                        assert!(
                            !choice.evaluation.contains("heuristic")
                                && !choice.evaluation.contains("search"),
                            "{choice:?}"
                        );
                        // The solver's score of every move, the engine's the best.
                        let score = |c: usize, checker: &mut Solver| {
                            if p.is_winning_move(c) {
                                i32::MAX
                            } else {
                                let mut child = p;
                                child.play_column(c);
                                -checker.solve(&child, false)
                            }
                        };
                        let best = playable.iter().map(|&c| score(c, &mut checker)).max();
                        assert_eq!(
                            Some(score(choice.column, &mut checker)),
                            best,
                            "{shape:?} after {moves:?}: {choice:?}"
                        );
                        checked += 1;
                        choice.column
                    } else {
                        match opponent {
                            "random" => playable[rng.below(playable.len() as u64) as usize],
                            "greedy" => {
                                choose(&greedy, &moves, &mut |n| rng.below(n), &mut engine_solver)
                                    .column
                            }
                            _ => {
                                choose(&perfect, &moves, &mut |n| rng.below(n), &mut engine_solver)
                                    .column
                            }
                        }
                    };
                    let won = p.is_winning_move(column);
                    p.play_column(column);
                    moves.push(column);
                    if won || p.moves() == shape.cells() {
                        break;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} engine moves checked");
}

/// On 7 x 6 past the plan: games from random openings of ten moves, the
/// engine against a random opponent as both players, every engine move
/// checked by a second solver (the position's exact score against that of
/// what the move leaves). The whole check, with greedy and perfect
/// opponents from the first move: `cargo bench --bench engine`.
#[test]
fn the_perfect_engine_keeps_the_exact_score_on_7x6_past_its_plan() {
    let shape = Shape::CLASSIC;
    let options = Options {
        shape,
        level: Level::Perfect,
    };
    let mut engine = Solver::with_table_mb(16);
    let mut checker = Solver::with_table_mb(16);
    let mut rng = Rng::new(24);
    let mut checked = 0;
    for engine_first in [true, false, true, false, true, false] {
        // Ten moves at random that complete no run and leave no win to take.
        let (mut p, mut moves) = loop {
            let mut p = Position::new(shape);
            let mut moves = Vec::new();
            while moves.len() < 10 {
                let open: Vec<usize> = (0..7)
                    .filter(|&c| p.can_play(c) && !p.is_winning_move(c))
                    .collect();
                let c = open[rng.below(open.len() as u64) as usize];
                p.play_column(c);
                moves.push(c);
            }
            if !p.can_win_next() {
                break (p, moves);
            }
        };
        loop {
            let engine_turn = moves.len().is_multiple_of(2) == engine_first;
            let column = if engine_turn {
                let choice = choose(&options, &moves, &mut |n| rng.below(n), &mut engine);
                assert!(!choice.evaluation.contains("plan"), "{choice:?}");
                checker.reset();
                let score = checker.solve(&p, false);
                let kept = if p.is_winning_move(choice.column) {
                    shape.win_score(p.moves())
                } else {
                    let mut child = p;
                    child.play_column(choice.column);
                    checker.reset();
                    -checker.solve(&child, false)
                };
                assert_eq!(kept, score, "after {moves:?}: {choice:?}");
                checked += 1;
                choice.column
            } else {
                let open: Vec<usize> = (0..7).filter(|&c| p.can_play(c)).collect();
                open[rng.below(open.len() as u64) as usize]
            };
            let won = p.is_winning_move(column);
            p.play_column(column);
            moves.push(column);
            if won || p.moves() == shape.cells() {
                break;
            }
        }
    }
    assert!(checked >= 12, "only {checked} engine moves checked");
}
