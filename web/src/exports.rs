//! The functions the page calls. The page writes its input into the buffer
//! [`cz_buffer`] hands out, calls a function with the input's length, and
//! reads the answer (UTF-8 JSON) from [`cz_output`] for the length returned.
//! One page, one thread: the state lives in one mutex.
//!
//! The only unsafe code of the crate is the attribute that exports these
//! functions under their own names; their bodies are safe Rust.

use std::sync::{Mutex, MutexGuard};

use crate::Session;

struct State {
    input: Vec<u8>,
    output: Vec<u8>,
    session: Option<Session>,
}

static STATE: Mutex<State> = Mutex::new(State {
    input: Vec::new(),
    output: Vec::new(),
    session: None,
});

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

/// [`crate::board`] of the grid in the input (`len` bytes): line length
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
