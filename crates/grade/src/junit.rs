//! The JUnit XML report of `cz grade` (`--junit FILE`), as GitLab, GitHub
//! Actions and Jenkins read it: one `<testsuite>` per candidate, one
//! `<testcase>` per case, per command-line check and per speed workload.
//! A wrong code on a defined case is a `<failure>`; a crash, a timeout, a
//! memory breach an `<error>`; a case not run `<skipped>`; a difference on
//! an `impl` ruling passes, with a note in `<system-out>`. A case answered
//! differently when run again says NONDETERMINISTIC in its message. A
//! rendering of the report's [`Facts`].

use std::collections::HashMap;
use std::fmt::Write as _;

use connectz_spec::Class;

use crate::facts::{CandidateFacts, CaseFacts, Facts, GroupFacts};
use crate::perf::Mark;
use crate::{Kind, markup, text};
use connectz_check::{Area, case_of, describe, shown};

/// The report as a JUnit XML document.
pub fn report(facts: &Facts) -> String {
    let mut suites = String::new();
    let mut all = Suite::default();
    for c in &facts.candidates {
        let suite = Suite::of(c, facts);
        all.tests += suite.tests;
        all.failures += suite.failures;
        all.errors += suite.errors;
        all.time += suite.time;
        suites.push_str(&suite.text(c, facts));
    }
    let Suite {
        tests,
        failures,
        errors,
        time,
        ..
    } = all;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cz grade\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time:.3}\">\n{suites}</testsuites>\n",
    )
}

/// A candidate's test cases, and their counts.
#[derive(Default)]
struct Suite {
    body: String,
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    time: f64,
}

impl Suite {
    /// Every case of `c` in the order run, then its command-line checks,
    /// then its workloads.
    fn of(c: &CandidateFacts, facts: &Facts) -> Suite {
        let mut suite = Suite::default();
        suite.cases(c, facts.case_names());
        let classname = format!("{}.command-line", c.name);
        for a in &c.command_line {
            let inner = if a.passed {
                String::new()
            } else {
                format!(
                    "<failure type=\"code.args\" message=\"{}\"/>",
                    markup(&format!(
                        "expected \"{}\", got \"{}\"",
                        shown(a.expected),
                        shown(a.got)
                    ))
                )
            };
            suite.add(&classname, a.check, 0.0, &inner);
        }
        if let (Some(rows), Some(workloads)) = (&c.perf, &facts.workloads) {
            let classname = format!("{}.speed", c.name);
            for row in rows {
                let inner = match &row.result {
                    Mark::Ok => format!(
                        "<system-out>{}</system-out>",
                        markup(&format!(
                            "{:.3} s, reference {:.3} s ({})",
                            row.time_s,
                            row.reference_time_s,
                            row.time_ratio.map_or("-".into(), |r| format!("{r:.2}x"))
                        ))
                    ),
                    Mark::Wrong { expected, got } => format!(
                        "<failure type=\"speed\" message=\"expected {expected}, got {got}\"/>"
                    ),
                    other => format!(
                        "<error type=\"speed\" message=\"{}\"/>",
                        markup(other.name())
                    ),
                };
                suite.add(&classname, workloads[row.index].name, row.time_s, &inner);
            }
        }
        suite
    }

    /// Every case in the order run, by the names in `names`: a failure
    /// kept with its input says how it failed, one beyond them only that
    /// it did.
    fn cases(&mut self, c: &CandidateFacts, names: &[String]) {
        let kept: HashMap<usize, (Area, &GroupFacts, &CaseFacts)> = c
            .groups
            .iter()
            .flat_map(|g| g.cases.iter().map(move |case| (g, case)))
            .filter_map(|(g, case)| case.ran.map(|(i, area)| (i, (area, g, case))))
            .collect();
        for (i, (ran, name)) in c.log.iter().zip(names).enumerate() {
            let seconds = f64::from(ran.micros) / 1e6;
            let (classname, inner) = match kept.get(&i) {
                Some((area, group, case)) => {
                    (format!("{}.{}", c.name, area.name()), element(group, case))
                }
                None => (
                    format!("{}.code-{}", c.name, ran.expect),
                    if ran.passed {
                        String::new()
                    } else {
                        // A failure beyond those kept with their inputs.
                        "<failure type=\"unlisted\" message=\"failed (details not kept)\"/>".into()
                    },
                ),
            };
            self.add(&classname, name, seconds, &inner);
        }
    }

    /// A test case, counted by what `inner` says of it.
    fn add(&mut self, classname: &str, name: &str, seconds: f64, inner: &str) {
        self.tests += 1;
        self.time += seconds;
        self.failures += usize::from(inner.starts_with("<failure"));
        self.errors += usize::from(inner.starts_with("<error"));
        self.skipped += usize::from(inner.starts_with("<skipped"));
        let _ = write!(
            self.body,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.3}\"",
            markup(classname),
            markup(name)
        );
        if inner.is_empty() {
            self.body.push_str("/>\n");
        } else {
            let _ = writeln!(self.body, ">{inner}</testcase>");
        }
    }

    /// The suite's element, with its properties and test cases.
    fn text(&self, c: &CandidateFacts, facts: &Facts) -> String {
        let Suite {
            body,
            tests,
            failures,
            errors,
            skipped,
            time,
        } = self;
        let mut also = String::new();
        if let Some(heading) = &c.flaky_heading {
            let _ = write!(
                also,
                "<property name=\"nondeterministic\" value=\"{}\"/>",
                markup(heading)
            );
        }
        if let Some(reason) = c.fresh_reason {
            let _ = write!(
                also,
                "<property name=\"fresh\" value=\"{}\"/>",
                markup(reason)
            );
        }
        format!(
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time:.3}\">\n    <properties><property name=\"command\" value=\"{}\"/><property name=\"isolation\" value=\"{}\"/>{also}</properties>\n{body}  </testsuite>\n",
            markup(c.name),
            markup(&c.command_text()),
            markup(&facts.isolation.description)
        )
    }
}

/// The element that says how a kept case of `group` failed: its type the
/// rule broken, its text the input and the case's own clause; the message
/// of a case answered otherwise when run again says so.
fn element(group: &GroupFacts, case: &CaseFacts) -> String {
    let mut message = describe(case.expected, case.outcome);
    if let Some(again) = &case.again {
        let _ = write!(message, "; NONDETERMINISTIC: {again} when run again");
    }
    let message = markup(&message);
    let input = markup(&format!(
        "input: \"{}\"{}",
        text::clip(case.input),
        case_of(case.rule.unwrap_or_default(), group.rule)
    ));
    let rule = markup(group.rule);
    match (group.kind, group.class) {
        (Kind::Note, _) | (Kind::Wrong, Class::Impl) => {
            format!("<system-out>note, {rule} is an impl ruling: {message}; {input}</system-out>")
        }
        (Kind::Wrong, Class::Defined) => {
            format!("<failure type=\"{rule}\" message=\"{message}\">{input}</failure>")
        }
        (Kind::Skipped, _) => format!("<skipped message=\"{message}\"/>"),
        (Kind::Crash | Kind::Timeout | Kind::Memory, _) => {
            format!("<error type=\"{rule}\" message=\"{message}\">{input}</error>")
        }
    }
}
