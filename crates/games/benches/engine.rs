//! The whole check of the perfect engine: games against a random, a greedy
//! and a perfect opponent (a random column among those of the best exact
//! score), as first and as second player; every engine move is checked
//! against the exact score of every column (each column solved on its own,
//! by a second solver with its own table), and every reply is timed.
//!
//!     cargo bench --bench engine                     # 7 x 6, 2 games of each kind
//!     cargo bench --bench engine -- --games 10 --frame 7x6x4
//!     cargo bench --bench engine -- --frame 6x6x4 --games 3
//!     cargo bench --bench engine -- --past-book   # check only moves past the plan
//!     cargo bench --bench engine -- --plan        # re-solve every entry of the plan
//!
//! It prints one line per game and, at the end, the moves checked, the
//! slowest replies and how many took more than a second; it fails if any
//! engine move does not have the best exact score. On frames other than
//! 7 x 6, a move the engine says is not proven (no proof within its budget:
//! the medium search's) is counted, not checked.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use connectz_games::engine::{Level, Options, choose_with};
use connectz_games::solver::{Position, Shape, Solver};
use connectz_rng::Rng;

struct EngineBenchArgs {
    games: usize,
    shape: Shape,
    seed: u64,
    past_book: bool,
    plan: bool,
}

fn args() -> EngineBenchArgs {
    let mut out = EngineBenchArgs {
        games: 2,
        shape: Shape::CLASSIC,
        seed: 1,
        past_book: false,
        plan: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--games" => out.games = it.next().and_then(|v| v.parse().ok()).expect("--games N"),
            "--past-book" => out.past_book = true,
            "--plan" => out.plan = true,
            "--seed" => out.seed = it.next().and_then(|v| v.parse().ok()).expect("--seed N"),
            "--frame" => {
                let v: Vec<usize> = it
                    .next()
                    .expect("--frame WxHxZ")
                    .split('x')
                    .map(|n| n.parse().expect("--frame WxHxZ"))
                    .collect();
                out.shape = Shape {
                    width: v[0],
                    height: v[1],
                    z: v[2],
                };
            }
            _ => {} // cargo's own flags (--bench)
        }
    }
    out
}

/// Every column's exact score for the side to move (`None`: full), each
/// column solved on its own: the perfect opponent's choice.
fn scores(checker: &mut Solver, p: &Position) -> Vec<Option<i32>> {
    checker.reset();
    checker.analyze(p, false)
}

/// Whether `column` keeps the exact score of `p`: the score of what it
/// leaves is minus the position's (a win now: the score of a win now).
fn keeps_the_score(checker: &mut Solver, p: &Position, column: usize) -> (bool, i32, i32) {
    checker.reset();
    let score = checker.solve(p, false);
    let got = if p.is_winning_move(column) {
        p.shape().win_score(p.moves())
    } else {
        let mut child = *p;
        child.play_column(column);
        checker.reset();
        -checker.solve(&child, false)
    };
    (got == score, score, got)
}

/// Every entry of the shipped plan re-solved: its exact score, and the
/// exact score of the position its column leaves.
fn check_plan() {
    let plan = connectz_games::plan::classic();
    let mut checker = Solver::new();
    let (mut entries, mut wrong) = (0, 0);
    let start = Instant::now();
    for line in plan.to_text().lines().skip(1) {
        let moves = line.split(' ').next().expect("moves");
        let p = Position::from_moves(plan.shape(), moves).expect("an entry");
        let (column, score) = plan.get(&p).expect("an entry");
        let (ok, best, got) = keeps_the_score(&mut checker, &p, column);
        if !ok || best != score {
            wrong += 1;
            println!("WRONG {line}: the position scores {best}, its column {got}");
        }
        entries += 1;
    }
    println!(
        "plan: {entries} entries re-solved in {:.1} s, {wrong} wrong",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(wrong, 0);
}

fn main() {
    let args = args();
    if args.plan {
        check_plan();
        return;
    }
    let shape = args.shape;
    let mut players = Players {
        perfect: Options {
            shape,
            level: Level::Perfect,
        },
        greedy: Options {
            shape,
            level: Level::Easy,
        },
        // The engine as `cz play` runs it: every core on a reply.
        engine: Solver::new().with_every_core(),
        checker: Solver::new(),
    };
    let mut tally = Tally::default();
    println!(
        "frame {}x{} z={}; {} game(s) per opponent and side",
        shape.width, shape.height, shape.z, args.games
    );
    for opponent in ["random", "greedy", "perfect"] {
        for engine_first in [true, false] {
            for game in 0..args.games {
                play(
                    &args,
                    &mut players,
                    &mut tally,
                    opponent,
                    engine_first,
                    game,
                );
            }
        }
    }
    report(&mut tally);
}

/// The engine, the greedy opponent's level and the checker's solver.
struct Players {
    perfect: Options,
    greedy: Options,
    engine: Solver,
    checker: Solver,
}

/// What the games have found so far.
#[derive(Default)]
struct Tally {
    /// Every reply's time and the moves it answered.
    replies: Vec<(Duration, String)>,
    /// The engine moves already checked (position and column).
    seen: HashSet<(u128, usize)>,
    checked: usize,
    wrong: usize,
    /// Replies past the engine's exact budget, when it said it was thinking.
    thinking: usize,
    not_proven: usize,
}

/// One game of the engine against `opponent`, its line printed.
fn play(
    args: &EngineBenchArgs,
    players: &mut Players,
    tally: &mut Tally,
    opponent: &str,
    engine_first: bool,
    game: usize,
) {
    let shape = args.shape;
    let mut rng = Rng::new(args.seed * 1000 + game as u64);
    let mut p = Position::new(shape);
    let mut moves: Vec<usize> = Vec::new();
    let mut slowest = Duration::ZERO;
    loop {
        let engine_turn = moves.len().is_multiple_of(2) == engine_first;
        let column = if engine_turn {
            let (column, took) = engine_move(args, players, tally, &mut rng, &p, &moves);
            slowest = slowest.max(took);
            column
        } else {
            opponent_move(opponent, players, &mut rng, &p, &moves)
        };
        let won = p.is_winning_move(column);
        p.play_column(column);
        moves.push(column);
        if won || p.moves() == shape.cells() {
            let result = if !won {
                "draw"
            } else if engine_turn {
                "engine wins"
            } else {
                "engine loses"
            };
            println!(
                "{opponent:<8} engine {} game {game}: {result} in {} moves, slowest reply {:.3} s  {}",
                if engine_first { "first " } else { "second" },
                moves.len(),
                slowest.as_secs_f64(),
                Position::moves_text(&moves)
            );
            return;
        }
    }
}

/// The engine's reply at `p`, timed, and checked against the exact score
/// when it is one to check: its column and how long it took.
fn engine_move(
    args: &EngineBenchArgs,
    players: &mut Players,
    tally: &mut Tally,
    rng: &mut Rng,
    p: &Position,
    moves: &[usize],
) -> (usize, Duration) {
    let start = Instant::now();
    let mut thought = false;
    let choice = choose_with(
        &players.perfect,
        moves,
        &mut |n| rng.below(n),
        &mut players.engine,
        &mut || thought = true,
    );
    let took = start.elapsed();
    if took > Duration::from_secs(1) {
        println!(
            "  reply after {} took {:.1} s ({})",
            Position::moves_text(moves),
            took.as_secs_f64(),
            choice.evaluation
        );
    }
    tally.thinking += usize::from(thought);
    tally.replies.push((took, Position::moves_text(moves)));
    let book = choice.evaluation.contains("opening plan");
    // A move the engine says is not proven (frames other
    // than 7 x 6, past its budget) is counted, not checked.
    let unproven = choice.evaluation.starts_with("not proven");
    tally.not_proven += usize::from(unproven);
    let skipped = unproven || (book && args.past_book);
    if !skipped && tally.seen.insert((p.symmetric_key(), choice.column)) {
        let (ok, score, got) = keeps_the_score(&mut players.checker, p, choice.column);
        if !ok {
            tally.wrong += 1;
            println!(
                "NOT PERFECT after {}: played {} ({}), scoring {got} where {score} was possible",
                Position::moves_text(moves),
                choice.column + 1,
                choice.evaluation
            );
        }
        tally.checked += 1;
    }
    (choice.column, took)
}

/// The opponent's move at `p`: a random column, the easy level's, or a
/// random one of the best exact score.
fn opponent_move(
    opponent: &str,
    players: &mut Players,
    rng: &mut Rng,
    p: &Position,
    moves: &[usize],
) -> usize {
    let shape = p.shape();
    match opponent {
        "random" => {
            let playable: Vec<usize> = (0..shape.width).filter(|&c| p.can_play(c)).collect();
            playable[rng.below(playable.len() as u64) as usize]
        }
        "greedy" => {
            choose_with(
                &players.greedy,
                moves,
                &mut |n| rng.below(n),
                &mut players.engine,
                &mut || {},
            )
            .column
        }
        _ => {
            let all = scores(&mut players.checker, p);
            let best = all.iter().flatten().max().copied();
            let tied: Vec<usize> = (0..shape.width).filter(|&c| all[c] == best).collect();
            tied[rng.below(tied.len() as u64) as usize]
        }
    }
}

/// The moves checked, the slowest replies; fails when a move was not
/// perfect.
fn report(tally: &mut Tally) {
    let replies = &mut tally.replies;
    replies.sort_by_key(|r| std::cmp::Reverse(r.0));
    let over = replies
        .iter()
        .filter(|(t, _)| *t > Duration::from_secs(1))
        .count();
    let median = replies[replies.len() / 2].0;
    println!(
        "\n{} distinct engine moves checked, {} without the best exact score; the engine thought (past {} nodes) {} times; {} moves not proven (the medium search's)",
        tally.checked,
        tally.wrong,
        connectz_games::engine::EXACT_NODES,
        tally.thinking,
        tally.not_proven
    );
    println!(
        "replies: median {:.3} s, {over} over a second; slowest:",
        median.as_secs_f64()
    );
    for (t, moves) in replies.iter().take(5) {
        println!("  {:>8.3} s  after {moves}", t.as_secs_f64());
    }
    assert_eq!(tally.wrong, 0, "engine moves without the best exact score");
}
