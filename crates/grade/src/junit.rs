//! The JUnit XML report of `cz grade` (`--junit FILE`), as GitLab, GitHub
//! Actions and Jenkins read it: one `<testsuite>` per candidate, one
//! `<testcase>` per case, per command-line check and per speed workload.
//! A wrong code on a defined case is a `<failure>`; a crash, a timeout, a
//! memory breach an `<error>`; a case not run `<skipped>`; a difference on
//! an `impl` ruling passes, with a note in `<system-out>`. A case answered
//! differently when run again says NONDETERMINISTIC in its message.

use std::collections::HashMap;
use std::fmt::Write as _;

use connectz_spec::Class;

use super::perf::Mark;
use super::{ClassReport, Graded, case_names, markup, text};
use connectz_check::{CaseResult, Flaky, Outcome, case_of, describe, shown};

/// The report as a JUnit XML document.
pub fn report(class: &ClassReport, cases: usize) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    let mut time = 0.0;
    for g in &class.graded {
        let suite = Suite::of(g, class, cases);
        tests += suite.tests;
        failures += suite.failures;
        errors += suite.errors;
        time += suite.time;
        suites.push_str(&suite.text);
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cz grade\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time:.3}\">\n{suites}</testsuites>\n",
    )
}

struct Suite {
    text: String,
    tests: usize,
    failures: usize,
    errors: usize,
    time: f64,
}

impl Suite {
    fn of(g: &Graded, class: &ClassReport, cases: usize) -> Suite {
        let name = &g.entry.name;
        let failed: HashMap<usize, &CaseResult> =
            g.check.results.iter().map(|r| (r.index, r)).collect();
        let mut body = String::new();
        let (mut tests, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
        let mut time = 0.0;
        let names = case_names(class.corpus, cases, class.seed);
        for (i, (ran, case_name)) in g.check.log.iter().zip(names).enumerate() {
            tests += 1;
            let seconds = f64::from(ran.micros) / 1e6;
            time += seconds;
            let (area, inner) = match failed.get(&i) {
                None if ran.passed => (None, String::new()),
                None => (
                    None,
                    // A failure beyond those kept with their inputs.
                    "<failure type=\"unlisted\" message=\"failed (details not kept)\"/>".into(),
                ),
                Some(r) => (Some(r.case.area), element(r, g.check.flaky_at(r.index))),
            };
            failures += usize::from(inner.starts_with("<failure"));
            errors += usize::from(inner.starts_with("<error"));
            skipped += usize::from(inner.starts_with("<skipped"));
            let classname = match area {
                Some(a) => format!("{name}.{}", a.name()),
                None => format!("{name}.code-{}", ran.expect),
            };
            testcase(&mut body, &classname, &case_name, seconds, &inner);
        }
        for a in &g.check.args {
            tests += 1;
            let inner = if a.passed() {
                String::new()
            } else {
                failures += 1;
                format!(
                    "<failure type=\"code.args\" message=\"{}\"/>",
                    markup(&format!(
                        "expected \"{}\", got \"{}\"",
                        shown(&a.expected),
                        shown(&a.got)
                    ))
                )
            };
            testcase(
                &mut body,
                &format!("{name}.command-line"),
                &a.what,
                0.0,
                &inner,
            );
        }
        if let (Some(rows), Some(workloads)) = (&g.perf, &class.workloads) {
            for row in rows {
                tests += 1;
                let w = &workloads[row.workload];
                let seconds = row.candidate.time.as_secs_f64();
                time += seconds;
                let inner = match &row.candidate.verdict {
                    Mark::Ok => format!(
                        "<system-out>{}</system-out>",
                        markup(&format!(
                            "{:.3} s, reference {:.3} s ({})",
                            seconds,
                            row.reference.time.as_secs_f64(),
                            row.time_ratio().map_or("-".into(), |r| format!("{r:.2}x"))
                        ))
                    ),
                    Mark::Wrong { expected, got } => {
                        failures += 1;
                        format!(
                            "<failure type=\"speed\" message=\"expected {expected}, got {got}\"/>"
                        )
                    }
                    other => {
                        errors += 1;
                        format!(
                            "<error type=\"speed\" message=\"{}\"/>",
                            markup(other.name())
                        )
                    }
                };
                testcase(&mut body, &format!("{name}.speed"), w.name, seconds, &inner);
            }
        }
        let mut text = format!(
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time:.3}\">\n",
            markup(name)
        );
        let mut also = String::new();
        if g.check.nondeterministic() {
            let _ = write!(
                also,
                "<property name=\"nondeterministic\" value=\"{}\"/>",
                markup(&g.check.nondeterministic_heading())
            );
        }
        if let Some(reason) = &g.check.fresh_reason {
            let _ = write!(
                also,
                "<property name=\"fresh\" value=\"{}\"/>",
                markup(reason)
            );
        }
        let _ = writeln!(
            text,
            "    <properties><property name=\"command\" value=\"{}\"/><property name=\"isolation\" value=\"{}\"/>{also}</properties>",
            markup(&g.check.command),
            markup(&class.isolation.describe())
        );
        text.push_str(&body);
        text.push_str("  </testsuite>\n");
        Suite {
            text,
            tests,
            failures,
            errors,
            time,
        }
    }
}

fn testcase(out: &mut String, classname: &str, name: &str, seconds: f64, inner: &str) {
    let _ = write!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.3}\"",
        markup(classname),
        markup(name)
    );
    if inner.is_empty() {
        out.push_str("/>\n");
    } else {
        let _ = writeln!(out, ">{inner}</testcase>");
    }
}

/// The element that says how a kept case failed: its type the rule broken
/// ([`CaseResult::blame`]), its text the input and the case's own clause;
/// the message of a `flaky` case says it was answered differently when run
/// again.
fn element(r: &CaseResult, flaky: Option<&Flaky>) -> String {
    let c = &r.case;
    let blame = r.blame();
    let mut message = describe(c.expect, &r.outcome);
    if let Some(f) = flaky {
        let _ = write!(
            message,
            "; NONDETERMINISTIC: {} when run again",
            f.second_answer()
        );
    }
    let message = markup(&message);
    let input = markup(&format!(
        "input: \"{}\"{}",
        text::clip(&c.bytes),
        case_of(&c.rule, blame.rule)
    ));
    let rule = markup(blame.rule);
    let note =
        || format!("<system-out>note, {rule} is an impl ruling: {message}; {input}</system-out>");
    match &r.outcome {
        Outcome::Pass => String::new(),
        Outcome::ExitStatus { .. } => note(),
        Outcome::Mismatch { .. } if blame.class == Class::Impl => note(),
        Outcome::Mismatch { .. } => {
            format!("<failure type=\"{rule}\" message=\"{message}\">{input}</failure>")
        }
        Outcome::Skipped => format!("<skipped message=\"{message}\"/>"),
        Outcome::Crash { .. } | Outcome::Timeout | Outcome::MemoryExceeded { .. } => {
            format!("<error type=\"{rule}\" message=\"{message}\">{input}</error>")
        }
    }
}
