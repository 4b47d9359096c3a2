//! The report's speed section: each candidate's time and memory on the
//! workloads as ratios to the reference's, a table and a chart.

use std::fmt::Write as _;

use crate::facts::{Facts, SpeedFacts, WorkloadFacts};
use crate::markup;
use crate::perf::Mark;

/// A candidate's speed table: each workload's result, its time and peak
/// memory beside the reference's.
pub(super) fn table(rows: &[SpeedFacts], workloads: &[WorkloadFacts]) -> String {
    let mut out = String::from(
        "<h3>Speed</h3>\n<table><thead><tr><th class=\"left\">workload</th><th class=\"left\">result</th><th>time</th><th>reference</th><th>ratio</th><th>peak MB</th><th>reference</th><th>ratio</th></tr></thead><tbody>\n",
    );
    for row in rows {
        let w = &workloads[row.index];
        let result = match &row.result {
            Mark::Ok => "<span class=\"ok\">ok</span>".to_string(),
            Mark::Wrong { expected, got } => {
                format!("<span class=\"bad\">expected {expected}, got {got}</span>")
            }
            v => format!("<span class=\"bad\">{}</span>", v.name()),
        };
        let mb = |p: Option<f64>| p.map_or("–".into(), |p| format!("{p:.1}"));
        let ratio = |r: Option<f64>| r.map_or("–".into(), |r| format!("{r:.2}×"));
        let _ = writeln!(
            out,
            "<tr><td class=\"left\" title=\"{}\">{}</td><td class=\"left\">{result}</td><td>{:.3} s</td><td>{:.3} s</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            markup(w.about),
            w.name,
            row.time_s,
            row.reference_time_s,
            ratio(row.time_ratio),
            mb(row.peak_mb),
            mb(row.reference_peak_mb),
            ratio(row.memory_ratio)
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The speed section: what each workload is, and a bar chart of every
/// candidate's time ratio to the reference, on a log scale.
pub(super) fn section(facts: &Facts, workloads: &[WorkloadFacts]) -> String {
    let mut out = String::from(
        "<section id=\"speed\"><h2>Speed</h2>\n<p class=\"muted\">Each workload is run by the candidate and by the reference in turn, a few times; the bars are the candidate's median time over the reference's, on a log scale. A workload not finished right is drawn in orange at the time limit.</p>\n<ul>\n",
    );
    for w in workloads {
        let _ = writeln!(
            out,
            "<li><b>{}</b>: {} ({} bytes; code {})</li>",
            w.name,
            markup(w.about),
            w.bytes,
            if w.expected.len() == 1 {
                w.expected[0].to_string()
            } else {
                "of each file".into()
            }
        );
    }
    out.push_str("</ul>\n");
    out.push_str(&chart(facts, workloads));
    out.push_str("</section>\n");
    out
}

/// A horizontal bar chart, one group of bars per workload.
fn chart(facts: &Facts, workloads: &[WorkloadFacts]) -> String {
    let name_width = facts
        .candidates
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 40) as f64
        * 7.2
        + 12.0;
    let (bar_h, gap, head) = (16.0, 4.0, 22.0);
    let plot_w = 420.0;
    let value_w = 120.0;
    // Ratios: the largest finished one, or the limit over the reference.
    let ratio_of = |row: &SpeedFacts| -> (f64, bool) {
        match row.time_ratio {
            Some(r) => (r, true),
            None => (
                facts.limits.timeout_s / row.reference_time_s.max(1e-3),
                false,
            ),
        }
    };
    let mut top = 1.0f64;
    for c in &facts.candidates {
        for row in c.perf.iter().flatten() {
            top = top.max(ratio_of(row).0);
        }
    }
    let decades = top.log10().ceil().max(1.0);
    let x_of = |r: f64| name_width + (r.max(0.1).log10() + 1.0) / (decades + 1.0) * plot_w;
    let mut body = String::new();
    let mut y: f64 = 8.0;
    for (wi, w) in workloads.iter().enumerate() {
        y += head;
        let _ = writeln!(
            body,
            "<text x=\"0\" y=\"{:.1}\" font-weight=\"600\">{}</text>",
            y - 6.0,
            markup(w.name)
        );
        for c in &facts.candidates {
            let Some(row) = c
                .perf
                .as_ref()
                .and_then(|rows| rows.iter().find(|r| r.index == wi))
            else {
                continue;
            };
            let (ratio, finished) = ratio_of(row);
            let x0 = x_of(0.1);
            let x1 = x_of(ratio).max(x0 + 1.0);
            let label = if finished {
                format!("{ratio:.2}×")
            } else {
                row.result.name().to_string()
            };
            let name: String = c.name.chars().take(40).collect();
            let _ = writeln!(
                body,
                "<text class=\"muted\" x=\"0\" y=\"{:.1}\">{}</text><rect class=\"bar{}\" x=\"{x0:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bar_h}\" rx=\"2\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                y + bar_h - 4.0,
                markup(&name),
                if finished { "" } else { " failed" },
                x1 - x0,
                x1 + 6.0,
                y + bar_h - 4.0,
                markup(&label)
            );
            y += bar_h + gap;
        }
    }
    // The axis: 0.1×, 1×, 10×, ...
    y += 6.0;
    let axis_y = y;
    let mut ticks = String::new();
    let mut k = -1.0;
    while k <= decades {
        let r = 10f64.powf(k);
        let x = x_of(r);
        let label = if r < 1.0 {
            "0.1×".to_string()
        } else {
            format!("{}×", r as u64)
        };
        let _ = writeln!(
            ticks,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"8\" x2=\"{x:.1}\" y2=\"{axis_y:.1}\"/><text class=\"muted\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>",
            axis_y + 14.0
        );
        k += 1.0;
    }
    let width = (name_width + plot_w + value_w).ceil();
    let height = (axis_y + 24.0).ceil();
    format!(
        "<div class=\"scroll\"><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"time ratio to the reference per workload and candidate\">\n{ticks}{body}</svg></div>\n"
    )
}
