//! `connectz FILE`: prints the code of the game in FILE, exactly as the brief
//! demands (r[code.output], r[code.args]): [`connectz::command_line`].
#![forbid(unsafe_code)]

use std::io::Write;

fn main() {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let line = connectz::command_line(&args);
    // A closed stdout is not worth a panic; the exit status stays 0.
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}
