//! `cz book`: makes an opening book with the project's own solver, level by
//! level, positions side by side, appending each score to the file as it is
//! found, so that an interrupted run resumes where it stopped.

use std::fs::{self, OpenOptions};
use std::io::{LineWriter, Write};
use std::path::Path;
use std::time::Instant;

use connectz_games::book::{self, Book};
use connectz_games::solver::Shape;

use crate::solve::{Request as SolveRequest, solve_positions};
use crate::{Context, Error, Result};

/// What book to make.
#[derive(Clone, Copy, Debug)]
pub struct Request {
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
}

/// Makes (or completes) the book at `path`; writes progress to `log`.
/// Returns the finished book.
///
/// # Errors
/// The file cannot be read or written, or holds a book of another frame or
/// kind of score.
pub fn build(path: &Path, request: Request, log: &mut dyn Write) -> Result<Book> {
    let Request {
        shape,
        depth,
        weak,
        jobs,
        table_mb,
    } = request;
    let known = match fs::read_to_string(path) {
        Ok(text) => {
            let old =
                Book::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
            if old.shape() != shape || old.weak() != weak {
                return Err(Error::new(format!(
                    "{} holds a book for another frame or kind of score: {}",
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
            old
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::write(path, format!("{}\n", book::header(shape, depth, weak)))
                .context(path.display().to_string())?;
            Book::new(shape, depth, weak)
        }
        Err(e) => return Err(Error::from(e)),
    };
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
        stats: false,
        table_mb,
        jobs,
    };
    for d in 0..=depth {
        let missing: Vec<&str> = all
            .iter()
            .filter(|(_, p)| p.moves() as usize == d && !known.contains(p))
            .map(|(moves, _)| moves.as_str())
            .collect();
        if missing.is_empty() {
            continue;
        }
        let started = Instant::now();
        let input = missing.join("\n");
        solve_positions(input.as_bytes(), solve, &mut out)?;
        out.flush()?;
        writeln!(
            log,
            "  depth {d}: {} positions in {:.1} s",
            missing.len(),
            started.elapsed().as_secs_f64()
        )?;
        log.flush()?;
    }
    drop(out);
    // The file now holds what was known and what was appended: read it
    // back, and rewrite it whole and in order.
    let text = fs::read_to_string(path).context(path.display().to_string())?;
    let written = Book::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    let mut finished = Book::new(shape, depth, weak);
    for (_, p) in &all {
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
