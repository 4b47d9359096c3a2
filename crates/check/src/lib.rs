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

use connectz_sandbox::Sandbox;

mod answer;
mod area;
mod blame;
mod case;
mod cases;
mod flaky;
mod given;
mod outcome;
pub mod persist;
mod progress;
mod report;
mod running;
mod seen;
mod shrink;
mod tally;
mod text;
mod timeouts;

pub use answer::AnswerReading;
pub use area::Area;
pub use blame::Blame;
pub use case::Case;
pub use cases::{corpus, generated};
pub use flaky::{Flaky, RERUNS};
pub use given::{env_entry, path_entry};
pub use outcome::{EXIT_STATUS, Outcome};
pub use progress::Progress;
pub use report::{
    AreaScore, ArgCheck, CaseResult, CheckReport, Counts, Ran, Shrinking, Shrunk, Spent,
};
pub use running::Candidate;
use running::argument_checks;
use seen::{SAME_INPUT, SEEN_BYTES, Seen};
pub use shrink::shrink;
pub use text::{case_of, describe, shown};
pub use timeouts::Policy;
use timeouts::Timeouts;

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
pub struct CheckOptions<'a> {
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
/// interpreter, the cases are made again and every one is run fresh, and
/// the report says why ([`CheckReport::fresh_reason`]; so it does when the
/// server stopped during the check). Then the first [`RERUNS`] failing
/// cases (wrong codes on defined cases, and crashes) are run once more as
/// they were first run, and those answered differently are flaky
/// ([`CheckReport::flaky`]): each counts as failed, with its first outcome.
/// Cases are taken from the iterator a batch at a time, so memory does not
/// grow with their number (but for the log, when asked for; the inputs
/// remembered so as not to run one twice are at most 16 MiB).
///
/// # Errors
/// A case file cannot be written to the sandbox's scratch folder.
pub fn check<I: Iterator<Item = Case>>(
    candidate: &Candidate,
    cases: impl Fn() -> I,
    sandbox: &Sandbox,
    options: CheckOptions,
) -> std::io::Result<CheckReport> {
    let forked = candidate.forks(sandbox);
    let (mut report, passed) = run_cases(candidate, cases(), sandbox, options)?;
    if candidate.forks(sandbox) {
        let (differed, runs) = faithful(candidate, sandbox, &report, &passed)?;
        if let Some(reason) = differed {
            // The fork server is not faithful to this candidate: every
            // case again, each in a fresh interpreter.
            candidate.run_fresh(sandbox, &reason);
            let spent = report.spent;
            report = run_cases(candidate, cases(), sandbox, options)?.0;
            report.spent = report.spent.plus(spent);
            report.fresh_reason = Some(reason);
        }
        report.spent.fresh_checks = runs;
    }
    // Each failing case again, as it was first run: the first limit, then
    // the full one if that runs out.
    let timeouts = Timeouts::new(options.timeouts);
    let again = flaky::run_again(&report.results, |case| {
        let path = sandbox.scratch_file("again");
        fs::write(&path, &case.bytes)?;
        let judged = timeouts.judge(candidate, sandbox, &path, case);
        let _ = fs::remove_file(&path);
        Ok((judged.outcome, judged.elapsed))
    })?;
    report.flaky = again.flaky;
    report.spent.reruns = again.runs;
    report.spent.rerun_time = again.elapsed;
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
    report.given = candidate
        .given(sandbox)
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    if forked && !candidate.forks(sandbox) && report.fresh_reason.is_none() {
        // The sandbox says why: the server ended during a case, or could
        // not be started.
        let why = candidate
            .fresh_reason(sandbox)
            .unwrap_or_else(|| "the fork server of the interpreter stopped".into());
        report.fresh_reason = Some(format!(
            "{why}: the case it was running, and every case after it, ran in a fresh interpreter"
        ));
    }
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
    options: CheckOptions,
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
        given: Vec::new(),
        flaky: Vec::new(),
        fresh_reason: None,
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
/// fresh interpreter, and must end the same way (the same code, a crash
/// again); timeouts and memory breaches are not run again (each would cost
/// its limit). Returns, when one differed, why in words (the first such
/// case, and how it ended each way), and the fresh runs made.
fn faithful(
    candidate: &Candidate,
    sandbox: &Sandbox,
    report: &CheckReport,
    passed: &[Case],
) -> std::io::Result<(Option<String>, usize)> {
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
    let fresh: Vec<Outcome> = again
        .par_iter()
        .map(|(case, _)| {
            let path = sandbox.scratch_file("fresh");
            fs::write(&path, &case.bytes)?;
            let (fresh, _) =
                candidate.judge_fresh(sandbox, &path, case.expect, sandbox.limits().timeout);
            let _ = fs::remove_file(&path);
            Ok(fresh)
        })
        .collect::<std::io::Result<_>>()?;
    let differed = again
        .iter()
        .zip(&fresh)
        .find(|((_, outcome), fresh)| match (outcome, fresh) {
            (Outcome::Crash { status: a, .. }, Outcome::Crash { status: b, .. }) => a != b,
            _ => *outcome != *fresh,
        })
        .map(|((case, outcome), fresh)| {
            format!(
                "the fork server's answer differed from a fresh interpreter's on case {} (expected {}; through the server, {}; fresh, {}): every case was run again, each in a fresh interpreter",
                case.name,
                case.expect,
                flaky::said(case.expect, outcome),
                flaky::said(case.expect, fresh)
            )
        });
    Ok((differed, again.len()))
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
