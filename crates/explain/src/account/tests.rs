use super::*;
use connectz::{Direction, FormatFault, Nat, Player, WinningRun, decide};

/// One finding of each rank, the line given.
/// (An unreadable file is found alone.)
fn one_of_each(line: u64) -> Vec<Finding> {
    vec![
        Finding::Format {
            line,
            fault: FormatFault::EmptyLine,
        },
        Finding::Unwinnable,
        Finding::OffFrame {
            line,
            column: Nat::from(9),
        },
        Finding::OutOfMemory { line },
        Finding::ColumnFull {
            line,
            column: Nat::from(1),
        },
        Finding::AfterWin { line },
        Finding::Won {
            line,
            run: WinningRun {
                player: Player::One,
                column: Nat::from(1),
                row: 1,
                direction: Direction::Vertical,
                length: 4,
            },
        },
    ]
}

/// How the account's order of precedence names a finding's rank.
fn label(finding: &Finding) -> String {
    match finding {
        Finding::OutOfMemory { .. } => "9 (out of memory)".into(),
        Finding::Won { .. } | Finding::Draw { .. } | Finding::Unfinished { .. } => "result".into(),
        other => other.code().to_string(),
    }
}

/// For every pair of findings, the first in the file and the one `decide`
/// picks, the account says the verdict outranks the first fault by an
/// order that puts the verdict's rank before the first's: the account's
/// precedence is the rules'. An out-of-memory 9 and a column outside the
/// frame among them.
#[test]
fn the_account_of_precedence_agrees_with_decide() {
    let mut explained = 0;
    for first in one_of_each(3) {
        for later in one_of_each(5) {
            let findings = [first.clone(), later];
            let verdict = decide(&findings).expect("a finding").clone();
            let report = Report {
                verdict: verdict.clone(),
                faults: findings.to_vec(),
                result: None,
                header: None,
                game: None,
            };
            let Some(first) = first_other_fault(&report) else {
                continue;
            };
            let reason = reason(&report);
            let order = reason
                .split("outranks it: ")
                .nth(1)
                .and_then(|rest| rest.split(" [").next())
                .unwrap_or_else(|| panic!("no order in {reason:?}"));
            let ranks: Vec<&str> = order.split(" > ").collect();
            let at = |f: &Finding| {
                let l = label(f);
                ranks
                    .iter()
                    .position(|r| *r == l)
                    .unwrap_or_else(|| panic!("{l} in {order}"))
            };
            assert!(at(&verdict) < at(first), "{reason}");
            assert!(reason.contains(&format!("but code {} outranks it", verdict.code())));
            explained += 1;
        }
    }
    // Of 49 pairs, those where a later or stronger fault decides: the 15
    // pairs of the six ranks found in play, and a format fault with an
    // unwinnable frame, in either order.
    assert_eq!(explained, 17);
    // The case that a fixed order of codes would get wrong.
    let memory_then_column = [
        Finding::OutOfMemory { line: 3 },
        Finding::OffFrame {
            line: 5,
            column: Nat::from(9),
        },
    ];
    let report = Report {
        verdict: memory_then_column[1].clone(),
        faults: memory_then_column.to_vec(),
        result: None,
        header: None,
        game: None,
    };
    assert!(
        reason(&report).ends_with(
            "but code 6 outranks it: 9 > 8 > 7 > 6 > 9 (out of memory) > 5 > 4 > result \
             [code.precedence, decision.out-of-memory]"
        ),
        "{}",
        reason(&report)
    );
}
