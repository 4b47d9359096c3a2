//! The HTML report of `cz grade` (`--html FILE`): one self-contained page
//! (no script, no network, no other file) with the leaderboard, the speed
//! chart, each candidate's failure groups with every failing case (input,
//! expected and actual code, the board drawn by [`render`]), the rule ids
//! linked to their clauses' text (embedded from spec/), and its speed table.
//!
//! [`render`]: connectz_explain::render

use std::collections::BTreeSet;
use std::fmt::Write as _;

use connectz::judge_bytes_with;
use connectz_explain::account::keeping_board;
use connectz_explain::render::{Excerpt, Picture, draw};
use connectz_spec::clause;

use super::{ClassReport, Graded, Group, Kind, areas, markup, text};
use connectz_check::{Area, CaseResult, Outcome, describe, shown};

mod speed;
use speed::{speed_section, speed_table};

/// Cases listed per group; the rest are counted.
const LISTED: usize = 100;
/// Cases per group with their boards (behind a click).
const DRAWN: usize = 20;

/// The report as one HTML page.
pub fn report(class: &ClassReport) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<header><h1>ConnectZ grade</h1><p>{}.</p><p class=\"{}\">Isolation: {}</p><p class=\"{}\">{}</p></header>",
        markup(&class.summary()),
        if class.isolation.isolated() {
            "isolation"
        } else {
            "isolation verdict bad"
        },
        markup(&class.isolation.describe()),
        if class.all_passed() {
            "verdict ok"
        } else {
            "verdict bad"
        },
        if class.incomplete() {
            "The grade is incomplete: not every candidate was graded."
        } else if class.all_passed() {
            "Every candidate passed every defined case."
        } else {
            "Some candidates failed defined cases."
        }
    );
    body.push_str(&leaderboard(class));
    if let Some(workloads) = &class.workloads {
        body.push_str(&speed_section(class, workloads));
    }
    let mut cited = BTreeSet::new();
    for (rank, g) in class.graded.iter().enumerate() {
        body.push_str(&candidate(rank + 1, g, class, &mut cited));
    }
    body.push_str(&clause_section(&cited));
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ConnectZ grade: {} candidates</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        class.graded.len()
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

fn rule_link(rule: &str, cited: &mut BTreeSet<String>) -> String {
    cited.insert(rule.to_string());
    format!(
        "<a class=\"mono\" href=\"#{}\">{}</a>",
        clause_anchor(rule),
        markup(rule)
    )
}

fn leaderboard(class: &ClassReport) -> String {
    let perf = class.workloads.is_some();
    let mut out = String::from("<section id=\"leaderboard\"><h2>Leaderboard</h2>\n");
    let _ = write!(
        out,
        "<p class=\"muted\">Ordered by defined failures, then crashes, timeouts and memory breaches, then impl notes (fewer first), then speed ({}). Each area shows cases passed of cases run; ✗ marks a failure, * only differences on impl rulings (notes).</p>\n<div class=\"scroll\"><table class=\"leaderboard\">\n<thead><tr><th>#</th><th class=\"name\">candidate</th><th>defined failures</th><th>crashes</th><th>timeouts</th><th>memory</th><th>impl notes</th><th>speed</th>",
        if perf {
            "the geometric mean of its time ratios to the reference"
        } else {
            "the median time per case"
        }
    );
    for area in Area::ALL {
        let _ = write!(out, "<th>{}</th>", area.name());
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, g) in class.graded.iter().enumerate() {
        let rank = i + 1;
        let cell = |n: usize| {
            if n == 0 {
                "<td class=\"ok\">0</td>".to_string()
            } else {
                format!("<td class=\"bad\">{n}</td>")
            }
        };
        let _ = write!(
            out,
            "<tr data-candidate=\"{}\"><td>{rank}</td><td class=\"name\"><a href=\"#{}\">{}</a>{}</td>{}{}{}{}<td class=\"{}\">{}</td><td>{}</td>",
            markup(&g.entry.name),
            slug(rank),
            markup(&g.entry.name),
            badge(g),
            cell(g.failures()),
            cell(g.crashes()),
            cell(g.timeouts()),
            cell(g.memory()),
            if g.notes() == 0 { "ok" } else { "note" },
            g.notes(),
            markup(&text::speed(g))
        );
        for (area, score) in areas(&g.check) {
            let (kind, title) = if score.passed == score.cases {
                ("full", format!("{}: every case passed", area.name()))
            } else if score.clean() {
                (
                    "noted",
                    format!(
                        "{}: {} differences on impl rulings, no failure",
                        area.name(),
                        score.notes
                    ),
                )
            } else {
                (
                    "part",
                    format!(
                        "{}: {} failures",
                        area.name(),
                        score.cases - score.passed - score.notes
                    ),
                )
            };
            let _ = write!(
                out,
                "<td class=\"area {kind}\" title=\"{}\">{}/{}</td>",
                markup(&title),
                score.passed,
                score.cases
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div></section>\n");
    out
}

/// A nondeterministic candidate's badge in the leaderboard; nothing for
/// another.
fn badge(g: &Graded) -> &'static str {
    if g.check.nondeterministic() {
        " <span class=\"badge nondeterministic\" title=\"some failing cases answered differently when run again\">nondeterministic</span>"
    } else {
        ""
    }
}

fn candidate(rank: usize, g: &Graded, class: &ClassReport, cited: &mut BTreeSet<String>) -> String {
    let c = &g.check.counts;
    let mut out = format!(
        "<section class=\"candidate\" id=\"{}\" data-candidate=\"{}\">\n<h2>{rank}. {}{}</h2>\n<p><code>{}</code>{}</p>\n",
        slug(rank),
        markup(&g.entry.name),
        markup(&g.entry.name),
        badge(g),
        markup(&g.check.command),
        g.entry
            .candidate
            .dir
            .as_ref()
            .map_or(String::new(), |d| format!(
                " <span class=\"muted\">in {}</span>",
                markup(&d.display().to_string())
            ))
    );
    if !g.check.given.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"muted\">given {}</p>",
            markup(&g.check.given.join(", "))
        );
    }
    let _ = writeln!(
        out,
        "<p>Passed {} of {} cases. Defined failures <b class=\"{}\">{}</b>, impl notes {}, crashes {}, timeouts {}, memory breaches {}{}. Graded in {:.1} s.</p>",
        c.passed,
        g.check.total,
        if g.failures() == 0 { "ok" } else { "bad" },
        g.failures(),
        c.notes,
        g.crashes(),
        g.timeouts(),
        g.memory(),
        if c.skipped > 0 {
            format!(", not run after too many timeouts {}", c.skipped)
        } else {
            String::new()
        },
        g.seconds
    );
    if let Some(reason) = &g.check.fresh_reason {
        let _ = writeln!(
            out,
            "<p class=\"note fresh\">Run fresh: {}.</p>",
            markup(reason)
        );
    }
    if g.check.nondeterministic() {
        let _ = writeln!(
            out,
            "<p class=\"bad nondeterministic\">{}</p>\n<ul class=\"flaky\">",
            markup(&g.check.nondeterministic_heading())
        );
        for f in &g.check.flaky {
            let _ = writeln!(
                out,
                "<li><span class=\"mono\">{}</span>: {}</li>",
                markup(&f.case),
                markup(&f.describe())
            );
        }
        out.push_str("</ul>\n");
    }
    if g.groups.is_empty() {
        out.push_str("<p class=\"ok\">No failures.</p>\n");
    }
    for group in &g.groups {
        out.push_str(&group_html(g, group, cited));
    }
    if g.check.unlisted > 0 {
        let _ = writeln!(
            out,
            "<p class=\"muted\">… and {} more failures, counted but not kept.</p>",
            g.check.unlisted
        );
    }
    // The command line.
    out.push_str("<h3>Command line</h3>\n<table><thead><tr><th class=\"left\">check</th><th class=\"left\">expected</th><th class=\"left\">got</th><th>exit status</th><th></th></tr></thead><tbody>\n");
    for a in &g.check.args {
        let _ = writeln!(
            out,
            "<tr><td class=\"left\">{}</td><td class=\"left mono\">{}</td><td class=\"left mono\">{}</td><td>{}</td><td class=\"{}\">{}</td></tr>",
            markup(&a.what),
            markup(&format!("\"{}\"", shown(&a.expected))),
            markup(&format!("\"{}\"", shown(&a.got))),
            a.status.map_or("none".into(), |s| s.to_string()),
            if a.passed() { "ok" } else { "bad" },
            if a.passed() { "ok" } else { "FAIL" }
        );
    }
    out.push_str("</tbody></table>\n");
    // Per expected code.
    out.push_str("<h3>Score per expected code</h3>\n<table><thead><tr>");
    let codes: Vec<(usize, usize, usize)> = g
        .check
        .per_code
        .iter()
        .enumerate()
        .filter(|(_, (cases, _))| *cases > 0)
        .map(|(code, &(cases, passed))| (code, cases, passed))
        .collect();
    for (code, _, _) in &codes {
        let _ = write!(out, "<th>{code} {}</th>", super::code_name(*code as u8));
    }
    out.push_str("</tr></thead><tbody><tr>");
    for (_, cases, passed) in &codes {
        let _ = write!(
            out,
            "<td class=\"{}\">{passed}/{cases}</td>",
            if passed == cases { "ok" } else { "bad" }
        );
    }
    out.push_str("</tr></tbody></table>\n");
    if let (Some(rows), Some(workloads)) = (&g.perf, &class.workloads) {
        out.push_str(&speed_table(rows, workloads));
    }
    out.push_str("</section>\n");
    out
}

fn group_html(g: &Graded, group: &Group, cited: &mut BTreeSet<String>) -> String {
    let results: Vec<&CaseResult> = g.results_of(group).collect();
    let label = group.kind.label(group.class);
    let mut out = format!(
        "<details class=\"group\" data-kind=\"{}\"{}>\n<summary><span class=\"label {label}\">{label}</span> {} <span class=\"muted\">[{}]</span>: {} case{}</summary>\n",
        group.kind.name(),
        if group.counts() { " open" } else { "" },
        rule_link(&group.rule, cited),
        group.class.name(),
        results.len(),
        if results.len() == 1 { "" } else { "s" }
    );
    if group.kind == Kind::Note {
        out.push_str("<p class=\"note\">An impl ruling: the brief says the checker prints its code and gives no exit status, so the right code with another status is a note, not a failure.</p>\n");
    } else if !group.counts() {
        out.push_str("<p class=\"note\">An impl ruling: the brief leaves this open, so a difference is a note, not a failure.</p>\n");
    }
    // The lead: the shortest failing input, shrunk when it could be.
    let first = results[0];
    let (lead_bytes, lead_words) = match &group.shrunk {
        Some(s) => (
            &s.bytes[..],
            format!(
                "<b>Shortest failing input</b>, shrunk from {}: expected {} ({}), {}.",
                markup(&first.case.name),
                s.expect,
                markup(s.expect.name()),
                markup(&s.outcome.answer())
            ),
        ),
        None => (
            &first.case.bytes[..],
            format!(
                "<b>Shortest failing input</b>, {}: {}.",
                markup(&first.case.name),
                markup(&describe(first.case.expect, &first.outcome))
            ),
        ),
    };
    let _ = writeln!(
        out,
        "<div class=\"case lead\"><div class=\"words\"><p>{lead_words}</p><pre>{}</pre></div>{}</div>",
        markup(&text::clip(lead_bytes)),
        board(lead_bytes, "shortest failing input")
    );
    // Every case: a row each, its board behind a click.
    out.push_str("<table class=\"cases\"><thead><tr><th class=\"left\">case</th><th class=\"left\">expected</th><th class=\"left\">answer</th><th class=\"left\">input</th></tr></thead><tbody>\n");
    for (i, r) in results.iter().take(LISTED).enumerate() {
        let picture = if i < DRAWN {
            format!(
                "<details class=\"board\"><summary>board</summary>{}</details>",
                board(&r.case.bytes, &r.case.name)
            )
        } else {
            String::new()
        };
        let answer = match &r.outcome {
            Outcome::Crash {
                stderr,
                stdout,
                status,
            } => format!(
                "crashed, exit status {}<br><span class=\"muted\">stdout <code>{}</code><br>stderr <code>{}</code></span>",
                status.map_or("none".into(), |s| s.to_string()),
                markup(&format!("\"{}\"", shown(stdout))),
                markup(&format!("\"{}\"", shown(stderr)))
            ),
            other => markup(&other.answer()),
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"left mono\">{}<br><span class=\"muted\">case of {}</span></td><td class=\"left\">{} ({})</td><td class=\"left\">{answer}</td><td class=\"left\"><code>{}</code>{picture}</td></tr>",
            markup(&r.case.name),
            rule_link(&r.case.rule, cited),
            r.case.expect,
            markup(r.case.expect.name()),
            markup(&text::clip(&r.case.bytes)),
        );
    }
    out.push_str("</tbody></table>\n");
    if results.len() > LISTED {
        let _ = writeln!(
            out,
            "<p class=\"muted\">… and {} more cases in this group.</p>",
            results.len() - LISTED
        );
    }
    out.push_str("</details>\n");
    out
}

/// The board of an input, as an image of the SVG `cz render` draws.
fn board(bytes: &[u8], title: &str) -> String {
    let report = judge_bytes_with(bytes, keeping_board());
    let excerpt = Excerpt::of(&report, bytes);
    let svg = draw(&Picture {
        report: &report,
        title,
        excerpt: excerpt.as_ref(),
    });
    let (width, height) = svg_size(&svg);
    format!(
        "<img class=\"board\" width=\"{width}\" height=\"{height}\" alt=\"{}\" src=\"data:image/svg+xml;base64,{}\">",
        markup(&format!("the board of {title}: code {}", report.code())),
        base64(svg.as_bytes())
    )
}

/// The width and height attributes of an SVG's root.
fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |name: &str| -> u32 {
        svg.split_once(&format!(" {name}=\""))
            .and_then(|(_, rest)| rest.split('"').next())
            .and_then(|v| v.parse::<f64>().ok())
            .map_or(0, |v| v.round() as u32)
    };
    (attr("width"), attr("height"))
}

/// Standard base64, padded.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The text of every clause a report links to.
fn clause_section(cited: &BTreeSet<String>) -> String {
    let mut out = String::from(
        "<section id=\"clauses\"><h2>Spec clauses cited</h2>\n<p class=\"muted\">From spec/ of the reference, as it was built.</p>\n",
    );
    for id in cited {
        let _ = write!(
            out,
            "<div class=\"clause\" id=\"{}\"><h3 class=\"mono\">r[{}]</h3>",
            clause_anchor(id),
            markup(id)
        );
        match clause(id) {
            Some(c) => {
                let _ = write!(
                    out,
                    "<p class=\"muted\">spec/{}, class {}</p>{}",
                    markup(&c.file),
                    c.class.name(),
                    markdown(&c.text)
                );
            }
            None => out.push_str("<p class=\"muted\">(not a clause of the spec)</p>"),
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
    out
}

/// Enough Markdown for the spec's prose: paragraphs, `- ` lists, `code`.
fn markdown(text: &str) -> String {
    let mut out = String::new();
    for block in text.split("\n\n").map(str::trim).filter(|b| !b.is_empty()) {
        let lines: Vec<&str> = block.lines().collect();
        if lines
            .iter()
            .all(|l| l.starts_with("- ") || l.starts_with("  "))
        {
            out.push_str("<ul>");
            let mut item = String::new();
            for line in lines {
                if let Some(rest) = line.strip_prefix("- ") {
                    if !item.is_empty() {
                        let _ = write!(out, "<li>{}</li>", inline(&item));
                    }
                    item = rest.to_string();
                } else {
                    item.push(' ');
                    item.push_str(line.trim());
                }
            }
            if !item.is_empty() {
                let _ = write!(out, "<li>{}</li>", inline(&item));
            }
            out.push_str("</ul>");
        } else {
            let _ = write!(out, "<p>{}</p>", inline(&lines.join(" ")));
        }
    }
    out
}

/// Inline code spans; everything else escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", markup(part));
        } else {
            out.push_str(&markup(part));
        }
    }
    out
}

#[cfg(test)]
mod tests;
