use std::io::Write;
use std::path::PathBuf;

use crate::{Context, Result};
use connectz_explain::account;
use connectz_explain::render::{Excerpt, Picture, draw};

#[derive(clap::Args)]
pub struct RenderArgs {
    /// The game file.
    file: PathBuf,
    /// Where to write the SVG (`-` for standard output).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: RenderArgs, out: &mut dyn Write) -> Result<u8> {
    let report = connectz::judge_path_with(&args.file, account::keeping_board());
    let title = args
        .file
        .file_name()
        .map_or("game".into(), |n| n.to_string_lossy().into_owned());
    // For a file that does not conform, the offending line, read again: only
    // from a regular file (a FIFO or a device cannot be read twice).
    let excerpt = std::fs::metadata(&args.file)
        .is_ok_and(|m| m.is_file())
        .then(|| std::fs::File::open(&args.file).ok())
        .flatten()
        .and_then(|f| Excerpt::of(&report, f));
    let picture = Picture {
        report: &report,
        title: &title,
        excerpt: excerpt.as_ref(),
    };
    let svg = draw(&picture);
    if args.output.as_os_str() == "-" {
        out.write_all(svg.as_bytes())?;
        return Ok(0);
    }
    std::fs::write(&args.output, svg).context(args.output.display().to_string())?;
    let code = report.code();
    writeln!(
        out,
        "{}: code {code} ({})",
        args.output.display(),
        code.name()
    )?;
    Ok(0)
}
