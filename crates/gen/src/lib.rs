//! Deterministic generators of game files: games with a chosen code on a
//! chosen frame (`cz gen --code`, the generated cases of `cz check`), and
//! the benchmark workloads (`cz gen --workload`, `cz grade --perf`, the
//! benches). A seed names a file for good.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod code;
mod play;
mod workload;

pub use code::{Frame, MAX_GEN_CELLS, game_with_code, game_with_run};
pub use workload::{MAX_DENSE_SIDE, Workload, workload};
