//! What a report says of one candidate: its counts, scores, flaky cases,
//! command-line checks and speed; its failure groups are in
//! [`GroupFacts`].

use std::path::Path;

use serde::Serialize;

use connectz::Code;
use connectz_check::{Area, Ran};

use super::{GroupFacts, ser};
use crate::perf::{Mark, SpeedRow, SpeedWorkload};
use crate::{Graded, Kind, areas};

/// What a report says of one candidate.
#[derive(Debug, Serialize)]
pub struct CandidateFacts<'a> {
    /// Its place on the leaderboard, from 1.
    pub rank: usize,
    /// Its name.
    pub name: &'a str,
    /// Its command's words.
    pub command: Vec<String>,
    /// The folder it runs in, if it has one of its own.
    #[serde(serialize_with = "ser::path")]
    pub dir: Option<&'a Path>,
    /// Paths its box was given beyond its own folder and the system's.
    pub given: &'a [String],
    /// Cases passed.
    pub passed: usize,
    /// Cases run or counted.
    pub total: usize,
    /// Defined failures, on cases and workloads.
    pub defined_failures: usize,
    /// Differences on `impl` rulings: notes, not failures.
    pub impl_notes: usize,
    /// Crashes, on cases and workloads.
    pub crashes: usize,
    /// Timeouts, on cases and workloads.
    pub timeouts: usize,
    /// Memory breaches, on cases and workloads.
    pub memory_breaches: usize,
    /// Cases not run, after too many timeouts in a row.
    pub not_run: usize,
    /// Median time per case, in milliseconds.
    pub median_ms: f64,
    /// The leaderboard's speed column: a ratio to the reference with
    /// `--perf` (`DNF` when a workload was not finished right), else the
    /// median time per case.
    pub speed: String,
    /// Seconds its grading took.
    pub graded_s: f64,
    /// Whether some failing case was answered differently when run again.
    pub nondeterministic: bool,
    /// Those cases.
    pub flaky: Vec<FlakyFacts<'a>>,
    /// Why its cases ran in a fresh interpreter, not through a fork
    /// server: `None` when they did not.
    pub fresh_reason: Option<&'a str>,
    /// Its score in each spec area, in [`Area::ALL`] order.
    pub areas: Vec<AreaFacts>,
    /// Its score per expected code, for the codes some case expects.
    pub per_code: Vec<CodeFacts>,
    /// Its failures grouped by kind and rule: defined failures first,
    /// then notes, then the rest.
    pub groups: Vec<GroupFacts<'a>>,
    /// The command-line checks.
    pub command_line: Vec<ArgFacts<'a>>,
    /// Its speed on each workload, with `--perf`.
    pub perf: Option<Vec<SpeedFacts>>,
    /// When it is nondeterministic, the heading of its flaky cases (not in
    /// JSON).
    #[serde(skip)]
    pub flaky_heading: Option<String>,
    /// Failures beyond those kept with their inputs (not in JSON).
    #[serde(skip)]
    pub unlisted: usize,
    /// How each case went, in the order run (not in JSON).
    #[serde(skip)]
    pub log: &'a [Ran],
}

/// A case answered one way, then another when run again.
#[derive(Debug, Serialize)]
pub struct FlakyFacts<'a> {
    /// The case's name.
    pub case: &'a str,
    /// The reference's code.
    #[serde(serialize_with = "ser::code")]
    pub expected: Code,
    /// The first answer, in words (`"got 3"`): the one counted.
    pub first: String,
    /// The answer when run again, in words.
    pub second: String,
    /// Both answers in a sentence (not in JSON).
    #[serde(skip)]
    pub described: String,
}

/// A score: cases passed of cases run in a spec area.
#[derive(Debug, Serialize)]
pub struct AreaFacts {
    /// The area.
    #[serde(rename = "name", serialize_with = "ser::area")]
    pub area: Area,
    /// Cases passed.
    pub passed: usize,
    /// Cases run.
    pub total: usize,
    /// Differences on `impl` rulings among them.
    pub impl_notes: usize,
}

/// How an area went, as the leaderboard marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaMark {
    /// Every case passed.
    Full,
    /// Only differences on `impl` rulings.
    Noted,
    /// Some failure.
    Failed,
}

impl AreaFacts {
    /// How it went.
    pub fn mark(&self) -> AreaMark {
        if self.passed == self.total {
            AreaMark::Full
        } else if self.passed + self.impl_notes == self.total {
            AreaMark::Noted
        } else {
            AreaMark::Failed
        }
    }

    /// Its failures: cases neither passed nor noted.
    pub fn failures(&self) -> usize {
        self.total - self.passed - self.impl_notes
    }
}

/// A score: cases passed of the cases that expect one code.
#[derive(Debug, Serialize)]
pub struct CodeFacts {
    /// The code.
    #[serde(rename = "name", serialize_with = "ser::digit")]
    pub code: u8,
    /// Cases passed.
    pub passed: usize,
    /// Cases that expect it.
    pub total: usize,
}

/// A command-line check.
#[derive(Debug, Serialize)]
pub struct ArgFacts<'a> {
    /// What was checked.
    pub check: &'a str,
    /// What the reference prints.
    pub expected: &'a str,
    /// What the candidate printed.
    pub got: &'a str,
    /// Its exit status, if it exited.
    pub exit_status: Option<i32>,
    /// Whether it printed what the reference prints.
    pub passed: bool,
    /// The check in one line of text, as `cz check` prints it (not in
    /// JSON).
    #[serde(skip)]
    pub line: String,
}

/// A candidate's speed on one workload, against the reference's.
#[derive(Debug, Serialize)]
pub struct SpeedFacts {
    /// The workload's name (`?` for one the class does not have).
    pub workload: &'static str,
    /// How the candidate did: ok, wrong, crash, timeout or memory.
    #[serde(serialize_with = "ser::mark")]
    pub result: Mark,
    /// On a wrong code: the code expected.
    pub expected: Option<u8>,
    /// On a wrong code: the code printed.
    pub got: Option<u8>,
    /// The candidate's median time.
    pub time_s: f64,
    /// The reference's median time.
    pub reference_time_s: f64,
    /// The candidate's time over the reference's, when both finished right.
    pub time_ratio: Option<f64>,
    /// The candidate's peak memory.
    pub peak_mb: Option<f64>,
    /// The reference's peak memory.
    pub reference_peak_mb: Option<f64>,
    /// The candidate's peak memory over the reference's.
    pub memory_ratio: Option<f64>,
    /// The workload's place among the class's workloads (not in JSON).
    #[serde(skip)]
    pub index: usize,
}

impl<'a> CandidateFacts<'a> {
    /// The facts of `g`, ranked `rank`, timed on `workloads`.
    pub(super) fn of(
        rank: usize,
        g: &'a Graded,
        workloads: Option<&[SpeedWorkload]>,
    ) -> CandidateFacts<'a> {
        let check = &g.check;
        let counts = &check.counts;
        CandidateFacts {
            rank,
            name: &g.entry.name,
            command: g
                .entry
                .candidate
                .command
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            dir: g.entry.candidate.dir.as_deref(),
            given: &check.given,
            passed: counts.passed,
            total: check.total,
            defined_failures: g.failures(),
            impl_notes: counts.notes,
            crashes: g.crashes(),
            timeouts: g.timeouts(),
            memory_breaches: g.memory(),
            not_run: counts.skipped,
            median_ms: f64::from(g.median_micros) / 1000.0,
            speed: speed(g),
            graded_s: g.seconds,
            nondeterministic: check.nondeterministic(),
            flaky: check
                .flaky
                .iter()
                .map(|f| FlakyFacts {
                    case: &f.case,
                    expected: f.expect,
                    first: f.first_answer(),
                    second: f.second_answer(),
                    described: f.describe(),
                })
                .collect(),
            fresh_reason: check.fresh_reason.as_deref(),
            areas: areas(check)
                .map(|(area, score)| AreaFacts {
                    area,
                    passed: score.passed,
                    total: score.cases,
                    impl_notes: score.notes,
                })
                .collect(),
            per_code: (0u8..)
                .zip(check.per_code)
                .filter(|(_, (total, _))| *total > 0)
                .map(|(code, (total, passed))| CodeFacts {
                    code,
                    passed,
                    total,
                })
                .collect(),
            groups: g
                .groups
                .iter()
                .map(|group| GroupFacts::of(g, group))
                .collect(),
            command_line: check
                .args
                .iter()
                .map(|a| ArgFacts {
                    check: &a.what,
                    expected: &a.expected,
                    got: &a.got,
                    exit_status: a.status,
                    passed: a.passed(),
                    line: a.line(),
                })
                .collect(),
            perf: g
                .perf
                .as_ref()
                .map(|rows| rows.iter().map(|r| SpeedFacts::of(r, workloads)).collect()),
            flaky_heading: check
                .nondeterministic()
                .then(|| check.nondeterministic_heading()),
            unlisted: check.unlisted,
            log: &check.log,
        }
    }

    /// Its command as one line, as the check shows it.
    pub fn command_text(&self) -> String {
        self.command.join(" ")
    }

    /// Whether some of its cases were not run, after too many timeouts in
    /// a row.
    pub fn gave_up(&self) -> bool {
        self.groups.iter().any(|g| g.kind == Kind::Skipped)
    }
}

/// The speed column: the ratio to the reference with `--perf`, else the
/// median time per case.
fn speed(g: &Graded) -> String {
    match &g.perf {
        Some(_) if g.speed().is_infinite() => "DNF".into(),
        Some(_) => format!("{:.2}x", g.speed()),
        None => format!("{:.1} ms", f64::from(g.median_micros) / 1000.0),
    }
}

impl SpeedFacts {
    fn of(row: &SpeedRow, workloads: Option<&[SpeedWorkload]>) -> SpeedFacts {
        let (expected, got) = match row.candidate.verdict {
            Mark::Wrong { expected, got } => (Some(expected), Some(got)),
            _ => (None, None),
        };
        let mb = |p: Option<u64>| p.map(|p| p as f64 / 1048576.0);
        SpeedFacts {
            workload: workloads
                .and_then(|w| w.get(row.workload))
                .map_or("?", |w| w.name),
            result: row.candidate.verdict.clone(),
            expected,
            got,
            time_s: row.candidate.time.as_secs_f64(),
            reference_time_s: row.reference.time.as_secs_f64(),
            time_ratio: row.time_ratio(),
            peak_mb: mb(row.candidate.peak),
            reference_peak_mb: mb(row.reference.peak),
            memory_ratio: row.memory_ratio(),
            index: row.workload,
        }
    }
}
