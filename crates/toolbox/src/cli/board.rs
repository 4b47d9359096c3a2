use std::io::Write;
use std::path::PathBuf;

use crate::{Error, Result, input};
use connectz_games::snapshot::{self, Answer, Side};

#[derive(clap::Args)]
pub struct BoardArgs {
    /// The grid (rows top-down, one per line or joined by `/` or `;`); `-` or none reads standard input.
    file: Option<PathBuf>,
    /// Length of a winning run.
    #[arg(short = 'z', default_value_t = 4)]
    z: usize,
    /// The symbol of the player who moved first.
    #[arg(long)]
    first: Option<char>,
    /// One more symbol for an empty cell (`.`, `_` and `0` always are).
    #[arg(long)]
    empty: Option<char>,
    /// Say why a position is invalid.
    #[arg(long)]
    why: bool,
    /// List every run of z or more (`--lines` is an older name).
    #[arg(long, alias = "lines")]
    runs: bool,
    /// Counters need not rest on anything: skip the validity checks.
    #[arg(long)]
    no_gravity: bool,
}

pub fn run(args: BoardArgs, out: &mut dyn Write) -> Result<u8> {
    // A NUL or other control byte ends the grid at once (the parser says
    // why), rather than reading an input that may not end.
    let grid = input::read_until(args.file.as_deref(), input::not_text)?;
    let (position, judgement) =
        snapshot::judge_grid(&grid, args.z, args.first, args.empty, !args.no_gravity)
            .map_err(Error::shown)?;
    writeln!(out, "{}", judgement.answer)?;
    if args.why
        && let Some(reason) = &judgement.why
    {
        writeln!(out, "why: {reason}")?;
    }
    // r[board.undecided]: its own exit status.
    if judgement.answer == Answer::Undecided {
        return Ok(3);
    }
    if args.runs {
        // Each run is written a cell at a time: a run can be the whole grid.
        for run in position.runs(args.z) {
            let symbol = position.symbols[usize::from(run.side == Side::Second)];
            write!(out, "{symbol}: {} in a row:", run.len)?;
            for (r, c) in run.cells() {
                write!(out, " ({r},{c})")?;
            }
            writeln!(out)?;
        }
    }
    Ok(0)
}
