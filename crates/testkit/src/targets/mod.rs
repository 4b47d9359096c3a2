//! The fuzz targets' bodies, as library code so that `cargo test` replays
//! every committed corpus through exactly what the fuzzer ran. Each panics
//! with a reproducer when it finds a disagreement; `fuzz/fuzz_targets/*.rs`
//! are one-line glue.
//!
//! | target | input | checks |
//! |---|---|---|
//! | `parse` | a game file's bytes (up to 2 MiB) | no panic; on every line the byte scanners and `Prefix` give what the nom grammar gives ([`grammar_forms::check`](crate::grammar_forms::check)); the verdict does not depend on chunking or the store; on frames of up to 4096 cells, judge and oracle agree (inputs up to 64 KiB) |
//! | `game` | an [`ArbitraryGame`] | the same, on games that reach deep into play |
//! | `step` | a frame (small, or a window of a frame up to and past 2^64 wide) and columns, including full columns, columns past X and moves after a win | folding `connectz::step`, after every move the effect and the whole board are those of [`FullScanBoard`](crate::full_scan::FullScanBoard), the rules applied to a board scanned whole; the game as a file, through the judge's batched path on every store (auto, sparse, dense) and over several chunkings (whole, a byte at a time, sizes from the input), gives the same findings, final board, last move and winning run, and the verdict that [`crate::precedence`] picks |
//! | `board` | a grid, as text or built from bytes | `cz board` never panics and answers within its bounds; on frames of up to 12 cells it agrees with every game played out |
//! | `rotate` | a "Rotate" input, as text or built from bytes | no panic; on boards up to 7 x 7 the answer is that of turning, falling and scanning literally |
//! | `solve` | positions, as text or built from bytes | no panic and bounded work; on frames of up to 12 cells the solver's score is that of plain negamax |

mod step;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use arbitrary::{Arbitrary, Unstructured};

use connectz::hooks::{self, Storage, judge_chunked};
use connectz::{Keep, judge_bytes};
use connectz_games::snapshot::{self, Answer};
use connectz_games::solver::{Position, Shape, Solver};

use crate::arbitrary_game::ArbitraryGame;
use crate::oracle::{self, Standing, differential};

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

pub use step::step;

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
