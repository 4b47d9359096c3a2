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
//! Without them (not root, or no such controller) the box is held per
//! process and by its tmpfs sizes, and every report says so
//! ([`BoxGroup::available`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, geteuid, getpid};

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

/// The names of the groups, before the supervisor's pid.
const PREFIX: &str = "cz-box-";

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
        for (controller, base) in places() {
            sweep(&base, PREFIX);
            let dir = base.join(format!("{PREFIX}{}", std::process::id()));
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

/// Removes the empty folders of `base` named `prefix` and the pid of a
/// supervisor that is gone (one killed before it could remove its own):
/// its control groups, its staging folder.
pub(super) fn sweep(base: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(prefix)) else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// This process's own group of each controller, as a folder: cgroup v1
/// (`N:pids:/path`, `N:memory:/path`, `N:cpu,cpuacct:/path`) where each is
/// mounted, else v2 (`0::/path`, with `pids`, `memory` and `cpu` among the
/// controllers its children may use).
fn places() -> Vec<(Controller, PathBuf)> {
    let (Ok(cgroups), Ok(mounts)) = (
        fs::read_to_string("/proc/self/cgroup"),
        fs::read_to_string("/proc/self/mountinfo"),
    ) else {
        return Vec::new();
    };
    let v1 = |wanted: &str| {
        cgroups.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers.split(',').any(|c| c == wanted).then_some(path)
        })
    };
    let v2 = cgroups.lines().find_map(|l| l.strip_prefix("0::"));
    let mut found = Vec::new();
    let mut unified = None;
    for line in mounts.lines() {
        // "id parent major:minor root mountpoint options ... - fstype source superoptions"
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let mut left = left.split(' ');
        let (Some(root), Some(mountpoint)) = (left.nth(3), left.next()) else {
            continue;
        };
        let mut right = right.split(' ');
        let fstype = right.next().unwrap_or("");
        let options = right.nth(1).unwrap_or("");
        let mountpoint = Path::new(mountpoint);
        // The group's path is given from the hierarchy's root; the mount
        // may show a part of it only.
        let under = |path: &str| -> Option<PathBuf> {
            let rest = Path::new(path).strip_prefix(root).ok()?;
            Some(mountpoint.join(rest))
        };
        if fstype == "cgroup" {
            for (name, controller) in [
                ("pids", Controller::Pids),
                ("memory", Controller::Memory),
                ("cpuacct", Controller::Cpu),
            ] {
                if options.split(',').any(|o| o == name)
                    && !found.iter().any(|(c, _)| *c == controller)
                    && let Some(dir) = v1(name).and_then(under)
                {
                    found.push((controller, dir));
                }
            }
        }
        if fstype == "cgroup2"
            && let Some(dir) = v2.and_then(under)
        {
            let enabled =
                fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
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
}
