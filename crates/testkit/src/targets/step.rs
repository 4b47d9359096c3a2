//! The `step` target: one game three ways, the fold of `connectz::step`
//! against the full-board-scan oracle after every move, and the judge's
//! batched path against the fold and the spec's precedence.

use arbitrary::Unstructured;

use connectz::hooks::{self, Storage};
use connectz::{Effect, Finding, Game, Header, Judge, Keep, Nat, SHOWN_DIGITS, winnable};

use crate::full_scan::{FullScanBoard, Ruling};
use crate::precedence;

/// `step`: one game, three ways. Folds [`connectz::step`] over columns
/// made from bytes and, after every move, compares its effect and the whole
/// board with [`FullScanBoard`], the rules applied to a board scanned whole.
/// Then the game as a file goes through the judge's batched path (the
/// [`Judge`], whose ordinary moves skip `step`) on every store and over
/// several chunkings, and must give the findings and final state that the
/// fold of `step` and the oracle give, and the verdict that the spec's
/// precedence ([`crate::precedence`]) picks among those findings.
pub fn step(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Some((header, base, width, kind)) = step_frame(&mut u) else {
        return;
    };
    let storage = [Storage::Auto, Storage::Sparse, Storage::Dense][usize::from(kind / 4) % 3];
    let keep = Keep {
        board: kind & 0x20 != 0,
    };
    let game = hooks::game(&header, keep, storage);
    let oracle = FullScanBoard::new(header.x.clone(), header.y.clone(), &header.z, base, width);
    let context = format!(
        "frame {} {} {}, {storage:?}, {keep:?}",
        header.x, header.y, header.z
    );
    let played = fold_step(&mut u, game, oracle, keep, &context);
    let (faults, result) = findings_of(&played.moves, &played.effects, &header.x, &played.stepped);
    let verdict =
        precedence::strongest(&[faults.clone(), result.clone().into_iter().collect()].concat())
            .cloned();
    let file = render(&header, &played.moves);
    // Chunk sizes: the whole file, a byte at a time (every line split), and
    // sizes the input picks, half the file among them, in turn (so the
    // fuzzer explores where chunks cut lines and batches).
    let mut picked: Vec<usize> = data
        .iter()
        .rev()
        .take(3)
        .map(|&b| usize::from(b % 23) + 2)
        .collect();
    picked.push(file.len() / 2 + 1);
    let chunkings = [vec![file.len()], vec![1], picked];
    for storage in [Storage::Auto, Storage::Sparse, Storage::Dense] {
        for sizes in &chunkings {
            let context = || {
                format!(
                    "{storage:?}, {keep:?}, chunks {sizes:?}, file {:?}",
                    String::from_utf8_lossy(&file)
                )
            };
            let report = judge_in_chunks(&file, sizes, hooks::judge(keep, storage));
            assert_eq!(Some(&report.verdict), verdict.as_ref(), "{}", context());
            assert_eq!(report.faults, faults, "{}", context());
            assert_eq!(report.result, result, "{}", context());
            let judged = report.game.as_ref().expect("a winnable frame is played");
            assert_same_game(judged, &played.stepped, &context);
            assert_same_board(judged, &played.scanned, keep.board, &context);
        }
    }
}

/// The `step` target's frame from the input: a window of `width` columns
/// after column `base` (small, or up to and past 2^64 wide), its header,
/// and a byte choosing the store and what the board keeps. `None` when the
/// bytes run out or the frame cannot be won.
fn step_frame(u: &mut Unstructured) -> Option<(Header, Nat, usize, u8)> {
    let (Ok(shape), Ok(width), Ok(height), Ok(connect), Ok(kind)) = (
        u.arbitrary::<u8>(),
        u.int_in_range(1..=8usize),
        u.int_in_range(1..=8u64),
        u.int_in_range(1..=6u64),
        u.arbitrary::<u8>(),
    ) else {
        return None;
    };
    // Where the window of columns played sits, and what lies beyond it:
    // nothing, a few columns, or a frame past 2^64 (the stores change at
    // 2^16 and 2^40 columns; rows past u64 never fill).
    let bases = [0, 65_530, 1 << 40, u64::MAX - 8];
    let base = Nat::from(bases[usize::from(shape % 4)]);
    let beyond = match (shape / 4) % 3 {
        0 => Nat::ZERO,
        1 => Nat::from(u64::from(shape / 12)),
        _ => Nat::from_digits(b"100000000000000000000000000").expect("digits"),
    };
    let x = base.add_u64(width as u64).add(&beyond);
    let y = match kind % 4 {
        3 => Nat::from_digits(b"99999999999999999999999").expect("digits"),
        _ => Nat::from(height),
    };
    let z = Nat::from(connect);
    winnable(&x, &y, &z).then_some((Header { x, y, z }, base, width, kind))
}

/// A game played by folding `step`, move by move.
struct Played {
    /// The columns asked for, in order.
    moves: Vec<Nat>,
    /// What each did.
    effects: Vec<Effect>,
    /// The game where the judge stops playing: after the first move past
    /// X or into a full column (r[rule.column-range] and
    /// r[rule.column-full] faults end play, nothing placed), else at the
    /// end.
    stepped: Game,
    /// The oracle's board at the same point.
    scanned: FullScanBoard,
}

/// Folds [`connectz::step`] over columns made from the rest of the input
/// (inside the window, past X, or far past it), holding each effect and
/// the whole board to `oracle`'s after every move.
fn fold_step(
    u: &mut Unstructured,
    mut game: Game,
    mut oracle: FullScanBoard,
    keep: Keep,
    context: &str,
) -> Played {
    let x = game.frame().0.clone();
    let width = oracle.width();
    let mut first_after_win = None;
    let mut moves = Vec::new();
    let mut effects = Vec::new();
    let mut stopped: Option<(Game, FullScanBoard)> = None;
    while let Ok(byte) = u.arbitrary::<u8>() {
        let column = match byte % 16 {
            0 => x.add_u64(1 + u64::from(byte / 16)),
            1 => x.add(&x),
            _ => oracle.column(usize::from(byte / 16) % width),
        };
        moves.push(column.clone());
        let (next, effect) = connectz::step(game, &column);
        game = next;
        let expected = oracle.step(&column);
        let context = || format!("{context}, moves {moves:?}");
        match (&effect, &expected) {
            (Effect::OffFrame, Ruling::OffFrame) | (Effect::ColumnFull, Ruling::ColumnFull) => {}
            (
                Effect::Placed { row, after_win },
                Ruling::Placed {
                    row: r,
                    after_win: a,
                },
            ) if row == r && after_win == a => {
                if *after_win && first_after_win.is_none() {
                    first_after_win = Some((column.clone(), *row));
                }
            }
            (Effect::Won { row, run }, Ruling::Won { row: r, runs }) if row == r => {
                // The run reported is one the scan finds, through the counter
                // just placed.
                assert!(
                    runs.contains(run),
                    "run {run:?} is not among {runs:?}; {}",
                    context()
                );
                assert!(
                    run.cells().any(|(c, r)| c == column && r == *row),
                    "run {run:?} misses the counter; {}",
                    context()
                );
            }
            _ => panic!(
                "step says {effect:?}, the rules {expected:?}; {}",
                context()
            ),
        }
        if stopped.is_none() && matches!(effect, Effect::OffFrame | Effect::ColumnFull) {
            stopped = Some((game.clone(), oracle.clone()));
        }
        effects.push(effect);
        assert_same_board(&game, &oracle, keep.board, &context);
        let after_win = game.first_after_win().map(|(c, r)| (c.clone(), r));
        assert_eq!(after_win, first_after_win, "{}", context());
        if moves.len() >= 600 {
            break;
        }
    }
    let (stepped, scanned) = stopped.unwrap_or((game, oracle));
    Played {
        moves,
        effects,
        stepped,
        scanned,
    }
}

/// The judge's game is the fold's: who moves, how many counters, the last
/// move, the winning run, the first move after it, fullness and what the
/// board keeps.
fn assert_same_game(judged: &Game, stepped: &Game, context: &dyn Fn() -> String) {
    assert_eq!(judged.to_move(), stepped.to_move(), "{}", context());
    assert_eq!(judged.placed(), stepped.placed(), "{}", context());
    assert_eq!(judged.last(), stepped.last(), "{}", context());
    assert_eq!(judged.winning_run(), stepped.winning_run(), "{}", context());
    assert_eq!(
        judged.first_after_win(),
        stepped.first_after_win(),
        "{}",
        context()
    );
    assert_eq!(judged.is_full(), stepped.is_full(), "{}", context());
    assert_eq!(
        hooks::heights_only(judged.board()),
        hooks::heights_only(stepped.board()),
        "{}",
        context()
    );
}

/// The game's board is the oracle's: who moves, how many counters, each
/// column's height, and every owner while runs are still looked for or the
/// board is kept.
fn assert_same_board(
    game: &Game,
    oracle: &FullScanBoard,
    keep_board: bool,
    context: &dyn Fn() -> String,
) {
    assert_eq!(game.to_move(), oracle.to_move(), "{}", context());
    assert_eq!(game.placed(), oracle.placed(), "{}", context());
    let owners_kept = keep_board || game.winning_run().is_none();
    for i in 0..oracle.width() {
        let c = oracle.column(i);
        let owners = oracle.owners(i);
        let height = owners.len() as u64;
        assert_eq!(game.board().height(&c), height, "{}", context());
        if owners_kept {
            for (r, &p) in owners.iter().enumerate() {
                let row = r as u64 + 1;
                assert_eq!(game.board().owner(&c, row), Some(p), "{}", context());
            }
            assert_eq!(game.board().owner(&c, height + 1), None, "{}", context());
        }
    }
}

/// What the judge must find in a file of `moves` (lines 2 on) whose
/// effects, folding `step`, were `effects`: the first finding of each kind
/// in file order, and the result of play. Play stops at the first move past
/// X or into a full column (leaving `stopped`); after it only columns past
/// X are still looked at.
fn findings_of(
    moves: &[Nat],
    effects: &[Effect],
    x: &Nat,
    stopped: &Game,
) -> (Vec<Finding>, Option<Finding>) {
    let mut faults: Vec<Finding> = Vec::new();
    let mut won = None;
    let mut playing = true;
    // r[decision.big-numbers]: a column with more significant digits than X
    // is not read whole; its first SHOWN_DIGITS + 1 are kept.
    let shown = |column: &Nat| match column.digit_count() > x.digit_count() {
        true => column.leading(SHOWN_DIGITS + 1),
        false => column.clone(),
    };
    for (i, (column, effect)) in moves.iter().zip(effects).enumerate() {
        let line = i as u64 + 2;
        let off_frame_seen = faults.iter().any(|f| matches!(f, Finding::OffFrame { .. }));
        if !playing {
            if column > x && !off_frame_seen {
                faults.push(Finding::OffFrame {
                    line,
                    column: shown(column),
                });
            }
            continue;
        }
        match effect {
            Effect::OffFrame => {
                faults.push(Finding::OffFrame {
                    line,
                    column: shown(column),
                });
                playing = false;
            }
            Effect::ColumnFull => {
                faults.push(Finding::ColumnFull {
                    line,
                    column: column.clone(),
                });
                playing = false;
            }
            Effect::OutOfMemory => {
                faults.push(Finding::OutOfMemory { line });
                playing = false;
            }
            Effect::Placed {
                after_win: true, ..
            } => {
                if !faults.iter().any(|f| matches!(f, Finding::AfterWin { .. })) {
                    faults.push(Finding::AfterWin { line });
                }
            }
            Effect::Placed { .. } => {}
            Effect::Won { run, .. } => {
                won = Some(Finding::Won {
                    line,
                    run: run.clone(),
                });
            }
        }
    }
    let last_line = moves.len() as u64 + 1;
    let result = match won {
        Some(won) => won,
        None if stopped.is_full() => Finding::Draw { line: last_line },
        None => Finding::Unfinished { line: last_line },
    };
    (faults, Some(result))
}

/// The game file: the header, then a column a line.
fn render(header: &Header, moves: &[Nat]) -> Vec<u8> {
    let mut file = format!("{} {} {}\n", header.x, header.y, header.z);
    for column in moves {
        file.push_str(&format!("{column}\n"));
    }
    file.into_bytes()
}

/// `judge` fed `bytes` in chunks of `sizes`, in turn.
fn judge_in_chunks(bytes: &[u8], sizes: &[usize], mut judge: Judge) -> connectz::Report {
    let mut rest = bytes;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let n = size.clamp(1, rest.len());
        judge.feed(&rest[..n]);
        rest = &rest[n..];
    }
    judge.finish()
}
