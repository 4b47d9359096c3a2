//! The sandbox of `cz check` and `cz grade`: running someone else's program
//! and owning what it starts (docs/grade.md says what a run may take and how
//! its verdict is decided).
//!
//! Each run goes through a supervisor: this project's `cz` binary started
//! again with a hidden subcommand (`cz __supervise`, whose command line
//! calls this crate's [`supervise`]; in `supervisor.rs`). It
//! sets the run's limits, starts it in a box of its own when bubblewrap
//! works here ([`isolation`]), keeps its time, ends everything it started
//! and writes a report. The run's standard output and error go to files in
//! the grader's scratch folder, which the box cannot see. The caller waits
//! for the supervisor with a deadline of its own and kills it and the run's
//! group if it does not end; a supervisor that ends without a report (a
//! run without a box can kill it) has the group it named killed. Files are
//! removed after each run, and everything still running or on disk is
//! killed and removed when the process is interrupted
//! ([`clean_up_on_interrupt`]).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

mod cgroup;
pub mod files;
pub mod forkserver;
pub mod isolation;
pub mod program;
pub mod reference;
mod run;
pub mod seccomp;
pub mod shared;
mod stage;
mod supervisor;

pub use isolation::{INBOX, Isolation, SYSTEM, Wanted};
pub use program::Program;
pub use run::{Ended, Execution, Limits, memory_reached};
use run::{not_started, read_report};
pub use supervisor::{OPEN_FILES, supervise};

/// The hidden subcommand under which `cz` supervises one run.
pub const SUPERVISE: &str = "__supervise";

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
/// then kills and reaps all its run started), and killed if they have not
/// within a second.
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

/// A folder made now in `within` by this process alone, of `mode`: one
/// `mkdir` of a name no one can guess (a random word after the pid), which
/// fails when the name exists, so no one else can have made it first or put
/// a link in its place (a folder of a known name, removed and made again,
/// could be raced by a local user in a shared `/tmp`, who then owned the
/// folder root writes its runs' files in).
fn own_folder(within: &Path, mode: u32) -> io::Result<PathBuf> {
    use std::hash::BuildHasher;
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
    let mut taken = None;
    for attempt in 0u32..64 {
        // `RandomState` is keyed by the system's randomness.
        let word = std::hash::RandomState::new().hash_one((attempt, Instant::now()));
        let path = within.join(format!("cz-check-{}-{word:016x}", std::process::id()));
        match fs::DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => {
                // The mode through the folder itself, opened without
                // following a link: the umask may have taken bits of it.
                let flags = nix::fcntl::OFlag::O_DIRECTORY | nix::fcntl::OFlag::O_NOFOLLOW;
                let folder = fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(flags.bits())
                    .open(&path)?;
                let meta = folder.metadata()?;
                if !meta.is_dir() || meta.uid() != nix::unistd::geteuid().as_raw() {
                    return Err(io::Error::other(format!(
                        "{} is not the folder just made",
                        path.display()
                    )));
                }
                folder.set_permissions(fs::Permissions::from_mode(mode))?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => taken = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(taken.unwrap_or_else(|| io::Error::other("no folder made")))
}

/// Runs commands under [`Limits`], through the supervisor at `supervisor`
/// (the `cz` binary), each in a box of its own when isolation is in force,
/// with files in a scratch folder of its own.
#[derive(Debug)]
pub struct Sandbox {
    supervisor: PathBuf,
    scratch: PathBuf,
    limits: Limits,
    isolation: Isolation,
    next: AtomicU64,
    /// Fork servers of Python candidates ([`forkserver`]).
    servers: forkserver::Servers,
    /// Whether a Python candidate's runs go through a fork server.
    fork_python: bool,
    /// Installed copies of the reference, hidden from every box
    /// ([`reference`]).
    hidden: Vec<PathBuf>,
}

impl Sandbox {
    /// A sandbox whose scratch folder is a new one in `within`, named
    /// `cz-check-<pid>-<random>` (readable by its owner alone, and as root
    /// passable by others, whom it does not let list it; removed when the
    /// sandbox is dropped), isolating runs as `isolation` says.
    ///
    /// # Errors
    /// The folder cannot be made.
    pub fn new(
        supervisor: PathBuf,
        within: &Path,
        limits: Limits,
        isolation: Isolation,
    ) -> io::Result<Sandbox> {
        // As root, others may pass through it (not list it): a box of a
        // user of its own is given a game file of it without staging.
        let mode = if nix::unistd::geteuid().is_root() {
            0o711
        } else {
            0o700
        };
        // Absolute: runs in other folders name their files by it.
        let scratch = own_folder(&std::path::absolute(within)?, mode)?;
        let mut isolation = isolation;
        isolation.note_shared_tables(&supervisor, limits.processes);
        if let Ok(mut dirs) = SCRATCH.lock() {
            dirs.push(scratch.clone());
        }
        Ok(Sandbox {
            supervisor,
            scratch,
            limits,
            isolation,
            next: AtomicU64::new(0),
            servers: forkserver::Servers::default(),
            fork_python: true,
            hidden: Vec::new(),
        }
        .hiding_reference(&[]))
    }

    /// Why a box of `program` could not read its own folder, if it could
    /// not: when the grader is root, a box runs as a user of its own, who
    /// reads only what others may (a folder made by `mktemp -d`, under
    /// `umask 077` or by an unzip is its owner's alone, and every run of it
    /// would fail to start). Says the first such file or folder, its mode
    /// and the fix; `None` when the box reads it all, or runs as the grader.
    pub fn unreadable(&self, program: &Program) -> Option<String> {
        let Isolation::Bubblewrap { own_user: true, .. } = self.isolation else {
            return None;
        };
        // Its folder, else the folders of the files its command names.
        let base = std::path::absolute(program.dir.as_deref().unwrap_or(Path::new("."))).ok()?;
        let named: Vec<PathBuf> = program
            .command
            .iter()
            .map(|word| base.join(word))
            .filter(|path| path.is_file() && !program::in_system(path))
            .collect();
        let folders: Vec<PathBuf> = match &program.dir {
            Some(_) => vec![base.clone()],
            None => named
                .iter()
                .filter_map(|path| path.parent().map(Path::to_path_buf))
                .collect(),
        };
        folders.iter().find_map(|dir| {
            let (path, mode) = files::first_closed_to_others(dir, &named)?;
            Some(format!(
                "{} (mode {mode:04o}) cannot be read by the box's own user, which reads only what others may read: run `chmod -R a+rX {}` (or grade a copy that others may read)",
                path.display(),
                dir.display()
            ))
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

    /// The isolation in force.
    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Runs `program` with `args` appended.
    pub fn run(&self, program: &Program, args: &[&OsStr]) -> Execution {
        self.run_within(program, args, self.limits.timeout)
    }

    /// [`Sandbox::run`] within `timeout` (at most the sandbox's own), in
    /// the program's folder (else this process's own; a relative program
    /// path is taken from it). In a box, an argument that names a file or
    /// folder of the scratch folder is given to the box read-only, under
    /// [`INBOX`], and named there.
    pub fn run_within(&self, program: &Program, args: &[&OsStr], timeout: Duration) -> Execution {
        if program.command.is_empty() {
            return not_started("no command given");
        }
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
        let mut words: Vec<OsString> = program.command.clone();
        let mut given = Vec::new();
        match &self.isolation {
            Isolation::Bubblewrap { .. } => {
                for arg in args {
                    let (inside, bind) = self.in_box(Path::new(arg));
                    words.push(inside.clone());
                    if let Some(host) = bind {
                        given.push((host, inside));
                    }
                }
            }
            Isolation::None(_) => words.extend(args.iter().map(|a| a.to_os_string())),
        }
        let Some(argv) = self.program(program, words, given, None) else {
            return not_started("cannot find the folder to run in");
        };
        let mut supervisor = self.supervisor_command(limits, [&out, &err, &report], &argv);
        supervisor
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(dir) = &program.dir {
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
        // The supervisor keeps time; this deadline only covers its failing
        // to (a run's own time may take longer than its limit in wall-clock
        // time on a busy machine).
        let status = wait_for(child, backstop(limits.timeout));
        let ended_well = status.is_some_and(|s| s.code() == Some(0));
        let text = fs::read_to_string(&report).unwrap_or_default();
        let finished = text.lines().any(|l| l.starts_with("elapsed-us="));
        if !(ended_well && finished) {
            // The supervisor did not end, or ended without its report (a
            // run without a box can kill it): end the run's group, which it
            // names as soon as it has one, and the supervisor.
            if let Some(run) = text
                .lines()
                .find_map(|l| l.strip_prefix("group="))
                .and_then(|g| g.parse::<i32>().ok())
            {
                let _ = killpg(Pid::from_raw(run), Signal::SIGKILL);
            }
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.retain(|&g| g != group);
        }
        let run = read_report(&text, &out, &err, limits);
        for path in [&out, &err, &report] {
            let _ = fs::remove_file(path);
        }
        run
    }

    /// Where a run in a box finds `path`, and the host path to bind there
    /// when it exists: a path of the scratch folder is given under
    /// [`INBOX`] by its name (readable by others, for a box of a user of
    /// its own: the scratch folder around it is the grader's alone); any
    /// other is left as it is.
    fn in_box(&self, path: &Path) -> (OsString, Option<PathBuf>) {
        match (path.strip_prefix(&self.scratch), path.file_name()) {
            (Ok(_), Some(name)) => {
                let inside = Path::new(INBOX).join(name).into_os_string();
                (inside, path.exists().then(|| readable(path)))
            }
            _ => (path.as_os_str().to_os_string(), None),
        }
    }

    /// The extra paths a box of `program` is given beyond the system's
    /// folders and the program's own: its interpreter's install, when it
    /// lies outside the system's folders, and the paths it names. Empty
    /// without a box.
    pub fn given(&self, program: &Program) -> Vec<PathBuf> {
        if !self.isolation.isolated() {
            return Vec::new();
        }
        let dir = std::path::absolute(program.dir.as_deref().unwrap_or(Path::new(".")))
            .unwrap_or_default();
        let mut given = program
            .command
            .first()
            .map(|word| program::interpreter(word, &dir).prefixes)
            .unwrap_or_default();
        given.extend(program.paths.iter().cloned());
        given
    }

    /// The program and arguments the supervisor starts for `words` of
    /// `program`: the words themselves, or bubblewrap with the box around
    /// them (`given` bound under [`INBOX`], or `inbox` bound as it), and
    /// the supervisor's mode. `None` when the folder cannot be made
    /// absolute.
    fn program(
        &self,
        program: &Program,
        mut words: Vec<OsString>,
        given: Vec<(PathBuf, OsString)>,
        inbox: Option<&Path>,
    ) -> Option<(&'static str, Vec<OsString>)> {
        match &self.isolation {
            Isolation::None(_) => Some(("plain", words)),
            Isolation::Bubblewrap {
                program: bwrap,
                own_user,
                no_userns,
                ..
            } => {
                let dir =
                    std::path::absolute(program.dir.as_deref().unwrap_or(Path::new("."))).ok()?;
                let interpreter = program::interpreter(&words[0], &dir);
                let resolved = interpreter.program != words[0];
                words[0] = interpreter.program.clone();
                let mut own = interpreter.prefixes.clone();
                own.extend(program.paths.iter().filter(|p| p.exists()).cloned());
                match &program.dir {
                    Some(_) => own.push(dir.clone()),
                    // The folders of the files its command names.
                    None => {
                        let skip = usize::from(resolved);
                        // Not a folder named through a link (`sub/x.py`
                        // with `sub` a link to `/`): the box would see
                        // where it leads.
                        for word in program.command.iter().skip(skip) {
                            let Ok(path) = std::path::absolute(dir.join(word)) else {
                                continue;
                            };
                            if !path.exists() || path.starts_with(&self.scratch) {
                                continue;
                            }
                            // The folder it names, and the one bound.
                            let word = Path::new(word);
                            let (named, folder) = if path.is_dir() {
                                (Some(word), path.clone())
                            } else {
                                (word.parent(), path.parent().unwrap_or(&path).to_path_buf())
                            };
                            if named.is_none_or(|f| program::named_link(&dir, f).is_none()) {
                                own.push(folder);
                            }
                        }
                    }
                }
                let path_first = interpreter
                    .prefixes
                    .iter()
                    .map(|p| p.join("bin"))
                    .filter(|b| b.is_dir())
                    .collect();
                // What its program names of the reference stays in sight;
                // a program whose command is an installed reference (a
                // class's reference, `cz check -- connectz`) sees all of it.
                let command = PathBuf::from(&words[0]);
                let named: Vec<PathBuf> = std::iter::once(command.clone())
                    .chain(program.paths.iter().cloned())
                    .collect();
                let hidden = if self.hidden.contains(&command) {
                    Vec::new()
                } else {
                    self.hidden
                        .iter()
                        .filter(|h| !named.iter().any(|n| n.starts_with(h) || h.starts_with(n)))
                        .cloned()
                        .collect()
                };
                let spec = isolation::BoxSpec {
                    dir: &dir,
                    hidden,
                    command: words,
                    own,
                    path_first,
                    env: &program.env,
                    given,
                    inbox,
                    processes: self.limits.processes,
                    memory: self.limits.memory,
                    no_userns: *no_userns,
                    // Only a fork server's box has an inbox.
                    as_pid_1: inbox.is_some(),
                };
                let mode = if *own_user { "boxed-own-user" } else { "boxed" };
                Some((mode, spec.argv(bwrap)))
            }
        }
    }

    /// The supervisor's command for `program` under `limits`, its files
    /// `[stdout, stderr, report]` (stdout `-` for a fork server); in a
    /// process group of its own.
    fn supervisor_command(
        &self,
        limits: Limits,
        [out, err, report]: [&Path; 3],
        (mode, program): &(&str, Vec<OsString>),
    ) -> Command {
        let mut supervisor = Command::new(&self.supervisor);
        supervisor
            .arg(SUPERVISE)
            .arg(limits.timeout.as_micros().to_string())
            .arg(limits.memory.to_string())
            .arg(limits.output.to_string())
            .arg(limits.processes.to_string())
            .arg(out)
            .arg(err)
            .arg(report)
            .arg(mode)
            .args(program)
            .process_group(0);
        supervisor
    }
}

/// How long the caller waits for a supervisor whose run has `limit`: far
/// past any run's own time on a loaded machine.
fn backstop(limit: Duration) -> Duration {
    limit * 10 + Duration::from_secs(10)
}

/// `path`, made readable by others when this process is root (a box of a
/// user of its own reads it; the folder around it keeps others out).
fn readable(path: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    if nix::unistd::geteuid().is_root()
        && let Ok(meta) = fs::metadata(path)
    {
        let mode = meta.permissions().mode();
        let wanted = if meta.is_dir() { 0o755 } else { 0o644 };
        if mode & wanted != wanted {
            let _ = fs::set_permissions(path, fs::Permissions::from_mode(mode | wanted));
        }
    }
    path.to_path_buf()
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

/// Waits for `child` at most `limit`; `None` when it is still running (its
/// waiting thread then reaps it whenever it ends).
fn wait_for(mut child: std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    rx.recv_timeout(limit).ok().and_then(Result::ok)
}

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

#[cfg(test)]
mod tests;
