use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::Result;
use crate::batch::{judge_all, report, walk};

#[derive(clap::Args)]
pub struct BatchArgs {
    /// Files or folders (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// JSON lines instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: BatchArgs, out: &mut dyn Write) -> Result<u8> {
    let walk = walk(&args.paths);
    for path in &walk.special {
        eprintln!(
            "cz batch: {}: not a regular file, not opened (code 9)",
            path.display()
        );
    }
    for path in &walk.unreadable {
        eprintln!(
            "cz batch: {}: a folder that cannot be read (code 9)",
            path.display()
        );
    }
    if !walk.skipped.is_empty() {
        eprintln!("cz batch: {}", walk.skipped);
    }
    let total = walk.files.len() + walk.special.len() + walk.unreadable.len();
    let done = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let judged = std::thread::scope(|scope| {
        // A progress count on a terminal, for long runs.
        if std::io::stderr().is_terminal() && total >= 200 {
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    eprint!("\r{}/{total} files", done.load(Ordering::Relaxed));
                    std::thread::sleep(Duration::from_millis(200));
                }
                eprint!("\r{}\r", " ".repeat(32));
            });
        }
        let judged = judge_all(&walk, &done);
        finished.store(true, Ordering::Relaxed);
        judged
    });
    report(&judged, args.json, &mut *out)?;
    Ok(0)
}
