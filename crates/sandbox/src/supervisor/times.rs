//! What a run has used, read from /proc: a process's CPU time and the time
//! it waited for a core, the CPU time of every process below the
//! supervisor, and the run's own time, which is held to its time limit.

use std::fs;
use std::time::Duration;

use nix::unistd::Pid;

/// CPU time of every process below `root` (not `root` itself): their own
/// and their reaped children's.
pub(super) fn tree_cpu(root: Pid) -> Duration {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    let mut parent = std::collections::HashMap::new();
    let mut ticks = std::collections::HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(at) = stat.rfind(')') else {
            continue;
        };
        let fields: Vec<&str> = stat[at + 1..].split_whitespace().collect();
        // state ppid ... utime(12) stime cutime cstime.
        let Some(ppid) = fields.get(1).and_then(|f| f.parse::<i32>().ok()) else {
            continue;
        };
        let used: u64 = fields
            .iter()
            .skip(11)
            .take(4)
            .filter_map(|f| f.parse::<u64>().ok())
            .sum();
        parent.insert(pid, ppid);
        ticks.insert(pid, used);
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
    Duration::from_nanos(total.saturating_mul(1_000_000_000) / clock_ticks())
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
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let rest = &stat[stat.rfind(')')? + 1..];
        // After the name: state ppid pgrp session tty tpgid flags minflt
        // cminflt majflt cmajflt utime stime cutime cstime.
        let ticks: u64 = rest
            .split_whitespace()
            .skip(11)
            .take(4)
            .filter_map(|f| f.parse::<u64>().ok())
            .sum();
        let per_second = clock_ticks();
        let cpu = Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / per_second);
        let waited = fs::read_to_string(format!("/proc/{pid}/schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
            .map_or(Duration::ZERO, Duration::from_nanos);
        Some(Times { cpu, waited })
    }
}

fn clock_ticks() -> u64 {
    nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .and_then(|t| u64::try_from(t).ok())
        .filter(|&t| t > 0)
        .unwrap_or(100)
}

/// A run's own time after `wall` of it: the time it was on a core or
/// chose not to be (asleep, waiting for input), never the time it waited
/// for a core while others had them. This, not wall-clock time, is held
/// to the time limit, so that a run's verdict does not depend on the
/// machine's load; its CPU time is held to the limit too.
pub(super) fn own_time(times: &Times, wall: Duration) -> Duration {
    wall.saturating_sub(times.waited)
}
