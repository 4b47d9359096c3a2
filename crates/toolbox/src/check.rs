//! `cz check`: runs a candidate implementation on the reference corpus and on
//! generated games, and reports where it differs from the reference. `cz
//! grade` runs the same check over a class of candidates.

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use connectz::{Code, Report, USAGE, judge_bytes};
use connectz_gen::{Frame, game_with_code};
use connectz_rng::Rng;
use connectz_spec::{Class, Example, case_files, clauses};

use crate::sandbox::{Ended, Execution, Sandbox};

/// The part of the spec a case exercises: the columns of `cz grade`'s
/// leaderboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Area {
    /// Lines, line ends, separators, empty files (`format.*`).
    Format,
    /// Number syntax, zero, and numbers past 32 bits.
    Numbers,
    /// Play: turns, gravity, runs, the end, moves after a win, full and
    /// missing columns (`rule.*`).
    Rules,
    /// Frames on which no line can be completed (`rule.winnable`).
    Winnability,
    /// Files with more than one fault: which code wins (`code.precedence`).
    Precedence,
    /// The argument message, a missing file, a directory (`code.args`,
    /// `code.io`).
    CommandLine,
}

impl Area {
    /// Every area, in the leaderboard's order.
    pub const ALL: [Area; 6] = [
        Area::Format,
        Area::Numbers,
        Area::Rules,
        Area::Winnability,
        Area::Precedence,
        Area::CommandLine,
    ];

    /// Its name, one word.
    pub fn name(self) -> &'static str {
        match self {
            Area::Format => "format",
            Area::Numbers => "numbers",
            Area::Rules => "rules",
            Area::Winnability => "winnability",
            Area::Precedence => "precedence",
            Area::CommandLine => "command-line",
        }
    }

    /// The area of a game file whose case exercises `rule`.
    pub fn of(rule: &str, report: &Report, bytes: &[u8]) -> Area {
        let several_faults = report.faults.len() >= 2;
        if several_faults || rule == "code.precedence" || rule == "decision.precedence" {
            Area::Precedence
        } else if rule == "rule.winnable" || rule == "decision.unwinnable" {
            Area::Winnability
        } else if matches!(
            rule,
            "format.number"
                | "format.positive"
                | "decision.zero"
                | "decision.number-syntax"
                | "decision.big-numbers"
        ) || has_long_number(bytes)
        {
            Area::Numbers
        } else if rule.starts_with("format.")
            || matches!(
                rule,
                "decision.empty-file"
                    | "decision.blank-line"
                    | "decision.line-ending"
                    | "decision.separator"
                    | "decision.final-newline"
                    | "decision.header-only"
            )
        {
            Area::Format
        } else if rule.starts_with("code.") || rule == "decision.unreadable" {
            Area::CommandLine
        } else {
            Area::Rules
        }
    }
}

/// True when the file holds a number of 10 digits or more (past 32 bits).
fn has_long_number(bytes: &[u8]) -> bool {
    bytes
        .split(|b| !b.is_ascii_digit())
        .any(|digits| digits.len() >= 10)
}

/// One input the candidate is run on.
#[derive(Clone, Debug)]
pub struct Case {
    /// Where it comes from: a spec example, a tests/cases path, or a seed.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The reference's code.
    pub expect: Code,
    /// The spec clause it exercises: a spec example's clause, an `impl`
    /// case's decision, `code.precedence` for a file with several faults,
    /// else the rule of the verdict.
    pub rule: String,
    /// Whether the brief settles it.
    pub class: Class,
    /// The part of the spec it belongs to.
    pub area: Area,
    /// Generated rather than shipped.
    pub generated: bool,
}

impl Case {
    /// A case of `bytes`, its code and rule from the reference; `clause` is
    /// the rule when the case is known to exercise one.
    pub fn new(name: String, bytes: Vec<u8>, clause: Option<&str>, class: Class) -> Case {
        let report = judge_bytes(&bytes);
        let rule = match clause {
            Some(rule) => rule.to_string(),
            None if report.faults.len() >= 2 => "code.precedence".to_string(),
            None => report.verdict.rule().to_string(),
        };
        Case {
            area: Area::of(&rule, &report, &bytes),
            expect: report.code(),
            name,
            bytes,
            rule,
            class,
            generated: false,
        }
    }
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
    /// Not run: the candidate had timed out on every case for a while
    /// ([`Options::give_up`]).
    Skipped,
}

impl Outcome {
    /// What the candidate answered, in a few words.
    pub fn answer(&self) -> String {
        match self {
            Outcome::Pass => "the same code".into(),
            Outcome::Mismatch { got } => format!("got {got}"),
            Outcome::Crash { status, .. } => format!(
                "crashed (exit status {})",
                status.map_or("none".into(), |s| s.to_string())
            ),
            Outcome::Timeout => "timed out".into(),
            Outcome::MemoryExceeded { .. } => "ran out of memory".into(),
            Outcome::Skipped => "not run".into(),
        }
    }
}

/// A failing input made smaller, with the same failure: the reference
/// gives it the same code, and the candidate the same wrong answer (or, for
/// a crash, crashes on it too).
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The smaller input.
    pub bytes: Vec<u8>,
    /// The reference's code for it.
    pub expect: Code,
    /// How the candidate did on it.
    pub outcome: Outcome,
}

/// One case and how the candidate did on it.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// Its place in the order run (0 for the first case).
    pub index: usize,
    /// The case.
    pub case: Case,
    /// The outcome.
    pub outcome: Outcome,
    /// How long the run took.
    pub elapsed: Duration,
    /// For a failing case that was shrunk: the smallest failing input found.
    pub shrunk: Option<Shrunk>,
}

/// One case's outcome in a few bytes, for reports that list every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ran {
    /// The reference's code.
    pub expect: u8,
    /// Whether it printed that code.
    pub passed: bool,
    /// How long the run took, in microseconds (saturating).
    pub micros: u32,
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
    /// Per area, in [`Area::ALL`] order; the command line's are the
    /// argument checks.
    pub per_area: [AreaScore; 6],
    /// Failures not kept in `results`.
    pub unlisted: usize,
    /// The command-line checks.
    pub args: Vec<ArgCheck>,
    /// Counts of outcomes over all cases.
    pub counts: Counts,
    /// Every case in the order run, when asked for ([`Options::log`]).
    pub log: Vec<Ran>,
}

/// How a candidate did on the cases of one [`Area`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AreaScore {
    /// Cases run.
    pub cases: usize,
    /// Cases passed.
    pub passed: usize,
    /// Differences on `impl` rulings: notes, not failures.
    pub notes: usize,
}

impl AreaScore {
    /// No failure: every case passed or differed only on an `impl` ruling.
    pub fn clean(&self) -> bool {
        self.passed + self.notes == self.cases
    }
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
    /// Cases not run, after too many timeouts.
    pub skipped: usize,
}

/// Failures kept with their inputs; further ones are counted.
pub const KEPT_FAILURES: usize = 1000;

/// Cases prepared and run at a time: memory does not grow with `--cases`.
const BATCH: usize = 256;

/// Runs of the candidate one shrink may make.
const SHRINK_RUNS: usize = 200;

/// How to run the candidate.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Program and leading arguments; the file's path is appended.
    pub command: Vec<OsString>,
    /// The folder to run it in (else the current one).
    pub dir: Option<PathBuf>,
}

/// What one run printed, as text.
#[derive(Clone, Debug)]
struct Printed {
    stdout: String,
    stderr: String,
    status: Option<i32>,
    run: Execution,
}

impl Candidate {
    /// The command line, as one string to show.
    pub fn shown(&self) -> String {
        self.command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn run(&self, sandbox: &Sandbox, args: &[&Path]) -> Printed {
        let args: Vec<&OsStr> = args.iter().map(|p| p.as_os_str()).collect();
        let run = sandbox.run_in(self.dir.as_deref(), &self.command, &args);
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

    /// Runs the candidate on the file at `path`: its outcome against the
    /// reference's code `expect`, and the run itself (time, peak memory).
    pub fn judge(&self, sandbox: &Sandbox, path: &Path, expect: Code) -> (Outcome, Execution) {
        let printed = self.run(sandbox, &[path]);
        let answer = printed.stdout.trim();
        let outcome = if printed.run.ended == Ended::TimedOut {
            Outcome::Timeout
        } else {
            match (answer.parse::<u8>(), printed.status) {
                (Ok(code), Some(0)) if code <= 9 && answer.len() == 1 => {
                    if code == expect.number() {
                        Outcome::Pass
                    } else {
                        Outcome::Mismatch { got: code }
                    }
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
        };
        (outcome, printed.run)
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
            if let Example::Game { bytes, class, .. } = example {
                out.push(Case::new(
                    format!("spec {} #{}", clause.id, i + 1),
                    bytes.clone(),
                    Some(&clause.id),
                    *class,
                ));
            }
        }
    }
    for case in case_files() {
        out.push(Case::new(
            format!("tests/cases/{}", case.path),
            case.bytes.to_vec(),
            case.decision,
            case.class,
        ));
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
                let name = format!(
                    "generated code {code}, frame {} {} {}, seed {game_seed}",
                    frame.x, frame.y, frame.z
                );
                let mut case = Case::new(name, bytes, None, Class::Defined);
                case.generated = true;
                return Some(case);
            }
        }
        None
    })
}

/// How to check.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Runs at a time.
    pub jobs: usize,
    /// Failing generated cases to shrink.
    pub shrink: usize,
    /// Keep a [`Ran`] of every case (8 bytes each).
    pub log: bool,
    /// Once the candidate has timed out this many times in a row, run no
    /// more of its cases: it hangs on everything, and each case would cost
    /// the whole time limit.
    pub give_up: Option<usize>,
}

/// Runs the candidate on `cases` and on the command-line checks, `jobs`
/// runs at a time, each under the sandbox's limits; shrinks up to `shrink`
/// failing generated cases. Cases are taken from the iterator a batch at a
/// time, so memory does not grow with their number (but for the log, when
/// asked for).
///
/// # Errors
/// A case file cannot be written to the sandbox's scratch folder, or the
/// thread pool cannot be made.
pub fn check(
    candidate: &Candidate,
    cases: impl Iterator<Item = Case>,
    sandbox: &Sandbox,
    options: Options,
) -> std::io::Result<CheckReport> {
    let pool = pool(options.jobs)?;
    let mut report = CheckReport {
        command: candidate.shown(),
        results: Vec::new(),
        total: 0,
        generated: 0,
        per_code: [(0, 0); 10],
        per_area: [AreaScore::default(); 6],
        unlisted: 0,
        args: Vec::new(),
        counts: Counts::default(),
        log: Vec::new(),
    };
    // Timeouts in a row, in the order runs end.
    let streak = AtomicUsize::new(0);
    let given_up = || {
        options
            .give_up
            .is_some_and(|n| streak.load(Ordering::Relaxed) >= n)
    };
    let mut cases = cases.peekable();
    while cases.peek().is_some() {
        let batch: Vec<Case> = cases.by_ref().take(BATCH).collect();
        let first = report.total;
        let outcomes: Vec<std::io::Result<(Outcome, Duration)>> = pool.install(|| {
            batch
                .par_iter()
                .enumerate()
                .map(|(i, case)| {
                    if given_up() {
                        return Ok((Outcome::Skipped, Duration::ZERO));
                    }
                    let path = sandbox.scratch().join(format!("case-{}.txt", first + i));
                    fs::write(&path, &case.bytes)?;
                    let (outcome, run) = candidate.judge(sandbox, &path, case.expect);
                    let _ = fs::remove_file(&path);
                    if outcome == Outcome::Timeout {
                        streak.fetch_add(1, Ordering::Relaxed);
                    } else {
                        streak.store(0, Ordering::Relaxed);
                    }
                    Ok((outcome, run.elapsed))
                })
                .collect()
        });
        for (case, outcome) in batch.into_iter().zip(outcomes) {
            let (outcome, elapsed) = outcome?;
            report.tally(case, outcome, elapsed, options.log);
        }
    }
    let to_shrink: Vec<&mut CaseResult> = report
        .results
        .iter_mut()
        .filter(|r| r.case.generated && matches!(r.outcome, Outcome::Mismatch { .. }))
        .take(options.shrink)
        .collect();
    pool.install(|| {
        to_shrink
            .into_par_iter()
            .enumerate()
            .try_for_each(|(i, result)| {
                let path = sandbox.scratch().join(format!("shrink-{i}.txt"));
                result.shrunk = shrink(candidate, sandbox, &result.case, &result.outcome, &path)?;
                Ok::<_, std::io::Error>(())
            })
    })?;
    report.args = argument_checks(candidate, sandbox)?;
    let area = &mut report.per_area[Area::CommandLine as usize];
    area.cases += report.args.len();
    area.passed += report.args.iter().filter(|a| a.passed()).count();
    Ok(report)
}

/// A pool of `jobs` threads.
///
/// # Errors
/// The threads cannot be made.
pub fn pool(jobs: usize) -> std::io::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(std::io::Error::other)
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

/// True when `outcome` on an input the reference calls `expect` is the
/// same failure as `original` on the case: the same wrong code, or a crash
/// again, for the same expected code.
fn same_failure(case: &Case, original: &Outcome, expect: Code, outcome: &Outcome) -> bool {
    expect == case.expect
        && match (original, outcome) {
            (Outcome::Mismatch { got: a }, Outcome::Mismatch { got: b }) => a == b,
            (Outcome::Crash { .. }, Outcome::Crash { .. }) => true,
            _ => false,
        }
}

/// Shrinks a failing case while the failure stays the same (the reference
/// gives the smaller input the case's code, and the candidate the same
/// wrong code, or a crash again): drops blocks of move lines, halving their size down
/// to single lines, and lowers the frame's numbers (to 1, to half, by one),
/// in at most 200 runs. `None` when nothing smaller fails the same
/// way, or the failure is not one that shrinks (a timeout or a memory
/// breach would cost a limit per try).
///
/// # Errors
/// The scratch file cannot be written.
pub fn shrink(
    candidate: &Candidate,
    sandbox: &Sandbox,
    case: &Case,
    original: &Outcome,
    path: &Path,
) -> std::io::Result<Option<Shrunk>> {
    if !matches!(original, Outcome::Mismatch { .. } | Outcome::Crash { .. }) {
        return Ok(None);
    }
    let Ok(text) = std::str::from_utf8(&case.bytes) else {
        return Ok(None);
    };
    // Split at line feeds only: a carriage return stays in its line.
    let ends_with_newline = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut lines: Vec<String> = body.split('\n').map(String::from).collect();
    let render = |lines: &[String]| -> Vec<u8> {
        let mut out = lines.join("\n").into_bytes();
        if ends_with_newline {
            out.push(b'\n');
        }
        out
    };
    let mut runs = 0;
    let mut best: Option<Shrunk> = None;
    let mut attempt = |lines: &[String], runs: &mut usize| -> std::io::Result<bool> {
        *runs += 1;
        let bytes = render(lines);
        fs::write(path, &bytes)?;
        let expect = judge_bytes(&bytes).code();
        let (outcome, _) = candidate.judge(sandbox, path, expect);
        if same_failure(case, original, expect, &outcome) {
            best = Some(Shrunk {
                bytes,
                expect,
                outcome,
            });
            return Ok(true);
        }
        Ok(false)
    };
    let mut changed = true;
    while changed && runs < SHRINK_RUNS {
        changed = false;
        // Drop blocks of move lines, from half of them down to one.
        let mut block = (lines.len().saturating_sub(1) / 2).max(1);
        loop {
            let mut end = lines.len();
            while end > 1 && runs < SHRINK_RUNS {
                let start = end.saturating_sub(block).max(1);
                let mut fewer = lines.clone();
                fewer.drain(start..end);
                if attempt(&fewer, &mut runs)? {
                    lines = fewer;
                    changed = true;
                    end = start.min(lines.len());
                } else {
                    end = start;
                }
            }
            if block == 1 || runs >= SHRINK_RUNS {
                break;
            }
            block /= 2;
        }
        // Lower each number of the frame: to 1, to half, by one.
        for field in 0..3 {
            let Some(header) = lines.first() else { break };
            let numbers: Vec<u64> = header.split(' ').filter_map(|n| n.parse().ok()).collect();
            if numbers.len() != 3 || numbers[field] <= 1 {
                continue;
            }
            let n = numbers[field];
            for lower in [1, n / 2, n - 1] {
                if lower == 0 || lower >= n || runs >= SHRINK_RUNS {
                    continue;
                }
                let mut fewer = numbers.clone();
                fewer[field] = lower;
                let mut smaller = lines.clone();
                smaller[0] = format!("{} {} {}", fewer[0], fewer[1], fewer[2]);
                if attempt(&smaller, &mut runs)? {
                    lines = smaller;
                    changed = true;
                    break;
                }
            }
        }
    }
    let _ = fs::remove_file(path);
    Ok(best)
}

impl CheckReport {
    /// Counts one case's outcome, keeping it when it did not pass.
    fn tally(&mut self, case: Case, outcome: Outcome, elapsed: Duration, log: bool) {
        self.total += 1;
        self.generated += usize::from(case.generated);
        let passed = outcome == Outcome::Pass;
        if log {
            self.log.push(Ran {
                expect: case.expect.number(),
                passed,
                micros: u32::try_from(elapsed.as_micros()).unwrap_or(u32::MAX),
            });
        }
        let slot = &mut self.per_code[usize::from(case.expect.number())];
        slot.0 += 1;
        slot.1 += usize::from(passed);
        let defined = case.class == Class::Defined;
        let area = &mut self.per_area[case.area as usize];
        area.cases += 1;
        area.passed += usize::from(passed);
        area.notes += usize::from(!defined && matches!(outcome, Outcome::Mismatch { .. }));
        let c = &mut self.counts;
        match &outcome {
            Outcome::Pass => {
                c.passed += 1;
                return;
            }
            Outcome::Mismatch { .. } if !defined => c.notes += 1,
            Outcome::Mismatch { .. } => {}
            Outcome::Crash { .. } => c.crashes += 1,
            Outcome::Timeout => c.timeouts += 1,
            Outcome::MemoryExceeded { .. } => c.memory += 1,
            Outcome::Skipped => c.skipped += 1,
        }
        c.defined += usize::from(defined);
        if self.results.len() < KEPT_FAILURES {
            self.results.push(CaseResult {
                index: self.total - 1,
                case,
                outcome,
                elapsed,
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
            let label = match &r.outcome {
                Outcome::Pass => continue,
                Outcome::Mismatch { .. } if c.class == Class::Defined => "FAIL",
                Outcome::Mismatch { .. } => "NOTE",
                Outcome::Crash { .. } => "CRASH",
                Outcome::Timeout => "TIMEOUT",
                Outcome::MemoryExceeded { .. } => "MEMORY",
                Outcome::Skipped => "SKIPPED",
            };
            let _ = writeln!(
                out,
                "{label:<7} {}: {} [{}, {}]",
                c.name,
                describe(c.expect, &r.outcome),
                c.rule,
                c.class.name()
            );
            match &r.shrunk {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "        shortest failing input: \"{}\" (expected {}, {})",
                        s.bytes.escape_ascii(),
                        s.expect,
                        s.outcome.answer()
                    );
                }
                None => {
                    let _ = writeln!(out, "        input: \"{}\"", c.bytes.escape_ascii());
                }
            }
        }
        if self.unlisted > 0 {
            let _ = writeln!(out, "... and {} more failures, not listed", self.unlisted);
        }
        out.push_str("\ncommand line:\n");
        for a in &self.args {
            out.push_str(&a.line());
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
        if c.skipped > 0 {
            let _ = writeln!(
                out,
                "not run after too many timeouts in a row: {}",
                c.skipped
            );
        }
        out
    }
}

impl ArgCheck {
    /// One line of a report: ok or FAIL, what was expected and printed.
    pub fn line(&self) -> String {
        let verdict = if self.passed() { "ok" } else { "FAIL" };
        let mut out = format!(
            "  {verdict:<4} {}: expected {:?}, got {:?}",
            self.what, self.expected, self.got
        );
        if self.status != Some(0) {
            let _ = write!(
                out,
                " (exit status {})",
                self.status.map_or("none".into(), |s| s.to_string())
            );
        }
        out.push('\n');
        out
    }
}

/// A failure in words: "expected 7 (illegal game), got 3", with the
/// details of a crash or a memory breach.
pub fn describe(expect: Code, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass => format!("expected {expect} ({}), passed", expect.name()),
        Outcome::Mismatch { got } => format!("expected {expect} ({}), got {got}", expect.name()),
        Outcome::Crash {
            status,
            stderr,
            stdout,
        } => format!(
            "expected {expect}; exit status {}; stdout {stdout:?}; stderr {stderr:?}",
            status.map_or("none".into(), |s| s.to_string()),
        ),
        Outcome::Timeout => format!("expected {expect}; timed out"),
        Outcome::MemoryExceeded { peak } => format!(
            "expected {expect}; ran out of memory under the cap{}",
            peak.map_or(String::new(), |p| format!(" (peak {} MB)", p >> 20))
        ),
        Outcome::Skipped => format!("expected {expect}; not run, after too many timeouts in a row"),
    }
}
