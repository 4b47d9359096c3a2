use std::io::Write;
use std::path::PathBuf;

use crate::{Context, Result};
use connectz_explain::account;

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// The game file.
    file: PathBuf,
    /// Print the account as one JSON object.
    #[arg(long)]
    json: bool,
    /// Print the board after every move.
    #[arg(long, conflicts_with = "json")]
    trace: bool,
}

pub fn run(args: ExplainArgs, out: &mut dyn Write) -> Result<u8> {
    if args.trace {
        let bytes = std::fs::read(&args.file).context(args.file.display().to_string())?;
        super::write_out(out, account::trace(&bytes, super::style()).as_bytes())?;
    }
    let report = connectz::judge_path_with(&args.file, account::keeping_board());
    let text = if args.json {
        format!(
            "{}\n",
            account::json(&report, &args.file.display().to_string())
        )
    } else {
        account::text(&report, super::style())
    };
    super::write_out(out, text.as_bytes())?;
    Ok(0)
}
