use std::io::Write;
use std::path::PathBuf;

use crate::solve::{SolveRequest, check_frame, solve_positions};
use crate::{Result, input};

use super::{FrameArgs, SearchArgs};

#[derive(clap::Args)]
pub struct SolveArgs {
    /// Positions, one per line (the first token; the rest is ignored); `-` or none reads standard input.
    file: Option<PathBuf>,
    #[command(flatten)]
    frame: FrameArgs,
    /// Only the sign of the score: win, draw or loss.
    #[arg(long)]
    weak: bool,
    /// Add the best column.
    #[arg(long, conflicts_with = "scores")]
    best: bool,
    /// Every column's score instead of the position's: for each column, left
    /// to right, the score of the side to move if it plays there (`-` for a
    /// full column), as `c4solver -a` and the Python package's `scores` give.
    #[arg(long)]
    scores: bool,
    /// Nodes searched per position, and the mean time, nodes and nodes per second at the end (and whether the shipped book was read, whose reading is in the mean time).
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    search: SearchArgs,
}

pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<u8> {
    let shape = args.frame.shape();
    check_frame(shape)?;
    let text = input::open(args.file.as_deref())?;
    let request = SolveRequest {
        shape,
        weak: args.weak,
        best: args.best,
        scores: args.scores,
        stats: args.stats,
        table_mb: args.search.table_mb(),
        jobs: args.search.jobs(),
        keep_table: false,
        book: args.search.book(shape)?,
    };
    let failed = solve_positions(text, request, &mut *out)?;
    Ok(if failed == 0 { 0 } else { 1 })
}
