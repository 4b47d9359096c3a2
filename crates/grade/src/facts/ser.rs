//! How the facts that are not plain numbers and text are written in JSON.

use std::path::Path;

use serde::Serializer;

use connectz::Code;
use connectz_check::Area;
use connectz_spec::Class;

use crate::perf::Mark;
use crate::{Kind, text};

/// A code as its number.
pub(super) fn code<S: Serializer>(code: &Code, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(code.number())
}

/// Codes as their numbers.
pub(super) fn codes<S: Serializer>(codes: &&[Code], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(codes.iter().map(|c| c.number()))
}

/// A code's number as text, the name of its score.
pub(super) fn digit<S: Serializer>(code: &u8, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&code.to_string())
}

/// An area by its name.
pub(super) fn area<S: Serializer>(area: &Area, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(area.name())
}

/// A kind of failure by its name.
pub(super) fn kind<S: Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.name())
}

/// `defined` or `impl`.
pub(super) fn class<S: Serializer>(class: &Class, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(class.name())
}

/// How a workload went, by its name.
pub(super) fn mark<S: Serializer>(mark: &Mark, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(mark.name())
}

/// An input's bytes escaped as in the text report.
pub(super) fn escaped<S: Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&text::escaped(bytes))
}

/// A path as it displays (not UTF-8: replaced).
pub(super) fn path<S: Serializer>(path: &Option<&Path>, s: S) -> Result<S::Ok, S::Error> {
    match path {
        Some(p) => s.serialize_some(&p.display().to_string()),
        None => s.serialize_none(),
    }
}
