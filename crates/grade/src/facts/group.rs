//! A candidate's failures as a report says them: grouped by kind and rule,
//! each group with its failing inputs.

use serde::Serialize;

use connectz::Code;
use connectz_check::{Area, Outcome};
use connectz_spec::Class;

use super::ser;
use crate::{Graded, Group, Kind};

/// The failures of one kind on cases of one rule and class.
#[derive(Debug, Serialize)]
pub struct GroupFacts<'a> {
    /// What went wrong.
    #[serde(serialize_with = "ser::kind")]
    pub kind: Kind,
    /// The rule its cases broke.
    pub rule: &'a str,
    /// Whether the brief settles it (an `impl` group is a note).
    #[serde(serialize_with = "ser::class")]
    pub class: Class,
    /// Whether it counts against the candidate.
    pub counts: bool,
    /// Its cases.
    pub count: usize,
    /// The first of them made smaller, with the same failure.
    pub shrunk: Option<CaseFacts<'a>>,
    /// Its cases, the shortest input first.
    pub cases: Vec<CaseFacts<'a>>,
}

/// A failing input: a case, or one shrunk from it.
#[derive(Debug, Serialize)]
pub struct CaseFacts<'a> {
    /// The case's name (`None` for an input shrunk).
    pub name: Option<&'a str>,
    /// The clause the case exercises; its group names the rule broken
    /// (`None` for an input shrunk).
    pub rule: Option<&'a str>,
    /// The input; in JSON its bytes escaped as in the text report, whole up
    /// to 1 MiB.
    #[serde(serialize_with = "ser::escaped")]
    pub input: &'a [u8],
    /// The reference's code.
    #[serde(serialize_with = "ser::code")]
    pub expected: Code,
    /// What the candidate answered, in a few words.
    pub answer: String,
    /// The code it printed, when it was a wrong one.
    pub got: Option<u8>,
    /// What it wrote to standard error, when it crashed.
    pub stderr: Option<&'a str>,
    /// How long the run took (`None` for an input shrunk).
    pub time_ms: Option<f64>,
    /// How the run went (not in JSON).
    #[serde(skip)]
    pub outcome: &'a Outcome,
    /// The case's place in the order run and its spec area (`None` for an
    /// input shrunk; not in JSON).
    #[serde(skip)]
    pub ran: Option<(usize, Area)>,
    /// What it answered when run again, when that differed (not in JSON).
    #[serde(skip)]
    pub again: Option<String>,
}

impl<'a> GroupFacts<'a> {
    /// The facts of `group`, a group of `g`'s failures.
    pub(super) fn of(g: &'a Graded, group: &'a Group) -> GroupFacts<'a> {
        GroupFacts {
            kind: group.kind,
            rule: &group.rule,
            class: group.class,
            counts: group.counts(),
            count: group.results.len(),
            shrunk: group
                .shrunk
                .as_ref()
                .map(|s| CaseFacts::answered(&s.bytes, s.expect, &s.outcome)),
            cases: g
                .results_of(group)
                .map(|r| CaseFacts {
                    name: Some(&r.case.name),
                    rule: Some(&r.case.rule),
                    time_ms: Some(r.elapsed.as_secs_f64() * 1000.0),
                    ran: Some((r.index, r.case.area)),
                    again: g.check.flaky_at(r.index).map(|f| f.second_answer()),
                    ..CaseFacts::answered(&r.case.bytes, r.case.expect, &r.outcome)
                })
                .collect(),
        }
    }

    /// Its label: FAIL, NOTE, CRASH, TIMEOUT, MEMORY or SKIPPED.
    pub fn label(&self) -> &'static str {
        self.kind.label(self.class)
    }
}

impl<'a> CaseFacts<'a> {
    /// An input, its code and how the candidate answered it, as yet
    /// without a name or a run.
    fn answered(input: &'a [u8], expected: Code, outcome: &'a Outcome) -> CaseFacts<'a> {
        CaseFacts {
            name: None,
            rule: None,
            input,
            expected,
            answer: outcome.answer(),
            got: match outcome {
                Outcome::Mismatch { got } => Some(*got),
                _ => None,
            },
            stderr: match outcome {
                Outcome::Crash { stderr, .. } => Some(stderr),
                _ => None,
            },
            time_ms: None,
            outcome,
            ran: None,
            again: None,
        }
    }
}
