//! `cz check`: runs a candidate implementation on the reference corpus and on
//! generated games, and reports where it differs from the reference.

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use rayon::prelude::*;

use connectz::{Code, USAGE, judge_bytes};
use connectz_explain::spec::{Class, Example, case_files, clauses};
use connectz_testkit::generate::{Frame, game_with_code};
use connectz_testkit::rng::Rng;

use crate::sandbox::{Ended, Run, Sandbox};

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
    /// It failed for want of memory under the memory cap.
    MemoryExceeded {
        /// Its peak resident memory, in bytes, when known.
        peak: Option<u64>,
    },
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
    /// The cases that did not pass, in the order run (at most
    /// [`KEPT_FAILURES`]; the rest are only counted).
    pub results: Vec<CaseResult>,
    /// Cases run.
    pub total: usize,
    /// Cases generated rather than taken from the corpus.
    pub generated: usize,
    /// Per expected code: cases and passes.
    pub per_code: [(usize, usize); 10],
    /// Failures not kept in `results`.
    pub unlisted: usize,
    /// The command-line checks.
    pub args: Vec<ArgCheck>,
    /// Counts of outcomes over all cases.
    pub counts: Counts,
}

/// Outcomes over all cases of a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Cases passed.
    pub passed: usize,
    /// Mismatches on `defined` cases, crashes, timeouts and memory breaches
    /// on `defined` cases.
    pub defined: usize,
    /// Mismatches on `impl` cases.
    pub notes: usize,
    /// Crashes.
    pub crashes: usize,
    /// Timeouts.
    pub timeouts: usize,
    /// Memory breaches.
    pub memory: usize,
}

/// Failures kept with their inputs; further ones are counted.
pub const KEPT_FAILURES: usize = 1000;

/// Cases prepared and run at a time: memory does not grow with `--cases`.
const BATCH: usize = 256;

/// How to run the candidate.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Program and leading arguments; the file's path is appended.
    pub command: Vec<OsString>,
}

/// What one run printed, as text.
#[derive(Clone, Debug)]
struct Printed {
    stdout: String,
    stderr: String,
    status: Option<i32>,
    run: Run,
}

impl Candidate {
    fn run(&self, sandbox: &Sandbox, args: &[&Path]) -> Printed {
        let args: Vec<&OsStr> = args.iter().map(|p| p.as_os_str()).collect();
        let run = sandbox.run(&self.command, &args);
        let status = match &run.ended {
            Ended::Exited(code) => Some(*code),
            _ => None,
        };
        let stderr = match &run.ended {
            Ended::NotStarted(why) => why.clone(),
            Ended::Signalled(signal) => format!(
                "{}(killed by signal {signal})",
                String::from_utf8_lossy(&run.stderr)
            ),
            _ => String::from_utf8_lossy(&run.stderr).into_owned(),
        };
        Printed {
            stdout: String::from_utf8_lossy(&run.stdout).into_owned(),
            stderr,
            status,
            run,
        }
    }

    fn judge(&self, sandbox: &Sandbox, path: &Path) -> Outcome {
        let printed = self.run(sandbox, &[path]);
        if printed.run.ended == Ended::TimedOut {
            return Outcome::Timeout;
        }
        let answer = printed.stdout.trim();
        match (answer.parse::<u8>(), printed.status) {
            (Ok(code), Some(0)) if code <= 9 && answer.len() == 1 => {
                Outcome::Mismatch { got: code }
            }
            _ if printed.run.memory_exceeded => Outcome::MemoryExceeded {
                peak: printed.run.peak_memory,
            },
            _ => Outcome::Crash {
                status: printed.status,
                stderr: clip(&printed.stderr),
                stdout: clip(&printed.stdout),
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
    for case in case_files() {
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

/// `count` generated games, every code 0 to 8 in turn, on random frames,
/// made as they are asked for.
pub fn generated(count: usize, seed: u64) -> impl Iterator<Item = Case> {
    let mut rng = Rng::new(seed);
    let mut made = 0;
    let mut tries = 0;
    std::iter::from_fn(move || {
        while made < count && tries < count.saturating_mul(50) {
            tries += 1;
            let code = Code::ALL[made % 9];
            let frame = Frame {
                x: 1 + rng.below(9),
                y: 1 + rng.below(8),
                z: 1 + rng.below(6),
            };
            let game_seed = rng.next_u64();
            if let Ok(bytes) = game_with_code(code, frame, game_seed) {
                made += 1;
                return Some(Case {
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
        None
    })
}

/// Runs the candidate on `cases` and on the command-line checks, `jobs`
/// runs at a time, each under the sandbox's limits; shrinks up to `shrink`
/// failing generated cases. Cases are taken from the iterator a batch at a
/// time, so memory does not grow with their number.
///
/// # Errors
/// A case file cannot be written to the sandbox's scratch folder, or the
/// thread pool cannot be made.
pub fn check(
    candidate: &Candidate,
    cases: impl Iterator<Item = Case>,
    sandbox: &Sandbox,
    jobs: usize,
    shrink: usize,
) -> std::io::Result<CheckReport> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(std::io::Error::other)?;
    let mut report = CheckReport {
        command: candidate
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" "),
        results: Vec::new(),
        total: 0,
        generated: 0,
        per_code: [(0, 0); 10],
        unlisted: 0,
        args: Vec::new(),
        counts: Counts::default(),
    };
    let mut cases = cases.peekable();
    while cases.peek().is_some() {
        let batch: Vec<Case> = cases.by_ref().take(BATCH).collect();
        let first = report.total;
        let outcomes: Vec<std::io::Result<Outcome>> = pool.install(|| {
            batch
                .par_iter()
                .enumerate()
                .map(|(i, case)| {
                    let path = sandbox.scratch().join(format!("case-{}.txt", first + i));
                    fs::write(&path, &case.bytes)?;
                    let outcome = match candidate.judge(sandbox, &path) {
                        Outcome::Mismatch { got } if got == case.expect.number() => Outcome::Pass,
                        other => other,
                    };
                    let _ = fs::remove_file(&path);
                    Ok(outcome)
                })
                .collect()
        });
        for (case, outcome) in batch.into_iter().zip(outcomes) {
            report.tally(case, outcome?);
        }
    }
    let mut budget = shrink;
    for result in &mut report.results {
        if budget == 0 {
            break;
        }
        if result.case.generated && matches!(result.outcome, Outcome::Mismatch { .. }) {
            budget -= 1;
            result.shrunk = Some(shrink_failure(
                candidate,
                sandbox,
                &result.case.bytes,
                &sandbox.scratch().join("shrink.txt"),
            )?);
        }
    }
    report.args = argument_checks(candidate, sandbox)?;
    Ok(report)
}

fn argument_checks(candidate: &Candidate, sandbox: &Sandbox) -> std::io::Result<Vec<ArgCheck>> {
    let scratch = sandbox.scratch();
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
    let checks = runs
        .into_iter()
        .map(|(what, args, expected)| {
            let printed = candidate.run(sandbox, &args);
            ArgCheck {
                what,
                expected: format!("{expected}\n"),
                got: printed.stdout,
                status: printed.status,
            }
        })
        .collect();
    let _ = fs::remove_file(&file);
    Ok(checks)
}

/// Still failing: the candidate's code differs from the reference's.
fn still_fails(
    candidate: &Candidate,
    sandbox: &Sandbox,
    bytes: &[u8],
    path: &Path,
) -> std::io::Result<bool> {
    fs::write(path, bytes)?;
    let expect = judge_bytes(bytes).code().number();
    Ok(matches!(candidate.judge(sandbox, path), Outcome::Mismatch { got } if got != expect))
}

/// Drops move lines and shrinks the frame while the candidate still fails.
fn shrink_failure(
    candidate: &Candidate,
    sandbox: &Sandbox,
    bytes: &[u8],
    path: &Path,
) -> std::io::Result<Vec<u8>> {
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
            if still_fails(candidate, sandbox, &render(&fewer), path)? {
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
            if still_fails(candidate, sandbox, &render(&smaller), path)? {
                lines = smaller;
                changed = true;
            }
        }
    }
    let _ = fs::remove_file(path);
    Ok(render(&lines))
}

impl CheckReport {
    /// Counts one case's outcome, keeping it when it did not pass.
    fn tally(&mut self, case: Case, outcome: Outcome) {
        self.total += 1;
        self.generated += usize::from(case.generated);
        let slot = &mut self.per_code[usize::from(case.expect.number())];
        slot.0 += 1;
        let defined = case.class == Class::Defined;
        let c = &mut self.counts;
        match &outcome {
            Outcome::Pass => {
                slot.1 += 1;
                c.passed += 1;
                return;
            }
            Outcome::Mismatch { .. } if !defined => c.notes += 1,
            Outcome::Mismatch { .. } => {}
            Outcome::Crash { .. } => c.crashes += 1,
            Outcome::Timeout => c.timeouts += 1,
            Outcome::MemoryExceeded { .. } => c.memory += 1,
        }
        c.defined += usize::from(defined);
        if self.results.len() < KEPT_FAILURES {
            self.results.push(CaseResult {
                case,
                outcome,
                shrunk: None,
            });
        } else {
            self.unlisted += 1;
        }
    }

    /// Failures on defined cases (mismatches, crashes, timeouts, memory
    /// breaches) and command-line checks that failed.
    pub fn defined_failures(&self) -> usize {
        self.counts.defined + self.args.iter().filter(|a| !a.passed()).count()
    }

    /// The report as text. No timings: the same run gives the same text.
    pub fn text(&self) -> String {
        let mut out = format!("cz check: {}\n", self.command);
        let _ = writeln!(
            out,
            "{} cases: {} from the shipped corpus, {} generated\n",
            self.total,
            self.total - self.generated,
            self.generated
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
                Outcome::MemoryExceeded { peak } => (
                    "MEMORY",
                    format!(
                        "expected {}; ran out of memory under the cap{}",
                        c.expect,
                        peak.map_or(String::new(), |p| format!(" (peak {} MB)", p >> 20))
                    ),
                ),
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
        if self.unlisted > 0 {
            let _ = writeln!(out, "... and {} more failures, not listed", self.unlisted);
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
            let (cases, passed) = self.per_code[usize::from(code.number())];
            if cases == 0 {
                continue;
            }
            let _ = writeln!(out, "  {code} {:<17} {passed:>4}/{cases}", code.name());
        }
        let c = &self.counts;
        let _ = writeln!(
            out,
            "\npassed {} of {}; defined failures {}; impl notes {}; crashes {}; timeouts {}; memory breaches {}",
            c.passed,
            self.total,
            self.defined_failures(),
            c.notes,
            c.crashes,
            c.timeouts,
            c.memory
        );
        out
    }
}
