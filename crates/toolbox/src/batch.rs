//! `cz batch`: the files to judge under some paths, found without blocking
//! and without looping.
//!
//! A path named on the command line is followed wherever it points. Inside a
//! folder, symbolic links are not followed (a link to `.` would loop, a link
//! to `/` would judge the whole machine), each folder is visited once (by
//! device and inode, so bind mounts cannot loop either), and only regular
//! files are judged: opening a FIFO blocks until a writer comes, a device
//! can be endless or block, so such entries are skipped and counted.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use connectz::{Code, judge_path};
use connectz_explain::json::to_json;
use rayon::prelude::*;
use serde::Serialize;

/// What a walk found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// Files to judge, sorted. A path named on the command line that does
    /// not exist is here too (it judges to 9).
    pub files: Vec<PathBuf>,
    /// Paths named on the command line that are neither files nor folders
    /// (FIFOs, sockets, devices): code 9 without being opened.
    pub special: Vec<PathBuf>,
    /// Folders that could not be read (no permission, a path longer than
    /// the system takes, ...): code 9 each, since the files below them
    /// cannot be read either.
    pub unreadable: Vec<PathBuf>,
    /// Entries inside folders that were not judged.
    pub skipped: Skipped,
}

/// Counts of entries skipped inside folders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Symbolic links.
    pub links: usize,
    /// FIFOs, sockets and devices.
    pub special: usize,
    /// Folders already visited (through a bind mount).
    pub folders: usize,
}

impl Skipped {
    /// True when nothing was skipped.
    pub fn is_empty(&self) -> bool {
        *self == Skipped::default()
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "skipped {} symbolic links, {} special files and {} folders seen before",
            self.links, self.special, self.folders
        )
    }
}

/// A folder's identity: two paths to one folder have the same.
#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(_meta: &fs::Metadata) -> (u64, u64) {
    // Without inodes every folder is new; links are still not followed.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    (0, NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// Finds the files to judge under `paths` (see the module docs).
pub fn walk(paths: &[PathBuf]) -> Walk {
    let mut out = Walk::default();
    let mut seen = std::collections::HashSet::new();
    let mut folders: Vec<PathBuf> = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if seen.insert(identity(&meta)) {
                    folders.push(path.clone());
                }
            }
            Ok(meta) if meta.is_file() => out.files.push(path.clone()),
            Ok(_) => out.special.push(path.clone()),
            // Missing or unreadable: judged, so it is listed with code 9.
            Err(_) => out.files.push(path.clone()),
        }
    }
    while let Some(folder) = folders.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            out.unreadable.push(folder);
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                out.skipped.special += 1;
                continue;
            };
            let path = entry.path();
            if kind.is_symlink() {
                out.skipped.links += 1;
            } else if kind.is_dir() {
                match fs::symlink_metadata(&path) {
                    Ok(meta) if seen.insert(identity(&meta)) => folders.push(path),
                    Ok(_) => out.skipped.folders += 1,
                    Err(_) => out.unreadable.push(path),
                }
            } else if kind.is_file() {
                out.files.push(path);
            } else {
                out.skipped.special += 1;
            }
        }
    }
    out.files.sort();
    out.special.sort();
    out.unreadable.sort();
    out
}

/// Judges the files of a walk in parallel, in the walk's order; named
/// special files are never opened (they could block) and get 9, as do
/// folders that could not be read. `done`
/// counts the files judged so far, for a progress display.
pub fn judge_all(walk: &Walk, done: &AtomicUsize) -> Vec<(PathBuf, Code)> {
    let unopened: std::collections::HashSet<&PathBuf> =
        walk.special.iter().chain(&walk.unreadable).collect();
    let mut files: Vec<PathBuf> = walk
        .files
        .iter()
        .chain(&walk.special)
        .chain(&walk.unreadable)
        .cloned()
        .collect();
    files.sort();
    let codes: Vec<Code> = files
        .par_iter()
        .map(|f| {
            let code = if unopened.contains(f) {
                Code::FileError
            } else {
                judge_path(f).code()
            };
            done.fetch_add(1, Ordering::Relaxed);
            code
        })
        .collect();
    files.into_iter().zip(codes).collect()
}

/// One judged file, as `cz batch --json` writes it.
#[derive(Serialize)]
struct JudgedLine {
    path: String,
    code: u8,
    name: &'static str,
}

/// The count of files per code (every code, in order) and of all files.
#[derive(Serialize)]
struct Summary {
    summary: std::collections::BTreeMap<String, usize>,
    files: usize,
}

/// Writes the judged files, `path<TAB>code` (or a JSON object) each, then a
/// count per code (or one JSON summary).
///
/// # Errors
/// Errors of `out`.
pub fn report(
    judged: &[(PathBuf, Code)],
    json: bool,
    out: &mut (impl Write + ?Sized),
) -> io::Result<()> {
    let mut counts = [0usize; 10];
    for (file, code) in judged {
        counts[usize::from(code.number())] += 1;
        if json {
            let line = JudgedLine {
                path: file.display().to_string(),
                code: code.number(),
                name: code.name(),
            };
            writeln!(out, "{}", to_json(&line))?;
        } else {
            writeln!(out, "{}\t{code}", file.display())?;
        }
    }
    if json {
        let summary = Summary {
            summary: Code::ALL
                .iter()
                .map(|c| (c.number().to_string(), counts[usize::from(c.number())]))
                .collect(),
            files: judged.len(),
        };
        writeln!(out, "{}", to_json(&summary))?;
    } else {
        writeln!(out, "# {} files", judged.len())?;
        for code in Code::ALL {
            let n = counts[usize::from(code.number())];
            if n > 0 {
                writeln!(out, "# {code} {}: {n}", code.name())?;
            }
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_loops_and_fifos_are_skipped() {
        let dir = std::env::temp_dir().join(format!("cz-walk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("d/sub")).unwrap();
        fs::write(dir.join("d/f.txt"), "3 3 3\n").unwrap();
        fs::write(dir.join("d/sub/g.txt"), "3 3 3\n").unwrap();
        std::os::unix::fs::symlink(".", dir.join("d/a")).unwrap();
        std::os::unix::fs::symlink("..", dir.join("d/sub/up")).unwrap();
        std::os::unix::fs::symlink("/", dir.join("d/root")).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(dir.join("d/pipe"))
            .status();
        let made_fifo = fifo.is_ok_and(|s| s.success());
        let walk = walk(&[dir.join("d"), dir.join("d/sub"), dir.join("missing")]);
        assert_eq!(
            walk.files,
            vec![
                dir.join("d/f.txt"),
                dir.join("d/sub/g.txt"),
                dir.join("missing")
            ]
        );
        assert_eq!(walk.skipped.links, 3);
        assert_eq!(walk.skipped.special, usize::from(made_fifo));
        // The second path names a folder already found under the first.
        assert_eq!(walk.skipped.folders, 1);
        if made_fifo {
            let named = super::walk(&[dir.join("d/pipe")]);
            assert_eq!(named.special, vec![dir.join("d/pipe")]);
            assert!(named.files.is_empty());
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder whose path is longer than the system takes cannot be read:
    /// it is listed with code 9, not only counted.
    #[test]
    fn folders_past_the_path_limit_are_nine() {
        let dir = std::env::temp_dir().join(format!("cz-batch-deep-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        // 25 levels of 201 bytes (past PATH_MAX, 4096, from about level 20),
        // made by a shell stepping in with relative paths; a file at the
        // bottom. rm walks such trees by descriptor.
        let made = std::process::Command::new("sh")
            .arg("-c")
            .arg("cd \"$0\" && n=$(printf 'd%.0s' $(seq 200)) && for i in $(seq 25); do mkdir $n && cd -P $n || exit 1; done && echo '7 6 4' > g.txt")
            .arg(&dir)
            .status()
            .unwrap();
        assert!(made.success());
        let walk = walk(std::slice::from_ref(&dir));
        assert_eq!(walk.unreadable.len(), 1, "{:?}", walk.unreadable);
        assert!(walk.unreadable[0].as_os_str().len() > 4000);
        let judged = judge_all(&walk, &AtomicUsize::new(0));
        assert_eq!(judged, vec![(walk.unreadable[0].clone(), Code::FileError)]);
        assert!(walk.skipped.is_empty());
        let removed = std::process::Command::new("rm")
            .arg("-rf")
            .arg(&dir)
            .status()
            .unwrap();
        assert!(removed.success());
    }
}
