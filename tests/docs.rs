//! The facts of the docs that users rely on, held to the code, each
//! failure saying what to write where:
//!
//! - ARCHITECTURE.md's crate table and its bullets against `cargo metadata`
//!   of the workspace and of `fuzz/` (its own workspace), and which members
//!   `cargo test` at the top leaves out;
//! - the fuzz targets listed in docs/internals.md, fuzz/README.md and
//!   CONTRIBUTING.md, and those tests/oracle.rs replays, against `fuzz/`'s
//!   `[[bin]]`s;
//! - the crates that may use unsafe code against each crate's roots;
//! - the API crates against the manifests' `publish`, and a version on each
//!   path dependency they ship;
//! - that no Cargo feature gates anything in the core but `connectz::hooks`;
//! - that the commands the README and docs/toolbox.md show print what they
//!   show, run against the built `connectz` and `cz`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::{files_below, root};

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn assert_none(problems: Vec<String>) {
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

// ------------------------------------------------------------ the crates, as cargo sees them

/// A crate as its manifest states it.
#[derive(Default)]
struct Crate {
    name: String,
    /// Normal and build dependencies (what a build compiles), and dev ones.
    normal: BTreeSet<String>,
    dev: BTreeSet<String>,
    /// Without `publish = false`.
    publishable: bool,
    default_member: bool,
    /// Its normal dependencies by path and their versions (`*` for none).
    shipped_paths: Vec<(String, String)>,
    /// The source files of its libraries and binaries, and its binaries.
    roots: Vec<PathBuf>,
    bins: Vec<String>,
}

/// The fuzz crate: its `[[bin]]`s are the fuzz targets.
const FUZZ_CRATE: &str = "connectz-fuzz";

/// `cargo metadata --no-deps` of the workspace whose manifest is `manifest`.
fn metadata(manifest: &str) -> Value {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["metadata", "--no-deps", "--format-version=1"]);
    cargo.arg("--manifest-path").arg(root().join(manifest));
    let output = cargo.output().unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "cargo metadata: {error}");
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

fn list(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], Vec::as_slice)
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

fn texts(value: &Value) -> BTreeSet<String> {
    list(value).iter().map(text).collect()
}

/// The workspace's members and the fuzz crate.
fn crates() -> &'static [Crate] {
    static CRATES: OnceLock<Vec<Crate>> = OnceLock::new();
    CRATES.get_or_init(|| {
        let mut crates = members(&metadata("Cargo.toml"));
        crates.extend(members(&metadata("fuzz/Cargo.toml")));
        crates
    })
}

fn members(metadata: &Value) -> Vec<Crate> {
    let members = texts(&metadata["workspace_members"]);
    let defaults = texts(&metadata["workspace_default_members"]);
    let mut crates = Vec::new();
    for package in list(&metadata["packages"]) {
        let id = text(&package["id"]);
        if !members.contains(&id) {
            continue;
        }
        let mut krate = Crate {
            name: text(&package["name"]),
            // `publish` is null for any registry, `[]` for `publish = false`.
            publishable: package["publish"] != Value::Array(Vec::new()),
            default_member: defaults.contains(&id),
            ..Crate::default()
        };
        for dep in list(&package["dependencies"]) {
            let name = text(&dep["name"]);
            if dep["kind"] == "dev" {
                krate.dev.insert(name);
                continue;
            }
            if dep["path"].is_string() {
                krate.shipped_paths.push((name.clone(), text(&dep["req"])));
            }
            krate.normal.insert(name);
        }
        for target in list(&package["targets"]) {
            let kinds = texts(&target["kind"]);
            let shipped = ["lib", "rlib", "cdylib", "staticlib", "proc-macro", "bin"];
            if shipped.iter().any(|k| kinds.contains(*k)) {
                krate.roots.push(PathBuf::from(text(&target["src_path"])));
            }
            if kinds.contains("bin") {
                krate.bins.push(text(&target["name"]));
            }
        }
        crates.push(krate);
    }
    crates
}

/// The cells of each row of the table whose header line begins with
/// `header` (none when `doc` has no such table).
fn table(doc: &str, header: &str) -> Vec<Vec<String>> {
    let lines = doc.lines().skip_while(|l| !l.starts_with(header)).skip(1);
    let rows = lines.take_while(|l| l.starts_with('|'));
    let cells = |row: &str| {
        row.trim_matches('|')
            .split('|')
            .map(|c| c.trim().into())
            .collect()
    };
    rows.filter(|l| !l.starts_with("|---")).map(cells).collect()
}

/// The names of a cell: comma-separated, backticks and remarks in
/// parentheses dropped ("connectz (with `test-hooks`)" is `connectz`).
fn names_in_cell(cell: &str) -> BTreeSet<String> {
    let mut parts = cell.split('(');
    let first = parts.next().unwrap_or_default().to_string();
    let after = parts.map(|p| p.split_once(')').map_or("", |(_, after)| after));
    let plain = after
        .fold(first, |plain, part| plain + part)
        .replace('`', "");
    let names = plain.split(',').map(str::trim).filter(|s| !s.is_empty());
    names.map(str::to_string).collect()
}

// ---------------------------------------------------------------------- the crate graph

const CRATE_TABLE: &str = "| crate | uses (normal: ships) | dev-dependencies (tests only) |";

#[test]
fn the_crate_table_is_the_manifests() {
    let architecture = read("ARCHITECTURE.md");
    let mut documented = BTreeMap::new();
    for cells in table(&architecture, CRATE_TABLE) {
        let cell = |i: usize| names_in_cell(cells.get(i).map_or("", String::as_str));
        documented.insert(cell(0).pop_first().unwrap_or_default(), (cell(1), cell(2)));
    }
    let names = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
    let mut problems = Vec::new();
    for krate in crates() {
        let name = &krate.name;
        let row = format!(
            "| {name} | {} | {} |",
            names(&krate.normal),
            names(&krate.dev)
        );
        match documented.remove(name) {
            None => problems.push(format!(
                "crate `{name}` has no row in ARCHITECTURE.md's table `{CRATE_TABLE}`: add\n    {row}"
            )),
            Some(stated) if stated != (krate.normal.clone(), krate.dev.clone()) => problems.push(
                format!("ARCHITECTURE.md's crate table: the manifest of `{name}` says\n    {row}"),
            ),
            Some(_) => {}
        }
        if !architecture.contains(&format!("- **{name}**")) {
            problems.push(format!(
                "ARCHITECTURE.md has no bullet `- **{name}**`: add one saying what it holds and \
                 its invariant"
            ));
        }
    }
    for name in documented.keys() {
        problems.push(format!(
            "ARCHITECTURE.md's crate table has a row for `{name}`, which is no crate: remove it"
        ));
    }
    assert_none(problems);
}

/// Maturin builds the Python package; the bench crate holds benches only,
/// so its dependencies (other solvers) stay out of `cargo test`.
const NOT_DEFAULT_MEMBERS: [&str; 2] = ["connectz-bench", "connectz-python"];

#[test]
fn cargo_test_at_the_top_tests_every_crate_but_two() {
    let left_out = crates().iter().filter(|c| !c.default_member);
    assert_eq!(
        left_out.map(|c| c.name.as_str()).collect::<BTreeSet<_>>(),
        BTreeSet::from(NOT_DEFAULT_MEMBERS),
        "every crate but these two must be among the root Cargo.toml's default-members, or \
         `cargo test` at the top skips its tests"
    );
}

// ---------------------------------------------------------------------- the fuzz targets

#[test]
fn the_fuzz_targets_listed_are_fuzz_cargo_toml() {
    let fuzz = crates().iter().find(|c| c.name == FUZZ_CRATE).unwrap();
    let targets: BTreeSet<&str> = fuzz.bins.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    for doc in ["docs/internals.md", "fuzz/README.md", "CONTRIBUTING.md"] {
        let rows = table(&read(doc), "| target |");
        let listed: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').into()).collect();
        let set: BTreeSet<&str> = listed.iter().map(String::as_str).collect();
        if set != targets || set.len() != listed.len() {
            problems.push(format!(
                "{doc}'s table headed `| target |` lists {listed:?}: give it one row for each \
                 [[bin]] of fuzz/Cargo.toml, {targets:?}"
            ));
        }
    }
    let oracle = read("tests/oracle.rs");
    let line = oracle.lines().find(|l| l.starts_with("const TARGETS"));
    let replayed: BTreeSet<&str> = line.unwrap_or("").split('"').skip(1).step_by(2).collect();
    if replayed != targets {
        problems.push(format!(
            "tests/oracle.rs's `const TARGETS` names {replayed:?}: name {targets:?} there, and in \
             its `target` function, so that `cargo test` replays every corpus"
        ));
    }
    assert_none(problems);
}

// ---------------------------------------------------------------------------- unsafe code

#[test]
fn the_crates_that_may_use_unsafe_code_are_the_ones_architecture_names() {
    let architecture = read("ARCHITECTURE.md");
    let mut bullet = architecture
        .lines()
        .skip_while(|l| !l.starts_with("- `#!["));
    let first = bullet.next().unwrap_or_default();
    let rest = bullet.take_while(|l| l.starts_with("  "));
    let bullet: String = std::iter::once(first).chain(rest).collect();
    let named: BTreeSet<&str> = bullet.split("**").skip(1).step_by(2).collect();
    let forbids = |root: &PathBuf| read(root.to_str().unwrap()).contains("#![forbid(unsafe_code)]");
    let without: BTreeSet<&str> = crates()
        .iter()
        .filter(|c| c.name != FUZZ_CRATE && !c.roots.iter().all(forbids))
        .map(|c| c.name.as_str())
        .collect();
    let mut problems = Vec::new();
    for name in without.difference(&named) {
        problems.push(format!(
            "crate `{name}` does not forbid unsafe code: write `#![forbid(unsafe_code)]` at the top \
             of each of its roots, or name it (**{name}**) in ARCHITECTURE.md's invariant that \
             begins \"- `#![forbid(unsafe_code)]`\", saying where and why it needs unsafe"
        ));
    }
    for name in named.difference(&without) {
        problems.push(format!(
            "ARCHITECTURE.md's `#![forbid(unsafe_code)]` invariant names **{name}**, which forbids \
             unsafe code or is no crate: remove it from the bullet"
        ));
    }
    assert_none(problems);
}

// ---------------------------------------------------------------------- what publishes

/// The API crates are the names in backticks between the colon and the
/// full stop of ARCHITECTURE.md's sentence that begins "**API crates**".
/// They are the crates without `publish = false`, and each path dependency
/// they ship is another API crate, with a version.
#[test]
fn the_api_crates_are_the_ones_that_publish() {
    let architecture = read("ARCHITECTURE.md");
    let sentence = architecture
        .split_once("**API crates**")
        .map_or("", |(_, s)| s);
    let sentence = sentence
        .split_once(':')
        .and_then(|(_, s)| s.split_once('.'));
    let names = sentence
        .map_or("", |(list, _)| list)
        .split('`')
        .skip(1)
        .step_by(2);
    let api: BTreeSet<String> = names.map(str::to_string).collect();
    let publishable = crates().iter().filter(|c| c.publishable);
    let publishable: BTreeSet<String> = publishable.map(|c| c.name.clone()).collect();
    let mut problems = Vec::new();
    if publishable != api {
        problems.push(format!(
            "ARCHITECTURE.md's sentence \"**API crates** (...): `a`, `b`.\" names {api:?}, the \
             crates without `publish = false` are {publishable:?}: name each API crate there, and \
             write `publish = false` in the [package] of every other"
        ));
    }
    for krate in crates().iter().filter(|c| api.contains(&c.name)) {
        for (dep, req) in &krate.shipped_paths {
            if req == "*" {
                problems.push(format!(
                    "API crate `{}` depends on `{dep}` by path with no version, which `cargo \
                     publish` refuses: write `{dep} = {{ path = \"...\", version = \"...\" }}`",
                    krate.name
                ));
            }
            if !api.contains(dep) {
                problems.push(format!(
                    "API crate `{}` ships a dependency on `{dep}`, which does not publish: make it \
                     a dev-dependency, or `{dep}` an API crate",
                    krate.name
                ));
            }
        }
    }
    assert_none(problems);
}

// -------------------------------------------------------------- no feature changes the API

/// The one line of the core that may name a Cargo feature, just before
/// `pub mod hooks;` in src/lib.rs. Cargo unifies features: when one crate
/// of a build turns `test-hooks` on, every crate sees the core built with
/// it, so it may add `connectz::hooks` and nothing else.
const HOOKS_GATE: &str = "#[cfg(feature = \"test-hooks\")]";

#[test]
fn the_test_hooks_feature_gates_only_the_hooks_module() {
    let mut problems = Vec::new();
    for path in files_below(&root().join("src")) {
        let source = fs::read_to_string(&path).unwrap_or_default();
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        let lines: Vec<&str> = source.lines().map(str::trim).collect();
        // A condition on a Cargo feature: `feature = "..."`, not `target_feature`.
        let cargo_feature = |l: &&str| l.replace("target_feature", "").contains("feature =");
        for (i, line) in lines.iter().enumerate().filter(|(_, l)| cargo_feature(l)) {
            let gate = *line == HOOKS_GATE && lines.get(i + 1) == Some(&"pub mod hooks;");
            if !(gate && rel == "src/lib.rs") {
                problems.push(format!(
                    "{rel}:{}: `{line}` makes code depend on a Cargo feature, which every crate \
                     of a build then sees: put what the tests need in src/hooks.rs",
                    i + 1
                ));
            }
        }
    }
    assert!(read("src/lib.rs").contains(&format!("{HOOKS_GATE}\npub mod hooks;")));
    assert_none(problems);
}

// ------------------------------------------------------------------ the commands shown

/// The docs whose commands are run: each line `$ COMMAND` of a ```text
/// block, then what it prints on standard output (a line `...` stands for
/// any number of lines). Not run: `cz check`, of the reader's own
/// candidate, and `cz grade`, of a class in boxes (the toolbox's tests run
/// both on candidates of their own).
const DOCS_WITH_COMMANDS: [&str; 2] = ["README.md", "docs/toolbox.md"];
const NOT_RUN: [&str; 2] = ["cz check ", "cz grade "];

/// Where a doc shows a command, the command, and what it prints there.
type Shown = (String, String, Vec<String>);

fn commands_shown(doc: &str, text: &str) -> Vec<Shown> {
    let (mut shown, mut in_text) = (Vec::<Shown>::new(), false);
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_text = line == "```text";
        } else if let Some(command) = line.strip_prefix("$ ").filter(|_| in_text) {
            shown.push((format!("{doc}:{}", i + 1), command.into(), Vec::new()));
        } else if let Some((_, _, prints)) = shown.last_mut().filter(|_| in_text) {
            prints.push(line.trim_end().into());
        }
    }
    for (_, _, prints) in &mut shown {
        while prints.last().is_some_and(String::is_empty) {
            prints.pop();
        }
    }
    shown
}

/// True when `printed` is `shown`, a line `...` of it standing for any lines.
fn prints_as_shown(shown: &[String], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((dots, rest)) if dots == "..." => {
            (0..=printed.len()).any(|n| prints_as_shown(rest, &printed[n..]))
        }
        Some((line, rest)) => {
            printed.first() == Some(&line.as_str()) && prints_as_shown(rest, &printed[1..])
        }
    }
}

/// `cargo run [FLAGS] --bin NAME -- ARGS` as the program runs it: `NAME ARGS`.
fn as_installed(command: &str) -> String {
    let run = command
        .strip_prefix("cargo run ")
        .and_then(|r| r.split_once("--bin "));
    run.map_or(command.into(), |(_, r)| r.replacen(" -- ", " ", 1))
}

/// `cz`, built by cargo in `target`, a target folder of this test's own, so
/// that the build neither waits for nor replaces what other tests run.
fn build_cz(target: &Path) -> PathBuf {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "--quiet", "-p", "connectz-toolbox", "--bin", "cz"]);
    // Without debug information the build is quicker and smaller.
    cargo.env("CARGO_PROFILE_DEV_DEBUG", "0");
    cargo.env("CARGO_TARGET_DIR", target).current_dir(root());
    let output = cargo.output().unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "cargo build --bin cz: {error}");
    target.join("debug/cz")
}

/// Runs each command shown in a folder that sees the repository's files and
/// keeps what the commands write, with `connectz` and `cz` on the path.
#[test]
fn the_commands_the_docs_show_print_what_they_show() {
    let target = PathBuf::from(text(&metadata("Cargo.toml")["target_directory"]));
    let own = target.join("docs-commands");
    let dir = own.join(format!("run-{}", std::process::id()));
    let bin = dir.join(".bin");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&bin).unwrap();
    for entry in fs::read_dir(root()).unwrap().map(|e| e.unwrap().path()) {
        let name = entry.file_name().unwrap();
        if name != "target" && !name.to_string_lossy().starts_with('.') {
            symlink(&entry, dir.join(name)).unwrap();
        }
    }
    symlink(env!("CARGO_BIN_EXE_connectz"), bin.join("connectz")).unwrap();
    symlink(build_cz(&own), bin.join("cz")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let (mut problems, mut ran) = (Vec::new(), 0);
    for doc in DOCS_WITH_COMMANDS {
        for (at, command, shown) in commands_shown(doc, &read(doc)) {
            let command = as_installed(&command);
            if NOT_RUN.iter().any(|not_run| command.contains(not_run)) {
                continue;
            }
            let mut sh = Command::new("sh");
            sh.args(["-c", &command]).current_dir(&dir);
            sh.env("PATH", &path).env("NO_COLOR", "1");
            let output = sh.stdin(Stdio::null()).output().unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            let printed: Vec<&str> = stdout.trim_end().lines().map(str::trim_end).collect();
            ran += 1;
            if !output.status.success() || !prints_as_shown(&shown, &printed) {
                problems.push(format!(
                    "{at}: `{command}` ({}) printed\n{}\n{}and the doc shows\n{}\nwrite what it \
                     prints below it (a line `...` for lines left out)",
                    output.status,
                    stdout.trim_end(),
                    String::from_utf8_lossy(&output.stderr),
                    shown.join("\n")
                ));
            }
        }
    }
    assert!(ran >= 10, "ran only {ran} commands");
    assert_none(problems);
    fs::remove_dir_all(&dir).unwrap();
}

// ----------------------------------------------------- the checks fail when they should

#[test]
fn commands_are_read_from_text_blocks_and_matched_with_elisions() {
    let doc = "```sh\n$ not run\n```\n```text\n$ cz a  # a comment\nA\n...\nZ\n\n$ cz b\n```\n";
    let prints: Vec<String> = ["A", "...", "Z"].map(String::from).into();
    let a: Shown = ("d.md:5".into(), "cz a  # a comment".into(), prints.clone());
    let b: Shown = ("d.md:10".into(), "cz b".into(), Vec::new());
    assert_eq!(commands_shown("d.md", doc), [a, b]);
    let matches = |printed: &[&str]| prints_as_shown(&prints, printed);
    assert!(matches(&["A", "Z"]) && matches(&["A", "B", "C", "Z"]));
    assert!(!matches(&["A", "Y"]) && !matches(&["A"]) && !matches(&["B", "Z"]));
    assert!(!prints_as_shown(&[], &["something"]));
    assert_eq!(as_installed("cargo run --bin cz -- a"), "cz a");
}
