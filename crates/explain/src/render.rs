//! The board as an SVG picture, drawn for reading: the one drawing module of
//! `cz render`, the grade report and the web page.
//!
//! The picture fits its text (the width follows the longer of the board and
//! the caption, which wraps); the axes number columns and rows in the frame's
//! own coordinates; a large frame is shown through a window that frames the
//! counters that matter and says which columns and rows it shows. The move
//! that decided the code is drawn: the winning run ringed (1, 2), the first
//! move after the win marked (4), a ghost counter above the full column (5),
//! an arrow past the frame's edge (6), why no run can be completed (7), the
//! offending line quoted with its bad byte marked (8); the last move is
//! marked in every case. Colours are safe for colour-blind readers (blue and
//! orange) and the counters carry marks of their own (a cross, a ring); a
//! light and a dark theme follow `prefers-color-scheme`; `<title>` and
//! `<desc>` carry the account for screen readers.

use std::fmt::Write as _;

use connectz::{Code, Finding, Game, Nat, Report, SHOWN_DIGITS};

use crate::account::{reason, unwinnable_why};
use crate::markup::{Controls, escape};
use crate::window::{self, Coordinates, Window};

mod board;
mod excerpt;
use board::{draw_board, legend};
use excerpt::{ExcerptText, excerpt_text};

pub use excerpt::Excerpt;

/// Frames up to this many columns and rows are drawn whole; larger ones
/// through a window at most this size.
pub const MAX_SIDE: u64 = 100;

/// What a picture shows.
#[derive(Clone, Copy, Debug)]
pub struct Picture<'a> {
    /// The verdict and the game (judged keeping the whole board).
    pub report: &'a Report,
    /// The title, usually the file's name.
    pub title: &'a str,
    /// The offending line, for a file that does not conform.
    pub excerpt: Option<&'a Excerpt>,
}

/// The board of `report` as an SVG document, titled `title`.
pub fn svg(report: &Report, title: &str) -> String {
    draw(&Picture {
        report,
        title,
        excerpt: None,
    })
}

/// Sizes, in pixels.
const PAD: f64 = 16.0;
const TITLE_SIZE: f64 = 16.0;
const TEXT_SIZE: f64 = 13.0;
const LABEL_SIZE: f64 = 11.0;
/// Advance of one character of the monospace fonts named, in em (DejaVu
/// Sans Mono: 0.602; a little more, to be safe).
const ADVANCE: f64 = 0.62;
/// Text wraps at this width when the board is narrower.
const MIN_TEXT_WIDTH: f64 = 560.0;

fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * ADVANCE
}

/// Words of `text` in lines at most `width` pixels wide (a longer word on a
/// line of its own, cut).
fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let most = ((width / (size * ADVANCE)).floor() as usize).max(8);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let mut word = word.to_string();
            while word.chars().count() > most {
                let head: String = word.chars().take(most).collect();
                let rest: String = word.chars().skip(most).collect();
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                lines.push(head);
                word = rest;
            }
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > most {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        lines.push(line);
    }
    lines
}

/// Numbers longer than this many digits are drawn elided: as many as the
/// judge's own account shows of a column past the frame.
const LONGEST_NUMBER: usize = SHOWN_DIGITS;

/// Axis labels longer than this many digits show their last 12 only.
const LONGEST_LABEL: usize = 16;

/// `text` with every run of more than [`LONGEST_NUMBER`] digits shown as
/// its first and last 8 digits and its length, so that a picture stays
/// readable whatever the file's numbers (the exact number is in the file
/// and in `cz explain`).
fn elide_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..start]);
        let digits = &rest[start..];
        let len = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if len > LONGEST_NUMBER {
            let _ = write!(
                out,
                "{}…{} ({len} digits)",
                &digits[..8],
                &digits[len - 8..len]
            );
        } else {
            out.push_str(&digits[..len]);
        }
        rest = &digits[len..];
    }
    out.push_str(rest);
    out
}

/// The label of the arrow to a column past the frame; of a column longer
/// than the judge keeps, its first digits.
fn past_label(column: &Nat) -> String {
    if column.digit_count() > SHOWN_DIGITS {
        format!(
            "column {}… (more than {SHOWN_DIGITS} digits)",
            column.leading(8)
        )
    } else {
        elide_numbers(&format!("column {column}"))
    }
}

/// The number's last three digits (every label step divides 1000).
fn last_digits(n: &Nat) -> u64 {
    n.to_u64().map_or_else(
        || {
            let text = n.to_string();
            text[text.len() - 3..].parse().unwrap_or(0)
        },
        |v| v % 1000,
    )
}

/// A column's label on the axis: its last digits when it is too long.
fn axis_label(column: &Nat) -> String {
    let text = column.to_string();
    if text.len() > LONGEST_LABEL {
        format!("…{}", &text[text.len() - 12..])
    } else {
        text
    }
}

/// Lines of text of one class down the left margin, each `step` below the
/// one before; `y` ends at the last line's baseline.
fn text_lines(body: &mut String, y: &mut f64, class: &str, step: f64, lines: &[String]) {
    for line in lines {
        *y += step;
        let _ = writeln!(
            body,
            r#"<text class="{class}" x="{PAD}" y="{:.1}">{}</text>"#,
            *y,
            xml(line)
        );
    }
}

/// Text escaped for the picture's XML, a control character shown.
fn xml(s: &str) -> String {
    escape(s, Controls::Shown)
}

/// Every how many labels one is written, so that labels `chars` long do not
/// touch in cells `cell` pixels wide. Every step divides 1000 (see
/// [`last_digits`]).
fn label_step(chars: usize, cell: f64) -> u64 {
    let need = text_width(&"8".repeat(chars), LABEL_SIZE) + 4.0;
    [1, 2, 5, 10, 20, 25, 50, 100]
        .into_iter()
        .find(|&s| s as f64 * cell >= need)
        .unwrap_or(100)
}

/// The cells that decide the picture's window, most important first, and
/// what was deciding about the verdict.
fn focus(report: &Report, game: &Game) -> Vec<Coordinates> {
    let (x, y, _) = game.frame();
    let mut cells = Vec::new();
    match &report.verdict {
        Finding::ColumnFull { column, .. } => {
            if let Some(top) = y.to_u64() {
                cells.push((column.clone(), top));
            }
        }
        Finding::OffFrame { .. } => {
            let row = game.last().map_or(1, |(_, r)| r);
            cells.push((x.clone(), row));
        }
        Finding::AfterWin { .. } => {
            if let Some((c, r)) = game.first_after_win() {
                cells.push((c.clone(), r));
            }
        }
        _ => {}
    }
    cells.extend(window::focus(game));
    cells
}

/// Colours and strokes, light and dark (Okabe-Ito blue and orange for the
/// players, vermillion for what went wrong).
const STYLE: &str = r#"<style>
svg { --bg: #ffffff; --ink: #1b1f24; --muted: #57606a; --frame: #c8d1dc; --hole: #f6f8fa; --one: #0072b2; --two: #e69f00; --mark: #ffffff; --ring: #1b1f24; --alert: #d55e00; }
@media (prefers-color-scheme: dark) {
  svg { --bg: #0d1117; --ink: #e6edf3; --muted: #9aa5b1; --frame: #30363d; --hole: #161b22; --one: #56b4e9; --two: #e69f00; --mark: #0d1117; --ring: #f0f6fc; --alert: #ff8a50; }
}
.bg { fill: var(--bg); }
text { fill: var(--ink); font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.title { font-size: 16px; font-weight: bold; }
.text { font-size: 13px; }
.muted { fill: var(--muted); }
.label { font-size: 11px; fill: var(--muted); }
.frame { fill: var(--frame); }
.hole { fill: var(--hole); }
.one { fill: var(--one); }
.two { fill: var(--two); }
.mark { stroke: var(--mark); fill: none; }
.run { stroke: var(--ring); fill: none; }
.last { fill: var(--ink); }
.alert { stroke: var(--alert); fill: none; }
.alert-fill { fill: var(--alert); }
.ghost { stroke: var(--alert); fill: none; stroke-dasharray: 4 3; }
.fault { fill: var(--alert); font-weight: bold; text-decoration: underline; }
.quote { fill: var(--hole); stroke: var(--frame); }
</style>
"#;

/// The picture (see the module docs).
pub fn draw(picture: &Picture) -> String {
    let report = picture.report;
    let code = report.code();
    let heading = elide_numbers(&format!("{}: code {code} ({})", picture.title, code.name()));
    // The board's geometry, if there is one to draw: the game's, or for a
    // frame on which no game can be won (7) the empty frame.
    let empty = match (&report.game, &report.header) {
        (None, Some(h)) if code == Code::IllegalGame => Some(Game::new(h)),
        _ => None,
    };
    let board = report.game.as_ref().or(empty.as_ref()).map(|game| {
        let (x, y, _) = game.frame();
        let window = Window::framing(x, y, &focus(report, game), (MAX_SIDE, MAX_SIDE));
        let cell = (640.0 / window.columns.max(window.rows) as f64)
            .clamp(6.0, 44.0)
            .floor();
        Drawn { game, window, cell }
    });
    let played = board.as_ref().filter(|_| empty.is_none());
    let notes: Vec<String> = notes(report, played)
        .iter()
        .map(|n| elide_numbers(n))
        .collect();
    let excerpt = picture.excerpt.map(excerpt_text);
    let layout = Layout::of(report, &heading, &notes, board.as_ref(), excerpt.as_ref());
    let mut body = String::new();
    let height = (paint(&mut body, report, &layout, board.as_ref(), excerpt.as_ref()) + PAD).ceil();
    let width = layout.width;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-labelledby="title desc">"#
    );
    let _ = writeln!(out, r#"<title id="title">{}</title>"#, xml(&heading));
    let _ = writeln!(out, r#"<desc id="desc">{}</desc>"#, xml(&notes.join(". ")));
    out.push_str(STYLE);
    let _ = writeln!(out, r#"<rect class="bg" width="100%" height="100%"/>"#);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The board a picture draws: a game (or the empty frame), the window it
/// is shown through, and the size of a cell.
struct Drawn<'a> {
    game: &'a Game,
    window: Window,
    cell: f64,
}

/// The lines of text under the heading, before numbers are elided: the
/// account, why no game can be won (7), and the frame, with the window
/// shown of a `played` board.
fn notes(report: &Report, played: Option<&Drawn>) -> Vec<String> {
    let mut notes: Vec<String> = vec![reason(report)];
    if report.code() == Code::IllegalGame
        && let Some(h) = &report.header
    {
        notes.push(format!("why: {}", unwinnable_why(h)));
    }
    if let Some(Drawn { game, window, .. }) = played {
        let (x, y, z) = game.frame();
        notes.push(if window.whole {
            format!(
                "frame: {x} columns, {y} rows, runs of {z}; {} counters placed",
                game.placed()
            )
        } else {
            let outside = game.placed().saturating_sub(window.counters(game));
            format!(
                "frame: {x} columns, {y} rows, runs of {z}; {} counters placed; showing columns {}..{} and rows {}..{}{}",
                game.placed(),
                window.first_column,
                window.column(window.columns - 1),
                window.first_row,
                window.first_row + window.rows - 1,
                match outside {
                    0 => String::new(),
                    1 => " (1 counter outside)".into(),
                    n => format!(" ({n} counters outside)"),
                }
            )
        });
    } else if let Some(h) = &report.header {
        notes.push(format!(
            "frame: {} columns, {} rows, runs of {} (not played)",
            h.x, h.y, h.z
        ));
    }
    notes
}

/// How a picture is laid out: its width, the room for the row labels, the
/// excerpt's width, and its text wrapped in lines.
struct Layout {
    width: f64,
    row_label_width: f64,
    excerpt_width: f64,
    heading_lines: Vec<String>,
    note_lines: Vec<String>,
    caption_lines: Vec<String>,
    legend_lines: Vec<String>,
}

impl Layout {
    /// The picture's width follows the longer of the board block (row
    /// labels, board, the arrow of code 6), the excerpt and the text, which
    /// wraps at the board's width or [`MIN_TEXT_WIDTH`].
    fn of(
        report: &Report,
        heading: &str,
        notes: &[String],
        board: Option<&Drawn>,
        excerpt: Option<&ExcerptText>,
    ) -> Layout {
        let row_label_width = board.map_or(0.0, |b| {
            let w = &b.window;
            text_width(&(w.first_row + w.rows - 1).to_string(), LABEL_SIZE) + 8.0
        });
        let arrow_width = match (&report.verdict, board) {
            (Finding::OffFrame { column, .. }, Some(_)) => {
                text_width(&past_label(column), LABEL_SIZE) + 40.0
            }
            _ => 0.0,
        };
        let board_width = board.map_or(
            0.0,
            |Drawn {
                 window: w, cell, ..
             }| {
                // The last column's label is centred under it: a label wider than a
                // cell reaches past the board by half the difference.
                let last_label = text_width(&axis_label(&w.column(w.columns - 1)), LABEL_SIZE);
                let overhang = (last_label - cell) / 2.0;
                row_label_width + w.columns as f64 * cell + arrow_width.max(overhang)
            },
        );
        let excerpt_width = excerpt.map_or(0.0, |(_, parts)| {
            text_width(&parts.concat(), TEXT_SIZE) + 16.0
        });
        let text_limit = board_width.max(excerpt_width).max(MIN_TEXT_WIDTH);
        let heading_lines = wrap(heading, TITLE_SIZE, text_limit);
        let note_lines: Vec<String> = notes
            .iter()
            .flat_map(|n| wrap(n, TEXT_SIZE, text_limit))
            .collect();
        let caption_lines: Vec<String> = excerpt.map_or(Vec::new(), |(caption, _)| {
            wrap(caption, LABEL_SIZE, text_limit)
        });
        let text_width_used = heading_lines
            .iter()
            .map(|l| text_width(l, TITLE_SIZE))
            .chain(note_lines.iter().map(|l| text_width(l, TEXT_SIZE)))
            .chain(caption_lines.iter().map(|l| text_width(l, LABEL_SIZE)))
            .fold(0.0, f64::max);
        let legend = board.and_then(|b| legend(report, b.game, b.cell));
        let legend_lines = legend.map_or(Vec::new(), |l| wrap(&l, LABEL_SIZE, text_limit));
        let legend_width = legend_lines
            .iter()
            .map(|l| text_width(l, LABEL_SIZE))
            .fold(0.0, f64::max);
        let content_width = board_width
            .max(excerpt_width)
            .max(text_width_used)
            .max(legend_width);
        Layout {
            width: (content_width + 2.0 * PAD).ceil(),
            row_label_width,
            excerpt_width,
            heading_lines,
            note_lines,
            caption_lines,
            legend_lines,
        }
    }
}

/// Draws the picture's content as `layout` places it, top to bottom: the
/// heading, the notes, the excerpt and its caption, the board and its
/// legend; returns the y of the last line.
fn paint(
    body: &mut String,
    report: &Report,
    layout: &Layout,
    board: Option<&Drawn>,
    excerpt: Option<&ExcerptText>,
) -> f64 {
    let mut y = PAD;
    text_lines(
        body,
        &mut y,
        "title",
        TITLE_SIZE * 1.25,
        &layout.heading_lines,
    );
    y += 4.0;
    text_lines(body, &mut y, "text", TEXT_SIZE * 1.35, &layout.note_lines);
    if let Some((_, [before, fault, after])) = excerpt {
        y += 10.0;
        let box_height = TEXT_SIZE * 1.6;
        let _ = writeln!(
            body,
            r#"<rect class="quote" x="{PAD}" y="{y:.1}" width="{:.1}" height="{box_height:.1}" rx="3"/>"#,
            layout.excerpt_width
        );
        let _ = writeln!(
            body,
            r#"<text class="text" x="{:.1}" y="{:.1}" xml:space="preserve">{}<tspan class="fault">{}</tspan>{}</text>"#,
            PAD + 8.0,
            y + box_height * 0.72,
            xml(before),
            xml(fault),
            xml(after)
        );
        y += box_height + 4.0;
        text_lines(
            body,
            &mut y,
            "label",
            LABEL_SIZE * 1.3,
            &layout.caption_lines,
        );
    }
    if let Some(Drawn { game, window, cell }) = board {
        y += 12.0;
        y = draw_board(
            body,
            report,
            game,
            window,
            *cell,
            PAD + layout.row_label_width,
            y,
        );
        text_lines(
            body,
            &mut y,
            "label",
            LABEL_SIZE * 1.3,
            &layout.legend_lines,
        );
    }
    y
}

#[cfg(test)]
mod tests;
