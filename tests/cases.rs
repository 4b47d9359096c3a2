//! tests/cases/<code>-<meaning>/<fault>.txt: the expected code lives in the
//! path; the detail (rule, line, why, the board) is pinned by the snapshot
//! of every case's account, crates/explain/tests/spec_accounts.rs.

use std::fs;

use connectz::hooks::judge_chunked;
use connectz::judge_path;

use crate::support::{files_below, root};

#[test]
fn every_case_gives_the_code_in_its_path() {
    let dir = root().join("tests/cases");
    let mut failures = Vec::new();
    let mut seen = 0;
    for path in files_below(&dir) {
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        seen += 1;
        let rel = path.strip_prefix(&dir).unwrap().display().to_string();
        let folder = rel.split('/').next().unwrap();
        let expected: u8 = folder[..1].parse().expect("folder starts with the code");
        let report = judge_path(&path);
        let code = report.code().number();
        if code != expected {
            failures.push(format!("{rel}: expected {expected}, got {code}"));
        }
        let bytes = fs::read(&path).unwrap();
        for sizes in [&[1][..], &[2, 3], &[7, 1, 64]] {
            let chunked = judge_chunked(&bytes, sizes);
            if chunked.verdict != report.verdict {
                failures.push(format!(
                    "{rel}: chunks {sizes:?} give {:?}",
                    chunked.verdict
                ));
            }
        }
    }
    assert!(
        seen >= 9,
        "found only {seen} case files under {}",
        dir.display()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_nine_brief_samples_give_zero_to_eight() {
    let dir = root().join("tests/cases");
    let mut folders: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("brief-sample.txt").exists())
        .collect();
    folders.sort();
    let codes: Vec<u8> = folders
        .iter()
        .map(|f| judge_path(&f.join("brief-sample.txt")).code().number())
        .collect();
    assert_eq!(codes, (0..=8).collect::<Vec<u8>>());
}
