//! `cz grade`: a class of candidates graded into text, JSON, JUnit and HTML;
//! the ranking, the groups, the speed rows and the exit status. The whole
//! fixture class (with a slow Python candidate) is graded by `.ci/run`, whose
//! browser test opens its HTML report.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::support::{
    Scratch, grade_in_four_forms, json, manifest, marker, processes_with, root, run_cz, stdout,
};

#[test]
fn each_makes_a_candidate_per_path_and_all_passing_is_exit_zero() {
    let out = run_cz(
        &[
            "grade",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "9",
            "--each",
            "sh {}",
            "crates/toolbox/tests/fixtures/class/reference.sh",
            "crates/toolbox/tests/fixtures/empty-is-incomplete.sh",
        ],
        b"",
    );
    let text = stdout(&out);
    // An impl difference is a note: both pass every defined case.
    assert_eq!(out.status.code(), Some(0), "{text}");
    // Both pass every defined case; the one without impl notes leads,
    // whatever the speed.
    assert!(
        text.contains("== 1. reference.sh: sh crates/toolbox/tests/fixtures/class/reference.sh"),
        "{text}"
    );
    assert!(
        text.contains(
            "== 2. empty-is-incomplete.sh: sh crates/toolbox/tests/fixtures/empty-is-incomplete.sh"
        ),
        "{text}"
    );
    assert!(
        text.contains("NOTE    decision.empty-file [impl]"),
        "{text}"
    );
    assert!(text.contains("every candidate passed every defined case"));
}

/// Nothing a candidate controls reaches the reviewer's terminal raw: a
/// submitted folder named with escapes that retitle the window and clear
/// the screen, and a candidate that writes them where the reports show its
/// output (the command-line checks, a crash's standard out and error), are
/// shown escaped in the reports of `cz grade` and `cz check` and in the
/// progress lines, and stay recognisable.
#[test]
fn terminal_escapes_a_candidate_writes_are_shown_escaped() {
    let scratch = Scratch::new("grade-escapes");
    let evil = scratch.path("evil\x1b]0;TITLE\x07\x1b[2J");
    fs::create_dir(&evil).unwrap();
    fs::copy(
        root().join("crates/toolbox/tests/fixtures/class/escapes.sh"),
        evil.join("connectz.sh"),
    )
    .unwrap();
    let raw = |out: &std::process::Output| {
        let mut bytes = out.stdout.clone();
        bytes.extend_from_slice(&out.stderr);
        bytes.iter().any(|b| *b == 0x1b || *b == 0x07)
    };
    let out = run_cz(
        &[
            "grade",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "9",
            "--each",
            "sh {}/connectz.sh",
            evil.to_str().unwrap(),
        ],
        b"",
    );
    let text = stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(!raw(&out), "{text:?}\n{err:?}");
    let name = r"evil\x1b]0;TITLE\x07\x1b[2J";
    assert!(text.contains(&format!("== 1. {name}: sh ")), "{text}");
    assert!(err.contains(&format!("cz grade: [1/1] {name}: ")), "{err}");
    assert!(
        text.contains(r#"stderr "\x1b[2J\x1b]0;CRASHED\x07boom""#),
        "{text}"
    );
    assert!(
        text.contains(r#"got "\x1b]0;OWNED\x07\x1b[2Jusage\n""#),
        "{text}"
    );
    let out = run_cz(
        &[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "9",
            "--",
            "sh",
            evil.join("connectz.sh").to_str().unwrap(),
        ],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(!raw(&out), "{text:?}");
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("cz check: sh ") && first.ends_with(&format!("{name}/connectz.sh")),
        "{text}"
    );
    assert!(
        text.contains(r#"stdout "\x1b[31mred"; stderr "\x1b[2J\x1b]0;CRASHED\x07boom""#),
        "{text}"
    );
}

/// A candidate that prints the right code and then exits with it (as
/// `sys.exit(code)` does) is judged by the code it printed: no crash, no
/// defined failure, a note per case it exited otherwise than 0 on, grouped
/// under decision.exit-status in every report; it ranks below the
/// reference, which has no notes.
#[test]
fn the_code_printed_decides_and_an_exit_status_is_a_note() {
    let scratch = Scratch::new("grade-exit-status");
    let out = grade_in_four_forms(
        &scratch,
        &[
            ("exits-with-code", "class/exits-with-code.sh"),
            ("reference", "class/reference.sh"),
        ],
        "9",
        &[],
    );
    let text = stdout(&out);
    // Notes are no failures: every candidate passed every defined case.
    assert_eq!(out.status.code(), Some(0), "{text}");
    let doc = json(&scratch.path("r.json"));
    let candidates = doc["candidates"].as_array().unwrap();
    assert_eq!(candidates[0]["name"], "reference");
    let exits = &candidates[1];
    assert_eq!(exits["name"], "exits-with-code");
    assert_eq!(exits["crashes"], 0, "{exits}");
    assert_eq!(exits["defined_failures"], 0, "{exits}");
    let notes = exits["impl_notes"].as_u64().unwrap();
    assert!(notes > 100, "{exits}");
    let groups = exits["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{exits}");
    let group = &groups[0];
    assert_eq!(group["rule"], "decision.exit-status");
    assert_eq!(group["kind"], "note");
    assert_eq!(group["class"], "impl");
    assert_eq!(group["counts"], false);
    assert_eq!(group["count"].as_u64(), Some(notes));
    // Every code but 0 (exit status 0) is a note; the score per code
    // counts them right.
    for case in group["cases"].as_array().unwrap() {
        assert_ne!(case["expected"], 0, "{case}");
        let status = format!("exit status {}", case["expected"]);
        assert!(
            case["answer"].as_str().unwrap().ends_with(&status),
            "{case}"
        );
    }
    for score in exits["per_code"].as_array().unwrap() {
        assert_eq!(score["passed"], score["total"], "{score}");
    }
    assert!(
        text.contains("NOTE    decision.exit-status [impl]: "),
        "{text}"
    );
    assert!(
        text.contains(&format!("impl notes {notes}; crashes 0;")),
        "{text}"
    );
    // JUnit: notes pass, with a word in system-out.
    let xml = fs::read_to_string(scratch.path("r.xml")).unwrap();
    let suite = xml
        .split("<testsuite name=\"exits-with-code\"")
        .nth(1)
        .and_then(|s| s.split("</testsuite>").next())
        .unwrap();
    assert!(
        !suite.contains("<failure") && !suite.contains("<error"),
        "{suite}"
    );
    assert_eq!(
        suite
            .matches("note, decision.exit-status is an impl ruling")
            .count() as u64,
        notes
    );
    let html = fs::read_to_string(scratch.path("r.html")).unwrap();
    assert!(html.contains("<details class=\"group\" data-kind=\"note\">"));
    // cz check judges the same way.
    let out = run_cz(
        &[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "0",
            "--",
            "sh",
            "crates/toolbox/tests/fixtures/class/exits-with-code.sh",
        ],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("defined failures 0; impl notes "), "{text}");
    assert!(text.contains("; crashes 0;"), "{text}");
    assert!(
        text.contains("printed it, then exit status 1 (a note: the code printed decides) [decision.exit-status, impl; case of "),
        "{text}"
    );
}

/// A group names the rule the candidate broke, not the clause each case
/// exercises: a candidate with its players swapped fails cases of
/// rule.line, rule.turns, decision.big-numbers... and is blamed on
/// rule.turns for every wrong code on a defined case (on an impl example
/// it is a note on that example's ruling, as every difference on an impl
/// case is); each case listed keeps its own clause.
#[test]
fn failures_are_blamed_on_the_rule_broken() {
    let scratch = Scratch::new("grade-blame");
    let toml = scratch.path("class.toml");
    manifest(&toml, &[("swaps-players", "class/swaps-players.sh")]);
    let out = run_cz(
        &[
            "grade",
            toml.to_str().unwrap(),
            "--cases",
            "36",
            "--json",
            &scratch.str("r.json"),
        ],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let doc = json(&scratch.path("r.json"));
    let swaps = &doc["candidates"][0];
    let failures = swaps["defined_failures"].as_u64().unwrap();
    assert!(failures > 30, "{swaps}");
    let groups = swaps["groups"].as_array().unwrap();
    let counting: Vec<&str> = groups
        .iter()
        .filter(|g| g["counts"] == true)
        .map(|g| g["rule"].as_str().unwrap())
        .collect();
    assert_eq!(counting, ["rule.turns"], "{text}");
    assert_eq!(groups[0]["kind"], "wrong");
    assert_eq!(groups[0]["count"].as_u64(), Some(failures));
    for note in &groups[1..] {
        assert_eq!(note["class"], "impl", "{note}");
    }
    let notes = swaps["impl_notes"].as_u64().unwrap();
    assert!(notes <= 3, "{swaps}");
    // Each case keeps the clause it exercises: several, not only turns.
    let clauses: std::collections::BTreeSet<&str> = groups[0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert!(clauses.contains("rule.line"), "{clauses:?}");
    assert!(clauses.len() >= 3, "{clauses:?}");
    assert!(
        text.contains(&format!(
            "FAIL    rule.turns [defined]: {failures} cases, e.g. "
        )),
        "{text}"
    );
}

#[test]
fn speed_is_graded_against_the_reference() {
    let scratch = Scratch::new("grade-perf");
    let toml = scratch.path("perf.toml");
    // A candidate that always says 0: right on the dense fill (a draw) and
    // on the one small file (the first generated game is a draw).
    fs::write(
        &toml,
        format!(
            "[[candidate]]\nname = \"reference\"\ncommand = [\"{}\"]\n\n[[candidate]]\nname = \"zero\"\ncommand = [\"sh\", \"-c\", \"echo 0\", \"zero\"]\n",
            crate::support::connectz_binary().display()
        ),
    )
    .unwrap();
    let out = run_cz(
        &[
            "grade",
            toml.to_str().unwrap(),
            "--cases",
            "0",
            "--perf",
            "--perf-scale",
            "0.05",
            "--perf-runs",
            "2",
            "--json",
            &scratch.str("p.json"),
        ],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let doc = json(&scratch.path("p.json"));
    let workloads: Vec<&str> = doc["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(workloads, ["tail", "dense", "ladder", "sparse", "many"]);
    let reference = &doc["candidates"][0];
    assert_eq!(reference["name"], "reference");
    for row in reference["perf"].as_array().unwrap() {
        assert_eq!(row["result"], "ok", "{row}");
        assert!(row["time_ratio"].as_f64().unwrap() > 0.0);
        assert!(row["peak_mb"].as_f64().unwrap() > 0.0);
    }
    let zero = &doc["candidates"][1];
    let results: Vec<&str> = zero["perf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["wrong", "ok", "wrong", "wrong", "ok"]);
    let wrong = results.iter().filter(|r| **r == "wrong").count() as u64;
    // A wrong code on a workload is a defined failure.
    let case_failures = zero["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["counts"] == true)
        .map(|g| g["count"].as_u64().unwrap())
        .sum::<u64>();
    let args_failed = zero["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["passed"] == false)
        .count() as u64;
    assert_eq!(
        zero["defined_failures"].as_u64().unwrap(),
        case_failures + args_failed + wrong
    );
    assert!(text.contains("speed      code  result"), "{text}");
}

/// A candidate that hangs on everything is given up on after a few
/// timeouts in a row, not run to the end at a time limit per case, and
/// nothing it started outlives the grading.
#[test]
fn a_candidate_that_hangs_is_given_up_on() {
    let m = marker(9);
    let template = format!("sh {{}} {m}");
    let out = run_cz(
        &[
            "grade",
            "--cases",
            "20",
            "--timeout",
            "0.3",
            "--give-up",
            "4",
            "--jobs",
            "2",
            "--each",
            &template,
            "crates/toolbox/tests/fixtures/class/hangs.sh",
        ],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let skipped: usize = text
        .split("not run after too many timeouts in a row: ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    // 178 cases: a few timed out, the rest were not run.
    assert!(skipped > 150, "{text}");
    assert!(text.contains("SKIPPED "), "{text}");
    assert_eq!(processes_with(&m), Vec::<String>::new());
}

/// Stopped part way (SIGTERM, as a CI job's time limit or a reviewer's
/// Ctrl-C would), `cz grade` ends every run, exits with 130 and leaves
/// valid JSON, JUnit and HTML reports of the candidates finished so far,
/// marked incomplete; nothing a candidate started survives.
#[test]
fn an_interrupted_grade_leaves_the_reports_of_the_candidates_finished() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let scratch = Scratch::new("grade-interrupt");
    let m = marker(11);
    let fixtures = root().join("crates/toolbox/tests/fixtures");
    let toml = scratch.path("class.toml");
    let candidate = |name: &str, words: &str| {
        format!(
            "[[candidate]]\nname = \"{name}\"\ncommand = [{words}]\ndir = \"{}\"\nenv = [\"CONNECTZ\"]\npaths = [\"$CONNECTZ\"]\n\n",
            fixtures.display()
        )
    };
    fs::write(
        &toml,
        candidate("reference", "\"sh\", \"class/reference.sh\"")
            + &candidate("seven-is-three", "\"sh\", \"seven-is-three.sh\"")
            + &candidate("hangs", &format!("\"sh\", \"class/hangs.sh\", \"{m}\"")),
    )
    .unwrap();
    let json_path = scratch.path("r.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cz"))
        .args(["grade", toml.to_str().unwrap(), "--cases", "10"])
        .args(["--timeout", "2", "--give-up", "100000", "--jobs", "2"])
        .args(["--json", &scratch.str("r.json")])
        .args(["--junit", &scratch.str("r.xml")])
        .args(["--html", &scratch.str("r.html")])
        .current_dir(root())
        .env("CONNECTZ", crate::support::connectz_binary())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The two quick candidates finish; the one that hangs on every case
    // (given up on only after 100,000 timeouts) is still running.
    let graded = |path: &Path| {
        fs::read_to_string(path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .map_or(0, |v| v["candidates"].as_array().map_or(0, Vec::len))
    };
    // No deadline (tests assert counts, never clocks): a grade that never
    // finishes its quick candidates hangs this test, and the runner ends it.
    while graded(&json_path) < 2 {
        assert!(child.try_wait().unwrap().is_none(), "cz grade ended early");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(!processes_with(&m).is_empty(), "the hanging candidate runs");
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let report = json(&json_path);
    assert_eq!(report["complete"], false);
    assert_eq!(report["planned"], 3);
    let names: Vec<&str> = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["reference", "seven-is-three"]);
    let junit = fs::read_to_string(scratch.path("r.xml")).unwrap();
    assert!(junit.starts_with("<?xml") && junit.trim_end().ends_with("</testsuites>"));
    assert_eq!(junit.matches("<testsuite ").count(), 2, "{junit}");
    let html = fs::read_to_string(scratch.path("r.html")).unwrap();
    assert!(html.contains("INCOMPLETE, 2 of 3 candidates graded"));
    assert!(html.trim_end().ends_with("</html>"));
    // Whole files only: no half-written one left beside them.
    let parts = fs::read_dir(scratch.path(".")).unwrap().flatten();
    assert!(
        parts
            .filter(|e| e.path().extension().is_some_and(|x| x == "part"))
            .count()
            == 0
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_with(&m), Vec::<String>::new());
}

/// What a grade found of each candidate, leaving out times and the shrunk
/// inputs' bytes: its counts, and per group its kind, rule, class, count and
/// the shrunk reproducer's signature (the expected code and the answer).
pub(crate) fn findings(report: &Value) -> Vec<String> {
    let mut out: Vec<String> = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let groups: Vec<String> = c["groups"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    let shrunk = &g["shrunk"];
                    format!(
                        "{} {} {} x{} shrunk:{}/{}",
                        g["kind"],
                        g["rule"],
                        g["class"],
                        g["count"],
                        shrunk["expected"],
                        shrunk["answer"]
                    )
                })
                .collect();
            format!(
                "{}: defined {} notes {} crashes {} timeouts {} memory {} not run {}; {}",
                c["name"],
                c["defined_failures"],
                c["impl_notes"],
                c["crashes"],
                c["timeouts"],
                c["memory_breaches"],
                c["not_run"],
                groups.join("; ")
            )
        })
        .collect();
    out.sort();
    out
}

/// The fast defaults (a case first run within what it needs, a timeout
/// confirmed within the full limit, shrinking that runs only what can fail
/// the same way) find what a flat 10 s limit with 10 groups shrunk finds:
/// the same candidates failing, the same groups, the same counts and
/// reproducers of the same signature. The fixture class's candidates, and
/// one that hangs on everything, and two of the Python class (run through
/// the fork server); not a slow Python candidate, whose times near a limit
/// depend on how busy the machine is.
#[test]
fn the_fast_defaults_find_what_a_flat_limit_finds() {
    let scratch = Scratch::new("grade-same-findings");
    let toml = scratch.path("class.toml");
    let m = marker(12);
    let fixtures = root().join("crates/toolbox/tests/fixtures");
    let mut text = String::new();
    for (name, words) in [
        ("reference", "\"sh\", \"class/reference.sh\""),
        ("seven-is-three", "\"sh\", \"seven-is-three.sh\""),
        ("empty-is-incomplete", "\"sh\", \"empty-is-incomplete.sh\""),
        ("two-bugs-one-answer", "\"sh\", \"two-bugs-one-answer.sh\""),
        ("crashes-on-big", "\"sh\", \"class/crashes-on-big.sh\""),
        ("says-usage", "\"sh\", \"class/says-usage.sh\""),
        ("hangs", &format!("\"sh\", \"class/hangs.sh\", \"{m}\"")),
    ] {
        text.push_str(&format!(
            "[[candidate]]\nname = \"{name}\"\ncommand = [{words}]\ndir = \"{}\"\nenv = [\"CONNECTZ\"]\npaths = [\"$CONNECTZ\"]\n\n",
            fixtures.display()
        ));
    }
    // Two of the Python class, run through the fork server.
    let base = fs::read_to_string(fixtures.join("pyclass/base.py")).unwrap();
    for (name, flags) in [
        ("python-blind", "\"no-anti-diagonal\", \"crash-on-empty\""),
        (
            "python-lax",
            "\"lax-numbers\", \"first-fault-wins\", \"naive-winnable\"",
        ),
    ] {
        let script = base.replace(
            "FLAGS = set()  # filled in by make.sh",
            &format!("FLAGS = {{{flags}}}"),
        );
        assert_ne!(script, base);
        fs::write(scratch.path(&format!("{name}.py")), script).unwrap();
        text.push_str(&format!(
            "[[candidate]]\nname = \"{name}\"\ncommand = [\"python3\", \"{name}.py\"]\ndir = \"{}\"\nenv = [\"CONNECTZ\"]\npaths = [\"$CONNECTZ\"]\n\n",
            scratch.path("").display()
        ));
    }
    fs::write(&toml, text).unwrap();
    let grade = |extra: &[&str], json: &str| {
        let mut args = vec![
            "grade",
            toml.to_str().unwrap(),
            "--cases",
            "24",
            "--give-up",
            "6",
            // Two runs at a time, as many as the hanging candidate's cases
            // that time out together: which case it is given up at does not
            // depend on how long a timeout takes.
            "--jobs",
            "2",
        ];
        args.extend_from_slice(extra);
        let path = scratch.str(json);
        args.extend_from_slice(&["--json", &path]);
        let out = run_cz(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        self::json(&scratch.path(json))
    };
    let fast = grade(&[], "fast.json");
    let flat = grade(&["--timeout", "10", "--shrink", "10"], "flat.json");
    // The hanging candidate is given up on after six timeouts in a row;
    // how many more of its cases were already running then depends on when
    // the other candidate's runs free a job, so only its failures and that
    // it was given up on are compared.
    let steady = |report: &Value| {
        findings(report)
            .into_iter()
            .map(|f| match f.strip_prefix("\"hangs\": ") {
                Some(rest) => format!(
                    "hangs: {}, given up on: {}",
                    rest.split(" notes").next().unwrap_or(""),
                    rest.contains("\"skipped\"")
                ),
                None => f,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(steady(&fast), steady(&flat));
    // The candidate that hangs fails every defined case it is given and is
    // given up on (how many there are grows with the corpus).
    let hangs = steady(&fast)
        .into_iter()
        .find(|f| f.starts_with("hangs: defined "))
        .expect("the hanging candidate's finding");
    let failed: usize = hangs["hangs: defined ".len()..]
        .split(',')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(failed > 100, "{hangs}");
    assert!(hangs.ends_with(", given up on: true"), "{hangs}");
    assert_eq!(fast["candidates"].as_array().unwrap().len(), 9);
    // The hanging candidate's timeouts were found, and confirmed.
    assert!(
        findings(&fast)
            .iter()
            .any(|f| f.contains("\"hangs\": defined") && f.contains("\"timeout\""))
    );
    assert_eq!(processes_with(&m), Vec::<String>::new());
}

/// Grades the class at `toml` with 8 generated games and `extra`
/// arguments, its JSON report `scratch`'s r.json; returns what it wrote on
/// standard error. The classes of these tests hold a broken candidate: the
/// exit status is 1.
fn grade_into_r_json(scratch: &Scratch, toml: &Path, extra: &[&str]) -> String {
    let r = scratch.str("r.json");
    let mut args = vec![
        "grade",
        toml.to_str().unwrap(),
        "--cases",
        "8",
        "--json",
        &r,
    ];
    args.extend_from_slice(extra);
    let out = run_cz(&args, b"");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `--resume` takes from the journal beside the reports the candidates
/// graded before with the same cases and limits, and grades only the rest;
/// with another seed, nothing is taken.
#[test]
fn resume_grades_only_the_candidates_not_graded_before() {
    let scratch = Scratch::new("grade-resume");
    let toml = scratch.path("class.toml");
    manifest(
        &toml,
        &[
            ("seven-is-three", "seven-is-three.sh"),
            ("reference", "class/reference.sh"),
        ],
    );
    let grade = |extra: &[&str]| {
        (
            grade_into_r_json(&scratch, &toml, extra),
            json(&scratch.path("r.json")),
        )
    };
    let (_, first) = grade(&[]);
    assert!(scratch.path("r.json.journal.jsonl").exists());
    // A third candidate joins the class: only it is graded.
    manifest(
        &toml,
        &[
            ("seven-is-three", "seven-is-three.sh"),
            ("reference", "class/reference.sh"),
            ("says-usage", "class/says-usage.sh"),
        ],
    );
    let (err, second) = grade(&["--resume"]);
    assert!(err.contains("2 candidates taken from"), "{err}");
    assert!(err.contains("[3/3] says-usage"), "{err}");
    assert!(!err.contains("] reference:"), "{err}");
    assert_eq!(second["complete"], true);
    let kept = |report: &Value| {
        findings(report)
            .into_iter()
            .filter(|f| !f.contains("says-usage"))
            .collect::<Vec<_>>()
    };
    assert_eq!(kept(&first), kept(&second));
    // Another seed: other cases, so every candidate is graded again.
    let (err, _) = grade(&["--resume", "--seed", "2"]);
    assert!(!err.contains("taken from"), "{err}");
    assert!(err.contains("] reference:"), "{err}");
}

/// Each line of the journal carries a digest of its entry under a key kept
/// beside it: `--resume` refuses, says so and grades again a line edited by
/// hand (here to hide a candidate's failures) and junk (a line cut short),
/// and takes the rest.
#[test]
fn resume_refuses_journal_lines_that_were_edited_or_cut_short() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("grade-journal");
    let toml = scratch.path("class.toml");
    manifest(
        &toml,
        &[
            ("seven-is-three", "seven-is-three.sh"),
            ("reference", "class/reference.sh"),
        ],
    );
    let grade = |extra: &[&str]| grade_into_r_json(&scratch, &toml, extra);
    grade(&[]);
    let path = scratch.path("r.json.journal.jsonl");
    let key = fs::metadata(scratch.path("r.json.journal.key")).unwrap();
    assert_eq!(key.permissions().mode() & 0o777, 0o600);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 2);
    // The broken candidate's line edited to hide its failures, valid JSON
    // still; then a line cut short.
    let mut lines: Vec<String> = Vec::new();
    let mut edited = 0;
    for line in text.lines() {
        let mut value: Value = serde_json::from_str(line).unwrap();
        if value["entry"]["graded"]["entry"]["name"] == "seven-is-three" {
            let counts = &mut value["entry"]["graded"]["check"]["counts"];
            assert!(counts["defined"].as_u64().unwrap() > 0);
            counts["defined"] = 0.into();
            edited = lines.len() + 1;
            lines.push(serde_json::to_string(&value).unwrap());
        } else {
            lines.push(line.to_string());
        }
    }
    lines.push("{\"hmac\":\"00\",\"entry\":{\"key\":".into());
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    let err = grade(&["--resume"]);
    let journal = path.display().to_string();
    assert!(
        err.contains(&format!(
            "cz grade: {journal} line {edited}: its digest does not match its entry (edited, or not written by cz grade) (candidate \"seven-is-three\"); graded again"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "cz grade: {journal} line 3: not an entry of the journal (cut short, or not written by cz grade); graded again"
        )),
        "{err}"
    );
    assert!(err.contains("1 candidates taken from"), "{err}");
    assert!(err.contains("] seven-is-three: "), "{err}");
    assert!(!err.contains("] reference: "), "{err}");
    let report = json(&scratch.path("r.json"));
    let seven = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "seven-is-three")
        .unwrap();
    assert!(seven["defined_failures"].as_u64().unwrap() > 0, "{seven}");
    // The journal was written anew under a new key: every line verifies.
    let err = grade(&["--resume"]);
    assert!(err.contains("2 candidates taken from"), "{err}");
    assert!(!err.contains("graded again"), "{err}");
    // Without its key, a journal is trusted for nothing.
    fs::remove_file(scratch.path("r.json.journal.key")).unwrap();
    let err = grade(&["--resume"]);
    assert_eq!(
        err.matches("its journal's key is missing").count(),
        2,
        "{err}"
    );
    assert!(!err.contains("taken from"), "{err}");
}

/// A Python candidate's runs through the fork server end as fresh runs of
/// the interpreter do, in every way a run can end (an answer, an exit
/// status, a message, a traceback, `os._exit`, standard input read,
/// `__name__` and `sys.argv`): the whole report is the same.
#[test]
fn the_fork_server_ends_runs_as_fresh_interpreters_do() {
    let script = root().join("crates/toolbox/tests/fixtures/python/chameleon.py");
    let script = script.to_str().unwrap();
    let check = |extra: &[&str]| {
        let mut args = vec![
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "30",
            "--shrink",
            "2",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", "python3", script]);
        let out = run_cz(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        stdout(&out)
    };
    let forked = check(&[]);
    let fresh = check(&["--fresh-python"]);
    // The server was used, and held to fresh runs: two cases passed and
    // the first of six kinds of failure.
    let said = "Run through a fork server of the interpreter; 8 cases run again in a fresh one ended the same way.\n\n";
    assert!(forked.contains(said), "{forked}");
    assert!(!fresh.contains("fork server"), "{fresh}");
    assert_eq!(forked.replace(said, ""), fresh);
    // Faithful, so not run fresh; and the same answers when run again.
    assert!(!forked.contains("Run fresh"), "{forked}");
    assert!(!forked.contains("NONDETERMINISTIC"), "{forked}");
    // Every way of ending was met.
    for seen in [
        "got 3",
        "got 1",
        "got 0",
        "got 2",
        "got 4",
        "exit status 1",
        "\"no code for this one\"",
        "\"ValueError: a bad line\"",
        "exit status 2",
    ] {
        assert!(forked.contains(seen), "{seen} not in {forked}");
    }
}

/// A Python candidate that tells its fork server from a fresh interpreter
/// is found out, its cases are run again fresh, and the report says why;
/// answering each way the same file the same way, it is not
/// nondeterministic.
#[test]
fn a_fork_server_unfaithful_to_its_candidate_is_said() {
    let out = run_cz(
        &[
            "check",
            "--cases",
            "3",
            "--",
            "python3",
            "crates/toolbox/tests/fixtures/python/unfaithful.py",
        ],
        b"",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let reason = "Run fresh: the fork server's answer differed from a fresh interpreter's on case ";
    assert!(text.contains(reason), "{text}");
    assert!(
        text.contains("; through the server, got 3; fresh, "),
        "{text}"
    );
    assert!(!text.contains("ended the same way"), "{text}");
    assert!(!text.contains("NONDETERMINISTIC"), "{text}");
    // Every case answered as a fresh interpreter answers: 4.
    assert!(text.contains("got 4"), "{text}");
    assert!(!text.contains("got 3 ["), "{text}");
}

/// A candidate that answers at random is named nondeterministic in every
/// report, each flaky case with both its answers; a consistently wrong one
/// is not.
#[test]
fn a_candidate_that_answers_at_random_is_nondeterministic() {
    let scratch = Scratch::new("grade-random");
    let out = grade_in_four_forms(
        &scratch,
        &[
            ("dice", "answers-at-random.sh"),
            ("seven-is-three", "seven-is-three.sh"),
        ],
        "9",
        &[],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let doc = json(&scratch.path("r.json"));
    let by_name = |name: &str| {
        doc["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()
            .clone()
    };
    let (dice, seven) = (by_name("dice"), by_name("seven-is-three"));
    assert_eq!(seven["nondeterministic"], false, "{text}");
    assert_eq!(seven["flaky"], Value::Array(Vec::new()), "{text}");
    assert_eq!(seven["fresh_reason"], Value::Null, "{text}");
    assert_eq!(dice["nondeterministic"], true, "{text}");
    // Sixty-four cases run again, each answered again with a code in ten:
    // some differ (all but about one in ten).
    let flaky = dice["flaky"].as_array().unwrap();
    assert!(!flaky.is_empty() && flaky.len() <= 64, "{text}");
    for f in flaky {
        assert_ne!(f["first"], f["second"], "{f}");
        let line = format!(
            "     {}: expected {}",
            f["case"].as_str().unwrap(),
            f["expected"]
        );
        assert!(text.contains(&line), "{line} not in {text}");
    }
    let heading = format!(
        "NONDETERMINISTIC: {} case{} answered differently when run again",
        flaky.len(),
        if flaky.len() == 1 { "" } else { "s" }
    );
    assert_eq!(text.matches(&heading).count(), 1, "{text}");
    assert!(text.lines().any(|l| l.starts_with("  2  dice~ ")), "{text}");
    assert!(!text.contains("seven-is-three~"), "{text}");
    let xml = fs::read_to_string(scratch.path("r.xml")).unwrap();
    assert!(xml.contains("NONDETERMINISTIC: "), "{xml}");
    let html = fs::read_to_string(scratch.path("r.html")).unwrap();
    assert!(html.contains(&heading), "{html}");
    assert_eq!(html.matches("class=\"badge nondeterministic\"").count(), 2);
}

/// What a Python candidate starts, even in a session of its own, does not
/// outlive its run through the fork server, nor a run that hangs; the
/// scratch folder goes too.
#[test]
fn a_python_candidate_leaves_nothing_behind() {
    let scratch = Scratch::new("fork-hostile");
    let m = marker(13);
    let script = scratch.path(&format!("hostile-{m}.py"));
    fs::copy(
        root().join("crates/toolbox/tests/fixtures/python/hostile.py"),
        &script,
    )
    .unwrap();
    let out = run_cz(
        &[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "6",
            "--timeout",
            "1",
            "--",
            "python3",
            script.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("TIMEOUT"), "{text}");
    assert!(text.contains("fork server"), "{text}");
    assert_eq!(processes_with(&m), Vec::<String>::new());
}

/// A candidate that prints a banner and its verdict in words is read as
/// the manifest says: through a table of messages it passes every case
/// (only the usage message, compared whole, fails), and its cases run
/// through the fork server; read whole, every case is a crash.
#[test]
fn a_manifest_says_how_to_read_an_answer() {
    let scratch = Scratch::new("grade-answer");
    let manifest = scratch.path("class.toml");
    let dir = root().join("crates/toolbox/tests/fixtures/class");
    let words = [
        "Draw",
        "Player 1 wins",
        "Player 2 wins",
        "Incomplete",
        "Illegal continue",
        "Illegal row",
        "Illegal column",
        "Illegal game",
        "Invalid file",
        "File error",
    ];
    let table: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(code, w)| format!("\"{w}\" = {code}"))
        .collect();
    let entry = |name: &str, answer: &str| {
        format!(
            "[[candidate]]\nname = \"{name}\"\ncommand = [\"python3\", \"says-words.py\"]\ndir = \"{}\"\nenv = [\"CONNECTZ\"]\npaths = [\"$CONNECTZ\"]\n{answer}\n\n",
            dir.display()
        )
    };
    fs::write(
        &manifest,
        entry("table", &format!("answer = {{ {} }}", table.join(", "))) + &entry("whole", ""),
    )
    .unwrap();
    let report = scratch.path("r.json");
    let out = run_cz(
        &[
            "grade",
            manifest.to_str().unwrap(),
            "--cases",
            "9",
            "--json",
            report.to_str().unwrap(),
        ],
        b"",
    );
    let text = stdout(&out);
    let doc = json(&report);
    let by_name = |name: &str| {
        doc["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()
            .clone()
    };
    let table = by_name("table");
    assert_eq!(table["crashes"], 0, "{text}");
    assert_eq!(table["passed"], table["total"], "{text}");
    // The two usage checks: a banner before the message.
    assert_eq!(table["defined_failures"], 2, "{text}");
    // Run through the fork server: its findings were checked fresh.
    assert!(
        !text.contains("; 0 checked again in a fresh interpreter"),
        "{text}"
    );
    let whole = by_name("whole");
    assert_eq!(whole["crashes"], whole["total"], "{text}");
}
