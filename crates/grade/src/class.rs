//! The class to grade: a manifest's candidates, or one per path with
//! `--each`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use connectz_check::{AnswerReading, Candidate, env_entry, path_entry, shown};

use crate::on_path;

/// One candidate of a class: its name and how to run it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// Its name in the reports.
    pub name: String,
    /// Its command and folder.
    pub candidate: Candidate,
}

/// A manifest: `[[candidate]]` tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    candidate: Vec<ManifestEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestEntry {
    name: String,
    command: Vec<String>,
    dir: Option<PathBuf>,
    answer: Option<ManifestAnswer>,
    /// Variables beyond the box's own: `NAME` (the grader's) or
    /// `NAME=value`.
    #[serde(default)]
    env: Vec<String>,
    /// Paths the box is given read-only, from the manifest's folder, or
    /// `$NAME` for a variable of the grader's.
    #[serde(default)]
    paths: Vec<String>,
}

/// `answer = "last-line"`, or a table of messages and their codes.
#[derive(Deserialize)]
#[serde(untagged)]
enum ManifestAnswer {
    Form(String),
    Messages(BTreeMap<String, u8>),
}

impl ManifestAnswer {
    fn read(self) -> std::result::Result<AnswerReading, String> {
        match self {
            ManifestAnswer::Form(form) => match form.as_str() {
                "whole" => Ok(AnswerReading::Whole),
                "last-line" => Ok(AnswerReading::LastLine),
                other => Err(format!(
                    "answer {other:?}: give \"whole\", \"last-line\" or a table of messages and their codes"
                )),
            },
            ManifestAnswer::Messages(table) => {
                if let Some((message, code)) = table.iter().find(|(_, c)| **c > 9) {
                    return Err(format!("answer: {message:?} = {code}: a code is 0 to 9"));
                }
                if table.is_empty() {
                    return Err("answer: the table of messages is empty".into());
                }
                Ok(AnswerReading::Messages(table.into_iter().collect()))
            }
        }
    }
}

/// A fault of the class asked for (a manifest, `--each`): said in its own
/// words.
fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, what)
}

/// The most a manifest may hold, in bytes.
const MANIFEST_LIMIT: u64 = 1 << 20;

/// The candidates of a manifest file: one `[[candidate]]` table each, with
/// `name`, `command` (program and arguments; the game file's path is
/// appended) and an optional `dir` to run in, relative to the manifest's
/// folder.
///
/// # Errors
/// The file cannot be read or parsed, holds no candidate, two with one
/// name, an empty name or command, a `dir` that is not a folder, is
/// named through a link or lies in a folder of the kernel's (`/dev/shm`),
/// or a path of `paths` named through one or lying in one.
pub fn manifest(path: &Path) -> io::Result<Vec<Entry>> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MANIFEST_LIMIT + 1).read_to_string(&mut text))
        .map_err(on_path(path))?;
    if text.len() as u64 > MANIFEST_LIMIT {
        return Err(invalid(format!(
            "{}: a manifest is at most 1 MiB",
            path.display()
        )));
    }
    let manifest: Manifest =
        toml::from_str(&text).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let entries = manifest
        .candidate
        .into_iter()
        .map(|m| {
            if let Some((link, to)) = m
                .dir
                .as_deref()
                .and_then(|d| connectz_sandbox::program::named_link(base, Path::new(d)))
            {
                return Err(invalid(format!(
                    "{}: candidate \"{}\": dir goes through a link, {} -> {} (what a link in a class leads to is a candidate's choice of what its box sees: name the folder itself)",
                    shown(path.as_os_str().as_encoded_bytes()),
                    shown(&m.name),
                    shown(link.as_os_str().as_encoded_bytes()),
                    shown(to.as_os_str().as_encoded_bytes())
                )));
            }
            let dir = m.dir.map(|d| tidy(&base.join(d)));
            if let Some(dir) = &dir
                && !dir.is_dir()
            {
                return Err(invalid(format!(
                    "{}: candidate \"{}\": {} is not a folder",
                    shown(path.as_os_str().as_encoded_bytes()),
                    shown(&m.name),
                    shown(dir.as_os_str().as_encoded_bytes())
                )));
            }
            if let Some(kernel) = dir
                .as_deref()
                .and_then(|d| std::path::absolute(d).ok())
                .and_then(|d| connectz_sandbox::program::in_kernel(&d))
            {
                return Err(invalid(format!(
                    "{}: candidate \"{}\": dir lies in {kernel}, which a box has its own of, never the machine's (move the folder)",
                    shown(path.as_os_str().as_encoded_bytes()),
                    shown(&m.name),
                )));
            }
            let answer = match m.answer {
                None => AnswerReading::Whole,
                Some(a) => a.read().map_err(|e| {
                    invalid(format!("{}: candidate {:?}: {e}", path.display(), m.name))
                })?,
            };
            let within =
                |e: String| invalid(format!("{}: candidate {:?}: {e}", path.display(), m.name));
            let env = m
                .env
                .iter()
                .map(|e| env_entry(e).map_err(within))
                .collect::<io::Result<Vec<_>>>()?;
            let paths = m
                .paths
                .iter()
                .map(|p| path_entry(p, base).map_err(within))
                .collect::<io::Result<Vec<_>>>()?;
            Ok(Entry {
                name: m.name,
                candidate: Candidate {
                    command: m.command.into_iter().map(OsString::from).collect(),
                    dir,
                    answer,
                    env,
                    paths,
                },
            })
        })
        .collect::<io::Result<Vec<_>>>()?;
    validate(entries).map_err(|e| invalid(format!("{}: {e}", path.display())))
}

/// `path` without its `.` components (`a/./b` is `a/b`; `.` alone stays).
pub(super) fn tidy(path: &Path) -> PathBuf {
    let tidy: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if tidy.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        tidy
    }
}

/// One candidate per path: `template`'s words, `{}` replaced by the path in
/// each, named after the path's last component (the whole path when two
/// share one). Words are split at spaces; a path may hold spaces.
///
/// # Errors
/// No path, a template without `{}`, or an empty one.
pub fn each(template: &str, paths: &[PathBuf]) -> io::Result<Vec<Entry>> {
    if !template.contains("{}") {
        return Err(invalid(format!(
            "--each \"{}\": the template has no {{}} to put the path in",
            shown(template)
        )));
    }
    if paths.is_empty() {
        return Err(invalid(
            "--each needs at least one path after the template".into(),
        ));
    }
    let short = |p: &Path| -> String {
        p.components().next_back().map_or_else(
            || p.display().to_string(),
            |c| c.as_os_str().to_string_lossy().into_owned(),
        )
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for path in paths {
        *seen.entry(short(path)).or_default() += 1;
    }
    let entries = paths
        .iter()
        .map(|path| {
            let text = path.to_string_lossy();
            let text = text
                .strip_suffix('/')
                .filter(|t| !t.is_empty())
                .unwrap_or(&text);
            let name = short(path);
            Entry {
                name: if seen[&name] > 1 {
                    text.to_string()
                } else {
                    name
                },
                candidate: Candidate::new(
                    template
                        .split_whitespace()
                        .map(|word| OsString::from(word.replace("{}", text)))
                        .collect(),
                ),
            }
        })
        .collect();
    validate(entries)
}

/// At least one candidate, names non-empty and unique, commands non-empty.
pub(super) fn validate(entries: Vec<Entry>) -> io::Result<Vec<Entry>> {
    if entries.is_empty() {
        return Err(invalid("no candidate to grade".into()));
    }
    let mut names = std::collections::BTreeSet::new();
    for e in &entries {
        if e.name.trim().is_empty() {
            return Err(invalid("a candidate has an empty name".into()));
        }
        if !names.insert(e.name.as_str()) {
            return Err(invalid(format!(
                "two candidates are named \"{}\"",
                shown(&e.name)
            )));
        }
        if e.candidate.command.first().is_none_or(|p| p.is_empty()) {
            return Err(invalid(format!(
                "candidate \"{}\" has no command",
                shown(&e.name)
            )));
        }
    }
    Ok(entries)
}
