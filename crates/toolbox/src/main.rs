//! `cz`: the toolbox around the ConnectZ reference judge. The command line
//! is the library's ([`connectz_toolbox::cli`]); this binary only starts it.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    ExitCode::from(connectz_toolbox::cli::main(args))
}
