//! Nothing but the benches of `benches/`: the solver beside the reference
//! solver and `connect-four-ai` (`cargo bench -p connectz-bench --bench
//! solver`). A crate of its own so that their dependencies stay out of
//! `cargo test`.
#![forbid(unsafe_code)]
