//! `cz check` in earnest (slow tier): candidates that crash, hang, leave
//! children, fill memory, are interrupted, or fail in ways shrinking must
//! keep, each run in a box with real time limits. The fast tier's quick
//! checks are in `cz.rs`; the classification of a run's outcome is
//! unit-tested on made-up runs in `crates/check/src/running.rs`.

use std::fs;

use connectz::judge_bytes;

use crate::support::{check, corpus_and_threes, marker, processes_with, stdout};

/// A shrunk case keeps its failure: the reference gives it the expected
/// code of the case it came from, and the candidate the same wrong answer,
/// though a smaller input that fails another way (6 read as 4) exists.
#[test]
fn shrinking_keeps_the_failure() {
    let out = check(&[
        "--cases",
        "36",
        "--shrink",
        "8",
        "--",
        "sh",
        "crates/toolbox/tests/fixtures/two-bugs-one-answer.sh",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<&str> = text.lines().collect();
    let mut shrunk = 0;
    for pair in lines.windows(2) {
        let (head, next) = (pair[0], pair[1]);
        let Some(input) = next.trim().strip_prefix("shortest failing input: \"") else {
            continue;
        };
        let expected = if head.contains("expected 2 (") { 2 } else { 6 };
        assert!(head.contains(&format!("expected {expected} (")), "{head}");
        assert!(
            input.ends_with(&format!("(expected {expected}, got 4)")),
            "{head}\n{next}"
        );
        // The reference's own code of the shrunk input.
        let (bytes, _) = input.split_once("\" (").unwrap();
        let bytes = bytes.replace("\\n", "\n").replace("\\r", "\r");
        assert_eq!(
            judge_bytes(bytes.as_bytes()).code().number(),
            expected,
            "{bytes:?}"
        );
        shrunk += 1;
    }
    assert!(shrunk >= 4, "{text}");
}

#[test]
fn check_reports_crashes_and_timeouts() {
    let crash = check(&["--cases", "0", "--", "sh", "-c", "echo boom >&2; exit 3"]);
    let text = stdout(&crash);
    assert_eq!(crash.status.code(), Some(1));
    assert!(
        text.contains("CRASH") && text.contains("\"boom\""),
        "{text}"
    );
    let slow = check(&[
        "--cases",
        "0",
        "--timeout",
        "0.05",
        "--",
        "sh",
        "-c",
        "sleep 2",
    ]);
    assert!(stdout(&slow).contains("TIMEOUT"));
}

#[test]
fn check_notes_impl_differences_without_failing() {
    let out = check(&[
        "--cases",
        "9",
        "--",
        "sh",
        "crates/toolbox/tests/fixtures/empty-is-incomplete.sh",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "NOTE    tests/cases/8-invalid-file/empty-file.txt: expected 8 (invalid file), got 3"
        ),
        "{text}"
    );
    assert!(text.contains("defined failures 0; impl notes"), "{text}");
    assert!(!text.contains("FAIL "), "{text}");
}

#[test]
fn check_owns_what_it_starts() {
    // A candidate whose background child holds its standard output open:
    // the run ends when the candidate does, and the child goes with it.
    // The sleeper sleeps for days: that the run ends at all shows it did
    // not wait for it.
    let (m1, m2, m3) = (marker(1), marker(2), marker(3));
    let (total, threes) = corpus_and_threes();
    let passed = format!("passed {threes} of {total}");
    let out = check(&[
        "--cases",
        "0",
        "--timeout",
        "5",
        "--",
        "sh",
        "-c",
        &format!("echo 3; sleep {m1} &"),
        "sh",
    ]);
    assert!(stdout(&out).contains(&passed), "{passed}: {}", stdout(&out));
    assert_eq!(processes_with(&m1), Vec::<String>::new());
    // Grandchildren at a timeout, and a child that left the process group.
    let out = check(&[
        "--cases",
        "0",
        "--timeout",
        "0.2",
        "--",
        "sh",
        "-c",
        &format!("sleep {m2}; echo 3"),
        "sh",
    ]);
    assert!(
        stdout(&out).contains(&format!("timeouts {total}")),
        "{}",
        stdout(&out)
    );
    let out = check(&[
        "--cases",
        "0",
        "--",
        "sh",
        "-c",
        &format!("setsid sleep {m3} & echo 3"),
        "sh",
    ]);
    assert!(stdout(&out).contains(&passed), "{passed}: {}", stdout(&out));
    for m in [m2, m3] {
        assert_eq!(processes_with(&m), Vec::<String>::new(), "{m}");
    }
}

/// A run that fills memory to the cap is a memory breach; one that asks
/// for more than the cap at once, and fails holding little, is a crash
/// with its message.
#[test]
fn check_caps_memory_and_says_so() {
    let python = |program: &str| {
        stdout(&check(&[
            "--cases", "0", "--memory", "200", "--", "python3", "-c", program,
        ]))
    };
    let (total, _) = corpus_and_threes();
    let text = python("s = [bytearray(1 << 20) for _ in range(10**6)]");
    assert!(text.contains("MEMORY"), "{text}");
    assert!(
        text.contains(&format!("crashes 0; timeouts 0; memory breaches {total}")),
        "{text}"
    );
    let text = python("x = bytearray(10**9)");
    assert!(text.contains("MemoryError"), "{text}");
    assert!(
        text.contains(&format!("crashes {total}; timeouts 0; memory breaches 0")),
        "{text}"
    );
}

#[test]
fn an_interrupted_check_leaves_nothing_behind() {
    use std::process::{Command, Stdio};
    // A hundred million cases, made as they are needed; interrupted.
    let m = marker(4);
    let mut child = Command::new(env!("CARGO_BIN_EXE_cz"))
        .args(["check", "--cases", "100000000", "--", "sleep", &m])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Its scratch folder: a random word after its pid.
    let prefix = format!("cz-check-{}-", child.id());
    let made = || -> Vec<std::path::PathBuf> {
        fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
            .collect()
    };
    // Until its scratch folder is made and a run has started (no deadline:
    // the runner ends a test that hangs).
    while made().is_empty() || processes_with(&m).is_empty() {
        assert!(child.try_wait().unwrap().is_none(), "cz check ended early");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let scratch = made().pop().unwrap();
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap();
    assert!(peak_kb < 100_000, "cz check holds {peak_kb} kB");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        !scratch.exists(),
        "scratch folder left: {}",
        scratch.display()
    );
    let left: Vec<String> = processes_with(&m)
        .into_iter()
        .filter(|p| !p.contains("cz check"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
}
