//! `cz book`: makes an opening book with the project's own solver, level by
//! level, positions side by side, appending each score to the file as it is
//! found, so that an interrupted run resumes where it stopped.

use std::fs::{self, OpenOptions};
use std::io::{LineWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use connectz_games::book::{self, Book};
use connectz_games::plan::{self, Plan};
use connectz_games::solver::{BookChoice, Position, Shape, Solver};

use crate::solve::{SolveRequest, solve_positions};
use crate::{Context, Error, Result};

/// What book to make.
#[derive(Clone, Debug)]
pub struct BookRequest {
    /// The frame.
    pub shape: Shape,
    /// Every position of at most this many moves.
    pub depth: usize,
    /// Signs only (much faster than exact scores).
    pub weak: bool,
    /// Threads.
    pub jobs: usize,
    /// Megabytes of table per thread.
    pub table_mb: usize,
    /// The book the solver looks positions up in.
    pub book: BookChoice,
    /// How often a level being solved reports how far it is (`cz book`:
    /// [`REPORT_EVERY`]).
    pub report_every: Duration,
}

/// How often `cz book` says how far a level is: a level of a deep book
/// takes hours.
pub const REPORT_EVERY: Duration = Duration::from_secs(60);

/// The book file's writer while a level is solved: counts the scores
/// appended and, at most once every `every`, writes to `log` how many of
/// the level's positions are known, how fast this run finds them and how
/// long the rest would take at that rate.
struct Reporting<'a> {
    file: &'a mut dyn Write,
    log: &'a mut dyn Write,
    depth: usize,
    /// The level's positions, and those known before this run.
    of: usize,
    known: usize,
    found: usize,
    every: Duration,
    started: Instant,
    reported: Instant,
}

impl Reporting<'_> {
    fn report(&mut self) -> std::io::Result<()> {
        let line = progress(
            self.depth,
            self.known,
            self.found,
            self.of,
            self.started.elapsed(),
        );
        writeln!(self.log, "{line}")?;
        self.log.flush()
    }
}

/// A level's report: `known` of its `of` positions known before the run,
/// `found` more by it in `elapsed` (at least one), and how long the rest
/// would take at the run's rate.
fn progress(depth: usize, known: usize, found: usize, of: usize, elapsed: Duration) -> String {
    let minutes = elapsed.as_secs_f64() / 60.0;
    let rate = found as f64 / minutes.max(1e-9);
    let left = of.saturating_sub(known + found) as f64 / rate.max(1e-9);
    format!(
        "  depth {depth}: {} of {of} known, {found} in {minutes:.1} min ({rate:.0} a minute), about {:.1} h left",
        known + found,
        left / 60.0
    )
}

impl Write for Reporting<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        let ended = buf[..n].iter().filter(|&&b| b == b'\n').count();
        self.found += ended;
        if ended > 0 && self.reported.elapsed() >= self.every && self.known + self.found < self.of {
            self.reported = Instant::now();
            self.report()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Makes (or completes) the book at `path`; writes progress to `log`.
/// Returns the finished book.
///
/// # Errors
/// The file cannot be read or written, or holds a book of another frame or
/// kind of score.
pub fn build(path: &Path, request: BookRequest, log: &mut dyn Write) -> Result<Book> {
    let BookRequest {
        shape,
        depth,
        weak,
        jobs,
        table_mb,
        ..
    } = request;
    let known = resume(
        path,
        |text| Book::parse(text).map_err(|e| e.to_string()),
        |old: &Book| old.shape() == shape && old.weak() == weak,
        "a book for another frame or kind of score",
        &book::header(shape, depth, weak),
    )?
    .unwrap_or_else(|| Book::new(shape, depth, weak));
    let all = book::positions(shape, depth);
    writeln!(
        log,
        "book {}: {} positions to depth {depth}, {} known",
        path.display(),
        all.len(),
        all.iter().filter(|(_, p)| known.contains(p)).count()
    )?;
    log.flush()?;
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .context(path.display().to_string())?;
    let mut out = LineWriter::new(file);
    let solve = SolveRequest {
        shape,
        weak,
        best: false,
        scores: false,
        stats: false,
        table_mb,
        jobs,
        // The deepest positions, in order, share much of their trees.
        keep_table: true,
        book: request.book.clone(),
    };
    // The deepest positions are solved; every shallower one is the best of
    // its children's scores, found in the book (negamax: exact when they
    // are), so only a position no child of which is in the book (a full
    // frame) is solved there.
    let mut book = known;
    for d in (0..=depth).rev() {
        let missing: Vec<&(String, Position)> = all
            .iter()
            .filter(|(_, p)| p.moves() as usize == d && !book.contains(p))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let started = Instant::now();
        let unsolved = if d < depth {
            from_children(&mut book, &missing, &mut out)?
        } else {
            missing.iter().map(|(moves, _)| moves.as_str()).collect()
        };
        if !unsolved.is_empty() {
            let now = Instant::now();
            let of = all.iter().filter(|(_, p)| p.moves() as usize == d).count();
            let mut reporting = Reporting {
                file: &mut out,
                log: &mut *log,
                depth: d,
                of,
                known: of - unsolved.len(),
                found: 0,
                every: request.report_every,
                started: now,
                reported: now,
            };
            book = solve_level(path, &unsolved, &solve, &mut reporting)?;
        }
        out.flush()?;
        writeln!(
            log,
            "  depth {d}: {} positions in {:.1} s ({} solved, the rest from their children)",
            missing.len(),
            started.elapsed().as_secs_f64(),
            unsolved.len()
        )?;
        log.flush()?;
    }
    drop(out);
    rewrite_in_order(path, Book::new(shape, depth, weak), &all, log)
}

/// Scores the `missing` positions of a level short of the book's depth
/// from their children's scores in `book`, appending each to `out`; returns
/// the positions none of whose children is there, to be solved.
fn from_children<'a>(
    book: &mut Book,
    missing: &[&'a (String, Position)],
    out: &mut impl Write,
) -> Result<Vec<&'a str>> {
    let mut unsolved = Vec::new();
    for (moves, p) in missing {
        match book.best(p) {
            Some((_, score)) => {
                writeln!(out, "{moves} {score}")?;
                book.insert(p, score);
            }
            None => unsolved.push(moves.as_str()),
        }
    }
    Ok(unsolved)
}

/// Solves the `unsolved` positions of a level, each score appended to the
/// file through `reporting` as it is found (an interrupted run keeps them),
/// then reads the book back from `path`.
fn solve_level(
    path: &Path,
    unsolved: &[&str],
    solve: &SolveRequest,
    reporting: &mut Reporting,
) -> Result<Book> {
    solve_positions(unsolved.join("\n").as_bytes(), solve.clone(), reporting)?;
    reporting.flush()?;
    let text = fs::read_to_string(path).context(path.display().to_string())?;
    Book::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))
}

/// Reads back what the file at `path` holds (what was known and what was
/// appended) into `finished`, in the order of `all`, and rewrites the file
/// whole and in that order.
fn rewrite_in_order(
    path: &Path,
    mut finished: Book,
    all: &[(String, Position)],
    log: &mut dyn Write,
) -> Result<Book> {
    let text = fs::read_to_string(path).context(path.display().to_string())?;
    let written = Book::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    for (_, p) in all {
        if let Some(score) = written.score(p) {
            finished.insert(p, score);
        }
    }
    let temporary = path.with_extension("book.partial");
    fs::write(&temporary, finished.to_text()).context(temporary.display().to_string())?;
    fs::rename(&temporary, path).context(path.display().to_string())?;
    writeln!(log, "book {}: {} entries", path.display(), finished.len())?;
    Ok(finished)
}

/// Opens the file a resumable run appends to: what it holds, read by
/// `parse`, if `fits` it (a last line cut short by an interrupted run is
/// dropped from the file); `None` for a new file, written with `header`.
///
/// # Errors
/// The file cannot be read or written, cannot be parsed, or holds
/// `other` (what `fits` refuses).
fn resume<T>(
    path: &Path,
    parse: impl Fn(&str) -> std::result::Result<T, String>,
    fits: impl Fn(&T) -> bool,
    other: &str,
    header: &str,
) -> Result<Option<T>> {
    match fs::read_to_string(path) {
        Ok(text) => {
            let old = parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
            if !fits(&old) {
                return Err(Error::new(format!(
                    "{} holds {other}: {}",
                    path.display(),
                    text.lines().next().unwrap_or("")
                )));
            }
            if !text.ends_with('\n') {
                // A line cut short by an interrupted run: dropped before
                // appending.
                let whole = text.rsplit_once('\n').map_or("", |(whole, _)| whole);
                fs::write(path, format!("{whole}\n")).context(path.display().to_string())?;
            }
            Ok(Some(old))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::write(path, format!("{header}\n")).context(path.display().to_string())?;
            Ok(None)
        }
        Err(e) => Err(Error::from(e)),
    }
}

/// What plan to make.
#[derive(Clone, Copy, Debug)]
pub struct PlanRequest {
    /// The frame.
    pub shape: Shape,
    /// The positions the engine can meet in this many plies.
    pub plies: usize,
    /// Threads.
    pub jobs: usize,
    /// Megabytes of table per thread.
    pub table_mb: usize,
}

/// Makes (or completes) the perfect engine's plan at `path`
/// ([`connectz_games::plan`]): ply by ply, the positions the engine can
/// meet, each given its exact score and best column by the solver, side by
/// side (a ply of fewer positions than threads: one at a time, every
/// thread on it), each entry appended as it is found, so that an
/// interrupted run resumes where it stopped. Writes progress to `log`.
///
/// # Errors
/// The file cannot be read or written, or holds a plan of another frame.
pub fn build_plan(path: &Path, request: PlanRequest, log: &mut dyn Write) -> Result<Plan> {
    let PlanRequest {
        shape,
        plies,
        jobs,
        table_mb,
    } = request;
    let mut plan = resume(
        path,
        |text| Plan::parse(text).map_err(|e| e.to_string()),
        |old: &Plan| old.shape() == shape,
        "a plan for another frame",
        &plan::header(shape, plies),
    )?
    .unwrap_or_else(|| Plan::new(shape, plies));
    writeln!(
        log,
        "plan {}: positions the engine can meet in {plies} plies, {} known",
        path.display(),
        plan.len()
    )?;
    log.flush()?;
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .context(path.display().to_string())?;
    let out = std::sync::Mutex::new(LineWriter::new(file));
    let jobs = jobs.max(1);
    for ply in 0..=plies {
        let missing = plan.missing(ply);
        if missing.is_empty() {
            continue;
        }
        let started = Instant::now();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let found = std::sync::Mutex::new(Vec::new());
        let (workers, threads) = if missing.len() < jobs {
            (1, jobs)
        } else {
            (jobs, 1)
        };
        let failed: Option<Error> = std::thread::scope(|scope| {
            let work = || -> Result<()> {
                let mut solver = Solver::try_with_table_mb(table_mb)
                    .map_err(Error::new)?
                    .with_jobs(threads);
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((moves, p)) = missing.get(i) else {
                        return Ok(());
                    };
                    solver.reset();
                    let (score, column) = solver
                        .best_within(p, false, u64::MAX)
                        .expect("a search without a budget ends with a score");
                    let column = column.expect("a position of the plan has a column with room");
                    let letter = connectz_games::solver::column_char(column + 1).unwrap_or('?');
                    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                    writeln!(out, "{moves} {score} {letter}")?;
                    found.lock().unwrap_or_else(|e| e.into_inner()).push((
                        moves.clone(),
                        *p,
                        score,
                        column,
                    ));
                }
            };
            let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
            handles
                .into_iter()
                .filter_map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(Error::new("a worker failed")))
                        .err()
                })
                .next()
        });
        if let Some(e) = failed {
            return Err(e);
        }
        for (moves, p, score, column) in found.into_inner().unwrap_or_else(|e| e.into_inner()) {
            plan.insert(&moves, &p, score, column);
        }
        writeln!(
            log,
            "  ply {ply}: {} positions in {:.1} s",
            missing.len(),
            started.elapsed().as_secs_f64()
        )?;
        log.flush()?;
    }
    drop(out);
    let temporary = path.with_extension("plan.partial");
    let wanted = plies.max(plan.plies());
    let finished = plan.with_plies(wanted);
    fs::write(&temporary, finished.to_text()).context(temporary.display().to_string())?;
    fs::rename(&temporary, path).context(path.display().to_string())?;
    writeln!(log, "plan {}: {} entries", path.display(), finished.len())?;
    Ok(finished)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deepest level's reports, as (known, of, found this run).
    /// The numbers of a report: 120 found in two minutes is 60 a minute,
    /// and 600 left at that rate take ten minutes.
    #[test]
    fn a_report_gives_the_rate_and_the_time_left() {
        let line = progress(10, 1000, 120, 1720, Duration::from_secs(120));
        assert_eq!(
            line,
            "  depth 10: 1120 of 1720 known, 120 in 2.0 min (60 a minute), about 0.2 h left"
        );
        let line = progress(9, 0, 3, 9003, Duration::from_secs(60));
        assert_eq!(
            line,
            "  depth 9: 3 of 9003 known, 3 in 1.0 min (3 a minute), about 50.0 h left"
        );
    }

    /// What is flushed reaches the book's file.
    #[test]
    fn a_flush_reaches_the_file() {
        let mut file = std::io::BufWriter::new(Vec::new());
        let mut log = Vec::new();
        let now = Instant::now();
        let mut reporting = Reporting {
            file: &mut file,
            log: &mut log,
            depth: 1,
            of: 2,
            known: 0,
            found: 0,
            every: Duration::ZERO,
            started: now,
            reported: now,
        };
        reporting.write_all(b"4 -1").unwrap();
        reporting.flush().unwrap();
        assert_eq!(reporting.found, 0);
        assert_eq!(file.get_ref(), b"4 -1");
        assert!(log.is_empty());
    }

    fn reports(log: &str, depth: usize) -> Vec<(usize, usize, usize)> {
        let head = format!("  depth {depth}: ");
        log.lines()
            .filter_map(|line| line.strip_prefix(head.as_str()))
            .filter(|rest| rest.contains(" known, "))
            .map(|rest| {
                let words: Vec<&str> = rest.split_whitespace().collect();
                (
                    words[0].parse().unwrap(),
                    words[2].parse().unwrap(),
                    words[4].parse().unwrap(),
                )
            })
            .collect()
    }

    /// A level being solved says how far it is, at most once every
    /// `report_every` (here: after every score but the last), counting what
    /// an earlier run found as known and this run's finds apart.
    #[test]
    fn a_level_says_how_far_it_is() {
        let dir = std::env::temp_dir().join(format!("cz-book-reports-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("4x4.book");
        let shape = Shape {
            width: 4,
            height: 4,
            z: 3,
        };
        let request = BookRequest {
            shape,
            depth: 3,
            weak: false,
            jobs: 1,
            table_mb: 2,
            book: BookChoice::Without,
            report_every: Duration::ZERO,
        };
        let of = book::positions(shape, 3)
            .iter()
            .filter(|(_, p)| p.moves() == 3)
            .count();
        assert!(of > 10, "{of}");
        let mut log = Vec::new();
        build(&path, request.clone(), &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        let line = log
            .lines()
            .find(|l| l.starts_with("  depth 3: 1 of "))
            .unwrap();
        assert!(
            line.starts_with(&format!("  depth 3: 1 of {of} known, 1 in ")),
            "{line}"
        );
        assert!(
            line.contains(" a minute), about ") && line.ends_with(" h left"),
            "{line}"
        );
        let first = reports(&log, 3);
        let want: Vec<_> = (1..of).map(|i| (i, of, i)).collect();
        assert_eq!(first, want);
        // An interrupted run: the header and the first seven scores of the
        // level (the finished file lists levels in any order; keep the
        // deepest).
        let text = fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let mut kept = vec![lines.next().unwrap().to_string()];
        kept.extend(
            lines
                .filter(|l| l.split_whitespace().next().unwrap().len() == 3)
                .take(7)
                .map(str::to_string),
        );
        fs::write(&path, kept.join("\n") + "\n").unwrap();
        let mut log = Vec::new();
        let resumed = build(&path, request.clone(), &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        let second = reports(&log, 3);
        let want: Vec<_> = (8..of).map(|i| (i, of, i - 7)).collect();
        assert_eq!(second, want, "{log}");
        assert!(log.contains(", 7 known\n"), "{log}");
        // A level with nothing left to solve says nothing.
        let mut log = Vec::new();
        let again = build(&path, request, &mut log).unwrap();
        assert!(reports(&String::from_utf8(log).unwrap(), 3).is_empty());
        assert_eq!(again.len(), resumed.len());
        fs::remove_dir_all(&dir).unwrap();
    }
}
