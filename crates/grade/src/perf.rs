//! Speed graded (`cz grade --perf`): the benchmark's workloads at sizes a
//! candidate in Python finishes within the time limit, each run by the
//! candidate and by the reference in turn, a few times; times and peak
//! memory are the medians and maxima of those runs, reported as ratios to
//! the reference's, measured in the same run on the same machine.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use connectz::{Code, judge_path};
use connectz_gen::workload;

use crate::on_path;
use connectz_check::{Candidate, Outcome, generated};
use connectz_sandbox::Sandbox;
use serde::{Deserialize, Serialize};

/// How to grade speed.
#[derive(Clone, Debug)]
pub struct PerfSettings {
    /// Timings of each workload (the median is reported).
    pub runs: usize,
    /// Scale of the workloads: 1 is the default size.
    pub scale: f64,
    /// The reference, run alongside each candidate.
    pub reference: Candidate,
}

/// One speed workload: a file, or many small ones run one after another.
#[derive(Clone, Debug)]
pub struct SpeedWorkload {
    /// Its name: tail, dense, ladder, sparse, many.
    pub name: &'static str,
    /// What it is, in a few words.
    pub about: String,
    /// Its files.
    pub files: Vec<PathBuf>,
    /// The reference's code of each file.
    pub expect: Vec<Code>,
    /// Total bytes of its files.
    pub bytes: u64,
}

/// How a candidate did on a workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    /// Every file got the reference's code.
    Ok,
    /// A file got another code.
    Wrong {
        /// The file's expected code.
        expected: u8,
        /// What it printed.
        got: u8,
    },
    /// No code: a crash.
    Crash,
    /// Past the time limit.
    Timeout,
    /// Past the memory cap.
    Memory,
}

impl Mark {
    /// Its name in the reports.
    pub fn name(&self) -> &'static str {
        match self {
            Mark::Ok => "ok",
            Mark::Wrong { .. } => "wrong",
            Mark::Crash => "crash",
            Mark::Timeout => "timeout",
            Mark::Memory => "memory",
        }
    }
}

/// A program's runs of one workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    /// How it did (the worst of its runs).
    pub verdict: Mark,
    /// The median over runs of the time for all the workload's files.
    pub time: Duration,
    /// The largest peak resident memory of any run, in bytes.
    pub peak: Option<u64>,
}

/// A workload, run by a candidate and by the reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRow {
    /// Index into the workloads.
    pub workload: usize,
    /// The candidate's runs.
    pub candidate: Measure,
    /// The reference's runs, alongside.
    pub reference: Measure,
}

impl SpeedRow {
    /// The candidate's time over the reference's, when both finished right.
    pub fn time_ratio(&self) -> Option<f64> {
        (self.candidate.verdict == Mark::Ok && self.reference.verdict == Mark::Ok).then(|| {
            self.candidate.time.as_secs_f64() / self.reference.time.as_secs_f64().max(1e-6)
        })
    }

    /// The candidate's peak memory over the reference's.
    pub fn memory_ratio(&self) -> Option<f64> {
        match (self.candidate.peak, self.reference.peak) {
            (Some(c), Some(r)) if self.candidate.verdict == Mark::Ok && r > 0 => {
                Some(c as f64 / r as f64)
            }
            _ => None,
        }
    }
}

/// The geometric mean of the time ratios; infinite when a workload did not
/// finish right.
pub fn geometric_mean(rows: &[SpeedRow]) -> f64 {
    if rows.is_empty() {
        return 1.0;
    }
    let mut log_sum = 0.0;
    for row in rows {
        match row.time_ratio() {
            Some(r) => log_sum += r.max(1e-9).ln(),
            None => return f64::INFINITY,
        }
    }
    (log_sum / rows.len() as f64).exp()
}

/// Sizes at scale 1: moves after the win, the dense frame's side, the
/// ladder's row, sparse moves, small files.
const SIZES: [(&str, f64); 5] = [
    ("tail", 200_000.0),
    ("dense", 300.0),
    ("ladder", 20_000.0),
    ("sparse", 20_000.0),
    ("many", 20.0),
];

/// The dense frame's least side, at any scale: twice its z.
const DENSE_LEAST: u64 = 60;

/// Writes the workloads into `dir`, at `scale`.
///
/// # Errors
/// A file cannot be written.
pub fn prepare(dir: &Path, scale: f64, seed: u64) -> io::Result<Vec<SpeedWorkload>> {
    fs::create_dir_all(dir).map_err(on_path(dir))?;
    let size = |name: &str| -> u64 {
        let base = SIZES.iter().find(|(n, _)| *n == name).map_or(1.0, |s| s.1);
        let n = (base * scale).round().max(1.0) as u64;
        // The dense fill's z is 30: a smaller frame could not be won (7).
        if name == "dense" {
            n.max(DENSE_LEAST)
        } else {
            n
        }
    };
    let mut out = Vec::new();
    let workloads = [
        (
            "tail",
            connectz_gen::Workload::Tail,
            "a 7x6 game won at move 7, then {} more moves",
        ),
        (
            "dense",
            connectz_gen::Workload::Dense,
            "a {0}x{0} frame filled in random order, z = 30",
        ),
        (
            "ladder",
            connectz_gen::Workload::Ladder,
            "player 1's bottom row grows to {} and wins on the last move",
        ),
        (
            "sparse",
            connectz_gen::Workload::Sparse,
            "{} random moves on a 10^12 x 10^12 frame",
        ),
    ];
    for (name, kind, about) in workloads {
        let n = size(name);
        let path = dir.join(format!("{name}.txt"));
        let file = fs::File::create(&path).map_err(on_path(&path))?;
        workload(kind, n, seed, file).map_err(on_path(&path))?;
        out.push(SpeedWorkload {
            name,
            about: about
                .replace("{0}", &n.to_string())
                .replace("{}", &n.to_string()),
            expect: vec![judge_path(&path).code()],
            bytes: fs::metadata(&path).map_or(0, |m| m.len()),
            files: vec![path],
        });
    }
    let count = size("many") as usize;
    let mut files = Vec::new();
    let mut expect = Vec::new();
    let mut bytes = 0;
    for (i, case) in generated(count, seed ^ 0x5eed).enumerate() {
        let path = dir.join(format!("many-{i:04}.txt"));
        fs::write(&path, &case.bytes).map_err(on_path(&path))?;
        bytes += case.bytes.len() as u64;
        files.push(path);
        expect.push(case.expect);
    }
    out.push(SpeedWorkload {
        name: "many",
        about: format!("{} small generated games, one run each", files.len()),
        files,
        expect,
        bytes,
    });
    Ok(out)
}

/// Timings every workload `runs` times by the candidate and by the reference,
/// in turn. A program that fails a workload is not run on it again.
///
/// # Errors
/// None today; the signature leaves room for scratch files.
pub fn measure(
    candidate: &Candidate,
    reference: &Candidate,
    workloads: &[SpeedWorkload],
    sandbox: &Sandbox,
    runs: usize,
) -> io::Result<Vec<SpeedRow>> {
    let mut rows = Vec::new();
    for (i, w) in workloads.iter().enumerate() {
        let mut ours = Timings::default();
        let mut theirs = Timings::default();
        for _ in 0..runs.max(1) {
            if theirs.verdict == Mark::Ok {
                theirs.add(run_once(reference, w, sandbox));
            }
            if ours.verdict == Mark::Ok {
                ours.add(run_once(candidate, w, sandbox));
            }
        }
        rows.push(SpeedRow {
            workload: i,
            candidate: ours.measure(),
            reference: theirs.measure(),
        });
    }
    Ok(rows)
}

#[derive(Debug)]
struct Timings {
    verdict: Mark,
    times: Vec<Duration>,
    peak: Option<u64>,
}

impl Default for Timings {
    fn default() -> Timings {
        Timings {
            verdict: Mark::Ok,
            times: Vec::new(),
            peak: None,
        }
    }
}

impl Timings {
    fn add(&mut self, (verdict, time, peak): (Mark, Duration, Option<u64>)) {
        self.verdict = verdict;
        self.times.push(time);
        self.peak = self.peak.max(peak);
    }

    fn measure(mut self) -> Measure {
        self.times.sort_unstable();
        let time = match self.verdict {
            // The one that failed, when it failed.
            Mark::Ok => self.times.get(self.times.len() / 2).copied(),
            _ => self.times.last().copied(),
        };
        Measure {
            verdict: self.verdict,
            time: time.unwrap_or_default(),
            peak: self.peak,
        }
    }
}

/// One run of every file of the workload: the verdict, the total time, the
/// largest peak memory.
fn run_once(
    program: &Candidate,
    w: &SpeedWorkload,
    sandbox: &Sandbox,
) -> (Mark, Duration, Option<u64>) {
    let mut total = Duration::ZERO;
    let mut peak = None;
    for (path, &expect) in w.files.iter().zip(&w.expect) {
        // Speed is the real command's, start-up and all: never a fork.
        let (outcome, run) = program.judge_fresh(sandbox, path, expect, sandbox.limits().timeout);
        total += run.elapsed;
        peak = peak.max(run.peak_memory);
        let verdict = match outcome {
            // The right code: speed does not judge the exit status.
            Outcome::Pass | Outcome::ExitStatus { .. } => continue,
            Outcome::Mismatch { got } => Mark::Wrong {
                expected: expect.number(),
                got,
            },
            Outcome::Crash { .. } | Outcome::Skipped => Mark::Crash,
            Outcome::Timeout => Mark::Timeout,
            Outcome::MemoryExceeded { .. } => Mark::Memory,
        };
        return (verdict, total, peak);
    }
    (Mark::Ok, total, peak)
}
