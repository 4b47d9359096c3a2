//! `cz`'s command line: the subcommands, one module each (its arguments
//! and a `run` of a few lines over the libraries), and [`main`], which the
//! `cz` binary and the Python package's `cz` command both call.

use std::io::{self, BufWriter, IsTerminal, Write};

use crate::{Error, Result};
use clap::{Parser, Subcommand};
use connectz_explain::draw::Style;
use connectz_games::solver::BookChoice;

mod batch;
mod board;
mod book;
mod check;
mod explain;
mod gen_cmd;
mod grade;
mod play;
mod render;
mod rotate;
mod solve;

#[derive(Parser)]
#[command(
    name = "cz",
    version,
    about = "The toolbox around the ConnectZ reference judge"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Explain a verdict: code, rule, line, why, and the final board.
    Explain(explain::ExplainArgs),
    /// Draw the final board as an SVG picture.
    Render(render::RenderArgs),
    /// Write a valid game file with a chosen code, or a benchmark workload.
    Gen(gen_cmd::GenArgs),
    /// Judge files and folders in parallel: one `path<TAB>code` line each, sorted by path.
    Batch(batch::BatchArgs),
    /// Judge a board snapshot: who moves, who won, or invalid.
    Board(board::BoardArgs),
    /// Solve the "Rotate" contest problem: `Case #i: Red|Blue|Both|Neither`.
    Rotate(rotate::RotateArgs),
    /// Exact scores: one position per line (column digits from the empty frame).
    Solve(solve::SolveArgs),
    /// Make an opening book with the solver (every position of the first moves and its score), or the perfect engine's plan (--plan); resumable, and says how far it is once a minute.
    Book(book::BookArgs),
    /// Play against the engine in the terminal: a column number to move, u to undo, q to quit.
    Play(play::PlayArgs),
    /// Run another implementation on the reference corpus and generated games.
    Check(check::CheckArgs),
    /// Grade a class of implementations: leaderboard, failures by rule, speed.
    Grade(grade::GradeArgs),
}

/// Runs `cz` with `args` (the first is the program's name), as the `cz`
/// binary does (a supervisor's arguments: supervises, and never returns;
/// see [`connectz_sandbox`]): prints what the subcommand prints and returns its exit
/// status (2, with the error on standard error, when it fails). For
/// `--help`, `--version` and bad arguments it prints and ends the process
/// at once, as clap does.
pub fn main(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    // The supervisor of one run of `cz check` (see connectz_sandbox).
    if args
        .get(1)
        .is_some_and(|a| a == connectz_sandbox::SUPERVISE)
    {
        connectz_sandbox::supervise(&args[2..]);
    }
    match run(Cli::parse_from(args).command) {
        Ok(code) => code,
        // Whoever read standard output stopped (`cz ... | head`): the
        // command ends quietly, as `connectz` does.
        Err(_) if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) => 0,
        Err(e) => {
            eprintln!("cz: {e}");
            2
        }
    }
}

/// Set when a write to standard output found its reader gone.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Standard output, noting in [`STDOUT_CLOSED`] a reader that went away
/// (only this handle's writes: a candidate's closed pipe is another error).
struct Stdout<W>(W);

impl<W: Write> Stdout<W> {
    fn note<T>(result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result
            && e.kind() == io::ErrorKind::BrokenPipe
        {
            STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        result
    }
}

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Self::note(self.0.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        Self::note(self.0.flush())
    }
}

/// Runs a subcommand, writing to standard out.
pub(crate) fn run(command: Command) -> Result<u8> {
    let mut out = BufWriter::new(Stdout(io::stdout().lock()));
    let code = match command {
        Command::Explain(args) => explain::run(args, &mut out)?,
        Command::Render(args) => render::run(args, &mut out)?,
        Command::Gen(args) => gen_cmd::run(args, &mut out)?,
        Command::Batch(args) => batch::run(args, &mut out)?,
        Command::Board(args) => board::run(args, &mut out)?,
        Command::Rotate(args) => rotate::run(args, &mut out)?,
        Command::Solve(args) => solve::run(args, &mut out)?,
        Command::Book(args) => book::run(args, &mut out)?,
        Command::Play(args) => play::run(args, &mut out)?,
        Command::Check(args) => check::run(args, &mut out)?,
        Command::Grade(args) => grade::run(args, &mut out)?,
    };
    out.flush()?;
    Ok(code)
}

/// Colour on a terminal, unless `NO_COLOR` is set.
fn style() -> Style {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Style {
        color: !no_color && io::stdout().is_terminal(),
        ..Style::default()
    }
}

/// A frame for the solver and the game.
#[derive(Clone, Copy, clap::Args)]
pub struct FrameArgs {
    /// Columns.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Rows.
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Length of a winning run.
    #[arg(long, default_value_t = 4)]
    connect: usize,
}

impl FrameArgs {
    fn shape(self) -> connectz_games::solver::Shape {
        connectz_games::solver::Shape {
            width: self.width,
            height: self.height,
            z: self.connect,
        }
    }
}

/// How the solver searches: its table, its threads, its opening book.
#[derive(Clone, clap::Args)]
pub struct SearchArgs {
    /// Megabytes of transposition table per thread (rounded down to a power of two, at least 2).
    #[arg(long, default_value_t = connectz_games::solver::DEFAULT_TABLE_MB as u64, value_parser = clap::value_parser!(u64).range(1..=16384))]
    table_mb: u64,
    /// Threads: positions side by side, or one position on all of them [default: the cores].
    #[arg(long, value_parser = jobs)]
    jobs: Option<usize>,
    /// An opening book to look positions up in (made by `cz book --pack`) instead of the shipped one (7 x 6: every position of at most 10 moves).
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Search every position, those of the book too.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
}

impl SearchArgs {
    fn table_mb(&self) -> usize {
        self.table_mb as usize
    }

    /// The book to consult (r[solve.book]): the one named, checked and of
    /// the frame; none with --no-book; else the shipped one (the solver
    /// reads it only for a 7 x 6 position it can answer or bound).
    fn book(&self, shape: connectz_games::solver::Shape) -> Result<BookChoice> {
        use connectz_games::book::Book;
        if self.no_book {
            return Ok(BookChoice::Without);
        }
        let Some(path) = &self.book else {
            return Ok(BookChoice::Shipped);
        };
        let bytes =
            std::fs::read(path).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
        let book = Book::from_packed(&bytes)
            .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
        let of = book.shape();
        if of != shape {
            return Err(Error::new(format!(
                "{}: a book for {} x {} with runs of {}, not {} x {} with runs of {}",
                path.display(),
                of.width,
                of.height,
                of.z,
                shape.width,
                shape.height,
                shape.z
            )));
        }
        Ok(BookChoice::Given(std::sync::Arc::new(book)))
    }

    fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        })
    }
}

/// `--jobs`: a whole number from 1 to the solver's most, never a number of
/// threads the system cannot start.
fn jobs(text: &str) -> std::result::Result<usize, String> {
    let jobs: usize = text
        .parse()
        .map_err(|_| format!("{text:?} is not a whole number of threads"))?;
    connectz_games::solver::check_jobs(jobs)
}

/// The output of a command that writes where it is asked to.
fn write_out(out: &mut dyn Write, bytes: &[u8]) -> Result<()> {
    out.write_all(bytes)?;
    Ok(())
}

/// A number of the command line above 0 and at most `most` (`unit` names
/// what it counts, in the error): the one range check of decimal options.
fn above_zero_at_most(text: &str, most: f64, unit: &str) -> std::result::Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number{unit}"))?;
    if !(value > 0.0 && value <= most) {
        return Err(format!("{text} is not above 0 and at most {most}{unit}"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::above_zero_at_most;

    #[test]
    fn decimal_options_are_checked_just_inside_and_outside_their_range() {
        assert_eq!(
            above_zero_at_most("86400", 86_400.0, " seconds"),
            Ok(86_400.0)
        );
        assert_eq!(above_zero_at_most("0.001", 1.0, ""), Ok(0.001));
        assert_eq!(
            above_zero_at_most("86400.5", 86_400.0, " seconds"),
            Err("86400.5 is not above 0 and at most 86400 seconds".into())
        );
        assert!(above_zero_at_most("0", 100.0, "").is_err());
        assert!(above_zero_at_most("NaN", 100.0, "").is_err());
        assert_eq!(
            above_zero_at_most("ten", 100.0, ""),
            Err("\"ten\" is not a number".into())
        );
    }
}
