//! The solver bench: positions solved exactly, with the mean nodes per
//! position next to the published figures of Pascal Pons' solver (which do
//! not depend on the machine), the mean time, and nodes per second.
//!
//!     cargo bench -p connectz-bench --bench solver             # every set
//!     cargo bench -p connectz-bench --bench solver -- --quick  # the first positions of each
//!     cargo bench -p connectz-bench --bench solver -- --table-mb 64 --sets begin-hard
//!
//! The solver searches without its opening book (`Solver::without_book`):
//! the Begin sets hold positions of 4 and 5 moves, which the shipped book
//! would answer without a search, and the reference runs without its book
//! too.
//!
//! It lives in a crate of its own, `connectz-bench`, which is no default
//! member of the workspace: `connect-four-ai` (below) and what it brings
//! stay out of `cargo test` and `cargo build`.
//!
//! The shared sets (`crates/games/tests/data/solver`) are the public End-Easy,
//! Middle-Easy and Begin-Easy sets. The Medium and Hard sets are not public;
//! `benches/positions` holds sets made the same way (see its README): their
//! published figures are those of the public sets of the same names, on
//! other positions, so they are a guide, not a pairing. Every score must be
//! exact. A last table solves the Begin-Hard positions on one thread and on
//! two sharing a table.
//!
//! Side by side with another solver (Pascal Pons' `c4solver`, built beside
//! the project; it is not part of it):
//!
//!     cargo bench -p connectz-bench --bench solver -- --reference /path/to/c4solver --runs 3
//!     cargo bench -p connectz-bench --bench solver -- --reference /path/to/c4solver --empty
//!     cargo bench -p connectz-bench --bench solver -- --c4ai --runs 3
//!
//! `--reference CMD` runs CMD (split on spaces) once per set and run, in an
//! empty directory (so that it finds no opening book), with the set's
//! positions on its standard input, one thread; its scores must agree.
//! Each run times the whole set in both solvers, the reference's time
//! including its start; the table gives the medians over `--runs` and
//! their ratio. `--empty` adds the empty 7 x 6 board, weakly solved: one
//! thread and two threads sharing a table, the medians of `--runs`, and the
//! reference once with `-w`.
//!
//! `--c4ai` adds `connect-four-ai` (crates.io; a Rust solver also on PyPI
//! and npm), built without its opening book (`Solver::empty`), solving each
//! set in this process on one thread, its table reset before each position
//! as ours is; its scores must agree too. With both, the table has both
//! columns, each ratio connectz's time over theirs.

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use connectz_games::solver::{DEFAULT_TABLE_MB, Position, Shape, Solver};

/// (file, set name, published mean nodes of the reference solver).
const SETS: [(&str, &str, f64); 6] = [
    ("../games/tests/data/solver/Test_L3_R1", "End-Easy", 51.28),
    (
        "../games/tests/data/solver/Test_L2_R1",
        "Middle-Easy",
        449.6,
    ),
    (
        "../games/tests/data/solver/Test_L1_R1",
        "Begin-Easy",
        3_298.0,
    ),
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

struct SolverBenchArgs {
    quick: bool,
    table_mb: usize,
    sets: Option<Vec<String>>,
    reference: Option<String>,
    runs: usize,
    empty: bool,
    c4ai: bool,
}

fn args() -> SolverBenchArgs {
    let mut out = SolverBenchArgs {
        quick: false,
        table_mb: DEFAULT_TABLE_MB,
        sets: None,
        reference: None,
        runs: 1,
        empty: false,
        c4ai: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => out.quick = true,
            "--empty" => out.empty = true,
            "--c4ai" => out.c4ai = true,
            "--reference" => out.reference = Some(it.next().expect("--reference CMD")),
            "--runs" => out.runs = it.next().and_then(|v| v.parse().ok()).expect("--runs N"),
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

/// Runs the reference on `moves` (one position a line) in an empty
/// directory; returns its seconds and the scores it printed.
fn reference(command: &str, extra: &[&str], moves: &str) -> (f64, Vec<i32>) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("connectz-bench-ref-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a scratch directory");
    let mut words = command.split_whitespace();
    let program = fs::canonicalize(words.next().expect("a command")).expect("the reference");
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(words)
        .args(extra)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the reference starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(moves.as_bytes())
        .expect("positions written");
    let out = child.wait_with_output().expect("the reference ends");
    let seconds = start.elapsed().as_secs_f64();
    let _ = fs::remove_dir_all(&dir);
    let scores = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            l.split_whitespace()
                .last()
                .and_then(|s| s.parse().ok())
                .expect("a score")
        })
        .collect();
    (seconds, scores)
}

/// A figure for one thread and for two, run by run.
type ByThreads = [Vec<f64>; 2];

/// Runs `once` on a fresh solver of one thread, then of two sharing a
/// table, `runs` times in turn (a shared machine's second core comes and
/// goes, so both see the same spells); returns the seconds and the nodes
/// `once` gave.
fn one_and_two_threads(
    runs: usize,
    table_mb: usize,
    mut once: impl FnMut(&mut Solver) -> (f64, f64),
) -> (ByThreads, ByThreads) {
    let (mut times, mut nodes) = (ByThreads::default(), ByThreads::default());
    for _ in 0..runs.max(1) {
        for jobs in [1, 2] {
            let mut solver = Solver::with_table_mb(table_mb)
                .without_book()
                .with_jobs(jobs);
            let (seconds, n) = once(&mut solver);
            times[jobs - 1].push(seconds);
            nodes[jobs - 1].push(n);
        }
    }
    (times, nodes)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Solves every position with `connect-four-ai` (no book, one thread, its
/// table reset before each); returns the seconds for the whole set.
fn c4ai(positions: &[(Position, i32, String)]) -> f64 {
    let mut solver = connect_four_ai::Solver::empty();
    let start = Instant::now();
    for (_, want, moves) in positions {
        let p = connect_four_ai::Position::from_moves(moves).expect("a legal position");
        solver.reset();
        let got = solver.solve(&p);
        assert_eq!(i32::from(got), *want, "{moves}: connect-four-ai's score");
    }
    start.elapsed().as_secs_f64()
}

/// The sets side by side with the reference and `connect-four-ai`, each
/// run in turn with ours; the ratios are connectz's time over theirs.
fn side_by_side(args: &SolverBenchArgs) {
    let reference = args.reference.as_deref();
    println!(
        "\nSide by side, one thread each, median of {} run(s) (each ratio: the \
         median of each run's connectz / other, the solvers run in turn):",
        args.runs
    );
    if let Some(command) = reference {
        println!("reference: {command}");
    }
    print!("{:<14} {:>9} {:>12}", "set", "positions", "connectz");
    if reference.is_some() {
        print!(" {:>12} {:>7}", "reference", "ratio");
    }
    if args.c4ai {
        print!(" {:>16} {:>7}", "connect-four-ai", "ratio");
    }
    println!();
    for (file, name, _) in SETS {
        if args
            .sets
            .as_ref()
            .is_some_and(|s| !s.contains(&name.to_lowercase()))
        {
            continue;
        }
        let positions = load(file);
        let moves: String = positions.iter().map(|(_, _, m)| format!("{m}\n")).collect();
        let want: Vec<i32> = positions.iter().map(|(_, s, _)| *s).collect();
        let (mut ours, mut theirs, mut c4, mut to_ref, mut to_c4) =
            (vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..args.runs.max(1) {
            let mut solver = Solver::with_table_mb(args.table_mb).without_book();
            let (exact, _, mean) = run(&mut solver, &positions);
            assert_eq!(exact, positions.len());
            let mine = mean * positions.len() as f64;
            ours.push(mine);
            if let Some(command) = reference {
                let (seconds, scores) = self::reference(command, &[], &moves);
                assert_eq!(scores, want, "{name}: the reference's scores differ");
                theirs.push(seconds);
                to_ref.push(mine / seconds);
            }
            if args.c4ai {
                let seconds = c4ai(&positions);
                c4.push(seconds);
                to_c4.push(mine / seconds);
            }
        }
        print!(
            "{:<14} {:>9} {:>10.2} s",
            name,
            positions.len(),
            median(ours)
        );
        if reference.is_some() {
            print!(" {:>10.2} s {:>7.2}", median(theirs), median(to_ref));
        }
        if args.c4ai {
            print!(" {:>14.2} s {:>7.2}", median(c4), median(to_c4));
        }
        println!();
    }
}

/// The empty 7 x 6 board, weakly solved: one thread and two in turn,
/// `--runs` times (the medians, and the slowest run: two threads' node
/// counts vary from run to run), then the reference once.
fn empty_board(args: &SolverBenchArgs) {
    let p = Position::new(Shape::CLASSIC);
    let runs = args.runs.max(1);
    println!("\nThe empty 7 x 6 board, weak (median of {runs} run(s)):");
    println!(
        "{:<22} {:>10} {:>10} {:>14} {:>6} {:>9}",
        "solver", "time", "slowest", "nodes", "score", "vs one"
    );
    let (times, nodes) = one_and_two_threads(runs, args.table_mb, |solver| {
        let start = Instant::now();
        let score = solver.solve(&p, true);
        assert_eq!(score, 1, "the first player wins");
        (start.elapsed().as_secs_f64(), solver.nodes() as f64)
    });
    let one = median(times[0].clone());
    for jobs in [1, 2] {
        let seconds = median(times[jobs - 1].clone());
        let slowest = times[jobs - 1].iter().cloned().fold(0.0, f64::max);
        println!(
            "{:<22} {:>8.1} s {:>8.1} s {:>14.0} {:>6} {:>8.2}x",
            format!("connectz, {jobs} thread(s)"),
            seconds,
            slowest,
            median(nodes[jobs - 1].clone()),
            1,
            one / seconds
        );
    }
    if let Some(command) = &args.reference {
        let (seconds, scores) = reference(command, &["-w"], "\n");
        assert_eq!(scores, [1], "the reference's weak score of the empty board");
        println!(
            "{:<22} {:>8.1} s {:>10} {:>14} {:>6} {:>8.2}x",
            "reference, 1 thread",
            seconds,
            "-",
            "-",
            scores[0],
            one / seconds
        );
        println!(
            "connectz / reference, one thread each: {:.2}",
            one / seconds
        );
    }
}

fn main() {
    let args = args();
    let mut solver = Solver::with_table_mb(args.table_mb).without_book();
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
        println!(
            "\nBegin-Hard, one position at a time (median of {} run(s)):",
            args.runs.max(1)
        );
        println!(
            "{:<8} {:>12} {:>14} {:>9}",
            "threads", "mean time", "mean nodes", "speed-up"
        );
        let (times, nodes) = one_and_two_threads(args.runs, args.table_mb, |solver| {
            let (exact, mean, seconds) = run(solver, &hard);
            assert_eq!(exact, hard.len());
            (seconds, mean)
        });
        let base = median(times[0].clone());
        for jobs in [1, 2] {
            let seconds = median(times[jobs - 1].clone());
            println!(
                "{:<8} {:>9.3} s {:>14.1} {:>8.2}x",
                jobs,
                seconds,
                median(nodes[jobs - 1].clone()),
                base / seconds
            );
        }
    }
    if args.reference.is_some() || args.c4ai {
        side_by_side(&args);
    }
    if args.empty {
        empty_board(&args);
    }
}
