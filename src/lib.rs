//! `connectz`: the reference judge for ConnectZ, Connect Four generalised to
//! any frame X by Y and any line length Z.
//!
//! The rules are written down in `spec/`; every rule cited in this crate as
//! `r[...]` is a clause there. The core is pure: [`grammar`] parses lines of
//! bytes, [`step`] is the transition of one move, and [`Judge`] reads a file in
//! chunks, folds `step` over its moves and applies the precedence of codes in
//! one function, [`decide`].
//!
//! ```
//! use connectz::{judge_bytes, Code};
//!
//! let report = judge_bytes(b"3 3 3\n1\n2\n1\n2\n1\n");
//! assert_eq!(report.code(), Code::WinOne);
//! assert_eq!(report.verdict.rule(), "rule.line");
//! assert_eq!(report.verdict.line(), Some(6));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod arbitrary_game;
pub mod batch;
pub mod board;
#[cfg(unix)]
pub mod check;
pub mod explain;
pub mod game;
pub mod generate;
pub mod grammar;
pub mod judge;
pub mod nat;
pub mod oracle;
mod partial;
pub mod play;
pub mod render;
pub mod rotate;
pub mod rules;
#[cfg(unix)]
pub mod sandbox;
pub mod scale;
pub mod snapshot;
pub mod solver;
pub mod spec;
pub mod targets;

pub use board::{Direction, Player, Storage, WinLine};
pub use game::{Effect, Game, Keep, step};
pub use grammar::{FormatFault, Header};
pub use judge::{
    Code, Finding, Judge, Report, decide, judge_bytes, judge_bytes_with, judge_chunked, judge_path,
    judge_path_with, judge_reader, judge_reader_with,
};
pub use nat::Nat;
pub use rules::winnable;
