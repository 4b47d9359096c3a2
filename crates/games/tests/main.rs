//! The games' tests: one binary, a module per concern.

mod engine;
mod snapshot;
mod solver;
mod spec_examples;
