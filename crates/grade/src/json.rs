//! The JSON report of `cz grade` (`--json FILE`): one document, its schema
//! in docs/grade.md. Inputs are given as their bytes escaped as in the text
//! report (`\n`, `\r`, `\t`, `\\`, `\'`, `\"`, `\xNN`), which is exact.

use serde::Serialize;

use super::perf::{Mark, SpeedRow};
use super::{ClassReport, Graded, areas, text};
use connectz_check::{CaseResult, Outcome};

#[derive(Serialize)]
struct JsonDocument<'a> {
    tool: &'static str,
    version: &'static str,
    all_passed: bool,
    isolation: JsonIsolated,
    /// False while the grade is under way, or when it was interrupted:
    /// `candidates` holds those graded, `planned` how many were asked for.
    complete: bool,
    planned: usize,
    cases: JsonCases,
    limits: JsonLimits,
    workloads: Option<Vec<JsonWorkload<'a>>>,
    candidates: Vec<JsonCandidate<'a>>,
}

#[derive(Serialize)]
struct JsonCases {
    total: usize,
    corpus: usize,
    generated: usize,
    seed: u64,
}

#[derive(Serialize)]
struct JsonLimits {
    timeout_s: f64,
    memory_mb: u64,
}

#[derive(Serialize)]
struct JsonWorkload<'a> {
    name: &'a str,
    about: &'a str,
    files: usize,
    bytes: u64,
    expected: Vec<u8>,
}

#[derive(Serialize)]
struct JsonCandidate<'a> {
    rank: usize,
    name: &'a str,
    command: Vec<String>,
    dir: Option<String>,
    /// Paths its box was given beyond its own folder and the system's.
    given: &'a [String],
    passed: usize,
    total: usize,
    defined_failures: usize,
    impl_notes: usize,
    crashes: usize,
    timeouts: usize,
    memory_breaches: usize,
    not_run: usize,
    median_ms: f64,
    speed: String,
    graded_s: f64,
    /// Some case was answered differently when run again.
    nondeterministic: bool,
    /// Those cases.
    flaky: Vec<JsonFlaky<'a>>,
    /// Why its cases ran in a fresh interpreter, not through a fork
    /// server: null when they did not.
    fresh_reason: Option<&'a str>,
    areas: Vec<JsonScore<'a>>,
    per_code: Vec<JsonScore<'a>>,
    groups: Vec<JsonGroup<'a>>,
    command_line: Vec<JsonArgCheck<'a>>,
    perf: Option<Vec<JsonPerf<'a>>>,
}

#[derive(Serialize)]
struct JsonScore<'a> {
    name: &'a str,
    passed: usize,
    total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    impl_notes: Option<usize>,
}

#[derive(Serialize)]
struct JsonGroup<'a> {
    kind: &'static str,
    rule: &'a str,
    class: &'static str,
    counts: bool,
    count: usize,
    shrunk: Option<JsonExample>,
    cases: Vec<JsonExample>,
}

#[derive(Serialize)]
struct JsonExample {
    name: Option<String>,
    /// The clause the case exercises (its group names the rule broken).
    rule: Option<String>,
    input: String,
    expected: u8,
    answer: String,
    got: Option<u8>,
    stderr: Option<String>,
    time_ms: Option<f64>,
}

/// A case answered one way, then another when run again.
#[derive(Serialize)]
struct JsonFlaky<'a> {
    case: &'a str,
    expected: u8,
    first: String,
    second: String,
}

#[derive(Serialize)]
struct JsonArgCheck<'a> {
    check: &'a str,
    expected: &'a str,
    got: &'a str,
    exit_status: Option<i32>,
    passed: bool,
}

#[derive(Serialize)]
struct JsonPerf<'a> {
    workload: &'a str,
    result: &'static str,
    expected: Option<u8>,
    got: Option<u8>,
    time_s: f64,
    reference_time_s: f64,
    time_ratio: Option<f64>,
    peak_mb: Option<f64>,
    reference_peak_mb: Option<f64>,
    memory_ratio: Option<f64>,
}

/// How the runs were isolated.
#[derive(Serialize)]
struct JsonIsolated {
    isolated: bool,
    description: String,
}

/// The report as one JSON document.
pub fn report(class: &ClassReport) -> String {
    let doc = JsonDocument {
        tool: "cz grade",
        version: env!("CARGO_PKG_VERSION"),
        all_passed: class.all_passed(),
        isolation: JsonIsolated {
            isolated: class.isolation.isolated(),
            description: class.isolation.describe(),
        },
        complete: !class.incomplete(),
        planned: class.planned,
        cases: JsonCases {
            total: class.corpus + class.generated,
            corpus: class.corpus,
            generated: class.generated,
            seed: class.seed,
        },
        limits: JsonLimits {
            timeout_s: class.limits.timeout.as_secs_f64(),
            memory_mb: class.limits.memory >> 20,
        },
        workloads: class.workloads.as_ref().map(|ws| {
            ws.iter()
                .map(|w| JsonWorkload {
                    name: w.name,
                    about: &w.about,
                    files: w.files.len(),
                    bytes: w.bytes,
                    expected: w.expect.iter().map(|c| c.number()).collect(),
                })
                .collect()
        }),
        candidates: class
            .graded
            .iter()
            .enumerate()
            .map(|(i, g)| candidate(i + 1, g, class))
            .collect(),
    };
    let mut text =
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

fn candidate<'a>(rank: usize, g: &'a Graded, class: &'a ClassReport) -> JsonCandidate<'a> {
    let c = &g.check.counts;
    JsonCandidate {
        rank,
        name: &g.entry.name,
        command: g
            .entry
            .candidate
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        dir: g
            .entry
            .candidate
            .dir
            .as_ref()
            .map(|d| d.display().to_string()),
        given: &g.check.given,
        passed: c.passed,
        total: g.check.total,
        defined_failures: g.failures(),
        impl_notes: c.notes,
        crashes: g.crashes(),
        timeouts: g.timeouts(),
        memory_breaches: g.memory(),
        not_run: c.skipped,
        median_ms: f64::from(g.median_micros) / 1000.0,
        speed: text::speed(g),
        graded_s: g.seconds,
        nondeterministic: g.check.nondeterministic(),
        flaky: g
            .check
            .flaky
            .iter()
            .map(|f| JsonFlaky {
                case: &f.case,
                expected: f.expect.number(),
                first: f.first_answer(),
                second: f.second_answer(),
            })
            .collect(),
        fresh_reason: g.check.fresh_reason.as_deref(),
        areas: areas(&g.check)
            .map(|(a, score)| JsonScore {
                name: a.name(),
                passed: score.passed,
                total: score.cases,
                impl_notes: Some(score.notes),
            })
            .collect(),
        per_code: g
            .check
            .per_code
            .iter()
            .enumerate()
            .filter(|(_, (total, _))| *total > 0)
            .map(|(code, &(total, passed))| JsonScore {
                name: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"][code],
                passed,
                total,
                impl_notes: None,
            })
            .collect(),
        groups: g
            .groups
            .iter()
            .map(|group| JsonGroup {
                kind: group.kind.name(),
                rule: &group.rule,
                class: group.class.name(),
                counts: group.counts(),
                count: group.results.len(),
                shrunk: group.shrunk.as_ref().map(|s| JsonExample {
                    name: None,
                    rule: None,
                    input: text::escaped(&s.bytes),
                    expected: s.expect.number(),
                    answer: s.outcome.answer(),
                    got: got(&s.outcome),
                    stderr: stderr(&s.outcome),
                    time_ms: None,
                }),
                cases: g.results_of(group).map(example).collect(),
            })
            .collect(),
        command_line: g
            .check
            .args
            .iter()
            .map(|a| JsonArgCheck {
                check: &a.what,
                expected: &a.expected,
                got: &a.got,
                exit_status: a.status,
                passed: a.passed(),
            })
            .collect(),
        perf: g
            .perf
            .as_ref()
            .map(|rows| rows.iter().map(|row| perf(row, class)).collect()),
    }
}

fn example(r: &CaseResult) -> JsonExample {
    JsonExample {
        name: Some(r.case.name.clone()),
        rule: Some(r.case.rule.clone()),
        input: text::escaped(&r.case.bytes),
        expected: r.case.expect.number(),
        answer: r.outcome.answer(),
        got: got(&r.outcome),
        stderr: stderr(&r.outcome),
        time_ms: Some(r.elapsed.as_secs_f64() * 1000.0),
    }
}

fn got(outcome: &Outcome) -> Option<u8> {
    match outcome {
        Outcome::Mismatch { got } => Some(*got),
        _ => None,
    }
}

fn stderr(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Crash { stderr, .. } => Some(stderr.clone()),
        _ => None,
    }
}

fn perf<'a>(row: &SpeedRow, class: &'a ClassReport) -> JsonPerf<'a> {
    let name = class
        .workloads
        .as_ref()
        .and_then(|w| w.get(row.workload))
        .map_or("?", |w| w.name);
    let (expected, got) = match row.candidate.verdict {
        Mark::Wrong { expected, got } => (Some(expected), Some(got)),
        _ => (None, None),
    };
    let mb = |p: Option<u64>| p.map(|p| p as f64 / 1048576.0);
    JsonPerf {
        workload: name,
        result: row.candidate.verdict.name(),
        expected,
        got,
        time_s: row.candidate.time.as_secs_f64(),
        reference_time_s: row.reference.time.as_secs_f64(),
        time_ratio: row.time_ratio(),
        peak_mb: mb(row.candidate.peak),
        reference_peak_mb: mb(row.reference.peak),
        memory_ratio: row.memory_ratio(),
    }
}
