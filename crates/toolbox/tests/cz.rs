//! The `cz` toolbox, run as a process the way users run it.

use std::fs;
use std::process::Output;

use connectz::judge_bytes;

use crate::support::{Scratch, marker, processes_with, run_cz};

/// The shipped corpus's size and how many of its cases are incomplete
/// games (code 3): what a candidate that always prints 3 passes.
fn corpus_and_threes() -> (usize, usize) {
    let corpus = connectz_check::corpus();
    let threes = corpus
        .iter()
        .filter(|case| case.expect == connectz::Code::Incomplete)
        .count();
    (corpus.len(), threes)
}

fn cz(args: &[&str]) -> Output {
    run_cz(args, b"")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn explain_names_code_rule_line_and_precedence() {
    let out = cz(&[
        "explain",
        "tests/cases/6-illegal-column/after-full-column.txt",
    ]);
    assert!(out.status.success());
    insta::assert_snapshot!("explain_precedence", stdout(&out));
    let out = cz(&["explain", "tests/cases/1-win-player-1/diagonal.txt"]);
    insta::assert_snapshot!("explain_diagonal", stdout(&out));
}

#[test]
fn explain_windows_huge_frames() {
    let out = cz(&[
        "explain",
        "tests/cases/1-win-player-1/huge-frame-sparse.txt",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("columns 499999995..500000006, rows 1..8 of the frame"),
        "{text}"
    );
    assert!(text.contains(" X X "), "{text}");
}

#[test]
fn explain_json_carries_the_same_account() {
    let out = cz(&[
        "explain",
        "--json",
        "tests/cases/5-illegal-row/filled-after-win.txt",
    ]);
    let text = stdout(&out);
    insta::assert_snapshot!("explain_json", text);
    assert!(text.starts_with('{') && text.trim_end().ends_with('}'));
}

#[test]
fn explain_trace_draws_every_move() {
    let out = cz(&["explain", "--trace", "tests/cases/0-draw/brief-sample.txt"]);
    let text = stdout(&out);
    assert_eq!(text.matches("^ last move").count(), 9 + 1, "{text}");
    assert!(text.contains("line 10: move 9 (column 2)"));
}

#[test]
fn render_writes_an_svg_with_the_winning_run_marked() {
    let scratch = Scratch::new("render");
    let svg = scratch.path("board.svg");
    let out = cz(&[
        "render",
        "tests/cases/1-win-player-1/brief-sample.txt",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("code 1 (win for player 1)"));
    assert_eq!(text.matches(r#"<circle class="run""#).count(), 3);
    assert!(text.contains("<title id=\"title\">brief-sample.txt: code 1"));
    // `-o -`: the same picture on standard output, and nothing else.
    let out = cz(&[
        "render",
        "tests/cases/1-win-player-1/brief-sample.txt",
        "-o",
        "-",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

#[test]
fn gen_makes_every_code_and_refuses_nine() {
    for code in 0..=8u8 {
        for seed in ["1", "2", "3"] {
            let out = cz(&["gen", "--code", &code.to_string(), "--seed", seed]);
            assert!(out.status.success(), "code {code}: {out:?}");
            assert_eq!(
                judge_bytes(&out.stdout).code().number(),
                code,
                "seed {seed}"
            );
        }
    }
    let out = cz(&[
        "gen",
        "--code",
        "3",
        "--width",
        "30",
        "--height",
        "2",
        "--connect",
        "5",
    ]);
    assert_eq!(judge_bytes(&out.stdout).code().number(), 3);
    assert!(stdout(&out).starts_with("30 2 5\n"));
    let nine = cz(&["gen", "--code", "9"]);
    assert_eq!(nine.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nine.stderr).contains("no file content"));
    let bad = cz(&[
        "gen",
        "--code",
        "7",
        "--width",
        "7",
        "--height",
        "6",
        "--connect",
        "4",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn gen_workloads_are_deterministic() {
    let a = cz(&["gen", "--workload", "sparse", "--size", "50", "--seed", "9"]);
    let b = cz(&["gen", "--workload", "sparse", "--size", "50", "--seed", "9"]);
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(stdout(&a).lines().count(), 51);
    let ladder = cz(&["gen", "--workload", "ladder", "--size", "100"]);
    assert_eq!(judge_bytes(&ladder.stdout).code().number(), 1);
}

#[test]
fn batch_lists_sorted_paths_and_a_summary() {
    let out = cz(&[
        "batch",
        "tests/cases/7-illegal-game",
        "tests/cases/0-draw",
        "tests/no-such-path",
    ]);
    insta::assert_snapshot!("batch", stdout(&out));
    let json = cz(&["batch", "--json", "tests/cases/0-draw"]);
    let text = stdout(&json);
    assert_eq!(text.lines().count(), 6);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("{\"summary\":{\"0\":5,")
    );
}

#[test]
fn check_passes_the_reference_itself() {
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
        "--cases",
        "40",
        "--",
        crate::support::connectz_binary().to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("defined failures 0; impl notes 0; crashes 0; timeouts 0"),
        "{text}"
    );
}

#[test]
fn check_reports_a_broken_candidate() {
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
        "--cases",
        "27",
        "--",
        "sh",
        "tests/fixtures/seven-is-three.sh",
    ]);
    assert_eq!(out.status.code(), Some(1));
    // The isolation line names this machine's bubblewrap, or its absence;
    // in a box, the reference is given at its path on this machine.
    let reference = crate::support::connectz_binary();
    let text: String = stdout(&out)
        .lines()
        .map(|l| match l.strip_prefix("isolation: ") {
            Some(_) => "isolation: [as this machine allows]\n".to_string(),
            None if l == format!("given: {}", reference.display()) => String::new(),
            None => format!("{l}\n"),
        })
        .collect();
    insta::assert_snapshot!("check_broken", text);
}

/// A shrunk case keeps its failure: the reference gives it the expected
/// code of the case it came from, and the candidate the same wrong answer,
/// though a smaller input that fails another way (6 read as 4) exists.
#[test]
fn shrinking_keeps_the_failure() {
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
        "--cases",
        "36",
        "--shrink",
        "8",
        "--",
        "sh",
        "tests/fixtures/two-bugs-one-answer.sh",
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
    let crash = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
        "--cases",
        "0",
        "--",
        "sh",
        "-c",
        "echo boom >&2; exit 3",
    ]);
    let text = stdout(&crash);
    assert_eq!(crash.status.code(), Some(1));
    assert!(
        text.contains("CRASH") && text.contains("\"boom\""),
        "{text}"
    );
    let slow = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
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
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
        "--cases",
        "9",
        "--",
        "sh",
        "tests/fixtures/empty-is-incomplete.sh",
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
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
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
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
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
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
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
    let check = |program: &str| {
        stdout(&cz(&[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "0",
            "--memory",
            "200",
            "--",
            "python3",
            "-c",
            program,
        ]))
    };
    let (total, _) = corpus_and_threes();
    let text = check("s = [bytearray(1 << 20) for _ in range(10**6)]");
    assert!(text.contains("MEMORY"), "{text}");
    assert!(
        text.contains(&format!("crashes 0; timeouts 0; memory breaches {total}")),
        "{text}"
    );
    let text = check("x = bytearray(10**9)");
    assert!(text.contains("MemoryError"), "{text}");
    assert!(
        text.contains(&format!("crashes {total}; timeouts 0; memory breaches 0")),
        "{text}"
    );
}

#[test]
fn check_refuses_bad_limits() {
    for timeout in ["inf", "0", "-1", "nan", "100000"] {
        let out = cz(&[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--timeout",
            timeout,
            "--",
            "true",
        ]);
        assert_eq!(out.status.code(), Some(2), "--timeout {timeout}");
    }
    let out = cz(&[
        "check",
        "--env",
        "CONNECTZ",
        "--path",
        "$CONNECTZ",
        "--memory",
        "0",
        "--",
        "true",
    ]);
    assert_eq!(out.status.code(), Some(2));
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
    let scratch = std::env::temp_dir().join(format!("cz-check-{}", child.id()));
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert!(scratch.exists(), "no scratch folder {}", scratch.display());
    assert!(!processes_with(&m).is_empty(), "no run started");
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

#[test]
fn solve_and_play_take_any_frame_promptly() {
    // Lines longer than the frame: every position a draw, at once (no node
    // searched: counted, not timed).
    for args in [
        &["solve", "--connect", "1000000000000"][..],
        &["solve", "--width", "4", "--height", "12", "--connect", "13"],
    ] {
        let out = run_cz(args, b"1\n");
        assert_eq!(stdout(&out), "1 0\n", "{args:?}");
        let stats = run_cz(&[args, &["--stats"]].concat(), b"1\n");
        assert!(
            stdout(&stats).starts_with("1 0 nodes=0\n"),
            "{}",
            stdout(&stats)
        );
    }
    let out = run_cz(
        &["solve", "--width", "4", "--height", "4611686018427387903"],
        b"1\n",
    );
    assert_eq!(out.status.code(), Some(2));
    // A frame that cannot be won is said to be one before the first move
    // (the judge would call any game on it 7), just above and far above.
    for connect in ["8", "100", "1000000000000"] {
        let out = run_cz(&["play", "--connect", connect], b"1\n");
        assert_eq!(out.status.code(), Some(2), "--connect {connect}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("cannot be won") && err.contains("code 7"),
            "{err}"
        );
        assert!(!stdout(&out).contains("draw"));
    }
    let out = run_cz(&["play", "--connect", "7"], b"q\n");
    assert!(out.status.success(), "--connect 7 fits the 7 columns");
    let out = run_cz(
        &["play", "--width", "9223372036854775808", "--height", "1"],
        b"1\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run_cz(
        &[
            "play",
            "--width",
            "1000000",
            "--height",
            "1",
            "--connect",
            "3",
        ],
        b"1\n",
    );
    assert!(stdout(&out).contains("engine plays"));
}

#[test]
fn gen_refuses_what_cannot_be_written_and_makes_large_games_fast() {
    for size in ["1000000000000", "18446744073709551615"] {
        let out = run_cz(
            &[
                "gen",
                "--workload",
                "dense",
                "--size",
                size,
                "-o",
                "/dev/null",
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{size}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("at most"));
    }
    let file = std::env::temp_dir().join(format!("cz-gen-{}.txt", std::process::id()));
    let out = run_cz(
        &[
            "gen",
            "--code",
            "0",
            "--width",
            "2000",
            "--height",
            "2000",
            "--connect",
            "30",
            "-o",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success());
    assert_eq!(connectz::judge_path(&file).code().number(), 0);
    fs::remove_file(&file).unwrap();
}

#[test]
fn batch_walks_proc_self_without_blocking() {
    let out = run_cz(&["batch", "/proc/self"], b"");
    assert!(out.status.success());
    assert!(stdout(&out).contains(" files\n"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("skipped"));
}
