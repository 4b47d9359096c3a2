//! What a run has used, read from /proc through the procfs crate: a
//! process's CPU time and the time it waited for a core, the CPU time of
//! every process below the supervisor, and the run's own time, which is
//! held to its time limit.

use std::collections::HashMap;
use std::time::Duration;

use nix::unistd::Pid;
use procfs::process::{Process, Stat, all_processes};

/// CPU time of every process below `root` (not `root` itself): their own
/// and their reaped children's.
pub(super) fn tree_cpu(root: Pid) -> Duration {
    let Ok(processes) = all_processes() else {
        return Duration::ZERO;
    };
    let mut parent = HashMap::new();
    let mut ticks = HashMap::new();
    // A process that ends while the list is read is left out: what it
    // used is its parent's (reaped) or gone with the box.
    for stat in processes.filter_map(|p| p.ok()?.stat().ok()) {
        parent.insert(stat.pid, stat.ppid);
        ticks.insert(stat.pid, ticks_used(&stat));
    }
    let below = |mut pid: i32| {
        for _ in 0..4096 {
            match parent.get(&pid) {
                Some(&p) if p == root.as_raw() => return true,
                Some(&p) if p > 0 => pid = p,
                _ => return false,
            }
        }
        false
    };
    let total: u64 = ticks
        .iter()
        .filter(|(pid, _)| below(**pid))
        .map(|(_, t)| *t)
        .sum();
    from_ticks(total)
}

/// What a process has used so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Times {
    /// CPU time: its own and its reaped children's.
    pub cpu: Duration,
    /// Time it was ready to run but waited for a core (the machine's
    /// load, not the run's doing).
    pub waited: Duration,
}

impl Times {
    /// The times of `pid`, from /proc; `None` once it is gone.
    pub(super) fn of(pid: Pid) -> Option<Times> {
        let process = Process::new(pid.as_raw()).ok()?;
        let cpu = from_ticks(ticks_used(&process.stat().ok()?));
        let waited = process
            .schedstat()
            .map_or(Duration::ZERO, |s| Duration::from_nanos(s.run_delay));
        Some(Times { cpu, waited })
    }
}

/// The clock ticks a process has used: its own (user and system) and its
/// reaped children's.
fn ticks_used(stat: &Stat) -> u64 {
    let reaped = |t: i64| u64::try_from(t).unwrap_or(0);
    stat.utime
        .saturating_add(stat.stime)
        .saturating_add(reaped(stat.cutime))
        .saturating_add(reaped(stat.cstime))
}

/// `ticks` clock ticks as a time, at this machine's tick rate.
fn from_ticks(ticks: u64) -> Duration {
    // Linux's rate for /proc is 100 a second wherever it is not told.
    let per_second = match procfs::ticks_per_second() {
        0 => 100,
        t => t,
    };
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / per_second)
}

/// A run's own time after `wall` of it: the time it was on a core or
/// chose not to be (asleep, waiting for input), never the time it waited
/// for a core while others had them. This, not wall-clock time, is held
/// to the time limit, so that a run's verdict does not depend on the
/// machine's load; its CPU time is held to the limit too.
pub(super) fn own_time(times: &Times, wall: Duration) -> Duration {
    wall.saturating_sub(times.waited)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    /// A second of clock ticks is a second, whatever the tick rate.
    #[test]
    fn ticks_are_counted_at_the_real_rate() {
        assert_eq!(
            from_ticks(procfs::ticks_per_second()),
            Duration::from_secs(1)
        );
        assert_eq!(from_ticks(0), Duration::ZERO);
    }

    /// A process that has ended and been reaped has no times, and is no
    /// error; one that runs has them.
    #[test]
    fn a_process_that_is_gone_has_no_times() {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = Pid::from_raw(child.id() as i32);
        child.wait().unwrap();
        assert_eq!(Times::of(pid), None);
        assert_eq!(tree_cpu(pid), Duration::ZERO);
        assert!(Times::of(nix::unistd::getpid()).is_some());
    }

    /// The CPU time a child has used counts in the CPU time of the tree
    /// below its parent.
    #[test]
    fn a_childs_cpu_time_counts_below_its_parent() {
        let mut child = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let pid = Pid::from_raw(child.id() as i32);
        // Against a hang only: the child is given up to a minute to use
        // a tick.
        let deadline = Instant::now() + Duration::from_secs(60);
        let used = loop {
            let used = Times::of(pid).unwrap().cpu;
            if !used.is_zero() || Instant::now() > deadline {
                break used;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let tree = tree_cpu(nix::unistd::getpid());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!used.is_zero());
        assert!(tree >= used, "{tree:?} < {used:?}");
    }
}
