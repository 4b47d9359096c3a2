//! `cz`'s tests of the fast tier (`cargo test`), run as a process the way
//! users run it, a module per concern: every command, a quick check of the
//! reference and of a broken candidate in a box, a small class graded into
//! its four reports. What takes minutes (hostile candidates, real time
//! limits, whole classes, grading as root and under load) is the slow tier,
//! `slow.rs`: `cargo test --test slow`.

mod class;
mod cz;
mod play;
mod puzzles;
mod support;
