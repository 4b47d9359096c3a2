//! The board of a picture: the frame's window, its counters and marks, the
//! axes, and the legend of the marks.

use std::fmt::Write as _;

use connectz::{Finding, Game, Player, Report};

use super::{LABEL_SIZE, PAD, axis_label, label_step, last_digits, past_label, text_width, xml};
use crate::draw::on_run;
use crate::window::Window;

/// Where the board's cells are drawn: the window shown, a cell's size, and
/// the frame's top left corner.
struct Cells<'a> {
    window: &'a Window,
    cell: f64,
    left: f64,
    top: f64,
}

impl Cells<'_> {
    /// The centre of the cell at column `k` and row `j` of the window,
    /// from its bottom left.
    fn centre(&self, k: u64, j: u64) -> (f64, f64) {
        (
            self.left + (k as f64 + 0.5) * self.cell,
            self.top + (self.window.rows - j) as f64 * self.cell - self.cell / 2.0,
        )
    }

    /// The frame's width and height.
    fn size(&self) -> (f64, f64) {
        (
            self.window.columns as f64 * self.cell,
            self.window.rows as f64 * self.cell,
        )
    }
}

/// Draws the board with its axes and marks at (`left`, `top`); returns the
/// y below it.
pub(super) fn draw_board(
    out: &mut String,
    report: &Report,
    game: &Game,
    window: &Window,
    cell: f64,
    left: f64,
    top: f64,
) -> f64 {
    // Room above the frame for a ghost counter (code 5).
    let ghost_room = if matches!(report.verdict, Finding::ColumnFull { .. }) {
        cell
    } else {
        0.0
    };
    let cells = Cells {
        window,
        cell,
        left,
        top: top + ghost_room,
    };
    let (w, h) = cells.size();
    let _ = writeln!(
        out,
        r#"<rect class="frame" x="{left:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" rx="4"/>"#,
        cells.top
    );
    counters(out, game, &cells);
    verdict_marks(out, report, game, &cells);
    row_labels(out, &cells);
    let label_y = column_labels(out, &cells);
    // The last move: a triangle under its column.
    let mut bottom = label_y + 4.0;
    if let Some((c, _)) = game.last()
        && let Some(k) = window.offset(c)
    {
        let (cx, _) = cells.centre(k, 0);
        let ty = label_y + 5.0;
        let _ = writeln!(
            out,
            r#"<path class="last" d="M {cx:.1} {ty:.1} l 5 8 h -10 z"/>"#
        );
        bottom = ty + 10.0;
    }
    bottom
}

/// Every cell of the window: a hole, or a counter with its player's mark
/// and, on the winning run, a ring.
fn counters(out: &mut String, game: &Game, cells: &Cells) {
    let (window, cell) = (cells.window, cells.cell);
    let radius = cell * 0.4;
    let board = game.board();
    let run = game.winning_run();
    let marks = has_marks(cell);
    for k in 0..window.columns {
        let column = window.column(k);
        for j in 0..window.rows {
            let row = window.first_row + j;
            let (cx, cy) = cells.centre(k, j);
            match board.owner(&column, row) {
                None => {
                    let _ = writeln!(
                        out,
                        r#"<circle class="hole" cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}"/>"#
                    );
                }
                Some(player) => {
                    let class = if player == Player::One { "one" } else { "two" };
                    let _ = writeln!(
                        out,
                        r#"<circle class="{class}" cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}"/>"#
                    );
                    if marks {
                        counter_mark(out, player, cx, cy, radius);
                    }
                    if run.is_some_and(|r| on_run(r, &column, row)) {
                        let _ = writeln!(
                            out,
                            r#"<circle class="run" cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" stroke-width="{:.1}"/>"#,
                            radius + (cell * 0.06).max(1.0),
                            (cell / 8.0).max(1.5)
                        );
                    }
                }
            }
        }
    }
}

/// What the verdict points at: the first move after the win boxed (code
/// 4), a ghost counter above the full column (5), an arrow past the frame's
/// right edge (6).
fn verdict_marks(out: &mut String, report: &Report, game: &Game, cells: &Cells) {
    let (window, cell, top) = (cells.window, cells.cell, cells.top);
    if let Finding::AfterWin { .. } = report.verdict
        && let Some((c, r)) = game.first_after_win()
        && let (Some(k), true) = (
            window.offset(c),
            (window.first_row..window.first_row + window.rows).contains(&r),
        )
    {
        let (cx, cy) = cells.centre(k, r - window.first_row);
        let _ = writeln!(
            out,
            r#"<rect class="alert" x="{:.1}" y="{:.1}" width="{cell:.1}" height="{cell:.1}" stroke-width="2.5"/>"#,
            cx - cell / 2.0,
            cy - cell / 2.0
        );
    }
    let (x, y_frame, _) = game.frame();
    if let Finding::ColumnFull { column, .. } = &report.verdict
        && let Some(k) = window.offset(column)
        && window.first_row + window.rows - 1 == y_frame.to_u64().unwrap_or(0)
    {
        let (cx, _) = cells.centre(k, 0);
        let cy = top - cell / 2.0;
        let radius = cell * 0.4;
        let _ = writeln!(
            out,
            r#"<circle class="ghost" cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}" stroke-width="2"/>"#
        );
    }
    if let Finding::OffFrame { column, .. } = &report.verdict
        && window.offset(x).is_some()
    {
        let ax = cells.left + cells.size().0 + 6.0;
        let ay = top + cell / 2.0;
        let _ = writeln!(
            out,
            r#"<path class="alert" d="M {ax:.1} {ay:.1} h 22 m -7 -6 l 7 6 l -7 6" stroke-width="2.5"/>"#
        );
        let _ = writeln!(
            out,
            r#"<text class="label" x="{:.1}" y="{:.1}">{}</text>"#,
            ax + 30.0,
            ay + LABEL_SIZE * 0.35,
            xml(&past_label(column))
        );
    }
}

/// Row numbers at the left, in the frame's numbers: the first and last
/// rows always, between them every few when cells are small.
fn row_labels(out: &mut String, cells: &Cells) {
    let window = cells.window;
    let top_row = window.first_row + window.rows - 1;
    let row_step = label_step(1, cells.cell).max(if cells.cell < 11.0 { 5 } else { 1 });
    for j in 0..window.rows {
        let row = window.first_row + j;
        if !row.is_multiple_of(row_step) && j != 0 && row != top_row {
            continue;
        }
        let (_, cy) = cells.centre(0, j);
        let _ = writeln!(
            out,
            r#"<text class="label" x="{:.1}" y="{:.1}" text-anchor="end">{row}</text>"#,
            cells.left - 6.0,
            cy + LABEL_SIZE * 0.35
        );
    }
}

/// Column numbers below the frame, in the frame's numbers; returns their
/// baseline.
fn column_labels(out: &mut String, cells: &Cells) -> f64 {
    let window = cells.window;
    let widest = axis_label(&window.column(window.columns - 1))
        .chars()
        .count();
    let step = label_step(widest, cells.cell);
    let label_y = cells.top + cells.size().1 + LABEL_SIZE + 4.0;
    // The first and last columns always, between them every `step`th; each
    // centred under its column but never past the picture's left edge, and
    // none touching the next.
    let placed_at = |k: u64, label: &str| {
        let (cx, _) = cells.centre(k, 0);
        let width = text_width(label, LABEL_SIZE);
        let start = (cx - width / 2.0).max(PAD);
        (start, start + width)
    };
    let last_k = window.columns - 1;
    let last_label = axis_label(&window.column(last_k));
    let (last_start, _) = placed_at(last_k, &last_label);
    let mut labels = Vec::new();
    let mut end_so_far = f64::MIN;
    for k in 0..last_k {
        let column = window.column(k);
        if k != 0 && !last_digits(&column).is_multiple_of(step) {
            continue;
        }
        let label = axis_label(&column);
        let (start, end) = placed_at(k, &label);
        if start < end_so_far + 3.0 || end + 3.0 > last_start {
            continue;
        }
        end_so_far = end;
        labels.push((start, label));
    }
    labels.push((last_start, last_label));
    for (start, label) in labels {
        let _ = writeln!(
            out,
            r#"<text class="label" x="{start:.1}" y="{label_y:.1}">{}</text>"#,
            xml(&label)
        );
    }
    label_y
}

/// Whether counters of this size carry their player's mark.
fn has_marks(cell: f64) -> bool {
    cell >= 14.0
}

/// The legend: only the marks the picture draws.
pub(super) fn legend(report: &Report, game: &Game, cell: f64) -> Option<String> {
    if game.placed() == 0 {
        return None;
    }
    let mut parts = if has_marks(cell) {
        vec!["x blue cross = player 1", "o orange ring = player 2"]
    } else {
        vec!["blue = player 1", "orange = player 2"]
    };
    if game.winning_run().is_some() {
        parts.push("thick ring = winning run");
    }
    parts.push("triangle = last move");
    parts.push(match report.verdict {
        Finding::AfterWin { .. } => "box = first move after the win",
        Finding::ColumnFull { .. } => "dashed = the counter that did not fit",
        Finding::OffFrame { .. } => "arrow = the column past the frame",
        _ => "",
    });
    parts.retain(|p| !p.is_empty());
    Some(format!("legend: {}", parts.join(", ")))
}

/// A player's own mark inside a counter: a cross for player 1, a ring for
/// player 2, so that the two differ without colour.
fn counter_mark(out: &mut String, player: Player, cx: f64, cy: f64, radius: f64) {
    let s = radius * 0.45;
    let width = (radius * 0.18).max(1.2);
    match player {
        Player::One => {
            let _ = writeln!(
                out,
                r#"<path class="mark" d="M {:.1} {:.1} l {:.1} {:.1} m 0 {:.1} l {:.1} {:.1}" stroke-width="{width:.1}"/>"#,
                cx - s,
                cy - s,
                2.0 * s,
                2.0 * s,
                -2.0 * s,
                -2.0 * s,
                2.0 * s
            );
        }
        Player::Two => {
            let _ = writeln!(
                out,
                r#"<circle class="mark" cx="{cx:.1}" cy="{cy:.1}" r="{s:.1}" stroke-width="{width:.1}"/>"#
            );
        }
    }
}
