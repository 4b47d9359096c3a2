//! Answers that are not reproducible. A judge gives one answer to a file:
//! the reference is deterministic, and a reviewer expects one answer. So
//! the first failing cases of a check (a wrong code on a defined case, or a
//! crash; not a timeout nor a memory breach, each of which would cost its
//! limit again) are run once more, as they were first run, and a case the
//! candidate answered differently the second time is flaky. The rule: a
//! flaky case counts as failed, with its first outcome (whichever answer
//! the candidate gives, it changes its answer to the same file), and a
//! candidate with a flaky case is nondeterministic.

use std::time::Duration;

use connectz::Code;
use connectz_spec::Class;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Case, CaseResult, Outcome};

/// Failing cases run again per candidate, at most: the first ones in the
/// order run.
pub const RERUNS: usize = 64;

/// A case the candidate answered one way, then another when it was run
/// again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flaky {
    /// The case's place in the order run (its [`CaseResult::index`]).
    pub index: usize,
    /// The case's name.
    pub case: String,
    /// The reference's code.
    #[serde(with = "crate::persist::code")]
    pub expect: Code,
    /// The first outcome: the one counted.
    pub first: Outcome,
    /// The outcome when run again.
    pub second: Outcome,
}

impl Flaky {
    /// The first answer in a few words: "got 3".
    pub fn first_answer(&self) -> String {
        said(self.expect, &self.first)
    }

    /// The second answer in a few words: "got 1".
    pub fn second_answer(&self) -> String {
        said(self.expect, &self.second)
    }

    /// Both answers in words: "expected 1 (win for player 1): got 3,
    /// then got 1 when run again".
    pub fn describe(&self) -> String {
        format!(
            "expected {} ({}): {}, then {} when run again",
            self.expect,
            self.expect.name(),
            self.first_answer(),
            self.second_answer()
        )
    }
}

/// What a run answered, in a few words; a pass says the code it printed.
pub(super) fn said(expect: Code, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass => format!("got {expect}"),
        Outcome::ExitStatus { .. } => format!("got {expect}, {}", outcome.answer()),
        other => other.answer(),
    }
}

/// What a run says about the candidate's answer to a file.
#[derive(Debug, PartialEq, Eq)]
enum RunAnswer {
    /// It printed this code.
    Code(u8),
    /// It printed no code: a crash.
    NoCode,
}

/// The answer a run gave: `None` when the run says nothing about it (it
/// timed out, ran out of memory or was not run: how long a run takes and
/// how much memory it holds depend on the machine's load too). The exit
/// status does not count: the code printed decides (r[decision.exit-status]).
fn answer(expect: Code, outcome: &Outcome) -> Option<RunAnswer> {
    match outcome {
        Outcome::Pass | Outcome::ExitStatus { .. } => Some(RunAnswer::Code(expect.number())),
        Outcome::Mismatch { got } => Some(RunAnswer::Code(*got)),
        Outcome::Crash { .. } => Some(RunAnswer::NoCode),
        Outcome::Timeout | Outcome::MemoryExceeded { .. } | Outcome::Skipped => None,
    }
}

/// Whether two runs of a case the reference calls `expect` answered
/// differently: another code printed, or a code one time and none (a
/// crash) the other. Two crashes agree, however each ended; a run that
/// answered nothing ([`answer`]) agrees with any.
fn answered_differently(expect: Code, first: &Outcome, second: &Outcome) -> bool {
    match (answer(expect, first), answer(expect, second)) {
        (Some(a), Some(b)) => a != b,
        _ => false,
    }
}

/// Whether a case that did not pass is run again: a wrong code on a
/// defined case (a failure, where one on an `impl` case is a note), or a
/// crash.
fn runs_again(r: &CaseResult) -> bool {
    match r.outcome {
        Outcome::Mismatch { .. } => r.case.class == Class::Defined,
        Outcome::Crash { .. } => true,
        _ => false,
    }
}

/// What running failing cases again found and cost.
#[derive(Debug, Default)]
pub(super) struct RunAgain {
    /// The flaky cases, in the order run.
    pub flaky: Vec<Flaky>,
    /// Cases run again.
    pub runs: usize,
    /// Their time.
    pub elapsed: Duration,
}

/// Runs the first [`RERUNS`] failing cases of `results` (in the order
/// run) once more with `run`, as many at a time as the rayon pool it is
/// called in has threads, and names those answered differently.
///
/// # Errors
/// `run`'s.
pub(super) fn run_again(
    results: &[CaseResult],
    run: impl Fn(&Case) -> std::io::Result<(Outcome, Duration)> + Sync,
) -> std::io::Result<RunAgain> {
    let chosen: Vec<&CaseResult> = results
        .iter()
        .filter(|r| runs_again(r))
        .take(RERUNS)
        .collect();
    let again: Vec<(Outcome, Duration)> = chosen
        .par_iter()
        .map(|r| run(&r.case))
        .collect::<std::io::Result<_>>()?;
    let mut found = RunAgain {
        runs: chosen.len(),
        ..RunAgain::default()
    };
    for (r, (second, elapsed)) in chosen.into_iter().zip(again) {
        found.elapsed += elapsed;
        if answered_differently(r.case.expect, &r.outcome, &second) {
            found.flaky.push(Flaky {
                index: r.index,
                case: r.case.name.clone(),
                expect: r.case.expect,
                first: r.outcome.clone(),
                second,
            });
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    use connectz_rng::Rng;

    fn crash(status: i32, stderr: &str) -> Outcome {
        Outcome::Crash {
            status: Some(status),
            stderr: stderr.into(),
            stdout: String::new(),
        }
    }

    /// Two answers differ when the code printed differs, or a code was
    /// printed one time and none the other; not for the exit status, how a
    /// crash ended, or a run that answered nothing.
    #[test]
    fn two_runs_differ_by_the_code_printed() {
        let e = Code::WinOne;
        let wrong = |got| Outcome::Mismatch { got };
        let differ = |a: &Outcome, b: &Outcome| {
            let one = answered_differently(e, a, b);
            assert_eq!(one, answered_differently(e, b, a), "{a:?} {b:?}");
            one
        };
        // Flaky.
        assert!(differ(&wrong(3), &Outcome::Pass));
        assert!(differ(&wrong(3), &wrong(2)));
        assert!(differ(&crash(1, "boom"), &wrong(3)));
        assert!(differ(&crash(1, "boom"), &Outcome::Pass));
        assert!(differ(&wrong(3), &Outcome::ExitStatus { status: Some(1) }));
        // Not flaky.
        assert!(!differ(&wrong(3), &wrong(3)));
        assert!(!differ(&crash(1, "boom"), &crash(2, "bang")));
        assert!(!differ(
            &Outcome::Pass,
            &Outcome::ExitStatus { status: None }
        ));
        for nothing in [
            Outcome::Timeout,
            Outcome::MemoryExceeded { peak: None },
            Outcome::Skipped,
        ] {
            assert!(!differ(&wrong(3), &nothing));
            assert!(!differ(&crash(1, ""), &nothing));
        }
    }

    fn case(n: usize, expect: Code, class: Class) -> Case {
        Case {
            name: format!("case {n}"),
            bytes: n.to_string().into_bytes(),
            expect,
            rule: "rule.test".into(),
            outranked: Vec::new(),
            class,
            area: crate::Area::Rules,
            generated: false,
            reference_time: Duration::ZERO,
        }
    }

    fn result(index: usize, outcome: Outcome, class: Class) -> CaseResult {
        CaseResult {
            index,
            case: case(index, Code::WinOne, class),
            outcome,
            elapsed: Duration::ZERO,
            shrunk: None,
        }
    }

    /// A candidate that answers at random (from a fixed seed) is caught;
    /// one that fails the same way each time is not; only failures are run
    /// again, and at most [`RERUNS`] of them, the first ones.
    #[test]
    fn a_candidate_that_answers_at_random_is_caught() {
        let results: Vec<CaseResult> = (0..200)
            .map(|i| match i % 5 {
                0 => result(i, Outcome::Timeout, Class::Defined),
                1 => result(i, Outcome::Mismatch { got: 3 }, Class::Impl),
                2 => result(i, crash(1, "boom"), Class::Defined),
                _ => result(i, Outcome::Mismatch { got: 3 }, Class::Defined),
            })
            .collect();
        let asked = Mutex::new(Vec::new());
        let rng = Mutex::new(Rng::new(40));
        let random = |c: &Case| {
            asked.lock().unwrap().push(c.name.clone());
            let got = rng.lock().unwrap().below(10) as u8;
            Ok((Outcome::Mismatch { got }, Duration::from_millis(1)))
        };
        let found = run_again(&results, random).unwrap();
        assert_eq!(found.runs, RERUNS);
        assert_eq!(found.elapsed, Duration::from_millis(RERUNS as u64));
        // Three of every five cases are failures run again.
        let mut asked = asked.into_inner().unwrap();
        asked.sort_by_key(|n| n[5..].parse::<usize>().unwrap());
        let expected: Vec<String> = (0..200)
            .filter(|i| i % 5 >= 2)
            .take(RERUNS)
            .map(|i| format!("case {i}"))
            .collect();
        assert_eq!(asked, expected);
        // Nearly every one answered another way: a 3 again by chance, or
        // a code after a crash, whatever it is, both counted.
        assert!(found.flaky.len() > RERUNS / 2, "{:?}", found.flaky);
        assert!(found.flaky.windows(2).all(|w| w[0].index < w[1].index));
        let one = &found.flaky[0];
        assert_eq!(one.first, results[one.index].outcome);
        assert!(
            one.describe()
                .starts_with("expected 1 (win for player 1): ")
        );
        // The same wrong answer again, or a crash again: nothing flaky.
        let same = |c: &Case| {
            let n: usize = String::from_utf8_lossy(&c.bytes).parse().unwrap();
            let outcome = results[n].outcome.clone();
            Ok((outcome, Duration::ZERO))
        };
        let found = run_again(&results, same).unwrap();
        assert_eq!(found.runs, RERUNS);
        assert_eq!(found.flaky, Vec::new());
    }

    #[test]
    fn the_answers_are_said_with_the_code_printed() {
        let flaky = Flaky {
            index: 4,
            case: "x".into(),
            expect: Code::IllegalGame,
            first: crash(1, ""),
            second: Outcome::Pass,
        };
        assert_eq!(
            flaky.describe(),
            "expected 7 (illegal game): crashed (exit status 1), then got 7 when run again"
        );
    }
}
