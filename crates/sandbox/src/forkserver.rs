//! Runs of a Python candidate without paying the interpreter's start-up
//! each time. A candidate run as `python SCRIPT FILE` spends most of a run
//! starting the interpreter (50 to 150 ms, where judging a small game takes
//! a millisecond), and a class is hundreds of runs per candidate. So, for
//! such a candidate, the sandbox starts one interpreter per job running
//! `forkserver.py`, under the supervisor and its limits and in a box of its
//! own like any run, and each run is a fork of it that runs SCRIPT as
//! `__main__` with `sys.argv = [SCRIPT, FILE]`, in a process group of its
//! own, standard input from /dev/null, no other descriptor but its output
//! and error, as a fresh interpreter would. The server holds each run to
//! its time as the supervisor does (the CPU time of every process it ran,
//! orphans too, and its own time), and after it kills the run's group and
//! every process it left behind (their subreaper), and empties the box's
//! /tmp, /var/tmp and /dev/shm for the next run (its /dev is read-only, and
//! the box's system-call filter refuses System V and message-queue IPC:
//! nothing is carried from one case to the next). As root, a case during
//! which the kernel ended a process of the box for memory (its memory
//! group's count of OOM kills grew) is a memory breach. The server's
//! script and the game files are in the box's inbox, read-only; the server
//! cannot be traced by its runs (it is not dumpable, and the filter refuses
//! `ptrace`). A run that ends its server ends the box; its case is run
//! again fresh, and so are the candidate's cases from then on, and the
//! report says why ([`Sandbox::fresh_reason`](super::Sandbox::fresh_reason)).
//!
//! A fork of a warmed interpreter is not a fresh one in every respect (the
//! modules the server imported are already loaded), so `cz check` holds
//! the server to fresh runs: see `faithful` in `connectz-check`.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::{
    Ended, Execution, INBOX, INTERRUPTED, Isolation, LIVE_GROUPS, Limits, Program, Sandbox,
    backstop,
};

/// True when the interpreter `word` names, run in `dir`, is the grader's:
/// found on the grader's `PATH` by a bare name, or a file whose real path
/// (its links followed) lies in the system's folders (a venv's `python3`,
/// a link to the system's). A fork server measures its runs itself, so a
/// candidate's own program named `python3` must not be one: it could
/// report any time it likes. Its cases run fresh, each measured by the
/// supervisor.
pub fn trusted_python(dir: &Path, word: &OsStr) -> bool {
    use super::program::{in_system, on_path};
    if !word.as_encoded_bytes().contains(&b'/') {
        return on_path(word).is_some();
    }
    dir.join(word)
        .canonicalize()
        .is_ok_and(|real| in_system(&real))
}

/// The server's program, written to its box's inbox.
const SCRIPT: &str = include_str!("forkserver.py");

/// How long the server may take to answer anything but the end of a run.
const ANSWER: Duration = Duration::from_secs(10);

/// A candidate's program.
pub(super) type ServerKey = Program;

/// True when `command` runs a Python script, `python SCRIPT` (or
/// `python3`, `python3.12`, a path to one of them), SCRIPT, a `.py` file,
/// exists, and the Python is one the grader can trust to hold its runs to
/// their limits ([`trusted_python`]).
pub fn is_python_script(dir: Option<&Path>, command: &[OsString]) -> bool {
    let [program, script] = command else {
        return false;
    };
    let python = super::program::is_python(program)
        && trusted_python(dir.unwrap_or(Path::new(".")), program);
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
    replies: mpsc::Receiver<Reply>,
    group: i32,
    /// Its supervisor's error output and report.
    files: [PathBuf; 2],
    /// The folder it sees as its inbox, and whether it is in a box.
    inbox: PathBuf,
    boxed: bool,
    /// The memory group of its box, once its supervisor has named it (as
    /// root): a case during which the kernel ended a process of the box
    /// for memory is a memory breach.
    memory_group: Option<PathBuf>,
}

/// What a server says.
enum Reply {
    /// A run started.
    Started,
    /// It ended: its raw wait status, peak resident memory in KiB, CPU and
    /// wall-clock time in microseconds, whether its time ran out, what it
    /// wrote, and whether the box's fresh places could not be made fresh
    /// again after it.
    Ended {
        status: i64,
        peak_kb: u64,
        cpu_us: u64,
        elapsed_us: u64,
        timed_out: bool,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
        unclean: bool,
    },
}

/// Servers not in use, by candidate; and the candidates that must not use
/// one, and why.
#[derive(Default)]
pub(super) struct Servers {
    idle: Mutex<HashMap<ServerKey, Vec<Server>>>,
    fresh: Mutex<Vec<(ServerKey, String)>>,
}

impl std::fmt::Debug for Servers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Servers")
    }
}

impl Servers {
    /// An idle server for `key`, if there is one.
    pub(super) fn take(&self, key: &ServerKey) -> Option<Server> {
        self.idle.lock().ok()?.get_mut(key)?.pop()
    }

    /// Puts a server back, idle.
    pub(super) fn put(&self, key: ServerKey, server: Server) {
        match self.idle.lock() {
            Ok(mut idle) => idle.entry(key).or_default().push(server),
            Err(_) => server.stop(),
        }
    }

    /// Stops every server of `key`.
    pub(super) fn stop(&self, key: &ServerKey) {
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
    pub(super) fn is_fresh(&self, key: &ServerKey) -> bool {
        self.fresh_reason(key).is_some()
    }

    /// Why `key` must be run fresh, if it must.
    pub(super) fn fresh_reason(&self, key: &ServerKey) -> Option<String> {
        self.fresh
            .lock()
            .ok()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, why)| why.clone())
    }

    /// From now on, `key` is run fresh, for the reason `why` (the first
    /// reason given is kept).
    pub(super) fn make_fresh(&self, key: &ServerKey, why: &str) {
        if let Ok(mut fresh) = self.fresh.lock()
            && !fresh.iter().any(|(k, _)| k == key)
        {
            fresh.push((key.clone(), why.to_string()));
        }
        self.stop(key);
    }
}

/// Reads the server's replies: a line `PID` when a run starts; a line
/// `STATUS PEAK_KB CPU_US ELAPSED_US TIMED_OUT OUT_LEN ERR_LEN UNCLEAN` and
/// that many bytes of output and error when it ends. Ends at the first reply
/// out of form or past `most` bytes of output.
fn read_replies(stdout: impl Read, most: u64, tx: mpsc::Sender<Reply>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match (&mut reader).take(256).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let fields: Vec<u64> = text
            .split_whitespace()
            .map_while(|f| f.parse().ok())
            .collect();
        let reply = match fields[..] {
            [_pid] => Reply::Started,
            [
                status,
                peak_kb,
                cpu_us,
                elapsed_us,
                timed_out,
                out,
                err,
                unclean,
            ] if out <= most && err <= most => {
                let mut bytes = |n: u64| {
                    let mut b = Vec::new();
                    (&mut reader).take(n).read_to_end(&mut b).ok()?;
                    (b.len() as u64 == n).then_some(b)
                };
                let (Some(stdout), Some(stderr)) = (bytes(out), bytes(err)) else {
                    return;
                };
                Reply::Ended {
                    status: status as i64,
                    peak_kb,
                    cpu_us,
                    elapsed_us,
                    timed_out: timed_out != 0,
                    stdout,
                    stderr,
                    unclean: unclean != 0,
                }
            }
            _ => return,
        };
        if tx.send(reply).is_err() {
            return;
        }
    }
}

impl Server {
    /// Starts a server for `key` in `sandbox` (its inbox a folder `n` of
    /// the scratch folder), under the sandbox's limits but its time (the
    /// server holds each run to its own).
    pub(super) fn start(sandbox: &Sandbox, n: u64, key: &ServerKey) -> Option<Server> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        let (dir, command) = (&key.dir, &key.command);
        let inbox = sandbox.scratch.join(format!("box-{n}"));
        // Readable by others: a box of a user of its own reads it (the
        // scratch folder around it keeps others out).
        fs::DirBuilder::new().mode(0o755).create(&inbox).ok()?;
        let script = inbox.join("forkserver.py");
        fs::write(&script, SCRIPT).ok()?;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o444)).ok()?;
        let boxed = matches!(sandbox.isolation, Isolation::Bubblewrap { .. });
        // Nothing of the candidate's is imported or read before a run is
        // forked (see forkserver.py): -I (no script folder or PYTHONPATH on
        // the server's path), and -S (no site-packages, whose .pth files
        // are code) for a Python named by a path, which may be a venv of
        // the candidate's; a bare name found on the grader's PATH has the
        // grader's site-packages, read once here and not at every run.
        let mut words = vec![command[0].clone(), "-I".into()];
        if command[0].as_encoded_bytes().contains(&b'/') {
            words.push("-S".into());
        }
        if boxed {
            words.push(Path::new(INBOX).join("forkserver.py").into());
            words.push("--box".into());
        } else {
            words.push(script.into());
        }
        words.push(command[1].clone());
        let program = sandbox.program(key, words, Vec::new(), Some(&inbox))?;
        let err = sandbox.scratch.join(format!("server-{n}.err"));
        let report = sandbox.scratch.join(format!("server-{n}.report"));
        let limits = Limits {
            timeout: Duration::ZERO,
            ..sandbox.limits
        };
        let mut cmd = sandbox.supervisor_command(limits, [Path::new("-"), &err, &report], &program);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
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
        let most = sandbox.limits.output;
        std::thread::spawn(move || read_replies(stdout, most, tx));
        Some(Server {
            supervisor,
            requests,
            replies,
            group,
            files: [err, report],
            inbox,
            boxed,
            memory_group: None,
        })
    }

    /// Runs the script on `file` (given to the box as case `n`) within
    /// `timeout`, and says whether the box could not be made fresh again
    /// after it (then stop the server); `None` when the server failed (then
    /// stop it).
    pub(super) fn run(
        &mut self,
        file: &Path,
        n: u64,
        timeout: Duration,
        limits: Limits,
    ) -> Option<(Execution, bool)> {
        let (path, linked) = if self.boxed {
            let name = format!("case-{n}.txt");
            let link = self.inbox.join(&name);
            if fs::hard_link(file, &link).is_err() {
                fs::copy(file, &link).ok()?;
            }
            super::readable(&link);
            (Path::new(INBOX).join(name), Some(link))
        } else {
            (file.to_path_buf(), None)
        };
        if self.memory_group.is_none() {
            self.memory_group = fs::read_to_string(&self.files[1]).ok().and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("memory-group="))
                    .map(PathBuf::from)
            });
        }
        let kills = |group: &Option<PathBuf>| group.as_deref().map(super::cgroup::oom_kills);
        let before = kills(&self.memory_group);
        let mut ran = self.ask(&path, timeout, limits);
        if let (Some((run, _)), Some(before), Some(after)) =
            (ran.as_mut(), before, kills(&self.memory_group))
            && after > before
        {
            run.memory_exceeded = true;
        }
        if let Some(link) = linked {
            let _ = fs::remove_file(link);
        }
        ran
    }

    fn ask(&mut self, path: &Path, timeout: Duration, limits: Limits) -> Option<(Execution, bool)> {
        let path = path.to_str()?;
        if path.contains(['\t', '\n']) {
            return None;
        }
        writeln!(self.requests, "{path}\t{}", timeout.as_micros()).ok()?;
        self.requests.flush().ok()?;
        let Reply::Started = self.replies.recv_timeout(ANSWER).ok()? else {
            return None;
        };
        let start = Instant::now();
        // The server keeps the run's time; this deadline only covers its
        // failing to.
        let reply = self.replies.recv_timeout(backstop(timeout)).ok()?;
        let Reply::Ended {
            status,
            peak_kb,
            cpu_us,
            elapsed_us,
            timed_out,
            stdout,
            stderr,
            unclean,
        } = reply
        else {
            return None;
        };
        let ended = if timed_out {
            Ended::TimedOut
        } else if status & 0x7f == 0 {
            Ended::Exited(((status >> 8) & 0xff) as i32)
        } else {
            Ended::Signalled((status & 0x7f) as i32)
        };
        let peak_memory = Some(peak_kb * 1024);
        let elapsed = Duration::from_micros(elapsed_us).min(start.elapsed());
        let run = Execution {
            memory_exceeded: super::memory_reached(&ended, peak_memory, limits),
            ended,
            stdout,
            stderr,
            elapsed,
            cpu: Duration::from_micros(cpu_us),
            peak_memory,
        };
        Some((run, unclean))
    }

    /// Ends the server: closes its requests, waits a moment for it to
    /// exit, then kills its supervisor's group (the supervisor kills what
    /// is left, the box with it).
    pub(super) fn stop(self) {
        let Server {
            mut supervisor,
            requests,
            group,
            files,
            inbox,
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
        let _ = fs::remove_dir_all(inbox);
    }
}

/// A Python candidate's cases through its fork servers.
impl Sandbox {
    /// Whether Python candidates' cases run through a fork server (the
    /// default) or each in a fresh interpreter.
    pub fn fork_python(mut self, on: bool) -> Sandbox {
        self.fork_python = on;
        self
    }

    /// Whether [`Sandbox::run_case`] runs this program through a fork
    /// server.
    pub fn forks(&self, program: &Program) -> bool {
        self.fork_python
            && is_python_script(program.dir.as_deref(), &program.command)
            && !self.servers.is_fresh(program)
    }

    /// Runs `program` on one game file, within `timeout` (at most the
    /// limit): as [`Sandbox::run_within`], but through a fork server of
    /// the program's when it is a Python script (this module); a server
    /// that fails is stopped and the run made fresh, and so are the
    /// program's runs from then on ([`Sandbox::fresh_reason`] says why).
    pub fn run_case(&self, program: &Program, file: &Path, timeout: Duration) -> Execution {
        if !self.forks(program) {
            return self.run_within(program, &[file.as_os_str()], timeout);
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            return super::run::not_started("interrupted");
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let server = self
            .servers
            .take(program)
            .or_else(|| Server::start(self, n, program));
        let started = server.is_some();
        let limit = timeout.min(self.limits.timeout);
        let ran = server.map(|mut server| {
            let run = server.run(file, n, limit, self.limits);
            (server, run)
        });
        match ran {
            Some((server, Some((run, false)))) => {
                self.servers.put(program.clone(), server);
                run
            }
            // The case ran in a fresh box, but the next would not: the
            // server serves no more, and the program's cases from then on
            // each start fresh.
            Some((server, Some((run, true)))) => {
                server.stop();
                self.servers.make_fresh(
                    program,
                    "after a case its fork server could not make the box's /tmp, /var/tmp or /dev/shm fresh again (a run changed their modes or left what it could not remove)",
                );
                run
            }
            failed => {
                if let Some((server, None)) = failed {
                    server.stop();
                }
                let why = if started {
                    "its fork server ended during a case (a run can end its server)"
                } else {
                    "its fork server could not be started"
                };
                self.servers.make_fresh(program, why);
                self.run_within(program, &[file.as_os_str()], timeout)
            }
        }
    }

    /// Stops the program's fork servers, if it has any; its next case
    /// starts one again.
    pub fn release(&self, program: &Program) {
        self.servers.stop(program);
    }

    /// From now on, runs the program's cases each in a fresh interpreter,
    /// for the reason `why` ([`Sandbox::fresh_reason`]).
    pub fn run_fresh(&self, program: &Program, why: &str) {
        self.servers.make_fresh(program, why);
    }

    /// Why the program's cases are run each in a fresh interpreter, when
    /// they are after starting through a fork server.
    pub fn fresh_reason(&self, program: &Program) -> Option<String> {
        self.servers.fresh_reason(program)
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
        assert!(is_python_script(d, &os(&["/usr/bin/python3", "c.py"])));
        // A link to the system's Python (a venv's) is the system's; a
        // candidate's own program named python3 is not trusted to measure
        // its runs, nor is one not found on the PATH.
        fs::create_dir_all(dir.join("venv/bin")).unwrap();
        std::os::unix::fs::symlink("/usr/bin/python3", dir.join("venv/bin/python3")).unwrap();
        assert!(is_python_script(d, &os(&["venv/bin/python3", "c.py"])));
        fs::write(dir.join("python3"), "#!/bin/sh\n").unwrap();
        assert!(!is_python_script(d, &os(&["./python3", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3.99", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3", "missing.py"])));
        assert!(!is_python_script(d, &os(&["python3", "-u", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3"])));
        assert!(!is_python_script(d, &os(&["pythonw", "c.py"])));
        assert!(!is_python_script(d, &os(&["sh", "c.py"])));
        assert!(!is_python_script(d, &os(&["python3.", "c.py"])));
        fs::remove_dir_all(&dir).unwrap();
    }
}
