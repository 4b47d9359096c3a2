//! The text report of `cz grade`: the leaderboard, then each candidate's
//! failures grouped by rule, its command-line checks, its score per code,
//! and its speed; a rendering of the report's [`Facts`].

use std::fmt::Write as _;

use crate::facts::{AreaMark, CandidateFacts, Facts, GroupFacts, SpeedFacts, WorkloadFacts};
use connectz_check::{Area, Outcome, describe, shown};

/// The whole report.
pub fn report(facts: &Facts) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "cz grade: {}", facts.summary);
    let _ = writeln!(out, "isolation: {}", facts.isolation.description);
    let _ = writeln!(out, "time: {}", spent(facts));
    out.push('\n');
    out.push_str(&leaderboard(facts));
    for c in &facts.candidates {
        out.push('\n');
        out.push_str(&candidate(c, facts.workloads.as_deref()));
    }
    let _ = writeln!(
        out,
        "\n{}",
        if !facts.complete {
            "the grade is incomplete: not every candidate was graded"
        } else if facts.all_passed {
            "every candidate passed every defined case"
        } else {
            "some candidates failed defined cases (exit status 1)"
        }
    );
    out
}

/// Where the time went: wall time, then the runs' own time (summed over
/// the jobs running at once).
fn spent(facts: &Facts) -> String {
    let t = &facts.time;
    let s = &t.spent;
    format!(
        "{:.1} s wall; {} runs took {:.1} s (about {:.1} s of it starting up), {} timeouts {:.1} s ({} cases ran past their first limit), {} shrinking runs {:.1} s; {} cases not run again (same input); {} checked again in a fresh interpreter; {} failing cases run again to see they answer the same, {:.1} s",
        t.wall_s,
        s.runs,
        s.run_time.as_secs_f64(),
        t.start_up.as_secs_f64(),
        s.timeouts,
        s.timeout_time.as_secs_f64(),
        s.retries,
        s.shrink_runs,
        s.shrink_time.as_secs_f64(),
        s.reused,
        s.fresh_checks,
        s.reruns,
        s.rerun_time.as_secs_f64(),
    )
}

/// A short heading for an area's column.
fn short(area: Area) -> &'static str {
    match area {
        Area::Format => "format",
        Area::Numbers => "numbers",
        Area::Rules => "rules",
        Area::Winnability => "winnable",
        Area::Precedence => "precedence",
        Area::Size => "size",
        Area::CommandLine => "cmd-line",
    }
}

/// A name in the leaderboard, at most `width` characters: `~` after it
/// marks a nondeterministic candidate, and is kept when the name is cut.
fn ranked_name(c: &CandidateFacts, width: usize) -> String {
    let mark = if c.nondeterministic { "~" } else { "" };
    let name: String = shown(c.name)
        .chars()
        .take(width.saturating_sub(mark.len()))
        .collect();
    format!("{name}{mark}")
}

fn leaderboard(facts: &Facts) -> String {
    let width = facts
        .candidates
        .iter()
        .map(|c| ranked_name(c, usize::MAX).chars().count())
        .max()
        .unwrap_or(9)
        .clamp(9, 40);
    let mut out = format!(
        "leaderboard (defined failures, then crashes, timeouts, memory breaches, impl notes, {}):\n",
        if facts.timed() {
            "then speed: geometric mean of time ratios to the reference"
        } else {
            "then median time per case"
        }
    );
    let _ = write!(
        out,
        "{:>3}  {:<width$}  {:>7} {:>6} {:>8} {:>7} {:>6} {:>8}",
        "#", "candidate", "defined", "crash", "timeout", "memory", "notes", "speed"
    );
    for area in Area::ALL {
        let _ = write!(out, " {:>10}", short(area));
    }
    out.push('\n');
    for c in &facts.candidates {
        let _ = write!(
            out,
            "{:>3}  {:<width$}  {:>7} {:>6} {:>8} {:>7} {:>6} {:>8}",
            c.rank,
            ranked_name(c, width),
            c.defined_failures,
            c.crashes,
            c.timeouts,
            c.memory_breaches,
            c.impl_notes,
            c.speed
        );
        for score in &c.areas {
            let mark = match score.mark() {
                AreaMark::Full => "",
                AreaMark::Noted => "*",
                AreaMark::Failed => "!",
            };
            let _ = write!(
                out,
                " {:>10}",
                format!("{}/{}{mark}", score.passed, score.total)
            );
        }
        out.push('\n');
    }
    out.push_str(
        "(area: cases passed of cases run; ! marks a failure, * only differences on impl rulings)\n",
    );
    if facts.candidates.iter().any(|c| c.nondeterministic) {
        out.push_str(
            "(~ after a name: nondeterministic, some failing cases answered differently when run again)\n",
        );
    }
    out
}

fn candidate(c: &CandidateFacts, workloads: Option<&[WorkloadFacts]>) -> String {
    let mut out = format!(
        "== {}. {}: {}\n",
        c.rank,
        shown(c.name),
        shown(c.command_text())
    );
    if let Some(dir) = c.dir {
        let _ = writeln!(
            out,
            "   run in {}",
            shown(dir.as_os_str().as_encoded_bytes())
        );
    }
    if !c.given.is_empty() {
        let _ = writeln!(out, "   given {}", shown(c.given.join(", ")));
    }
    let _ = writeln!(
        out,
        "   passed {} of {}; defined failures {}; impl notes {}; crashes {}; timeouts {}; memory breaches {}{}; graded in {:.1} s",
        c.passed,
        c.total,
        c.defined_failures,
        c.impl_notes,
        c.crashes,
        c.timeouts,
        c.memory_breaches,
        if c.not_run > 0 {
            format!("; not run after too many timeouts in a row: {}", c.not_run)
        } else {
            String::new()
        },
        c.graded_s
    );
    if let Some(reason) = c.fresh_reason {
        let _ = writeln!(out, "   run fresh: {}", shown(reason));
    }
    if let Some(heading) = &c.flaky_heading {
        let _ = writeln!(out, "   {heading}");
        for f in &c.flaky {
            let _ = writeln!(out, "     {}: {}", shown(f.case), f.described);
        }
    }
    for group in &c.groups {
        out.push_str(&group_lines(group));
    }
    if c.unlisted > 0 {
        let _ = writeln!(
            out,
            "   ... and {} more failures, counted but not grouped",
            c.unlisted
        );
    }
    if c.gave_up() {
        let _ = writeln!(
            out,
            "   (cases not run: the candidate had timed out on every case for a while)"
        );
    }
    out.push_str(&command_line(c));
    let codes: Vec<String> = c
        .per_code
        .iter()
        .map(|s| format!("{}: {}/{}", s.code, s.passed, s.total))
        .collect();
    let _ = writeln!(out, "   per expected code: {}", codes.join(", "));
    if let (Some(rows), Some(workloads)) = (&c.perf, workloads) {
        out.push_str(&speed_table(rows, workloads));
    }
    out
}

/// A failure group: its label, rule and count, its first case, and that
/// case shrunk.
fn group_lines(group: &GroupFacts) -> String {
    let first = &group.cases[0];
    let clause = first.rule.unwrap_or_default();
    let mut out = format!(
        "   {:<7} {} [{}]: {} case{}, e.g. {}{}\n",
        group.label(),
        group.rule,
        group.class.name(),
        group.count,
        if group.count == 1 { "" } else { "s" },
        first.name.unwrap_or_default(),
        if clause == group.rule {
            String::new()
        } else {
            format!(" (case of {clause})")
        }
    );
    if let Outcome::Crash { .. } | Outcome::MemoryExceeded { .. } = first.outcome {
        let _ = writeln!(
            out,
            "           {}",
            describe(first.expected, first.outcome)
        );
    }
    let _ = writeln!(
        out,
        "           input: \"{}\" (expected {}, {})",
        clip(first.input),
        first.expected,
        first.answer
    );
    if let Some(s) = &group.shrunk {
        let _ = writeln!(
            out,
            "           shrunk: \"{}\" (expected {}, {})",
            clip(s.input),
            s.expected,
            s.answer
        );
    }
    out
}

/// The command-line checks: how many passed, and each that failed.
fn command_line(c: &CandidateFacts) -> String {
    let all = c.command_line.len();
    let failed: Vec<_> = c.command_line.iter().filter(|a| !a.passed).collect();
    let mut out = format!("   command line: {} of {all} ok\n", all - failed.len());
    for a in failed {
        let _ = write!(out, " {}", a.line);
    }
    out
}

/// The speed table of one candidate.
fn speed_table(rows: &[SpeedFacts], workloads: &[WorkloadFacts]) -> String {
    let mut out = String::from(
        "   speed      code  result       time   reference  ratio   peak MB  reference  ratio\n",
    );
    for row in rows {
        let w = &workloads[row.index];
        let expected: String = w.expected.first().map_or("-".into(), |c| {
            if w.expected.len() > 1 {
                "*".into()
            } else {
                c.to_string()
            }
        });
        let result = match (row.expected, row.got) {
            (Some(expected), Some(got)) => format!("{expected}->{got}"),
            _ => row.result.name().to_string(),
        };
        let mb = |p: Option<f64>| p.map_or("-".into(), |p| format!("{p:.1}"));
        let ratio = |r: Option<f64>| r.map_or("-".into(), |r| format!("{r:.2}x"));
        let _ = writeln!(
            out,
            "   {:<10} {:>4}  {:<8} {:>9.3}s {:>10.3}s {:>6} {:>9} {:>10} {:>6}",
            row.workload,
            expected,
            result,
            row.time_s,
            row.reference_time_s,
            ratio(row.time_ratio),
            mb(row.peak_mb),
            mb(row.reference_peak_mb),
            ratio(row.memory_ratio),
        );
    }
    out
}

/// An input as escaped text, at most 200 bytes of it.
pub fn clip(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(200)];
    let mut text = shown.escape_ascii().to_string();
    if bytes.len() > shown.len() {
        let _ = write!(text, "... ({} bytes)", bytes.len());
    }
    text
}

/// An input as escaped text, whole up to 1 MiB (exact: `\n`, `\r`, `\t`,
/// `\\`, `\'`, `\"`, `\xNN`); longer inputs are cut and say so.
pub fn escaped(bytes: &[u8]) -> String {
    const MOST: usize = 1 << 20;
    let shown = &bytes[..bytes.len().min(MOST)];
    let mut text = shown.escape_ascii().to_string();
    if bytes.len() > MOST {
        let _ = write!(text, "... ({} bytes in all)", bytes.len());
    }
    text
}
