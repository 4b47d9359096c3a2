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
//! v2 (one group with `pids`, `memory` and `cpu` enabled for its children).
//! The hierarchies and this process's groups are found from its
//! `/proc/self/cgroup` and `/proc/self/mountinfo`, read with procfs.
//! Without them (not root, or no such controller) the box is held per
//! process and by its tmpfs sizes, and every report says so
//! ([`BoxGroup::available`]).

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, geteuid, getpid};
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

/// The names of the groups, before their pid namespace's number, the
/// supervisor's pid and a count.
const PREFIX: &str = "cz-group-";

impl BoxGroup {
    /// True when a box's memory, processes and CPU time can be held by
    /// control groups here: this process is root and each controller is
    /// mounted.
    pub(super) fn available() -> bool {
        geteuid().is_root() && {
            let places = places();
            places.len() >= 3 || places.iter().any(|(c, _)| *c == Controller::Unified)
        }
    }

    /// Groups that hold at most `processes` processes and `memory` bytes,
    /// when this process runs as root and the controllers are mounted; else
    /// `None`. A controller that is missing is left out.
    pub(super) fn new(processes: u64, memory: u64) -> Option<BoxGroup> {
        if !geteuid().is_root() {
            return None;
        }
        let mut group = BoxGroup { dirs: Vec::new() };
        let (ours, name) = group_name();
        for (controller, base) in places() {
            sweep(&base, &ours);
            let dir = base.join(&name);
            let _ = fs::remove_dir(&dir);
            if fs::create_dir(&dir).is_err() {
                continue;
            }
            group.dirs.push((controller, dir.clone(), base));
            let set = |file: &str, value: String| {
                let _ = fs::write(dir.join(file), value);
            };
            match controller {
                Controller::Pids => set("pids.max", processes.to_string()),
                Controller::Memory => {
                    set("memory.limit_in_bytes", memory.to_string());
                    set("memory.memsw.limit_in_bytes", memory.to_string());
                    set("memory.swappiness", "0".into());
                }
                Controller::Cpu => {}
                Controller::Unified => {
                    set("pids.max", processes.to_string());
                    set("memory.max", memory.to_string());
                    set("memory.swap.max", "0".into());
                }
            }
        }
        (!group.dirs.is_empty()).then_some(group)
    }

    /// Moves this process (all its threads) into the groups: what it
    /// starts afterwards is in them too.
    pub(super) fn join(&self) -> std::io::Result<()> {
        for (_, dir, _) in &self.dirs {
            fs::write(dir.join("cgroup.procs"), getpid().to_string())?;
        }
        Ok(())
    }

    /// Moves this process back where it was: what it started stays in.
    pub(super) fn leave(&self) {
        for (_, _, parent) in &self.dirs {
            let _ = fs::write(parent.join("cgroup.procs"), getpid().to_string());
        }
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
        self.leave();
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

/// The start of the names of the groups of this process's pid namespace,
/// and a name of that start no other group has: the hierarchies may be
/// shared with other containers, where a pid names another process (or
/// none), so a group is named, and swept, only within its namespace; two
/// boxes of one process (a probe and a run, or tests) never share a name.
fn group_name() -> (String, String) {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let space = Process::myself()
        .and_then(|me| me.namespaces())
        .ok()
        .and_then(|spaces| Some(spaces.0.get(OsStr::new("pid"))?.identifier))
        .unwrap_or(0);
    let ours = format!("{PREFIX}{space}-");
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
mod tests {
    use super::*;
    use procfs::FromBufRead;

    /// As root where the controllers are mounted, a box's groups hold its
    /// processes and memory, count its CPU time and are gone after.
    #[test]
    fn a_box_group_is_made_and_removed() {
        let Some(group) = BoxGroup::new(10, 64 << 20) else {
            return;
        };
        let dirs: Vec<PathBuf> = group.dirs.iter().map(|(_, d, _)| d.clone()).collect();
        for (c, dir, _) in &group.dirs {
            if *c == Controller::Pids {
                assert_eq!(
                    fs::read_to_string(dir.join("pids.max")).unwrap().trim(),
                    "10"
                );
            }
            if *c == Controller::Memory {
                let limit = read_number(&dir.join("memory.limit_in_bytes")).unwrap();
                assert!(limit <= 64 << 20 && limit > 60 << 20, "{limit}");
            }
        }
        assert!(group.cpu().is_some());
        drop(group);
        for dir in dirs {
            assert!(!dir.exists(), "{}", dir.display());
        }
    }

    /// A folder of its own, made empty, that stands for a group's.
    fn fake_group(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cz-fake-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        dir
    }

    /// A folder of a supervisor that is gone is removed; one of a
    /// supervisor that runs, or of another pid namespace, is left.
    #[test]
    fn only_the_folders_of_supervisors_gone_from_this_namespace_are_swept() {
        let base = fake_group("sweep");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let me = std::process::id();
        let names = [
            format!("cz-group-7-{gone}-0"),
            format!("cz-group-7-{gone}"),
            format!("cz-group-7-{me}-1"),
            format!("cz-group-8-{gone}-0"),
            format!("cz-stage-{gone}"),
        ];
        for name in &names {
            fs::create_dir(base.join(name)).unwrap();
        }
        sweep(&base, "cz-group-7-");
        let left: Vec<bool> = names.iter().map(|n| base.join(n).exists()).collect();
        assert_eq!(left, [false, false, true, true, true]);
        fs::remove_dir_all(&base).unwrap();
    }

    fn groups(text: &str) -> Vec<ProcessCGroup> {
        procfs::ProcessCGroups::from_buf_read(text.as_bytes())
            .unwrap()
            .0
    }

    fn mounts(lines: &[&str]) -> Vec<MountInfo> {
        lines
            .iter()
            .map(|l| MountInfo::from_line(l).unwrap())
            .collect()
    }

    /// A hybrid machine's v1 hierarchies are found, each at this process's
    /// own group, also where a mount shows a part of its hierarchy only.
    #[test]
    fn v1_hierarchies_are_found() {
        let found = places_in(
            &groups("8:pids:/\n4:memory:/jobs/a\n2:cpuacct:/\n1:cpu:/\n0::/\n"),
            &mounts(&[
                "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
                "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct",
                "35 31 0:32 /jobs /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
                "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
                "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
            ]),
            |_| "pids memory cpu".into(),
        );
        assert_eq!(
            found,
            [
                (Controller::Cpu, PathBuf::from("/sys/fs/cgroup/cpuacct")),
                (Controller::Memory, PathBuf::from("/sys/fs/cgroup/memory/a")),
                (Controller::Pids, PathBuf::from("/sys/fs/cgroup/pids")),
            ]
        );
    }

    /// A v2 machine's group is found when its children may use pids,
    /// memory and cpu; else none is.
    #[test]
    fn the_v2_group_is_found_where_its_controllers_are_enabled() {
        let cgroups = groups("0::/user.slice/job\n");
        let mounts =
            mounts(&["25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate"]);
        let job = PathBuf::from("/sys/fs/cgroup/user.slice/job");
        let found = places_in(&cgroups, &mounts, |dir| {
            assert_eq!(dir, job);
            "cpuset cpu io memory pids".into()
        });
        assert_eq!(found, [(Controller::Unified, job)]);
        assert!(places_in(&cgroups, &mounts, |_| "cpu memory".into()).is_empty());
    }
}
