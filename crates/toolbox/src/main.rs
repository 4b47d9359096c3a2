//! `cz`: the toolbox around the ConnectZ reference judge. Reads arguments,
//! calls the libraries, prints; each subcommand is a module of `cmd`.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser;
use connectz_toolbox::sandbox;

mod cmd;

fn main() -> ExitCode {
    // The supervisor of one run of `cz check` (see connectz_toolbox::sandbox).
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == sandbox::SUPERVISE) {
        sandbox::supervise(&args[2..]);
    }
    match cmd::run(cmd::Cli::parse().command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cz: {e}");
            ExitCode::from(2)
        }
    }
}
