//! The check's report as text.

use std::fmt::Write as _;

use connectz::Code;
use connectz_spec::Class;

use super::{ArgCheck, CheckReport, Outcome};

impl CheckReport {
    /// The report as text. No timings: the same run gives the same text.
    pub fn text(&self) -> String {
        let mut out = format!(
            "cz check: {}
",
            shown(&self.command)
        );
        if !self.isolation.is_empty() {
            let _ = writeln!(out, "isolation: {}", self.isolation);
        }
        if !self.given.is_empty() {
            let _ = writeln!(out, "given: {}", shown(self.given.join(", ")));
        }
        let _ = writeln!(
            out,
            "{} cases: {} from the shipped corpus, {} generated\n",
            self.total,
            self.total - self.generated,
            self.generated
        );
        if let Some(reason) = &self.fresh_reason {
            let _ = writeln!(out, "Run fresh: {}.\n", shown(reason));
        } else if self.spent.fresh_checks > 0 {
            let _ = writeln!(
                out,
                "Run through a fork server of the interpreter; {} cases run again in a fresh one ended the same way.\n",
                self.spent.fresh_checks
            );
        }
        if self.nondeterministic() {
            out.push_str(&self.flaky_lines(""));
            out.push('\n');
        }
        for r in &self.results {
            let c = &r.case;
            let blame = r.blame();
            let label = match &r.outcome {
                Outcome::Pass => continue,
                Outcome::Mismatch { .. } if blame.class == Class::Defined => "FAIL",
                Outcome::Mismatch { .. } | Outcome::ExitStatus { .. } => "NOTE",
                Outcome::Crash { .. } => "CRASH",
                Outcome::Timeout => "TIMEOUT",
                Outcome::MemoryExceeded { .. } => "MEMORY",
                Outcome::Skipped => "SKIPPED",
            };
            let _ = writeln!(
                out,
                "{label:<7} {}: {} [{}, {}{}]",
                c.name,
                describe(c.expect, &r.outcome),
                blame.rule,
                blame.class.name(),
                case_of(&c.rule, blame.rule)
            );
            match &r.shrunk {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "        shortest failing input: \"{}\" (expected {}, {})",
                        s.bytes.escape_ascii(),
                        s.expect,
                        s.outcome.answer()
                    );
                }
                None => {
                    let _ = writeln!(out, "        input: \"{}\"", c.bytes.escape_ascii());
                }
            }
        }
        if self.unlisted > 0 {
            let _ = writeln!(out, "... and {} more failures, not listed", self.unlisted);
        }
        out.push_str("\ncommand line:\n");
        for a in &self.args {
            out.push_str(&a.line());
        }
        out.push_str("\nscore per expected code:\n");
        for code in Code::ALL.into_iter().take(9) {
            let (cases, passed) = self.per_code[usize::from(code.number())];
            if cases == 0 {
                continue;
            }
            let _ = writeln!(out, "  {code} {:<17} {passed:>4}/{cases}", code.name());
        }
        let c = &self.counts;
        let _ = writeln!(
            out,
            "\npassed {} of {}; defined failures {}; impl notes {}; crashes {}; timeouts {}; memory breaches {}",
            c.passed,
            self.total,
            self.defined_failures(),
            c.notes,
            c.crashes,
            c.timeouts,
            c.memory
        );
        if c.skipped > 0 {
            let _ = writeln!(
                out,
                "not run after too many timeouts in a row: {}",
                c.skipped
            );
        }
        out
    }
}

impl CheckReport {
    /// The nondeterministic candidate's heading line, then a line per
    /// flaky case, each line after `indent`: nothing when every case run
    /// again answered the same.
    pub fn flaky_lines(&self, indent: &str) -> String {
        let mut out = String::new();
        if !self.nondeterministic() {
            return out;
        }
        let _ = writeln!(out, "{indent}{}", self.nondeterministic_heading());
        for f in &self.flaky {
            let _ = writeln!(out, "{indent}  {}: {}", shown(&f.case), f.describe());
        }
        out
    }

    /// "NONDETERMINISTIC: 3 cases answered differently when run again
    /// (...)", for a candidate with flaky cases.
    pub fn nondeterministic_heading(&self) -> String {
        let (n, of) = (self.flaky.len(), self.spent.reruns);
        let s = |k: usize| if k == 1 { "" } else { "s" };
        format!(
            "NONDETERMINISTIC: {n} case{} answered differently when run again (of {of} failing case{} run again; each counts as failed, with its first answer)",
            s(n),
            s(of)
        )
    }
}

impl ArgCheck {
    /// One line of a report: ok or FAIL, what was expected and printed.
    pub fn line(&self) -> String {
        let verdict = if self.passed() { "ok" } else { "FAIL" };
        let mut out = format!(
            "  {verdict:<4} {}: expected \"{}\", got \"{}\"",
            self.what,
            shown(&self.expected),
            shown(&self.got)
        );
        if self.status != Some(0) {
            let _ = write!(
                out,
                " (exit status {})",
                self.status.map_or("none".into(), |s| s.to_string())
            );
        }
        out.push('\n');
        out
    }
}

/// The case's own clause, when the failure is blamed on another:
/// `"; case of rule.line"`, else nothing.
pub fn case_of(clause: &str, blamed: &str) -> String {
    if clause == blamed {
        String::new()
    } else {
        format!("; case of {clause}")
    }
}

/// A failure in words: "expected 7 (illegal game), got 3", with the
/// details of a crash or a memory breach.
pub fn describe(expect: Code, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass => format!("expected {expect} ({}), passed", expect.name()),
        Outcome::Mismatch { got } => format!("expected {expect} ({}), got {got}", expect.name()),
        Outcome::ExitStatus { status } => format!(
            "expected {expect} ({}), printed it, then {} (a note: the code printed decides)",
            expect.name(),
            status.map_or("killed by a signal".into(), |s| format!("exit status {s}"))
        ),
        Outcome::Crash {
            status,
            stderr,
            stdout,
        } => format!(
            "expected {expect}; exit status {}; stdout \"{}\"; stderr \"{}\"",
            status.map_or("none".into(), |s| s.to_string()),
            shown(stdout),
            shown(stderr),
        ),
        Outcome::Timeout => format!("expected {expect}; timed out"),
        Outcome::MemoryExceeded { peak } => format!(
            "expected {expect}; ran out of memory under the cap{}",
            peak.map_or(String::new(), |p| format!(" (peak {} MB)", p >> 20))
        ),
        Outcome::Skipped => format!("expected {expect}; not run, after too many timeouts in a row"),
    }
}

/// Text a candidate controls (its name, its command's words, its folder,
/// what it printed), as it may be written to a terminal or a text report:
/// each control character (C0, DEL and C1), each character that reorders
/// the text around it (the bidirectional controls), each backslash, each
/// double quote and each byte that is not UTF-8 is escaped as the reports
/// escape inputs (`\n`, `\t`, `\x1b`, `\\`, `\"`: [`escape_ascii`] of its
/// bytes), so that nothing it wrote can move the cursor, retitle the
/// window or clear the screen of whoever reads the report, and the escaped
/// text reads back exactly; every other character, letters of any script
/// included, is shown as it is.
///
/// [`escape_ascii`]: slice::escape_ascii
pub fn shown(text: impl AsRef<[u8]>) -> String {
    let mut out = String::new();
    for chunk in text.as_ref().utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() || c == '\\' || c == '"' || reorders(c) {
                let mut bytes = [0; 4];
                let bytes = c.encode_utf8(&mut bytes).as_bytes();
                out.extend(bytes.escape_ascii().map(char::from));
            } else {
                out.push(c);
            }
        }
        out.extend(chunk.invalid().escape_ascii().map(char::from));
    }
    out
}

/// The bidirectional formatting characters: marks, embeddings, overrides
/// and isolates, which show text in another order than it is written.
fn reorders(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AreaScore, Counts, Flaky, Spent};

    fn empty_report() -> CheckReport {
        CheckReport {
            command: "sh x.sh".into(),
            results: Vec::new(),
            total: 0,
            generated: 0,
            per_code: [(0, 0); 10],
            per_area: [AreaScore::default(); 7],
            unlisted: 0,
            args: Vec::new(),
            counts: Counts::default(),
            log: Vec::new(),
            spent: Spent::default(),
            isolation: String::new(),
            given: Vec::new(),
            flaky: Vec::new(),
            fresh_reason: None,
        }
    }

    /// A report says which cases were answered differently when run
    /// again, each with its two answers, and why its cases ran fresh; a
    /// report with neither says nothing of them.
    #[test]
    fn the_text_names_flaky_cases_and_a_fresh_fallback() {
        let quiet = empty_report().text();
        assert!(!quiet.contains("NONDETERMINISTIC"), "{quiet}");
        assert!(!quiet.contains("Run fresh"), "{quiet}");
        let mut report = empty_report();
        report.spent.reruns = 5;
        report.flaky.push(Flaky {
            index: 3,
            case: "gen seed 7 #3\u{1b}[2J".into(),
            expect: Code::WinTwo,
            first: Outcome::Mismatch { got: 4 },
            second: Outcome::Pass,
        });
        report.fresh_reason = Some("the server said so".into());
        report.spent.fresh_checks = 8;
        let text = report.text();
        assert!(!text.contains("ended the same way"), "{text}");
        assert!(
            text.contains(
                "Run fresh: the server said so.\n\nNONDETERMINISTIC: 1 case answered differently when run again (of 5 failing cases run again; each counts as failed, with its first answer)\n  gen seed 7 #3\\x1b[2J: expected 2 (win for player 2): got 4, then got 2 when run again\n"
            ),
            "{text}"
        );
    }

    /// Controls, bidirectional controls, backslashes, quotes and bytes
    /// that are not UTF-8 are escaped; the rest, accents included, stays.
    #[test]
    fn shown_escapes_what_a_terminal_would_obey() {
        assert_eq!(
            shown("evil\u{1b}]0;TITLE\u{7}\u{1b}[2J"),
            "evil\\x1b]0;TITLE\\x07\\x1b[2J"
        );
        assert_eq!(shown("a\tb\r\n\u{7f}\u{9b}"), "a\\tb\\r\\n\\x7f\\xc2\\x9b");
        assert_eq!(shown("x\u{202e}y"), "x\\xe2\\x80\\xaey");
        assert_eq!(shown("a\\b \"c\" 'd'"), "a\\\\b \\\"c\\\" 'd'");
        assert_eq!(shown(b"ok\xff"), "ok\\xff");
        assert_eq!(shown("José 名前"), "José 名前");
        for text in ["evil\u{1b}[2J\u{7}", "\u{9b}31m", "\u{202e}"] {
            assert!(!shown(text).chars().any(|c| c.is_control() || reorders(c)));
        }
    }
}
