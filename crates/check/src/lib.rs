//! `cz check`: runs a candidate implementation on the reference corpus and on
//! generated games, each run in the sandbox (`connectz-sandbox`), and reports
//! where it differs from the reference. `cz grade` (`connectz-grade`) runs
//! the same check over a class of candidates.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::HashMap;
use std::fs;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use connectz::{Code, judge_bytes};
use connectz_spec::Class;
use serde::{Deserialize, Serialize};

use connectz_sandbox::Sandbox;

mod answer;
mod area;
mod blame;
mod cases;
pub mod persist;
mod progress;
mod report;
mod running;
mod shrink;
mod tally;
mod timeouts;

pub use answer::Answer;
pub use area::Area;
pub use blame::Blame;
pub use cases::{corpus, generated};
pub use progress::Progress;
pub use report::{case_of, describe, shown};
pub use running::Candidate;
use running::argument_checks;
pub use shrink::shrink;
pub use timeouts::Policy;
use timeouts::Timeouts;

/// One input the candidate is run on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    /// Where it comes from: a spec example, a tests/cases path, or a seed.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The reference's code.
    #[serde(with = "crate::persist::code")]
    pub expect: Code,
    /// The spec clause it exercises: a spec example's clause, an `impl`
    /// case's decision, `code.precedence` for a file with several faults,
    /// else the rule of the verdict. A failure may break another
    /// ([`CaseResult::blame`]).
    pub rule: String,
    /// The codes of the other faults the reference found in the file,
    /// which its verdict outranks (r[code.precedence]): a candidate that
    /// answers one of them broke precedence.
    #[serde(default)]
    pub outranked: Vec<u8>,
    /// Whether the brief settles it.
    #[serde(with = "crate::persist::class")]
    pub class: Class,
    /// The part of the spec it belongs to.
    pub area: Area,
    /// Generated rather than shipped.
    pub generated: bool,
    /// How long the reference took to judge it, in this process.
    pub reference_time: Duration,
}

impl Case {
    /// A case of `bytes`, its code and rule from the reference; `clause` is
    /// the rule when the case is known to exercise one.
    pub fn new(name: String, bytes: Vec<u8>, clause: Option<&str>, class: Class) -> Case {
        let start = std::time::Instant::now();
        let report = judge_bytes(&bytes);
        let reference_time = start.elapsed();
        let rule = match clause {
            Some(rule) => rule.to_string(),
            None if report.faults.len() >= 2 => "code.precedence".to_string(),
            None => report.verdict.rule().to_string(),
        };
        let mut outranked: Vec<u8> = report
            .faults
            .iter()
            .map(|f| f.code().number())
            .filter(|&c| c != report.code().number())
            .collect();
        outranked.sort_unstable();
        outranked.dedup();
        Case {
            area: Area::of(&rule, &report, &bytes),
            expect: report.code(),
            outranked,
            name,
            bytes,
            rule,
            class,
            generated: false,
            reference_time,
        }
    }
}

/// How one run of the candidate went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// It printed the reference's code.
    Pass,
    /// It printed another code.
    Mismatch {
        /// What it printed.
        got: u8,
    },
    /// It printed the reference's code, but then exited with a status
    /// other than 0, or was killed by a signal: a note, never a crash nor
    /// a failure (r[decision.exit-status]).
    ExitStatus {
        /// Exit status, if it exited (`None`: killed by a signal).
        status: Option<i32>,
    },
    /// It did not print one code 0 to 9 (and did not time out or run out
    /// of memory).
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

/// The clause of the notes on exit statuses ([`Outcome::ExitStatus`]).
pub const EXIT_STATUS: &str = "decision.exit-status";

impl Outcome {
    /// Whether the candidate printed the reference's code (passed, or
    /// differed only in its exit status).
    pub fn right_code(&self) -> bool {
        matches!(self, Outcome::Pass | Outcome::ExitStatus { .. })
    }

    /// What the candidate answered, in a few words.
    pub fn answer(&self) -> String {
        match self {
            Outcome::Pass => "the same code".into(),
            Outcome::Mismatch { got } => format!("got {got}"),
            Outcome::ExitStatus { status } => format!(
                "the same code, then {}",
                status.map_or("killed by a signal".into(), |s| format!("exit status {s}"))
            ),
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Shrunk {
    /// The smaller input.
    pub bytes: Vec<u8>,
    /// The reference's code for it.
    #[serde(with = "crate::persist::code")]
    pub expect: Code,
    /// How the candidate did on it.
    pub outcome: Outcome,
}

/// One case and how the candidate did on it.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ran {
    /// The reference's code.
    pub expect: u8,
    /// Whether it printed that code.
    pub passed: bool,
    /// How long the run took, in microseconds (saturating).
    pub micros: u32,
}

/// A check of the command line itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ArgCheck {
    /// What was checked.
    pub what: String,
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    pub per_area: [AreaScore; 7],
    /// Failures not kept in `results`.
    pub unlisted: usize,
    /// The command-line checks.
    pub args: Vec<ArgCheck>,
    /// Counts of outcomes over all cases.
    pub counts: Counts,
    /// Every case in the order run, when asked for ([`Options::log`]).
    pub log: Vec<Ran>,
    /// Where the time went.
    pub spent: Spent,
    /// The isolation of the runs, in one line.
    #[serde(default)]
    pub isolation: String,
}

/// How a candidate did on the cases of one [`Area`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Cases passed.
    pub passed: usize,
    /// Mismatches on `defined` cases, crashes, timeouts and memory breaches
    /// on `defined` cases.
    pub defined: usize,
    /// Notes: mismatches on `impl` cases, and the right code with another
    /// exit status than 0 (r[decision.exit-status]).
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

/// Where a check's time went, summed over its runs (thread time: with two
/// jobs, wall time is about half).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spent {
    /// Runs of the cases that ended within the limit.
    pub runs: usize,
    /// Their time.
    pub run_time: Duration,
    /// The fastest of them: about the candidate's start-up.
    pub fastest: Option<Duration>,
    /// Cases not run, their input having been run for another case.
    pub reused: usize,
    /// Runs that were killed at the time limit.
    pub timeouts: usize,
    /// Cases run a second time within the full limit, their first run
    /// having run out of the time the case needs.
    pub retries: usize,
    /// Their time.
    pub timeout_time: Duration,
    /// Runs made while shrinking.
    pub shrink_runs: usize,
    /// Their time.
    pub shrink_time: Duration,
    /// Cases run again in a fresh interpreter, to hold the runs through a
    /// fork server to fresh ones.
    #[serde(default)]
    pub fresh_checks: usize,
}

impl Spent {
    /// About how much of the runs' time was the candidate starting up: the
    /// fastest run's time, once per run.
    pub fn start_up(&self) -> Duration {
        self.fastest.unwrap_or_default() * u32::try_from(self.runs).unwrap_or(u32::MAX)
    }

    /// Adds a shrink's cost.
    pub fn add_shrinking(&mut self, s: &Shrinking) {
        self.shrink_runs += s.runs;
        self.shrink_time += s.elapsed;
    }

    /// The sum of two.
    pub fn plus(self, o: Spent) -> Spent {
        Spent {
            runs: self.runs + o.runs,
            run_time: self.run_time + o.run_time,
            fastest: match (self.fastest, o.fastest) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            reused: self.reused + o.reused,
            timeouts: self.timeouts + o.timeouts,
            retries: self.retries + o.retries,
            timeout_time: self.timeout_time + o.timeout_time,
            shrink_runs: self.shrink_runs + o.shrink_runs,
            shrink_time: self.shrink_time + o.shrink_time,
            fresh_checks: self.fresh_checks + o.fresh_checks,
        }
    }
}

/// What shrinking one failure found and cost.
#[derive(Clone, Debug, Default)]
pub struct Shrinking {
    /// The smallest input that fails the same way, if smaller.
    pub shrunk: Option<Shrunk>,
    /// Runs of the candidate it made.
    pub runs: usize,
    /// Their time.
    pub elapsed: Duration,
}

/// Inputs up to this many bytes are remembered, so that another case with
/// the same bytes is not run again.
const SAME_INPUT: usize = 1 << 16;

/// Bytes of inputs [`check`] remembers across its batches at most: memory
/// stays bounded however many cases there are.
const SEEN_BYTES: usize = 16 << 20;

/// Outcomes of inputs already run, by their bytes: inputs of up to
/// [`SAME_INPUT`] bytes each, while the bytes held stay within a budget.
struct Seen {
    outcomes: HashMap<Vec<u8>, (Outcome, Duration)>,
    held: usize,
    budget: usize,
}

impl Seen {
    fn new(budget: usize) -> Seen {
        Seen {
            outcomes: HashMap::new(),
            held: 0,
            budget,
        }
    }

    fn get(&self, bytes: &[u8]) -> Option<&(Outcome, Duration)> {
        self.outcomes.get(bytes)
    }

    /// Remembers the outcome of `bytes` if it fits; true when it did.
    fn remember(&mut self, bytes: &[u8], outcome: &Outcome, elapsed: Duration) -> bool {
        if bytes.len() > SAME_INPUT
            || self.held + bytes.len() > self.budget
            || self.outcomes.contains_key(bytes)
        {
            return false;
        }
        self.held += bytes.len();
        self.outcomes
            .insert(bytes.to_vec(), (outcome.clone(), elapsed));
        true
    }
}

/// Where a case's outcome comes from.
enum Source {
    /// A run of its own.
    Run,
    /// The run of an earlier case of its batch with the same bytes.
    Same(usize),
    /// A run of an earlier batch with the same bytes: its outcome and time.
    Seen((Outcome, Duration)),
}

/// Failures kept with their inputs; further ones are counted.
pub const KEPT_FAILURES: usize = 1000;

/// Cases prepared and run at a time: memory does not grow with `--cases`.
const BATCH: usize = 256;

/// Runs of the candidate one shrink may make.
const SHRINK_RUNS: usize = 200;

/// How to check.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// Failing generated cases to shrink.
    pub shrink: usize,
    /// Keep a [`Ran`] of every case (8 bytes each).
    pub log: bool,
    /// Once the candidate has timed out this many times in a row, run no
    /// more of its cases: it hangs on everything, and each case would cost
    /// the whole time limit.
    pub give_up: Option<usize>,
    /// Told of every case run.
    pub progress: Option<&'a Progress>,
    /// How a timeout is decided: `None` for the sandbox's flat limit.
    pub timeouts: Option<Policy>,
}

/// Runs the candidate on the cases `cases` makes and on the command-line
/// checks, as many runs at a time as the rayon pool it is called in has
/// threads (see [`pool`]), each under the sandbox's limits; shrinks up to
/// `shrink` failing generated cases. A Python script's cases run through a
/// fork server ([`Sandbox::run_case`]), held to fresh runs afterwards: if a
/// failure's first case, or a case passed, ends otherwise in a fresh
/// interpreter, the cases are made again and every one is run fresh. Cases
/// are taken from the iterator a batch at a time, so memory does not grow
/// with their number (but for the log, when asked for; the inputs
/// remembered so as not to run one twice are at most 16 MiB).
///
/// # Errors
/// A case file cannot be written to the sandbox's scratch folder.
pub fn check<I: Iterator<Item = Case>>(
    candidate: &Candidate,
    cases: impl Fn() -> I,
    sandbox: &Sandbox,
    options: Options,
) -> std::io::Result<CheckReport> {
    let (mut report, passed) = run_cases(candidate, cases(), sandbox, options)?;
    if candidate.forks(sandbox) {
        let (same, runs) = faithful(candidate, sandbox, &report, &passed)?;
        if same {
            report.spent.fresh_checks = runs;
        } else {
            // The fork server is not faithful to this candidate: every
            // case again, each in a fresh interpreter.
            sandbox.run_fresh(candidate.dir.as_deref(), &candidate.command);
            let spent = report.spent;
            report = run_cases(candidate, cases(), sandbox, options)?.0;
            report.spent = report.spent.plus(spent);
            report.spent.fresh_checks = runs;
        }
    }
    let to_shrink: Vec<&mut CaseResult> = report
        .results
        .iter_mut()
        .filter(|r| r.case.generated && matches!(r.outcome, Outcome::Mismatch { .. }))
        .take(options.shrink)
        .collect();
    let costs: Vec<Shrinking> = to_shrink
        .into_par_iter()
        .map(|result| {
            let path = sandbox.scratch_file("shrink");
            let s = shrink(
                candidate,
                sandbox,
                &result.case,
                &result.outcome,
                &path,
                options.timeouts,
            )?;
            result.shrunk = s.shrunk.clone();
            Ok::<_, std::io::Error>(s)
        })
        .collect::<std::io::Result<Vec<_>>>()?;
    for s in &costs {
        report.spent.add_shrinking(s);
    }
    report.args = argument_checks(candidate, sandbox)?;
    report.isolation = sandbox.isolation().describe();
    let area = &mut report.per_area[Area::CommandLine as usize];
    area.cases += report.args.len();
    area.passed += report.args.iter().filter(|a| a.passed()).count();
    Ok(report)
}

/// The cases of a check, run (but not shrunk, and without the command-line
/// checks), and the first two cases passed.
fn run_cases(
    candidate: &Candidate,
    cases: impl Iterator<Item = Case>,
    sandbox: &Sandbox,
    options: Options,
) -> std::io::Result<(CheckReport, Vec<Case>)> {
    let mut passed = Vec::new();
    let mut report = CheckReport {
        command: candidate.shown(),
        results: Vec::new(),
        total: 0,
        generated: 0,
        per_code: [(0, 0); 10],
        per_area: [AreaScore::default(); 7],
        unlisted: 0,
        args: Vec::new(),
        counts: Counts::default(),
        log: Vec::new(),
        spent: Spent::default(),
        isolation: String::new(),
    };
    // Timeouts in a row, in the order runs end.
    let streak = AtomicUsize::new(0);
    let timeouts = Timeouts::new(options.timeouts);
    let retries = AtomicUsize::new(0);
    let given_up = || {
        options
            .give_up
            .is_some_and(|n| streak.load(Ordering::Relaxed) >= n)
    };
    // Inputs already run: a case with the same bytes as another (a spec
    // example shipped as a file too) is not run again, and gets the same
    // outcome.
    let mut seen = Seen::new(SEEN_BYTES);
    let mut cases = cases.peekable();
    while cases.peek().is_some() {
        let batch: Vec<Case> = cases.by_ref().take(BATCH).collect();
        // Where each case's outcome comes from: a run of its own, an earlier
        // case of this batch, or an earlier batch.
        let mut first: HashMap<&[u8], usize> = HashMap::new();
        let source: Vec<Source> = batch
            .iter()
            .enumerate()
            .map(|(i, case)| {
                if let Some(outcome) = seen.get(&case.bytes) {
                    Source::Seen(outcome.clone())
                } else if let Some(&j) = first.get(case.bytes.as_slice()) {
                    Source::Same(j)
                } else {
                    if case.bytes.len() <= SAME_INPUT {
                        first.insert(&case.bytes, i);
                    }
                    Source::Run
                }
            })
            .collect();
        let outcomes: Vec<std::io::Result<Option<(Outcome, Duration)>>> = batch
            .par_iter()
            .zip(&source)
            .map(|(case, source)| {
                if !matches!(source, Source::Run) {
                    return Ok(None);
                }
                if given_up() {
                    return Ok(Some((Outcome::Skipped, Duration::ZERO)));
                }
                let path = sandbox.scratch_file("case");
                fs::write(&path, &case.bytes)?;
                let judged = timeouts.judge(candidate, sandbox, &path, case);
                let _ = fs::remove_file(&path);
                if judged.outcome == Outcome::Timeout {
                    streak.fetch_add(1, Ordering::Relaxed);
                } else {
                    streak.store(0, Ordering::Relaxed);
                }
                retries.fetch_add(usize::from(judged.retried), Ordering::Relaxed);
                if let Some(p) = options.progress {
                    p.case_done(!judged.outcome.right_code());
                }
                Ok(Some((judged.outcome, judged.elapsed)))
            })
            .collect();
        let mut ran: Vec<Option<(Outcome, Duration)>> = Vec::with_capacity(batch.len());
        for outcome in outcomes {
            ran.push(outcome?);
        }
        for (i, (case, source)) in batch.into_iter().zip(source).enumerate() {
            let (outcome, elapsed, reused) = match source {
                Source::Run => {
                    let (outcome, elapsed) =
                        ran[i].clone().unwrap_or((Outcome::Skipped, Duration::ZERO));
                    (outcome, elapsed, false)
                }
                Source::Same(j) => {
                    let (outcome, elapsed) =
                        ran[j].clone().unwrap_or((Outcome::Skipped, Duration::ZERO));
                    (outcome, elapsed, true)
                }
                Source::Seen((outcome, elapsed)) => (outcome, elapsed, true),
            };
            if reused {
                report.spent.reused += 1;
                if let Some(p) = options.progress {
                    p.case_done(!outcome.right_code());
                }
            } else if outcome != Outcome::Skipped {
                seen.remember(&case.bytes, &outcome, elapsed);
                if outcome == Outcome::Pass && passed.len() < 2 {
                    passed.push(case.clone());
                }
            }
            report.tally(case, outcome, elapsed, options.log, !reused);
        }
    }
    report.spent.retries = retries.into_inner();
    Ok((report, passed))
}

/// Cases [`faithful`] runs again in a fresh interpreter, at most.
const FRESH_CHECKS: usize = 8;

/// Whether the runs through the candidate's fork server agree with fresh
/// runs: two cases passed and the first case of each kind of failure (the
/// outcome's kind and the rule; [`FRESH_CHECKS`] in all) are run again in a
/// fresh interpreter, and must end the same way (the same code, a crash again); timeouts and
/// memory breaches are not run again (each would cost its limit). Returns
/// the answer and the fresh runs made.
fn faithful(
    candidate: &Candidate,
    sandbox: &Sandbox,
    report: &CheckReport,
    passed: &[Case],
) -> std::io::Result<(bool, usize)> {
    let mut kinds: Vec<(std::mem::Discriminant<Outcome>, &str)> = Vec::new();
    let mut again: Vec<(&Case, &Outcome)> = passed.iter().map(|c| (c, &Outcome::Pass)).collect();
    for r in &report.results {
        let kind = (std::mem::discriminant(&r.outcome), r.case.rule.as_str());
        if again.len() < FRESH_CHECKS
            && matches!(
                r.outcome,
                Outcome::Mismatch { .. } | Outcome::ExitStatus { .. } | Outcome::Crash { .. }
            )
            && !kinds.contains(&kind)
        {
            kinds.push(kind);
            again.push((&r.case, &r.outcome));
        }
    }
    let same: Vec<bool> = again
        .par_iter()
        .map(|(case, outcome)| {
            let path = sandbox.scratch_file("fresh");
            fs::write(&path, &case.bytes)?;
            let (fresh, _) =
                candidate.judge_fresh(sandbox, &path, case.expect, sandbox.limits().timeout);
            let _ = fs::remove_file(&path);
            Ok(match (outcome, &fresh) {
                (Outcome::Crash { status: a, .. }, Outcome::Crash { status: b, .. }) => a == b,
                _ => **outcome == fresh,
            })
        })
        .collect::<std::io::Result<_>>()?;
    Ok((same.iter().all(|&s| s), again.len()))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The inputs remembered stay within their budget of bytes, and none
    /// is longer than SAME_INPUT: just below, at and above each.
    #[test]
    fn remembered_inputs_stay_within_their_bounds() {
        let t = Duration::ZERO;
        let mut seen = Seen::new(10);
        assert!(seen.remember(&[1; 4], &Outcome::Pass, t));
        assert!(seen.remember(&[2; 5], &Outcome::Timeout, t), "below");
        assert!(
            seen.remember(&[3; 1], &Outcome::Pass, t),
            "at: 10 bytes held"
        );
        assert!(!seen.remember(&[4; 1], &Outcome::Pass, t), "above");
        assert_eq!(seen.held, 10);
        assert_eq!(seen.get(&[2; 5]).map(|o| &o.0), Some(&Outcome::Timeout));
        assert!(seen.get(&[4; 1]).is_none());
        // The same input twice is held once.
        assert!(!seen.remember(&[1; 4], &Outcome::Pass, t));
        let mut seen = Seen::new(usize::MAX);
        assert!(seen.remember(&vec![0; SAME_INPUT - 1], &Outcome::Pass, t));
        assert!(seen.remember(&vec![1; SAME_INPUT], &Outcome::Pass, t));
        assert!(!seen.remember(&vec![2; SAME_INPUT + 1], &Outcome::Pass, t));
        assert_eq!(seen.held, 2 * SAME_INPUT - 1);
    }
}
