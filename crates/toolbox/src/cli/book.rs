use std::io::Write;
use std::path::{Path, PathBuf};

use connectz_games::book::BookError;

use crate::book::{BookRequest, PlanRequest, REPORT_EVERY, build, build_plan};
use crate::solve::check_frame;
use crate::{Error, Result};

use super::{FrameArgs, SearchArgs};

#[derive(clap::Args)]
pub struct BookArgs {
    /// The book file: made if missing, completed if it holds part of the book.
    file: PathBuf,
    #[command(flatten)]
    frame: FrameArgs,
    /// Every position of at most this many moves.
    #[arg(long, default_value_t = 2)]
    depth: usize,
    /// Exact scores instead of signs (much slower).
    #[arg(long)]
    exact: bool,
    /// The perfect engine's plan instead: every position it can meet, as
    /// either player, in the first --depth plies, with its exact score and
    /// the engine's column (the book's other positions are left out).
    #[arg(long, conflicts_with = "exact")]
    plan: bool,
    /// Also write the finished book packed (one byte a position, checked
    /// when read), the form `--book` and the shipped book take; with
    /// --plan, the plan packed (two bytes an entry), the shipped plan's form.
    #[arg(long, value_name = "FILE")]
    pack: Option<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
}

pub fn run(args: BookArgs, out: &mut dyn Write) -> Result<u8> {
    let shape = args.frame.shape();
    check_frame(shape)?;
    if args.plan {
        let request = PlanRequest {
            shape,
            plies: args.depth,
            jobs: args.search.jobs(),
            table_mb: args.search.table_mb(),
        };
        let plan = build_plan(&args.file, request, out)?;
        if let Some(path) = &args.pack {
            write_packed(&args.file, plan.to_packed(), path, out)?;
        }
        return Ok(0);
    }
    let request = BookRequest {
        shape,
        depth: args.depth,
        weak: !args.exact,
        jobs: args.search.jobs(),
        table_mb: args.search.table_mb(),
        book: args.search.book(shape)?,
        report_every: REPORT_EVERY,
    };
    let book = build(&args.file, request, out)?;
    if let Some(path) = &args.pack {
        write_packed(&args.file, book.to_packed(), path, out)?;
    }
    Ok(0)
}

/// Writes `packed`, made from `file`, to `path`, or says why it cannot.
fn write_packed(
    file: &Path,
    packed: std::result::Result<Vec<u8>, BookError>,
    path: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let bytes = packed.map_err(|e| Error::new(format!("{}: {e}", file.display())))?;
    std::fs::write(path, &bytes).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    writeln!(out, "packed {}: {} bytes", path.display(), bytes.len())?;
    Ok(())
}
