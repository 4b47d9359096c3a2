//! JSON, written one way: every JSON the project prints is a value that
//! derives `serde::Serialize`, written by [`to_json`].

use serde::Serialize;

/// `value` as compact JSON text. Plain data never fails to serialize; if a
/// value ever did, the text is a JSON object that says why.
pub fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        serde_json::to_string(&WriteFailure {
            error: e.to_string(),
        })
        .unwrap_or_default()
    })
}

/// What [`to_json`] writes when a value cannot be written.
#[derive(Serialize)]
struct WriteFailure {
    error: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_and_fields_keep_their_order() {
        #[derive(Serialize)]
        struct T<'a> {
            b: &'a str,
            a: Option<u64>,
        }
        let text = to_json(&T {
            b: "q\"\\\n\u{1}é",
            a: None,
        });
        assert_eq!(text, r#"{"b":"q\"\\\n\u0001é","a":null}"#);
    }
}
