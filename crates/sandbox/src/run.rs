//! What a run may take ([`Limits`]) and what it did ([`Execution`]), as
//! the supervisor's report tells it.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time: CPU time, and the run's own time (wall-clock time less the
    /// time it waited for a core), each held to it.
    pub timeout: Duration,
    /// Address space, in bytes (`RLIMIT_AS`): close to resident memory for
    /// the interpreters candidates are written in.
    pub memory: u64,
    /// The most a run may write to standard output or error, or to any file.
    pub output: u64,
    /// Processes a run may hold at once, itself included (in a box).
    pub processes: u64,
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
    /// CPU time of all it ran.
    pub cpu: Duration,
    /// Peak resident memory of the largest process it waited for, in bytes.
    pub peak_memory: Option<u64>,
    /// True when it did not end well (a signal, a status other than 0, or
    /// its time ran out) with its peak resident memory at half the cap or
    /// more: it reached the memory limit ([`memory_reached`]).
    pub memory_exceeded: bool,
}

/// Whether a run that ended `ended` at a peak of `peak` bytes reached the
/// memory cap: it did not end well, and its peak was at least half the
/// cap. An allocation refused under the cap fails at once (the address
/// space is what it asked for, not what it held), so a program that fails
/// to allocate with little held asked for more than any machine gives: that
/// is its own fault, a crash with its message, not a memory breach. A run
/// that reaches both limits is a memory breach: which of the two it reaches
/// first depends on the machine.
pub fn memory_reached(ended: &Ended, peak: Option<u64>, limits: Limits) -> bool {
    let ended_well = matches!(ended, Ended::Exited(0));
    !ended_well && peak.is_some_and(|p| p.saturating_mul(2) >= limits.memory)
}

/// A run that was never started, and why.
pub(crate) fn not_started(why: &str) -> Execution {
    Execution {
        ended: Ended::NotStarted(why.to_string()),
        stdout: Vec::new(),
        stderr: Vec::new(),
        elapsed: Duration::ZERO,
        cpu: Duration::ZERO,
        peak_memory: None,
        memory_exceeded: false,
    }
}

/// Reads a file of at most `limit` bytes.
fn read_capped(path: &Path, limit: u64) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Ok(file) = fs::File::open(path) {
        let _ = file.take(limit).read_to_end(&mut bytes);
    }
    bytes
}

/// A run as the supervisor's report `text` and its output files tell it.
pub(crate) fn read_report(text: &str, out: &Path, err: &Path, limits: Limits) -> Execution {
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
        Ended::NotStarted("the supervisor ended without a report: the run was killed".into())
    };
    let micros = |name: &str| Duration::from_micros(field(name).unwrap_or(0).max(0) as u64);
    let peak_memory = field("peak-kb").map(|kb| kb.max(0) as u64 * 1024);
    // The box's memory group ended a process of it: a breach, whatever
    // else the run did.
    let box_oom = field("box-oom") == Some(1);
    Execution {
        memory_exceeded: box_oom || memory_reached(&ended, peak_memory, limits),
        ended,
        stdout: read_capped(out, limits.output),
        stderr: read_capped(err, limits.output),
        elapsed: micros("elapsed-us"),
        cpu: micros("cpu-us"),
        peak_memory,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(memory: u64) -> Limits {
        Limits {
            timeout: Duration::from_secs(1),
            memory,
            output: 1 << 20,
            processes: 64,
        }
    }

    /// A run reaches the memory cap when it ends badly at half the cap or
    /// more: just below, at and above half; never when it ended well.
    #[test]
    fn the_memory_cap_is_reached_at_half_of_it() {
        let l = limits(1000);
        let bad = Ended::Exited(1);
        assert!(!memory_reached(&bad, Some(499), l));
        assert!(memory_reached(&bad, Some(500), l));
        assert!(memory_reached(&Ended::Signalled(9), Some(501), l));
        assert!(memory_reached(&Ended::TimedOut, Some(900), l));
        assert!(!memory_reached(&Ended::Exited(0), Some(999), l));
        assert!(!memory_reached(&bad, None, l));
    }
}
