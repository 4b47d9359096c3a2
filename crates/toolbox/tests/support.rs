//! Helpers shared by the test modules.

use std::fs;
use std::path::{Path, PathBuf};

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
/// scripts of tests/fixtures).
///
/// The deadline is a guard against a hang, not a measure of speed: tests
/// assert counts, and must pass on a busy machine.
pub fn run_cz(args: &[&str], stdin: &[u8]) -> std::process::Output {
    run_cz_with(args, stdin, &[])
}

/// [`run_cz`] with more variables in its environment.
pub fn run_cz_with(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> std::process::Output {
    run_cz_as(&[], args, stdin, env)
}

/// [`run_cz_with`], `cz` started by the command `wrapper` (its program
/// and arguments, `cz`'s path and arguments appended: `setpriv --reuid
/// ...` to run it as another user), or as it is when `wrapper` is empty.
pub fn run_cz_as(
    wrapper: &[&str],
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
) -> std::process::Output {
    run_cz_within(wrapper, args, stdin, env, 600)
        .unwrap_or_else(|| panic!("cz {args:?} hung: over 600 s"))
}

/// [`run_cz_as`] with a deadline: `None` (and the process killed) when it
/// has not ended within `seconds`. Output is read while it runs, so a large
/// one cannot block it.
pub fn run_cz_within(
    wrapper: &[&str],
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    seconds: u64,
) -> Option<std::process::Output> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::Duration;
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
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(seconds)) {
        Ok(output) => Some(output.unwrap()),
        Err(_) => {
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
            None
        }
    }
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

/// A scratch folder for one test (`cz-NAME-PID` in the temporary folder,
/// or in cargo's: [`Scratch::in_target`]),
/// removed when dropped, so a failing test leaves nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        Scratch::under(&std::env::temp_dir(), name)
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
