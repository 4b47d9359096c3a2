use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use connectz_games::solver::DEFAULT_TABLE_MB;
use connectz_toolbox::solve::{Request, check_frame, solve_positions};
use connectz_toolbox::{Result, input};

use super::FrameArgs;

#[derive(clap::Args)]
pub struct Args {
    /// Positions, one per line (the first token; the rest is ignored); `-` or none reads standard input.
    file: Option<PathBuf>,
    #[command(flatten)]
    frame: FrameArgs,
    /// Only the sign of the score: win, draw or loss.
    #[arg(long)]
    weak: bool,
    /// Add the best column.
    #[arg(long)]
    best: bool,
    /// Nodes searched per position, and the mean time, nodes and nodes per second at the end.
    #[arg(long)]
    stats: bool,
    /// Megabytes of transposition table per thread (rounded down to a power of two, at least 2).
    #[arg(long, default_value_t = DEFAULT_TABLE_MB as u64, value_parser = clap::value_parser!(u64).range(1..=16384))]
    table_mb: u64,
    /// Threads: positions side by side, or one position on all of them [default: the cores].
    #[arg(long)]
    jobs: Option<usize>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode> {
    let shape = args.frame.shape();
    check_frame(shape)?;
    let text = input::read_text(args.file.as_deref())?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let request = Request {
        shape,
        weak: args.weak,
        best: args.best,
        stats: args.stats,
        table_mb: args.table_mb as usize,
        jobs,
    };
    let failed = solve_positions(&text, request, &mut *out)?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
