//! Runs every example embedded in spec/*.md and checks that every clause has
//! one and is cited by the source. The code each example must give is
//! checked here; its whole account is pinned, a snapshot per page, by
//! crates/explain/tests/spec_accounts.rs.

use std::fs;
use std::process::Command;

use connectz::hooks::{self, judge_chunked};
use connectz::judge_bytes;
use connectz_spec::{Class, Example, case_files, clauses};

use crate::support::{files_below, root};

#[test]
fn every_game_example_gives_its_code() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for clause in clauses().unwrap() {
        for example in &clause.examples {
            let Example::Game {
                bytes, expect, at, ..
            } = example
            else {
                continue;
            };
            ran += 1;
            let report = judge_bytes(bytes);
            if report.code() != *expect {
                failures.push(format!(
                    "{at} [{}]: expected {expect}, got {} ({})",
                    clause.id,
                    report.code(),
                    report.verdict
                ));
            }
            let chunked = judge_chunked(bytes, &[1, 2, 5]);
            if chunked.verdict != report.verdict {
                failures.push(format!(
                    "{at} [{}]: chunked reading differs: {:?}",
                    clause.id, chunked.verdict
                ));
            }
        }
    }
    assert!(ran >= 50, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_cli_example_prints_its_line() {
    let mut ran = 0;
    for clause in clauses().unwrap() {
        for example in &clause.examples {
            let Example::Cli { args, stdout, at } = example else {
                continue;
            };
            ran += 1;
            let out = Command::new(env!("CARGO_BIN_EXE_connectz"))
                .args(args)
                .current_dir(root())
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                *stdout,
                "{at} [{}]",
                clause.id
            );
            assert_eq!(out.status.code(), Some(0), "{at} [{}]", clause.id);
        }
    }
    assert!(ran >= 4, "only {ran} cli examples found");
}

#[test]
fn every_clause_has_an_example() {
    let all = clauses().unwrap();
    assert!(all.len() >= 20, "only {} clauses found", all.len());
    let bare: Vec<_> = all
        .iter()
        .filter(|c| c.examples.is_empty())
        .map(|c| &c.id)
        .collect();
    assert!(bare.is_empty(), "clauses without an example: {bare:?}");
}

#[test]
fn every_clause_is_cited_by_the_source() {
    // The core and every crate of the workspace.
    let mut dirs = vec![root().join("src")];
    for entry in fs::read_dir(root().join("crates")).unwrap() {
        dirs.push(entry.unwrap().path().join("src"));
    }
    let source: String = dirs
        .iter()
        .flat_map(|d| files_below(d))
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    let uncited: Vec<_> = clauses()
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .filter(|id| {
            !source.contains(&format!("r[{id}]")) && !source.contains(&format!("\"{id}\""))
        })
        .collect();
    assert!(
        uncited.is_empty(),
        "clauses no source file cites: {uncited:?}"
    );
}

#[test]
fn every_rule_the_judge_names_is_in_the_spec() {
    let all = clauses().unwrap();
    let mut inputs: Vec<Vec<u8>> = case_files().iter().map(|c| c.bytes.to_vec()).collect();
    for clause in &all {
        for example in &clause.examples {
            if let Example::Game { bytes, .. } = example {
                inputs.push(bytes.clone());
            }
        }
    }
    for bytes in inputs {
        let rule = judge_bytes(&bytes).verdict.rule();
        assert!(
            all.iter().any(|c| c.id == rule),
            "verdict cites {rule}, not in spec/"
        );
    }
}

#[test]
fn impl_cases_name_impl_decisions() {
    let all = clauses().unwrap();
    let impl_cases: Vec<_> = case_files()
        .into_iter()
        .filter(|c| c.class == Class::Impl)
        .collect();
    assert!(
        impl_cases.len() >= 10,
        "only {} impl cases",
        impl_cases.len()
    );
    for case in impl_cases {
        let decision = case.decision.unwrap();
        let clause = all.iter().find(|c| c.id == decision);
        assert!(
            clause.is_some_and(|c| c.class == Class::Impl),
            "{}: {decision} is not an impl decision of spec/decisions.md",
            case.path
        );
    }
    // Every line of impl.tsv names a file that exists.
    let listed = fs::read_to_string(root().join("tests/cases/impl.tsv")).unwrap();
    for line in listed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let path = line.split('\t').next().unwrap();
        assert!(
            root().join("tests/cases").join(path).exists(),
            "impl.tsv lists missing {path}"
        );
    }
}

/// Judges a `resource` example's input in 64 KiB chunks: the report, the
/// most bytes held for a partial line, and the bytes read.
fn stream(resource: &connectz_spec::Resource) -> (connectz::Report, usize, u64) {
    use std::io::Read;
    let mut reader = connectz_testkit::scale::resource_reader(resource.parts.clone());
    let mut judge = connectz::Judge::new();
    let mut buffer = vec![0u8; 1 << 20];
    let (mut held, mut read) = (0, 0u64);
    loop {
        let n = reader.read(&mut buffer).unwrap();
        if n == 0 {
            break;
        }
        read += n as u64;
        judge.feed(&buffer[..n]);
        held = held.max(connectz::hooks::buffered(&judge));
        if judge.is_settled() {
            break;
        }
    }
    (judge.finish(), held, read)
}

fn board_per_move(report: &connectz::Report) -> usize {
    report.game.as_ref().map_or(0, |g| {
        hooks::heap_bytes(g.board()) / (g.placed() as usize).max(1)
    })
}

#[test]
fn every_resource_and_scale_example_holds() {
    use connectz_testkit::scale::{Family, Scale};
    use std::io::Read;
    let mut ran = 0;
    for clause in clauses().unwrap() {
        for example in &clause.examples {
            match example {
                Example::Resource(r) if r.limit_kb.is_some() => {
                    // Under an address-space limit: the binary, on a file.
                    let dir = std::env::temp_dir()
                        .join(format!("connectz-spec-{}-{ran}", std::process::id()));
                    fs::create_dir_all(&dir).unwrap();
                    let file = dir.join("input.txt");
                    let mut bytes = Vec::new();
                    connectz_testkit::scale::resource_reader(r.parts.clone())
                        .read_to_end(&mut bytes)
                        .unwrap();
                    fs::write(&file, &bytes).unwrap();
                    let out = Command::new("sh")
                        .arg("-c")
                        .arg(format!(
                            "ulimit -v {}; exec \"$0\" \"$1\"",
                            r.limit_kb.unwrap()
                        ))
                        .arg(env!("CARGO_BIN_EXE_connectz"))
                        .arg(&file)
                        .output()
                        .unwrap();
                    fs::remove_dir_all(&dir).unwrap();
                    assert_eq!(
                        String::from_utf8_lossy(&out.stdout),
                        format!("{}\n", r.expect),
                        "{} [{}]",
                        r.at,
                        clause.id
                    );
                }
                Example::Resource(r) => {
                    let (report, held, read) = stream(r);
                    let at = format!("{} [{}]", r.at, clause.id);
                    assert_eq!(report.code(), r.expect, "{at}: {}", report.verdict);
                    if let Some(most) = r.held {
                        assert!(held <= most, "{at}: held {held} bytes");
                    }
                    if let Some(most) = r.read {
                        assert!(read <= most, "{at}: read {read} bytes");
                    }
                    if let Some(most) = r.board_per_move {
                        let per = board_per_move(&report);
                        assert!(per <= most, "{at}: {per} bytes of board per move");
                    }
                }
                Example::Scale {
                    family,
                    n,
                    unwon,
                    expect,
                    board_per_move: most,
                    at,
                } => {
                    let family = Family::from_name(family)
                        .unwrap_or_else(|| panic!("{at}: no family {family}"));
                    let mut scale = Scale::new(family, *n);
                    if *unwon {
                        scale = scale.unwon();
                    }
                    assert_eq!(scale.expect(), *expect, "{at}: the example's code");
                    let report = connectz::judge_reader(scale.reader());
                    assert_eq!(report.code(), *expect, "{at} [{}]", clause.id);
                    if let Some(most) = most {
                        let per = board_per_move(&report);
                        assert!(per <= *most, "{at}: {per} bytes of board per move");
                    }
                }
                _ => continue,
            }
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} resource examples found");
}
