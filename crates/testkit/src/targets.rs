//! The fuzz targets' bodies, as library code so that `cargo test` replays
//! every committed corpus through exactly what the fuzzer ran. Each panics
//! with a reproducer when it finds a disagreement; `fuzz/fuzz_targets/*.rs`
//! are one-line glue.
//!
//! | target | input | checks |
//! |---|---|---|
//! | `parse` | a game file's bytes (up to 2 MiB) | no panic; on every line the byte scanners and `Prefix` give what the nom grammar gives ([`grammar_forms::check`](crate::grammar_forms::check)); the verdict does not depend on chunking or the store; on frames of up to 4096 cells, judge and oracle agree (inputs up to 64 KiB) |
//! | `game` | an [`ArbitraryGame`] | the same, on games that reach deep into play |
//! | `step` | a frame (small, or a window of a frame up to and past 2^64 wide) and columns, including full columns, columns past X and moves after a win | folding `connectz::step`, after every move the effect and the whole board are those of [`FullScanBoard`], the rules applied to a board scanned whole; the game as a file, through the judge's batched path on every store (auto, sparse, dense) and over several chunkings (whole, a byte at a time, sizes from the input), gives the same verdict, findings, final board, last move and winning run |
//! | `board` | a grid, as text or built from bytes | `cz board` never panics and answers within its bounds; on frames of up to 12 cells it agrees with every game played out |
//! | `rotate` | a "Rotate" input, as text or built from bytes | no panic; on boards up to 7 x 7 the answer is that of turning, falling and scanning literally |
//! | `solve` | positions, as text or built from bytes | no panic and bounded work; on frames of up to 12 cells the solver's score is that of plain negamax |

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use arbitrary::{Arbitrary, Unstructured};

use connectz::hooks::{self, Storage, judge_chunked};
use connectz::{
    Effect, Finding, Game, Header, Judge, Keep, Nat, SHOWN_DIGITS, judge_bytes, winnable,
};
use connectz_games::snapshot::{self, Answer};
use connectz_games::solver::{Position, Shape, Solver};

use crate::arbitrary_game::ArbitraryGame;
use crate::full_scan::{FullScanBoard, Ruling};
use crate::oracle::{self, Standing, differential};
use crate::precedence;

/// The largest input the fuzz targets take (`-max_len`).
pub const MAX_LEN: usize = 2 << 20;

/// Inputs up to this size are also judged by the oracle.
const ORACLE_LEN: usize = 1 << 16;

/// `parse`: raw bytes into the judge.
pub fn parse(data: &[u8]) {
    // Chunk sizes come from the input itself so the fuzzer explores them too.
    let sizes: Vec<usize> = data
        .iter()
        .take(4)
        .map(|&b| usize::from(b % 17) + 1)
        .collect();
    let sizes = if sizes.is_empty() { vec![1] } else { sizes };
    // Every fast form of the grammar gives what the grammar gives, on every
    // line and on the whole input as one line.
    crate::grammar_forms::check(data, &sizes);
    if data.len() <= ORACLE_LEN {
        if let Err(e) = differential(data, &sizes) {
            panic!("{e}");
        }
        return;
    }
    // Large inputs: the judge must agree with itself, in bounded memory.
    let whole = judge_bytes(data);
    let chunked = judge_chunked(data, &[4096, 1, 65536]);
    let mut sparse = hooks::judge(Keep::default(), Storage::Sparse);
    sparse.feed(data);
    let sparse = sparse.finish();
    assert_eq!(whole.verdict, chunked.verdict, "chunks change the verdict");
    assert_eq!(
        whole.verdict, sparse.verdict,
        "the sparse board changes the verdict"
    );
}

/// `game`: a structured game.
pub fn game(game: &ArbitraryGame) {
    let input = game.render();
    if let Err(e) = differential(&input, &game.chunk_sizes()) {
        panic!("{e}\n{game:?}");
    }
}

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

/// Every position reached on a small frame, computed once per frame.
fn positions(width: usize, height: usize, z: usize) -> Arc<HashMap<Vec<Vec<u8>>, Standing>> {
    type Cache = Mutex<HashMap<(usize, usize, usize), Arc<HashMap<Vec<Vec<u8>>, Standing>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry((width, height, z))
        .or_insert_with(|| Arc::new(oracle::reachable_positions(width, height, z)))
        .clone()
}

/// A small board made from bytes: its columns bottom-up (1 first player,
/// 2 second), frame and line length.
#[derive(Arbitrary, Debug)]
struct SmallBoard {
    width: u8,
    height: u8,
    z: u8,
    columns: Vec<Vec<bool>>,
}

/// `board`: `cz board` on a grid. An even first byte: the rest is a grid as
/// text, judged as `cz board` reads it (no panic, bounded work). An odd
/// one: a board of up to 12 cells built from the rest, whose verdict must be
/// the truth found by playing every game.
pub fn board(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let z = 1 + usize::from(mode / 2) % 8;
    if mode % 2 == 0 {
        // Bounds a tenth of `cz board`'s: the fuzzer's instrumented build is
        // slower, and each input may take four searches.
        let bounds = snapshot::Bounds {
            work: snapshot::SEARCH_WORK / 10,
            memory: snapshot::SEARCH_MEMORY / 10,
        };
        for gravity in [true, false] {
            let _ = snapshot::judge_grid_within(rest, z, None, None, gravity, bounds);
        }
        return;
    }
    let Ok(b) = SmallBoard::arbitrary_take_rest(Unstructured::new(rest)) else {
        return;
    };
    let width = 1 + usize::from(b.width) % 4;
    let height = 1 + usize::from(b.height) % 3;
    let z = 1 + usize::from(b.z) % 4;
    let stacks: Vec<Vec<u8>> = (0..width)
        .map(|c| {
            b.columns
                .get(c)
                .map(|col| {
                    col.iter()
                        .take(height)
                        .map(|&s| if s { 1 } else { 2 })
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let mut text = String::new();
    for r in (0..height).rev() {
        for stack in &stacks {
            text.push(match stack.get(r) {
                Some(1) => 'x',
                Some(_) => 'o',
                None => '.',
            });
        }
        text.push('\n');
    }
    let expected = match positions(width, height, z).get(&stacks) {
        Some(Standing::FirstMoves) => Answer::FirstMoves,
        Some(Standing::SecondMoves) => Answer::SecondMoves,
        Some(Standing::FirstWins) => Answer::FirstWins,
        Some(Standing::SecondWins) => Answer::SecondWins,
        Some(Standing::Draw) => Answer::Draw,
        None => Answer::Invalid,
    };
    let got = snapshot::judge_grid(text.as_bytes(), z, Some('x'), None, true)
        .unwrap_or_else(|e| panic!("{e}: {text:?}"));
    assert_eq!(got.1.answer, expected, "z={z} {text:?}: {:?}", got.1.why);
}

/// A small "Rotate" case made from bytes.
#[derive(Arbitrary, Debug)]
struct SmallRotate {
    n: u8,
    k: u8,
    cells: Vec<u8>,
}

/// `rotate`: the "Rotate" solver. An even first byte: the rest is an input
/// as text (no panic). An odd one: a board up to 7 x 7 built from the rest,
/// answered as turning, falling and scanning literally would.
pub fn rotate(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        let _ = connectz_games::rotate::solve(&String::from_utf8_lossy(rest));
        return;
    }
    let Ok(r) = SmallRotate::arbitrary_take_rest(Unstructured::new(rest)) else {
        return;
    };
    let n = 1 + usize::from(r.n) % 7;
    let k = 1 + usize::from(r.k) % 7;
    let rows: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match r.cells.get(i * n + j).map(|b| b % 3) {
                    Some(1) => b'R',
                    Some(2) => b'B',
                    _ => b'.',
                })
                .collect()
        })
        .collect();
    let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
    assert_eq!(
        connectz_games::rotate::winners(&rows, k as u64),
        Some(oracle::rotate_plainly(&rows, k)),
        "k={k} {:?}",
        rows.iter()
            .map(|r| String::from_utf8_lossy(r))
            .collect::<Vec<_>>()
    );
}

/// One solver for the whole run: its table is large to make.
fn solver() -> std::sync::MutexGuard<'static, Solver> {
    static SOLVER: OnceLock<Mutex<Solver>> = OnceLock::new();
    SOLVER
        .get_or_init(|| Mutex::new(Solver::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// `solve`: the exact solver. An even first byte: the rest is `cz solve`'s
/// input on the frame the next bytes pick, up to 20 x 12 (64- and 128-bit
/// words, every line detector; every first token a position; work bounded
/// by a node budget). An odd one: a position on a frame of up to 12
/// cells built from the rest, whose score must be plain negamax's.
pub fn solve(data: &[u8]) {
    let [mode, w, h, z, rest @ ..] = data else {
        return;
    };
    if mode % 2 == 0 {
        let shape = Shape {
            width: 1 + usize::from(*w) % 20,
            height: 1 + usize::from(*h) % 12,
            z: 1 + usize::from(*z) % 10,
        };
        if !shape.fits() {
            return;
        }
        let text = String::from_utf8_lossy(rest);
        let mut solver = solver();
        for line in text.lines().take(16) {
            if let Some(moves) = line.split_whitespace().next()
                && let Ok(p) = Position::from_moves(shape, moves)
            {
                solver.reset();
                let _ = solver.solve_within(&p, false, 20_000);
            }
        }
        return;
    }
    // Frames of up to 12 cells: plain negamax stays fast.
    let width = 1 + usize::from(*w) % 4;
    let height = (1 + usize::from(*h) % 4).min(12 / width);
    let z = 1 + usize::from(*z) % 4;
    let moves: Vec<usize> = rest
        .iter()
        .take(width * height)
        .map(|&b| usize::from(b) % width)
        .collect();
    let expected = oracle::game_value(width, height, z, &moves);
    let digits: String = moves.iter().map(|m| char::from(b'1' + *m as u8)).collect();
    let shape = Shape { width, height, z };
    let got = Position::from_moves(shape, &digits).ok().map(|p| {
        let mut solver = solver();
        solver.reset();
        solver.solve(&p, false)
    });
    assert_eq!(got, expected, "{width}x{height} z={z} moves {digits}");
}
