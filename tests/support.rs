//! Helpers shared by the test modules.

use std::fs;
use std::path::{Path, PathBuf};

use connectz::{Judge, Report};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below `dir`, sorted.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Judges `bytes` fed in chunks of the given sizes, cycling.
pub fn judge_chunked(bytes: &[u8], sizes: &[usize]) -> Report {
    let mut judge = Judge::new();
    let mut rest = bytes;
    let mut i = 0;
    while !rest.is_empty() {
        let n = sizes[i % sizes.len()].clamp(1, rest.len());
        judge.feed(&rest[..n]);
        rest = &rest[n..];
        i += 1;
    }
    judge.finish()
}
