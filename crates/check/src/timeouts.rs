//! When a run is called a timeout. A flat limit costs its whole length on
//! every case a candidate hangs on; most cases need a few milliseconds. So
//! by default a case is first run within what it needs (a floor for an
//! interpreter's start-up, plus a hundred times the reference's own time on
//! it) and, if that runs out, again within the full limit: only the second
//! run decides, so a slow but finishing candidate passes as under the flat
//! limit. Once a candidate's first runs have run out and its second runs
//! confirmed it a few times in a row, it hangs, and the second run is
//! spared while it keeps hanging; any second run that finishes restores
//! them.

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
    /// Timeouts confirmed in a row after which the candidate is taken to
    /// hang, and a timeout of the first run is no longer run again.
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

/// How a case's run went: its outcome, the time it took (both runs), and
/// whether it was run twice.
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

    /// Runs `candidate` on the case written at `path`.
    pub(super) fn judge(
        &self,
        candidate: &Candidate,
        sandbox: &Sandbox,
        path: &Path,
        case: &Case,
    ) -> CaseRun {
        let full = sandbox.limits().timeout;
        let first = self.first_limit(case, full);
        let (outcome, run) = candidate.judge_within(sandbox, path, case.expect, first);
        let Some(policy) = self.policy else {
            return CaseRun {
                outcome,
                elapsed: run.elapsed,
                retried: false,
            };
        };
        let hangs = self.confirmed.load(Ordering::Relaxed) >= policy.confirmations;
        if outcome != Outcome::Timeout || first >= full || hangs {
            return CaseRun {
                outcome,
                elapsed: run.elapsed,
                retried: false,
            };
        }
        let (again, second) = candidate.judge_within(sandbox, path, case.expect, full);
        if again == Outcome::Timeout {
            self.confirmed.fetch_add(1, Ordering::Relaxed);
        } else {
            self.confirmed.store(0, Ordering::Relaxed);
        }
        CaseRun {
            outcome: again,
            elapsed: run.elapsed + second.elapsed,
            retried: true,
        }
    }
}
