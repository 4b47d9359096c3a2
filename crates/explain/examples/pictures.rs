//! Renders the picture of every file of tests/cases and every game example
//! of the spec, and of a few larger frames, into a folder: what the browser
//! test (tests/browser/pictures.mjs) opens in Chromium.
//!
//!     cargo run --release -p connectz-explain --example pictures -- target/pictures

use std::fs;
use std::path::{Path, PathBuf};

use connectz_explain::account::keeping_board;
use connectz_explain::render::{Excerpt, Picture, draw};
use connectz_spec::{Example, case_files, clauses};

/// Writes the picture of `bytes`, titled `name`, and returns its file name.
fn render(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let report = connectz::judge_bytes_with(bytes, keeping_board());
    let excerpt = Excerpt::of(&report, bytes);
    let picture = Picture {
        report: &report,
        title: name,
        excerpt: excerpt.as_ref(),
    };
    let file: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let file = format!("{file}.svg");
    fs::write(dir.join(&file), draw(&picture)).expect("write picture");
    file
}

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or("target/pictures".into()));
    fs::create_dir_all(&dir).expect("picture folder");
    // The list of what was drawn, which the browser test checks against
    // what it finds.
    let mut drawn = Vec::new();
    for case in case_files() {
        drawn.push(render(&dir, case.path, case.bytes));
    }
    for clause in clauses().expect("the spec parses") {
        for (i, example) in clause.examples.iter().enumerate() {
            if let Example::Game { bytes, .. } = example {
                drawn.push(render(
                    &dir,
                    &format!("spec {} {}", clause.id, i + 1),
                    bytes,
                ));
            }
        }
    }
    // Larger frames: windowed, wide, tall, and a long line at fault.
    let mut ladder = b"200000 2 200000\n".to_vec();
    for c in 1..=200u64 {
        ladder.extend_from_slice(format!("{c}\n{c}\n").as_bytes());
    }
    let mut long_fault = b"7 6 4\n1\n".to_vec();
    long_fault.extend(std::iter::repeat_n(b'1', 5000));
    long_fault.extend_from_slice(b"\xff\n");
    // Numbers of a hundred thousand digits: a frame, and a column past it.
    let nines = "9".repeat(100_000);
    let long_numbers = format!("{nines} 5 3\n1\n2\n1{}\n", "0".repeat(100_000)).into_bytes();
    let long_win = format!("{nines} {nines} 2\n{nines}\n1\n{nines}\n").into_bytes();
    // Axis labels wider than a cell at the window's right end: a column of
    // 80 digits beside an X of 81, and a full column of 45 digits.
    let many_digits = format!("1{} 6 4\n{}\n", "0".repeat(80), "7".repeat(80)).into_bytes();
    let eights = "8".repeat(45);
    let full_far = format!("{} 1 4\n{eights}\n{eights}\n", "9".repeat(45)).into_bytes();
    let larger: [(&str, Vec<u8>); 10] = [
        (
            "huge frame two counters",
            b"1000000000 1000000000 4\n1\n2\n".to_vec(),
        ),
        (
            "huge frame a win far out",
            b"1000000000 1000000000 3\n500000000\n500000001\n500000000\n500000001\n500000000\n"
                .to_vec(),
        ),
        ("wide ladder", ladder),
        ("full column of a tall frame", b"2 1000000 1\n1\n".to_vec()),
        ("long line at fault", long_fault),
        ("a column past a frame of 100000 digits", long_numbers),
        ("a win at the edge of a frame of 100000 digits", long_win),
        ("a column of 80 digits", many_digits),
        ("a full column of 45 digits", full_far),
        (
            "past a huge edge",
            b"99999999999999999999999 5 3\n1\n100000000000000000000000\n".to_vec(),
        ),
    ];
    for (name, bytes) in larger {
        drawn.push(render(&dir, name, &bytes));
    }
    fs::write(dir.join("pictures.txt"), drawn.join("\n") + "\n").expect("write the list");
    println!("{} pictures in {}", drawn.len(), dir.display());
}
