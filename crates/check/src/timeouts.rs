//! When a run is called a timeout. A flat limit costs its whole length on
//! every case a candidate hangs on; most cases need a few milliseconds. So
//! by default a case has a first limit, what it needs (a floor for an
//! interpreter's start-up, plus a hundred times the reference's own time on
//! it), and the full limit: a run that goes past the first limit is let go
//! on to the full one, which alone decides, so a slow but finishing
//! candidate passes as under the flat limit. Once a candidate's runs past
//! their first limit have timed out a few times in a row at the full one,
//! it hangs, and its runs are stopped at their first limit while it keeps
//! hanging; any run past its first limit that finishes restores the full
//! limit. (Stopping every run at its first limit and running it again
//! within the full one, when it ran out, decides the same and pays the
//! first limit twice: a run is one run here.)

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{Candidate, Case, Outcome};
use connectz_sandbox::Sandbox;

/// How the first run's limit is derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The least time a first run is given: an interpreter's start-up on a
    /// busy machine.
    pub floor: Duration,
    /// Timeouts at the full limit in a row after which the candidate is
    /// taken to hang, and its runs are stopped at their first limit.
    pub confirmations: usize,
}

impl Policy {
    /// The first run's limit for an input the reference judged in
    /// `reference_time` (before the sandbox's own limit applies).
    pub fn first_limit(&self, reference_time: Duration) -> Duration {
        self.floor + reference_time * 100
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            floor: Duration::from_secs(1),
            confirmations: 2,
        }
    }
}

/// One candidate's runs under a [`Policy`] (or under the flat limit).
#[derive(Debug)]
pub(super) struct Timeouts {
    policy: Option<Policy>,
    confirmed: AtomicUsize,
}

/// How a case's run went: its outcome, the time it took, and whether it
/// went past its first limit (and was let go on to the full one).
pub(super) struct CaseRun {
    pub outcome: Outcome,
    pub elapsed: Duration,
    pub retried: bool,
}

impl Timeouts {
    pub(super) fn new(policy: Option<Policy>) -> Timeouts {
        Timeouts {
            policy,
            confirmed: AtomicUsize::new(0),
        }
    }

    /// The first run's limit for `case`, under the full limit `full`.
    pub(super) fn first_limit(&self, case: &Case, full: Duration) -> Duration {
        match self.policy {
            Some(p) => p.first_limit(case.reference_time).min(full),
            None => full,
        }
    }

    /// Runs `candidate` on the case written at `path`: within the full
    /// limit, or within its first limit once the candidate hangs.
    pub(super) fn judge(
        &self,
        candidate: &Candidate,
        sandbox: &Sandbox,
        path: &Path,
        case: &Case,
    ) -> CaseRun {
        let full = sandbox.limits().timeout;
        let first = self.first_limit(case, full);
        let hangs = self
            .policy
            .is_some_and(|p| self.confirmed.load(Ordering::Relaxed) >= p.confirmations);
        let limit = if hangs { first } else { full };
        let (outcome, run) = candidate.judge_within(sandbox, path, case.expect, limit);
        // Past its first limit: by the run's own measure, its CPU time or
        // its time in all.
        let past_first = !hangs && first < full && run.elapsed.max(run.cpu) >= first;
        if past_first {
            if outcome == Outcome::Timeout {
                self.confirmed.fetch_add(1, Ordering::Relaxed);
            } else {
                self.confirmed.store(0, Ordering::Relaxed);
            }
        }
        CaseRun {
            outcome,
            elapsed: run.elapsed,
            retried: past_first,
        }
    }
}
