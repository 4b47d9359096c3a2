//! The library behind `cz`, the toolbox around the ConnectZ reference judge:
//! walking and judging folders ([`batch`]), solving positions ([`solve`]),
//! making an opening book ([`book`]) and the terminal game ([`session`]).
//! `cz`'s command line ([`cli`]) is a thin layer over these and the other
//! crates: checking another implementation (`connectz-check`) or a class of
//! them (`connectz-grade`) in a sandbox that owns what it starts
//! (`connectz-sandbox`).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod batch;
pub mod book;
pub mod cli;
pub mod error;
pub mod input;
pub mod session;
pub mod solve;

pub use error::{Context, Error, Result};
