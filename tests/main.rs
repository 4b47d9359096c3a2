//! The judge core's tests: one binary, a module per concern.

mod cases;
mod cli;
mod docs;
mod oracle;
mod resources;
mod scale;
mod spec_examples;
mod streaming;
mod support;
mod winnable;
