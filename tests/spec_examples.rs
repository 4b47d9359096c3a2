//! Runs every example embedded in spec/*.md and checks that every clause has
//! one and is cited by the source.

use std::collections::BTreeMap;
use std::fs;
use std::process::Command;

use connectz::judge_bytes;

use connectz::judge_chunked;

use crate::support::{files_below, root};

/// One example block of a clause.
#[derive(Debug)]
enum Example {
    Game {
        bytes: Vec<u8>,
        expect: u8,
        at: String,
    },
    Cli {
        args: Vec<String>,
        stdout: String,
        at: String,
    },
}

/// Clause id -> its examples, for every spec file.
fn clauses() -> BTreeMap<String, Vec<Example>> {
    let mut out = BTreeMap::new();
    let mut files = files_below(&root().join("spec"));
    files.retain(|p| p.extension().is_some_and(|e| e == "md"));
    assert!(!files.is_empty(), "no spec files found");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(&path).unwrap();
        let mut current: Option<String> = None;
        let mut lines = text.lines().enumerate();
        while let Some((n, line)) = lines.next() {
            if let Some(id) = line.strip_prefix("r[").and_then(|l| l.strip_suffix(']')) {
                assert!(
                    out.insert(id.to_string(), Vec::new()).is_none(),
                    "{name}:{}: clause {id} defined twice",
                    n + 1
                );
                current = Some(id.to_string());
                continue;
            }
            let Some(info) = line.strip_prefix("```") else {
                continue;
            };
            let body: Vec<&str> = lines
                .by_ref()
                .map(|(_, l)| l)
                .take_while(|l| *l != "```")
                .collect();
            let at = format!("{name}:{}", n + 1);
            let mut words = info.split_whitespace();
            let example = match words.next() {
                Some("connectz") => {
                    let flags: Vec<&str> = words.collect();
                    let expect = flags
                        .iter()
                        .find_map(|f| f.strip_prefix("expect="))
                        .unwrap_or_else(|| panic!("{at}: no expect="))
                        .parse()
                        .unwrap();
                    let mut bytes = Vec::new();
                    for l in &body {
                        bytes.extend(unescape(l));
                        bytes.push(b'\n');
                    }
                    if flags.contains(&"no-eol") {
                        bytes.pop();
                    }
                    Example::Game { bytes, expect, at }
                }
                Some("cli") => {
                    assert_eq!(
                        body.len(),
                        2,
                        "{at}: a cli block is a command and its output"
                    );
                    let mut args: Vec<String> =
                        body[0].split_whitespace().map(String::from).collect();
                    assert_eq!(args.remove(0), "connectz", "{at}");
                    Example::Cli {
                        args,
                        stdout: format!("{}\n", body[1]),
                        at,
                    }
                }
                _ => continue,
            };
            let id = current
                .clone()
                .unwrap_or_else(|| panic!("{}: example before any clause", example_at(&example)));
            out.get_mut(&id).unwrap().push(example);
        }
    }
    out
}

fn example_at(e: &Example) -> &str {
    match e {
        Example::Game { at, .. } | Example::Cli { at, .. } => at,
    }
}

/// `\r`, `\t`, `\xHH` and `\\` as in spec/README.md.
fn unescape(line: &str) -> Vec<u8> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    let hex = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                    out.push(u8::from_str_radix(hex, 16).unwrap());
                    i += 2;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn every_game_example_gives_its_code() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (id, examples) in clauses() {
        for example in examples {
            let Example::Game { bytes, expect, at } = example else {
                continue;
            };
            ran += 1;
            let report = judge_bytes(&bytes);
            if report.code().number() != expect {
                failures.push(format!(
                    "{at} [{id}]: expected {expect}, got {} ({})",
                    report.code(),
                    report.verdict
                ));
            }
            let chunked = judge_chunked(&bytes, &[1, 2, 5]);
            if chunked.verdict != report.verdict {
                failures.push(format!(
                    "{at} [{id}]: chunked reading differs: {:?}",
                    chunked.verdict
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
    for (id, examples) in clauses() {
        for example in examples {
            let Example::Cli { args, stdout, at } = example else {
                continue;
            };
            ran += 1;
            let out = Command::new(env!("CARGO_BIN_EXE_connectz"))
                .args(&args)
                .current_dir(root())
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), stdout, "{at} [{id}]");
            assert_eq!(out.status.code(), Some(0), "{at} [{id}]");
        }
    }
    assert!(ran >= 4, "only {ran} cli examples found");
}

#[test]
fn every_clause_has_an_example() {
    let all = clauses();
    assert!(all.len() >= 20, "only {} clauses found", all.len());
    let bare: Vec<_> = all
        .iter()
        .filter(|(_, e)| e.is_empty())
        .map(|(id, _)| id)
        .collect();
    assert!(bare.is_empty(), "clauses without an example: {bare:?}");
}

#[test]
fn every_clause_is_cited_by_the_source() {
    let source: String = files_below(&root().join("src"))
        .iter()
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    let uncited: Vec<_> = clauses()
        .into_keys()
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
    let all = clauses();
    for (_, examples) in clauses() {
        for example in examples {
            if let Example::Game { bytes, at, .. } = example {
                let rule = judge_bytes(&bytes).verdict.rule();
                assert!(
                    all.contains_key(rule),
                    "{at}: verdict cites {rule}, not in spec/"
                );
            }
        }
    }
}
