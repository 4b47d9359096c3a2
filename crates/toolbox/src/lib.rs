//! The library behind `cz`, the toolbox around the ConnectZ reference judge:
//! walking and judging folders ([`batch`]), checking another implementation
//! ([`check`]) or a class of them ([`grade`]) in a sandbox that owns what it
//! starts ([`sandbox`]), solving positions ([`solve`]), making an opening
//! book ([`book`]) and the terminal game ([`session`]). `cz`'s command line
//! ([`cli`]) is a thin layer over these and the other crates.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod batch;
pub mod book;
pub mod check;
pub mod cli;
pub mod error;
pub mod grade;
pub mod input;
pub mod persist;
pub mod sandbox;
pub mod session;
pub mod solve;

pub use error::{Context, Error, Result};
