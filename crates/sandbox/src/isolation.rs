//! The box a run goes in: bubblewrap (`bwrap`, the sandbox Flatpak uses),
//! when it is present and this machine lets it make namespaces.
//!
//! **Who runs in it.** A box has its own user, process, network, IPC and
//! host-name namespaces: it sees only its own processes (when its first
//! process ends, every process in it ends) and has no network but a
//! loopback of its own. Its processes hold no capability and cannot gain
//! one (`--cap-drop ALL`, no new privileges, no further user namespace), and
//! a seccomp filter refuses tracing, mounting, namespaces, keyrings and
//! IPC ([`super::seccomp`]). When the grader is root, the box runs as a user
//! of its own, as `isolate` does: the supervisor starts bubblewrap as an
//! unprivileged user id no other process has (see [`BOX_UID_BASE`]), so a
//! run owns no file of the machine's and can write none, and can signal or
//! trace no process but its box's.
//!
//! **What it sees.** Only what it needs, each read-only: the system's
//! folders ([`SYSTEM`]), a few files of `/etc` ([`ETC`]: not `shadow`, not
//! keys), the candidate's own folder (the manifest's `dir`, else the folders
//! of the files its command names), its interpreter's install when it lies
//! outside the system's folders (a pyenv or a venv, see
//! [`super::program`]), the paths the manifest names, and the files it is
//! given under [`INBOX`] (the game file, the fork server's script). `/tmp`,
//! `/var/tmp` and `/dev/shm` are fresh, private and sized (a candidate whose
//! folder lies in one, `/tmp/class/alice`, finds the folders on the way to
//! it read-only, as elsewhere); `/dev` is read-only; `/proc` is the box's
//! own. Not the grader's home, its scratch folder or reports, the other
//! candidates, the reference or the corpus.
//!
//! **Its environment** is cleared, then `PATH` (the interpreter's `bin`
//! first, then `/usr/local/bin:/usr/bin:/bin`), `HOME=/tmp`, `LANG=C.UTF-8`,
//! one thread for numeric libraries' pools (`THREAD_POOLS`), and what the
//! manifest names.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

pub use super::program::{ETC, SYSTEM};
use super::program::{in_kernel, lexical};

/// Where a box finds the files it is given.
pub const INBOX: &str = "/run/cz";

/// When the grader is root, a box runs as the user `BOX_UID_BASE` plus its
/// supervisor's process id: a user id no file and no other process has,
/// and no two boxes running at once share.
pub const BOX_UID_BASE: u32 = 1_879_048_192;

/// Whether runs are isolated, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Every run in a box of bubblewrap's.
    Bubblewrap {
        /// The `bwrap` program.
        program: PathBuf,
        /// Its version, as it prints it.
        version: String,
        /// How the box holds: who runs in it, the system-call filter, and
        /// the limits of the whole box, in words for the reports.
        holds: String,
        /// True when the grader is root and each box runs as a user of its
        /// own.
        own_user: bool,
        /// True when bubblewrap takes `--disable-userns`.
        no_userns: bool,
    },
    /// Runs are not isolated: why not.
    None(String),
}

/// What isolation a grade asks for (`--isolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Wanted {
    /// Bubblewrap when it works here; else run without, and say so.
    Auto,
    /// Bubblewrap, or refuse to run.
    Require,
    /// No box (runs share the grader's user, files and network).
    None,
}

impl Isolation {
    /// The isolation `wanted` gives on this machine.
    ///
    /// # Errors
    /// `Require`d and bubblewrap cannot make a box here: why.
    pub fn choose(wanted: Wanted) -> Result<Isolation, String> {
        match (wanted, detect()) {
            (Wanted::None, _) => Ok(Isolation::None("--isolation none".into())),
            (Wanted::Require, Isolation::None(why)) => Err(format!(
                "--isolation require: runs cannot be isolated here: {why}"
            )),
            (_, found) => Ok(found),
        }
    }

    /// Adds to how a box holds what the machine shares that this machine
    /// leaves unbounded: files in a box's tmpfs, when the supervisor at
    /// `supervisor` cannot mount them with their files bounded here
    /// ([`super::stage`]), and the file table, when one box of `processes`
    /// processes could take more than three quarters of its free entries ([`super::shared`]).
    pub(super) fn note_shared_tables(&mut self, supervisor: &Path, processes: u64) {
        let Isolation::Bubblewrap { holds, .. } = self else {
            return;
        };
        let probe = Command::new(supervisor)
            .arg(super::SUPERVISE)
            .arg(super::supervisor::PROBE_STAGE)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        match probe {
            Ok(out) if out.status.success() => holds.push_str(&format!(
                "; at most {} open files a process and {} files in each of its tmpfs",
                super::OPEN_FILES,
                super::stage::FILES
            )),
            Ok(out) => holds.push_str(&format!(
                "; files in its tmpfs NOT bounded here ({})",
                String::from_utf8_lossy(&out.stdout).trim()
            )),
            Err(e) => holds.push_str(&format!("; files in its tmpfs NOT bounded here ({e})")),
        }
        if super::shared::one_box_exceeds(processes) {
            holds.push_str(&format!(
                "; the machine's file table NOT bounded: one box of {processes} processes may open {} files, more than three quarters of those free",
                super::shared::files_per_box(processes)
            ));
        }
    }

    /// Names, in how a box holds, the installed copies of the reference
    /// hidden from it.
    pub(super) fn note_hidden(&mut self, hidden: &[PathBuf]) {
        let Isolation::Bubblewrap { holds, .. } = self else {
            return;
        };
        if let Some(at) = holds.find("; the reference hidden from it:") {
            holds.truncate(at);
        }
        if !hidden.is_empty() {
            let names: Vec<String> = hidden.iter().map(|p| p.display().to_string()).collect();
            holds.push_str(&format!(
                "; the reference hidden from it: {}",
                names.join(", ")
            ));
        }
    }

    /// True when runs are in a box.
    pub fn isolated(&self) -> bool {
        matches!(self, Isolation::Bubblewrap { .. })
    }

    /// The isolation in force, in one line, for the top of every report.
    pub fn describe(&self) -> String {
        match self {
            Isolation::Bubblewrap { version, holds, .. } => format!(
                "isolated with {version}: every run in a box of its own ({holds}; no process outside it can be seen or signalled, no network; it sees the system's folders, its own folder and interpreter, and its game file, read-only, and a private /tmp, not the grader's files, the other candidates or the reference; a clean environment)"
            ),
            Isolation::None(why) => format!(
                "NOT ISOLATED ({why}): runs have the grader's user, files, environment and network; a run can read and change any file the grader can (other candidates, the reports), use the network, and end its supervisor, leaving processes behind"
            ),
        }
    }
}

/// Bubblewrap, if it is on the path and makes a box here; else why not.
/// Tried once per process.
pub fn detect() -> Isolation {
    static FOUND: OnceLock<Isolation> = OnceLock::new();
    FOUND.get_or_init(find).clone()
}

fn find() -> Isolation {
    let Some(program) = super::program::on_path(OsStr::new("bwrap")) else {
        return Isolation::None("bubblewrap (bwrap) is not installed".into());
    };
    let version = Command::new(&program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "bubblewrap".into());
    let root = nix::unistd::geteuid().is_root();
    // As root, the box runs as a user of its own when this machine lets an
    // unprivileged user make namespaces; else as root without capability.
    let probe = |as_user: bool, no_userns: bool| {
        let mut args: Vec<OsString> = NAMESPACES.iter().map(OsString::from).collect();
        args.extend(hardening(no_userns));
        args.extend(system_args());
        args.extend(["--proc", "/proc", "--dev", "/dev", "true"].map(OsString::from));
        let mut command = Command::new(&program);
        command
            .args(&args)
            .current_dir("/")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if as_user {
            let id = BOX_UID_BASE + std::process::id();
            command.uid(id).gid(id);
        }
        command.output()
    };
    let mut why = String::new();
    for (as_user, no_userns) in [(root, true), (root, false), (false, true), (false, false)] {
        if as_user != root && !root {
            continue;
        }
        match probe(as_user, no_userns) {
            Ok(out) if out.status.success() => {
                return Isolation::Bubblewrap {
                    holds: holds(root, as_user),
                    program,
                    version,
                    own_user: as_user,
                    no_userns,
                };
            }
            Ok(out) if why.is_empty() => {
                why = format!(
                    "{} cannot make a box here: {}",
                    program.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            }
            Err(e) if why.is_empty() => {
                why = format!("{} cannot start: {e}", program.display());
            }
            _ => {}
        }
    }
    Isolation::None(why)
}

/// How a box holds, in words: who runs in it, the filter, the limits.
fn holds(root: bool, own_user: bool) -> String {
    let who = match (root, own_user) {
        (true, true) => "as a user of its own, with no capability",
        (true, false) => {
            "as root mapped into the box without any capability (this machine does not let an unprivileged user make a box)"
        }
        _ => "as the grader's user, with no capability",
    };
    let filter = match (super::seccomp::filter(), super::seccomp::x32_unfiltered()) {
        (Some(_), false) => {
            "tracing, mounting, namespaces, IPC and sockets refused by a system-call filter"
        }
        (Some(_), true) => {
            "tracing, mounting, namespaces, IPC and sockets refused by a system-call filter, but not when made as x32 system calls, which this kernel may run and the filter does not see"
        }
        (None, _) => "no system-call filter on this architecture",
    };
    let limits = super::cgroup::held_here();
    format!("{who}; {filter}; {limits}")
}

/// The namespaces of a box.
const NAMESPACES: [&str; 8] = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
];

/// No capability, and (where bubblewrap takes it) no further user
/// namespace.
fn hardening(no_userns: bool) -> Vec<OsString> {
    let mut words = vec!["--cap-drop", "ALL"];
    if no_userns {
        words.push("--disable-userns");
    }
    words.into_iter().map(OsString::from).collect()
}

/// The system's folders and the files of `/etc` a box is given, each
/// read-only, or as the link it is (`/bin` to `usr/bin`).
fn system_args() -> Vec<OsString> {
    let mut words: Vec<OsString> = Vec::new();
    for place in SYSTEM.iter().chain(ETC.iter()) {
        let path = Path::new(place);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() && SYSTEM.contains(place) => {
                if let Ok(target) = std::fs::read_link(path) {
                    words.push("--symlink".into());
                    words.push(target.into_os_string());
                    words.push(path.into());
                }
            }
            Ok(_) if path.exists() => {
                words.push("--ro-bind".into());
                words.push(path.into());
                words.push(path.into());
            }
            _ => {}
        }
    }
    words
}

/// One box: what runs in it and what it is given.
pub(super) struct BoxSpec<'a> {
    /// The folder it runs in (absolute).
    pub dir: &'a Path,
    /// The program and its arguments, as the box sees them.
    pub command: Vec<OsString>,
    /// Folders (and files) of the candidate's own and of its interpreter,
    /// and the paths its manifest names, bound read-only at their paths.
    pub own: Vec<PathBuf>,
    /// Folders to put first on its `PATH` (its interpreter's `bin`).
    pub path_first: Vec<PathBuf>,
    /// Variables beyond the box's own.
    pub env: &'a [(OsString, OsString)],
    /// Installed copies of the reference it must not see: an empty
    /// read-only folder over each package, `/dev/null` over each program.
    pub hidden: Vec<PathBuf>,
    /// Files and folders given to it, each bound read-only at its path in
    /// the box (under [`INBOX`]).
    pub given: Vec<(PathBuf, OsString)>,
    /// A folder bound whole, read-only, at [`INBOX`] (the fork server's).
    pub inbox: Option<&'a Path>,
    /// Processes the box may hold.
    pub processes: u64,
    /// The box's memory, in bytes: its tmpfs are sized from it.
    pub memory: u64,
    /// Whether bubblewrap takes `--disable-userns`.
    pub no_userns: bool,
    /// The command is the box's first process, its pid 1, with no init of
    /// bubblewrap's before it (`--as-pid-1`): a fork server's box. That
    /// init runs as the box's own user and can be traced, so a run could
    /// write its memory through `/proc/1/mem` and make it the candidate's
    /// program, holding the server's pipes to cz (found by a hostile
    /// review). As pid 1 the server is not dumpable, and no signal from
    /// inside the box ends it.
    pub as_pid_1: bool,
}

/// The variables that size the thread pools of numeric libraries
/// (OpenBLAS, OpenMP, MKL, NumExpr), set to one thread in a box.
const THREAD_POOLS: [&str; 4] = [
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
];

/// The box's fresh places and their share of its memory: `/tmp` half,
/// `/var/tmp` and `/dev/shm` a quarter each.
pub(super) const PRIVATE: [(&str, u64); 3] = [("/tmp", 2), ("/var/tmp", 4), ("/dev/shm", 4)];

impl BoxSpec<'_> {
    /// The command that runs this box: `bwrap` and its arguments.
    pub(super) fn argv(&self, bwrap: &Path) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec![bwrap.into()];
        let mut push = |words: &[&OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
        let os = |s: &'static str| OsStr::new(s);
        push(&NAMESPACES.map(OsStr::new));
        if self.as_pid_1 {
            push(&[OsStr::new("--as-pid-1")]);
        }
        a.extend(hardening(self.no_userns));
        let mut push = |words: &[&OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
        push(&[os("--clearenv")]);
        let mut path = std::env::join_paths(&self.path_first).unwrap_or_default();
        if !path.is_empty() {
            path.push(":");
        }
        path.push("/usr/local/bin:/usr/bin:/bin");
        push(&[os("--setenv"), os("PATH"), &path]);
        push(&[os("--setenv"), os("HOME"), os("/tmp")]);
        push(&[os("--setenv"), os("LANG"), os("C.UTF-8")]);
        // Numeric libraries start a thread a core unless told: each counts
        // among the box's processes, and a judge of one file needs none.
        for pool in THREAD_POOLS {
            push(&[os("--setenv"), os(pool), os("1")]);
        }
        for (name, value) in self.env {
            push(&[os("--setenv"), name, value]);
        }
        a.extend(system_args());
        let mut push = |words: &[&OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
        push(&[os("--dev"), os("/dev"), os("--proc"), os("/proc")]);
        for (place, share) in PRIVATE {
            let size = (self.memory / share).max(1 << 20).to_string();
            push(&[os("--size"), OsStr::new(&size), os("--tmpfs"), os(place)]);
        }
        // What the run has of its own, each bound from its host path as
        // given (the kernel follows it there) to its place with `..` taken
        // out as written (bubblewrap follows a place from the root it
        // builds, and a `..` past that root's top would lead out of it);
        // outer ones first. Never the whole root, a folder of the system's
        // (bound already), of the kernel's (the box has its own) or a fresh
        // place or one above it (the box's own, private).
        let mut own: Vec<(&Path, PathBuf)> =
            self.own.iter().map(|p| (p.as_path(), lexical(p))).collect();
        own.sort_by(|a, b| (a.1.components().count(), &a.1).cmp(&(b.1.components().count(), &b.1)));
        own.dedup_by(|a, b| a.1 == b.1);
        own.retain(|(_, at)| {
            !SYSTEM.iter().any(|s| at.starts_with(s))
                && in_kernel(at).is_none()
                && !PRIVATE
                    .iter()
                    .any(|(place, _)| Path::new(place).starts_with(at))
        });
        let dir = lexical(self.dir);
        // The folders on the way to a bound folder in a fresh place are
        // made in a tmpfs of their own, read-only once the binds are in.
        let ways = ways(&own, &dir);
        for way in &ways {
            push(&[os("--size"), os("65536"), os("--tmpfs"), way.as_os_str()]);
        }
        push(&[os("--remount-ro"), os("/dev")]);
        push(&[os("--tmpfs"), os("/run")]);
        match self.inbox {
            Some(inbox) => push(&[os("--ro-bind"), inbox.as_os_str(), os(INBOX)]),
            None => push(&[os("--dir"), os(INBOX)]),
        }
        for (host, inside) in &self.given {
            push(&[os("--ro-bind"), host.as_os_str(), inside]);
        }
        push(&[os("--remount-ro"), os("/run")]);
        // The run's own; the folder it runs in is made (empty) when nothing
        // given holds it.
        for (host, at) in &own {
            push(&[os("--ro-bind"), host.as_os_str(), at.as_os_str()]);
        }
        let held = own.iter().any(|(_, at)| dir.starts_with(at))
            || SYSTEM.iter().any(|s| dir.starts_with(s))
            || dir == Path::new("/");
        if !held {
            push(&[os("--dir"), dir.as_os_str()]);
        }
        for hidden in &self.hidden {
            if hidden.is_dir() {
                push(&[os("--size"), os("4096"), os("--tmpfs"), hidden.as_os_str()]);
                push(&[os("--remount-ro"), hidden.as_os_str()]);
            } else {
                push(&[os("--ro-bind"), os("/dev/null"), hidden.as_os_str()]);
            }
        }
        for way in &ways {
            push(&[os("--remount-ro"), way.as_os_str()]);
        }
        // The box's root, where bubblewrap made the folders on the way to
        // what it binds, is read-only too: a run writes only to its fresh
        // places, which are sized.
        push(&[os("--remount-ro"), os("/")]);
        push(&[os("--chdir"), dir.as_os_str(), os("--")]);
        // The box's first process limits the processes of the box's user
        // (in the box's own user namespace: the box's alone) and becomes
        // the command. `ulimit -u` is bash's, `-p` dash's.
        let limit = format!(
            "ulimit -u {n} 2>/dev/null || ulimit -p {n} || exit 126; exec \"$@\"",
            n = self.processes
        );
        push(&[os("/bin/sh"), os("-c"), OsStr::new(&limit), os("cz-box")]);
        a.extend(self.command.iter().cloned());
        a
    }
}

/// The folders bubblewrap would make, writable, on the way to a bound
/// folder (`own`, by their places in the box) or the folder a run runs in
/// (`dir`) in a fresh place: the first folder below `/tmp` of a candidate
/// whose folder is `/tmp/class/alice`, in which a run could otherwise plant
/// files beside its own folder (its private `/tmp` goes with the box, but a
/// run must find its neighbours' places as it would on the host: not there,
/// and not writable). Each becomes a small tmpfs of its own, remounted
/// read-only once what lies in it is bound, so that a run (which owns what
/// bubblewrap makes) can neither write in it nor change its mode. A folder
/// that is itself bound needs none.
fn ways(own: &[(&Path, PathBuf)], dir: &Path) -> Vec<PathBuf> {
    let mut ways: Vec<PathBuf> = own
        .iter()
        .map(|(_, at)| at.as_path())
        .chain(std::iter::once(dir))
        .filter_map(|path| {
            let place = PRIVATE
                .iter()
                .map(|(place, _)| Path::new(place))
                .find(|place| path.starts_with(place))?;
            let below = path.strip_prefix(place).ok()?.components().next()?;
            Some(place.join(below))
        })
        .filter(|way| !own.iter().any(|(_, at)| way.starts_with(at)))
        .collect();
    ways.sort();
    ways.dedup();
    ways
}

/// The options of bubblewrap this crate writes, with how many arguments
/// each takes: what the supervisor reads to find the folders it binds.
pub(super) fn arity(option: &OsStr) -> Option<usize> {
    Some(match option.to_str()? {
        "--unshare-user"
        | "--unshare-pid"
        | "--as-pid-1"
        | "--unshare-net"
        | "--unshare-ipc"
        | "--unshare-uts"
        | "--unshare-cgroup-try"
        | "--die-with-parent"
        | "--new-session"
        | "--disable-userns"
        | "--clearenv" => 0,
        "--cap-drop" | "--dev" | "--proc" | "--tmpfs" | "--size" | "--remount-ro" | "--dir"
        | "--chdir" | "--info-fd" | "--seccomp" => 1,
        "--setenv" | "--ro-bind" | "--bind" | "--symlink" => 2,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
