//! The JSON report of `cz grade` (`--json FILE`): the report's [`Facts`]
//! serialized, one document; its schema is in docs/grade.md. Inputs are
//! given as their bytes escaped as in the text report (`\n`, `\r`, `\t`,
//! `\\`, `\'`, `\"`, `\xNN`), which is exact.

use crate::facts::Facts;

/// The report as one JSON document.
pub fn report(facts: &Facts) -> String {
    let mut text =
        serde_json::to_string_pretty(facts).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}
