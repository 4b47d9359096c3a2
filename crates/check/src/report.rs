//! What a check found: every case that did not pass, the counts, and where
//! the time went (written as text by `text.rs`).

use std::time::Duration;

use connectz::Code;
use serde::{Deserialize, Serialize};

use super::{Case, Flaky, Outcome};

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
    /// [`KEPT_FAILURES`](crate::KEPT_FAILURES); the rest are only counted).
    pub results: Vec<CaseResult>,
    /// Cases run.
    pub total: usize,
    /// Cases generated rather than taken from the corpus.
    pub generated: usize,
    /// Per expected code: cases and passes.
    pub per_code: [(usize, usize); 10],
    /// Per area, in [`Area::ALL`](crate::Area::ALL) order; the command line's are the
    /// argument checks.
    pub per_area: [AreaScore; 7],
    /// Failures not kept in `results`.
    pub unlisted: usize,
    /// The command-line checks.
    pub args: Vec<ArgCheck>,
    /// Counts of outcomes over all cases.
    pub counts: Counts,
    /// Every case in the order run, when asked for ([`CheckOptions::log`](crate::CheckOptions::log)).
    pub log: Vec<Ran>,
    /// Where the time went.
    pub spent: Spent,
    /// The isolation of the runs, in one line.
    #[serde(default)]
    pub isolation: String,
    /// The paths its box was given beyond its own folder and the system's
    /// (its interpreter's install, the paths it names).
    #[serde(default)]
    pub given: Vec<String>,
    /// The cases answered differently when run again, in the order run
    /// (see [`RERUNS`](crate::RERUNS)): each counts as failed, with its
    /// first outcome.
    #[serde(default)]
    pub flaky: Vec<Flaky>,
    /// Why the candidate's cases were run in a fresh interpreter rather
    /// than through its fork server, when they were: the server's answers
    /// differed from a fresh interpreter's, or the server stopped.
    #[serde(default)]
    pub fresh_reason: Option<String>,
}

impl CheckReport {
    /// Whether the candidate answered some case differently when it was
    /// run again.
    pub fn nondeterministic(&self) -> bool {
        !self.flaky.is_empty()
    }

    /// The flaky case at `index` in the order run, if it is one.
    pub fn flaky_at(&self, index: usize) -> Option<&Flaky> {
        self.flaky.iter().find(|f| f.index == index)
    }
}

/// How a candidate did on the cases of one [`Area`](crate::Area).
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
    /// Cases whose run went past the time the case needs (its first
    /// limit) and was let go on to the full limit.
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
    /// Failing cases run once more, to see whether they answer the same
    /// (at most [`RERUNS`](crate::RERUNS) per candidate).
    #[serde(default)]
    pub reruns: usize,
    /// Their time.
    #[serde(default)]
    pub rerun_time: Duration,
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
            reruns: self.reruns + o.reruns,
            rerun_time: self.rerun_time + o.rerun_time,
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
