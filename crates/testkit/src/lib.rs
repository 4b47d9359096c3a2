//! The test kit of the ConnectZ reference judge: what tests, benches and
//! fuzzers use to hold the judge to the truth and to stress it.
//!
//! - [`oracle`]: the executable definition (plain lines, a full grid, a full
//!   scan after every move) and brute-force references for the neighbouring
//!   problems;
//! - [`grammar_forms`]: the judge's fast forms of the grammar (its byte
//!   scanners, `Prefix`) held to the nom grammar line by line;
//! - [`full_scan`]: the full-board-scan oracle that the `step` target
//!   holds `step` and the judge's batched path to;
//! - [`precedence`]: which finding decides, in the spec's words, that the
//!   `step` target holds the judge's verdict to;
//! - [`arbitrary_game`]: structured random games for the fuzzers;
//! - [`scale`]: games whose code is known by construction, at any size;
//! - [`targets`]: the fuzz targets' bodies, so `cargo test` replays corpora.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod arbitrary_game;
pub mod full_scan;
pub mod grammar_forms;
pub mod oracle;
pub mod precedence;
pub mod scale;
pub mod targets;

pub use arbitrary;
