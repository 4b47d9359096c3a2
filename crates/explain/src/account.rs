//! Human and machine readable accounts of a verdict: why this code, on which
//! line, under which rule, and the board as it stood. Used by `cz explain`
//! and `cz render`.

use std::fmt::Write as _;

use connectz::{Finding, Rank, Report};
use serde::Serialize;

use crate::draw::{Style, draw};
use crate::json::to_json;

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
        let memory = [v, first].iter().any(|f| f.rank() == Rank::OutOfMemory);
        let _ = write!(
            out,
            "\nthe first fault in the file is {first} (code {}, [{}]), but code {} outranks it: \
             {} [code.precedence{}]",
            first.code(),
            first.rule(),
            v.code(),
            precedence(),
            if memory {
                ", decision.out-of-memory"
            } else {
                ""
            }
        );
    }
    out
}

/// The order of precedence, the strongest first, as the rules rank
/// findings ([`Rank::STRONGEST_FIRST`]): each rank by its code, a code
/// that comes twice named the second time, and the result of play last:
/// `9 > 8 > 7 > 6 > 9 (out of memory) > 5 > 4 > result`.
pub fn precedence() -> String {
    let mut shown = Vec::new();
    let ranks = Rank::STRONGEST_FIRST.iter().map(|rank| match rank.code() {
        None => "result".to_string(),
        Some(code) if shown.contains(&code) => format!("{code} ({})", rank.name()),
        Some(code) => {
            shown.push(code);
            code.to_string()
        }
    });
    ranks.collect::<Vec<_>>().join(" > ")
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

/// One finding, as the JSON account gives it.
#[derive(Clone, Debug, Serialize)]
pub struct FindingAccount {
    /// Its code.
    pub code: u8,
    /// The clause that rules it.
    pub rule: &'static str,
    /// Its line, if it has one.
    pub line: Option<u64>,
    /// The move on that line (line - 1), if the line holds a move.
    #[serde(rename = "move")]
    pub move_number: Option<u64>,
    /// What it says.
    pub text: String,
}

impl FindingAccount {
    fn of(f: &Finding) -> FindingAccount {
        FindingAccount {
            code: f.code().number(),
            rule: f.rule(),
            line: f.line(),
            move_number: f.line().filter(|&l| l > 1).map(|l| l - 1),
            text: f.to_string(),
        }
    }
}

/// The frame's numbers, in full, as decimal strings.
#[derive(Clone, Debug, Serialize)]
pub struct FrameAccount {
    /// Columns.
    pub x: String,
    /// Rows.
    pub y: String,
    /// Length of a winning run.
    pub z: String,
}

/// The winning run, as the JSON account gives it.
#[derive(Clone, Debug, Serialize)]
pub struct RunAccount {
    /// 1 or 2.
    pub player: u8,
    /// Its first cell's column, as a decimal string.
    pub column: String,
    /// Its first cell's row.
    pub row: u64,
    /// vertical, horizontal, diagonal or anti-diagonal.
    pub direction: String,
    /// Its counters.
    pub length: u64,
}

/// The account of `cz explain --json`: the same as [`text`], as data.
#[derive(Clone, Debug, Serialize)]
pub struct Account {
    /// The file's name.
    pub path: String,
    /// The code.
    pub code: u8,
    /// The code's name.
    pub name: &'static str,
    /// The clause that decides it.
    pub rule: &'static str,
    /// The verdict's line, if it has one.
    pub line: Option<u64>,
    /// Why, in words, with the precedence that decided.
    pub reason: String,
    /// The finding that decides the code.
    pub verdict: FindingAccount,
    /// Every fault, in file order.
    pub faults: Vec<FindingAccount>,
    /// The frame, when the header was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<FrameAccount>,
    /// Counters placed, when a game began.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed: Option<u64>,
    /// The board as text, a line each.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<String>>,
    /// The winning run, if one was completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_run: Option<RunAccount>,
}

/// The account of `report` for the file called `path`.
pub fn account(report: &Report, path: &str) -> Account {
    let code = report.code();
    let game = report.game.as_ref();
    Account {
        path: path.to_string(),
        code: code.number(),
        name: code.name(),
        rule: report.verdict.rule(),
        line: report.verdict.line(),
        reason: reason(report),
        verdict: FindingAccount::of(&report.verdict),
        faults: report.faults.iter().map(FindingAccount::of).collect(),
        frame: report.header.as_ref().map(|h| FrameAccount {
            x: h.x.to_string(),
            y: h.y.to_string(),
            z: h.z.to_string(),
        }),
        placed: game.map(|g| g.placed()),
        board: game.map(|g| {
            draw(g, Style::default())
                .lines()
                .map(str::to_string)
                .collect()
        }),
        winning_run: game.and_then(|g| g.winning_run()).map(|r| RunAccount {
            player: r.player.number(),
            column: r.column.to_string(),
            row: r.row,
            direction: r.direction.to_string(),
            length: r.length,
        }),
    }
}

/// The same account as [`text`], as one JSON object.
pub fn json(report: &Report, path: &str) -> String {
    to_json(&account(report, path))
}

/// A judge that keeps every counter to the end, for pictures of the board
/// (a plain judge keeps only heights once a run is complete).
pub fn keeping_board() -> connectz::Judge {
    connectz::Judge::keeping(connectz::Keep { board: true })
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

/// The refusal of a frame no game can be won on (r[rule.winnable]), in the
/// words `cz play`, the Python `Engine` and the page's play tab all use;
/// `None` for a frame a game can be won on.
pub fn unwinnable_refusal(width: u64, height: u64, z: u64) -> Option<String> {
    let header = connectz::Header {
        x: width.into(),
        y: height.into(),
        z: z.into(),
    };
    (!connectz::winnable(&header.x, &header.y, &header.z)).then(|| {
        format!(
            "{width} {height} {z} cannot be won, so the judge calls any game on it code 7 (illegal game): {}",
            unwinnable_why(&header)
        )
    })
}

/// Why no run can ever be completed on the frame of `header` (code 7), in
/// the terms of r[rule.winnable]'s proof.
pub fn unwinnable_why(header: &connectz::Header) -> String {
    let (x, y, z) = (&header.x, &header.y, &header.z);
    match connectz::unwinnable(x, y, z) {
        Some(connectz::Unwinnable::OneRow) => format!(
            "one row: when a player completes {z} in a row the other has placed at least {} counters on it, so the row needs {} columns and has {x}",
            z.checked_sub_u64(1).unwrap_or(connectz::Nat::ZERO),
            z.add(z).checked_sub_u64(1).unwrap_or(connectz::Nat::ZERO)
        ),
        Some(connectz::Unwinnable::OneColumn) => {
            format!("one column: its counters alternate between the players, so no {z} in a row")
        }
        Some(connectz::Unwinnable::NoRunFits) => {
            format!("no run of {z} fits: the frame is {x} wide and {y} tall")
        }
        None => format!("a run of {z} can be completed on this frame"),
    }
}

#[cfg(test)]
mod tests;
