//! A process limit for a box when the grader runs as root. The kernel does
//! not hold root's processes (user id 0, even in a user namespace of its
//! own) to `RLIMIT_NPROC`, so for root the supervisor puts the box in a
//! control group of the `pids` controller of its own, with `pids.max`, and
//! ends everything in it at the end. Other users need none: in a box's own
//! user namespace, `RLIMIT_NPROC` counts the box's processes alone.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, geteuid, getpid};

/// A `pids` control group of one run's, removed when dropped.
pub(super) struct PidsGroup {
    dir: PathBuf,
    /// The group this process was in.
    parent: PathBuf,
}

impl PidsGroup {
    /// A group that holds at most `max` processes, when this process runs
    /// as root and the `pids` controller is mounted; else `None`.
    pub(super) fn new(max: u64) -> Option<PidsGroup> {
        if !geteuid().is_root() {
            return None;
        }
        let base = own_pids_group()?;
        sweep(&base);
        let dir = base.join(format!("{PREFIX}{}", std::process::id()));
        let _ = fs::remove_dir(&dir);
        fs::create_dir(&dir).ok()?;
        if fs::write(dir.join("pids.max"), max.to_string()).is_err() {
            let _ = fs::remove_dir(&dir);
            return None;
        }
        Some(PidsGroup { dir, parent: base })
    }

    /// Moves this process (all its threads) into the group: what it starts
    /// afterwards is in it too.
    pub(super) fn join(&self) -> std::io::Result<()> {
        fs::write(self.dir.join("cgroup.procs"), getpid().to_string())
    }

    /// Kills every process in the group but this one until none is left
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
        fs::read_to_string(self.dir.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .filter(|&pid| pid != me)
            .collect()
    }
}

impl Drop for PidsGroup {
    fn drop(&mut self) {
        let _ = fs::write(self.parent.join("cgroup.procs"), getpid().to_string());
        self.kill_all();
        for _ in 0..200 {
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The names of the groups, before the supervisor's pid.
const PREFIX: &str = "cz-box-";

/// Removes the empty groups of supervisors that are gone (one killed
/// before it could remove its own).
fn sweep(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// This process's own group of the `pids` controller, as a folder:
/// cgroup v1 (`N:pids:/path`) or v2 (`0::/path`, with `pids` among the
/// controllers its children may use).
fn own_pids_group() -> Option<PathBuf> {
    let cgroups = fs::read_to_string("/proc/self/cgroup").ok()?;
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let v1 = cgroups.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        controllers.split(',').any(|c| c == "pids").then_some(path)
    });
    let v2 = cgroups.lines().find_map(|l| l.strip_prefix("0::"));
    for line in mounts.lines() {
        // "id parent major:minor root mountpoint options ... - fstype source superoptions"
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let Some(mountpoint) = left.split(' ').nth(4) else {
            continue;
        };
        let mut right = right.split(' ');
        let fstype = right.next().unwrap_or("");
        let options = right.nth(1).unwrap_or("");
        let mountpoint = Path::new(mountpoint);
        if fstype == "cgroup"
            && options.split(',').any(|o| o == "pids")
            && let Some(path) = v1
        {
            return Some(mountpoint.join(path.trim_start_matches('/')));
        }
        if fstype == "cgroup2"
            && let Some(path) = v2
        {
            let dir = mountpoint.join(path.trim_start_matches('/'));
            let enabled =
                fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
            if enabled.split_whitespace().any(|c| c == "pids") {
                return Some(dir);
            }
        }
    }
    None
}
