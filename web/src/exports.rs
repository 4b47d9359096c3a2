//! The functions the page calls. The page writes its input into the buffer
//! [`cz_buffer`] hands out, calls a function with the input's length, and
//! reads the answer (UTF-8 JSON) from [`cz_output`] for the length returned.
//! One instance, one thread: the state lives in one mutex. The page runs
//! several instances of the same module: its own, for the judge and the
//! play tab's board, and one in each of its Web Workers (one a core, at
//! most four), for the engine and the scores (the `cz_play_engine` and
//! `cz_play_score` calls, which may take long, and `cz_play_warm`, which
//! reads the opening book ahead of them).
//!
//! The only unsafe code of the crate is the attribute that exports these
//! functions under their own names, and the declaration of the one function
//! the module imports, the clock (`connectz.cz_now_ms`, the page's
//! `performance.now()`); the bodies are safe Rust.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use connectz_games::solver::{Shape, Solver};

use crate::Session;
use crate::play;

struct State {
    input: Vec<u8>,
    output: Vec<u8>,
    session: Option<Session>,
    /// The worker's solver, made at its first search and kept (its table
    /// serves every later one).
    solver: Option<Solver>,
}

static STATE: Mutex<State> = Mutex::new(State {
    input: Vec::new(),
    output: Vec::new(),
    session: None,
    solver: None,
});

// The page's clock (WebAssembly in a browser has no clock of its own).
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
#[link(wasm_import_module = "connectz")]
unsafe extern "C" {
    /// Milliseconds from some start, as the page's `performance.now()`
    /// counts them.
    safe fn cz_now_ms() -> f64;
}

/// The same clock natively, for the crate's native build.
#[cfg(not(target_arch = "wasm32"))]
fn cz_now_ms() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1e3
}

fn state() -> MutexGuard<'static, State> {
    // A panic elsewhere cannot leave the state half-written in a way that
    // matters: every call starts from what it is given.
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Sets the answer and returns its length.
fn answer(state: &mut State, text: String) -> usize {
    state.output = text.into_bytes();
    state.output.len()
}

/// The input buffer, `len` bytes long, for the page to write into.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_buffer(len: usize) -> *mut u8 {
    let mut state = state();
    state.input.clear();
    state.input.resize(len, 0);
    state.input.as_mut_ptr()
}

/// Where the last answer is.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_output() -> *const u8 {
    state().output.as_ptr()
}

/// Starts judging a file whose name is the first `len` bytes of the input.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_begin(len: usize) {
    let mut state = state();
    let name = String::from_utf8_lossy(&state.input[..len.min(state.input.len())]).into_owned();
    state.session = Some(Session::new(&name));
}

/// Feeds the first `len` bytes of the input to the file being judged;
/// returns 1 once the rest of the file cannot change the code.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_feed(len: usize) -> u32 {
    let mut state = state();
    let State { input, session, .. } = &mut *state;
    let Some(session) = session else {
        return 1;
    };
    session.feed(&input[..len.min(input.len())]);
    u32::from(session.is_settled())
}

/// Ends the file being judged; the answer is [`crate::explain`]'s.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_end() -> usize {
    let mut state = state();
    let text = match state.session.take() {
        Some(session) => session.finish(),
        None => "{\"error\":\"no file is being judged\"}".into(),
    };
    answer(&mut state, text)
}

/// [`crate::replay`] of the whole file in the input (`len` bytes) after
/// `moves` counters; `name_len` bytes after the file are its name.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_replay(len: usize, name_len: usize, moves: u32) -> usize {
    let mut state = state();
    let len = len.min(state.input.len());
    let end = (len + name_len).min(state.input.len());
    let name = String::from_utf8_lossy(&state.input[len..end]);
    let text = crate::replay(&state.input[..len], u64::from(moves), &name);
    answer(&mut state, text)
}

/// [`crate::board`] of the grid in the input (`len` bytes): run length
/// `z`, the first player's and the empty cell's symbols as code points (0:
/// not given), `gravity` 0 or 1.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_board(len: usize, z: u32, first: u32, empty: u32, gravity: u32) -> usize {
    let mut state = state();
    let symbol = |c: u32| char::from_u32(c).filter(|&c| c != '\0');
    let grid = &state.input[..len.min(state.input.len())];
    let text = crate::board(grid, z as usize, symbol(first), symbol(empty), gravity != 0);
    answer(&mut state, text)
}

/// [`crate::samples`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_samples() -> usize {
    let mut state = state();
    answer(&mut state, crate::samples())
}

/// [`crate::REPLAY_BYTES`]: files up to this size are kept for the replay.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_replay_bytes() -> usize {
    crate::REPLAY_BYTES
}

/// The moves in the first `len` bytes of the input (a byte each, 0-based
/// columns) on the frame `width` x `height`, runs of `z`; or the answer that
/// the frame is not one the solver takes.
fn game(
    state: &State,
    len: usize,
    width: u32,
    height: u32,
    z: u32,
) -> Result<(Shape, Vec<usize>), String> {
    let shape = play::frame(width as usize, height as usize, z as usize)?;
    let moves = state.input[..len.min(state.input.len())]
        .iter()
        .map(|&b| usize::from(b))
        .collect();
    Ok((shape, moves))
}

fn error_json(why: &str) -> String {
    connectz_explain::json::to_json(&std::collections::BTreeMap::from([("error", why)]))
}

/// [`play::view`] of the moves in the input (`len` bytes, a 0-based column
/// each); `name_len` bytes after them are the picture's title.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_play_view(
    len: usize,
    name_len: usize,
    width: u32,
    height: u32,
    z: u32,
) -> usize {
    let mut state = state();
    let len = len.min(state.input.len());
    let end = (len + name_len).min(state.input.len());
    let text = match game(&state, len, width, height, z) {
        Ok((shape, moves)) => {
            let title = String::from_utf8_lossy(&state.input[len..end]);
            play::view(shape, &moves, &title)
        }
        Err(why) => error_json(&why),
    };
    answer(&mut state, text)
}

/// [`play::parse_moves`] of the text in the input (`len` bytes): the
/// columns, 1-based, as `{"columns": [...]}`, or `{"error"}`.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_play_start(len: usize, width: u32, height: u32, z: u32) -> usize {
    let mut state = state();
    let text = String::from_utf8_lossy(&state.input[..len.min(state.input.len())]).into_owned();
    let answer_text = match play::frame(width as usize, height as usize, z as usize)
        .and_then(|shape| play::parse_moves(shape, &text))
    {
        Ok(columns) => {
            let columns: Vec<usize> = columns.into_iter().map(|c| c + 1).collect();
            connectz_explain::json::to_json(&std::collections::BTreeMap::from([(
                "columns", columns,
            )]))
        }
        Err(why) => error_json(&why),
    };
    answer(&mut state, answer_text)
}

/// The worker's solver, made on first use.
fn solver(state: &mut State) -> Result<&mut Solver, String> {
    if state.solver.is_none() {
        state.solver = Some(play::solver()?);
    }
    Ok(state.solver.as_mut().expect("made above"))
}

/// [`play::engine_move`] after the moves in the input (`len` bytes) at
/// `level` ([`play::level`]), the easy level's choices drawn from `seed`.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_play_engine(
    len: usize,
    width: u32,
    height: u32,
    z: u32,
    level: u32,
    seed: u32,
) -> usize {
    let mut state = state();
    let text = match game(&state, len, width, height, z) {
        Ok((shape, moves)) => match solver(&mut state) {
            Ok(solver) => {
                let start = cz_now_ms();
                let mut elapsed =
                    || Duration::from_secs_f64(((cz_now_ms() - start) / 1e3).max(0.0));
                play::engine_move(
                    shape,
                    &moves,
                    play::level(level),
                    u64::from(seed),
                    solver,
                    &mut elapsed,
                )
            }
            Err(why) => error_json(&why),
        },
        Err(why) => error_json(&why),
    };
    answer(&mut state, text)
}

/// [`play::column_score_json`] of `column` (0-based) after the moves in the
/// input (`len` bytes).
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_play_score(len: usize, width: u32, height: u32, z: u32, column: u32) -> usize {
    let mut state = state();
    let text = match game(&state, len, width, height, z) {
        Ok((shape, moves)) => match solver(&mut state) {
            Ok(solver) => play::column_score_json(shape, &moves, column as usize, solver),
            Err(why) => error_json(&why),
        },
        Err(why) => error_json(&why),
    };
    answer(&mut state, text)
}

/// Reads the shipped opening book ahead of the first question that needs
/// it (once per worker) and returns its number of positions. The worker calls it when the play tab is first opened, so
/// that the first scores of an early position do not wait for it.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn cz_play_warm() -> usize {
    connectz_games::book::classic().len()
}
