//! A candidate's section of the page: its counts, its failure groups with
//! every failing case and its board, its command-line checks, its score per
//! code and its speed.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::board::board;
use super::{badge, rule_link, slug, speed};
use crate::facts::{CandidateFacts, GroupFacts, WorkloadFacts};
use crate::{Kind, code_name, markup, text};
use connectz_check::{Outcome, describe, shown};

/// Cases listed per group; the rest are counted.
const LISTED: usize = 100;
/// Cases per group with their boards (behind a click).
const DRAWN: usize = 20;

/// The section of candidate `c`; the clauses it links to are `cited`.
pub(super) fn section(
    c: &CandidateFacts,
    workloads: Option<&[WorkloadFacts]>,
    cited: &mut BTreeSet<String>,
) -> String {
    let mut out = heading(c);
    if c.groups.is_empty() {
        out.push_str("<p class=\"ok\">No failures.</p>\n");
    }
    for group in &c.groups {
        out.push_str(&group_details(group, cited));
    }
    if c.unlisted > 0 {
        let _ = writeln!(
            out,
            "<p class=\"muted\">… and {} more failures, counted but not kept.</p>",
            c.unlisted
        );
    }
    out.push_str(&command_line(c));
    out.push_str(&per_code(c));
    if let (Some(rows), Some(workloads)) = (&c.perf, workloads) {
        out.push_str(&speed::table(rows, workloads));
    }
    out.push_str("</section>\n");
    out
}

/// The section's opening: the candidate's name, command, folder, what its
/// box was given, its counts, and why its cases ran fresh and which were
/// answered differently when run again, if any were.
fn heading(c: &CandidateFacts) -> String {
    let mut out = format!(
        "<section class=\"candidate\" id=\"{}\" data-candidate=\"{}\">\n<h2>{}. {}{}</h2>\n<p><code>{}</code>{}</p>\n",
        slug(c.rank),
        markup(c.name),
        c.rank,
        markup(c.name),
        badge(c),
        markup(&c.command_text()),
        c.dir.map_or(String::new(), |d| format!(
            " <span class=\"muted\">in {}</span>",
            markup(&d.display().to_string())
        ))
    );
    if !c.given.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"muted\">given {}</p>",
            markup(&c.given.join(", "))
        );
    }
    let _ = writeln!(
        out,
        "<p>Passed {} of {} cases. Defined failures <b class=\"{}\">{}</b>, impl notes {}, crashes {}, timeouts {}, memory breaches {}{}. Graded in {:.1} s.</p>",
        c.passed,
        c.total,
        if c.defined_failures == 0 { "ok" } else { "bad" },
        c.defined_failures,
        c.impl_notes,
        c.crashes,
        c.timeouts,
        c.memory_breaches,
        if c.not_run > 0 {
            format!(", not run after too many timeouts {}", c.not_run)
        } else {
            String::new()
        },
        c.graded_s
    );
    if let Some(reason) = c.fresh_reason {
        let _ = writeln!(
            out,
            "<p class=\"note fresh\">Run fresh: {}.</p>",
            markup(reason)
        );
    }
    if let Some(flaky_heading) = &c.flaky_heading {
        let _ = writeln!(
            out,
            "<p class=\"bad nondeterministic\">{}</p>\n<ul class=\"flaky\">",
            markup(flaky_heading)
        );
        for f in &c.flaky {
            let _ = writeln!(
                out,
                "<li><span class=\"mono\">{}</span>: {}</li>",
                markup(f.case),
                markup(&f.described)
            );
        }
        out.push_str("</ul>\n");
    }
    out
}

/// A failure group, open when it counts: its shortest failing input, then
/// every case, a row each, the first [`DRAWN`] with their boards behind a
/// click.
fn group_details(group: &GroupFacts, cited: &mut BTreeSet<String>) -> String {
    let label = group.label();
    let mut out = format!(
        "<details class=\"group\" data-kind=\"{}\"{}>\n<summary><span class=\"label {label}\">{label}</span> {} <span class=\"muted\">[{}]</span>: {} case{}</summary>\n",
        group.kind.name(),
        if group.counts { " open" } else { "" },
        rule_link(group.rule, cited),
        group.class.name(),
        group.count,
        if group.count == 1 { "" } else { "s" }
    );
    if group.kind == Kind::Note {
        out.push_str("<p class=\"note\">An impl ruling: the brief says the checker prints its code and gives no exit status, so the right code with another status is a note, not a failure.</p>\n");
    } else if !group.counts {
        out.push_str("<p class=\"note\">An impl ruling: the brief leaves this open, so a difference is a note, not a failure.</p>\n");
    }
    out.push_str(&lead(group));
    out.push_str("<table class=\"cases\"><thead><tr><th class=\"left\">case</th><th class=\"left\">expected</th><th class=\"left\">answer</th><th class=\"left\">input</th></tr></thead><tbody>\n");
    for (i, case) in group.cases.iter().take(LISTED).enumerate() {
        let name = case.name.unwrap_or_default();
        let picture = if i < DRAWN {
            format!(
                "<details class=\"board\"><summary>board</summary>{}</details>",
                board(case.input, name)
            )
        } else {
            String::new()
        };
        let answer = match case.outcome {
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
            _ => markup(&case.answer),
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"left mono\">{}<br><span class=\"muted\">case of {}</span></td><td class=\"left\">{} ({})</td><td class=\"left\">{answer}</td><td class=\"left\"><code>{}</code>{picture}</td></tr>",
            markup(name),
            rule_link(case.rule.unwrap_or_default(), cited),
            case.expected,
            markup(case.expected.name()),
            markup(&text::clip(case.input)),
        );
    }
    out.push_str("</tbody></table>\n");
    if group.count > LISTED {
        let _ = writeln!(
            out,
            "<p class=\"muted\">… and {} more cases in this group.</p>",
            group.count - LISTED
        );
    }
    out.push_str("</details>\n");
    out
}

/// The lead of a group: its shortest failing input, shrunk when it could
/// be, and its board.
fn lead(group: &GroupFacts) -> String {
    let first = &group.cases[0];
    let first_name = markup(first.name.unwrap_or_default());
    let (input, words) = match &group.shrunk {
        Some(s) => (
            s.input,
            format!(
                "<b>Shortest failing input</b>, shrunk from {first_name}: expected {} ({}), {}.",
                s.expected,
                markup(s.expected.name()),
                markup(&s.answer)
            ),
        ),
        None => (
            first.input,
            format!(
                "<b>Shortest failing input</b>, {first_name}: {}.",
                markup(&describe(first.expected, first.outcome))
            ),
        ),
    };
    format!(
        "<div class=\"case lead\"><div class=\"words\"><p>{words}</p><pre>{}</pre></div>{}</div>\n",
        markup(&text::clip(input)),
        board(input, "shortest failing input")
    )
}

/// The command-line checks, a row each.
fn command_line(c: &CandidateFacts) -> String {
    let mut out = String::from(
        "<h3>Command line</h3>\n<table><thead><tr><th class=\"left\">check</th><th class=\"left\">expected</th><th class=\"left\">got</th><th>exit status</th><th></th></tr></thead><tbody>\n",
    );
    for a in &c.command_line {
        let _ = writeln!(
            out,
            "<tr><td class=\"left\">{}</td><td class=\"left mono\">{}</td><td class=\"left mono\">{}</td><td>{}</td><td class=\"{}\">{}</td></tr>",
            markup(a.check),
            markup(&format!("\"{}\"", shown(a.expected))),
            markup(&format!("\"{}\"", shown(a.got))),
            a.exit_status.map_or("none".into(), |s| s.to_string()),
            if a.passed { "ok" } else { "bad" },
            if a.passed { "ok" } else { "FAIL" }
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The score per expected code, a column each.
fn per_code(c: &CandidateFacts) -> String {
    let mut out = String::from("<h3>Score per expected code</h3>\n<table><thead><tr>");
    for s in &c.per_code {
        let _ = write!(out, "<th>{} {}</th>", s.code, code_name(s.code));
    }
    out.push_str("</tr></thead><tbody><tr>");
    for s in &c.per_code {
        let _ = write!(
            out,
            "<td class=\"{}\">{}/{}</td>",
            if s.passed == s.total { "ok" } else { "bad" },
            s.passed,
            s.total
        );
    }
    out.push_str("</tr></tbody></table>\n");
    out
}
