//! `cz`'s tests of the slow tier (`cargo test --test slow`; `.ci/run` runs
//! it): every run of a candidate in a box with real time limits. `cz check`
//! of candidates that crash, hang, leave children or fill memory; whole
//! classes graded, resumed and interrupted; Python candidates through the
//! fork server; hostile candidates, graded as root and as an ordinary user,
//! and a class graded under load; the calls a box's system-call filter
//! refuses, made in a box. Minutes, where the fast tier (`main.rs`)
//! takes seconds.

mod check;
mod filter;
mod grade;
mod holes;
mod hostile;
mod root;
mod searches;
mod support;
