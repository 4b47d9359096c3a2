//! Runs of a Python candidate without paying the interpreter's start-up
//! each time. A candidate run as `python SCRIPT FILE` spends most of a run
//! starting the interpreter (50 to 150 ms, where judging a small game takes
//! a millisecond), and a class is hundreds of runs per candidate. So, for
//! such a candidate, the sandbox starts one interpreter per job running
//! `forkserver.py` (under the supervisor and its limits, like any run),
//! and each run is a fork of it that runs SCRIPT as `__main__` with
//! `sys.argv = [SCRIPT, FILE]`, in a process group of its own, standard
//! input from /dev/null and its output to files, as a fresh interpreter
//! would. A run that ends, or is killed at its time limit, has its group
//! and every process it left behind killed and reaped by the server (their
//! subreaper); the server's supervisor kills whatever is left when the
//! server ends.
//!
//! A fork of a warmed interpreter is not a fresh one in every respect (the
//! modules the server imported are already loaded), so `cz check` holds
//! the server to fresh runs: see `check::faithful`.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::{Ended, Execution, INTERRUPTED, LIVE_GROUPS, Limits, SUPERVISE, read_capped};

/// The server's program, written to the scratch folder.
const SCRIPT: &str = include_str!("forkserver.py");

/// How long the server may take to answer anything but the end of a run.
const ANSWER: Duration = Duration::from_secs(10);

/// A candidate: its folder and command.
pub(super) type Key = (Option<PathBuf>, Vec<OsString>);

/// True when `command` runs a Python script, `python SCRIPT` (or
/// `python3`, `python3.12`, a path to one of them), and SCRIPT, a `.py`
/// file, exists.
pub fn is_python_script(dir: Option<&Path>, command: &[OsString]) -> bool {
    let [program, script] = command else {
        return false;
    };
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let python = name.strip_prefix("python").is_some_and(|version| {
        version.is_empty()
            || version
                .split('.')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
    });
    let script_path = Path::new(script);
    let script_ok = script_path.extension().is_some_and(|e| e == "py")
        && !script.to_string_lossy().starts_with('-')
        && dir
            .map_or(script_path.to_path_buf(), |d| d.join(script_path))
            .is_file();
    python && script_ok
}

/// One running server.
pub(super) struct Server {
    supervisor: Child,
    requests: ChildStdin,
    replies: mpsc::Receiver<String>,
    group: i32,
    files: [PathBuf; 2],
}

/// Servers not in use, by candidate; and the candidates that must not use
/// one.
#[derive(Default)]
pub(super) struct Servers {
    idle: Mutex<HashMap<Key, Vec<Server>>>,
    fresh: Mutex<Vec<Key>>,
}

impl std::fmt::Debug for Servers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Servers")
    }
}

impl Servers {
    /// An idle server for `key`, if there is one.
    pub(super) fn take(&self, key: &Key) -> Option<Server> {
        self.idle.lock().ok()?.get_mut(key)?.pop()
    }

    /// Puts a server back, idle.
    pub(super) fn put(&self, key: Key, server: Server) {
        match self.idle.lock() {
            Ok(mut idle) => idle.entry(key).or_default().push(server),
            Err(_) => server.stop(),
        }
    }

    /// Stops every server of `key`.
    pub(super) fn stop(&self, key: &Key) {
        let servers = self
            .idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.remove(key))
            .unwrap_or_default();
        for server in servers {
            server.stop();
        }
    }

    /// Stops every server.
    pub(super) fn stop_all(&self) {
        let all: Vec<Server> = self
            .idle
            .lock()
            .map(|mut idle| idle.drain().flat_map(|(_, s)| s).collect())
            .unwrap_or_default();
        for server in all {
            server.stop();
        }
    }

    /// Whether `key` must be run fresh.
    pub(super) fn is_fresh(&self, key: &Key) -> bool {
        self.fresh.lock().is_ok_and(|f| f.contains(key))
    }

    /// From now on, `key` is run fresh.
    pub(super) fn make_fresh(&self, key: &Key) {
        if let Ok(mut fresh) = self.fresh.lock()
            && !fresh.contains(key)
        {
            fresh.push(key.clone());
        }
        self.stop(key);
    }
}

impl Server {
    /// Starts a server for `key` under the supervisor `supervisor`, with
    /// `limits` (its time limit is a day: it is stopped when done).
    pub(super) fn start(
        supervisor: &Path,
        scratch: &Path,
        n: u64,
        key: &Key,
        limits: Limits,
    ) -> Option<Server> {
        let (dir, command) = key;
        let script = scratch.join("forkserver.py");
        if !script.exists() {
            fs::write(&script, SCRIPT).ok()?;
        }
        let err = scratch.join(format!("server-{n}.err"));
        let report = scratch.join(format!("server-{n}.report"));
        let mut cmd = Command::new(supervisor);
        cmd.arg(SUPERVISE)
            .arg(Duration::from_secs(86_400).as_micros().to_string())
            .arg(limits.memory.to_string())
            .arg(limits.output.to_string())
            .arg("-")
            .arg(&err)
            .arg(&report)
            .arg(&command[0])
            .arg(&script)
            .arg(&command[1])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        let mut supervisor = cmd.spawn().ok()?;
        let group = supervisor.id() as i32;
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.push(group);
        }
        let requests = supervisor.stdin.take()?;
        let stdout = supervisor.stdout.take()?;
        let (tx, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Some(Server {
            supervisor,
            requests,
            replies,
            group,
            files: [err, report],
        })
    }

    /// Runs the script on `file` within `timeout`, its output to `out` and
    /// `err`; `None` when the server failed (then stop it).
    pub(super) fn run(
        &mut self,
        file: &Path,
        out: &Path,
        err: &Path,
        timeout: Duration,
        limits: Limits,
    ) -> Option<Execution> {
        let paths = [file, out, err].map(|p| p.to_str().map(str::to_owned));
        let [Some(file), Some(out_s), Some(err_s)] = paths else {
            return None;
        };
        if [&file, &out_s, &err_s]
            .iter()
            .any(|p| p.contains(['\t', '\n']))
        {
            return None;
        }
        writeln!(self.requests, "{file}\t{out_s}\t{err_s}").ok()?;
        self.requests.flush().ok()?;
        let pid: i32 = self.replies.recv_timeout(ANSWER).ok()?.parse().ok()?;
        let start = Instant::now();
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.push(pid);
        }
        let (reply, timed_out) = match self.replies.recv_timeout(timeout) {
            Ok(reply) => (Some(reply), false),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
                (self.replies.recv_timeout(ANSWER).ok(), true)
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => (None, false),
        };
        let elapsed = start
            .elapsed()
            .min(if timed_out { timeout } else { Duration::MAX });
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.retain(|&g| g != pid);
        }
        let reply = reply?;
        let mut fields = reply.split(' ').map(|f| f.parse::<i64>());
        let (Some(Ok(status)), Some(Ok(peak_kb))) = (fields.next(), fields.next()) else {
            return None;
        };
        let ended = if timed_out {
            Ended::TimedOut
        } else if status & 0x7f == 0 {
            Ended::Exited(((status >> 8) & 0xff) as i32)
        } else {
            Ended::Signalled((status & 0x7f) as i32)
        };
        let stdout = read_capped(out, limits.output);
        let stderr = read_capped(err, limits.output);
        let peak_memory = Some(peak_kb.max(0) as u64 * 1024);
        Some(Execution {
            memory_exceeded: super::out_of_memory(&ended, &stderr, peak_memory, limits),
            ended,
            stdout,
            stderr,
            elapsed,
            peak_memory,
        })
    }

    /// Ends the server: closes its requests, waits a moment for it to
    /// exit, then kills its supervisor's group (the supervisor kills what
    /// is left).
    pub(super) fn stop(self) {
        let Server {
            mut supervisor,
            requests,
            group,
            files,
            ..
        } = self;
        drop(requests);
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = supervisor.try_wait() {
                break;
            }
            if INTERRUPTED.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if !matches!(supervisor.try_wait(), Ok(Some(_))) {
            let _ = killpg(Pid::from_raw(group), Signal::SIGTERM);
            let _ = supervisor.wait();
        }
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.retain(|&g| g != group);
        }
        for file in files {
            let _ = fs::remove_file(file);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn python_scripts_are_told_apart() {
        let dir = std::env::temp_dir().join(format!("cz-fs-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("c.py"), "print(1)\n").unwrap();
        let d = Some(dir.as_path());
        assert!(is_python_script(d, &os(&["python3", "c.py"])));
        assert!(is_python_script(d, &os(&["python", "c.py"])));
        assert!(is_python_script(d, &os(&["/usr/bin/python3.11", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3", "missing.py"])));
        assert!(!is_python_script(d, &os(&["python3", "-u", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3"])));
        assert!(!is_python_script(d, &os(&["pythonw", "c.py"])));
        assert!(!is_python_script(d, &os(&["sh", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3.", "c.py"])));
        fs::remove_dir_all(&dir).unwrap();
    }
}
