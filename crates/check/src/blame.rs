//! The rule a failure breaks, derived from the case and what the candidate
//! answered: the one place that decides which rule a report names for a
//! failing case, and so which group of `cz grade` it falls in.
//!
//! A case exercises a clause (its `rule`); a candidate that answers it
//! wrongly may have broken another. A candidate with its players swapped
//! answers 2 for a win by player 1 on cases of every clause, but it breaks
//! one rule, turns. The mapping, for a wrong code `got` where the reference
//! says `expect`:
//!
//! | the case and the answer | the rule broken |
//! |---|---|
//! | an `impl` case (any answer) | the case's decision: the difference is on its ruling, and a note |
//! | `got` is the code of another fault the reference found in the file, which the verdict outranks | `code.precedence` |
//! | 1 for 2, or 2 for 1 | `rule.turns` |
//! | 7 expected or answered | `rule.winnable`, or the case's clause if it is about winnability too (`decision.unwinnable`) |
//! | anything else: a win where there is none or none where there is one (0, 1, 2, 3 among themselves), a fault missed or one seen where there is none (4, 5, 6, 8), 9 on a file that can be read | the case's clause |
//!
//! The right code with an exit status other than 0 breaks
//! `decision.exit-status`; a crash, a timeout and a memory breach break no
//! rule of the game and keep the case's clause. Every report also shows
//! the case's own clause beside each case.

use connectz_spec::Class;

use super::{Area, CaseResult, EXIT_STATUS, Outcome};

/// The rule a failing case is blamed on, and its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blame<'a> {
    /// The clause.
    pub rule: &'a str,
    /// Whether the brief settles it: an `impl` blame is a note.
    pub class: Class,
}

impl CaseResult {
    /// The rule the candidate broke on this case (see the module's table).
    pub fn blame(&self) -> Blame<'_> {
        let case = &self.case;
        let rule = match self.outcome {
            Outcome::ExitStatus { .. } => {
                return Blame {
                    rule: EXIT_STATUS,
                    class: Class::Impl,
                };
            }
            Outcome::Mismatch { got } => rule_broken(
                case.expect.number(),
                got,
                &case.rule,
                case.class,
                &case.outranked,
            ),
            _ => &case.rule,
        };
        Blame {
            rule,
            class: case.class,
        }
    }
}

/// The rule broken by answering `got` on a case whose code is `expect`,
/// which exercises `clause` of class `class`, in a file whose other faults
/// have the codes `outranked` (see the module's table).
fn rule_broken<'a>(
    expect: u8,
    got: u8,
    clause: &'a str,
    class: Class,
    outranked: &[u8],
) -> &'a str {
    if class == Class::Impl {
        clause
    } else if outranked.contains(&got) {
        "code.precedence"
    } else if matches!((expect, got), (1, 2) | (2, 1)) {
        "rule.turns"
    } else if expect == 7 || got == 7 {
        if Area::of_clause(clause) == Some(Area::Winnability) {
            clause
        } else {
            "rule.winnable"
        }
    } else {
        clause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of an expected code (0 to 8: a game file is never 9 to
    /// the reference but for want of memory) and another answer (0 to 9),
    /// on a case of a defined clause of play without other faults: swapped
    /// wins are turns, 7 either way winnability, the rest the case's
    /// clause.
    #[test]
    fn every_pair_of_codes_blames_one_rule() {
        for expect in 0..=8u8 {
            for got in (0..=9u8).filter(|&g| g != expect) {
                let rule = rule_broken(expect, got, "rule.line", Class::Defined, &[]);
                let want = match (expect, got) {
                    (1, 2) | (2, 1) => "rule.turns",
                    (7, _) | (_, 7) => "rule.winnable",
                    _ => "rule.line",
                };
                assert_eq!(rule, want, "expected {expect}, got {got}");
            }
        }
    }

    /// The code of another fault in the file is precedence, before any
    /// other reading; a 7 on a case of decision.unwinnable keeps it; an
    /// impl case keeps its decision whatever the answer.
    #[test]
    fn precedence_winnability_and_impl_cases() {
        let defined = Class::Defined;
        // 7 outranks 5 and 6 in the file: 5 or 6 is precedence, 3 is not.
        for got in [5, 6] {
            assert_eq!(
                rule_broken(7, got, "code.precedence", defined, &[5, 6]),
                "code.precedence"
            );
        }
        assert_eq!(
            rule_broken(7, 3, "code.precedence", defined, &[5, 6]),
            "rule.winnable"
        );
        // 8 after moves past a win: 4 is precedence.
        assert_eq!(
            rule_broken(8, 4, "code.precedence", defined, &[4]),
            "code.precedence"
        );
        assert_eq!(
            rule_broken(8, 3, "code.precedence", defined, &[4]),
            "code.precedence"
        );
        assert_eq!(
            rule_broken(8, 3, "format.move", defined, &[]),
            "format.move"
        );
        assert_eq!(
            rule_broken(7, 3, "decision.unwinnable", defined, &[]),
            "decision.unwinnable"
        );
        assert_eq!(rule_broken(3, 7, "rule.end", defined, &[]), "rule.winnable");
        // An impl case's difference is on its ruling, whatever the answer.
        for (expect, got) in [(5, 4), (8, 3), (3, 8), (0, 1)] {
            assert_eq!(
                rule_broken(expect, got, "decision.placed-after-win", Class::Impl, &[4]),
                "decision.placed-after-win"
            );
        }
    }
}
