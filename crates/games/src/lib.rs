//! The neighbouring problems of ConnectZ: board snapshots (who moves, who
//! won, is this position possible? [`snapshot`]), the "Rotate" contest
//! problem ([`rotate`]), exact game values ([`solver`]), opening books ([`book`]), the perfect
//! engine's opening plan ([`plan`]) and the engine that plays against
//! people ([`engine`]). Built on the judge's core; no I/O.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod book;
pub mod engine;
pub mod plan;
pub mod rotate;
pub mod snapshot;
pub mod solver;
