//! The text report of `cz grade`: the leaderboard, then each candidate's
//! failures grouped by rule, its command-line checks, its score per code,
//! and its speed.

use std::fmt::Write as _;

use super::perf::{Mark, SpeedRow, SpeedWorkload};
use super::{ClassReport, Graded, Kind, areas};
use connectz_check::{Area, Outcome, describe, shown};

/// The whole report.
pub fn report(class: &ClassReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "cz grade: {}", class.summary());
    let _ = writeln!(out, "isolation: {}", class.isolation.describe());
    let _ = writeln!(out, "time: {}", spent(class));
    out.push('\n');
    out.push_str(&leaderboard(class));
    for (rank, g) in class.graded.iter().enumerate() {
        out.push('\n');
        out.push_str(&candidate(rank + 1, g, class.workloads.as_deref()));
    }
    let _ = writeln!(
        out,
        "\n{}",
        if class.incomplete() {
            "the grade is incomplete: not every candidate was graded"
        } else if class.all_passed() {
            "every candidate passed every defined case"
        } else {
            "some candidates failed defined cases (exit status 1)"
        }
    );
    out
}

/// Where the time went: wall time, then the runs' own time (summed over
/// the jobs running at once).
pub fn spent(class: &ClassReport) -> String {
    let s = &class.spent;
    format!(
        "{:.1} s wall; {} runs took {:.1} s (about {:.1} s of it starting up), {} timeouts {:.1} s ({} cases run again within the full limit), {} shrinking runs {:.1} s; {} cases not run again (same input); {} checked again in a fresh interpreter; {} failing cases run again to see they answer the same, {:.1} s",
        class.seconds,
        s.runs,
        s.run_time.as_secs_f64(),
        // Each candidate's own start-up: the class's fastest run is the
        // fastest candidate's.
        class
            .graded
            .iter()
            .map(|g| g.check.spent.start_up())
            .sum::<std::time::Duration>()
            .as_secs_f64(),
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

/// The speed column: the ratio to the reference with `--perf`, else the
/// median time per case.
pub fn speed(g: &Graded) -> String {
    match &g.perf {
        Some(_) if g.speed().is_infinite() => "DNF".into(),
        Some(_) => format!("{:.2}x", g.speed()),
        None => format!("{:.1} ms", f64::from(g.median_micros) / 1000.0),
    }
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
fn ranked_name(g: &Graded, width: usize) -> String {
    let mark = if g.check.nondeterministic() { "~" } else { "" };
    let name: String = shown(&g.entry.name)
        .chars()
        .take(width.saturating_sub(mark.len()))
        .collect();
    format!("{name}{mark}")
}

fn leaderboard(class: &ClassReport) -> String {
    let width = class
        .graded
        .iter()
        .map(|g| ranked_name(g, usize::MAX).chars().count())
        .max()
        .unwrap_or(9)
        .clamp(9, 40);
    let perf = class.workloads.is_some();
    let mut out = format!(
        "leaderboard (defined failures, then crashes, timeouts, memory breaches, impl notes, {}):\n",
        if perf {
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
    for (rank, g) in class.graded.iter().enumerate() {
        let name = ranked_name(g, width);
        let _ = write!(
            out,
            "{:>3}  {:<width$}  {:>7} {:>6} {:>8} {:>7} {:>6} {:>8}",
            rank + 1,
            name,
            g.failures(),
            g.crashes(),
            g.timeouts(),
            g.memory(),
            g.notes(),
            speed(g)
        );
        for (_, score) in areas(&g.check) {
            let mark = if score.passed == score.cases {
                ""
            } else if score.clean() {
                "*"
            } else {
                "!"
            };
            let _ = write!(
                out,
                " {:>10}",
                format!("{}/{}{mark}", score.passed, score.cases)
            );
        }
        out.push('\n');
    }
    out.push_str(
        "(area: cases passed of cases run; ! marks a failure, * only differences on impl rulings)\n",
    );
    if class.graded.iter().any(|g| g.check.nondeterministic()) {
        out.push_str(
            "(~ after a name: nondeterministic, some failing cases answered differently when run again)\n",
        );
    }
    out
}

fn candidate(rank: usize, g: &Graded, workloads: Option<&[SpeedWorkload]>) -> String {
    let c = &g.check.counts;
    let mut out = format!(
        "== {rank}. {}: {}\n",
        shown(&g.entry.name),
        shown(&g.check.command)
    );
    if let Some(dir) = &g.entry.candidate.dir {
        let _ = writeln!(
            out,
            "   run in {}",
            shown(dir.as_os_str().as_encoded_bytes())
        );
    }
    if !g.check.given.is_empty() {
        let _ = writeln!(out, "   given {}", shown(g.check.given.join(", ")));
    }
    let _ = writeln!(
        out,
        "   passed {} of {}; defined failures {}; impl notes {}; crashes {}; timeouts {}; memory breaches {}{}; graded in {:.1} s",
        c.passed,
        g.check.total,
        g.failures(),
        c.notes,
        g.crashes(),
        g.timeouts(),
        g.memory(),
        if c.skipped > 0 {
            format!("; not run after too many timeouts in a row: {}", c.skipped)
        } else {
            String::new()
        },
        g.seconds
    );
    if let Some(reason) = &g.check.fresh_reason {
        let _ = writeln!(out, "   run fresh: {}", shown(reason));
    }
    out.push_str(&g.check.flaky_lines("   "));
    for group in &g.groups {
        let results: Vec<_> = g.results_of(group).collect();
        let first = results[0];
        let _ = writeln!(
            out,
            "   {:<7} {} [{}]: {} case{}, e.g. {}{}",
            group.kind.label(group.class),
            group.rule,
            group.class.name(),
            results.len(),
            if results.len() == 1 { "" } else { "s" },
            first.case.name,
            if first.case.rule == group.rule {
                String::new()
            } else {
                format!(" (case of {})", first.case.rule)
            }
        );
        match &first.outcome {
            Outcome::Crash { .. } | Outcome::MemoryExceeded { .. } => {
                let _ = writeln!(
                    out,
                    "           {}",
                    describe(first.case.expect, &first.outcome)
                );
            }
            _ => {}
        }
        let _ = writeln!(
            out,
            "           input: \"{}\" (expected {}, {})",
            clip(&first.case.bytes),
            first.case.expect,
            first.outcome.answer()
        );
        if let Some(s) = &group.shrunk {
            let _ = writeln!(
                out,
                "           shrunk: \"{}\" (expected {}, {})",
                clip(&s.bytes),
                s.expect,
                s.outcome.answer()
            );
        }
    }
    if g.check.unlisted > 0 {
        let _ = writeln!(
            out,
            "   ... and {} more failures, counted but not grouped",
            g.check.unlisted
        );
    }
    if g.groups.iter().any(|gr| gr.kind == Kind::Skipped) {
        let _ = writeln!(
            out,
            "   (cases not run: the candidate had timed out on every case for a while)"
        );
    }
    let failed_args: Vec<_> = g.check.args.iter().filter(|a| !a.passed()).collect();
    if failed_args.is_empty() {
        let _ = writeln!(out, "   command line: {0} of {0} ok", g.check.args.len());
    } else {
        let _ = writeln!(
            out,
            "   command line: {} of {} ok",
            g.check.args.len() - failed_args.len(),
            g.check.args.len()
        );
        for a in failed_args {
            let _ = write!(out, " {}", a.line());
        }
    }
    let codes: Vec<String> = g
        .check
        .per_code
        .iter()
        .enumerate()
        .filter(|(_, (cases, _))| *cases > 0)
        .map(|(code, (cases, passed))| format!("{code}: {passed}/{cases}"))
        .collect();
    let _ = writeln!(out, "   per expected code: {}", codes.join(", "));
    if let (Some(rows), Some(workloads)) = (&g.perf, workloads) {
        out.push_str(&speed_table(rows, workloads));
    }
    out
}

/// The speed table of one candidate.
pub fn speed_table(rows: &[SpeedRow], workloads: &[SpeedWorkload]) -> String {
    let mut out = String::from(
        "   speed      code  result       time   reference  ratio   peak MB  reference  ratio\n",
    );
    for row in rows {
        let w = &workloads[row.workload];
        let expected: String = w.expect.first().map_or("-".into(), |c| {
            if w.expect.len() > 1 {
                "*".into()
            } else {
                c.to_string()
            }
        });
        let result = match &row.candidate.verdict {
            Mark::Wrong { expected, got } => format!("{expected}->{got}"),
            v => v.name().to_string(),
        };
        let mb = |p: Option<u64>| p.map_or("-".into(), |p| format!("{:.1}", p as f64 / 1048576.0));
        let ratio = |r: Option<f64>| r.map_or("-".into(), |r| format!("{r:.2}x"));
        let _ = writeln!(
            out,
            "   {:<10} {:>4}  {:<8} {:>9.3}s {:>10.3}s {:>6} {:>9} {:>10} {:>6}",
            w.name,
            expected,
            result,
            row.candidate.time.as_secs_f64(),
            row.reference.time.as_secs_f64(),
            ratio(row.time_ratio()),
            mb(row.candidate.peak),
            mb(row.reference.peak),
            ratio(row.memory_ratio()),
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
