//! The one model of a report: what `cz grade` says of the class and of each
//! candidate, computed once from a [`ClassReport`] and rendered four ways
//! ([`text`](crate::text), [`json`](crate::json), [`junit`](crate::junit)
//! and [`html`](crate::html)), as serde has one data model and many formats.
//!
//! Serialized, the facts are the JSON report, field for field (its schema
//! is in docs/grade.md); a field marked "not in JSON" is one the other
//! renderings say beyond it. What a candidate controls (its name, command,
//! folder, what it printed) is held here as it is: each rendering escapes it
//! as its own format does.

use std::sync::OnceLock;
use std::time::Duration;

use serde::Serialize;

use connectz::Code;
use connectz_check::Spent;

use crate::perf::SpeedWorkload;
use crate::{ClassReport, case_names};

mod candidate;
mod group;
mod ser;

pub use candidate::{
    AreaFacts, AreaMark, ArgFacts, CandidateFacts, CodeFacts, FlakyFacts, SpeedFacts,
};
pub use group::{CaseFacts, GroupFacts};

/// What a report says of the class.
#[derive(Debug, Serialize)]
pub struct Facts<'a> {
    /// `"cz grade"`.
    pub tool: &'static str,
    /// This program's version.
    pub version: &'static str,
    /// Whether every candidate asked for was graded and passed every
    /// defined case: the exit status is 0.
    pub all_passed: bool,
    /// How the runs were isolated.
    pub isolation: Isolated,
    /// False while the grade is under way, or when it was interrupted:
    /// `candidates` holds those graded, `planned` how many were asked for.
    pub complete: bool,
    /// The candidates asked for.
    pub planned: usize,
    /// The cases every candidate was run on.
    pub cases: Cases,
    /// The limits of each run.
    pub limits: RunLimits,
    /// The speed workloads, with `--perf`.
    pub workloads: Option<Vec<WorkloadFacts<'a>>>,
    /// The candidates graded, in leaderboard order.
    pub candidates: Vec<CandidateFacts<'a>>,
    /// What was run, in one sentence without its full stop (not in JSON).
    #[serde(skip)]
    pub summary: String,
    /// Where the time went (not in JSON).
    #[serde(skip)]
    pub time: TimeFacts,
    /// The name of every case, in the order run, made when a rendering
    /// first asks for them (not in JSON).
    #[serde(skip)]
    names: OnceLock<Vec<String>>,
}

/// How the runs were isolated.
#[derive(Debug, Serialize)]
pub struct Isolated {
    /// Whether every run was in a box.
    pub isolated: bool,
    /// The isolation in words: the line the text report prints.
    pub description: String,
}

/// The cases every candidate was run on.
#[derive(Debug, Serialize)]
pub struct Cases {
    /// All of them.
    pub total: usize,
    /// From the shipped corpus.
    pub corpus: usize,
    /// Generated.
    pub generated: usize,
    /// The generated games' seed.
    pub seed: u64,
}

/// The limits of each run.
#[derive(Debug, Serialize)]
pub struct RunLimits {
    /// Seconds.
    pub timeout_s: f64,
    /// Megabytes.
    pub memory_mb: u64,
}

/// Where the class's time went.
#[derive(Debug)]
pub struct TimeFacts {
    /// Wall-clock seconds so far.
    pub wall_s: f64,
    /// The graded candidates' runs, summed.
    pub spent: Spent,
    /// Of their runs' time, about how much was starting up: each
    /// candidate's own (the class's fastest run is the fastest
    /// candidate's).
    pub start_up: Duration,
}

/// A speed workload.
#[derive(Debug, Serialize)]
pub struct WorkloadFacts<'a> {
    /// Its name: tail, dense, ladder, sparse, many.
    pub name: &'static str,
    /// What it is, in a few words.
    pub about: &'a str,
    /// How many files it has.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// The reference's code of each file.
    #[serde(serialize_with = "ser::codes")]
    pub expected: &'a [Code],
}

impl<'a> Facts<'a> {
    /// The facts of `class`.
    pub fn of(class: &'a ClassReport) -> Facts<'a> {
        let workloads = class.workloads.as_deref();
        Facts {
            tool: "cz grade",
            version: env!("CARGO_PKG_VERSION"),
            all_passed: class.all_passed(),
            isolation: Isolated {
                isolated: class.isolation.isolated(),
                description: class.isolation.describe(),
            },
            complete: !class.incomplete(),
            planned: class.planned,
            cases: Cases {
                total: class.corpus + class.generated,
                corpus: class.corpus,
                generated: class.generated,
                seed: class.seed,
            },
            limits: RunLimits {
                timeout_s: class.limits.timeout.as_secs_f64(),
                memory_mb: class.limits.memory >> 20,
            },
            workloads: workloads.map(|ws| ws.iter().map(WorkloadFacts::of).collect()),
            candidates: class
                .graded
                .iter()
                .enumerate()
                .map(|(i, g)| CandidateFacts::of(i + 1, g, workloads))
                .collect(),
            summary: class.summary(),
            time: TimeFacts {
                wall_s: class.seconds,
                spent: class.spent,
                start_up: class.graded.iter().map(|g| g.check.spent.start_up()).sum(),
            },
            names: OnceLock::new(),
        }
    }

    /// The name of every case, in the order run.
    pub fn case_names(&self) -> &[String] {
        self.names.get_or_init(|| {
            case_names(self.cases.corpus, self.cases.generated, self.cases.seed).collect()
        })
    }

    /// Whether the candidates were timed on the speed workloads.
    pub fn timed(&self) -> bool {
        self.workloads.is_some()
    }
}

impl<'a> WorkloadFacts<'a> {
    fn of(w: &'a SpeedWorkload) -> WorkloadFacts<'a> {
        WorkloadFacts {
            name: w.name,
            about: &w.about,
            files: w.files.len(),
            bytes: w.bytes,
            expected: &w.expect,
        }
    }
}
