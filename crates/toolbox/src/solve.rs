//! `cz solve`: positions, one per line, with their exact scores; several
//! positions at once on `jobs` threads, or one position on all of them.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use connectz_games::solver::{BookChoice, Position, Shape, Solver, column_char};

use crate::input::{HeldLine, next_token};

/// What to print for each position, and how to search.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// The frame and the length of a winning run.
    pub shape: Shape,
    /// Only the sign of the score.
    pub weak: bool,
    /// Add the best column.
    pub best: bool,
    /// Every column's score instead of the position's.
    pub scores: bool,
    /// Add the nodes searched, and the means at the end.
    pub stats: bool,
    /// Megabytes of transposition table per thread.
    pub table_mb: usize,
    /// Threads.
    pub jobs: usize,
    /// Keep each worker's table from one position to the next: positions
    /// side by side (a book's, in order) share much of their trees, and the
    /// scores are the same (a table holds only true bounds), but the node
    /// counts then depend on what came before.
    pub keep_table: bool,
    /// The opening book the solvers look positions up in (r[solve.book]):
    /// the shipped one (read only when a position it can answer or bound
    /// comes), one given, or none (every position searched).
    pub book: BookChoice,
}

/// The widest frame whose columns one character each can name (1-9, a-z).
pub const MAX_WIDTH: usize = 35;

/// Why a frame cannot be solved, if it cannot.
pub fn check_frame(shape: Shape) -> Result<(), String> {
    if shape.width == 0 || shape.height == 0 || shape.z == 0 {
        return Err(format!(
            "width, height and connect must be at least 1 (got {} x {}, runs of {})",
            shape.width, shape.height, shape.z
        ));
    }
    if !shape.fits() {
        return Err(format!(
            "{} x {} is too large to solve exactly: width * (height + 1) must be at most 128",
            shape.width, shape.height
        ));
    }
    if shape.width > MAX_WIDTH {
        return Err(format!(
            "{} x {} is too large to solve exactly here: positions name a column by one character (1-9, then a-z), so the width is at most {MAX_WIDTH}",
            shape.width, shape.height
        ));
    }
    Ok(())
}

/// A solver with the table asked for, or why the memory cannot be had;
/// it looks positions up in the book `book` names.
pub fn solver(table_mb: usize, book: &BookChoice) -> io::Result<Solver> {
    let solver = Solver::try_with_table_mb(table_mb)
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    Ok(solver.with_book_choice(book.clone()))
}

/// One position's line and its node count; `None` nodes for an invalid one.
type Solved = (String, Option<u64>);

/// How much of a position too long for its frame is shown.
const SHOWN: usize = 10;

fn solve_one(engine: &mut Solver, token: &HeldLine, request: &SolveRequest) -> Solved {
    // r[solve.position]: more moves than the frame has cells is invalid,
    // and was read without being held.
    if !token.whole() {
        return (
            format!(
                "{} invalid: longer than the frame's {} cells",
                token.cut(SHOWN),
                request.shape.width * request.shape.height
            ),
            None,
        );
    }
    let line = &token.kept;
    // r[solve.position]: a line that is not text is reported, and the next
    // one solved.
    let Ok(moves) = std::str::from_utf8(line) else {
        let shown = String::from_utf8_lossy(line);
        return (format!("{shown} invalid: not UTF-8 text"), None);
    };
    let position = match Position::from_moves(request.shape, moves) {
        Ok(p) => p,
        Err(e) => return (format!("{moves} invalid: {e}"), None),
    };
    if !request.keep_table {
        engine.reset();
    }
    let mut text;
    let searched;
    if request.scores {
        // r[solve.scores]: a column's score is what the position scores once
        // the side to move plays there (negated: the other side moves next);
        // a column that completes a run scores the win it completes.
        // With --weak, only the sign of each (a column that wins at once
        // scores its win in full otherwise).
        let scores = engine.analyze(&position, request.weak);
        searched = engine.nodes();
        text = moves.to_string();
        for score in scores {
            match score {
                Some(score) if request.weak => text.push_str(&format!(" {}", score.signum())),
                Some(score) => text.push_str(&format!(" {score}")),
                None => text.push_str(" -"),
            }
        }
    } else if request.best {
        let (score, column) = engine
            .best_within(&position, request.weak, u64::MAX)
            .expect("a search without a budget ends with a score");
        searched = engine.nodes();
        text = format!("{moves} {score}");
        text.push_str(
            &column
                .and_then(|c| column_char(c + 1))
                .map_or(" -".into(), |c| format!(" {c}")),
        );
    } else {
        let score = engine.solve(&position, request.weak);
        searched = engine.nodes();
        text = format!("{moves} {score}");
    }
    if request.stats {
        text.push_str(&format!(" nodes={searched}"));
    }
    (text, Some(searched))
}

/// Solves every position of `input` (the first token of each line: columns
/// from the empty frame; of a token longer than the frame's cells, only the
/// frame's cells are held) and writes one line per position, in order, each
/// as soon as it and those before it are solved. Returns the number of
/// invalid positions.
///
/// With one job, or one position, one solver takes them in turn (one
/// position uses every job: threads that share its table). With more, each
/// of `jobs` workers makes one solver (one table) and takes the next block
/// of consecutive positions until none is left: the work is linear in the
/// positions.
///
/// # Errors
/// Errors of `input` or `out`, or a table whose memory cannot be had.
pub fn solve_positions(
    mut input: impl BufRead,
    request: SolveRequest,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let jobs = request.jobs.max(1);
    let cells = request.shape.width * request.shape.height;
    let mut lines = Vec::new();
    while let Some(token) = next_token(&mut input, cells)? {
        lines.push(token);
    }
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
        let mut engine = solver(request.table_mb, &request.book)?.with_jobs(jobs);
        for line in &lines {
            tally(solve_one(&mut engine, line, &request), out)?;
        }
    } else {
        let engines = (0..jobs.min(lines.len()))
            .map(|_| solver(request.table_mb, &request.book))
            .collect::<io::Result<Vec<Solver>>>()?;
        let next = AtomicUsize::new(0);
        // Each worker takes consecutive positions, a block at a time: with
        // the table kept, positions next to each other (siblings, as `cz
        // book` lists them) share much of their trees (the depth-9 book's
        // positions on two workers: 8 % fewer nodes in two halves, 5 % in
        // blocks of 16, than taken in turn). Blocks stay small beside the
        // whole, so that the workers end together.
        let block = (lines.len() / (jobs * 8)).clamp(1, 64);
        let (sender, results) = mpsc::channel::<(usize, Solved)>();
        std::thread::scope(|scope| -> io::Result<()> {
            // A worker the system will not start is done without: the others
            // take its positions (none at all is an error, not a hang).
            let mut started = 0;
            for mut engine in engines {
                let (sender, next, lines, request) = (sender.clone(), &next, &lines, &request);
                let worker = std::thread::Builder::new().spawn_scoped(scope, move || {
                    'blocks: loop {
                        let first = next.fetch_add(block, Ordering::Relaxed);
                        if first >= lines.len() {
                            break;
                        }
                        for (i, line) in lines.iter().enumerate().skip(first).take(block) {
                            if sender
                                .send((i, solve_one(&mut engine, line, request)))
                                .is_err()
                            {
                                break 'blocks;
                            }
                        }
                    }
                });
                started += usize::from(worker.is_ok());
            }
            drop(sender);
            if started == 0 {
                return Err(io::Error::other("no thread could be started to solve on"));
            }
            // Results arrive in any order; each is written once those before
            // it are.
            let mut waiting = BTreeMap::new();
            let mut written = 0;
            let mut outcome = Ok(());
            for (i, result) in results {
                waiting.insert(i, result);
                while let Some(result) = waiting.remove(&written) {
                    if outcome.is_ok() {
                        outcome = tally(result, out);
                    }
                    written += 1;
                }
                if outcome.is_ok() && waiting.is_empty() {
                    outcome = out.flush();
                }
                if outcome.is_err() {
                    // Stop the workers: no one reads what they find.
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                }
            }
            outcome
        })?;
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
        // Reading the shipped book is the first such position's wait
        // (r[solve.book]): said, since the mean time holds it.
        if matches!(request.book, BookChoice::Shipped) && connectz_games::book::classic_is_read() {
            writeln!(
                out,
                "# the shipped book was read: {} positions (its reading is in the mean time)",
                connectz_games::book::classic().len()
            )?;
        }
    }
    Ok(failed)
}
