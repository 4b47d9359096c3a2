//! How one run of a candidate went.

use serde::{Deserialize, Serialize};

/// How one run of the candidate went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// It printed the reference's code.
    Pass,
    /// It printed another code.
    Mismatch {
        /// What it printed.
        got: u8,
    },
    /// It printed the reference's code, but then exited with a status
    /// other than 0, or was killed by a signal: a note, never a crash nor
    /// a failure (r[decision.exit-status]).
    ExitStatus {
        /// Exit status, if it exited (`None`: killed by a signal).
        status: Option<i32>,
    },
    /// It did not print one code 0 to 9 (and did not time out or run out
    /// of memory).
    Crash {
        /// Exit status, if it exited.
        status: Option<i32>,
        /// The start of what it wrote to standard error.
        stderr: String,
        /// The start of what it wrote to standard out.
        stdout: String,
    },
    /// It ran past the time limit and was killed.
    Timeout,
    /// It failed for want of memory under the memory cap.
    MemoryExceeded {
        /// Its peak resident memory, in bytes, when known.
        peak: Option<u64>,
    },
    /// Not run: the candidate had timed out on every case for a while
    /// ([`CheckOptions::give_up`](crate::CheckOptions::give_up)).
    Skipped,
}

/// The clause of the notes on exit statuses ([`Outcome::ExitStatus`]).
pub const EXIT_STATUS: &str = "decision.exit-status";

impl Outcome {
    /// Whether the candidate printed the reference's code (passed, or
    /// differed only in its exit status).
    pub fn right_code(&self) -> bool {
        matches!(self, Outcome::Pass | Outcome::ExitStatus { .. })
    }

    /// What the candidate answered, in a few words.
    pub fn answer(&self) -> String {
        match self {
            Outcome::Pass => "the same code".into(),
            Outcome::Mismatch { got } => format!("got {got}"),
            Outcome::ExitStatus { status } => format!(
                "the same code, then {}",
                status.map_or("killed by a signal".into(), |s| format!("exit status {s}"))
            ),
            Outcome::Crash { status, .. } => format!(
                "crashed (exit status {})",
                status.map_or("none".into(), |s| s.to_string())
            ),
            Outcome::Timeout => "timed out".into(),
            Outcome::MemoryExceeded { .. } => "ran out of memory".into(),
            Outcome::Skipped => "not run".into(),
        }
    }
}
