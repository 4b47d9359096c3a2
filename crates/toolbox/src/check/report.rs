//! The check's report as text.

use std::fmt::Write as _;

use connectz::Code;
use connectz_spec::Class;

use super::{ArgCheck, CheckReport, Outcome};

impl CheckReport {
    /// The report as text. No timings: the same run gives the same text.
    pub fn text(&self) -> String {
        let mut out = format!("cz check: {}\n", self.command);
        if !self.isolation.is_empty() {
            let _ = writeln!(out, "isolation: {}", self.isolation);
        }
        let _ = writeln!(
            out,
            "{} cases: {} from the shipped corpus, {} generated\n",
            self.total,
            self.total - self.generated,
            self.generated
        );
        if self.spent.fresh_checks > 0 {
            let _ = writeln!(
                out,
                "Run through a fork server of the interpreter; {} cases run again in a fresh one ended the same way.\n",
                self.spent.fresh_checks
            );
        }
        for r in &self.results {
            let c = &r.case;
            let label = match &r.outcome {
                Outcome::Pass => continue,
                Outcome::Mismatch { .. } if c.class == Class::Defined => "FAIL",
                Outcome::Mismatch { .. } => "NOTE",
                Outcome::Crash { .. } => "CRASH",
                Outcome::Timeout => "TIMEOUT",
                Outcome::MemoryExceeded { .. } => "MEMORY",
                Outcome::Skipped => "SKIPPED",
            };
            let _ = writeln!(
                out,
                "{label:<7} {}: {} [{}, {}]",
                c.name,
                describe(c.expect, &r.outcome),
                c.rule,
                c.class.name()
            );
            match &r.shrunk {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "        shortest failing input: \"{}\" (expected {}, {})",
                        s.bytes.escape_ascii(),
                        s.expect,
                        s.outcome.answer()
                    );
                }
                None => {
                    let _ = writeln!(out, "        input: \"{}\"", c.bytes.escape_ascii());
                }
            }
        }
        if self.unlisted > 0 {
            let _ = writeln!(out, "... and {} more failures, not listed", self.unlisted);
        }
        out.push_str("\ncommand line:\n");
        for a in &self.args {
            out.push_str(&a.line());
        }
        out.push_str("\nscore per expected code:\n");
        for code in Code::ALL.into_iter().take(9) {
            let (cases, passed) = self.per_code[usize::from(code.number())];
            if cases == 0 {
                continue;
            }
            let _ = writeln!(out, "  {code} {:<17} {passed:>4}/{cases}", code.name());
        }
        let c = &self.counts;
        let _ = writeln!(
            out,
            "\npassed {} of {}; defined failures {}; impl notes {}; crashes {}; timeouts {}; memory breaches {}",
            c.passed,
            self.total,
            self.defined_failures(),
            c.notes,
            c.crashes,
            c.timeouts,
            c.memory
        );
        if c.skipped > 0 {
            let _ = writeln!(
                out,
                "not run after too many timeouts in a row: {}",
                c.skipped
            );
        }
        out
    }
}

impl ArgCheck {
    /// One line of a report: ok or FAIL, what was expected and printed.
    pub fn line(&self) -> String {
        let verdict = if self.passed() { "ok" } else { "FAIL" };
        let mut out = format!(
            "  {verdict:<4} {}: expected {:?}, got {:?}",
            self.what, self.expected, self.got
        );
        if self.status != Some(0) {
            let _ = write!(
                out,
                " (exit status {})",
                self.status.map_or("none".into(), |s| s.to_string())
            );
        }
        out.push('\n');
        out
    }
}

/// A failure in words: "expected 7 (illegal game), got 3", with the
/// details of a crash or a memory breach.
pub fn describe(expect: Code, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass => format!("expected {expect} ({}), passed", expect.name()),
        Outcome::Mismatch { got } => format!("expected {expect} ({}), got {got}", expect.name()),
        Outcome::Crash {
            status,
            stderr,
            stdout,
        } => format!(
            "expected {expect}; exit status {}; stdout {stdout:?}; stderr {stderr:?}",
            status.map_or("none".into(), |s| s.to_string()),
        ),
        Outcome::Timeout => format!("expected {expect}; timed out"),
        Outcome::MemoryExceeded { peak } => format!(
            "expected {expect}; ran out of memory under the cap{}",
            peak.map_or(String::new(), |p| format!(" (peak {} MB)", p >> 20))
        ),
        Outcome::Skipped => format!("expected {expect}; not run, after too many timeouts in a row"),
    }
}
