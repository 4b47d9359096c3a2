//! `connectz FILE`: prints the code of the game in FILE, exactly as the brief
//! demands (r[code.output], r[code.args]).
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::Path;

fn main() {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let line = match args.as_slice() {
        [path] => connectz::judge_path(Path::new(path)).code().to_string(),
        // r[code.args], r[decision.arguments]: the brief's message, byte for
        // byte, to standard out, exit status 0.
        _ => connectz::USAGE.to_string(),
    };
    // A closed stdout is not worth a panic; the exit status stays 0.
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}
