//! Counting outcomes into the report.

use std::time::Duration;

use connectz_spec::Class;

use super::{Case, CaseResult, CheckReport, KEPT_FAILURES, Outcome, Ran};

impl CheckReport {
    /// Counts one case's outcome, keeping it when it did not pass.
    /// `ran`: the case was run (not given another case's outcome).
    pub(super) fn tally(
        &mut self,
        case: Case,
        outcome: Outcome,
        elapsed: Duration,
        log: bool,
        ran: bool,
    ) {
        self.total += 1;
        self.generated += usize::from(case.generated);
        let spent = &mut self.spent;
        match outcome {
            _ if !ran => {}
            Outcome::Timeout => {
                spent.timeouts += 1;
                spent.timeout_time += elapsed;
            }
            Outcome::Skipped => {}
            _ => {
                spent.runs += 1;
                spent.run_time += elapsed;
                spent.fastest = Some(spent.fastest.map_or(elapsed, |f| f.min(elapsed)));
            }
        }
        let passed = outcome == Outcome::Pass;
        // The right code printed: the score per code counts it, however
        // the run ended.
        let right = outcome.right_code();
        if log {
            self.log.push(Ran {
                expect: case.expect.number(),
                passed: right,
                micros: u32::try_from(elapsed.as_micros()).unwrap_or(u32::MAX),
            });
        }
        let slot = &mut self.per_code[usize::from(case.expect.number())];
        slot.0 += 1;
        slot.1 += usize::from(right);
        let defined = case.class == Class::Defined;
        // A note: a wrong code on an impl case, or the right code with
        // another exit status (r[decision.exit-status]).
        let note = match outcome {
            Outcome::Mismatch { .. } => !defined,
            Outcome::ExitStatus { .. } => true,
            _ => false,
        };
        let area = &mut self.per_area[case.area as usize];
        area.cases += 1;
        area.passed += usize::from(passed);
        area.notes += usize::from(note);
        let c = &mut self.counts;
        match &outcome {
            Outcome::Pass => {
                c.passed += 1;
                return;
            }
            _ if note => c.notes += 1,
            Outcome::Mismatch { .. } | Outcome::ExitStatus { .. } => {}
            Outcome::Crash { .. } => c.crashes += 1,
            Outcome::Timeout => c.timeouts += 1,
            Outcome::MemoryExceeded { .. } => c.memory += 1,
            Outcome::Skipped => c.skipped += 1,
        }
        c.defined += usize::from(defined && !note);
        if self.results.len() < KEPT_FAILURES {
            self.results.push(CaseResult {
                index: self.total - 1,
                case,
                outcome,
                elapsed,
                shrunk: None,
            });
        } else {
            self.unlisted += 1;
        }
    }

    /// Failures on defined cases (mismatches, crashes, timeouts, memory
    /// breaches) and command-line checks that failed.
    pub fn defined_failures(&self) -> usize {
        self.counts.defined + self.args.iter().filter(|a| !a.passed()).count()
    }
}
