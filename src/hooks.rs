//! Test hooks: not part of the API. No semver: anything here may change or
//! go in any release. For the test kit (`connectz-testkit`), the fuzz
//! targets and the core's integration tests, to hold the machinery of
//! `fast/` to the reference: a game or judge with a chosen board store,
//! chunked feeding, the store's name, the board's heap bytes, the keyed
//! table's probes, and the grammar's fast forms.
//!
//! The module exists only with the non-default `test-hooks` feature, which
//! adds it and changes nothing else: no public type, field or variant
//! depends on the feature (`tests/docs.rs` holds this), so a crate that
//! turns it on changes no other crate's view of the core.

use crate::board::Board;
use crate::fast::partial::{Partial, Pushed};
use crate::fast::prefix::Prefix;
use crate::grammar::{FormatFault, Header, line_content, move_digits, parse_header};
use crate::{Game, Judge, Keep, Report};

pub use crate::fast::Storage;
pub use crate::fast::board::column_map::Probes;

/// An empty game whose board is kept in the store `storage` says, whatever
/// the frame.
pub fn game(header: &Header, keep: Keep, storage: Storage) -> Game {
    Game::in_store(header, keep, storage)
}

/// A judge whose game's board is kept in the store `storage` says,
/// whatever the frame: for tests that hold the stores to each other.
pub fn judge(keep: Keep, storage: Storage) -> Judge {
    Judge::keeping_in(keep, storage)
}

/// Judges `bytes` fed in chunks of the given sizes (cycling; 0 counts as 1):
/// the verdict must not depend on how the input is cut.
pub fn judge_chunked(bytes: &[u8], sizes: &[usize]) -> Report {
    let mut judge = Judge::new();
    let mut rest = bytes;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() || judge.is_settled() {
            break;
        }
        let n = size.clamp(1, rest.len());
        judge.feed(&rest[..n]);
        rest = &rest[n..];
    }
    judge.finish()
}

/// True once the board keeps heights only (after a game's first winning
/// run, unless the game keeps its board).
pub fn heights_only(board: &Board) -> bool {
    board.heights_only()
}

/// Which store holds the counters: `dense`, `sparse` or `heights`, and the
/// lane width in bits (0 for heights).
pub fn store_kind(board: &Board) -> (&'static str, u32) {
    board.store_kind()
}

/// The heap memory the board holds, in bytes (an estimate from the
/// capacities of its arrays and maps): what r[resource.board] bounds.
pub fn heap_bytes(board: &Board) -> usize {
    board.heap_bytes()
}

/// Bytes the judge holds for a line not yet ended: what r[resource.line]
/// bounds.
pub fn buffered(judge: &Judge) -> usize {
    judge.buffered()
}

/// The work of the keyed table's lookups so far (none for the array),
/// counted so that tests bound it on any machine (r[resource.time]).
pub fn probes(board: &Board) -> Probes {
    board.probes()
}

// The grammar's fast forms, for the test kit to hold to the grammar (the
// `parse` fuzz target, `connectz_testkit::grammar_forms`).

/// `scan::plain_move`: a plain move line at `start`, its value and the
/// index past its terminator, or `None` to leave it to the grammar.
pub fn plain_move(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    crate::fast::scan::plain_move(bytes, start)
}

/// `scan::plain_lines`: the line feeds of a block whose every line
/// surely conforms, or `None`.
pub fn plain_lines(block: &[u8], prev: u8, max_digit: u8, single_digit: bool) -> Option<u64> {
    crate::fast::scan::plain_lines(block, prev, max_digit, single_digit)
}

/// `scan::skim_lines`: bytes and lines of the plain move lines of value
/// at most `limit` that start before `stop`.
pub fn skim_lines(bytes: &[u8], stop: usize, limit: u64) -> (usize, u64) {
    crate::fast::scan::skim_lines(bytes, stop, limit)
}

/// The index of the first byte of `line` that `Prefix` refuses, read as
/// line 1 (`header`) or a move line; `None` when it takes them all.
pub fn prefix_refuses(line: &[u8], header: bool) -> Option<usize> {
    let mut prefix = if header {
        Prefix::header()
    } else {
        Prefix::Move
    };
    line.iter().position(|&byte| !prefix.accept(byte))
}

/// `line` (no line feed in it unless it is to be cut there) pushed into
/// a `Partial` in chunks of the `chunks` sizes, in turn, then taken as
/// the judge takes a line that spans chunks: the grammar's fault on the
/// bytes kept, placed in `line`, or the bytes kept when they conform.
/// `terminated`: the line ended at a line feed (a CR before it is then
/// part of the terminator). `keep`: the significant digits a move
/// line's number keeps.
///
/// # Panics
/// When memory for the kept bytes cannot be had.
pub fn partial_line(
    line: &[u8],
    terminated: bool,
    header: bool,
    keep: usize,
    chunks: &[usize],
) -> Result<Vec<u8>, FormatFault> {
    let mut partial = Partial::new();
    partial.start(header, keep);
    let mut pushed = Pushed::Open;
    let mut rest = line;
    let mut sizes = chunks.iter().cycle();
    while !rest.is_empty() && pushed == Pushed::Open {
        let size = sizes.next().copied().unwrap_or(rest.len());
        let (chunk, more) = rest.split_at(size.clamp(1, rest.len()));
        pushed = partial.push(chunk);
        rest = more;
    }
    let kept = partial.bytes();
    let content = match pushed {
        Pushed::OutOfMemory => panic!("no memory for the line's kept bytes"),
        Pushed::Open => line_content(kept, terminated),
        Pushed::Cut => kept,
    };
    let conforms = match header {
        true => parse_header(content).map(|_| ()),
        false => move_digits(content).map(|_| ()),
    };
    match conforms {
        Ok(()) => Ok(content.to_vec()),
        Err(fault) => Err(partial.locate(fault)),
    }
}
