//! Helpers shared by the test modules of both tiers (`main.rs`, the fast
//! tier, and `slow.rs`): each binary uses a part of them.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The repository root (the top of the workspace).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The reference `connectz` binary, built beside `cz` by `cargo test` at
/// the top of the workspace.
pub fn connectz_binary() -> PathBuf {
    let path = std::path::Path::new(env!("CARGO_BIN_EXE_cz")).with_file_name("connectz");
    assert!(
        path.exists(),
        "{} is missing: run the tests from the top of the workspace (cargo test)",
        path.display()
    );
    path
}

/// Runs `cz` from the repository root with `stdin` as its input, without
/// colour, with `$CONNECTZ` naming the reference binary (for the candidate
/// scripts of the fixtures), and waits for it: no deadline, since tests
/// assert counts, never clocks. A test that hangs is the runner's to end
/// (CI's nextest profile ends a test after 20 minutes; libtest says when a
/// test has run for over a minute).
pub fn run_cz(args: &[&str], stdin: &[u8]) -> Output {
    run_cz_with(args, stdin, &[])
}

/// [`run_cz`] with more variables in its environment.
pub fn run_cz_with(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    run_cz_as(&[], args, stdin, env)
}

/// [`run_cz_with`], `cz` started by the command `wrapper` (its program
/// and arguments, `cz`'s path and arguments appended: `setpriv --reuid
/// ...` to run it as another user), or as it is when `wrapper` is empty.
/// Output is read while it runs, so a large one cannot block it.
pub fn run_cz_as(wrapper: &[&str], args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let cz = env!("CARGO_BIN_EXE_cz");
    let mut command = match wrapper.split_first() {
        Some((program, words)) => {
            let mut c = Command::new(program);
            c.args(words).arg(cz);
            c
        }
        None => Command::new(cz),
    };
    let mut child = command
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("CONNECTZ", connectz_binary())
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // A command that does not read its input may close it first.
    std::thread::spawn(move || {
        let mut input = input;
        let _ = input.write_all(&stdin);
    });
    child.wait_with_output().unwrap()
}

/// Processes whose command line holds `marker`, zombies included.
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let path = entry.path();
        if let Ok(cmdline) = std::fs::read(path.join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
            if text.contains(marker) || stat.contains(marker) {
                found.push(format!("{}: {text}", path.display()));
            }
        }
    }
    found
}

/// A number of seconds to sleep that no other process on the machine uses:
/// what the tests look for among running processes (`k` tells apart the
/// markers of one test run).
pub fn marker(k: u32) -> String {
    format!("{}{k}", 900_000 + std::process::id() % 100_000)
}

/// Copies the folder `from` to `to`, modes kept, Python's caches left out.
pub fn copy_folder(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let (path, name) = (entry.path(), entry.file_name());
        if path.is_dir() {
            if name != "__pycache__" {
                copy_folder(&path, &to.join(name));
            }
        } else {
            fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// A scratch folder for one test (`cz-NAME-PID` in the temporary folder,
/// or in cargo's: [`Scratch::in_target`]),
/// removed when dropped, so a failing test leaves nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        Scratch::under(&std::env::temp_dir(), name)
    }

    /// A scratch folder in `/tmp` itself, whatever `TMPDIR` says: where a
    /// box's fresh `/tmp` covers it.
    pub fn in_tmp(name: &str) -> Scratch {
        Scratch::under(Path::new("/tmp"), name)
    }

    /// A scratch folder in cargo's temporary folder for tests
    /// (`target/tmp`): outside /tmp, which a box replaces with a fresh one,
    /// so it stands where a class or a grader's home would (in a box that
    /// shows the whole filesystem, in sight).
    pub fn in_target(name: &str) -> Scratch {
        Scratch::under(Path::new(env!("CARGO_TARGET_TMPDIR")), name)
    }

    fn under(base: &Path, name: &str) -> Scratch {
        let dir = base.join(format!("cz-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub fn str(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A frame small enough to solve at once: 5 x 4, lines of 3 (the side that
/// moves first wins).
pub const FRAME_5X4_3: [&str; 6] = ["--width", "5", "--height", "4", "--connect", "3"];

/// The shipped corpus's size and how many of its cases are incomplete
/// games (code 3): what a candidate that always prints 3 passes.
pub fn corpus_and_threes() -> (usize, usize) {
    let corpus = connectz_check::corpus();
    let threes = corpus
        .iter()
        .filter(|case| case.expect == connectz::Code::Incomplete)
        .count();
    (corpus.len(), threes)
}

/// `cz` with these arguments and no input ([`run_cz`]).
pub fn cz(args: &[&str]) -> Output {
    run_cz(args, b"")
}

/// `cz check` with these arguments (options, `--`, the candidate's
/// command), given `$CONNECTZ` (`--env CONNECTZ --path '$CONNECTZ'`), as
/// the fixture scripts that run the reference need, and no input.
pub fn check(args: &[&str]) -> Output {
    let given = ["check", "--env", "CONNECTZ", "--path", "$CONNECTZ"];
    run_cz(&[&given[..], args].concat(), b"")
}

/// A run's standard output, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The folder of the candidates, classes and data these tests run.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A manifest of shell candidates: (name, script below [`fixtures`]).
pub fn manifest(at: &Path, candidates: &[(&str, &str)]) {
    let fixtures = fixtures();
    let mut text = String::new();
    for (name, script) in candidates {
        text.push_str(&format!(
            "[[candidate]]\nname = \"{name}\"\ncommand = [\"sh\", \"{script}\"]\ndir = \"{}\"\nenv = [\"CONNECTZ\"]\npaths = [\"$CONNECTZ\"]\n\n",
            fixtures.display()
        ));
    }
    fs::write(at, text).unwrap();
}

/// Grades the shell candidates `candidates` (as [`manifest`] names them)
/// with `cases` generated games and the options `extra`, the reports
/// written into `scratch` as r.json, r.xml and r.html.
pub fn grade_in_four_forms(
    scratch: &Scratch,
    candidates: &[(&str, &str)],
    cases: &str,
    extra: &[&str],
) -> Output {
    let toml = scratch.path("class.toml");
    manifest(&toml, candidates);
    run_cz(
        &[
            "grade",
            toml.to_str().unwrap(),
            "--cases",
            cases,
            "--json",
            &scratch.str("r.json"),
            "--junit",
            &scratch.str("r.xml"),
            "--html",
            &scratch.str("r.html"),
        ]
        .into_iter()
        .chain(extra.iter().copied())
        .collect::<Vec<_>>(),
        b"",
    )
}

/// The JSON file at `path`.
pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}
