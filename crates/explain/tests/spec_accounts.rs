//! Every documented edge case, pinned for review: the whole account of each
//! example of a spec page (code, rule, line, why, frame and board, as
//! `cz explain` prints it) in one snapshot per page, and of each file of
//! tests/cases in one more. A rule change shows as a diff in the page that
//! states the rule. The code an example or case must give is pinned by its
//! `expect=` or its folder (tests/spec_examples.rs, tests/cases.rs), never
//! by a snapshot, so accepting a snapshot cannot bless a wrong code.
//!
//! The other kinds of example are pinned the same way: a `resource` or
//! `scale` input by the account of judging it as it streams (one run under
//! an address-space limit only by the code the binary prints, which
//! tests/spec_examples.rs checks); a `cli` line by what it prints; a
//! `board` grid by `cz board`'s answer and why; a `solve` position by its
//! score or why it is invalid; a `rotate` input by its output.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

use connectz::{Code, Report, judge_bytes_with, judge_reader_with};
use connectz_explain::account::{self, keeping_board};
use connectz_explain::draw::Style;
use connectz_games::{rotate, snapshot, solver};
use connectz_spec::{Class, Example, Part, Resource, case_files, clauses};
use connectz_testkit::scale::{Family, Scale, resource_reader};

/// An input longer than this many escaped characters is cut, with its size.
const SHOWN: usize = 160;

/// `bytes` as one line in the spec's escapes (`\n`, `\r`, `\t`, `\\`,
/// `\xHH`; spec/README.md), cut after [`SHOWN`] characters; `(empty)`
/// for no bytes.
fn escaped(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "(empty)".to_string();
    }
    let mut out = String::new();
    for (i, &b) in bytes.iter().enumerate() {
        if out.len() >= SHOWN {
            let _ = write!(out, "... ({} bytes in all, {} shown)", bytes.len(), i);
            return out;
        }
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            b' '..=b'~' => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    out
}

/// The account of a game file, as `cz explain` prints it (no colour).
fn explained(bytes: &[u8]) -> String {
    told(&judge_bytes_with(bytes, keeping_board()))
}

/// The account of a report, as `cz explain` prints it (no colour).
fn told(report: &Report) -> String {
    account::text(report, Style::default())
}

/// A `resource` input as its block writes it, part after part.
fn parts(parts: &[Part]) -> String {
    let each: Vec<String> = parts
        .iter()
        .map(|part| match part {
            Part::Repeat { bytes, times } => {
                let times = match times {
                    Some(1) => String::new(),
                    Some(n) => format!(" * {n}"),
                    None => " * forever".to_string(),
                };
                format!("\"{}\"{times}", escaped(bytes))
            }
            Part::Multiples { step, count } => format!("multiples {step} {count}"),
        })
        .collect();
    each.join(" + ")
}

/// A `resource` example's flags, as its block writes them.
fn flags(r: &Resource) -> String {
    let mut out = format!("expect={}", r.expect);
    for (key, value) in [
        ("held<=", r.held.map(|v| v as u64)),
        ("read<=", r.read),
        ("board<=", r.board_per_move.map(|v| v as u64)),
        ("limit-kb=", r.limit_kb),
    ] {
        if let Some(value) = value {
            let _ = write!(out, " {key}{value}");
        }
    }
    out
}

/// `cz board`'s answer for a grid, and why when it says.
fn board_answer(
    grid: &[u8],
    z: usize,
    first: Option<char>,
    empty: Option<char>,
    gravity: bool,
) -> String {
    match snapshot::judge_grid(grid, z, first, empty, gravity) {
        Ok((_, judgement)) => match judgement.why {
            Some(why) => format!("answer: {}\nwhy: {why}", judgement.answer),
            None => format!("answer: {}", judgement.answer),
        },
        Err(e) => format!("error: {e}"),
    }
}

/// The frame of a `solve` or `scores` block: width, height, run length.
fn shape_of((width, height, z): (usize, usize, usize)) -> solver::Shape {
    solver::Shape { width, height, z }
}

/// Every column's score of each position, as `cz solve --scores` prints
/// them, held to the example's.
fn column_scores(shape: (usize, usize, usize), positions: &[(String, Vec<Option<i32>>)]) -> String {
    let shape = shape_of(shape);
    let mut solver = solver::Solver::new();
    let mut out = String::new();
    for (moves, expect) in positions {
        let position = solver::Position::from_moves(shape, moves).expect("a valid position");
        solver.reset();
        let got = solver.analyze(&position, false);
        assert_eq!(&got, expect, "{moves}: the example's scores");
        let shown: Vec<String> = got
            .iter()
            .map(|s| s.map_or("-".to_string(), |s| s.to_string()))
            .collect();
        let _ = writeln!(out, "{moves} -> {}", shown.join(" "));
    }
    out
}

/// A `solve` block's positions, each with its score or why it is invalid.
fn scores(shape: (usize, usize, usize), positions: &[(String, Option<i32>)]) -> String {
    let shape = shape_of(shape);
    let mut solver = solver::Solver::new();
    let mut out = String::new();
    for (moves, expect) in positions {
        let got = match solver::Position::from_moves(shape, moves) {
            Ok(position) => {
                solver.reset();
                let score = solver.solve(&position, false);
                assert_eq!(Some(score), *expect, "{moves}: the example's score");
                format!("{score}")
            }
            Err(e) => {
                assert_eq!(None, *expect, "{moves}: the example's score");
                format!("invalid: {e}")
            }
        };
        let _ = writeln!(out, "{moves} -> {got}");
    }
    out
}

/// An account's line longer than this many bytes is cut, with its length
/// (a header of megabytes of digits is written whole in the frame's line).
const LONGEST: usize = 400;

/// One entry: a heading, what was given (`input: ` or `command: `), the
/// account; a blank line after it. Lines lose their trailing spaces (the
/// board's cells carry one), so that no editor changes a snapshot, and are
/// cut after [`LONGEST`] bytes.
fn entry(out: &mut String, heading: &str, given: &str, account: &str) {
    let _ = writeln!(out, "=== {heading}");
    let _ = writeln!(out, "{given}");
    for line in account.lines() {
        let line = line.trim_end();
        match line.get(..LONGEST) {
            Some(head) if line.len() > LONGEST => {
                let _ = writeln!(out, "{head}... ({} bytes in all)", line.len());
            }
            _ => {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out.push('\n');
}

/// The repository's root: a `cli` example's paths are relative to it.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// What the `connectz` command prints for `args` (the program's name left
/// out), run from the repository's root. The binary itself is run on the
/// same examples by tests/spec_examples.rs.
fn printed(args: &[String]) -> String {
    let args: Vec<OsString> = args.iter().map(|a| root().join(a).into()).collect();
    format!("{}\n", connectz::command_line(&args))
}

/// Every example of `page` (`format.md`, ...) with its account, in file
/// order, and how many there were.
fn page_accounts(page: &str) -> (String, usize) {
    let mut out = String::new();
    let mut count = 0;
    for clause in clauses().unwrap().iter().filter(|c| c.file == page) {
        for (index, example) in clause.examples.iter().enumerate() {
            // Named by clause and place in it, not by line of the page: a
            // paragraph added above moves no heading.
            let place = format!("[{}] example {}", clause.id, index + 1);
            let (heading, given, account) = example_account(&place, example);
            entry(&mut out, &heading, &given, &account);
            count += 1;
        }
    }
    (out, count)
}

/// An example's entry: its heading (after its `place`), what was given,
/// and its account; each example's code or answer held to the one it
/// states on the way.
fn example_account(place: &str, example: &Example) -> (String, String, String) {
    match example {
        Example::Game {
            bytes,
            expect,
            class,
            at: _,
        } => (
            format!("{place} expect={expect} ({})", class.name()),
            format!("input: {}", escaped(bytes)),
            explained(bytes),
        ),
        Example::Resource(r) => (
            format!("{place} resource {}", flags(r)),
            format!("input: {}", parts(&r.parts)),
            resource_account(r),
        ),
        Example::Scale {
            family,
            n,
            unwon,
            expect,
            at,
            ..
        } => scale_account(place, family, *n, *unwon, *expect, at),
        Example::Board {
            grid,
            z,
            first,
            empty,
            gravity,
            expect,
            at,
        } => {
            let mut heading = format!("{place} board z={z}");
            if let Some(first) = first {
                let _ = write!(heading, " first={first}");
            }
            if let Some(empty) = empty {
                let _ = write!(heading, " empty={empty}");
            }
            if !gravity {
                heading.push_str(" no-gravity");
            }
            let answer = board_answer(grid, *z, *first, *empty, *gravity);
            assert!(
                answer.starts_with(&format!("answer: {expect}")),
                "{at}: the example's answer"
            );
            // The grid as written, a row a line (`/` and `;` too).
            let rows: String = String::from_utf8_lossy(grid)
                .lines()
                .map(|row| format!("\n  {row}"))
                .collect();
            (heading, format!("grid:{rows}"), answer)
        }
        Example::Solve { shape, lines, .. } => {
            let (width, height, z) = shape;
            (
                format!("{place} solve width={width} height={height} connect={z}"),
                format!("positions: {}", lines.len()),
                scores(*shape, lines),
            )
        }
        Example::Scores { shape, lines, .. } => {
            let (width, height, z) = shape;
            (
                format!("{place} scores width={width} height={height} connect={z}"),
                format!("positions: {}", lines.len()),
                column_scores(*shape, lines),
            )
        }
        Example::Rotate { input, output, at } => {
            let got = rotate::solve(input).unwrap_or_else(|e| format!("error: {e}"));
            assert_eq!(&got, output, "{at}: the example's output");
            (
                format!("{place} rotate"),
                format!("input: {}", escaped(input.as_bytes())),
                format!("output:\n{got}"),
            )
        }
        Example::Cli { args, stdout, at } => {
            let line = std::iter::once("connectz")
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let got = printed(args);
            assert_eq!(&got, stdout, "{at}: the example's output");
            (
                format!("{place} cli"),
                format!("command: {line}"),
                format!("stdout: {got}"),
            )
        }
    }
}

/// The account of judging a `resource` input as it streams; of one run
/// under an address-space limit, only what the binary prints.
fn resource_account(r: &Resource) -> String {
    match r.limit_kb {
        Some(kb) => format!(
            "under a limit of {kb} KiB of address space the binary prints {}; \
             its account is not pinned (tests/spec_examples.rs runs it)",
            r.expect
        ),
        None => {
            let reader = resource_reader(r.parts.clone());
            let report = judge_reader_with(reader, keeping_board());
            assert_eq!(report.code(), r.expect, "{}: the example's code", r.at);
            told(&report)
        }
    }
}

/// The entry of a `scale` example: the account of judging its game as it
/// streams.
fn scale_account(
    place: &str,
    family: &str,
    n: u64,
    unwon: bool,
    expect: Code,
    at: &str,
) -> (String, String, String) {
    let unwon_flag = if unwon { " unwon" } else { "" };
    let heading = format!("{place} scale family={family} n={n}{unwon_flag} expect={expect}");
    let mut scale = Scale::new(Family::from_name(family).unwrap(), n);
    if unwon {
        scale = scale.unwon();
    }
    let report = judge_reader_with(scale.reader(), keeping_board());
    assert_eq!(report.code(), expect, "{at}: the example's code");
    let input = format!("input: the {family} game of the scale suite");
    (heading, input, told(&report))
}

/// The pages with examples, each pinned by its test below.
const PAGES: [&str; 7] = [
    "board.md",
    "codes.md",
    "decisions.md",
    "format.md",
    "resources.md",
    "rules.md",
    "solve.md",
];

#[test]
fn every_page_with_examples_is_pinned() {
    let mut pages: Vec<String> = clauses()
        .unwrap()
        .into_iter()
        .filter(|c| !c.examples.is_empty())
        .map(|c| c.file)
        .collect();
    pages.sort();
    pages.dedup();
    assert_eq!(pages, PAGES, "add a test below for each page");
}

macro_rules! page {
    ($test:ident, $page:literal, $least:literal) => {
        #[test]
        fn $test() {
            let (text, count) = page_accounts($page);
            assert!(count >= $least, "only {count} examples in {}", $page);
            insta::assert_snapshot!(stringify!($test), text);
        }
    };
}

page!(board, "board.md", 15);
page!(codes, "codes.md", 10);
page!(decisions, "decisions.md", 20);
page!(format, "format.md", 30);
page!(resources, "resources.md", 12);
page!(rules, "rules.md", 25);
page!(solve, "solve.md", 8);

#[test]
fn cases() {
    let mut out = String::new();
    let files = case_files();
    assert!(files.len() >= 60, "only {} case files", files.len());
    for case in &files {
        let class = match (case.class, case.decision) {
            (Class::Impl, Some(decision)) => format!("impl, {decision}"),
            (class, _) => class.name().to_string(),
        };
        let heading = format!("{} ({class})", case.path);
        entry(
            &mut out,
            &heading,
            &format!("input: {}", escaped(case.bytes)),
            &explained(case.bytes),
        );
    }
    insta::assert_snapshot!("cases", out);
}

#[test]
fn inputs_are_escaped_and_long_ones_cut() {
    assert_eq!(
        escaped(b"7 6 4\r\n\t\\\x00\xff"),
        "7 6 4\\r\\n\\t\\\\\\x00\\xFF"
    );
    let long = escaped(&[b'9'; 1000]);
    assert_eq!(
        long,
        format!(
            "{}... (1000 bytes in all, {SHOWN} shown)",
            "9".repeat(SHOWN)
        )
    );
}
