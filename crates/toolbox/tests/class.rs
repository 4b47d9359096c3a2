//! `cz grade`'s logic on a small class, quickly (fast tier): the ranking,
//! the groups, the four reports and the exit status, with the shell
//! candidates of tests/fixtures run outside a box (`--isolation none`: what
//! is checked here is the grading, not the box; the slow tier grades in
//! boxes). The whole fixture class is graded by `.ci/run`, whose browser
//! test opens its HTML report.

use std::fs;

use serde_json::Value;

use crate::support::{Scratch, grade_in_four_forms, json, run_cz, stdout};

#[test]
fn a_class_is_ranked_and_reported_in_four_forms() {
    let scratch = Scratch::new("grade-class");
    let out = grade_in_four_forms(
        &scratch,
        &[
            ("seven-is-three", "seven-is-three.sh"),
            ("says-usage", "class/says-usage.sh"),
            ("reference", "class/reference.sh"),
            ("two-bugs", "two-bugs-one-answer.sh"),
        ],
        "18",
        &["--isolation", "none"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // The leaderboard: fewest defined failures first.
    let order: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("  #  candidate"))
        .skip(1)
        .take(4)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(
        order,
        ["reference", "says-usage", "seven-is-three", "two-bugs"],
        "{text}"
    );
    assert!(text.contains("FAIL    rule.winnable [defined]: "), "{text}");
    // A case whose bytes another case has (a spec example shipped as a
    // file too) is not run again: every such case, for each candidate.
    let cases: Vec<_> = connectz_check::corpus()
        .into_iter()
        .chain(connectz_check::generated(18, 1))
        .collect();
    let unique: std::collections::HashSet<&[u8]> =
        cases.iter().map(|c| c.bytes.as_slice()).collect();
    let again = 4 * (cases.len() - unique.len());
    assert!(again > 0);
    assert!(
        text.contains(&format!("; {again} cases not run again (same input)")),
        "{text}"
    );
    assert!(text.contains("  FAIL no argument: expected \"connectz.py: Provide one input file\\n\", got \"\" (exit status 1)"), "{text}");
    // JSON: the same order, and the numbers behind it.
    let doc = json(&scratch.path("r.json"));
    let candidates = doc["candidates"].as_array().unwrap();
    let names: Vec<&str> = candidates
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, order);
    assert_eq!(doc["all_passed"], false);
    assert_eq!(doc["cases"]["generated"], 18);
    let total = doc["cases"]["total"].as_u64().unwrap();
    assert_eq!(candidates[0]["defined_failures"], 0);
    assert_eq!(candidates[1]["defined_failures"], 2);
    let seven = &candidates[2];
    let winnable = seven["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == "rule.winnable")
        .unwrap();
    assert_eq!(winnable["kind"], "wrong");
    assert!(winnable["count"].as_u64().unwrap() >= 5, "{winnable}");
    for case in winnable["cases"].as_array().unwrap() {
        assert_eq!(case["expected"], 7);
        assert_eq!(case["got"], 3);
    }
    let area = |c: &Value, name: &str| -> (u64, u64) {
        let a = c["areas"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap();
        (a["passed"].as_u64().unwrap(), a["total"].as_u64().unwrap())
    };
    let (passed, all) = area(seven, "winnability");
    assert!(passed < all && all >= 10, "{passed}/{all}");
    // The four argument checks, two of them failed, and no game file: the
    // games of code.table count in rules.
    assert_eq!(area(&candidates[1], "command-line"), (2, 4));
    // JUnit: a suite per candidate, a case per case and check.
    let xml = fs::read_to_string(scratch.path("r.xml")).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 4);
    assert_eq!(xml.matches("<testcase ").count() as u64, 4 * (total + 4));
    assert!(xml.contains("<testsuite name=\"seven-is-three\""));
    assert!(
        xml.contains(
            "<failure type=\"rule.winnable\" message=\"expected 7 (illegal game), got 3\">"
        )
    );
    assert!(xml.contains("<testcase classname=\"says-usage.command-line\" name=\"no argument\""));
    // HTML: one page, no external file, the boards inline.
    let html = fs::read_to_string(scratch.path("r.html")).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<script")
    );
    assert!(html.contains("<img class=\"board\""));
    assert!(html.contains("id=\"clause-rule-winnable\""));
}

#[test]
fn bad_manifests_and_templates_are_usage_errors() {
    let scratch = Scratch::new("grade-usage");
    // A manifest of one candidate named `name`, the rest of its table as
    // given, written to `file` in the scratch folder.
    let manifest = |file: &str, text: &str| -> String {
        let path = scratch.path(file);
        fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let bad = manifest("bad.toml", "[[candidate]]\nname = \"a\"\n");
    let one = "[[candidate]]\nname = \"a\"\ncommand = [\"true\"]\n";
    let twice = manifest("twice.toml", &format!("{one}{one}"));
    let nodir = manifest("nodir.toml", &format!("{one}dir = \"no/such/folder\"\n"));
    // A folder the box has its own of, never the machine's.
    let kernel = manifest("kernel.toml", &format!("{one}dir = \"/dev/shm\"\n"));
    // A candidate's folder, or a path given, named through a link in the
    // class (a candidate's choice of what its box sees): refused.
    fs::create_dir_all(scratch.path("bob/src")).unwrap();
    fs::create_dir_all(scratch.path("eve")).unwrap();
    std::os::unix::fs::symlink("../bob/src", scratch.path("eve/src")).unwrap();
    std::os::unix::fs::symlink("..", scratch.path("eve/data")).unwrap();
    let linked = manifest("linked.toml", &format!("{one}dir = \"eve/src\"\n"));
    let linked_path = manifest(
        "linked-path.toml",
        &format!("{one}dir = \"eve\"\npaths = [\"eve/data\"]\n"),
    );
    let linked_absolute = manifest(
        "linked-absolute.toml",
        &format!(
            "{one}dir = {:?}\n",
            scratch.path("eve/src").to_str().unwrap()
        ),
    );
    let cases: [(Vec<&str>, &str); 10] = [
        (vec!["grade", &linked], "dir goes through a link"),
        (vec!["grade", &linked_absolute], "dir goes through a link"),
        (
            vec!["grade", &linked_path],
            "\"eve/data\": goes through a link",
        ),
        (vec!["grade", &bad], "missing field `command`"),
        (vec!["grade", &twice], "two candidates are named \"a\""),
        (vec!["grade", &nodir], "is not a folder"),
        (
            vec!["grade", &kernel],
            "dir lies in /dev, which a box has its own of",
        ),
        (vec!["grade", "no-such.toml"], "no-such.toml"),
        (
            vec!["grade", "--each", "python3 connectz.py", "a"],
            "has no {}",
        ),
        (vec!["grade", "a.toml", "b.toml"], "give one manifest"),
    ];
    for (args, says) in cases {
        let out = run_cz(&args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
