//! The reference: the rules as code, for a reviewer to read on their own.

pub mod game;
pub mod grammar;
pub mod verdict;
pub mod winnability;
