//! A graded class: each candidate's failures grouped by kind and rule,
//! its counts and speed, and the leaderboard's order.

use serde::{Deserialize, Serialize};

use connectz_check::{CaseResult, CheckReport, Outcome, Shrunk, Spent};
use connectz_sandbox::{Isolation, Limits};
use connectz_spec::Class;

use crate::{Entry, perf};

/// What kind of failure a group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// A wrong code.
    Wrong,
    /// The right code, then an exit status other than 0: always a note
    /// (r[decision.exit-status]).
    Note,
    /// No code: a crash, a traceback, other text.
    Crash,
    /// Past the time limit.
    Timeout,
    /// Past the memory cap.
    Memory,
    /// Not run, after too many timeouts.
    Skipped,
}

impl Kind {
    /// The kind of a failing outcome (`None` for a pass).
    pub(crate) fn of(outcome: &Outcome) -> Option<Kind> {
        Some(match outcome {
            Outcome::Pass => return None,
            Outcome::Mismatch { .. } => Kind::Wrong,
            Outcome::ExitStatus { .. } => Kind::Note,
            Outcome::Crash { .. } => Kind::Crash,
            Outcome::Timeout => Kind::Timeout,
            Outcome::MemoryExceeded { .. } => Kind::Memory,
            Outcome::Skipped => Kind::Skipped,
        })
    }

    /// Its label in the reports.
    pub fn label(self, class: Class) -> &'static str {
        match (self, class) {
            (Kind::Wrong, Class::Defined) => "FAIL",
            (Kind::Wrong, Class::Impl) | (Kind::Note, _) => "NOTE",
            (Kind::Crash, _) => "CRASH",
            (Kind::Timeout, _) => "TIMEOUT",
            (Kind::Memory, _) => "MEMORY",
            (Kind::Skipped, _) => "SKIPPED",
        }
    }

    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Wrong => "wrong",
            Kind::Note => "note",
            Kind::Crash => "crash",
            Kind::Timeout => "timeout",
            Kind::Memory => "memory",
            Kind::Skipped => "skipped",
        }
    }
}

/// The failures of one kind on cases of one rule and class.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Group {
    /// What went wrong.
    pub kind: Kind,
    /// The rule its cases broke ([`CaseResult::blame`]); each case keeps
    /// the clause it exercises.
    pub rule: String,
    /// Whether the brief settles it (an `impl` group is a note).
    #[serde(with = "connectz_check::persist::class")]
    pub class: Class,
    /// Indices into the check's `results`, the shortest input first.
    pub results: Vec<usize>,
    /// The first of them made smaller, with the same failure.
    pub shrunk: Option<Shrunk>,
}

impl Group {
    /// True when it counts against the candidate: not a note (a wrong code
    /// on an `impl` case, or an exit status).
    pub fn counts(&self) -> bool {
        !(matches!(self.kind, Kind::Wrong | Kind::Note) && self.class == Class::Impl)
    }
}

/// One candidate, graded.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Graded {
    /// Its name and command.
    pub entry: Entry,
    /// What the check found.
    pub check: CheckReport,
    /// Its failures, grouped: defined failures first, then notes, then the
    /// rest, each by count.
    pub groups: Vec<Group>,
    /// Its speed, with `--perf`.
    pub perf: Option<Vec<perf::SpeedRow>>,
    /// Median time of one run over its cases, in microseconds.
    pub median_micros: u32,
    /// Wall-clock seconds its grading took.
    pub seconds: f64,
}

impl Graded {
    /// Defined failures: the check's, and every workload it did not finish
    /// with the right code (a valid file whose code the brief defines).
    pub fn failures(&self) -> usize {
        self.check.defined_failures() + self.perf_failed(|_| true)
    }

    /// Crashes, on cases and on workloads.
    pub fn crashes(&self) -> usize {
        self.check.counts.crashes + self.perf_failed(|v| *v == perf::Mark::Crash)
    }

    /// Timeouts, on cases and on workloads.
    pub fn timeouts(&self) -> usize {
        self.check.counts.timeouts + self.perf_failed(|v| *v == perf::Mark::Timeout)
    }

    /// Memory breaches, on cases and on workloads.
    pub fn memory(&self) -> usize {
        self.check.counts.memory + self.perf_failed(|v| *v == perf::Mark::Memory)
    }

    /// Differences on `impl` rulings: notes, not failures.
    pub fn notes(&self) -> usize {
        self.check.counts.notes
    }

    /// Workloads it did not finish right whose verdict `which` picks.
    fn perf_failed(&self, which: impl Fn(&perf::Mark) -> bool) -> usize {
        self.perf.as_ref().map_or(0, |rows| {
            rows.iter()
                .filter(|r| r.candidate.verdict != perf::Mark::Ok && which(&r.candidate.verdict))
                .count()
        })
    }

    /// Its speed for ranking: the geometric mean of its time ratios to the
    /// reference with `--perf` (a workload it did not finish counts as
    /// infinitely slow), else its median time per case.
    pub fn speed(&self) -> f64 {
        match &self.perf {
            Some(rows) => perf::geometric_mean(rows),
            None => f64::from(self.median_micros),
        }
    }

    /// The leaderboard's order: defined failures, crashes, timeouts, memory
    /// breaches, impl notes (fewer first: a candidate that differs only on
    /// rulings the brief leaves open still differs), then speed.
    fn rank_key(&self) -> ([usize; 5], f64) {
        (
            [
                self.failures(),
                self.crashes(),
                self.timeouts(),
                self.memory(),
                self.notes(),
            ],
            self.speed(),
        )
    }

    /// The results of a group, in its order.
    pub fn results_of<'a>(&'a self, group: &'a Group) -> impl Iterator<Item = &'a CaseResult> {
        group.results.iter().map(|&i| &self.check.results[i])
    }
}

/// A class, graded: the candidates in leaderboard order.
#[derive(Clone, Debug)]
pub struct ClassReport {
    /// The candidates graded, best first.
    pub graded: Vec<Graded>,
    /// The candidates asked for: more than `graded` while the grade is
    /// under way or when it was interrupted.
    pub planned: usize,
    /// Cases from the shipped corpus.
    pub corpus: usize,
    /// Generated cases.
    pub generated: usize,
    /// Their seed.
    pub seed: u64,
    /// The limits of each run.
    pub limits: Limits,
    /// The isolation of the runs.
    pub isolation: Isolation,
    /// The speed workloads, with `--perf`.
    pub workloads: Option<Vec<perf::SpeedWorkload>>,
    /// Where the graded candidates' time went, summed.
    pub spent: Spent,
    /// Wall-clock seconds so far.
    pub seconds: f64,
}

impl ClassReport {
    /// True when some candidate asked for was not graded.
    pub fn incomplete(&self) -> bool {
        self.graded.len() < self.planned
    }

    /// Adds a graded candidate, keeping the leaderboard's order.
    pub(crate) fn add(&mut self, one: Graded, seconds: f64) {
        self.spent = self.spent.plus(one.check.spent);
        self.seconds = seconds;
        self.graded.push(one);
        self.graded.sort_by(|a, b| {
            let (ka, kb) = (a.rank_key(), b.rank_key());
            ka.0.cmp(&kb.0)
                .then(ka.1.total_cmp(&kb.1))
                .then(a.entry.name.cmp(&b.entry.name))
        });
    }

    /// What was run, in one sentence without its full stop: the heading of
    /// every report.
    pub fn summary(&self) -> String {
        let incomplete = if self.incomplete() {
            format!(
                "INCOMPLETE, {} of {} candidates graded (stopped, or still running): ",
                self.graded.len(),
                self.planned
            )
        } else {
            String::new()
        };
        format!(
            "{incomplete}{} candidates, each run on the same {} cases ({} from the shipped corpus, {} generated with seed {}) and {} command-line checks, at most {} s and {} MB per run{}",
            self.graded.len(),
            self.corpus + self.generated,
            self.corpus,
            self.generated,
            self.seed,
            self.graded.first().map_or(0, |g| g.check.args.len()),
            self.limits.timeout.as_secs_f64(),
            self.limits.memory >> 20,
            if self.workloads.is_some() {
                ", and timed on the speed workloads against the reference"
            } else {
                ""
            },
        )
    }

    /// True when every candidate asked for was graded and passed every
    /// defined case.
    pub fn all_passed(&self) -> bool {
        !self.incomplete() && self.graded.iter().all(|g| g.failures() == 0)
    }
}
