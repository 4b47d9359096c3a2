//! The reference: the rules of `spec/` as code. A reviewer of the rules
//! reads this folder and `spec/`, and can then say for every code 0 to 9
//! exactly when a file gets it, without reading the rest of the judge.
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
//!   and a winning run, Z or more of one player's counters in a line.
//! - `game.rs`: the `Game` and `step`, the one transition, stating every
//!   rule of play in the spec's order: the frame's columns
//!   (r[rule.frame], r[rule.column-range]), full columns
//!   (r[rule.column-full]), gravity (r[rule.gravity]), turns
//!   (r[rule.turns]), the run through the new counter in each of the four
//!   directions against Z (r[rule.line]) and the counters placed after the
//!   win (r[rule.after-win], r[decision.placed-after-win]); and the
//!   `Effect` of a move.
//! - `findings.rs`: what the judge establishes from a file: what a format
//!   fault, an unwinnable frame, a move's effect, a column longer than X
//!   (r[decision.big-numbers]) and memory running out
//!   (r[decision.out-of-memory]) each mean as a finding, that the first
//!   finding of each kind is the one kept, that an empty file is a format
//!   fault (r[decision.empty-file]), and at the end the result of play
//!   (r[rule.end], r[decision.win-on-last-cell], r[decision.header-only]).
//! - `verdict.rs`: the codes (r[code.table]), the findings, their ranks,
//!   and `decide`, the one place of precedence (r[code.precedence],
//!   r[decision.precedence], r[decision.out-of-memory]).
//!
//! What they lean on from outside: exact numbers (`nat.rs`), and the board
//! (`fast/board/`), which keeps the counters and answers questions of
//! cells: a column's height, how far one player's counters reach from an
//! empty cell in each direction (from run lengths kept at the ends of
//! runs, so in time independent of Z), and "place a counter on this
//! column". It decides nothing `step` decides (its batched loops for
//! ordinary moves restate their checks for speed, held equal to folding
//! `step`). The streaming judge (`judge.rs`) reads a file's bytes and feeds
//! them here: line 1 to the header's grammar and `findings` (which says
//! whether a game is played), each move line to the grammar and `step`,
//! and what each did to `findings`, which also say what later lines can
//! still change.
//!
//! Everything outside this folder is the driver (`judge.rs`, `read.rs`),
//! numbers (`nat.rs`, `memory.rs`), words (`messages.rs`), questions a
//! player asks (`questions.rs`), positions that are not games
//! (`stacks.rs`) or machinery (`fast/`). The `parse` fuzz target holds
//! every fast form of the grammar to `grammar.rs` (the same value, or the
//! same fault at the same byte); the `step` fuzz target holds folding
//! `step` to a full-board-scan oracle, the judge's batched path to folding
//! `step`, and the verdict to the spec's precedence as the test kit states
//! it; `cargo test` replays both corpora (`tests/oracle.rs`).

pub(crate) mod findings;
pub mod game;
pub mod grammar;
pub mod run;
pub mod verdict;
pub mod winnability;
