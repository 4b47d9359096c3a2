//! `cz grade`: the check of `cz check` over a class of candidates, every one
//! on the same cases, with their failures grouped by spec rule, a
//! leaderboard, and (with `--perf`) their speed against the reference's in
//! the same run. The reports are written by [`text`], [`json`], [`junit`]
//! and [`html`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use connectz::Code;
use connectz_spec::Class;

use connectz_check::{
    Area, AreaScore, Candidate, CaseResult, CheckOptions, CheckReport, Outcome, Policy, Progress,
    Shrunk, Spent, check, corpus, generated, pool, shrink,
};
use connectz_sandbox::{Isolation, Limits, Sandbox};

pub use class::{Entry, each, manifest};

use connectz_explain::markup::{Controls, escape};

mod class;
pub mod html;
pub mod journal;
pub mod json;
pub mod junit;
pub mod perf;
pub mod text;

/// An I/O error said to be about `path`: the path, then the cause.
pub(crate) fn on_path(path: &Path) -> impl FnOnce(io::Error) -> io::Error + '_ {
    move |e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Text for HTML and XML content and attributes (the HTML page and the
/// JUnit report): markup escaped, characters XML 1.0 cannot hold replaced
/// by U+FFFD.
pub(crate) fn markup(s: &str) -> String {
    escape(s, Controls::Replaced)
}

/// How to grade.
#[derive(Clone, Debug)]
pub struct GradeSettings {
    /// Generated games added to the shipped corpus.
    pub cases: usize,
    /// Their seed.
    pub seed: u64,
    /// Runs at a time.
    pub jobs: usize,
    /// Failure groups to shrink per candidate.
    pub shrink: usize,
    /// Timeouts in a row after which a candidate's remaining cases are not
    /// run.
    pub give_up: usize,
    /// Speed grading, if asked for.
    pub perf: Option<perf::PerfSettings>,
    /// How a timeout is decided (`None`: the flat limit).
    pub timeouts: Option<Policy>,
}

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
    fn of(outcome: &Outcome) -> Option<Kind> {
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
    fn add(&mut self, one: Graded, seconds: f64) {
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

/// Grades every candidate on the same cases (the shipped corpus and
/// `settings.cases` generated games), each case under the sandbox's limits,
/// in one pool of `settings.jobs` runs at a time shared by all candidates
/// (two are graded at once, so one's slow runs and shrinking overlap the
/// other's cases). Candidates in `resumed` were graded before and are not
/// run again. Calls `done` with the class so far, in leaderboard order:
/// once before any candidate, then as each is finished, with it, so that
/// results can be written as soon as they are known.
///
/// # Errors
/// The sandbox's scratch folder cannot be written, or threads cannot be
/// made.
pub fn grade(
    resumed: Vec<Graded>,
    entries: Vec<Entry>,
    settings: &GradeSettings,
    sandbox: &Sandbox,
    progress: &Progress,
    mut done: impl FnMut(&ClassReport, Option<&Graded>) + Send,
) -> io::Result<ClassReport> {
    let pool = pool(settings.jobs)?;
    let corpus_cases = corpus();
    let workloads = match &settings.perf {
        Some(p) => Some(perf::prepare(
            &sandbox.scratch().join("perf"),
            p.scale,
            settings.seed,
        )?),
        None => None,
    };
    let mut class = ClassReport {
        graded: Vec::new(),
        planned: resumed.len() + entries.len(),
        corpus: corpus_cases.len(),
        generated: settings.cases,
        seed: settings.seed,
        limits: sandbox.limits(),
        isolation: sandbox.isolation().clone(),
        workloads: workloads.clone(),
        spent: Spent::default(),
        seconds: 0.0,
    };
    let start = Instant::now();
    for one in resumed {
        class.add(one, 0.0);
    }
    done(&class, None);
    // One speed measurement at a time: its ratios are to the reference run
    // alongside, but two at once would compete for the same cores.
    let timing = std::sync::Mutex::new(());
    let shared = std::sync::Mutex::new((class, done));
    let workloads = workloads.as_deref();
    pool.install(|| {
        entries
            .into_par_iter()
            .with_max_len(1)
            .try_for_each(|entry| -> io::Result<()> {
                let one = grade_one(entry, &corpus_cases, settings, sandbox, progress, |c| {
                    let _turn = timing.lock().unwrap_or_else(|e| e.into_inner());
                    match (&settings.perf, workloads) {
                        (Some(p), Some(w)) => {
                            perf::measure(c, &p.reference, w, sandbox, p.runs).map(Some)
                        }
                        _ => Ok(None),
                    }
                })?;
                progress.candidate_done();
                let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                let (so_far, done) = &mut *guard;
                so_far.add(one.clone(), start.elapsed().as_secs_f64());
                done(so_far, Some(&one));
                Ok(())
            })
    })?;
    let (so_far, _) = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(so_far)
}

/// One candidate: its check, its failures grouped and shrunk, and its speed
/// from `perf` (called once its cases are done).
fn grade_one(
    entry: Entry,
    corpus_cases: &[connectz_check::Case],
    settings: &GradeSettings,
    sandbox: &Sandbox,
    progress: &Progress,
    perf: impl FnOnce(&Candidate) -> io::Result<Option<Vec<perf::SpeedRow>>>,
) -> io::Result<Graded> {
    let start = Instant::now();
    let cases = || {
        corpus_cases
            .iter()
            .cloned()
            .chain(generated(settings.cases, settings.seed))
    };
    let options = CheckOptions {
        shrink: 0,
        log: true,
        give_up: Some(settings.give_up),
        progress: Some(progress),
        timeouts: settings.timeouts,
    };
    let mut report = check(&entry.candidate, cases, sandbox, options)?;
    let mut groups = group(&report);
    report.spent = report.spent.plus(shrink_groups(
        &entry.candidate,
        &report,
        &mut groups,
        sandbox,
        settings,
    )?);
    entry.candidate.done(sandbox);
    let perf = perf(&entry.candidate)?;
    Ok(Graded {
        median_micros: median(report.log.iter().map(|r| r.micros).collect()),
        entry,
        check: report,
        groups,
        perf,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn median(mut v: Vec<u32>) -> u32 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[v.len() / 2]
}

/// The failures of a check grouped by kind, the rule broken
/// ([`CaseResult::blame`]) and its class; in each, the shortest input
/// first.
pub fn group(report: &CheckReport) -> Vec<Group> {
    let mut by_key: BTreeMap<(Kind, String, Class), Vec<usize>> = BTreeMap::new();
    for (i, r) in report.results.iter().enumerate() {
        if let Some(kind) = Kind::of(&r.outcome) {
            let blame = r.blame();
            by_key
                .entry((kind, blame.rule.to_string(), blame.class))
                .or_default()
                .push(i);
        }
    }
    let mut groups: Vec<Group> = by_key
        .into_iter()
        .map(|((kind, rule, class), mut results)| {
            results.sort_by_key(|&i| (report.results[i].case.bytes.len(), i));
            Group {
                kind,
                rule,
                class,
                results,
                shrunk: None,
            }
        })
        .collect();
    // Defined wrong codes, then notes, then crashes and the rest; the larger
    // groups first.
    groups.sort_by(|a, b| {
        let order = |g: &Group| {
            let place = match (g.counts(), g.kind) {
                (true, Kind::Wrong) => 0,
                (false, _) => 1,
                (true, _) => 2,
            };
            (place, g.kind)
        };
        order(a)
            .cmp(&order(b))
            .then(b.results.len().cmp(&a.results.len()))
            .then(a.rule.cmp(&b.rule))
    });
    groups
}

/// Shrinks the first input of up to `settings.shrink` groups of wrong
/// codes and crashes, in parallel in the pool it is called in; returns what
/// shrinking cost.
/// The longest input a failure group's reproducer is shrunk from.
const SHRINK_AT_MOST: usize = 1 << 16;

fn shrink_groups(
    candidate: &Candidate,
    report: &CheckReport,
    groups: &mut [Group],
    sandbox: &Sandbox,
    settings: &GradeSettings,
) -> io::Result<Spent> {
    // A group whose shortest input is a sized file is not shrunk: each run
    // of it costs the file's size, and the case's name already says what
    // it is.
    let chosen: Vec<&mut Group> = groups
        .iter_mut()
        .filter(|g| matches!(g.kind, Kind::Wrong | Kind::Crash))
        .filter(|g| report.results[g.results[0]].case.bytes.len() <= SHRINK_AT_MOST)
        .take(settings.shrink)
        .collect();
    let costs = chosen
        .into_par_iter()
        .map(|g| {
            let first = &report.results[g.results[0]];
            let path = sandbox.scratch_file("group");
            let s = shrink(
                candidate,
                sandbox,
                &first.case,
                &first.outcome,
                &path,
                settings.timeouts,
            )?;
            g.shrunk = s
                .shrunk
                .clone()
                .filter(|s| s.bytes.len() < first.case.bytes.len());
            Ok::<_, std::io::Error>(s)
        })
        .collect::<std::io::Result<Vec<_>>>()?;
    let mut spent = Spent::default();
    for s in &costs {
        spent.add_shrinking(s);
    }
    Ok(spent)
}

/// Cases of a check in the order run: the corpus's names, then the
/// generated games', made again from the seed.
pub fn case_names(corpus_len: usize, cases: usize, seed: u64) -> impl Iterator<Item = String> {
    corpus()
        .into_iter()
        .take(corpus_len)
        .map(|c| c.name)
        .chain(generated(cases, seed).map(|c| c.name))
}

/// The code a name of [`Code`] prints as, for the reports.
pub fn code_name(code: u8) -> &'static str {
    Code::from_number(code).map_or("?", Code::name)
}

/// Every area with its score, in [`Area::ALL`] order.
pub fn areas(report: &CheckReport) -> impl Iterator<Item = (Area, AreaScore)> + '_ {
    Area::ALL
        .into_iter()
        .map(|a| (a, report.per_area[a as usize]))
}

#[cfg(test)]
mod tests;
