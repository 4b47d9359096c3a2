use std::io::Write;
use std::path::PathBuf;

use crate::book::{BookRequest, PlanRequest, build, build_plan};
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
            let bytes = plan
                .to_packed()
                .map_err(|e| Error::new(format!("{}: {e}", args.file.display())))?;
            write_packed(path, &bytes, out)?;
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
    };
    let book = build(&args.file, request, out)?;
    if let Some(path) = &args.pack {
        let bytes = book
            .to_packed()
            .map_err(|e| Error::new(format!("{}: {e}", args.file.display())))?;
        write_packed(path, &bytes, out)?;
    }
    Ok(0)
}

fn write_packed(path: &std::path::Path, bytes: &[u8], out: &mut dyn Write) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    writeln!(out, "packed {}: {} bytes", path.display(), bytes.len())?;
    Ok(())
}
