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
        candidate: Candidate {
            command: command.iter().map(OsString::from).collect(),
            dir: None,
            answer: connectz_check::AnswerReading::Whole,
        },
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
            candidate: Candidate {
                command: vec![OsString::from("x")],
                dir: None,
                answer: connectz_check::AnswerReading::Whole,
            },
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
    let mut class = ClassReport {
        graded: Vec::new(),
        planned: 5,
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
    };
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
