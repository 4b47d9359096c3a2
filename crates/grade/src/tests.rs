use std::path::{Path, PathBuf};

use std::ffi::OsString;

use super::class::{tidy, validate};
use super::*;
use connectz_sandbox::Limits;

#[test]
fn markup_escapes_and_drops_what_xml_cannot_hold() {
    assert_eq!(markup("<script>\"'&"), "&lt;script&gt;&quot;&#39;&amp;");
    assert_eq!(markup("a\u{0}b"), "a\u{fffd}b");
    assert_eq!(markup("x\u{0}y\u{1b}z\tw"), "x\u{fffd}y\u{fffd}z\tw");
    assert_eq!(
        markup("\u{fffe}\u{ffff}\u{85}\r\n"),
        "\u{fffd}\u{fffd}\u{fffd}\r\n"
    );
    assert_eq!(
        markup("a\u{202e}b\u{2066}c\u{200f}d\u{61c}e"),
        "a\u{fffd}b\u{fffd}c\u{fffd}d\u{fffd}e"
    );
}

fn names(entries: &[Entry]) -> Vec<&str> {
    entries.iter().map(|e| e.name.as_str()).collect()
}

#[test]
fn each_names_candidates_by_their_last_component_unless_two_share_it() {
    let paths: Vec<PathBuf> = ["subs/alice/", "subs/bob", "old/bob", "x y/carol"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let entries = each("python3 {}/connectz.py --fast", &paths).unwrap();
    assert_eq!(names(&entries), ["alice", "subs/bob", "old/bob", "carol"]);
    let command: Vec<String> = entries[3]
        .candidate
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // The path stays one argument, spaces and all.
    assert_eq!(command, ["python3", "x y/carol/connectz.py", "--fast"]);
    assert_eq!(
        entries[0].candidate.command[1].to_string_lossy(),
        "subs/alice/connectz.py"
    );
    assert!(each("python3 connectz.py", &paths).is_err());
    assert!(each("python3 {}", &[]).is_err());
}

#[test]
fn tidy_drops_current_folder_components_only() {
    assert_eq!(tidy(Path::new("a/./b")), PathBuf::from("a/b"));
    assert_eq!(tidy(Path::new("a/.")), PathBuf::from("a"));
    assert_eq!(tidy(Path::new("./")), PathBuf::from("."));
    assert_eq!(tidy(Path::new("a/../b")), PathBuf::from("a/../b"));
}

#[test]
fn validate_wants_named_commands() {
    let entry = |name: &str, command: &[&str]| Entry {
        name: name.into(),
        candidate: Candidate::new(command.iter().map(OsString::from).collect()),
    };
    assert!(validate(vec![]).is_err());
    assert!(validate(vec![entry(" ", &["x"])]).is_err());
    assert!(validate(vec![entry("a", &[])]).is_err());
    assert!(validate(vec![entry("a", &[""])]).is_err());
    assert!(validate(vec![entry("a", &["x"]), entry("a", &["y"])]).is_err());
    assert!(validate(vec![entry("a", &["x"]), entry("b", &["y"])]).is_ok());
}

/// A graded candidate with no failure: `notes` differences on impl rulings
/// and a median time per case of `micros`.
fn clean_but_for(name: &str, notes: usize, micros: u32) -> Graded {
    Graded {
        entry: Entry {
            name: name.into(),
            candidate: Candidate::new(vec![OsString::from("x")]),
        },
        check: CheckReport {
            command: "x".into(),
            results: Vec::new(),
            total: 100,
            generated: 0,
            per_code: [(0, 0); 10],
            per_area: [AreaScore::default(); 7],
            unlisted: 0,
            args: Vec::new(),
            counts: connectz_check::Counts {
                passed: 100 - notes,
                notes,
                ..Default::default()
            },
            log: Vec::new(),
            spent: Spent::default(),
            isolation: String::new(),
            given: Vec::new(),
            flaky: Vec::new(),
            fresh_reason: None,
        },
        groups: Vec::new(),
        perf: None,
        median_micros: micros,
        seconds: 0.0,
    }
}

/// Impl notes rank after memory breaches and before speed: fewer notes
/// first, however fast the candidate with more; a defined failure still
/// ranks below any number of notes.
#[test]
fn fewer_impl_notes_rank_first_whatever_the_speed() {
    let mut class = empty_class(5);
    let mut failing = clean_but_for("failing", 0, 1);
    failing.check.counts.defined = 1;
    for one in [
        clean_but_for("fast-two-notes", 2, 10),
        failing,
        clean_but_for("slow-clean", 0, 900),
        clean_but_for("fast-one-note", 1, 10),
        clean_but_for("slower-one-note", 1, 20),
    ] {
        class.add(one, 0.0);
    }
    let order: Vec<&str> = class.graded.iter().map(|g| g.entry.name.as_str()).collect();
    assert_eq!(
        order,
        [
            "slow-clean",
            "fast-one-note",
            "slower-one-note",
            "fast-two-notes",
            "failing"
        ]
    );
}

/// A class of `planned` candidates with none graded yet, on 100 cases of
/// the corpus.
fn empty_class(planned: usize) -> ClassReport {
    ClassReport {
        graded: Vec::new(),
        planned,
        corpus: 100,
        generated: 0,
        seed: 1,
        limits: Limits {
            timeout: std::time::Duration::from_secs(1),
            memory: 1 << 30,
            output: 1 << 20,
            processes: 64,
        },
        isolation: connectz_sandbox::Isolation::None("a test".into()),
        workloads: None,
        spent: Spent::default(),
        seconds: 0.0,
    }
}

/// A candidate that failed its second case (of three) with a wrong code,
/// then answered it rightly when it was run again; its cases ran fresh for
/// a reason with markup in it.
fn nondeterministic(name: &str) -> Graded {
    use connectz_check::{CaseResult, Flaky, Outcome, Ran, corpus};
    let mut g = clean_but_for(name, 0, 1);
    let case = corpus().swap_remove(1);
    let expect = case.expect;
    let wrong = Outcome::Mismatch {
        got: (expect.number() + 1) % 9,
    };
    g.check.total = 3;
    g.check.counts = connectz_check::Counts {
        passed: 2,
        defined: 1,
        ..Default::default()
    };
    g.check.log = (0..3)
        .map(|i| Ran {
            expect: expect.number(),
            passed: i != 1,
            micros: 10,
        })
        .collect();
    g.check.flaky.push(Flaky {
        index: 1,
        case: case.name.clone(),
        expect,
        first: wrong.clone(),
        second: Outcome::Pass,
    });
    g.check.results.push(CaseResult {
        index: 1,
        case,
        outcome: wrong,
        elapsed: std::time::Duration::ZERO,
        shrunk: None,
    });
    g.check.spent.reruns = 1;
    g.check.fresh_reason = Some("the <server> & \"its\" answers".into());
    g.groups = group(&g.check);
    g
}

/// Every report names a nondeterministic candidate, with its flaky case
/// and both answers, and why its cases ran fresh, escaped as each form
/// escapes; a deterministic candidate is not marked.
#[test]
fn every_report_says_a_candidate_is_nondeterministic() {
    let mut class = empty_class(2);
    class.add(clean_but_for("steady", 0, 1), 0.0);
    class.add(nondeterministic("dice"), 0.0);
    let flaky = &class.graded[1].check.flaky[0];
    let (first, second) = (flaky.first_answer(), flaky.second_answer());
    assert_ne!(first, second);
    let heading = "NONDETERMINISTIC: 1 case answered differently when run again";
    // Text: the leaderboard's mark and its legend, the candidate's lines.
    let facts = Facts::of(&class);
    let text = text::report(&facts);
    let board: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("  #  candidate"))
        .skip(1)
        .take(2)
        .collect();
    assert!(board[0].starts_with("  1  steady "), "{text}");
    assert!(board[1].starts_with("  2  dice~ "), "{text}");
    assert!(text.contains("(~ after a name: nondeterministic"), "{text}");
    assert!(
        text.contains(&format!("   {heading} (of 1 failing case run again;")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "     {}: {}\n",
            connectz_check::shown(&flaky.case),
            flaky.describe()
        )),
        "{text}"
    );
    assert!(
        text.contains("   run fresh: the <server> & \\\"its\\\" answers\n"),
        "{text}"
    );
    assert_eq!(text.matches("NONDETERMINISTIC").count(), 1, "{text}");
    // JSON: the flag, the cases, the reason; null and empty for the other.
    let doc: serde_json::Value = serde_json::from_str(&json::report(&facts)).unwrap();
    let (steady, dice) = (&doc["candidates"][0], &doc["candidates"][1]);
    assert_eq!(steady["nondeterministic"], false);
    assert_eq!(steady["flaky"], serde_json::json!([]));
    assert_eq!(steady["fresh_reason"], serde_json::Value::Null);
    assert_eq!(dice["nondeterministic"], true);
    assert_eq!(
        dice["flaky"],
        serde_json::json!([{
            "case": flaky.case,
            "expected": flaky.expect.number(),
            "first": first,
            "second": second,
        }])
    );
    assert_eq!(dice["fresh_reason"], "the <server> & \"its\" answers");
    // JUnit: the failing case's message and the suite's properties.
    let xml = junit::report(&facts);
    assert!(
        xml.contains(&format!(
            "; NONDETERMINISTIC: {} when run again\"",
            markup(&second)
        )),
        "{xml}"
    );
    assert!(xml.contains(&markup(heading)), "{xml}");
    assert!(
        xml.contains("value=\"the &lt;server&gt; &amp; &quot;its&quot; answers\""),
        "{xml}"
    );
    // HTML: a badge in the leaderboard and by the heading, the lines.
    let page = html::report(&facts);
    assert_eq!(page.matches("class=\"badge nondeterministic\"").count(), 2);
    assert!(page.contains(heading), "{page}");
    assert!(page.contains(&markup(&flaky.describe())), "{page}");
    assert!(
        page.contains("Run fresh: the &lt;server&gt; &amp; &quot;its&quot; answers."),
        "{page}"
    );
}

/// A journal written before flaky cases and fresh reasons were kept still
/// reads: they are none.
#[test]
fn a_report_without_the_newer_fields_reads() {
    let mut value = serde_json::to_value(clean_but_for("old", 0, 1)).unwrap();
    let check = value["check"].as_object_mut().unwrap();
    assert!(check.remove("flaky").is_some());
    assert!(check.remove("fresh_reason").is_some());
    let spent = check["spent"].as_object_mut().unwrap();
    assert!(spent.remove("reruns").is_some());
    assert!(spent.remove("rerun_time").is_some());
    let old: Graded = serde_json::from_value(value).unwrap();
    assert!(!old.check.nondeterministic());
    assert_eq!(old.check.fresh_reason, None);
    assert_eq!(old.check.spent.reruns, 0);
}

/// What a hostile candidate writes wherever it can: markup, a terminal
/// escape that retitles the window and clears the screen, a bell, and a
/// bidirectional override.
const HOSTILE: &str = "<script>&\"\u{1b}]0;T\u{7}\u{1b}[2J\u{202e}";

/// A candidate whose name, command, folder, given paths, fresh reason,
/// crash output and command-line answer are all [`HOSTILE`].
fn hostile() -> Graded {
    use connectz_check::{ArgCheck, CaseResult, Outcome, Ran, corpus};
    let mut g = clean_but_for(HOSTILE, 0, 1);
    g.entry.candidate = Candidate::new(vec![OsString::from("sh"), OsString::from(HOSTILE)]);
    g.entry.candidate.dir = Some(PathBuf::from(HOSTILE));
    g.check.command = g.entry.candidate.shown();
    g.check.given = vec![HOSTILE.into()];
    g.check.fresh_reason = Some(HOSTILE.into());
    let case = corpus().swap_remove(0);
    g.check.total = 1;
    g.check.counts = connectz_check::Counts {
        crashes: 1,
        defined: 1,
        ..Default::default()
    };
    g.check.log = vec![Ran {
        expect: case.expect.number(),
        passed: false,
        micros: 10,
    }];
    g.check.results.push(CaseResult {
        index: 0,
        case,
        outcome: Outcome::Crash {
            status: Some(1),
            stderr: HOSTILE.into(),
            stdout: HOSTILE.into(),
        },
        elapsed: std::time::Duration::ZERO,
        shrunk: None,
    });
    g.check.args.push(ArgCheck {
        what: "no argument".into(),
        expected: "usage\n".into(),
        got: HOSTILE.into(),
        status: Some(0),
    });
    g.groups = group(&g.check);
    g
}

/// Whatever a candidate controls is escaped in every rendering of the
/// report: the text shows its control characters and quotes escaped, the
/// HTML and JUnit reports hold no markup of its and no control character
/// (they are replaced), and the JSON report gives it back exactly.
#[test]
fn what_a_candidate_controls_is_escaped_in_every_report() {
    let mut class = empty_class(1);
    class.add(hostile(), 0.0);
    let facts = Facts::of(&class);
    let raw = ['\u{1b}', '\u{7}', '\u{202e}'];
    let text = text::report(&facts);
    assert!(!text.contains(raw), "{text}");
    let shown = connectz_check::shown(HOSTILE);
    assert!(shown.contains("\\x1b]0;T\\x07"), "{shown}");
    // Its name, command, folder, given paths, fresh reason and command-line
    // answer, each shown escaped; its crash output in its group.
    assert!(text.matches(shown.as_str()).count() >= 7, "{text}");
    for (name, page) in [
        ("html", html::report(&facts)),
        ("junit", junit::report(&facts)),
    ] {
        assert!(!page.contains(raw), "{name}: {page}");
        assert!(!page.contains("<script>"), "{name}: {page}");
        assert!(page.contains("&lt;script&gt;&amp;&quot;"), "{name}: {page}");
    }
    let doc: serde_json::Value = serde_json::from_str(&json::report(&facts)).unwrap();
    let c = &doc["candidates"][0];
    assert_eq!(c["name"], HOSTILE);
    assert_eq!(c["command"][1], HOSTILE);
    assert_eq!(c["dir"], HOSTILE);
    assert_eq!(c["given"][0], HOSTILE);
    assert_eq!(c["fresh_reason"], HOSTILE);
    assert_eq!(c["groups"][0]["cases"][0]["stderr"], HOSTILE);
    assert_eq!(c["command_line"][0]["got"], HOSTILE);
}
