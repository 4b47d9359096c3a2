//! The machinery that makes the judge fast, held equal to the rules.

pub(crate) mod avx2;
pub mod board;
pub(crate) mod partial;
pub(crate) mod prefetch;
pub(crate) mod scan;
