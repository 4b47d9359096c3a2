//! `connectz`: the reference judge for ConnectZ, Connect Four generalised to
//! any frame X by Y and any winning run length Z.
//!
//! The rules are written down in `spec/`; every rule cited in this crate as
//! `r[...]` is a clause there. This crate is the judge's core and nothing
//! else: exact numbers ([`nat`]), the line grammar ([`grammar`]), which frames
//! can be won ([`winnability`]), the board's stores ([`board`]), the game and its
//! pure transition [`step`] ([`game`]), the one public way to change a game
//! (boards change only inside this crate), the verdict's vocabulary and the one
//! place that decides between findings, [`decide`] ([`verdict`]), the
//! streaming [`Judge`] ([`judge`]), and the entry points that feed it bytes
//! from memory, a reader or a path ([`read`]). It depends on `nom` and
//! `memchr` alone, does no I/O but reading what it is given, and the judge
//! never panics or aborts on any input.
//!
//! The rules are written once, to be read on their own, in `src/rules/`: the
//! grammar, winnability, the game and `step` (every rule of play), what the
//! judge's findings are, and the verdict and `decide`. The machinery that
//! makes the judge fast (byte scanners, lines that span chunks, the board's
//! stores, which answer the rules' questions of cells) lives apart in
//! `src/fast/` and decides nothing; the `parse` and `step` fuzz targets hold
//! it equal to the rules. ARCHITECTURE.md, "Reading the rules", says what a
//! reviewer of the rules reads.
//!
//! The non-default `test-hooks` feature adds one module, `hooks`, for the
//! test kit and the fuzz targets (a chosen board store, chunked feeding,
//! the grammar's fast forms): not part of the API, no semver. It changes no
//! other item, so a crate that turns it on changes nothing for another.
//!
//! ```
//! let file = b"3 3 3\n1\n2\n1\n2\n1\n";
//! let report = connectz::judge_bytes(file);
//! assert_eq!(report.code(), connectz::Code::WinOne);
//! assert_eq!(report.verdict.rule(), "rule.line");
//! assert_eq!(report.verdict.line(), Some(6));
//! ```
// Unsafe code is denied everywhere but two modules, each allowing one
// `unsafe` block behind a safe function: `fast::prefetch` (the one
// prefetch instruction) and `fast::avx2` (the one call into code compiled
// for AVX2). Each module says why and what it gains.
#![deny(unsafe_code)]
#![deny(missing_docs)]

mod fast;
#[cfg(feature = "test-hooks")]
pub mod hooks;
pub mod judge;
mod memory;
mod messages;
pub mod nat;
mod questions;
pub mod read;
mod rules;
mod stacks;

pub use fast::board;
pub(crate) use rules::{findings, run};
pub use rules::{game, grammar, verdict, winnability};

pub use board::{Direction, Keep, Player, WinningRun};
pub use game::{Effect, Game, step};
pub use grammar::{FormatFault, Header};
pub use judge::{Judge, Report};
pub use messages::SHOWN_DIGITS;
pub use nat::Nat;
pub use read::{
    USAGE, command_line, judge_bytes, judge_bytes_with, judge_path, judge_path_with, judge_reader,
    judge_reader_with,
};
pub use verdict::{Code, Finding, Rank, decide};
pub use winnability::{Unwinnable, unwinnable, winnable};
