//! `cz solve`: positions, one per line, with their exact scores; several
//! positions at once on `jobs` threads, or one position on all of them.

use std::io::{self, Write};
use std::sync::Mutex;
use std::time::Instant;

use connectz_games::solver::{Position, Shape, Solver, column_char};
use rayon::prelude::*;

/// What to print for each position, and how to search.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// The frame and line length.
    pub shape: Shape,
    /// Only the sign of the score.
    pub weak: bool,
    /// Add the best column.
    pub best: bool,
    /// Add the nodes searched, and the means at the end.
    pub stats: bool,
    /// Megabytes of transposition table per thread.
    pub table_mb: usize,
    /// Threads.
    pub jobs: usize,
}

/// The widest frame whose columns one character each can name (1-9, a-z).
pub const MAX_WIDTH: usize = 35;

/// Why a frame cannot be solved, if it cannot.
pub fn check_frame(shape: Shape) -> Result<(), String> {
    if !shape.fits() || shape.width > MAX_WIDTH {
        return Err(format!(
            "{} x {} is too large to solve exactly: width * (height + 1) must be at most 128, and positions name a column by one character (1-9, then a-z), so width at most {MAX_WIDTH}",
            shape.width, shape.height
        ));
    }
    Ok(())
}

/// One position's line and its node count; `None` nodes for an invalid one.
type Solved = (String, Option<u64>);

fn solve_one(engine: &mut Solver, moves: &str, request: &Request) -> Solved {
    let position = match Position::from_moves(request.shape, moves) {
        Ok(p) => p,
        Err(e) => return (format!("{moves} invalid: {e}"), None),
    };
    engine.reset();
    let score = engine.solve(&position, request.weak);
    let searched = engine.nodes();
    let mut text = format!("{moves} {score}");
    if request.best {
        let width = request.shape.width;
        let scores = engine.analyze(&position, request.weak);
        let column = (0..width)
            .filter(|&c| scores[c].is_some())
            .max_by_key(|&c| (scores[c], std::cmp::Reverse(c.abs_diff(width / 2))));
        text.push_str(
            &column
                .and_then(|c| column_char(c + 1))
                .map_or(" -".into(), |c| format!(" {c}")),
        );
    }
    if request.stats {
        text.push_str(&format!(" nodes={searched}"));
    }
    (text, Some(searched))
}

/// Solves every position of `input` (the first token of each line: columns
/// from the empty frame) and writes one line per position, in order.
/// Returns the number of invalid positions.
///
/// With one job, or one position, lines are written as they are solved
/// (one position uses every job: threads that share its table). With more
/// positions than one, they are solved side by side, each thread with its
/// own table, and written in order a batch at a time.
///
/// # Errors
/// Errors of `out`, or threads that cannot be started.
pub fn solve_positions(input: &str, request: Request, out: &mut dyn Write) -> io::Result<u64> {
    let jobs = request.jobs.max(1);
    let lines: Vec<&str> = input
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let (mut solved, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    let mut tally = |(text, searched): Solved, out: &mut (dyn Write + '_)| -> io::Result<()> {
        match searched {
            Some(n) => {
                solved += 1;
                nodes += n;
            }
            None => failed += 1,
        }
        writeln!(out, "{text}")
    };
    if jobs == 1 || lines.len() <= 1 {
        let mut engine = Solver::with_table_mb(request.table_mb).with_jobs(jobs);
        for moves in &lines {
            tally(solve_one(&mut engine, moves, &request), out)?;
        }
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(io::Error::other)?;
        // One solver (one table) per thread, handed out and given back.
        let engines: Mutex<Vec<Solver>> = Mutex::new(Vec::new());
        let take = || {
            engines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .pop()
                .unwrap_or_else(|| Solver::with_table_mb(request.table_mb))
        };
        let give = |engine: Solver| {
            engines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(engine)
        };
        for batch in lines.chunks(16 * jobs) {
            let results: Vec<Solved> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|moves| {
                        let mut engine = take();
                        let result = solve_one(&mut engine, moves, &request);
                        give(engine);
                        result
                    })
                    .collect()
            });
            for result in results {
                tally(result, out)?;
            }
            out.flush()?;
        }
    }
    if request.stats && solved > 0 {
        let elapsed = started.elapsed().as_secs_f64();
        writeln!(
            out,
            "# {solved} positions: mean {:.2} nodes, mean {:.3} ms per position, {:.2} M nodes/s",
            nodes as f64 / solved as f64,
            elapsed * 1e3 / solved as f64,
            nodes as f64 / elapsed / 1e6
        )?;
    }
    Ok(failed)
}
