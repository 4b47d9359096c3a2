//! Text for XML and HTML, escaped one way: the pictures, the grade report's
//! HTML page and its JUnit file all write text through [`escape`].

use std::fmt::Write as _;

/// What becomes of control characters, which XML 1.0 cannot hold (other
/// than tab, line feed and carriage return).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controls {
    /// Written visibly as `\u{..}`, so a reader sees which byte it was (the
    /// pictures quote a file's bad line this way).
    Shown,
    /// Replaced by U+FFFD (a candidate's output in a report).
    Replaced,
}

/// `s` escaped for XML and HTML content and double- or single-quoted
/// attributes: `& < > " '` as entities; control characters (and U+FFFE,
/// U+FFFF, which XML cannot hold either) as `controls` says.
pub fn escape(s: &str, controls: Controls) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' if controls == Controls::Replaced => out.push(c),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => match controls {
                Controls::Shown => {
                    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
                }
                Controls::Replaced => out.push('\u{fffd}'),
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_and_controls_shown_or_replaced() {
        let s = "<a href=\"x\">'&</a>\t\u{1}\u{ffff}";
        assert_eq!(
            escape(s, Controls::Shown),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&lt;/a&gt;\\u{9}\\u{1}\\u{ffff}"
        );
        assert_eq!(
            escape(s, Controls::Replaced),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&lt;/a&gt;\t\u{fffd}\u{fffd}"
        );
    }
}
