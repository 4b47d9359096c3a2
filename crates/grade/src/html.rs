//! The HTML report of `cz grade` (`--html FILE`): one self-contained page
//! (no script, no network, no other file) with the leaderboard, the speed
//! chart, each candidate's failure groups with every failing case (input,
//! expected and actual code, the board drawn by [`render`]), the rule ids
//! linked to their clauses' text (embedded from spec/), and its speed table;
//! a rendering of the report's [`Facts`].
//!
//! [`render`]: connectz_explain::render

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::facts::{AreaMark, CandidateFacts, Facts};
use crate::markup;
use connectz_check::Area;

mod board;
mod candidate;
mod clauses;
mod speed;

/// The report as one HTML page.
pub fn report(facts: &Facts) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<header><h1>ConnectZ grade</h1><p>{}.</p><p class=\"{}\">Isolation: {}</p><p class=\"{}\">{}</p></header>",
        markup(&facts.summary),
        if facts.isolation.isolated {
            "isolation"
        } else {
            "isolation verdict bad"
        },
        markup(&facts.isolation.description),
        if facts.all_passed {
            "verdict ok"
        } else {
            "verdict bad"
        },
        if !facts.complete {
            "The grade is incomplete: not every candidate was graded."
        } else if facts.all_passed {
            "Every candidate passed every defined case."
        } else {
            "Some candidates failed defined cases."
        }
    );
    body.push_str(&leaderboard(facts));
    if let Some(workloads) = &facts.workloads {
        body.push_str(&speed::section(facts, workloads));
    }
    let mut cited = BTreeSet::new();
    for c in &facts.candidates {
        body.push_str(&candidate::section(
            c,
            facts.workloads.as_deref(),
            &mut cited,
        ));
    }
    body.push_str(&clauses::section(&cited));
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ConnectZ grade: {} candidates</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        facts.candidates.len()
    )
}

const STYLE: &str = r#"
:root { color-scheme: light dark; --bg: #ffffff; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa; --good: #0072b2; --bad: #d55e00; --note: #9a6700; --bar: #0072b2; --bar-bad: #d55e00; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --ink: #e6edf3; --muted: #9aa5b1; --line: #30363d; --panel: #161b22; --good: #56b4e9; --bad: #ff8a50; --note: #e3b341; --bar: #56b4e9; --bar-bad: #ff8a50; } }
body { background: var(--bg); color: var(--ink); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1.5rem; max-width: 76rem; }
h1 { margin: 0 0 .3rem; font-size: 1.6rem; }
h2 { margin: 2rem 0 .5rem; font-size: 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h3 { margin: 1.2rem 0 .4rem; font-size: 1.05rem; }
a { color: var(--good); }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .88em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .4rem .6rem; margin: .3rem 0; white-space: pre-wrap; word-break: break-all; max-height: 12rem; overflow: auto; }
table { border-collapse: collapse; margin: .4rem 0 1rem; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .55rem; text-align: right; vertical-align: top; }
th { font-weight: 600; color: var(--muted); }
td.name, th.name, td.left, th.left { text-align: left; }
.scroll { overflow-x: auto; }
.ok { color: var(--good); }
.bad { color: var(--bad); font-weight: 600; }
.note { color: var(--note); }
.muted { color: var(--muted); }
.verdict.ok::before { content: "✓ "; }
.verdict.bad::before { content: "✗ "; }
.verdict { font-weight: 600; }
.verdict.ok { color: var(--good); }
.verdict.bad { color: var(--bad); }
td.area { white-space: nowrap; }
.area.full { color: var(--good); }
.area.part { color: var(--bad); font-weight: 600; }
.area.part::after { content: " ✗"; }
.area.noted { color: var(--note); }
.area.noted::after { content: " *"; }
section.candidate { border-top: 3px solid var(--line); margin-top: 2rem; }
details.group { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .3rem .7rem; background: var(--panel); }
details.group > summary { cursor: pointer; font-weight: 600; }
.label { display: inline-block; min-width: 4.6rem; font-family: monospace; }
.label.FAIL, .label.CRASH, .label.TIMEOUT, .label.MEMORY, .label.SKIPPED { color: var(--bad); }
.label.NOTE { color: var(--note); }
.badge { display: inline-block; margin-left: .4rem; padding: 0 .35rem; border: 1px solid var(--bad); border-radius: 4px; color: var(--bad); font-size: .8em; font-weight: 600; }
.case { display: flex; flex-wrap: wrap; gap: .8rem; align-items: flex-start; border-top: 1px dashed var(--line); padding: .5rem 0; }
.case .words { flex: 1 1 22rem; min-width: 16rem; }
img.board { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; display: block; margin: .3rem 0; }
table.cases { width: 100%; }
table.cases td { font-size: .92em; }
table.cases code { word-break: break-all; }
details.board > summary { cursor: pointer; color: var(--good); font-size: .85em; }
td.name { white-space: nowrap; }
.clause { border-left: 3px solid var(--line); padding-left: .8rem; margin: 1rem 0; }
.clause p { margin: .3rem 0; }
svg.chart text { fill: var(--ink); font: 12px system-ui, sans-serif; }
svg.chart .muted { fill: var(--muted); }
svg.chart .bar { fill: var(--bar); }
svg.chart .bar.failed { fill: var(--bar-bad); }
svg.chart .axis { stroke: var(--line); }
"#;

/// An id for a candidate's section.
fn slug(rank: usize) -> String {
    format!("candidate-{rank}")
}

/// The anchor of a clause.
fn clause_anchor(rule: &str) -> String {
    format!(
        "clause-{}",
        rule.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

/// A link to the text of the clause `rule`, which is then `cited`.
fn rule_link(rule: &str, cited: &mut BTreeSet<String>) -> String {
    cited.insert(rule.to_string());
    format!(
        "<a class=\"mono\" href=\"#{}\">{}</a>",
        clause_anchor(rule),
        markup(rule)
    )
}

fn leaderboard(facts: &Facts) -> String {
    let mut out = String::from("<section id=\"leaderboard\"><h2>Leaderboard</h2>\n");
    let _ = write!(
        out,
        "<p class=\"muted\">Ordered by defined failures, then crashes, timeouts and memory breaches, then impl notes (fewer first), then speed ({}). Each area shows cases passed of cases run; ✗ marks a failure, * only differences on impl rulings (notes).</p>\n<div class=\"scroll\"><table class=\"leaderboard\">\n<thead><tr><th>#</th><th class=\"name\">candidate</th><th>defined failures</th><th>crashes</th><th>timeouts</th><th>memory</th><th>impl notes</th><th>speed</th>",
        if facts.timed() {
            "the geometric mean of its time ratios to the reference"
        } else {
            "the median time per case"
        }
    );
    for area in Area::ALL {
        let _ = write!(out, "<th>{}</th>", area.name());
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for c in &facts.candidates {
        out.push_str(&leaderboard_row(c));
    }
    out.push_str("</tbody></table></div></section>\n");
    out
}

/// A candidate's row of the leaderboard.
fn leaderboard_row(c: &CandidateFacts) -> String {
    let cell = |n: usize| {
        if n == 0 {
            "<td class=\"ok\">0</td>".to_string()
        } else {
            format!("<td class=\"bad\">{n}</td>")
        }
    };
    let mut out = format!(
        "<tr data-candidate=\"{}\"><td>{}</td><td class=\"name\"><a href=\"#{}\">{}</a>{}</td>{}{}{}{}<td class=\"{}\">{}</td><td>{}</td>",
        markup(c.name),
        c.rank,
        slug(c.rank),
        markup(c.name),
        badge(c),
        cell(c.defined_failures),
        cell(c.crashes),
        cell(c.timeouts),
        cell(c.memory_breaches),
        if c.impl_notes == 0 { "ok" } else { "note" },
        c.impl_notes,
        markup(&c.speed)
    );
    for score in &c.areas {
        let name = score.area.name();
        let (kind, title) = match score.mark() {
            AreaMark::Full => ("full", format!("{name}: every case passed")),
            AreaMark::Noted => (
                "noted",
                format!(
                    "{name}: {} differences on impl rulings, no failure",
                    score.impl_notes
                ),
            ),
            AreaMark::Failed => ("part", format!("{name}: {} failures", score.failures())),
        };
        let _ = write!(
            out,
            "<td class=\"area {kind}\" title=\"{}\">{}/{}</td>",
            markup(&title),
            score.passed,
            score.total
        );
    }
    out.push_str("</tr>\n");
    out
}

/// A nondeterministic candidate's badge in the leaderboard and by its
/// heading; nothing for another.
fn badge(c: &CandidateFacts) -> &'static str {
    if c.nondeterministic {
        " <span class=\"badge nondeterministic\" title=\"some failing cases answered differently when run again\">nondeterministic</span>"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests;
