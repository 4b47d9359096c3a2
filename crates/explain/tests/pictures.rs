//! The SVG text of a few pictures, pinned: one per kind of deciding move,
//! and a windowed huge frame. What the browser sees of every shipped case is
//! checked by tests/browser/pictures.mjs (in `.ci/run`).

use connectz::judge_bytes_with;
use connectz_explain::account::keeping_board;
use connectz_explain::render::{Excerpt, Picture, draw};

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/cases");

/// The picture of `bytes` as `cz render` draws it.
fn picture(title: &str, bytes: &[u8]) -> String {
    let report = judge_bytes_with(bytes, keeping_board());
    let excerpt = Excerpt::of(&report, bytes);
    draw(&Picture {
        report: &report,
        title,
        excerpt: excerpt.as_ref(),
    })
}

fn case(path: &str) -> String {
    let bytes = std::fs::read(format!("{CASES}/{path}")).expect("a shipped case");
    picture(path, &bytes)
}

#[test]
fn a_win_rings_the_run() {
    insta::assert_snapshot!(case("1-win-player-1/brief-sample.txt"));
}

#[test]
fn a_move_after_the_win_is_boxed() {
    insta::assert_snapshot!(case("4-illegal-continue/brief-sample.txt"));
}

#[test]
fn a_full_column_gets_a_ghost() {
    insta::assert_snapshot!(case("5-illegal-row/filled-after-win.txt"));
}

#[test]
fn a_column_past_the_frame_gets_an_arrow() {
    insta::assert_snapshot!(case("6-illegal-column/brief-sample.txt"));
}

#[test]
fn an_unwinnable_frame_says_why() {
    insta::assert_snapshot!(case("7-illegal-game/brief-sample.txt"));
}

#[test]
fn a_bad_line_is_quoted_with_its_fault_marked() {
    insta::assert_snapshot!(case("8-invalid-file/double-space.txt"));
}

#[test]
fn a_huge_frame_is_windowed_around_its_counters() {
    insta::assert_snapshot!(picture(
        "huge frame two counters",
        b"1000000000 1000000000 4\n1\n2\n"
    ));
}

/// The pictures docs/toolbox.md shows are what `cz render` draws today.
#[test]
fn the_readme_pictures_are_current() {
    let pictures = concat!(env!("CARGO_MANIFEST_DIR"), "/pictures");
    for (case, file) in [
        ("5-illegal-row/filled-after-win.txt", "filled-after-win.svg"),
        (
            "1-win-player-1/huge-frame-sparse.txt",
            "huge-frame-sparse.svg",
        ),
        (
            "8-invalid-file/two-moves-on-a-line.txt",
            "two-moves-on-a-line.svg",
        ),
    ] {
        let bytes = std::fs::read(format!("{CASES}/{case}")).expect("a shipped case");
        let title = case.rsplit('/').next().expect("a file name");
        let committed = std::fs::read_to_string(format!("{pictures}/{file}"))
            .expect("a picture of docs/toolbox.md");
        assert!(
            committed == picture(title, &bytes),
            "crates/explain/pictures/{file} is out of date: \
             cz render tests/cases/{case} -o crates/explain/pictures/{file}"
        );
    }
}

/// Every shipped case draws, in a build that checks arithmetic: counters a
/// machine word apart once overflowed the window's arithmetic (found by the
/// page's test; release builds wrapped silently).
#[test]
fn every_case_draws_with_checked_arithmetic() {
    let cases = connectz_spec::case_files();
    assert!(cases.len() > 60);
    for c in cases {
        let svg = picture(c.path, c.bytes);
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
            "{}",
            c.path
        );
    }
}
