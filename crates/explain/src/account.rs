//! Human and machine readable accounts of a verdict: why this code, on which
//! line, under which rule, and the board as it stood. Used by `cz explain`
//! and `cz render`.

use std::fmt::Write as _;

use connectz::{Finding, Report};

use crate::draw::{Style, draw};
use crate::json::json_string;

/// The first fault in file order, when it is not the finding that decides.
pub fn first_other_fault(report: &Report) -> Option<&Finding> {
    let first = report.faults.iter().min_by_key(|f| f.line().unwrap_or(0))?;
    (first != &report.verdict).then_some(first)
}

/// Why this code: the deciding finding, and how precedence chose it.
pub fn reason(report: &Report) -> String {
    let v = &report.verdict;
    let mut out = format!("{v} [{}]", v.rule());
    if let Some(first) = first_other_fault(report) {
        let _ = write!(
            out,
            "\nthe first fault in the file is {first} (code {}, [{}]), but code {} outranks it: \
             9 > 8 > 7 > 6 > 5 > 4 > result [code.precedence]",
            first.code(),
            first.rule(),
            v.code()
        );
    }
    out
}

/// The full text of `cz explain`.
pub fn text(report: &Report, style: Style) -> String {
    let code = report.code();
    let mut out = format!("code {}: {}\n", code, code.name());
    let _ = writeln!(out, "rule: {}", report.verdict.rule());
    if let Some(line) = report.verdict.line() {
        // Line 1 is the header; line n > 1 holds move n - 1.
        let _ = match line {
            1 => writeln!(out, "line: 1 (the header)"),
            n => writeln!(out, "line: {n} (move {})", n - 1),
        };
    }
    let _ = writeln!(out, "why:  {}", reason(report).replace('\n', "\n      "));
    if let Some(game) = &report.game {
        let (x, y, z) = game.frame();
        let _ = writeln!(
            out,
            "frame: {x} columns, {y} rows, runs of {z}; {} counters placed",
            game.placed()
        );
        out.push('\n');
        out.push_str(&draw(game, style));
    } else if let Some(h) = &report.header {
        let _ = writeln!(
            out,
            "frame: {} columns, {} rows, runs of {} (not played)",
            h.x, h.y, h.z
        );
    }
    out
}

fn finding_json(f: &Finding) -> String {
    format!(
        "{{\"code\":{},\"rule\":{},\"line\":{},\"move\":{},\"text\":{}}}",
        f.code(),
        json_string(f.rule()),
        f.line().map_or("null".into(), |l| l.to_string()),
        f.line()
            .filter(|&l| l > 1)
            .map_or("null".into(), |l| (l - 1).to_string()),
        json_string(&f.to_string())
    )
}

/// The same account as [`text`], as one JSON object.
pub fn json(report: &Report, path: &str) -> String {
    let code = report.code();
    let mut out = format!(
        "{{\"path\":{},\"code\":{},\"name\":{},\"rule\":{},\"line\":{},\"reason\":{},\"verdict\":{},\"faults\":[{}]",
        json_string(path),
        code,
        json_string(code.name()),
        json_string(report.verdict.rule()),
        report
            .verdict
            .line()
            .map_or("null".into(), |l| l.to_string()),
        json_string(&reason(report)),
        finding_json(&report.verdict),
        report
            .faults
            .iter()
            .map(finding_json)
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(h) = &report.header {
        let _ = write!(
            out,
            ",\"frame\":{{\"x\":{},\"y\":{},\"z\":{}}}",
            json_string(&h.x.to_string()),
            json_string(&h.y.to_string()),
            json_string(&h.z.to_string())
        );
    }
    if let Some(game) = &report.game {
        let _ = write!(out, ",\"placed\":{}", game.placed());
        let rows: Vec<String> = draw(game, Style::default())
            .lines()
            .map(json_string)
            .collect();
        let _ = write!(out, ",\"board\":[{}]", rows.join(","));
        if let Some(l) = game.winning_run() {
            let _ = write!(
                out,
                ",\"winning_line\":{{\"player\":{},\"column\":{},\"row\":{},\"direction\":{},\"length\":{}}}",
                l.player.number(),
                json_string(&l.column.to_string()),
                l.row,
                json_string(&l.direction.to_string()),
                l.length
            );
        }
    }
    out.push('}');
    out
}

/// A judge that keeps every counter to the end, for pictures of the board
/// (a plain judge keeps only heights once a run is complete).
pub fn keeping_board() -> connectz::Judge {
    connectz::Judge::keeping(connectz::Keep {
        board: true,
        ..connectz::Keep::default()
    })
}

/// The board after every counter placed: the file fed a line at a time, each
/// placement headed by its line, move number and column (`cz explain --trace`).
pub fn trace(bytes: &[u8], style: Style) -> String {
    let mut out = String::new();
    let mut judge = keeping_board();
    let mut placed = 0;
    for (n, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        judge.feed(line);
        let Some(game) = judge.game() else {
            continue;
        };
        if game.placed() != placed {
            placed = game.placed();
            let text = String::from_utf8_lossy(line);
            let _ = writeln!(
                out,
                "line {}: move {} (column {})",
                n + 1,
                placed,
                text.trim_end()
            );
            out.push_str(&draw(game, style));
            out.push('\n');
        }
    }
    out
}

/// Why no run can ever be completed on the frame of `header` (code 7), in
/// the terms of r[rule.winnable]'s proof.
pub fn unwinnable_why(header: &connectz::Header) -> String {
    let (x, y, z) = (&header.x, &header.y, &header.z);
    let one = connectz::Nat::from(1);
    if *y == 1 && x >= z {
        format!(
            "one row: when a player completes {z} in a row the other has placed at least {} counters on it, so the row needs {} columns and has {x}",
            z.checked_sub_u64(1).unwrap_or(connectz::Nat::ZERO),
            z.add(z).checked_sub(&one).unwrap_or(connectz::Nat::ZERO)
        )
    } else if *x == 1 && y >= z {
        format!("one column: its counters alternate between the players, so no {z} in a row")
    } else {
        format!("no run of {z} fits: the frame is {x} wide and {y} tall")
    }
}
