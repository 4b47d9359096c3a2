//! The account of a verdict, for people and programs: why this code, under
//! which rule, on which line ([`account`]); the board as text ([`draw`]) and
//! as an SVG picture ([`render`]). Depends on the judge core alone, and does
//! no I/O.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod account;
pub mod draw;
pub mod json;
pub mod markup;
pub mod render;
pub mod window;
