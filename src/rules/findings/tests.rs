use super::*;
use crate::game::step;
use crate::grammar::Header;
use crate::run::{Direction, Player, WinningRun};

fn column(v: u64) -> Nat {
    Nat::from(v)
}

/// r[decision.precedence]: of each kind of fault the first is kept, in
/// file order; the strongest decides.
#[test]
fn the_first_fault_of_each_kind_is_kept() {
    let mut findings = Findings::default();
    findings.moved(3, &column(1), Effect::ColumnFull);
    findings.moved(4, &column(2), Effect::ColumnFull);
    findings.moved(5, &column(9), Effect::OffFrame);
    findings.moved(6, &column(8), Effect::OffFrame);
    findings.format(7, FormatFault::EmptyLine);
    let (verdict, faults, result) = findings.finish(false, None, 6, 7);
    assert_eq!(
        faults,
        [
            Finding::ColumnFull {
                line: 3,
                column: column(1)
            },
            Finding::OffFrame {
                line: 5,
                column: column(9)
            },
            Finding::Format {
                line: 7,
                fault: FormatFault::EmptyLine
            },
        ]
    );
    assert_eq!(verdict, faults[2]);
    assert_eq!(result, None);
}

/// What each effect of a move means: r[rule.column-range] (6),
/// r[rule.column-full] (5), r[rule.after-win] (4), r[rule.line] (the
/// first winning run), r[decision.out-of-memory] (9, and the game cannot go
/// on); an ordinary placement means nothing.
#[test]
fn effects_mean_findings() {
    let run = WinningRun {
        player: Player::Two,
        column: column(2),
        row: 1,
        direction: Direction::Horizontal,
        length: 3,
    };
    let cases = [
        (Effect::OffFrame, Some(Code::IllegalColumn), true),
        (Effect::ColumnFull, Some(Code::IllegalRow), true),
        (
            Effect::Placed {
                row: 2,
                after_win: true,
            },
            Some(Code::IllegalContinue),
            true,
        ),
        (
            Effect::Placed {
                row: 2,
                after_win: false,
            },
            None,
            true,
        ),
        (Effect::OutOfMemory, Some(Code::FileError), false),
    ];
    for (effect, code, goes_on) in cases {
        let mut findings = Findings::default();
        assert_eq!(findings.moved(2, &column(3), effect.clone()), goes_on);
        assert_eq!(findings.strongest().map(Finding::code), code, "{effect:?}");
    }
    let mut findings = Findings::default();
    findings.moved(4, &column(3), Effect::Won { row: 1, run });
    let (verdict, faults, _) = findings.finish(false, None, 4, 4);
    assert!(faults.is_empty());
    assert_eq!((verdict.code(), verdict.line()), (Code::WinTwo, Some(4)));
}

/// r[rule.column-range] without a board: a column past X is still 6; one
/// inside the frame is nothing.
#[test]
fn unplayed_columns_are_held_to_x() {
    let mut findings = Findings::default();
    findings.unplayed(5, &column(7), &column(7));
    assert_eq!(findings.strongest(), None);
    findings.unplayed(6, &column(8), &column(7));
    assert_eq!(
        findings.strongest(),
        Some(&Finding::OffFrame {
            line: 6,
            column: column(8)
        })
    );
}

/// r[decision.big-numbers]: a column is past the frame by its length alone
/// only with more significant digits than X: just below, at and above.
#[test]
fn columns_longer_than_x_are_past_the_frame() {
    let x = Nat::from(12_345u64);
    assert!(!longer_than_frame(4, &x));
    assert!(!longer_than_frame(5, &x));
    assert!(longer_than_frame(6, &x));
}

/// r[rule.end], r[decision.header-only], r[decision.empty-file]: the result
/// of play at the end of the file, and the empty file.
#[test]
fn the_end_of_the_file_gives_the_result_of_play() {
    let header = Header {
        x: column(2),
        y: column(1),
        z: column(2),
    };
    // A header alone: unfinished at line 1.
    let game = Game::new(&header);
    let (verdict, _, _) = Findings::default().finish(false, Some(&game), 0, 1);
    assert_eq!(verdict, Finding::Unfinished { line: 1 });
    // One move: unfinished at the last line, which may follow the move.
    let (game, _) = step(game, &column(1));
    let (verdict, _, _) = Findings::default().finish(false, Some(&game), 2, 2);
    assert_eq!(verdict, Finding::Unfinished { line: 2 });
    // A full frame with no run: a draw at the last move.
    let (game, _) = step(game, &column(2));
    assert!(game.is_full());
    let (verdict, _, result) = Findings::default().finish(false, Some(&game), 3, 3);
    assert_eq!(verdict, Finding::Draw { line: 3 });
    assert_eq!(result, Some(verdict));
    // No bytes: a format fault at line 1, and no result.
    let (verdict, faults, result) = Findings::default().finish(true, None, 0, 0);
    assert_eq!(
        verdict,
        Finding::Format {
            line: 1,
            fault: FormatFault::EmptyFile
        }
    );
    assert_eq!((faults.len(), result), (1, None));
}

/// r[rule.winnable]: a game is played on a winnable frame only, and an
/// unwinnable one is a 7.
#[test]
fn a_game_is_played_on_a_winnable_frame_only() {
    let header = |x: u64, y: u64, z: u64| Header {
        x: x.into(),
        y: y.into(),
        z: z.into(),
    };
    let mut findings = Findings::default();
    assert!(findings.header(&header(7, 6, 4)));
    assert_eq!(findings.strongest(), None);
    assert!(!findings.header(&header(1, 5, 2)));
    assert_eq!(findings.strongest(), Some(&Finding::Unwinnable));
}

/// r[decision.out-of-memory], r[code.precedence]: play stops at the first
/// fault nothing found in play can outrank; columns still count until a
/// 7 or an 8; only a format fault settles the verdict.
#[test]
fn what_later_lines_can_still_change() {
    let state = |f: &Findings| (f.plays_on(), f.columns_count(), f.settled());
    let mut findings = Findings::default();
    assert_eq!(state(&findings), (true, true, false));
    findings.moved(
        3,
        &column(1),
        Effect::Placed {
            row: 1,
            after_win: true,
        },
    );
    assert_eq!(
        state(&findings),
        (true, true, false),
        "a move after the win"
    );
    findings.moved(4, &column(1), Effect::ColumnFull);
    assert_eq!(state(&findings), (false, true, false), "a full column");
    let mut memory = Findings::default();
    memory.out_of_memory(2);
    assert_eq!(state(&memory), (false, true, false), "memory gone");
    let mut frame = Findings::default();
    frame.header(&Header {
        x: 2u64.into(),
        y: 4u64.into(),
        z: 6u64.into(),
    });
    assert_eq!(state(&frame), (false, false, false), "an unwinnable frame");
    findings.format(9, FormatFault::EmptyLine);
    assert_eq!(state(&findings), (false, false, true), "a format fault");
}
