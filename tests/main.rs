//! One integration-test binary; a module per concern.

mod cases;
mod cli;
mod cz;
mod oracle;
mod play;
mod puzzles;
mod resources;
mod scale;
mod solver;
mod spec_examples;
mod streaming;
mod support;
mod winnable;
