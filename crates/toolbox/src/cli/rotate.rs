use std::io::Write;
use std::path::PathBuf;

use crate::{Result, input};
use connectz_games::rotate;

#[derive(clap::Args)]
pub struct RotateArgs {
    /// The contest input; `-` or none reads standard input.
    file: Option<PathBuf>,
}

pub fn run(args: RotateArgs, out: &mut dyn Write) -> Result<u8> {
    let text = input::read_plain_text(args.file.as_deref())?;
    out.write_all(rotate::solve(&text)?.as_bytes())?;
    Ok(0)
}
