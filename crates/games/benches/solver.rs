//! The solver bench: positions solved exactly, with the mean nodes per
//! position next to the published figures of Pascal Pons' solver (which do
//! not depend on the machine), the mean time, and nodes per second.
//!
//!     cargo bench --bench solver                 # every set
//!     cargo bench --bench solver -- --quick      # the first positions of each
//!     cargo bench --bench solver -- --table-mb 64 --sets begin-hard
//!
//! The shared sets (`tests/data/solver`) are the public End-Easy,
//! Middle-Easy and Begin-Easy sets. The Medium and Hard sets are not public;
//! `benches/positions` holds sets made the same way (see its README): their
//! published figures are those of the public sets of the same names, on
//! other positions, so they are a guide, not a pairing. Every score must be
//! exact. A last table solves the Begin-Hard positions on one thread and on
//! two sharing a table.

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use connectz_games::solver::{DEFAULT_TABLE_MB, Position, Shape, Solver};

/// (file, set name, published mean nodes of the reference solver).
const SETS: [(&str, &str, f64); 6] = [
    ("../../tests/data/solver/Test_L3_R1", "End-Easy", 51.28),
    ("../../tests/data/solver/Test_L2_R1", "Middle-Easy", 449.6),
    ("../../tests/data/solver/Test_L1_R1", "Begin-Easy", 3_298.0),
    (
        "benches/positions/middle-medium.txt",
        "Middle-Medium",
        39_900.0,
    ),
    (
        "benches/positions/begin-medium.txt",
        "Begin-Medium",
        1_201_000.0,
    ),
    (
        "benches/positions/begin-hard.txt",
        "Begin-Hard",
        65_920_000.0,
    ),
];

struct Args {
    quick: bool,
    table_mb: usize,
    sets: Option<Vec<String>>,
}

fn args() -> Args {
    let mut out = Args {
        quick: false,
        table_mb: DEFAULT_TABLE_MB,
        sets: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => out.quick = true,
            "--table-mb" => {
                out.table_mb = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--table-mb N")
            }
            "--sets" => {
                out.sets = Some(
                    it.next()
                        .expect("--sets a,b")
                        .split(',')
                        .map(str::to_lowercase)
                        .collect(),
                );
            }
            _ => {} // cargo's own flags (--bench)
        }
    }
    out
}

/// Positions and scores of a set.
fn load(file: &str) -> Vec<(Position, i32, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("moves score");
            let p = Position::from_moves(Shape::CLASSIC, moves).expect("legal position");
            (p, score.trim().parse().expect("score"), moves.to_string())
        })
        .collect()
}

/// Solves every position; returns (exact, mean nodes, mean seconds).
fn run(solver: &mut Solver, positions: &[(Position, i32, String)]) -> (usize, f64, f64) {
    let (mut exact, mut nodes) = (0, 0u64);
    let start = Instant::now();
    for (p, want, moves) in positions {
        solver.reset();
        let got = solver.solve(p, false);
        nodes += solver.nodes();
        if got == *want {
            exact += 1;
        } else {
            eprintln!("{moves}: got {got}, expected {want}");
        }
    }
    let n = positions.len() as f64;
    (exact, nodes as f64 / n, start.elapsed().as_secs_f64() / n)
}

fn main() {
    let args = args();
    let mut solver = Solver::with_table_mb(args.table_mb);
    println!(
        "table: {} MB; {} mode",
        solver.table_bytes() >> 20,
        if args.quick { "quick" } else { "full" }
    );
    println!(
        "{:<14} {:>9} {:>6} {:>14} {:>14} {:>7} {:>12} {:>10}",
        "set", "positions", "exact", "mean nodes", "published", "ratio", "mean time", "M nodes/s"
    );
    let mut hard = Vec::new();
    for (file, name, published) in SETS {
        if args
            .sets
            .as_ref()
            .is_some_and(|s| !s.contains(&name.to_lowercase()))
        {
            continue;
        }
        let mut positions = load(file);
        if args.quick {
            positions.truncate(if name.starts_with("Begin-H") { 1 } else { 20 });
        }
        let (exact, mean, seconds) = run(&mut solver, &positions);
        println!(
            "{:<14} {:>9} {:>6} {:>14.1} {:>14.1} {:>7.3} {:>9.3} ms {:>10.2}",
            name,
            positions.len(),
            exact,
            mean,
            published,
            mean / published,
            seconds * 1e3,
            mean / seconds / 1e6
        );
        assert_eq!(exact, positions.len(), "{name}: not every score is exact");
        if name == "Begin-Hard" {
            hard = positions;
        }
    }
    if !hard.is_empty() {
        // One hard position on one thread, then on two sharing the table.
        println!("\nBegin-Hard, one position at a time:");
        println!(
            "{:<8} {:>12} {:>14} {:>9}",
            "threads", "mean time", "mean nodes", "speed-up"
        );
        let mut base = 0.0;
        for jobs in [1, 2] {
            let mut solver = Solver::with_table_mb(args.table_mb).with_jobs(jobs);
            let (exact, mean, seconds) = run(&mut solver, &hard);
            assert_eq!(exact, hard.len());
            if jobs == 1 {
                base = seconds;
            }
            println!(
                "{:<8} {:>9.3} s {:>14.1} {:>8.2}x",
                jobs,
                seconds,
                mean,
                base / seconds
            );
        }
    }
}
