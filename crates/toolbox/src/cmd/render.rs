use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use connectz_explain::{account, render};
use connectz_toolbox::{Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// The game file.
    file: PathBuf,
    /// Where to write the SVG.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode> {
    let report = connectz::judge_path_with(&args.file, account::keeping_board());
    let title = args
        .file
        .file_name()
        .map_or("game".into(), |n| n.to_string_lossy().into_owned());
    std::fs::write(&args.output, render::svg(&report, &title))
        .context(args.output.display().to_string())?;
    let code = report.code();
    writeln!(
        out,
        "{}: code {code} ({})",
        args.output.display(),
        code.name()
    )?;
    Ok(ExitCode::SUCCESS)
}
