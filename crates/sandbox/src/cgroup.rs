//! Limits of a whole box, when the grader runs as root: control groups of
//! its own, made by its supervisor, that hold every process of the box
//! together, orphans included.
//!
//! - **processes**: `pids.max` (the kernel does not hold root's processes,
//!   user id 0 even in a user namespace of its own, to `RLIMIT_NPROC`);
//! - **memory**: the processes' memory and the pages of the box's tmpfs
//!   (`/tmp`, `/var/tmp`, `/dev/shm` are charged to the group of the process
//!   that wrote them), no swap beyond it: past it the kernel's OOM killer
//!   ends a process of the box, which the report counts as a memory breach;
//! - **CPU time** of every process that ever ran in the box, read by the
//!   supervisor as the run goes on.
//!
//! cgroup v1 (a hierarchy per controller: `pids`, `memory`, `cpuacct`) or
//! v2 (one group with `pids`, `memory` and `cpu` enabled for its children),
//! found from this process's `/proc/self/cgroup` and `mountinfo`, read with
//! procfs. Each limit is written and read back (the kernel rounds a memory
//! limit down to its page): a limit that does not hold is an error, and the
//! run is not started. A controller that is not mounted, or whose hierarchy
//! this process may not write (read-only, as in a container), holds
//! nothing, and the box is held without it: per process and by its tmpfs
//! sizes. [`held_here`] makes a group as a run would, to say which hold.

use std::ffi::OsStr;
use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, geteuid, getpid};
use procfs::Current;
use procfs::ProcessCGroup;
use procfs::process::{MountInfo, Process};

/// The control groups of one box, removed when dropped.
pub(super) struct BoxGroup {
    /// Each group's folder and the folder of the group this process was
    /// in (one for cgroup v2, one a controller for v1).
    dirs: Vec<(Controller, PathBuf, PathBuf)>,
}

/// A controller the box is held by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Controller {
    Pids,
    Memory,
    Cpu,
    /// cgroup v2: all three in one group.
    Unified,
}

/// What the groups of a box saw, at its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Usage {
    /// CPU time of every process that ran in the box.
    pub cpu: Option<Duration>,
    /// The box's peak memory, in bytes.
    pub peak: Option<u64>,
    /// True when the box reached its memory limit and the kernel killed
    /// a process of it.
    pub oom: bool,
}

/// What of a box its control groups hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Holding {
    processes: bool,
    memory: bool,
    cpu: bool,
}

/// One limit of a group: the file it is written to and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Limit {
    file: &'static str,
    value: u64,
    /// A number of bytes, which the kernel rounds down to its page.
    bytes: bool,
    /// A limit of swap: its file may be missing where the machine has no
    /// swap (the kernel then keeps no count of it), since there is nothing
    /// to hold.
    swap: bool,
}

impl Limit {
    const fn exact(file: &'static str, value: u64) -> Limit {
        Limit {
            file,
            value,
            bytes: false,
            swap: false,
        }
    }

    const fn bytes(file: &'static str, value: u64) -> Limit {
        Limit {
            bytes: true,
            ..Limit::exact(file, value)
        }
    }

    const fn of_swap(self) -> Limit {
        Limit { swap: true, ..self }
    }

    /// True when the file, read back as `read`, holds this limit: the
    /// value itself, or for bytes the value rounded down to a `page`.
    fn holds(&self, read: &str, page: u64) -> bool {
        match read.trim().parse::<u64>() {
            Ok(read) if self.bytes => read <= self.value && self.value - read < page.max(1),
            Ok(read) => read == self.value,
            Err(_) => false,
        }
    }
}

/// The names of the groups, before their pid namespace's number, the
/// supervisor's pid and a count.
const PREFIX: &str = "cz-group-";

/// The limits the group of `held_here` is given: any that a run's may be.
const PROBE_PROCESSES: u64 = 16;
const PROBE_MEMORY: u64 = 64 << 20;

impl BoxGroup {
    /// Groups that hold at most `processes` processes and `memory` bytes,
    /// when this process runs as root and the controllers are mounted
    /// where it may write; else `None`. A controller that is missing is
    /// left out.
    ///
    /// # Errors
    /// A group cannot be made, or a limit does not hold: the file and
    /// why (the groups made so far are removed).
    pub(super) fn new(processes: u64, memory: u64) -> Result<Option<BoxGroup>, String> {
        if !geteuid().is_root() {
            return Ok(None);
        }
        let swap = swaps();
        let page = procfs::page_size();
        let mut group = BoxGroup { dirs: Vec::new() };
        let (ours, name) = group_name(PREFIX);
        for (controller, base) in places() {
            sweep(&base, &ours);
            let dir = base.join(&name);
            let _ = fs::remove_dir(&dir);
            match fs::create_dir(&dir) {
                Ok(()) => {}
                // Not this process's to write: as if it were not mounted.
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::ReadOnlyFilesystem | ErrorKind::PermissionDenied
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(format!("{}: {e}", dir.display())),
            }
            group.dirs.push((controller, dir.clone(), base));
            set_limits(&dir, &limits(controller, processes, memory), swap, page)?;
        }
        Ok((!group.dirs.is_empty()).then_some(group))
    }

    /// What of a box these groups hold.
    fn holding(&self) -> Holding {
        let mut holding = Holding::default();
        for (controller, _, _) in &self.dirs {
            match controller {
                Controller::Pids => holding.processes = true,
                Controller::Memory => holding.memory = true,
                Controller::Cpu => holding.cpu = true,
                Controller::Unified => {
                    holding = Holding {
                        processes: true,
                        memory: true,
                        cpu: true,
                    }
                }
            }
        }
        holding
    }

    /// Moves this process (all its threads) into the groups: what it
    /// starts afterwards is in them too.
    ///
    /// # Errors
    /// A group does not take it: the file and why.
    pub(super) fn join(&self) -> Result<(), String> {
        for (_, dir, _) in &self.dirs {
            write_to(&dir.join("cgroup.procs"), u64::from(std::process::id()))?;
        }
        Ok(())
    }

    /// Moves this process back where it was: what it started stays in.
    ///
    /// # Errors
    /// A group it was in does not take it back: the file and why (it
    /// is then counted with the box).
    pub(super) fn leave(&self) -> Result<(), String> {
        for (_, _, parent) in &self.dirs {
            write_to(&parent.join("cgroup.procs"), u64::from(std::process::id()))?;
        }
        Ok(())
    }

    /// The folder of the group that holds the box's memory, if one does.
    pub(super) fn memory_dir(&self) -> Option<&Path> {
        self.dirs
            .iter()
            .find(|(c, _, _)| matches!(c, Controller::Memory | Controller::Unified))
            .map(|(_, dir, _)| dir.as_path())
    }

    /// CPU time of every process that ran in the box so far.
    pub(super) fn cpu(&self) -> Option<Duration> {
        self.dirs.iter().find_map(|(c, dir, _)| match c {
            Controller::Cpu => read_number(&dir.join("cpuacct.usage")).map(Duration::from_nanos),
            Controller::Unified => fs::read_to_string(dir.join("cpu.stat"))
                .ok()?
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec "))
                .and_then(|v| v.trim().parse().ok())
                .map(Duration::from_micros),
            _ => None,
        })
    }

    /// The box's memory and CPU time, at its end.
    pub(super) fn usage(&self) -> Usage {
        let mut usage = Usage {
            cpu: self.cpu(),
            ..Usage::default()
        };
        for (c, dir, _) in &self.dirs {
            match c {
                Controller::Memory => {
                    usage.peak = read_number(&dir.join("memory.max_usage_in_bytes"));
                    usage.oom = counter(&dir.join("memory.oom_control"), "oom_kill") > 0;
                }
                Controller::Unified => {
                    usage.peak = read_number(&dir.join("memory.peak"));
                    usage.oom = counter(&dir.join("memory.events"), "oom_kill") > 0;
                }
                _ => {}
            }
        }
        usage
    }

    /// Kills every process in the groups but this one until none is left
    /// (the caller reaps them), for at most two seconds.
    pub(super) fn kill_all(&self) {
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            let pids = self.members();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn members(&self) -> Vec<i32> {
        let me = getpid().as_raw();
        let mut pids: Vec<i32> = self
            .dirs
            .iter()
            .flat_map(|(_, dir, _)| {
                fs::read_to_string(dir.join("cgroup.procs"))
                    .unwrap_or_default()
                    .lines()
                    .filter_map(|l| l.trim().parse().ok())
                    .collect::<Vec<i32>>()
            })
            .filter(|&pid| pid != me)
            .collect();
        pids.sort_unstable();
        pids.dedup();
        pids
    }
}

impl Drop for BoxGroup {
    fn drop(&mut self) {
        // Left already, or not joined (a group that failed to be set up).
        let _ = self.leave();
        self.kill_all();
        for (_, dir, _) in &self.dirs {
            for _ in 0..200 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// How many processes the kernel's OOM killer has ended in the memory
/// group at `dir` (cgroup v1 or v2).
pub(super) fn oom_kills(dir: &Path) -> u64 {
    counter(&dir.join("memory.oom_control"), "oom_kill")
        + counter(&dir.join("memory.events"), "oom_kill")
}

fn read_number(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `name` in a file of `name value` lines (0 when absent).
fn counter(path: &Path, name: &str) -> u64 {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// What holds a box's memory, processes and CPU time here, in words for
/// the isolation line: found by making the groups a run is given, setting
/// each limit, reading it back and removing them, so that the words say
/// what holds before any run.
pub(super) fn held_here() -> String {
    match BoxGroup::new(PROBE_PROCESSES, PROBE_MEMORY) {
        Ok(groups) => in_words(groups.as_ref().map(BoxGroup::holding).unwrap_or_default()),
        Err(why) => format!(
            "control groups here did not take a box's limits ({why}): a run whose limits cannot be set is not started"
        ),
    }
}

/// What holds a box, given what its control groups hold.
fn in_words(holding: Holding) -> String {
    let parts = [
        (
            holding.memory,
            "memory",
            "memory per process and by sized tmpfs",
        ),
        (
            holding.processes,
            "processes",
            "processes by a limit of the box's user",
        ),
        (holding.cpu, "CPU time", "CPU time over the box's processes"),
    ];
    let held: Vec<&str> = parts.iter().filter(|p| p.0).map(|p| p.1).collect();
    let rest: Vec<&str> = parts.iter().filter(|p| !p.0).map(|p| p.2).collect();
    match (held.as_slice(), rest.as_slice()) {
        ([], _) => "no control group here: memory held per process and by sized tmpfs, processes by a limit of the box's user, CPU time over the box's processes".into(),
        (held, []) => format!("{} held for the whole box by control groups", listed(held)),
        (held, rest) => format!(
            "{} held for the whole box by control groups, {}",
            listed(held),
            rest.join(", ")
        ),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn listed(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, first)) => format!("{} and {last}", first.join(", ")),
        None => String::new(),
    }
}

/// The limits a group of `controller` is given, in the order they are
/// written (a v1 group's memory with swap may not be set below its
/// memory).
fn limits(controller: Controller, processes: u64, memory: u64) -> Vec<Limit> {
    match controller {
        Controller::Pids => vec![Limit::exact("pids.max", processes)],
        Controller::Memory => vec![
            Limit::bytes("memory.limit_in_bytes", memory),
            Limit::bytes("memory.memsw.limit_in_bytes", memory).of_swap(),
            Limit::exact("memory.swappiness", 0).of_swap(),
        ],
        Controller::Cpu => Vec::new(),
        Controller::Unified => vec![
            Limit::exact("pids.max", processes),
            Limit::bytes("memory.max", memory),
            Limit::bytes("memory.swap.max", 0).of_swap(),
        ],
    }
}

/// Writes each of `limits` in the group at `dir` and reads it back. A
/// limit of swap whose file is missing is passed over when the machine
/// has no `swap`.
///
/// # Errors
/// A limit is not written, or does not read back as written (rounded
/// down to a `page` for bytes): the file and why.
fn set_limits(dir: &Path, limits: &[Limit], swap: bool, page: u64) -> Result<(), String> {
    for limit in limits {
        let path = dir.join(limit.file);
        if limit.swap && !swap && !path.exists() {
            continue;
        }
        write_to(&path, limit.value)?;
        let read = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if !limit.holds(&read, page) {
            return Err(format!(
                "{}: set to {} but reads {:?}",
                path.display(),
                limit.value,
                read.trim()
            ));
        }
    }
    Ok(())
}

/// Writes `value` to the control file at `path`, which must exist (a
/// group's files are the kernel's: a missing one is a limit not there).
fn write_to(path: &Path, value: u64) -> Result<(), String> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut file| file.write_all(value.to_string().as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Whether this machine has swap (assumed when /proc/meminfo cannot be
/// read).
fn swaps() -> bool {
    procfs::Meminfo::current().map_or(true, |m| m.swap_total > 0)
}

/// The start of the names `prefix` gives this process's pid namespace, and
/// a name of that start no other has: the hierarchies (and `/run`) may be
/// shared with other containers, where a pid names another process (or
/// none), so a group or a staging folder is named, and swept, only within
/// its namespace; two of one process (a probe and a run, or tests) never
/// share a name.
pub(super) fn group_name(prefix: &str) -> (String, String) {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let space = Process::myself()
        .and_then(|me| me.namespaces())
        .ok()
        .and_then(|spaces| Some(spaces.0.get(OsStr::new("pid"))?.identifier))
        .unwrap_or(0);
    let ours = format!("{prefix}{space}-");
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = format!("{ours}{}-{n}", std::process::id());
    (ours, name)
}

/// Removes the empty folders of `base` named `prefix` and the pid of a
/// supervisor that is gone (one killed before it could remove its own),
/// with or without `-N` after it: its control groups, its staging folder.
pub(super) fn sweep(base: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next()?.parse::<i32>().ok())
        else {
            continue;
        };
        if Process::new(pid).is_err() {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// This process's own group of each controller, as a folder, from its
/// `/proc/self/cgroup` and `/proc/self/mountinfo`.
fn places() -> Vec<(Controller, PathBuf)> {
    let Ok(me) = Process::myself() else {
        return Vec::new();
    };
    let (Ok(groups), Ok(mounts)) = (me.cgroups(), me.mountinfo()) else {
        return Vec::new();
    };
    places_in(&groups.0, &mounts.0, |dir| {
        fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default()
    })
}

/// The group of each controller that `groups` name, as a folder where
/// `mounts` show it: cgroup v1 (`N:pids:/path`, `N:memory:/path`,
/// `N:cpu,cpuacct:/path`) where each is mounted, else v2 (`0::/path`, with
/// `pids`, `memory` and `cpu` among the controllers its children may use,
/// as `enabled` reads them from a group's folder).
fn places_in(
    groups: &[ProcessCGroup],
    mounts: &[MountInfo],
    enabled: impl Fn(&Path) -> String,
) -> Vec<(Controller, PathBuf)> {
    let v1 = |wanted: &str| {
        groups
            .iter()
            .find(|g| g.hierarchy != 0 && g.controllers.iter().any(|c| c == wanted))
            .map(|g| g.pathname.as_str())
    };
    let v2 = groups
        .iter()
        .find(|g| g.hierarchy == 0 && g.controllers.is_empty())
        .map(|g| g.pathname.as_str());
    let mut found = Vec::new();
    let mut unified = None;
    for mount in mounts {
        // The group's path is given from the hierarchy's root; the mount
        // may show a part of it only.
        let under = |path: &str| -> Option<PathBuf> {
            let rest = Path::new(path).strip_prefix(&mount.root).ok()?;
            Some(mount.mount_point.join(rest))
        };
        if mount.fs_type == "cgroup" {
            for (name, controller) in [
                ("pids", Controller::Pids),
                ("memory", Controller::Memory),
                ("cpuacct", Controller::Cpu),
            ] {
                if mount.super_options.contains_key(name)
                    && !found.iter().any(|(c, _)| *c == controller)
                    && let Some(dir) = v1(name).and_then(under)
                {
                    found.push((controller, dir));
                }
            }
        }
        if mount.fs_type == "cgroup2"
            && let Some(dir) = v2.and_then(under)
        {
            let enabled = enabled(&dir);
            let on = |c: &str| enabled.split_whitespace().any(|e| e == c);
            if on("pids") && on("memory") && on("cpu") {
                unified = Some(dir);
            }
        }
    }
    match unified {
        Some(dir) if found.len() < 3 => vec![(Controller::Unified, dir)],
        _ => found,
    }
}

#[cfg(test)]
mod tests;
