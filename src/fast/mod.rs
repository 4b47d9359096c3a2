//! The machinery: what makes the judge fast and its memory small. None of it
//! decides anything the rules (`rules/`) do not, and a reviewer of the rules
//! need not read it; each piece is held equal to the reference:
//!
//! - `scan.rs`: byte scanners that read plain move lines (1 to 19 digits and
//!   a line feed) straight from the buffer, in bulk; any line they cannot
//!   vouch for goes to the grammar, which alone names faults. Held by the
//!   `parse` fuzz target on every line of its input
//!   (`connectz_testkit::grammar_forms`) and the property tests in the file.
//! - `prefix.rs`, `partial.rs`: a line that spans chunks, taken byte by byte
//!   and kept only as far as exactness needs (r[resource.line]), cut at its
//!   first byte that cannot conform, for the grammar to name the fault. Held
//!   by the `parse` fuzz target (every line pushed in chunks of several
//!   sizes) and the property tests in each file.
//! - `avx2.rs`, `prefetch.rs`: the crate's only `unsafe`, one block each
//!   behind a safe function: the scanners' byte loops run as code compiled
//!   for AVX2, and a hint to load the cells a batch of moves will touch.
//!   Neither changes a value; both run under every test and fuzz target
//!   that goes through the judge.
//! - `board/` (public as `connectz::board`): the board's stores (an array of
//!   the frame, occupied columns in a keyed table, heights alone once the
//!   game is won), each keeping run lengths at the ends of runs so that the
//!   rules' question "how far do this player's counters reach from this
//!   cell" costs O(1) whatever Z is, and their batched loops for ordinary
//!   moves (`step_ordinary`), the judge's hot path. Held by the `step` fuzz
//!   target (folding `step` agrees with the full-board-scan oracle
//!   `connectz_testkit::full_scan` after every move, and the judge's
//!   batched path on every store with folding `step`) and by
//!   `stores_agree_on_random_games`, `step_ordinary_is_step_move_by_move`
//!   and `step_ordinary_is_step_folded_move_by_move` in `board/tests.rs`.
//! - `game.rs`: a game on a chosen store or keeping its whole board, and
//!   the judge's batched path (`Game::step_ordinary`, `Game::warm`).

pub(crate) mod avx2;
pub mod board;
mod game;
pub(crate) mod partial;
pub(crate) mod prefetch;
pub(crate) mod prefix;
pub(crate) mod scan;

/// Which store a board keeps its cells in. The board chooses (`Auto`); the
/// other two force a store whatever the frame, so that tests and fuzz
/// targets hold the stores to each other. Crate-private but for the test
/// hooks, which re-export it (`connectz::hooks::Storage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Storage {
    /// The array when it is small or the frame is an eighth occupied, else
    /// the sparse map (see `board`'s module docs).
    #[default]
    Auto,
    /// Always the sparse map.
    #[allow(dead_code, reason = "chosen only through the test hooks")]
    Sparse,
    /// The array whenever the frame has one, whatever it costs: for tests
    /// of the array at large sizes.
    #[allow(dead_code, reason = "chosen only through the test hooks")]
    Dense,
}
