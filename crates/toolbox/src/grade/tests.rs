use std::path::{Path, PathBuf};

use std::ffi::OsString;

use super::class::{tidy, validate};
use super::*;

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
            answer: crate::check::Answer::Whole,
        },
    };
    assert!(validate(vec![]).is_err());
    assert!(validate(vec![entry(" ", &["x"])]).is_err());
    assert!(validate(vec![entry("a", &[])]).is_err());
    assert!(validate(vec![entry("a", &[""])]).is_err());
    assert!(validate(vec![entry("a", &["x"]), entry("a", &["y"])]).is_err());
    assert!(validate(vec![entry("a", &["x"]), entry("b", &["y"])]).is_ok());
}
