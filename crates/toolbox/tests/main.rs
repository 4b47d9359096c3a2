//! `cz`'s tests, run as a process the way users run it: one binary, a module
//! per concern.

mod cz;
mod grade;
mod hostile;
mod play;
mod puzzles;
mod root;
mod support;
