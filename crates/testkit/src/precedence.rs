//! The precedence of findings as the spec words it, for the fuzz targets to
//! hold the judge's verdict to without asking the judge: it shares no code
//! with `connectz::decide` or `Finding::rank`.
//!
//! - r[code.precedence]: "9 > 8 > 7 > 6 > 5 > 4 > the result of play (1, 2,
//!   0 or 3)".
//! - r[decision.out-of-memory]: a game that needs more memory than the
//!   judge can get is a 9, and "in the order of codes this finding stands
//!   between 6 and 5".
//! - r[decision.precedence]: among findings of the same code, "the first in
//!   the file stands".

use connectz::Finding;

/// The place of a finding in the spec's order, the strongest first.
fn place(finding: &Finding) -> u8 {
    match finding {
        // 9: the file cannot be opened or read (r[code.io]).
        Finding::Unreadable { .. } => 0,
        // 8: the file does not conform to the format.
        Finding::Format { .. } => 1,
        // 7: no winning run can ever be completed on the frame.
        Finding::Unwinnable => 2,
        // 6: a column greater than X.
        Finding::OffFrame { .. } => 3,
        // 9, out of memory: between 6 and 5.
        Finding::OutOfMemory { .. } => 4,
        // 5: a move into a full column.
        Finding::ColumnFull { .. } => 5,
        // 4: a move after a winning run was completed.
        Finding::AfterWin { .. } => 6,
        // The result of play: 1, 2, 0 or 3.
        Finding::Won { .. } | Finding::Draw { .. } | Finding::Unfinished { .. } => 7,
    }
}

/// The finding that decides the code among `findings`, given in file order:
/// the strongest by the spec's order, and of equals the first in the file.
pub fn strongest(findings: &[Finding]) -> Option<&Finding> {
    let mut best: Option<&Finding> = None;
    for finding in findings {
        let earlier = |b: &Finding| finding.line().unwrap_or(0) < b.line().unwrap_or(0);
        if best
            .is_none_or(|b| place(finding) < place(b) || (place(finding) == place(b) && earlier(b)))
        {
            best = Some(finding);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use connectz::{FormatFault, Nat};

    /// The spec's order on one finding of each kind, given weakest first
    /// and in every rotation: the strongest always decides, and the
    /// out-of-memory 9 loses to a column outside the frame but beats a
    /// full column.
    #[test]
    fn the_strongest_by_the_spec_decides() {
        let kinds = [
            Finding::Unfinished { line: 9 },
            Finding::AfterWin { line: 8 },
            Finding::ColumnFull {
                line: 7,
                column: Nat::from(1),
            },
            Finding::OutOfMemory { line: 6 },
            Finding::OffFrame {
                line: 5,
                column: Nat::from(9),
            },
            Finding::Unwinnable,
            Finding::Format {
                line: 3,
                fault: FormatFault::EmptyLine,
            },
        ];
        for weakest in 0..kinds.len() {
            let given = &kinds[weakest..];
            assert_eq!(strongest(given), given.last(), "{given:?}");
        }
        let oom_and_full = [kinds[2].clone(), kinds[3].clone()];
        assert_eq!(strongest(&oom_and_full), Some(&kinds[3]));
        let oom_and_column = [kinds[3].clone(), kinds[4].clone()];
        assert_eq!(strongest(&oom_and_column), Some(&kinds[4]));
        assert_eq!(strongest(&[]), None);
    }

    /// r[decision.precedence]: of two findings of one code, the earlier in
    /// the file stands, in whichever order they are given.
    #[test]
    fn of_equals_the_first_in_the_file_stands() {
        let fault = |line| Finding::Format {
            line,
            fault: FormatFault::EmptyLine,
        };
        assert_eq!(strongest(&[fault(4), fault(2)]), Some(&fault(2)));
        assert_eq!(strongest(&[fault(2), fault(4)]), Some(&fault(2)));
    }
}
