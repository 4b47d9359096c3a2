//! Every account and picture of a verdict works for any number the judge
//! accepts: columns and frames with more digits than a format width may
//! hold (65,535), just below, at and above that limit.

use connectz::judge_bytes_with;
use connectz_explain::account::{self, keeping_board};
use connectz_explain::draw::Style;
use connectz_explain::render::{Excerpt, Picture, draw};

/// Everything the toolbox prints of `bytes`: the text, the JSON, the trace
/// and the picture. Panics are the failure this guards against.
fn every_account(bytes: &[u8]) -> (String, String, String, String) {
    let report = judge_bytes_with(bytes, keeping_board());
    let text = account::text(&report, Style::default());
    let json = account::json(&report, "huge");
    let trace = account::trace(bytes, Style::default());
    let excerpt = Excerpt::of(&report, bytes);
    let svg = draw(&Picture {
        report: &report,
        title: "huge",
        excerpt: excerpt.as_ref(),
    });
    (text, json, trace, svg)
}

#[test]
fn a_column_with_more_digits_than_a_format_width() {
    for digits in [65_534, 65_535, 65_536, 65_537, 200_000] {
        // X = 10^digits, a column of `digits` fives: inside the frame.
        let width = format!("1{}", "0".repeat(digits));
        let column = "5".repeat(digits);
        let file = format!("{width} 6 4\n{column}\n");
        let (text, json, trace, svg) = every_account(file.as_bytes());
        assert!(text.starts_with("code 3:"), "{digits}: {}", &text[..40]);
        // The frame is printed whole; the window's first column is labelled
        // with all its digits (five columns left of the move: the window of
        // 12 columns centres the one counter), the last move marked under
        // its own column.
        assert!(
            text.contains(&format!("frame: {width} columns, 6 rows")),
            "{digits}"
        );
        let first = format!("{}50", &column[..digits - 2]);
        assert!(text.contains(&format!("\n     {first}")), "{digits}");
        assert!(text.contains(&format!("\n{}^ last move", " ".repeat(15))));
        assert!(json.contains("\"code\":3"), "{digits}");
        assert!(trace.contains(&format!("(column {column})")), "{digits}");
        // The picture elides the number with its length.
        assert!(svg.contains(&format!("{digits} digits")), "{digits}");
        assert!(!svg.contains(&column), "{digits}");
    }
}

#[test]
fn a_frame_of_huge_numbers_in_every_code() {
    let big = |digits: usize| format!("9{}", "0".repeat(digits - 1));
    let x = big(70_000);
    let y = big(70_000);
    let z = big(69_999);
    let column = big(69_000);
    let next = format!("{}1", &column[..column.len() - 1]);
    for (file, code) in [
        // A run of 2 on the bottom row far out, then a move after it.
        (format!("{x} {y} 2\n{column}\n1\n{next}\n"), 1),
        (format!("{x} {y} 2\n{column}\n1\n{next}\n1\n"), 4),
        (format!("{x} 1 3\n{column}\n{column}\n"), 5),
        (format!("{x} {y} {z}\n{x}1\n"), 6),
        (format!("3 {y} {x}1\n"), 7),
        (format!("{x} {y} {z}\n{column} \n"), 8),
    ] {
        let (text, json, trace, svg) = every_account(file.as_bytes());
        assert!(
            text.starts_with(&format!("code {code}:")),
            "{}",
            &text[..60]
        );
        assert!(json.contains(&format!("\"code\":{code}")));
        let _ = trace;
        assert!(svg.starts_with("<svg"));
    }
}
