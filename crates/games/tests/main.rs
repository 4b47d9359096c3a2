//! The games' tests: one binary, a module per concern.

mod book;
mod engine;
mod memory;
mod snapshot;
mod solver;
mod spec_examples;
