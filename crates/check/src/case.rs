//! The cases a candidate is run on: each input with the reference's code
//! and the clause it exercises.

use std::time::Duration;

use connectz::Code;
use connectz::judge_bytes;
use connectz_spec::Class;
use serde::{Deserialize, Serialize};

use super::Area;

/// One input the candidate is run on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    /// Where it comes from: a spec example, a tests/cases path, or a seed.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The reference's code.
    #[serde(with = "crate::persist::code")]
    pub expect: Code,
    /// The spec clause it exercises: a spec example's clause, an `impl`
    /// case's decision, `code.precedence` for a file with several faults,
    /// else the rule of the verdict. A failure may break another
    /// ([`CaseResult::blame`](crate::CaseResult::blame)).
    pub rule: String,
    /// The codes of the other faults the reference found in the file,
    /// which its verdict outranks (r[code.precedence]): a candidate that
    /// answers one of them broke precedence.
    #[serde(default)]
    pub outranked: Vec<u8>,
    /// Whether the brief settles it.
    #[serde(with = "crate::persist::class")]
    pub class: Class,
    /// The part of the spec it belongs to.
    pub area: Area,
    /// Generated rather than shipped.
    pub generated: bool,
    /// How long the reference took to judge it, in this process.
    pub reference_time: Duration,
}

impl Case {
    /// A case of `bytes`, its code and rule from the reference; `clause` is
    /// the rule when the case is known to exercise one.
    pub fn new(name: String, bytes: Vec<u8>, clause: Option<&str>, class: Class) -> Case {
        let start = std::time::Instant::now();
        let report = judge_bytes(&bytes);
        let reference_time = start.elapsed();
        let rule = match clause {
            Some(rule) => rule.to_string(),
            None if report.faults.len() >= 2 => "code.precedence".to_string(),
            None => report.verdict.rule().to_string(),
        };
        let mut outranked: Vec<u8> = report
            .faults
            .iter()
            .map(|f| f.code().number())
            .filter(|&c| c != report.code().number())
            .collect();
        outranked.sort_unstable();
        outranked.dedup();
        Case {
            area: Area::of(&rule, &report, &bytes),
            expect: report.code(),
            outranked,
            name,
            bytes,
            rule,
            class,
            generated: false,
            reference_time,
        }
    }
}
