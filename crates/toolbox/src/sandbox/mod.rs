//! Running someone else's program and owning what it starts (docs/toolbox.md's
//! `cz check` section says what a run may take).
//!
//! Each run goes through a supervisor: this project's `cz` binary started
//! again with a hidden subcommand (`cz __supervise`). The supervisor lowers
//! its own limits (address space, size of a written file, no core dumps),
//! which the candidate inherits, and makes itself a child subreaper, so
//! that every process the candidate starts and leaves behind (even one that
//! left the candidate's process group with `setsid`) becomes its child. It
//! starts the candidate in a process group of its own, with standard output
//! and error sent to files (no pipes for a lingering grandchild to hold
//! open), and waits at most the time allowed. Then it kills the candidate's
//! group and every child it has left, reaps them all (so none is left even
//! as a zombie), and writes a report: exit status or signal, whether it
//! timed out, peak resident memory, elapsed time. The caller waits for the
//! supervisor with a deadline of its own and kills both groups if the
//! supervisor does not end. Files are removed after each run, and
//! everything still running or on disk is killed and removed when the
//! process is interrupted ([`clean_up_on_interrupt`]).

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::prctl::{set_child_subreaper, set_pdeathsig};
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpid};

pub mod forkserver;

/// The hidden subcommand under which `cz` supervises one run.
pub const SUPERVISE: &str = "__supervise";

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time.
    pub timeout: Duration,
    /// Address space, in bytes (`RLIMIT_AS`): close to resident memory for
    /// the interpreters candidates are written in.
    pub memory: u64,
    /// The most a run may write to standard output or error, or to any file.
    pub output: u64,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// It ran past its time and was killed, with all it started.
    TimedOut,
    /// It could not be started.
    NotStarted(String),
}

/// What one execution of a program did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// How it ended.
    pub ended: Ended,
    /// Its standard output (at most [`Limits::output`] bytes).
    pub stdout: Vec<u8>,
    /// Its standard error (likewise).
    pub stderr: Vec<u8>,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
    /// Peak resident memory of the largest process it waited for, in bytes.
    pub peak_memory: Option<u64>,
    /// True when it failed for want of memory: it ended abnormally and
    /// said so (a MemoryError, a failed allocation), or came near the cap.
    pub memory_exceeded: bool,
}

/// Words with which programs report that an allocation failed.
const OUT_OF_MEMORY: [&str; 6] = [
    "MemoryError",
    "memory allocation of",
    "bad_alloc",
    "Cannot allocate memory",
    "out of memory",
    "OutOfMemory",
];

/// Process groups of supervisors in progress and scratch folders in use,
/// for [`clean_up_on_interrupt`].
static LIVE_GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Set once interrupted: no new run starts.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// True once [`clean_up_on_interrupt`] has begun: no new run starts, and the
/// caller should leave the ending to the handler.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Ends every run in progress and removes every scratch folder: for a
/// Ctrl-C or termination handler. The supervisors are asked to end (each
/// then kills and reaps all its candidate started), and killed if they have
/// not within a second.
pub fn clean_up_on_interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let groups: Vec<i32> = LIVE_GROUPS.lock().map(|g| g.clone()).unwrap_or_default();
    for &group in &groups {
        let _ = killpg(Pid::from_raw(group), Signal::SIGTERM);
    }
    let deadline = Instant::now() + Duration::from_secs(1);
    while Instant::now() < deadline && LIVE_GROUPS.lock().is_ok_and(|g| !g.is_empty()) {
        std::thread::sleep(Duration::from_millis(5));
    }
    if let Ok(groups) = LIVE_GROUPS.lock() {
        for &group in groups.iter() {
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
    }
    if let Ok(dirs) = SCRATCH.lock() {
        for dir in dirs.iter() {
            // A run that was ending may still write its files: try again.
            for _ in 0..100 {
                if fs::remove_dir_all(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Runs commands under [`Limits`], through the supervisor at `supervisor`
/// (the `cz` binary), with files in a scratch folder of its own.
#[derive(Debug)]
pub struct Sandbox {
    supervisor: PathBuf,
    scratch: PathBuf,
    limits: Limits,
    next: AtomicU64,
    /// Fork servers of Python candidates ([`forkserver`]).
    servers: forkserver::Servers,
    /// Whether a Python candidate's runs go through a fork server.
    fork_python: bool,
}

impl Sandbox {
    /// A sandbox whose scratch folder is `scratch` (made now, removed when
    /// the sandbox is dropped).
    ///
    /// # Errors
    /// The folder cannot be made.
    pub fn new(supervisor: PathBuf, scratch: PathBuf, limits: Limits) -> io::Result<Sandbox> {
        // Absolute: runs in other folders name their files by it.
        let scratch = std::path::absolute(scratch)?;
        fs::create_dir_all(&scratch)?;
        if let Ok(mut dirs) = SCRATCH.lock() {
            dirs.push(scratch.clone());
        }
        Ok(Sandbox {
            supervisor,
            scratch,
            limits,
            next: AtomicU64::new(0),
            servers: forkserver::Servers::default(),
            fork_python: true,
        })
    }

    /// A path in the scratch folder no other caller of this sandbox gets,
    /// for one file of `what` (runs of several candidates at once share
    /// the folder).
    pub fn scratch_file(&self, what: &str) -> PathBuf {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        self.scratch.join(format!("{what}-{n}.txt"))
    }

    /// The scratch folder.
    pub fn scratch(&self) -> &Path {
        &self.scratch
    }

    /// The limits of each run.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Runs `command` (program and arguments) with `args` appended.
    pub fn run(&self, command: &[OsString], args: &[&OsStr]) -> Execution {
        self.run_in(None, command, args)
    }

    /// Runs `command` with `args` appended, in the folder `dir` (else in
    /// this process's own). A relative program path is taken from `dir`.
    pub fn run_in(&self, dir: Option<&Path>, command: &[OsString], args: &[&OsStr]) -> Execution {
        self.run_within(dir, command, args, self.limits.timeout)
    }

    /// [`Sandbox::run_in`] within `timeout` (at most the sandbox's own).
    pub fn run_within(
        &self,
        dir: Option<&Path>,
        command: &[OsString],
        args: &[&OsStr],
        timeout: Duration,
    ) -> Execution {
        let Some((program, leading)) = command.split_first() else {
            return not_started("no command given");
        };
        if INTERRUPTED.load(Ordering::SeqCst) {
            return not_started("interrupted");
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let file = |ext: &str| self.scratch.join(format!("run-{n}.{ext}"));
        let (out, err, report) = (file("out"), file("err"), file("report"));
        let limits = Limits {
            timeout: timeout.min(self.limits.timeout),
            ..self.limits
        };
        let mut supervisor = Command::new(&self.supervisor);
        supervisor
            .arg(SUPERVISE)
            .arg(limits.timeout.as_micros().to_string())
            .arg(limits.memory.to_string())
            .arg(limits.output.to_string())
            .arg(&out)
            .arg(&err)
            .arg(&report)
            .arg(program)
            .args(leading)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some(dir) = dir {
            supervisor.current_dir(dir);
        }
        let child = match supervisor.spawn() {
            Ok(child) => child,
            Err(e) => return not_started(&format!("cannot start the supervisor: {e}")),
        };
        let group = child.id() as i32;
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.push(group);
        }
        // The supervisor keeps time; this deadline only covers its failing to.
        let backstop = limits.timeout + Duration::from_secs(5);
        if wait_for(child, backstop).is_none() {
            // The supervisor did not end: end it and the candidate's group,
            // which it names in its report as soon as it has one.
            let text = fs::read_to_string(&report).unwrap_or_default();
            if let Some(candidate) = text
                .lines()
                .find_map(|l| l.strip_prefix("group="))
                .and_then(|g| g.parse::<i32>().ok())
            {
                let _ = killpg(Pid::from_raw(candidate), Signal::SIGKILL);
            }
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.retain(|&g| g != group);
        }
        let run = read_report(&report, &out, &err, limits);
        for path in [&out, &err, &report] {
            let _ = fs::remove_file(path);
        }
        run
    }
}

impl Sandbox {
    /// Whether Python candidates' cases run through a fork server (the
    /// default) or each in a fresh interpreter.
    pub fn fork_python(mut self, on: bool) -> Sandbox {
        self.fork_python = on;
        self
    }

    /// Whether [`Sandbox::run_case`] runs this candidate through a fork
    /// server.
    pub fn forks(&self, dir: Option<&Path>, command: &[OsString]) -> bool {
        self.fork_python
            && forkserver::is_python_script(dir, command)
            && !self
                .servers
                .is_fresh(&(dir.map(Path::to_path_buf), command.to_vec()))
    }

    /// Runs `command` on one game file, within `timeout` (at most the
    /// limit): as [`Sandbox::run_within`], but through a fork server of
    /// the candidate's when it is a Python script ([`forkserver`]); a
    /// server that fails is stopped and the run made fresh.
    pub fn run_case(
        &self,
        dir: Option<&Path>,
        command: &[OsString],
        file: &Path,
        timeout: Duration,
    ) -> Execution {
        if !self.forks(dir, command) {
            return self.run_within(dir, command, &[file.as_os_str()], timeout);
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            return not_started("interrupted");
        }
        let key = (dir.map(Path::to_path_buf), command.to_vec());
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let server = self.servers.take(&key).or_else(|| {
            forkserver::Server::start(&self.supervisor, &self.scratch, n, &key, self.limits)
        });
        let (out, err) = (
            self.scratch.join(format!("run-{n}.out")),
            self.scratch.join(format!("run-{n}.err")),
        );
        let limit = timeout.min(self.limits.timeout);
        let ran = server.map(|mut server| {
            let run = server.run(file, &out, &err, limit, self.limits);
            (server, run)
        });
        for path in [&out, &err] {
            let _ = fs::remove_file(path);
        }
        match ran {
            Some((server, Some(run))) => {
                self.servers.put(key, server);
                run
            }
            failed => {
                if let Some((server, None)) = failed {
                    server.stop();
                }
                self.servers.make_fresh(&key);
                self.run_within(dir, command, &[file.as_os_str()], timeout)
            }
        }
    }

    /// Stops the candidate's fork servers, if it has any; its next case
    /// starts one again.
    pub fn release(&self, dir: Option<&Path>, command: &[OsString]) {
        self.servers
            .stop(&(dir.map(Path::to_path_buf), command.to_vec()));
    }

    /// From now on, runs the candidate's cases each in a fresh
    /// interpreter.
    pub fn run_fresh(&self, dir: Option<&Path>, command: &[OsString]) {
        self.servers
            .make_fresh(&(dir.map(Path::to_path_buf), command.to_vec()));
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.servers.stop_all();
        let _ = fs::remove_dir_all(&self.scratch);
        if let Ok(mut dirs) = SCRATCH.lock() {
            dirs.retain(|d| d != &self.scratch);
        }
    }
}

fn not_started(why: &str) -> Execution {
    Execution {
        ended: Ended::NotStarted(why.to_string()),
        stdout: Vec::new(),
        stderr: Vec::new(),
        elapsed: Duration::ZERO,
        peak_memory: None,
        memory_exceeded: false,
    }
}

/// Waits for `child` at most `limit`; `None` when it is still running (its
/// waiting thread then reaps it whenever it ends).
fn wait_for(mut child: std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    rx.recv_timeout(limit).ok().and_then(Result::ok)
}

/// Reads a file of at most `limit` bytes.
fn read_capped(path: &Path, limit: u64) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Ok(file) = fs::File::open(path) {
        let _ = file.take(limit).read_to_end(&mut bytes);
    }
    bytes
}

fn read_report(report: &Path, out: &Path, err: &Path, limits: Limits) -> Execution {
    let text = fs::read_to_string(report).unwrap_or_default();
    let field = |name: &str| -> Option<i64> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse().ok())
    };
    let ended = if let Some(why) = text.lines().find_map(|l| l.strip_prefix("not-started=")) {
        Ended::NotStarted(why.to_string())
    } else if field("timed-out") == Some(1) {
        Ended::TimedOut
    } else if let Some(code) = field("exit") {
        Ended::Exited(code as i32)
    } else if let Some(signal) = field("signal") {
        Ended::Signalled(signal as i32)
    } else {
        Ended::NotStarted("the supervisor ended without a report".into())
    };
    let stdout = read_capped(out, limits.output);
    let stderr = read_capped(err, limits.output);
    let peak_memory = field("peak-kb").map(|kb| kb.max(0) as u64 * 1024);
    let memory_exceeded = out_of_memory(&ended, &stderr, peak_memory, limits);
    Execution {
        ended,
        stdout,
        stderr,
        elapsed: Duration::from_micros(field("elapsed-us").unwrap_or(0).max(0) as u64),
        peak_memory,
        memory_exceeded,
    }
}

/// The candidate's process group, once it has one, for the supervisor's
/// termination handler (0: none yet).
/// Whether a run that ended `ended`, saying `stderr`, at a peak of
/// `peak` bytes, failed for want of memory: it ended abnormally, and said
/// so in one of the usual words, or peaked within a tenth of the cap.
fn out_of_memory(ended: &Ended, stderr: &[u8], peak: Option<u64>, limits: Limits) -> bool {
    let abnormal =
        matches!(ended, Ended::Signalled(_)) || matches!(ended, Ended::Exited(code) if *code != 0);
    let said = String::from_utf8_lossy(stderr);
    abnormal
        && (OUT_OF_MEMORY.iter().any(|w| said.contains(w))
            || peak.is_some_and(|p| p.saturating_mul(10) >= limits.memory.saturating_mul(9)))
}

static CANDIDATE_GROUP: AtomicI32 = AtomicI32::new(0);

/// The program that runs `cz`, when it is not this process's executable.
static OWN_PROGRAM: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Says which program runs `cz` when it is not this process's executable:
/// the Python package's `cz` command runs inside an interpreter, so its
/// supervisors are started as that command, not as the interpreter.
pub fn set_own_program(path: PathBuf) {
    let _ = OWN_PROGRAM.set(path);
}

/// The program that runs `cz` (the one [`set_own_program`] gave, else
/// this process's executable): supervisors are started as it, with
/// [`SUPERVISE`] as their first argument.
///
/// # Errors
/// The executable cannot be found.
pub fn own_program() -> io::Result<PathBuf> {
    match OWN_PROGRAM.get() {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe(),
    }
}

/// The supervisor: `cz __supervise TIMEOUT_US MEMORY OUTPUT STDOUT STDERR
/// REPORT PROGRAM [ARGS...]`. Never returns. Asked to end (SIGTERM, SIGINT,
/// or its parent's death, which sends it SIGTERM), it ends its candidate and
/// all it started first.
pub fn supervise(args: &[OsString]) -> ! {
    let _ = set_pdeathsig(Signal::SIGTERM);
    let _ = ctrlc::set_handler(|| {
        end_everything(Pid::from_raw(CANDIDATE_GROUP.load(Ordering::SeqCst)));
        std::process::exit(130);
    });
    let report_path = args.get(5).map(PathBuf::from);
    let mut report = String::new();
    if let Err(why) = supervise_run(args, report_path.as_deref(), &mut report) {
        report = format!("not-started={why}\n");
    }
    if let Some(path) = report_path {
        let _ = fs::write(path, report);
    }
    std::process::exit(0);
}

fn supervise_run(
    args: &[OsString],
    report_path: Option<&Path>,
    report: &mut String,
) -> Result<(), String> {
    let number = |i: usize| -> Result<u64, String> {
        args.get(i)
            .and_then(|a| a.to_str())
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("argument {} of {SUPERVISE} is not a number", i + 1))
    };
    let (timeout, memory, output) = (number(0)?, number(1)?, number(2)?);
    let [stdout, stderr] = [3, 4].map(|i| args.get(i).map(PathBuf::from));
    let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
        return Err(format!("{SUPERVISE} needs its files"));
    };
    let program = args.get(6).ok_or("no program to run")?;
    // Whatever the candidate leaves behind becomes this process's child.
    set_child_subreaper(true).map_err(|e| format!("child subreaper: {e}"))?;
    // Limits the candidate inherits. The hard limits too, so it cannot
    // raise them.
    setrlimit(Resource::RLIMIT_AS, memory, memory)
        .map_err(|e| format!("address space limit: {e}"))?;
    setrlimit(Resource::RLIMIT_FSIZE, output, output)
        .map_err(|e| format!("file size limit: {e}"))?;
    setrlimit(Resource::RLIMIT_CORE, 0, 0).map_err(|e| format!("core limit: {e}"))?;
    // A fork server ("-" for its standard output) talks to `cz` through
    // the supervisor's own standard input and output.
    let server = stdout.as_os_str() == "-";
    let (input, out) = if server {
        (Stdio::inherit(), Stdio::inherit())
    } else {
        let out = fs::File::create(&stdout).map_err(|e| format!("{}: {e}", stdout.display()))?;
        (Stdio::null(), out.into())
    };
    let err = fs::File::create(&stderr).map_err(|e| format!("{}: {e}", stderr.display()))?;
    let start = Instant::now();
    let child = Command::new(program)
        .args(&args[7..])
        .stdin(input)
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.to_string_lossy()))?;
    let group = Pid::from_raw(child.id() as i32);
    CANDIDATE_GROUP.store(group.as_raw(), Ordering::SeqCst);
    if let Some(path) = report_path {
        // For the caller, should this process fail to end the group itself.
        let _ = fs::write(path, format!("group={group}\n"));
    }
    let status = wait_for(child, Duration::from_micros(timeout));
    let elapsed = start.elapsed();
    end_everything(group);
    match status {
        None => report.push_str("timed-out=1\n"),
        Some(s) => {
            if let Some(code) = s.code() {
                report.push_str(&format!("exit={code}\n"));
            } else if let Some(signal) = s.signal() {
                report.push_str(&format!("signal={signal}\n"));
            }
        }
    }
    if let Ok(usage) = getrusage(UsageWho::RUSAGE_CHILDREN) {
        report.push_str(&format!("peak-kb={}\n", usage.max_rss()));
    }
    report.push_str(&format!("elapsed-us={}\n", elapsed.as_micros()));
    Ok(())
}

/// Kills the candidate's process group and every child this process has
/// (left-behind descendants come here as a subreaper), and reaps them, until
/// none is left (or two seconds pass).
fn end_everything(group: Pid) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if group.as_raw() > 0 {
            let _ = killpg(group, Signal::SIGKILL);
        }
        for pid in children() {
            let _ = kill(pid, Signal::SIGKILL);
        }
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => std::thread::sleep(Duration::from_millis(1)),
            Ok(_) => {}
            Err(Errno::ECHILD) => return,
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}

/// The processes whose parent is this one, from /proc.
fn children() -> Vec<Pid> {
    let me = getpid().as_raw();
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            // "pid (name) state ppid ...": the name may hold spaces and parentheses.
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    let rest = &stat[stat.rfind(')')? + 1..];
                    rest.split_whitespace().nth(1)?.parse::<i32>().ok()
                })
                == Some(me)
        })
        .map(Pid::from_raw)
        .collect()
}
