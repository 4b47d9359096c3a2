//! `cz check`: runs a candidate implementation on the reference corpus and on
//! generated games, and reports where it differs from the reference.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::generate::{Frame, Rng, game_with_code};
use crate::judge::{Code, judge_bytes};
use crate::spec::{Class, Example, cases, clauses};

/// The argument message of the brief (r[code.args]).
pub const USAGE: &str = "connectz.py: Provide one input file";

/// One input the candidate is run on.
#[derive(Clone, Debug)]
pub struct Case {
    /// Where it comes from: a spec example, a tests/cases path, or a seed.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The reference's code.
    pub expect: Code,
    /// The spec clause that decides it.
    pub rule: &'static str,
    /// Whether the brief settles it.
    pub class: Class,
    /// Generated cases can be shrunk when they fail.
    pub generated: bool,
}

/// How one run of the candidate went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It printed the reference's code.
    Pass,
    /// It printed another code.
    Mismatch {
        /// What it printed.
        got: u8,
    },
    /// It did not print one integer 0 to 9 and exit 0.
    Crash {
        /// Exit status, if it exited.
        status: Option<i32>,
        /// The start of what it wrote to standard error.
        stderr: String,
        /// The start of what it wrote to standard out.
        stdout: String,
    },
    /// It ran past the time limit and was killed.
    Timeout,
}

/// One case and how the candidate did on it.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case.
    pub case: Case,
    /// The outcome.
    pub outcome: Outcome,
    /// For a failing generated case: the smallest failing input found.
    pub shrunk: Option<Vec<u8>>,
}

/// A check of the command line itself.
#[derive(Clone, Debug)]
pub struct ArgCheck {
    /// What was checked.
    pub what: &'static str,
    /// What the reference prints.
    pub expected: String,
    /// What the candidate printed (standard out).
    pub got: String,
    /// Exit status, if it exited.
    pub status: Option<i32>,
}

impl ArgCheck {
    /// True when the output matches byte for byte.
    pub fn passed(&self) -> bool {
        self.got == self.expected
    }
}

/// Everything `cz check` found.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The command checked.
    pub command: String,
    /// Every case, in the order run.
    pub results: Vec<CaseResult>,
    /// The command-line checks.
    pub args: Vec<ArgCheck>,
}

/// How to run the candidate.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Program and leading arguments; the file's path is appended.
    pub command: Vec<OsString>,
    /// Time limit per run.
    pub timeout: Duration,
}

/// What one run printed.
#[derive(Clone, Debug)]
struct Run {
    stdout: String,
    stderr: String,
    status: Option<i32>,
    timed_out: bool,
}

impl Candidate {
    fn run(&self, args: &[&Path]) -> Run {
        let mut command = Command::new(&self.command[0]);
        command
            .args(&self.command[1..])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(e) => {
                return Run {
                    stdout: String::new(),
                    stderr: format!("cannot start the command: {e}"),
                    status: None,
                    timed_out: false,
                };
            }
        };
        // Read both pipes on threads so a chatty candidate cannot block.
        let drain = |pipe: Option<Box<dyn Read + Send>>| {
            thread::spawn(move || {
                let mut buf = Vec::new();
                if let Some(mut p) = pipe {
                    let _ = p.by_ref().take(1 << 20).read_to_end(&mut buf);
                    let _ = std::io::copy(&mut p, &mut std::io::sink());
                }
                String::from_utf8_lossy(&buf).into_owned()
            })
        };
        let out = drain(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let err = drain(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let start = Instant::now();
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status.code(),
                Ok(None) if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    timed_out = true;
                    break None;
                }
                Ok(None) => thread::sleep(Duration::from_millis(2)),
                Err(_) => break None,
            }
        };
        if timed_out {
            // A grandchild may still hold the pipes open: leave the readers
            // to finish on their own rather than wait for it.
            return Run {
                stdout: String::new(),
                stderr: String::new(),
                status,
                timed_out,
            };
        }
        Run {
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
            status,
            timed_out,
        }
    }

    fn judge(&self, path: &Path) -> Outcome {
        let run = self.run(&[path]);
        if run.timed_out {
            return Outcome::Timeout;
        }
        let printed = run.stdout.trim();
        match (printed.parse::<u8>(), run.status) {
            (Ok(code), Some(0)) if code <= 9 && printed.len() == 1 => {
                Outcome::Mismatch { got: code }
            }
            _ => Outcome::Crash {
                status: run.status,
                stderr: clip(&run.stderr),
                stdout: clip(&run.stdout),
            },
        }
    }
}

fn clip(s: &str) -> String {
    let line = s.trim().lines().last().unwrap_or("");
    line.chars().take(160).collect()
}

/// The shipped corpus: every spec example and every file of tests/cases.
pub fn corpus() -> Vec<Case> {
    let mut out = Vec::new();
    for clause in clauses().unwrap_or_default() {
        for (i, example) in clause.examples.iter().enumerate() {
            if let Example::Game {
                bytes,
                expect,
                class,
                ..
            } = example
            {
                out.push(Case {
                    name: format!("spec {} #{}", clause.id, i + 1),
                    bytes: bytes.clone(),
                    expect: *expect,
                    rule: judge_bytes(bytes).verdict.rule(),
                    class: *class,
                    generated: false,
                });
            }
        }
    }
    for case in cases() {
        out.push(Case {
            name: format!("tests/cases/{}", case.path),
            bytes: case.bytes.to_vec(),
            expect: case.expect,
            rule: judge_bytes(case.bytes).verdict.rule(),
            class: case.class,
            generated: false,
        });
    }
    out
}

/// `count` generated games, every code 0 to 8 in turn, on random frames.
pub fn generated(count: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 50 {
        tries += 1;
        let code = Code::ALL[out.len() % 9];
        let frame = Frame {
            x: 1 + rng.below(9),
            y: 1 + rng.below(8),
            z: 1 + rng.below(6),
        };
        let game_seed = rng.next_u64();
        if let Ok(bytes) = game_with_code(code, frame, game_seed) {
            out.push(Case {
                name: format!(
                    "generated code {code}, frame {} {} {}, seed {game_seed}",
                    frame.x, frame.y, frame.z
                ),
                rule: judge_bytes(&bytes).verdict.rule(),
                bytes,
                expect: code,
                class: Class::Defined,
                generated: true,
            });
        }
    }
    out
}

/// Runs the candidate on `cases` (in parallel) and on the command-line
/// checks; shrinks up to `shrink` failing generated cases.
pub fn check(
    candidate: &Candidate,
    cases: Vec<Case>,
    shrink: usize,
    scratch: &Path,
) -> std::io::Result<CheckReport> {
    fs::create_dir_all(scratch)?;
    let paths: Vec<PathBuf> = (0..cases.len())
        .map(|i| scratch.join(format!("case-{i:05}.txt")))
        .collect();
    for (case, path) in cases.iter().zip(&paths) {
        fs::write(path, &case.bytes)?;
    }
    let outcomes: Vec<Outcome> = cases
        .par_iter()
        .zip(&paths)
        .map(|(case, path)| match candidate.judge(path) {
            Outcome::Mismatch { got } if got == case.expect.number() => Outcome::Pass,
            other => other,
        })
        .collect();
    let mut results: Vec<CaseResult> = cases
        .into_iter()
        .zip(outcomes)
        .map(|(case, outcome)| CaseResult {
            case,
            outcome,
            shrunk: None,
        })
        .collect();
    let mut budget = shrink;
    for result in &mut results {
        if budget == 0 {
            break;
        }
        if result.case.generated && matches!(result.outcome, Outcome::Mismatch { .. }) {
            budget -= 1;
            result.shrunk = Some(shrink_failure(
                candidate,
                &result.case.bytes,
                &scratch.join("shrink.txt"),
            )?);
        }
    }
    let args = argument_checks(candidate, scratch)?;
    for path in &paths {
        let _ = fs::remove_file(path);
    }
    Ok(CheckReport {
        command: candidate
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" "),
        results,
        args,
    })
}

fn argument_checks(candidate: &Candidate, scratch: &Path) -> std::io::Result<Vec<ArgCheck>> {
    let file = scratch.join("args-sample.txt");
    fs::write(&file, b"3 3 3\n1\n2\n1\n2\n1\n")?;
    let missing = scratch.join("no-such-file.txt");
    let _ = fs::remove_file(&missing);
    let runs: [(&'static str, Vec<&Path>, &str); 4] = [
        ("no argument", vec![], USAGE),
        ("two arguments", vec![&file, &file], USAGE),
        ("a missing file", vec![&missing], "9"),
        ("a directory", vec![scratch], "9"),
    ];
    Ok(runs
        .into_iter()
        .map(|(what, args, expected)| {
            let run = candidate.run(&args);
            ArgCheck {
                what,
                expected: format!("{expected}\n"),
                got: run.stdout,
                status: run.status,
            }
        })
        .collect())
}

/// Still failing: the candidate's code differs from the reference's.
fn still_fails(candidate: &Candidate, bytes: &[u8], path: &Path) -> std::io::Result<bool> {
    fs::write(path, bytes)?;
    let expect = judge_bytes(bytes).code().number();
    Ok(matches!(candidate.judge(path), Outcome::Mismatch { got } if got != expect))
}

/// Drops move lines and shrinks the frame while the candidate still fails.
fn shrink_failure(candidate: &Candidate, bytes: &[u8], path: &Path) -> std::io::Result<Vec<u8>> {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let render = |lines: &[String]| -> Vec<u8> {
        let mut out = lines.join("\n").into_bytes();
        out.push(b'\n');
        out
    };
    let mut runs = 0;
    let mut changed = true;
    while changed && runs < 200 {
        changed = false;
        // Drop moves, last first.
        let mut i = lines.len();
        while i > 1 && runs < 200 {
            i -= 1;
            let mut fewer = lines.clone();
            fewer.remove(i);
            runs += 1;
            if still_fails(candidate, &render(&fewer), path)? {
                lines = fewer;
                changed = true;
            }
        }
        // Shrink each number of the frame by one.
        for field in 0..3 {
            let mut numbers: Vec<u64> =
                lines[0].split(' ').filter_map(|n| n.parse().ok()).collect();
            if numbers.len() != 3 || numbers[field] <= 1 || runs >= 200 {
                continue;
            }
            numbers[field] -= 1;
            let mut smaller = lines.clone();
            smaller[0] = format!("{} {} {}", numbers[0], numbers[1], numbers[2]);
            runs += 1;
            if still_fails(candidate, &render(&smaller), path)? {
                lines = smaller;
                changed = true;
            }
        }
    }
    Ok(render(&lines))
}

impl CheckReport {
    /// Failures on defined cases (mismatches, crashes, timeouts) and
    /// command-line checks that failed.
    pub fn defined_failures(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.outcome != Outcome::Pass && r.case.class == Class::Defined)
            .count()
            + self.args.iter().filter(|a| !a.passed()).count()
    }

    /// The report as text. No timings: the same run gives the same text.
    pub fn text(&self) -> String {
        let mut out = format!("cz check: {}\n", self.command);
        let generated = self.results.iter().filter(|r| r.case.generated).count();
        let _ = writeln!(
            out,
            "{} cases: {} from the shipped corpus, {generated} generated\n",
            self.results.len(),
            self.results.len() - generated
        );
        for r in &self.results {
            let c = &r.case;
            let (label, detail) = match &r.outcome {
                Outcome::Pass => continue,
                Outcome::Mismatch { got } => (
                    if c.class == Class::Defined {
                        "FAIL"
                    } else {
                        "NOTE"
                    },
                    format!("expected {} ({}), got {got}", c.expect, c.expect.name()),
                ),
                Outcome::Crash {
                    status,
                    stderr,
                    stdout,
                } => (
                    "CRASH",
                    format!(
                        "expected {}; exit status {}; stdout {:?}; stderr {:?}",
                        c.expect,
                        status.map_or("none".into(), |s| s.to_string()),
                        stdout,
                        stderr
                    ),
                ),
                Outcome::Timeout => ("TIMEOUT", format!("expected {}", c.expect)),
            };
            let _ = writeln!(
                out,
                "{label:<7} {}: {detail} [{}, {}]",
                c.name,
                c.rule,
                c.class.name()
            );
            let input = r.shrunk.as_deref().unwrap_or(&c.bytes);
            let prefix = if r.shrunk.is_some() {
                "shortest failing input"
            } else {
                "input"
            };
            let _ = writeln!(out, "        {prefix}: \"{}\"", input.escape_ascii());
        }
        out.push_str("\ncommand line:\n");
        for a in &self.args {
            let verdict = if a.passed() { "ok" } else { "FAIL" };
            let _ = write!(
                out,
                "  {verdict:<4} {}: expected {:?}, got {:?}",
                a.what, a.expected, a.got
            );
            if a.status != Some(0) {
                let _ = write!(
                    out,
                    " (exit status {})",
                    a.status.map_or("none".into(), |s| s.to_string())
                );
            }
            out.push('\n');
        }
        out.push_str("\nscore per expected code:\n");
        for code in Code::ALL.into_iter().take(9) {
            let of_code: Vec<_> = self
                .results
                .iter()
                .filter(|r| r.case.expect == code)
                .collect();
            if of_code.is_empty() {
                continue;
            }
            let passed = of_code
                .iter()
                .filter(|r| r.outcome == Outcome::Pass)
                .count();
            let _ = writeln!(
                out,
                "  {code} {:<17} {passed:>4}/{}",
                code.name(),
                of_code.len()
            );
        }
        let count = |f: &dyn Fn(&CaseResult) -> bool| self.results.iter().filter(|r| f(r)).count();
        let passed = count(&|r| r.outcome == Outcome::Pass);
        let notes = count(&|r| {
            matches!(r.outcome, Outcome::Mismatch { .. }) && r.case.class == Class::Impl
        });
        let crashes = count(&|r| matches!(r.outcome, Outcome::Crash { .. }));
        let timeouts = count(&|r| r.outcome == Outcome::Timeout);
        let _ = writeln!(
            out,
            "\npassed {passed} of {}; defined failures {}; impl notes {notes}; crashes {crashes}; timeouts {timeouts}",
            self.results.len(),
            self.defined_failures()
        );
        out
    }
}
