use std::io::Write;
use std::path::PathBuf;

use crate::{Context, Error, Result};
use clap::ValueEnum;
use connectz::Code;
use connectz_gen::{Frame, Workload, game_with_code, workload};

#[derive(clap::Args)]
pub struct GenArgs {
    /// The code the file must judge to (0 to 8).
    #[arg(
        long,
        required_unless_present = "workload",
        conflicts_with = "workload"
    )]
    code: Option<u8>,
    /// Columns (default 7).
    #[arg(long)]
    width: Option<u64>,
    /// Rows (default 6).
    #[arg(long)]
    height: Option<u64>,
    /// Length of a winning run (default 4; 8 for code 7).
    #[arg(long)]
    connect: Option<u64>,
    /// A benchmark workload instead of a code.
    #[arg(long, value_enum)]
    workload: Option<WorkloadArg>,
    /// Scale of the workload (default: the benchmark's size).
    #[arg(long)]
    size: Option<u64>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write here instead of standard out.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum WorkloadArg {
    Tail,
    Dense,
    Ladder,
    Sparse,
}

pub fn run(args: GenArgs, out: &mut dyn Write) -> Result<u8> {
    let mut sink: Box<dyn Write + '_> = match &args.output {
        Some(path) => Box::new(std::fs::File::create(path).context(path.display().to_string())?),
        None => Box::new(out),
    };
    if let Some(chosen) = args.workload {
        let (kind, default) = match chosen {
            WorkloadArg::Tail => (Workload::Tail, 30_000_000),
            WorkloadArg::Dense => (Workload::Dense, 3000),
            WorkloadArg::Ladder => (Workload::Ladder, 200_000),
            WorkloadArg::Sparse => (Workload::Sparse, 1_000_000),
        };
        workload(kind, args.size.unwrap_or(default), args.seed, &mut sink)?;
    } else {
        let code = args
            .code
            .and_then(Code::from_number)
            .ok_or("--code takes 0 to 8")?;
        let frame = Frame {
            x: args.width.unwrap_or(7),
            y: args.height.unwrap_or(6),
            z: args
                .connect
                .unwrap_or(if code == Code::IllegalGame { 8 } else { 4 }),
        };
        let bytes = game_with_code(code, frame, args.seed).map_err(Error::shown)?;
        sink.write_all(&bytes)?;
    }
    sink.flush()?;
    Ok(0)
}
