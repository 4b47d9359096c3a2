//! The `connectz` binary: exactly one line, exit status 0 (r[code.args], r[code.io]).

use std::process::Command;

use crate::support::root;

fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_connectz"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

const USAGE: &str = "connectz.py: Provide one input file\n";

#[test]
fn no_argument_prints_the_message() {
    assert_eq!(run(&[]), (USAGE.into(), String::new(), 0));
}

#[test]
fn two_arguments_print_the_message() {
    let a = "tests/cases/0-draw/brief-sample.txt";
    assert_eq!(run(&[a, a]), (USAGE.into(), String::new(), 0));
}

#[test]
fn missing_file_is_nine() {
    assert_eq!(
        run(&["tests/cases/no-such-file"]),
        ("9\n".into(), String::new(), 0)
    );
}

#[test]
fn directory_is_nine() {
    assert_eq!(run(&["tests/cases"]), ("9\n".into(), String::new(), 0));
}

#[test]
fn a_file_prints_its_code() {
    assert_eq!(
        run(&["tests/cases/6-illegal-column/brief-sample.txt"]),
        ("6\n".into(), String::new(), 0)
    );
}

#[test]
fn endless_devices_get_eight_at_once() {
    for device in ["/dev/zero", "/dev/full"] {
        // An endless device: the run ends only if the judge stops at the
        // first bad byte.
        assert_eq!(run(&[device]), ("8\n".into(), String::new(), 0), "{device}");
    }
}
