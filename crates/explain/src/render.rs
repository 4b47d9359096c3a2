//! `cz render`: the final board as an SVG picture.

use std::fmt::Write as _;

use connectz::{Player, Report};

use crate::draw::{Window, on_run};
use crate::json::json_string;

/// Frames up to this many columns and rows are drawn whole.
pub const MAX_SIDE: u64 = 100;

/// The board of `report` as an SVG document, titled `title`.
pub fn svg(report: &Report, title: &str) -> String {
    let code = report.code();
    let heading = format!("{title}: code {code} ({})", code.name());
    let Some(game) = &report.game else {
        let text = format!("{heading}; {}", report.verdict);
        return format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"60\" viewBox=\"0 0 640 60\">\n\
             <title>{}</title>\n<rect width=\"640\" height=\"60\" fill=\"#ffffff\"/>\n\
             <text x=\"10\" y=\"35\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n</svg>\n",
            xml(&heading),
            xml(&text)
        );
    };
    let window = Window::around(game, MAX_SIDE, MAX_SIDE);
    // Cells shrink with the frame so the picture stays about 800 px wide.
    let cell = (800 / window.columns.max(window.rows)).clamp(6, 48);
    let (width, height) = (window.columns * cell, window.rows * cell);
    let top = 48;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        w = width + 20,
        h = height + top + 30
    );
    let _ = writeln!(out, "<title>{}</title>", xml(&heading));
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"20\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        xml(&heading)
    );
    let mut detail = format!("{} [{}]", report.verdict, report.verdict.rule());
    if !window.is_whole(game) {
        let _ = write!(
            detail,
            "; showing columns {}.. and rows {}.. of the frame",
            window.first_column, window.first_row
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"38\" font-family=\"sans-serif\" font-size=\"12\">{}</text>",
        xml(&detail)
    );
    let _ = writeln!(
        out,
        "<rect x=\"10\" y=\"{top}\" width=\"{width}\" height=\"{height}\" fill=\"#1f4fa8\" rx=\"4\"/>"
    );
    let board = game.board();
    let line = game.winning_run();
    let radius = cell as f64 * 0.4;
    for k in 0..window.columns {
        let column = window.first_column.add_u64(k);
        for j in 0..window.rows {
            let row = window.first_row + j;
            let cx = 10.0 + (k as f64 + 0.5) * cell as f64;
            let cy = top as f64 + (window.rows - j) as f64 * cell as f64 - cell as f64 / 2.0;
            let fill = match board.owner(&column, row) {
                Some(Player::One) => "#d62828",
                Some(Player::Two) => "#f2c014",
                None => "#ffffff",
            };
            let winning = line.is_some_and(|l| on_run(l, &column, row));
            let stroke = if winning {
                format!(
                    " stroke=\"#111111\" stroke-width=\"{:.1}\"",
                    (cell as f64 / 8.0).max(1.5)
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{radius:.1}\" fill=\"{fill}\"{stroke}/>"
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"{}\" font-family=\"sans-serif\" font-size=\"11\">column {} at left, row {} at bottom; red: player 1, yellow: player 2</text>",
        top + height + 18,
        window.first_column,
        window.first_row
    );
    out.push_str("</svg>\n");
    out
}

/// Text escaped for XML (reusing the JSON escaper for control characters).
fn xml(s: &str) -> String {
    let escaped = s
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    if escaped.chars().any(char::is_control) {
        let quoted = json_string(&escaped);
        quoted[1..quoted.len() - 1].to_string()
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connectz::{Judge, Keep, judge_bytes_with};

    fn judge_bytes(bytes: &[u8]) -> Report {
        let keep = Keep {
            board: true,
            ..Keep::default()
        };
        judge_bytes_with(bytes, Judge::keeping(keep))
    }

    #[test]
    fn draws_counters_and_marks_the_line() {
        let report = judge_bytes(b"3 3 3\n1\n2\n1\n2\n1\n");
        let svg = svg(&report, "sample");
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<circle").count(), 9);
        assert_eq!(svg.matches("#d62828").count(), 3);
        assert_eq!(svg.matches("stroke=\"#111111\"").count(), 3);
        assert!(svg.contains("code 1 (win for player 1)"));
    }

    #[test]
    fn large_frames_are_windowed() {
        let report = judge_bytes(b"1000 1000 4\n500\n501\n500\n501\n500\n501\n500\n");
        let svg = svg(&report, "big");
        assert_eq!(svg.matches("<circle").count(), 100 * 100);
        assert!(svg.contains("showing columns"));
    }
}
