//! The `cz` toolbox, run as a process the way users run it.

use std::fs;

use connectz::judge_bytes;

use crate::support::{Scratch, check, cz, run_cz, stdout};

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
    let out = check(&[
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
    let out = check(&[
        "--cases",
        "27",
        "--",
        "sh",
        "crates/toolbox/tests/fixtures/seven-is-three.sh",
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

#[test]
fn check_refuses_bad_limits() {
    for timeout in ["inf", "0", "-1", "nan", "100000"] {
        let out = check(&["--timeout", timeout, "--", "true"]);
        assert_eq!(out.status.code(), Some(2), "--timeout {timeout}");
    }
    let out = check(&["--memory", "0", "--", "true"]);
    assert_eq!(out.status.code(), Some(2));
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

/// A reader that stops (`cz ... | head -c1`): `cz` ends quietly, status 0,
/// as `connectz` does, not "Broken pipe (os error 32)".
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cz"))
        .args(["gen", "--workload", "dense", "--size", "3000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's reading end is dropped here: later writes find it gone.
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `cz board` and `cz rotate` stop at the first byte no text holds (a NUL
/// from `/dev/zero`, which has no end), from a file or standard input,
/// and say which byte; a thread count the solver does not take is refused
/// before a thread is asked for (40000 once aborted).
#[test]
fn inputs_that_cannot_be_text_and_thread_counts_out_of_range_are_refused() {
    use std::process::{Command, Stdio};
    for command in ["board", "rotate"] {
        let out = cz(&[command, "/dev/zero"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let from_stdin = Command::new(env!("CARGO_BIN_EXE_cz"))
            .arg(command)
            .stdin(fs::File::open("/dev/zero").unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(from_stdin.status.code(), Some(2), "{command}");
        assert!(from_stdin.stdout.is_empty());
    }
    let why = String::from_utf8_lossy(&cz(&["rotate", "/dev/zero"]).stderr).into_owned();
    assert!(why.contains("byte 1 of the input is 0x00"), "{why}");
    // A grid with a NUL after a valid row is refused by the grid's reader.
    let out = run_cz(&["board"], b".......\n\0.......\n");
    assert_eq!(out.status.code(), Some(2));
    for jobs in ["0", "40000", "1025", "-1", "2.5"] {
        let out = run_cz(&["solve", &format!("--jobs={jobs}")], b"4453\n");
        assert_eq!(out.status.code(), Some(2), "--jobs {jobs}");
        assert!(out.stdout.is_empty());
        let why = String::from_utf8_lossy(&out.stderr);
        assert!(why.contains("--jobs"), "{why}");
    }
    let why = String::from_utf8_lossy(&run_cz(&["solve", "--jobs", "40000"], b"4453\n").stderr)
        .into_owned();
    assert!(why.contains("the solver takes from 1 to 1024"), "{why}");
    // The most is taken, and answers (a position past the book, searched).
    let out = run_cz(
        &["solve", "--jobs", "1024", "--table-mb", "2"],
        b"52753311433677442422121\n",
    );
    assert_eq!(stdout(&out), "52753311433677442422121 8\n");
}

/// A run's output, errors and report are its owner's alone (0600): the
/// scratch folder lets others pass, and another user of the machine who
/// learns a file's name must not read a candidate's output. The run
/// itself writes them, through the descriptors it is born with.
#[test]
fn a_runs_files_are_readable_by_their_owner_alone() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("private-run");
    let [out, err, report] = ["run.out", "run.err", "run.report"].map(|f| scratch.path(f));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_cz"))
        .arg(connectz_sandbox::SUPERVISE)
        .args(["5000000", "268435456", "1048576", "16"])
        .args([&out, &err, &report])
        .args(["plain", "sh", "-c"])
        .arg("stat -L -c %a /proc/self/fd/1; stat -L -c %a /proc/self/fd/2 >&2")
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(fs::read_to_string(&out).unwrap(), "600\n");
    assert_eq!(fs::read_to_string(&err).unwrap(), "600\n");
    let text = fs::read_to_string(&report).unwrap();
    assert!(
        text.contains("exit=0") && text.contains("elapsed-us="),
        "{text}"
    );
    for path in [&out, &err, &report] {
        let mode = fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", path.display());
    }
}
