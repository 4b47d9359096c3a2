//! Every documented edge case, pinned for review: the whole account of each
//! example of a spec page (code, rule, line, why, frame and board, as
//! `cz explain` prints it) in one snapshot per page, and of each file of
//! tests/cases in one more. A rule change shows as a diff in the page that
//! states the rule. The code an example or case must give is pinned by its
//! `expect=` or its folder (tests/spec_examples.rs, tests/cases.rs), never
//! by a snapshot, so accepting a snapshot cannot bless a wrong code.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

use connectz::judge_bytes_with;
use connectz_explain::account::{self, keeping_board};
use connectz_explain::draw::Style;
use connectz_spec::{Class, Example, case_files, clauses};

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
    let report = judge_bytes_with(bytes, keeping_board());
    account::text(&report, Style::default())
}

/// One entry: a heading, what was given (`input: ` or `command: `), the
/// account; a blank line after it. Lines lose their trailing spaces (the
/// board's cells carry one), so that no editor changes a snapshot.
fn entry(out: &mut String, heading: &str, given: &str, account: &str) {
    let _ = writeln!(out, "=== {heading}");
    let _ = writeln!(out, "{given}");
    for line in account.lines() {
        let _ = writeln!(out, "{}", line.trim_end());
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

/// Every example of `page` (`format.md`, ...) that has an account, in file
/// order, and how many there were.
fn page_accounts(page: &str) -> (String, usize) {
    let mut out = String::new();
    let mut count = 0;
    for clause in clauses().unwrap().iter().filter(|c| c.file == page) {
        for example in &clause.examples {
            match example {
                Example::Game {
                    bytes,
                    expect,
                    class,
                    at,
                } => {
                    let heading =
                        format!("{at} [{}] expect={expect} ({})", clause.id, class.name());
                    entry(
                        &mut out,
                        &heading,
                        &format!("input: {}", escaped(bytes)),
                        &explained(bytes),
                    );
                }
                Example::Cli { args, stdout, at } => {
                    let heading = format!("{at} [{}] cli", clause.id);
                    let line = std::iter::once("connectz")
                        .chain(args.iter().map(String::as_str))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let got = printed(args);
                    assert_eq!(&got, stdout, "{at}: the example's output");
                    entry(
                        &mut out,
                        &heading,
                        &format!("command: {line}"),
                        &format!("stdout: {got}"),
                    );
                }
                _ => continue,
            }
            count += 1;
        }
    }
    (out, count)
}

/// The pages with examples that have an account, each pinned by its test
/// below.
const PAGES: [&str; 4] = ["codes.md", "decisions.md", "format.md", "rules.md"];

#[test]
fn every_page_with_accounts_is_pinned() {
    let mut pages: Vec<String> = clauses()
        .unwrap()
        .into_iter()
        .filter(|c| {
            c.examples
                .iter()
                .any(|e| matches!(e, Example::Game { .. } | Example::Cli { .. }))
        })
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

page!(codes, "codes.md", 10);
page!(decisions, "decisions.md", 20);
page!(format, "format.md", 30);
page!(rules, "rules.md", 25);

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
