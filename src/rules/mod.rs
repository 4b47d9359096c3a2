//! The reference: the rules of `spec/` as code. A reviewer of the rules
//! reads this folder and nothing else of the judge; ARCHITECTURE.md,
//! "Reading the rules", lists its files with their lengths.
//!
//! - `grammar.rs`: what ends a line (r[format.eol], r[decision.line-ending],
//!   r[decision.final-newline]), the format of one line (spec/format.md),
//!   written out with `nom`, each parser under the ABNF line it implements,
//!   and which fault a line that does not conform reports: r[format.file] to
//!   r[format.positive], r[decision.separator], r[decision.number-syntax],
//!   r[decision.zero], r[decision.blank-line].
//! - `winnability.rs`: which frames some legal game can win, and why the
//!   others cannot (r[rule.winnable], r[decision.unwinnable]); spec/rules.md
//!   carries the proof.
//! - `run.rs`: the words of a result: the two players, the four directions,
//!   and a winning run, Z or more of one player's counters in a line
//!   (r[rule.line]).
//! - `game.rs`: the `Game` and `step`, the one transition, with the
//!   `Effect` of a move: turns (r[rule.turns]), the frame's columns
//!   (r[rule.frame], r[rule.column-range]), gravity and full columns
//!   (r[rule.gravity], r[rule.column-full]), the first winning run
//!   (r[rule.line]) and the counters placed after it (r[rule.after-win],
//!   r[decision.placed-after-win]).
//! - `verdict.rs`: the codes (r[code.table]), the findings a judge
//!   establishes, the result of play (r[rule.end],
//!   r[decision.win-on-last-cell], r[decision.header-only]), and `decide`,
//!   the one place of precedence
//!   (r[code.precedence], r[decision.precedence],
//!   r[decision.out-of-memory]).
//!
//! What they lean on from outside: exact numbers (`nat.rs`), and the board
//! that carries a move out (`Board::step`, in `fast/board/`), which finds
//! the first winning run in O(1) a move by keeping run lengths at the ends
//! of runs. The plain statement of what the board does is the test kit's
//! full-board-scan oracle, `crates/testkit/src/full_scan.rs`: turns,
//! columns off the frame, full columns, gravity, and every run found by
//! scanning the whole board after each move; a reviewer reads it for those
//! rules. The
//! streaming judge (`judge.rs`) feeds a file's lines to these rules: line 1
//! to the header's grammar and winnability, each move line to the grammar
//! and `step`, each effect recorded as a finding, and at the end the result
//! of play and `decide`.
//!
//! Everything outside this folder is the driver (`judge.rs`, `read.rs`),
//! numbers (`nat.rs`, `memory.rs`) or machinery (`fast/`), and the machinery
//! decides nothing the rules do not. The `parse` fuzz target holds every
//! fast form of the grammar to `grammar.rs` (the same value, or the same
//! fault at the same byte: `connectz_testkit::grammar_forms`); the `step`
//! fuzz target holds the board's stores and the judge's batched path to
//! folding `step` and to the full-scan oracle; `cargo test` replays both
//! corpora (`tests/oracle.rs`). ARCHITECTURE.md, "One file's path through
//! the judge", names the tests that hold each batched form.

pub mod game;
pub mod grammar;
pub mod run;
pub mod verdict;
pub mod winnability;
