//! A grade's journal: each candidate's whole result, one JSON line each,
//! appended as soon as it is graded, beside the reports. `cz grade
//! --resume` takes from it every candidate graded before with the same
//! command, cases, limits and reference, and grades only the others.
//!
//! Each line carries a digest of its entry, HMAC-SHA256 (RFC 2104) keyed
//! with 32 random bytes kept in a file of their own beside the journal
//! (`FILE.journal.key`, readable by its owner only), made anew whenever a
//! journal is started. A line that does not parse (cut short by an
//! interrupt, or junk) or whose digest does not match its entry (edited by
//! hand, corrupted, or written without the key) is reported and its
//! candidate graded again. This is tamper-evidence for the journal alone:
//! whoever can read the key file can sign a line, so the key must stay out
//! of a candidate's reach, as everything of the grader's does once runs are
//! sandboxed; a journal copied elsewhere without its key is never trusted.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::Sha256;

use super::{Entry, GradeSettings, Graded, on_path};
use connectz_check::Case;
use connectz_sandbox::{Isolation, Limits, Sandbox};

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
    /// How its answer is read.
    #[serde(default)]
    pub answer: connectz_check::AnswerReading,
    /// The isolation of its runs.
    #[serde(default)]
    pub isolation: String,
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
    pub fn of(
        entry: &Entry,
        settings: &GradeSettings,
        limits: Limits,
        isolation: &Isolation,
        corpus: u64,
    ) -> Key {
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
            answer: entry.candidate.answer.clone(),
            isolation: isolation.describe(),
        }
    }
}

/// The class split for `--resume`: the results in the journal at `path`
/// whose key and name match a candidate of `entries` (its key in `keys`,
/// by name), the candidates left to grade, and the journal's lines that
/// were not taken for want of a matching digest ([`read`]). A candidate
/// named by such a line is graded again even if another line holds it.
pub fn resume(
    path: &Path,
    entries: Vec<Entry>,
    keys: &HashMap<String, Key>,
) -> (Vec<(Key, Graded)>, Vec<Entry>, Vec<Refused>) {
    let (mut before, refused) = read(path);
    let mut kept = Vec::new();
    let mut todo = Vec::new();
    for entry in entries {
        let key = keys.get(&entry.name);
        let doubted = refused
            .iter()
            .any(|r| r.candidate.as_deref() == Some(entry.name.as_str()));
        match before
            .iter()
            .position(|(k, g)| Some(k) == key && g.entry.name == entry.name)
        {
            Some(i) if !doubted => kept.push(before.swap_remove(i)),
            _ => todo.push(entry),
        }
    }
    (kept, todo, refused)
}

/// The journal of a grade, opened ([`open`]): the candidates taken from
/// it, those left to grade, its lines refused, and the journal started
/// anew, to which each new result is recorded.
#[derive(Debug)]
pub struct Opened {
    /// The candidates taken, graded before under the same key.
    pub resumed: Vec<Graded>,
    /// The candidates left to grade.
    pub todo: Vec<Entry>,
    /// The lines not taken.
    pub refused: Vec<Refused>,
    /// The journal, started anew with the results taken.
    pub journal: Journal,
    /// Each candidate's key, by name.
    keys: HashMap<String, Key>,
}

impl Opened {
    /// Appends `graded`'s result, under its key, to the journal.
    ///
    /// # Errors
    /// The journal cannot be written.
    pub fn record(&self, graded: &Graded) -> std::io::Result<()> {
        match self.keys.get(&graded.entry.name) {
            Some(key) => self.journal.append(key, graded),
            None => Ok(()),
        }
    }
}

/// Opens the journal at `path` for `entries` graded with `settings` in
/// `sandbox` on the corpus of [`digest`] `corpus`: with `resume`, takes
/// from it every candidate graded before under the same key ([`resume`]);
/// then starts it anew with those ([`start`]), under a new key.
///
/// # Errors
/// The journal or its key cannot be written, or no random bytes can be
/// read; the error names the journal.
pub fn open(
    path: &Path,
    entries: Vec<Entry>,
    settings: &GradeSettings,
    sandbox: &Sandbox,
    corpus: u64,
    resume: bool,
) -> std::io::Result<Opened> {
    let keys: HashMap<String, Key> = entries
        .iter()
        .map(|e| {
            let key = Key::of(e, settings, sandbox.limits(), sandbox.isolation(), corpus);
            (e.name.clone(), key)
        })
        .collect();
    let (kept, todo, refused) = if resume {
        self::resume(path, entries, &keys)
    } else {
        (Vec::new(), entries, Vec::new())
    };
    let journal = start(path, &kept).map_err(on_path(path))?;
    Ok(Opened {
        resumed: kept.into_iter().map(|(_, g)| g).collect(),
        todo,
        refused,
        journal,
        keys,
    })
}

/// A journal being written: its path and the key its lines are signed
/// with.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    key: [u8; KEY_BYTES],
}

/// Bytes of a journal's key.
const KEY_BYTES: usize = 32;

/// Starts the journal at `path` anew, under a new key (written to
/// [`key_path`] first), with the results `kept`.
///
/// # Errors
/// The key or the journal cannot be written, or no random bytes can be
/// read.
pub fn start(path: &Path, kept: &[(Key, Graded)]) -> std::io::Result<Journal> {
    let mut key = [0; KEY_BYTES];
    fs::File::open("/dev/urandom")?.read_exact(&mut key)?;
    write_key(&key_path(path), &key)?;
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let journal = Journal {
        path: path.to_path_buf(),
        key,
    };
    for (k, g) in kept {
        journal.append(k, g)?;
    }
    Ok(journal)
}

/// Writes the key, readable and writable by its owner only, whole: to a
/// file beside it, then renamed over it, never through a link.
fn write_key(path: &Path, key: &[u8; KEY_BYTES]) -> std::io::Result<()> {
    connectz_sandbox::files::write_whole(path, format!("{}\n", hex(key)).as_bytes(), 0o600)
}

/// The key of the journal at `path`, if its file holds one.
fn read_key(path: &Path) -> Option<[u8; KEY_BYTES]> {
    let text = fs::read_to_string(key_path(path)).ok()?;
    unhex(text.trim_end())?.try_into().ok()
}

/// The file of the key of the journal at `path`: `FILE.journal.key` beside
/// `FILE.journal.jsonl`.
pub fn key_path(path: &Path) -> PathBuf {
    path.with_extension("key")
}

/// One line of the journal: an entry and its digest.
#[derive(Serialize)]
struct Signed<'a> {
    hmac: String,
    entry: &'a RawValue,
}

/// One line as read, not yet trusted.
#[derive(Deserialize)]
struct Unsigned<'a> {
    hmac: String,
    #[serde(borrow)]
    entry: &'a RawValue,
}

/// One entry of the journal.
#[derive(Serialize, Deserialize)]
struct Line {
    key: Key,
    graded: Graded,
}

/// HMAC-SHA256 of `bytes` under `key`.
fn mac(key: &[u8], bytes: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length: this never fails.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(bytes);
    mac
}

/// Lowercase hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of lowercase or uppercase hexadecimal, if it is that.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// The journal beside a report at `report`.
pub fn path_beside(report: &Path) -> PathBuf {
    let mut name = report.file_name().unwrap_or_default().to_os_string();
    name.push(".journal.jsonl");
    report.with_file_name(name)
}

/// A line of the journal not taken: where, why, and the candidate it
/// names, when it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Its line number, from 1.
    pub line: usize,
    /// Why, in a few words.
    pub why: &'static str,
    /// The candidate's name as the line gives it (not to be trusted).
    pub candidate: Option<String>,
}

/// Every result in the journal at `path` whose digest matches under the
/// journal's key (none if it is missing), and the lines refused: those
/// that do not parse (one cut short by an interrupt, junk), whose digest
/// does not match (edited, corrupted, or written under another key), or
/// every line when the key is missing.
pub fn read(path: &Path) -> (Vec<(Key, Graded)>, Vec<Refused>) {
    let Ok(file) = fs::File::open(path) else {
        return (Vec::new(), Vec::new());
    };
    let key = read_key(path);
    let mut taken = Vec::new();
    let mut refused = Vec::new();
    for (i, text) in BufReader::new(file).split(b'\n').enumerate() {
        let Ok(text) = text else { break };
        let line = i + 1;
        let why = match (serde_json::from_slice::<Unsigned>(&text), &key) {
            (Err(_), _) => "not an entry of the journal (cut short, or not written by cz grade)",
            (Ok(_), None) => "its journal's key is missing",
            (Ok(u), Some(key)) => {
                let digest = unhex(&u.hmac);
                let entry = u.entry.get().as_bytes();
                match digest {
                    Some(d) if mac(key, entry).verify_slice(&d).is_ok() => {
                        match serde_json::from_slice::<Line>(entry) {
                            Ok(l) => {
                                taken.push((l.key, l.graded));
                                continue;
                            }
                            Err(_) => "its entry does not parse",
                        }
                    }
                    _ => "its digest does not match its entry (edited, or not written by cz grade)",
                }
            }
        };
        refused.push(Refused {
            line,
            why,
            candidate: named(&text),
        });
    }
    (taken, refused)
}

/// The candidate a line names, read without trusting it.
fn named(text: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(text).ok()?;
    let name = value.pointer("/entry/graded/entry/name")?.as_str()?;
    Some(name.to_string())
}

impl Journal {
    /// Appends one result, with its digest.
    ///
    /// # Errors
    /// The journal cannot be written.
    pub fn append(&self, key: &Key, graded: &Graded) -> std::io::Result<()> {
        let entry = serde_json::to_string(&Line {
            key: key.clone(),
            graded: graded.clone(),
        })
        .map_err(std::io::Error::other)?;
        let entry = RawValue::from_string(entry).map_err(std::io::Error::other)?;
        let hmac = hex(&mac(&self.key, entry.get().as_bytes())
            .finalize()
            .into_bytes());
        let mut text = serde_json::to_string(&Signed {
            hmac,
            entry: &entry,
        })
        .map_err(std::io::Error::other)?;
        text.push('\n');
        // Never through a link planted where the journal is.
        let mut file = connectz_sandbox::files::append_to(&self.path)?;
        file.write_all(text.as_bytes())
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HMAC-SHA256 as RFC 4231 gives it (test cases 1 and 2).
    #[test]
    fn the_digest_is_hmac_sha256() {
        let one = mac(&[0x0b; 20], b"Hi There").finalize().into_bytes();
        assert_eq!(
            hex(&one),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        let two = mac(b"Jefe", b"what do ya want for nothing?")
            .finalize()
            .into_bytes();
        assert_eq!(
            hex(&two),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(unhex("00ff0A"), Some(vec![0, 255, 10]));
        assert_eq!(unhex("0"), None);
        assert_eq!(unhex("zz"), None);
    }
}
