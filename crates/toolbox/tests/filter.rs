//! The box's system-call filter, held by what a program in a real box
//! gets: the sandbox runs crates/toolbox/tests/fixtures/filter/calls.py in
//! a box of bubblewrap's with the filter, as it runs a candidate, and the
//! program makes each refused kind of call and says what it got. Like the
//! tests of hostile.rs, this needs bubblewrap and says so and passes where
//! it cannot make a box, unless `CZ_REQUIRE_ISOLATION` is set.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use connectz_sandbox::{Ended, Isolation, Limits, Program, Sandbox, Wanted, seccomp};
use nix::libc;

use crate::hostile::isolation_here;
use crate::support::{Scratch, root};

/// The bit an x32 call's number carries (`__X32_SYSCALL_BIT`, which the
/// C library names only for the x32 target).
#[cfg(target_arch = "x86_64")]
const X32_BIT: libc::c_long = 1 << 30;

/// What calls.py says of each call, in the order it makes them: the
/// ordinary ones work; every socket is refused, and a pair of any family
/// but unix; the rest is refused with `EPERM`, but `clone3`, which answers
/// `ENOSYS` so that the C library falls back to `clone`.
const EXPECTED: [(&str, &str); 22] = [
    ("thread", "ok"),
    ("fork", "ok"),
    ("subprocess", "ok"),
    ("multiprocessing.Pipe", "ok"),
    ("file", "ok"),
    ("socket(AF_VSOCK)", "EPERM"),
    ("socket(AF_NETLINK)", "EPERM"),
    ("socket(AF_PACKET)", "EPERM"),
    ("socket(AF_INET)", "EPERM"),
    ("socket(AF_INET6)", "EPERM"),
    ("socket(AF_UNIX)", "EPERM"),
    ("socketpair(AF_UNIX)", "ok"),
    ("socketpair(AF_INET)", "EPERM"),
    ("keyctl", "EPERM"),
    ("fallocate", "EPERM"),
    ("io_uring_setup", "EPERM"),
    ("io_setup", "EPERM"),
    ("mount", "EPERM"),
    ("clone3", "ENOSYS"),
    ("clone(CLONE_NEWNET)", "EPERM"),
    ("unshare(CLONE_NEWUSER)", "EPERM"),
    ("ptrace(PTRACE_TRACEME)", "EPERM"),
];

/// A program in a box gets from each refused call the answer the filter
/// gives, and an ordinary Python program (threads, fork, a subprocess, a
/// pipe of multiprocessing's, a file) runs as it would anywhere. On x86-64
/// an x32 call, which the filter does not see, gets through exactly when
/// the filter module says this kernel runs x32 calls (else the kernel
/// answers `ENOSYS`).
#[test]
fn a_box_refuses_the_calls_its_filter_names_and_runs_the_rest() {
    if !isolation_here() {
        return;
    }
    if seccomp::filter().is_none() {
        eprintln!("skipped: no system-call filter on this architecture");
        return;
    }
    let isolation = Isolation::choose(Wanted::Require).unwrap();
    let scratch = Scratch::new("filter");
    let limits = Limits {
        timeout: Duration::from_secs(20),
        memory: 512 << 20,
        output: 1 << 20,
        processes: 16,
    };
    let cz = PathBuf::from(env!("CARGO_BIN_EXE_cz"));
    let sandbox = Sandbox::new(cz, &scratch.path(""), limits, isolation).unwrap();
    let mut command: Vec<OsString> = vec!["python3".into(), "calls.py".into()];
    for (name, number) in [
        ("keyctl", libc::SYS_keyctl),
        ("fallocate", libc::SYS_fallocate),
        ("io_uring_setup", libc::SYS_io_uring_setup),
        ("io_setup", libc::SYS_io_setup),
        ("io_destroy", libc::SYS_io_destroy),
        ("mount", libc::SYS_mount),
        ("clone3", libc::SYS_clone3),
        ("clone", libc::SYS_clone),
        ("unshare", libc::SYS_unshare),
        ("ptrace", libc::SYS_ptrace),
        #[cfg(target_arch = "x86_64")]
        ("x32_keyctl", X32_BIT | libc::SYS_keyctl),
    ] {
        command.push(format!("{name}={number}").into());
    }
    let dir = root().join("crates/toolbox/tests/fixtures/filter");
    let run = sandbox.run(&Program::new(Some(&dir), &command), &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.ended, Ended::Exited(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let got: Vec<(&str, &str)> = stdout
        .lines()
        .map(|line| line.split_once(' ').unwrap_or((line, "")))
        .collect();
    let mut expected = EXPECTED.to_vec();
    if cfg!(target_arch = "x86_64") {
        let x32 = if seccomp::x32_unfiltered() {
            "ok"
        } else {
            "ENOSYS"
        };
        expected.insert(EXPECTED.len() - 2, ("keyctl(x32)", x32));
    }
    assert_eq!(got, expected, "{stderr}");
}
