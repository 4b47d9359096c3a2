//! Every column's score (`Solver::analyze`, what `connectz.scores`, `cz
//! solve --scores` and the page's "Scores" call) at random 7 x 6 positions
//! of every number of moves, one thread, as a user gets it: a fresh solver
//! for each position (its table cleared), the shipped book consulted.
//!
//!     cargo bench -p connectz-games --bench analysis                    # 20 positions a depth, 0 to 20
//!     cargo bench -p connectz-games --bench analysis -- --positions 200 --most 20 --seed 1
//!     cargo bench -p connectz-games --bench analysis -- --no-book       # the search alone
//!     cargo bench -p connectz-games --bench analysis -- --least 6 --most 13
//!     cargo bench -p connectz-games --bench analysis -- --engine        # the perfect engine's move
//!
//! `--least` skips the depths below it (their positions are still drawn, so
//! a depth's positions do not depend on it).
//!
//! A position of d moves is d columns played at random from the empty
//! frame, never one that completes a run (so the game goes on). For each
//! depth it prints the median and the slowest time, how many positions took
//! more than 100 ms (the most an answer to a typed position should take),
//! and the slowest position's nodes (the nodes do not depend on the
//! machine; the times do).
//!
//! With `--engine` it times the perfect engine's move instead (`engine::choose`,
//! what `cz play`, `connectz.Engine("perfect").move` and the page's engine
//! call: its plan, else the solver), one thread, at the same positions, and
//! counts the replies over 500 ms (the most a player should wait for the
//! engine's move).

use std::time::Instant;

use connectz_games::engine::{self, Level, Options};
use connectz_games::solver::{Position, Shape, Solver};
use connectz_rng::Rng;

fn main() {
    let (mut positions, mut least, mut most, mut seed, mut book, mut engine) =
        (20usize, 0usize, 20usize, 1u64, true, false);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> u64 {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} N"))
        };
        match a.as_str() {
            "--positions" => positions = number("--positions") as usize,
            "--least" => least = number("--least") as usize,
            "--most" => most = number("--most") as usize,
            "--seed" => seed = number("--seed"),
            "--no-book" => book = false,
            "--engine" => engine = true,
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let shape = Shape::CLASSIC;
    let mut rng = Rng::new(seed);
    // The book is read (and checked) once, when a solver first needs it.
    let started = Instant::now();
    let entries = connectz_games::book::classic().len();
    println!(
        "the shipped book: {entries} positions, read in {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    let (what, limit) = if engine {
        ("the perfect engine's move", 500.0)
    } else {
        ("every column's score", 100.0)
    };
    println!(
        "{what}, 7 x 6, {positions} random positions a depth, one thread, seed {seed}, {}",
        if book { "the shipped book" } else { "no book" }
    );
    println!(
        "moves  median ms  slowest ms  over {limit} ms    all nodes  slowest nodes  slowest position"
    );
    for depth in 0..=most {
        let mut times = Vec::new();
        let mut slowest = (0.0f64, 0u64, Vec::new());
        let mut nodes = 0;
        for _ in 0..positions {
            let (p, columns) = random_position(shape, depth, &mut rng);
            if depth < least {
                continue;
            }
            let mut solver = Solver::new();
            if !book {
                solver = solver.without_book();
            }
            let started = Instant::now();
            if engine {
                let options = Options {
                    shape,
                    level: Level::Perfect,
                };
                let choice = engine::choose(&options, &columns, &mut |_| 0, &mut solver);
                assert!(p.can_play(choice.column));
            } else {
                let scores = solver.analyze(&p, false);
                assert_eq!(scores.len(), shape.width);
            }
            let ms = started.elapsed().as_secs_f64() * 1e3;
            nodes += solver.nodes();
            if ms >= slowest.0 {
                slowest = (ms, solver.nodes(), columns);
            }
            times.push(ms);
        }
        if depth < least {
            continue;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{depth:>5}  {:>9.1}  {:>10.1}  {:>11}  {nodes:>11}  {:>13}  {}",
            times[times.len() / 2],
            slowest.0,
            times.iter().filter(|&&ms| ms > limit).count(),
            slowest.1,
            Position::moves_text(&slowest.2)
        );
    }
}

/// `depth` random columns from the empty frame, none completing a run (a
/// position where every column would is left for the moves played so far):
/// the position and its columns, 0-based.
fn random_position(shape: Shape, depth: usize, rng: &mut Rng) -> (Position, Vec<usize>) {
    'again: loop {
        let mut p = Position::new(shape);
        let mut columns = Vec::with_capacity(depth);
        for _ in 0..depth {
            let open: Vec<usize> = (0..shape.width)
                .filter(|&c| p.can_play(c) && !p.is_winning_move(c))
                .collect();
            if open.is_empty() {
                continue 'again;
            }
            let c = open[rng.below(open.len() as u64) as usize];
            p.play_column(c);
            columns.push(c);
        }
        return (p, columns);
    }
}
