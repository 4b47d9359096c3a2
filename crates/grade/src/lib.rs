//! `cz grade`: the check of `cz check` over a class of candidates, every one
//! on the same cases, with their failures grouped by spec rule, a
//! leaderboard, and (with `--perf`) their speed against the reference's in
//! the same run. The reports are one model, the [`Facts`] of the class,
//! rendered by [`text`], [`json`], [`junit`] and [`html`]. [`grade_class`]
//! is `cz grade` whole: the candidates taken from the [`journal`] with
//! `--resume`, the others graded, and as each is, the journal and every
//! report written.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use std::time::Instant;

use rayon::prelude::*;

use connectz::Code;
use connectz_spec::Class;

use connectz_check::{
    Area, AreaScore, Candidate, CheckOptions, CheckReport, Policy, Progress, Spent, check, corpus,
    generated, pool, shrink,
};
use connectz_sandbox::Sandbox;

pub use class::{Entry, each, manifest};
pub use facts::Facts;
pub use graded::{ClassReport, Graded, Group, Kind};
pub use output::{Output, grade_class};

use connectz_explain::markup::{Controls, escape};

mod class;
pub mod facts;
mod graded;
pub mod html;
pub mod journal;
pub mod json;
pub mod junit;
mod output;
pub mod perf;
pub mod text;

/// An I/O error said to be about `path`: the path, then the cause.
pub(crate) fn on_path(path: &Path) -> impl FnOnce(io::Error) -> io::Error + '_ {
    move |e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Text for HTML and XML content and attributes (the HTML page and the
/// JUnit report): markup escaped; characters XML 1.0 cannot hold, and the
/// bidirectional controls, replaced by U+FFFD. A name that reorders what
/// follows it would show the reviewer another text than the one written.
pub(crate) fn markup(s: &str) -> String {
    escape(&s.replace(reorders, "\u{fffd}"), Controls::Replaced)
}

/// The bidirectional formatting characters (marks, embeddings, overrides
/// and isolates), which show text in another order than it is written:
/// those the text reports escape (`connectz_check::shown`).
fn reorders(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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
/// ([`CaseResult::blame`](connectz_check::CaseResult::blame)) and its class; in each, the shortest input
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

/// The longest input a failure group's reproducer is shrunk from.
const SHRINK_AT_MOST: usize = 1 << 16;

/// Shrinks the first input of up to `settings.shrink` groups of wrong
/// codes and crashes, in parallel in the pool it is called in; returns what
/// shrinking cost.
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
