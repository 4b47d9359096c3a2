//! A grade's journal: each candidate's whole result, one JSON line each,
//! appended as soon as it is graded, beside the reports. `cz grade
//! --resume` takes from it every candidate graded before with the same
//! command, cases, limits and reference, and grades only the others.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Entry, Graded, Settings};
use crate::check::Case;
use crate::sandbox::Limits;

/// What a result depends on: a candidate graded under another key is
/// graded again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Key {
    /// This program's version.
    pub version: String,
    /// A digest of the shipped corpus (names and bytes).
    pub corpus: u64,
    /// Generated cases and their seed.
    pub cases: usize,
    /// Their seed.
    pub seed: u64,
    /// The limits of a run: time in microseconds, memory in bytes.
    pub limits: (u128, u64),
    /// The timeout policy, if any: its floor in microseconds and its
    /// confirmations.
    pub policy: Option<(u128, usize)>,
    /// Groups shrunk and timeouts in a row given up after.
    pub shrink: usize,
    /// Timeouts in a row after which a candidate is given up on.
    pub give_up: usize,
    /// With `--perf`: the reference's command, its runs and the scale.
    pub perf: Option<(Vec<String>, usize, String)>,
    /// The candidate's command and folder.
    pub command: Vec<String>,
    /// Its folder.
    pub dir: Option<String>,
}

/// A digest of `corpus`: its cases' names and bytes.
pub fn digest(corpus: &[Case]) -> u64 {
    let mut h = DefaultHasher::new();
    for case in corpus {
        case.name.hash(&mut h);
        case.bytes.hash(&mut h);
    }
    h.finish()
}

impl Key {
    /// The key of `entry` graded with `settings` under `limits` on the
    /// corpus of [`digest`] `corpus`.
    pub fn of(entry: &Entry, settings: &Settings, limits: Limits, corpus: u64) -> Key {
        let words = |c: &[std::ffi::OsString]| {
            c.iter()
                .map(|w| w.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        Key {
            version: env!("CARGO_PKG_VERSION").to_string(),
            corpus,
            cases: settings.cases,
            seed: settings.seed,
            limits: (limits.timeout.as_micros(), limits.memory),
            policy: settings
                .timeouts
                .map(|p| (p.floor.as_micros(), p.confirmations)),
            shrink: settings.shrink,
            give_up: settings.give_up,
            perf: settings
                .perf
                .as_ref()
                .map(|p| (words(&p.reference.command), p.runs, p.scale.to_string())),
            command: words(&entry.candidate.command),
            dir: entry
                .candidate
                .dir
                .as_ref()
                .map(|d| d.to_string_lossy().into_owned()),
        }
    }
}

/// The class split for `--resume`: the results in the journal at `path`
/// whose key and name match a candidate of `entries` (its key in `keys`,
/// by name), and the candidates left to grade.
pub fn resume(
    path: &Path,
    entries: Vec<Entry>,
    keys: &HashMap<String, Key>,
) -> (Vec<(Key, Graded)>, Vec<Entry>) {
    let mut before = read(path);
    let mut kept = Vec::new();
    let mut todo = Vec::new();
    for entry in entries {
        let key = keys.get(&entry.name);
        match before
            .iter()
            .position(|(k, g)| Some(k) == key && g.entry.name == entry.name)
        {
            Some(i) => kept.push(before.swap_remove(i)),
            None => todo.push(entry),
        }
    }
    (kept, todo)
}

/// Starts the journal at `path` anew with the results `kept`.
///
/// # Errors
/// It cannot be written.
pub fn start(path: &Path, kept: &[(Key, Graded)]) -> std::io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    for (k, g) in kept {
        append(path, k, g)?;
    }
    Ok(())
}

/// One line of the journal.
#[derive(Serialize, Deserialize)]
struct Line {
    key: Key,
    graded: Graded,
}

/// The journal beside a report at `report`.
pub fn path_beside(report: &Path) -> PathBuf {
    let mut name = report.file_name().unwrap_or_default().to_os_string();
    name.push(".journal.jsonl");
    report.with_file_name(name)
}

/// Every result in the journal at `path` (none if it is missing); a line
/// that does not parse (one cut short by an interrupt) is passed over.
pub fn read(path: &Path) -> Vec<(Key, Graded)> {
    let Ok(file) = fs::File::open(path) else {
        return Vec::new();
    };
    BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Line>(&line).ok())
        .map(|l| (l.key, l.graded))
        .collect()
}

/// Appends one result.
///
/// # Errors
/// The journal cannot be written.
pub fn append(path: &Path, key: &Key, graded: &Graded) -> std::io::Result<()> {
    let mut text = serde_json::to_string(&Line {
        key: key.clone(),
        graded: graded.clone(),
    })
    .map_err(std::io::Error::other)?;
    text.push('\n');
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}
