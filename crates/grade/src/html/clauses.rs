//! The page's last section: the text of every spec clause it links to,
//! embedded from spec/, with enough Markdown for the spec's prose.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use connectz_spec::clause;

use super::clause_anchor;
use crate::markup;

/// The text of every clause a report links to.
pub(super) fn section(cited: &BTreeSet<String>) -> String {
    let mut out = String::from(
        "<section id=\"clauses\"><h2>Spec clauses cited</h2>\n<p class=\"muted\">From spec/ of the reference, as it was built.</p>\n",
    );
    for id in cited {
        let _ = write!(
            out,
            "<div class=\"clause\" id=\"{}\"><h3 class=\"mono\">r[{}]</h3>",
            clause_anchor(id),
            markup(id)
        );
        match clause(id) {
            Some(c) => {
                let _ = write!(
                    out,
                    "<p class=\"muted\">spec/{}, class {}</p>{}",
                    markup(&c.file),
                    c.class.name(),
                    markdown(&c.text)
                );
            }
            None => out.push_str("<p class=\"muted\">(not a clause of the spec)</p>"),
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
    out
}

/// Enough Markdown for the spec's prose: paragraphs, `- ` lists, `code`.
pub(super) fn markdown(text: &str) -> String {
    let mut out = String::new();
    for block in text.split("\n\n").map(str::trim).filter(|b| !b.is_empty()) {
        let lines: Vec<&str> = block.lines().collect();
        if lines
            .iter()
            .all(|l| l.starts_with("- ") || l.starts_with("  "))
        {
            out.push_str("<ul>");
            let mut item = String::new();
            for line in lines {
                if let Some(rest) = line.strip_prefix("- ") {
                    if !item.is_empty() {
                        let _ = write!(out, "<li>{}</li>", inline(&item));
                    }
                    item = rest.to_string();
                } else {
                    item.push(' ');
                    item.push_str(line.trim());
                }
            }
            if !item.is_empty() {
                let _ = write!(out, "<li>{}</li>", inline(&item));
            }
            out.push_str("</ul>");
        } else {
            let _ = write!(out, "<p>{}</p>", inline(&lines.join(" ")));
        }
    }
    out
}

/// Inline code spans; everything else escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", markup(part));
        } else {
            out.push_str(&markup(part));
        }
    }
    out
}
