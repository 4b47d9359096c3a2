//! The areas of the leaderboard: which part of the spec a case exercises,
//! by the clause that decides it.

use connectz::Report;
use serde::{Deserialize, Serialize};

/// The part of the spec a case exercises: the columns of `cz grade`'s
/// leaderboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Area {
    /// Lines, line ends, separators, empty files (`format.*`).
    Format,
    /// Number syntax, zero, and numbers past 32 bits.
    Numbers,
    /// Play: turns, gravity, runs, the end, moves after a win, full and
    /// missing columns (`rule.*`).
    Rules,
    /// Frames on which no winning run can be completed (`rule.winnable`).
    Winnability,
    /// Files with more than one fault: which code wins (`code.precedence`).
    Precedence,
    /// Files of the size the brief is about, within the time the
    /// reference's own time gives (`resource.*`).
    Size,
    /// The argument message, a missing file, a directory (`code.args`,
    /// `code.io`); what is printed, and the exit status
    /// (`decision.exit-status`: a note on any case, in the case's area).
    CommandLine,
}

impl Area {
    /// Every area, in the leaderboard's order.
    pub const ALL: [Area; 7] = [
        Area::Format,
        Area::Numbers,
        Area::Rules,
        Area::Winnability,
        Area::Precedence,
        Area::Size,
        Area::CommandLine,
    ];

    /// Its name, one word.
    pub fn name(self) -> &'static str {
        match self {
            Area::Format => "format",
            Area::Numbers => "numbers",
            Area::Rules => "rules",
            Area::Winnability => "winnability",
            Area::Precedence => "precedence",
            Area::Size => "size",
            Area::CommandLine => "command-line",
        }
    }

    /// The area of a game file whose case exercises `rule`: the clause's
    /// own area, except that a file with several faults is about precedence
    /// and one with a number past 32 bits about numbers. A game file is
    /// never about the command line (that area is the argument checks'):
    /// an example of a clause of the command line, such as the games of
    /// `code.table`, counts in the area of the reference's verdict on it.
    pub fn of(rule: &str, report: &Report, bytes: &[u8]) -> Area {
        // A sized file is about its size, whatever its faults.
        if Area::of_clause(rule) == Some(Area::Size) {
            return Area::Size;
        }
        let area = match Area::of_clause(rule) {
            Some(Area::CommandLine) | None => Area::of_clause(report.verdict.rule())
                .filter(|&a| a != Area::CommandLine)
                .unwrap_or(Area::Rules),
            Some(area) => area,
        };
        if report.faults.len() >= 2 || area == Area::Precedence {
            Area::Precedence
        } else if area == Area::Winnability {
            Area::Winnability
        } else if area == Area::Numbers || has_long_number(bytes) {
            Area::Numbers
        } else {
            area
        }
    }

    /// The area of the clause `id` of the judge's spec, if it is one.
    pub fn of_clause(id: &str) -> Option<Area> {
        CLAUSE_AREAS
            .iter()
            .find(|(clause, _)| *clause == id)
            .map(|&(_, area)| area)
    }
}

/// Every clause of the judge's spec (spec/format.md, rules.md, codes.md,
/// decisions.md, resources.md) and its area; a test holds this list to the
/// spec's ids.
const CLAUSE_AREAS: [(&str, Area); 42] = [
    ("format.file", Area::Format),
    ("format.eol", Area::Format),
    ("format.empty-line", Area::Format),
    ("format.header", Area::Format),
    ("format.move", Area::Format),
    ("format.number", Area::Numbers),
    ("format.positive", Area::Numbers),
    ("decision.separator", Area::Format),
    ("decision.line-ending", Area::Format),
    ("decision.final-newline", Area::Format),
    ("decision.blank-line", Area::Format),
    ("decision.header-only", Area::Format),
    ("decision.empty-file", Area::Format),
    ("decision.number-syntax", Area::Numbers),
    ("decision.zero", Area::Numbers),
    ("decision.big-numbers", Area::Numbers),
    ("rule.frame", Area::Rules),
    ("rule.turns", Area::Rules),
    ("rule.gravity", Area::Rules),
    ("rule.line", Area::Rules),
    ("rule.column-range", Area::Rules),
    ("rule.column-full", Area::Rules),
    ("rule.after-win", Area::Rules),
    ("rule.end", Area::Rules),
    ("decision.placed-after-win", Area::Rules),
    ("decision.win-on-last-cell", Area::Rules),
    ("decision.out-of-memory", Area::Rules),
    ("resource.line", Area::Size),
    ("resource.time", Area::Size),
    ("resource.settled", Area::Size),
    ("resource.board", Area::Size),
    ("rule.winnable", Area::Winnability),
    ("decision.unwinnable", Area::Winnability),
    ("code.precedence", Area::Precedence),
    ("decision.precedence", Area::Precedence),
    ("code.table", Area::CommandLine),
    ("code.io", Area::CommandLine),
    ("code.args", Area::CommandLine),
    ("code.output", Area::CommandLine),
    ("decision.unreadable", Area::CommandLine),
    ("decision.arguments", Area::CommandLine),
    ("decision.exit-status", Area::CommandLine),
];

/// True when the file holds a number of 10 digits or more (past 32 bits).
fn has_long_number(bytes: &[u8]) -> bool {
    bytes
        .split(|b| !b.is_ascii_digit())
        .any(|digits| digits.len() >= 10)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The areas name exactly the clauses of the judge's spec: a clause
    /// added, renamed or removed there fails here until it has an area.
    #[test]
    fn every_clause_of_the_judge_has_one_area() {
        let judge = ["format.", "rule.", "code.", "decision.", "resource."];
        let spec: BTreeSet<String> = connectz_spec::clauses()
            .expect("the embedded spec parses")
            .into_iter()
            .map(|c| c.id)
            .filter(|id| judge.iter().any(|p| id.starts_with(p)))
            .collect();
        let listed: BTreeSet<String> = CLAUSE_AREAS.iter().map(|(id, _)| id.to_string()).collect();
        assert_eq!(listed, spec);
        for id in &spec {
            assert!(Area::of_clause(id).is_some(), "{id}");
        }
        assert_eq!(Area::of_clause("board.grid"), None);
    }

    /// Every game file of the shipped corpus counts in the area of what it
    /// exercises, never in the command line's (the argument checks): the
    /// games of `code.table` count where the reference's verdict on them
    /// does, in rules.
    #[test]
    fn no_game_file_counts_in_the_command_line() {
        let corpus = crate::corpus();
        let table: Vec<_> = corpus.iter().filter(|c| c.rule == "code.table").collect();
        assert!(!table.is_empty());
        for case in &table {
            assert_eq!(case.area, Area::Rules, "{}", case.name);
        }
        for case in &corpus {
            assert_ne!(case.area, Area::CommandLine, "{}", case.name);
        }
    }

    /// Every rule a verdict of the judge can cite has an area of its own
    /// (not the default), so no finding falls into Rules by accident.
    #[test]
    fn every_verdict_of_the_corpus_cites_a_listed_clause() {
        for case in connectz_spec::case_files() {
            let report = connectz::judge_bytes(case.bytes);
            for finding in std::iter::once(&report.verdict).chain(&report.faults) {
                assert!(
                    Area::of_clause(finding.rule()).is_some(),
                    "{}: {}",
                    case.path,
                    finding.rule()
                );
            }
        }
    }
}
