//! The solver bench: every position of the public benchmark sets of Pascal
//! Pons' solver (tests/data/solver), solved exactly; mean nodes per position
//! next to his published figures (machine-independent), and mean time.
//!
//!     cargo bench --bench solver

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use connectz_games::solver::{Position, Shape, Solver};

/// (file, set name, published mean nodes of the reference solver).
const SETS: [(&str, &str, f64); 3] = [
    ("Test_L3_R1", "End-Easy", 51.28),
    ("Test_L2_R1", "Middle-Easy", 449.6),
    ("Test_L1_R1", "Begin-Easy", 3298.0),
];

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver");
    let mut solver = Solver::new();
    println!(
        "{:<12} {:>9} {:>7} {:>12} {:>12} {:>9} {:>12}",
        "set", "positions", "exact", "mean nodes", "published", "ratio", "mean time"
    );
    for (file, name, published) in SETS {
        let text = fs::read_to_string(dir.join(file)).expect("benchmark set");
        let (mut count, mut exact, mut nodes) = (0u64, 0u64, 0u64);
        let start = Instant::now();
        for line in text.lines() {
            let Some((moves, score)) = line.split_once(' ') else {
                continue;
            };
            let position = Position::from_moves(Shape::CLASSIC, moves).expect("legal position");
            solver.reset();
            let got = solver.solve(&position, false);
            nodes += solver.nodes();
            count += 1;
            exact += u64::from(score.trim().parse::<i32>().ok() == Some(got));
        }
        let elapsed = start.elapsed().as_secs_f64();
        let mean = nodes as f64 / count as f64;
        println!(
            "{:<12} {:>9} {:>7} {:>12.2} {:>12.2} {:>9.3} {:>9.3} ms",
            name,
            count,
            exact,
            mean,
            published,
            mean / published,
            elapsed * 1e3 / count as f64
        );
        assert_eq!(exact, count, "{name}: not every score is exact");
    }
}
