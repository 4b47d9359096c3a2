//! Docs that cannot drift: the facts that change with the code (which crates
//! exist, what each depends on, which fuzz targets there are, one definition
//! per type name) are read from the code here and held to what the docs say.
//!
//! - `ARCHITECTURE.md`'s crate table against `cargo metadata` (every
//!   workspace member) and `fuzz/Cargo.toml` (the fuzz crate, its own
//!   workspace);
//! - the fuzz targets listed in `docs/internals.md`, `fuzz/README.md` and
//!   `CONTRIBUTING.md`, and those `tests/oracle.rs` replays, against the
//!   `[[bin]]`s of `fuzz/Cargo.toml`;
//! - every crate named `connectz-*` in the docs exists;
//! - `ARCHITECTURE.md`'s list of crates that do not forbid unsafe code
//!   against each crate's roots;
//! - `ARCHITECTURE.md`'s API crates against the crates without
//!   `publish = false`, and a version on each path dependency they ship;
//! - `ARCHITECTURE.md`'s reading list of the rules against `src/rules/`
//!   and each file's length;
//! - no Cargo feature gates anything in the core but the test hooks' module
//!   (so no feature changes a public type);
//! - one definition per type name across the workspace's Rust files.
//!
//! Each failure says what to write where. The comparisons are plain
//! functions, so the tests at the end prove they fail on doctored docs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::root;

/// The header of `ARCHITECTURE.md`'s crate table, as written there.
const CRATE_TABLE_HEADER: &str = "| crate | uses (normal: ships) | dev-dependencies (tests only) |";

/// One crate and the names of what it depends on: as the docs state it or
/// as its manifest does.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CrateDependencies {
    name: String,
    /// Normal and build dependencies: what a build of the crate compiles.
    normal: BTreeSet<String>,
    /// Dev-dependencies: tests, benches and examples only.
    dev: BTreeSet<String>,
}

impl CrateDependencies {
    /// The table row that states this crate, for a failure message.
    fn row(&self) -> String {
        let list = |names: &BTreeSet<String>| names.iter().cloned().collect::<Vec<_>>().join(", ");
        format!(
            "| {} | {} | {} |",
            self.name,
            list(&self.normal),
            list(&self.dev)
        )
    }
}

// ---------------------------------------------------------------- the code

/// Every workspace member and the fuzz crate, from their manifests.
fn crates_in_code() -> Vec<CrateDependencies> {
    let mut crates = workspace_members(&cargo_metadata());
    let fuzz = read(&root().join("fuzz/Cargo.toml"));
    crates.push(fuzz_manifest(&fuzz).0);
    crates
}

/// `cargo metadata --no-deps` of the workspace, parsed.
fn cargo_metadata() -> Value {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("cargo metadata prints UTF-8");
    serde_json::from_str(&text).expect("cargo metadata prints JSON")
}

/// The workspace members of a `cargo metadata` answer with their
/// dependencies by kind.
fn workspace_members(metadata: &Value) -> Vec<CrateDependencies> {
    let mut crates = Vec::new();
    for package in member_packages(metadata) {
        let name = package.get("name").and_then(Value::as_str).expect("name");
        let mut deps = CrateDependencies {
            name: name.to_string(),
            normal: BTreeSet::new(),
            dev: BTreeSet::new(),
        };
        let listed = package
            .get("dependencies")
            .and_then(Value::as_array)
            .expect("dependencies");
        for dep in listed {
            let dep_name = dep.get("name").and_then(Value::as_str).expect("name");
            match dep.get("kind").and_then(Value::as_str) {
                Some("dev") => deps.dev.insert(dep_name.to_string()),
                // `null` (normal) and "build": both are compiled to build it.
                _ => deps.normal.insert(dep_name.to_string()),
            };
        }
        crates.push(deps);
    }
    crates.sort_by(|a, b| a.name.cmp(&b.name));
    crates
}

/// The packages of a `cargo metadata` answer that are workspace members.
fn member_packages(metadata: &Value) -> Vec<&Value> {
    let members: BTreeSet<&str> = metadata
        .get("workspace_members")
        .and_then(Value::as_array)
        .expect("workspace_members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    metadata
        .get("packages")
        .and_then(Value::as_array)
        .expect("packages")
        .iter()
        .filter(|p| members.contains(p.get("id").and_then(Value::as_str).expect("id")))
        .collect()
}

/// The fuzz crate's dependencies and its targets (the `[[bin]]` names, in
/// order), from the text of `fuzz/Cargo.toml`.
fn fuzz_manifest(toml: &str) -> (CrateDependencies, Vec<String>) {
    let mut deps = CrateDependencies {
        name: String::new(),
        normal: BTreeSet::new(),
        dev: BTreeSet::new(),
    };
    let mut targets = Vec::new();
    let mut section = String::new();
    for line in toml.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            section = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            // `[dependencies.NAME]`: a dependency written as a table.
            for (prefix, kind) in [
                ("dependencies.", false),
                ("build-dependencies.", false),
                ("dev-dependencies.", true),
            ] {
                if let Some(name) = section.strip_prefix(prefix) {
                    let set = if kind {
                        &mut deps.dev
                    } else {
                        &mut deps.normal
                    };
                    set.insert(name.trim_matches('"').to_string());
                }
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim().trim_matches('"'), value.trim().trim_matches('"'));
        match section.as_str() {
            "package" if key == "name" => deps.name = value.to_string(),
            "dependencies" | "build-dependencies" => {
                deps.normal.insert(key.to_string());
            }
            "dev-dependencies" => {
                deps.dev.insert(key.to_string());
            }
            "bin" if key == "name" => targets.push(value.to_string()),
            _ => {}
        }
    }
    (deps, targets)
}

// ---------------------------------------------------------------- the docs

/// The rows of `ARCHITECTURE.md`'s crate table. In a cell, entries are
/// separated by commas and a remark in parentheses is not a name:
/// "connectz (with `test-hooks`)" names `connectz`, "(nothing)" nothing.
fn crate_table(architecture: &str) -> Result<Vec<CrateDependencies>, String> {
    let mut lines = architecture
        .lines()
        .skip_while(|l| l.trim() != CRATE_TABLE_HEADER);
    if lines.next().is_none() {
        return Err(format!(
            "ARCHITECTURE.md has no crate table: write one under the header `{CRATE_TABLE_HEADER}`"
        ));
    }
    let mut rows = Vec::new();
    for line in lines.map(str::trim).take_while(|l| l.starts_with('|')) {
        if line.starts_with("|---") || line.starts_with("| ---") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [name, normal, dev] = cells[..] else {
            return Err(format!(
                "ARCHITECTURE.md's crate table: `{line}` needs three cells"
            ));
        };
        let names = |cell: &str| -> Result<BTreeSet<String>, String> {
            let mut set = BTreeSet::new();
            for entry in names_in_cell(cell) {
                if !set.insert(entry.clone()) {
                    return Err(format!(
                        "ARCHITECTURE.md's crate table: `{entry}` twice in `{line}`"
                    ));
                }
            }
            Ok(set)
        };
        let crate_name = names_in_cell(name);
        let [crate_name] = &crate_name[..] else {
            return Err(format!(
                "ARCHITECTURE.md's crate table: `{line}` must name one crate first"
            ));
        };
        rows.push(CrateDependencies {
            name: crate_name.clone(),
            normal: names(normal)?,
            dev: names(dev)?,
        });
    }
    Ok(rows)
}

/// The names in a table cell: comma-separated, remarks in parentheses and
/// backticks dropped.
fn names_in_cell(cell: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '`' => {}
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// What is wrong with the documented crate table, each as what to write
/// where; empty when it states the code.
fn crate_table_problems(
    documented: &[CrateDependencies],
    code: &[CrateDependencies],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut rows: BTreeMap<&str, &CrateDependencies> = BTreeMap::new();
    for row in documented {
        if rows.insert(&row.name, row).is_some() {
            problems.push(format!(
                "ARCHITECTURE.md's crate table has two rows for `{}`: keep one",
                row.name
            ));
        }
    }
    let actual: BTreeMap<&str, &CrateDependencies> =
        code.iter().map(|c| (c.name.as_str(), c)).collect();
    for (name, truth) in &actual {
        match rows.get(name) {
            None => problems.push(format!(
                "crate `{name}` has no row in ARCHITECTURE.md's crate table: add the row\n    {}\n  \
                 and a bullet `- **{name}**` saying what it holds and its invariant",
                truth.row()
            )),
            Some(row) => {
                for (column, stated, real) in [
                    ("uses (normal: ships)", &row.normal, &truth.normal),
                    ("dev-dependencies (tests only)", &row.dev, &truth.dev),
                ] {
                    if stated != real {
                        let missing: Vec<_> = real.difference(stated).cloned().collect();
                        let extra: Vec<_> = stated.difference(real).cloned().collect();
                        problems.push(format!(
                            "ARCHITECTURE.md's crate table, row `{name}`, column \"{column}\": \
                             add {missing:?}, remove {extra:?}; the row as the manifest has it:\n    {}",
                            truth.row()
                        ));
                    }
                }
            }
        }
    }
    for name in rows.keys() {
        if !actual.contains_key(name) {
            problems.push(format!(
                "ARCHITECTURE.md's crate table has a row for `{name}`, which is no crate of the \
                 workspace nor fuzz/: remove the row (or rename it to the crate's `name`)"
            ));
        }
    }
    problems
}

/// The fuzz targets a doc lists: the first column of its table headed
/// `| target |`, each a name in backticks.
fn fuzz_targets_listed(doc: &str) -> Vec<String> {
    doc.lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("| target |"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---"))
        .filter_map(|l| l.trim_matches('|').split('|').next())
        .map(|cell| cell.trim().trim_matches('`').to_string())
        .collect()
}

/// What is wrong with a doc's list of fuzz targets; empty when it lists
/// exactly the targets of `fuzz/Cargo.toml`.
fn fuzz_target_problems(doc: &str, listed: &[String], targets: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    if listed.is_empty() {
        problems.push(format!(
            "{doc} lists no fuzz targets: write a table headed `| target | ... |` with one row \
             per `[[bin]]` of fuzz/Cargo.toml: {targets:?}"
        ));
        return problems;
    }
    let mut seen = BTreeSet::new();
    for name in listed {
        if !seen.insert(name) {
            problems.push(format!(
                "{doc} lists fuzz target `{name}` twice: keep one row"
            ));
        }
        if !targets.contains(name) {
            problems.push(format!(
                "{doc} lists fuzz target `{name}`, which fuzz/Cargo.toml does not define: \
                 remove its row"
            ));
        }
    }
    for name in targets {
        if !listed.contains(name) {
            problems.push(format!(
                "fuzz target `{name}` (a `[[bin]]` of fuzz/Cargo.toml) is not in {doc}: add a \
                 row `| `{name}` | <its input> | <what it checks> |` to its targets table"
            ));
        }
    }
    problems
}

/// Every `connectz-*` crate named in `text` that is not in `crates`.
fn unknown_crates_named(text: &str, crates: &BTreeSet<String>) -> BTreeSet<String> {
    let mut unknown = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("connectz-") {
        let before = rest[..at].chars().next_back();
        let word: String = rest[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        rest = &rest[at + word.len()..];
        let word = word.trim_end_matches('-');
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/' || c == '.') {
            continue; // a path or a longer word, not a crate's name
        }
        if !crates.contains(word) {
            unknown.insert(word.to_string());
        }
    }
    unknown
}

// ---------------------------------------------------------------- the tests

#[test]
fn architecture_crate_table_is_the_manifests() {
    let architecture = read(&root().join("ARCHITECTURE.md"));
    let documented = crate_table(&architecture).unwrap_or_else(|e| panic!("{e}"));
    let problems = crate_table_problems(&documented, &crates_in_code());
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// The one workspace member that is not a default member: maturin builds
/// it, not `cargo test` at the top.
const BUILT_BY_ANOTHER_TOOL: &str = "connectz-python";
/// The member left out of the default members so that its dependencies
/// (other solvers) stay out of `cargo test`: it holds benches only.
const BENCHES_ONLY: &str = "connectz-bench";

#[test]
fn every_member_but_the_python_package_and_the_bench_is_a_default_member() {
    let metadata = cargo_metadata();
    let ids = |key: &str| -> BTreeSet<String> {
        metadata
            .get(key)
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("cargo metadata has {key}"))
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    };
    let (members, defaults) = (ids("workspace_members"), ids("workspace_default_members"));
    let names: BTreeSet<&str> = metadata
        .get("packages")
        .and_then(Value::as_array)
        .expect("packages")
        .iter()
        .filter(|p| {
            p.get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| members.contains(id) && !defaults.contains(id))
        })
        .filter_map(|p| p.get("name").and_then(Value::as_str))
        .collect();
    assert_eq!(
        names,
        BTreeSet::from([BENCHES_ONLY, BUILT_BY_ANOTHER_TOOL]),
        "every crate but {BUILT_BY_ANOTHER_TOOL} and {BENCHES_ONLY} must be in the root Cargo.toml's \
         default-members too, or `cargo test` at the top skips its tests"
    );
}

#[test]
fn every_crate_has_its_bullet_in_architecture() {
    let architecture = read(&root().join("ARCHITECTURE.md"));
    let missing: Vec<String> = crates_in_code()
        .into_iter()
        .filter(|c| c.name != "connectz-fuzz")
        .filter(|c| !architecture.contains(&format!("- **{}**", c.name)))
        .map(|c| {
            format!(
                "ARCHITECTURE.md has no bullet `- **{}**` under \"Each crate\": add one saying \
                 what it holds and its invariant",
                c.name
            )
        })
        .collect();
    assert!(missing.is_empty(), "\n{}\n", missing.join("\n"));
}

#[test]
fn fuzz_target_lists_are_fuzz_cargo_toml() {
    let (_, targets) = fuzz_manifest(&read(&root().join("fuzz/Cargo.toml")));
    assert!(!targets.is_empty(), "fuzz/Cargo.toml defines no [[bin]]");
    let mut problems = Vec::new();
    for doc in ["docs/internals.md", "fuzz/README.md", "CONTRIBUTING.md"] {
        let listed = fuzz_targets_listed(&read(&root().join(doc)));
        problems.extend(fuzz_target_problems(doc, &listed, &targets));
    }
    // What `cargo test` replays (tests/oracle.rs) is a list too.
    let oracle = read(&root().join("tests/oracle.rs"));
    let replayed: Vec<String> = oracle
        .lines()
        .find(|l| l.trim_start().starts_with("const TARGETS"))
        .map(|l| {
            l.split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut replayed_sorted = replayed.clone();
    replayed_sorted.sort();
    let mut targets_sorted = targets.clone();
    targets_sorted.sort();
    if replayed_sorted != targets_sorted {
        problems.push(format!(
            "tests/oracle.rs's `const TARGETS` is {replayed:?}, fuzz/Cargo.toml's targets are \
             {targets:?}: name every target there (and in its `target` function) so `cargo test` \
             replays its corpus"
        ));
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn docs_name_only_crates_that_exist() {
    let crates: BTreeSet<String> = crates_in_code().into_iter().map(|c| c.name).collect();
    let mut docs = vec![
        root().join("ARCHITECTURE.md"),
        root().join("README.md"),
        root().join("CONTRIBUTING.md"),
    ];
    // docs/notes/ are dated records of what was: they may name what is gone.
    docs.extend(
        fs::read_dir(root().join("docs"))
            .expect("docs/")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    let mut problems = Vec::new();
    for doc in docs {
        let unknown = unknown_crates_named(&read(&doc), &crates);
        for name in unknown {
            problems.push(format!(
                "{} names crate `{name}`, which does not exist: write the crate's current name",
                doc.strip_prefix(root()).unwrap().display()
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// `ARCHITECTURE.md` says which crates do not forbid unsafe code: the crates
/// named in bold on its line that begins "- `#![forbid(unsafe_code)]`".
#[test]
fn crates_that_allow_unsafe_are_the_ones_architecture_names() {
    let architecture = read(&root().join("ARCHITECTURE.md"));
    let bullet: String = architecture
        .lines()
        .skip_while(|l| !l.starts_with("- `#![forbid(unsafe_code)]`"))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || l.starts_with("  "))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert!(
        !bullet.is_empty(),
        "ARCHITECTURE.md's invariants need a bullet beginning \"- `#![forbid(unsafe_code)]`\" \
         naming in bold (**name**) each crate that does not forbid unsafe code"
    );
    let named: BTreeSet<String> = bullet
        .split("**")
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    let metadata = cargo_metadata();
    let mut without = BTreeSet::new();
    for package in metadata
        .get("packages")
        .and_then(Value::as_array)
        .expect("packages")
    {
        let name = package.get("name").and_then(Value::as_str).expect("name");
        let targets = package
            .get("targets")
            .and_then(Value::as_array)
            .expect("targets");
        for target in targets {
            let kinds = target.get("kind").and_then(Value::as_array).expect("kind");
            let shipped = kinds.iter().filter_map(Value::as_str).any(|k| {
                matches!(
                    k,
                    "lib" | "rlib" | "cdylib" | "bin" | "proc-macro" | "staticlib"
                )
            });
            let path = target
                .get("src_path")
                .and_then(Value::as_str)
                .expect("src_path");
            if shipped && !read(Path::new(path)).contains("#![forbid(unsafe_code)]") {
                without.insert(name.to_string());
            }
        }
    }
    let mut problems = Vec::new();
    for name in without.difference(&named) {
        problems.push(format!(
            "crate `{name}` does not forbid unsafe code: write `#![forbid(unsafe_code)]` at the \
             top of its lib.rs and main.rs, or name it (**{name}**) in ARCHITECTURE.md's \
             `#![forbid(unsafe_code)]` invariant with where and why it needs unsafe"
        ));
    }
    for name in named.difference(&without) {
        problems.push(format!(
            "ARCHITECTURE.md's `#![forbid(unsafe_code)]` invariant names **{name}**, which \
             forbids unsafe code (or is no crate): remove it from the bullet"
        ));
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

// ---------------------------------------------------- the API crates publish

/// A crate as publishing sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Publishing {
    name: String,
    /// Without `publish = false`.
    publishable: bool,
    /// Its normal and build dependencies by path, each with its version
    /// requirement (`*` when the manifest gives none).
    shipped_paths: Vec<(String, String)>,
}

/// Every workspace member and the fuzz crate as publishing sees them.
fn publishing_in_code() -> Vec<Publishing> {
    let metadata = cargo_metadata();
    let mut crates = Vec::new();
    for package in member_packages(&metadata) {
        // `publish`: null for any registry, `[]` for `publish = false`.
        let publishable = match package.get("publish") {
            Some(Value::Array(registries)) => !registries.is_empty(),
            _ => true,
        };
        let shipped_paths = package
            .get("dependencies")
            .and_then(Value::as_array)
            .expect("dependencies")
            .iter()
            .filter(|d| d.get("kind").and_then(Value::as_str) != Some("dev"))
            .filter(|d| d.get("path").is_some_and(|p| !p.is_null()))
            .map(|d| {
                let field = |key: &str| d.get(key).and_then(Value::as_str).expect(key).to_string();
                (field("name"), field("req"))
            })
            .collect();
        crates.push(Publishing {
            name: package
                .get("name")
                .and_then(Value::as_str)
                .expect("name")
                .to_string(),
            publishable,
            shipped_paths,
        });
    }
    // The fuzz crate is its own workspace: its manifest says it.
    let fuzz = read(&root().join("fuzz/Cargo.toml"));
    crates.push(Publishing {
        name: fuzz_manifest(&fuzz).0.name,
        publishable: !fuzz.lines().any(|l| l.trim() == "publish = false"),
        shipped_paths: Vec::new(),
    });
    crates.sort_by(|a, b| a.name.cmp(&b.name));
    crates
}

/// The crates `ARCHITECTURE.md` calls API crates: the names in backticks
/// after the colon of its sentence that begins "**API crates**", up to the
/// sentence's full stop.
fn api_crates_named(architecture: &str) -> Result<BTreeSet<String>, String> {
    let sentence = architecture
        .split("**API crates**")
        .nth(1)
        .and_then(|rest| rest.split_once(':'))
        .and_then(|(_, rest)| rest.split_once('.'))
        .map(|(list, _)| list)
        .ok_or(
            "ARCHITECTURE.md needs a sentence \"**API crates** (...): `a`, `b`.\" naming the \
             crates that may be published",
        )?;
    let names: BTreeSet<String> = sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    if names.is_empty() {
        return Err(
            "ARCHITECTURE.md's \"**API crates**\" sentence names no crate in backticks".into(),
        );
    }
    Ok(names)
}

/// What keeps the API crates from being published as the docs say; empty
/// when the crates without `publish = false` are exactly the API crates and
/// every path dependency they ship is another API crate with a version.
fn publishing_problems(api: &BTreeSet<String>, code: &[Publishing]) -> Vec<String> {
    let mut problems = Vec::new();
    let publishable: BTreeSet<String> = code
        .iter()
        .filter(|c| c.publishable)
        .map(|c| c.name.clone())
        .collect();
    for name in publishable.difference(api) {
        problems.push(format!(
            "crate `{name}` has no `publish = false` but ARCHITECTURE.md does not call it an API \
             crate: write `publish = false` in its [package], or name it among the API crates"
        ));
    }
    for name in api.difference(&publishable) {
        let known = code.iter().any(|c| &c.name == name);
        problems.push(if known {
            format!(
                "ARCHITECTURE.md calls `{name}` an API crate but its manifest says \
                 `publish = false`: remove that line, or the crate from the API crates"
            )
        } else {
            format!("ARCHITECTURE.md calls `{name}` an API crate, which is no crate: remove it")
        });
    }
    for krate in code.iter().filter(|c| api.contains(&c.name)) {
        for (dep, req) in &krate.shipped_paths {
            if req == "*" {
                problems.push(format!(
                    "API crate `{}` depends on `{dep}` by path with no version, which `cargo \
                     publish` refuses: write `{dep} = {{ path = \"...\", version = \"<its \
                     version>\" }}`",
                    krate.name
                ));
            }
            if !api.contains(dep) {
                problems.push(format!(
                    "API crate `{}` ships a dependency on `{dep}`, which is not published: make \
                     it a dev-dependency, or `{dep}` an API crate",
                    krate.name
                ));
            }
        }
    }
    problems
}

#[test]
fn api_crates_are_the_publishable_ones_with_versioned_paths() {
    let architecture = read(&root().join("ARCHITECTURE.md"));
    let api = api_crates_named(&architecture).unwrap_or_else(|e| panic!("{e}"));
    let problems = publishing_problems(&api, &publishing_in_code());
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

// ------------------------------------------ no feature changes a public type

/// The one line of the core's sources that may name a Cargo feature: the
/// gate on the test hooks' module, just before `pub mod hooks;` in
/// `src/lib.rs`.
const HOOKS_GATE: &str = "#[cfg(feature = \"test-hooks\")]";

/// Cargo unifies features: when one crate of a build turns one on, every
/// crate sees the core built with it. So a feature may add the test hooks'
/// module (`connectz::hooks`) and nothing else: no variant, field, method
/// or item of the API may depend on one.
#[test]
fn features_gate_only_the_hooks_module() {
    let files: Vec<(String, String)> = rust_files_below(&root().join("src"))
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(root()).unwrap().display().to_string();
            (rel, read(&path))
        })
        .collect();
    assert!(files.len() > 10, "read only {} files", files.len());
    let problems = feature_gates_off_the_hooks_module(&files);
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// Every place in `files` (path, source) that names a Cargo feature
/// (`feature = "..."`, not `target_feature`) other than [`HOOKS_GATE`] on
/// `pub mod hooks;` in `src/lib.rs`; and a problem when that gate is not
/// there exactly once.
fn feature_gates_off_the_hooks_module(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut gates = 0;
    for (path, source) in files {
        let lines: Vec<&str> = source.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !names_a_feature(line) {
                continue;
            }
            let next = lines.get(i + 1).map(|l| l.trim());
            if path == "src/lib.rs" && line.trim() == HOOKS_GATE && next == Some("pub mod hooks;") {
                gates += 1;
                continue;
            }
            problems.push(format!(
                "{path}:{}: `{}` makes code depend on a Cargo feature, which every crate of a \
                 build then sees; put what the tests need in `src/hooks.rs` (the module \
                 `{HOOKS_GATE}` gates in src/lib.rs), built from crate-private items",
                i + 1,
                line.trim()
            ));
        }
    }
    if gates != 1 {
        problems.push(format!(
            "src/lib.rs must gate the test hooks once, `{HOOKS_GATE}` on the line before \
             `pub mod hooks;`; found {gates}"
        ));
    }
    problems
}

/// True when `line` has `feature` as a word (not `target_feature`) followed
/// by `=`: a condition on a Cargo feature.
fn names_a_feature(line: &str) -> bool {
    line.match_indices("feature").any(|(at, word)| {
        let before = line[..at].chars().next_back();
        let word_start = !before.is_some_and(|c| c.is_alphanumeric() || c == '_');
        word_start && line[at + word.len()..].trim_start().starts_with('=')
    })
}

// ------------------------------------------------ one definition per name

/// The folders whose `.rs` files are scanned for type definitions.
const SOURCE_FOLDERS: [&str; 7] = [
    "src",
    "crates",
    "web",
    "python",
    "benches",
    "tests",
    "fuzz/fuzz_targets",
];

#[test]
fn one_definition_per_type_name() {
    let mut definitions: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut scanned = 0;
    for folder in SOURCE_FOLDERS {
        for path in rust_files_below(&root().join(folder)) {
            scanned += 1;
            let rel = path.strip_prefix(root()).unwrap().display().to_string();
            for (name, line) in type_definitions(&read(&path)) {
                definitions
                    .entry(name)
                    .or_default()
                    .push(format!("{rel}:{line}"));
            }
        }
    }
    assert!(scanned > 100, "scanned only {scanned} files");
    let twice: Vec<String> = definitions
        .iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| format!("{name} ({}): {}", places.len(), places.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "\n{} type names are defined more than once (struct, enum, union, trait or type alias, \
         fn-local ones too); give each definition a name that says what it is:\n{}\n",
        twice.len(),
        twice.join("\n")
    );
}

/// Every `.rs` file below `dir`, skipping build output and hidden folders.
fn rust_files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy();
            if path.is_dir() {
                if name != "target" && name != "node_modules" && !name.starts_with('.') {
                    stack.push(path);
                }
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A token of Rust source, as much as the definition scan needs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SourceToken {
    Ident(String),
    Punct(char),
}

/// The tokens of Rust source with their lines: comments, strings and
/// character literals dropped, lifetimes' quotes dropped.
fn source_tokens(source: &str) -> Vec<(SourceToken, usize)> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Skips to just past the closing `"` (then `#`s) of a string from `i`.
    let skip_string = |mut i: usize, hashes: usize, raw: bool, line: &mut usize| -> usize {
        while i < chars.len() {
            match chars[i] {
                '\n' => *line += 1,
                '\\' if !raw => i += 1,
                '"' if chars[i + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&c| c == '#')
                    .count()
                    == hashes =>
                {
                    return i + 1 + hashes;
                }
                _ => {}
            }
            i += 1;
        }
        i
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(i + 1, 0, false, &mut line);
        } else if c == '\'' {
            // 'x', '\n', '\u{..}' are characters; 'a alone is a lifetime.
            if next == Some('\\') {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if raw_prefix && chars.get(i + hashes) == Some(&'"') {
                i = skip_string(i + hashes + 1, hashes, true, &mut line);
            } else if matches!(word.as_str(), "b" | "c") && chars.get(i) == Some(&'"') {
                i = skip_string(i + 1, 0, false, &mut line);
            } else if word == "b" && chars.get(i) == Some(&'\'') {
                // b'x': the quote is handled as a character next round.
            } else if word.starts_with(|c: char| c.is_ascii_digit()) {
                // a number: not a name
            } else {
                tokens.push((SourceToken::Ident(word), line));
            }
        } else {
            tokens.push((SourceToken::Punct(c), line));
            i += 1;
        }
    }
    tokens
}

/// The types a Rust file defines (struct, enum, union, trait, type alias;
/// in functions too), each with its line. An associated type (`type Item`
/// in an `impl` or a `trait`) is a member, not a definition, and is not
/// counted.
fn type_definitions(source: &str) -> Vec<(String, usize)> {
    let tokens = source_tokens(source);
    let mut found = Vec::new();
    // For each open brace: does it open an impl's or a trait's body?
    let mut blocks: Vec<bool> = Vec::new();
    // The first item keyword since the last `;`, `{` or `}`.
    let mut item: Option<&str> = None;
    for (at, (token, line)) in tokens.iter().enumerate() {
        let ident = |k: usize| match tokens.get(k) {
            Some((SourceToken::Ident(name), _)) => Some(name.as_str()),
            _ => None,
        };
        match token {
            SourceToken::Punct('{') => {
                blocks.push(matches!(item, Some("impl" | "trait")));
                item = None;
            }
            SourceToken::Punct('}') => {
                blocks.pop();
                item = None;
            }
            SourceToken::Punct(';') => item = None,
            SourceToken::Punct(_) => {}
            SourceToken::Ident(word) => {
                let keyword = word.as_str();
                let Some(name) = ident(at + 1) else { continue };
                let follows = tokens.get(at + 2).map(|t| &t.0);
                let defines = match keyword {
                    "struct" | "enum" | "trait" => true,
                    // `type` in an impl's or a trait's body is an associated type.
                    "type" => !blocks.last().copied().unwrap_or(false),
                    // `union` is a keyword only before a name and its body.
                    "union" => matches!(follows, Some(SourceToken::Punct('{' | '<'))),
                    _ => false,
                };
                // `enum`/`struct` after `::` or `.` are paths, not items (none
                // are Rust keywords there, but macros may spell them).
                let after_path =
                    at > 0 && matches!(tokens[at - 1].0, SourceToken::Punct(':' | '.'));
                if defines && !after_path && name != "for" && name != "where" {
                    found.push((name.to_string(), *line));
                }
                if item.is_none()
                    && matches!(
                        keyword,
                        "fn" | "impl"
                            | "trait"
                            | "mod"
                            | "struct"
                            | "enum"
                            | "union"
                            | "macro_rules"
                    )
                {
                    item = Some(match keyword {
                        "impl" => "impl",
                        "trait" => "trait",
                        _ => "other",
                    });
                }
            }
        }
    }
    found
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ------------------------------------- the comparisons fail when they should

fn deps(name: &str, normal: &[&str], dev: &[&str]) -> CrateDependencies {
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect();
    CrateDependencies {
        name: name.to_string(),
        normal: set(normal),
        dev: set(dev),
    }
}

const DOCTORED_ARCHITECTURE: &str = "\
# A doctored map

| crate | uses (normal: ships) | dev-dependencies (tests only) |
|---|---|---|
| connectz | nom, memchr | insta |
| connectz-gone | connectz | |
| connectz-testkit | connectz (with `test-hooks`), arbitrary | (nothing) |

After the table.
";

#[test]
fn crate_table_reads_names_without_remarks() {
    let rows = crate_table(DOCTORED_ARCHITECTURE).unwrap();
    assert_eq!(
        rows,
        [
            deps("connectz", &["memchr", "nom"], &["insta"]),
            deps("connectz-gone", &["connectz"], &[]),
            deps("connectz-testkit", &["arbitrary", "connectz"], &[]),
        ]
    );
}

#[test]
fn a_crate_added_without_docs_fails_with_the_row_to_write() {
    let documented = crate_table(DOCTORED_ARCHITECTURE).unwrap();
    let code = [
        deps(
            "connectz",
            &["memchr", "nom"],
            &["insta", "connectz-testkit"],
        ),
        deps("connectz-testkit", &["arbitrary", "connectz"], &[]),
        deps("connectz-new", &["connectz", "serde"], &["insta"]),
    ];
    let problems = crate_table_problems(&documented, &code);
    let all = problems.join("\n");
    assert_eq!(problems.len(), 3, "{all}");
    assert!(all.contains("crate `connectz-new` has no row"), "{all}");
    assert!(
        all.contains("| connectz-new | connectz, serde | insta |"),
        "{all}"
    );
    assert!(
        all.contains(
            "row `connectz`, column \"dev-dependencies (tests only)\": add [\"connectz-testkit\"]"
        ),
        "{all}"
    );
    assert!(
        all.contains("a row for `connectz-gone`, which is no crate"),
        "{all}"
    );
    // The same rows as the code: nothing to say.
    assert!(crate_table_problems(&code, &code).is_empty());
}

#[test]
fn a_fuzz_target_added_without_docs_fails_with_the_row_to_write() {
    let manifest = "[package]\nname = \"connectz-fuzz\"\n\n[dependencies]\nlibfuzzer-sys = \"0.4\"\n\n\
                    [dependencies.connectz-testkit]\npath = \"../crates/testkit\"\n\n\
                    [[bin]]\nname = \"parse\"\npath = \"fuzz_targets/parse.rs\"\n\n\
                    [[bin]]\nname = \"fresh\"\npath = \"fuzz_targets/fresh.rs\"\n";
    let (crate_deps, targets) = fuzz_manifest(manifest);
    assert_eq!(
        crate_deps,
        deps("connectz-fuzz", &["connectz-testkit", "libfuzzer-sys"], &[])
    );
    assert_eq!(targets, ["parse", "fresh"]);
    let doc =
        "Targets:\n\n| target | checks |\n|---|---|\n| `parse` | bytes |\n| `gone` | - |\n\nEnd.\n";
    let listed = fuzz_targets_listed(doc);
    assert_eq!(listed, ["parse", "gone"]);
    let problems = fuzz_target_problems("docs/internals.md", &listed, &targets).join("\n");
    assert!(
        problems.contains(
            "fuzz target `fresh` (a `[[bin]]` of fuzz/Cargo.toml) is not in docs/internals.md"
        ),
        "{problems}"
    );
    assert!(
        problems.contains("lists fuzz target `gone`, which fuzz/Cargo.toml does not define"),
        "{problems}"
    );
    assert!(fuzz_target_problems("d", &[], &targets)[0].contains("lists no fuzz targets"));
}

#[test]
fn api_crates_are_read_from_their_sentence() {
    let doc = "Intro.\n\n**API crates** (publishable, semver'd): `connectz`,\n`connectz-games`. \
               Every other crate says `publish = false`.\n";
    let api = api_crates_named(doc).unwrap();
    assert_eq!(api, ["connectz", "connectz-games"].map(String::from).into());
    assert!(api_crates_named("No such sentence.").is_err());
    assert!(api_crates_named("**API crates**: none.").is_err());
}

#[test]
fn a_crate_published_against_the_docs_fails_with_what_to_write() {
    let krate = |name: &str, publishable: bool, paths: &[(&str, &str)]| Publishing {
        name: name.to_string(),
        publishable,
        shipped_paths: paths
            .iter()
            .map(|(d, r)| (d.to_string(), r.to_string()))
            .collect(),
    };
    let api: BTreeSet<String> = ["connectz", "connectz-games", "connectz-gone"]
        .map(String::from)
        .into();
    let code = [
        krate("connectz", true, &[]),
        krate(
            "connectz-games",
            true,
            &[("connectz", "*"), ("connectz-rng", "^0.1.0")],
        ),
        krate("connectz-new", true, &[]),
        krate("connectz-rng", false, &[]),
    ];
    let problems = publishing_problems(&api, &code);
    let all = problems.join("\n");
    assert_eq!(problems.len(), 4, "{all}");
    assert!(
        all.contains("crate `connectz-new` has no `publish = false`"),
        "{all}"
    );
    assert!(
        all.contains("calls `connectz-gone` an API crate, which is no crate"),
        "{all}"
    );
    assert!(
        all.contains("`connectz-games` depends on `connectz` by path with no version"),
        "{all}"
    );
    assert!(
        all.contains("ships a dependency on `connectz-rng`, which is not published"),
        "{all}"
    );
    // Versions on every path, the API crates the publishable ones: nothing to say.
    let fixed = [
        krate("connectz", true, &[]),
        krate("connectz-games", true, &[("connectz", "^0.1.0")]),
        krate("connectz-rng", false, &[("connectz", "*")]),
    ];
    let api: BTreeSet<String> = ["connectz", "connectz-games"].map(String::from).into();
    assert!(publishing_problems(&api, &fixed).is_empty());
}

#[test]
fn names_of_crates_that_do_not_exist_are_found() {
    let crates: BTreeSet<String> = ["connectz", "connectz-games"].map(String::from).into();
    let text = "connectz-games and connectz-old; `connectz-gone` too; crates/connectz-x/ is a path";
    let unknown = unknown_crates_named(text, &crates);
    assert_eq!(
        unknown,
        ["connectz-gone", "connectz-old"].map(String::from).into()
    );
}

#[test]
fn type_definitions_are_found_and_members_are_not() {
    let source = r##"
// struct InAComment;
/* enum InABlock { /* nested */ } */
pub struct Shown<'a> { text: &'a str }
const S: &str = "struct InAString;";
const R: &str = r#"enum InARawString "quoted" "#;
const C: char = '{';
pub(crate) enum SampleChoice { A }
type Alias = u8;
trait Named { type Member; fn name(&self) -> char { '}' } }
impl Iterator for Shown<'_> {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        struct Local;
        type LocalAlias = u16;
        None
    }
}
fn f(x: impl Fn() -> u8) -> u8 { type InFn = u8; x() }
union Bits { a: u32 }
let union = 3;
macro_rules! m { ($n:ident) => { struct $n; } }
"##;
    let names: Vec<String> = type_definitions(source)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        names,
        [
            "Shown",
            "SampleChoice",
            "Alias",
            "Named",
            "Local",
            "LocalAlias",
            "InFn",
            "Bits"
        ]
    );
    let lines: Vec<usize> = type_definitions(source)
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    assert_eq!(lines, [4, 8, 9, 10, 14, 15, 19, 20]);
}

#[test]
fn a_feature_gate_off_the_hooks_module_is_found() {
    let lib = "mod fast;\n#[cfg(feature = \"test-hooks\")]\npub mod hooks;\npub mod judge;\n";
    let file = |path: &str, source: &str| (path.to_string(), source.to_string());
    assert!(feature_gates_off_the_hooks_module(&[file("src/lib.rs", lib)]).is_empty());
    // A variant that one crate's feature adds for every crate.
    let board = "pub enum Storage {\n    Auto,\n    #[cfg(any(test, feature = \"test-hooks\"))]\n    Sparse,\n}\n#[cfg(all(target_arch = \"x86_64\", target_feature = \"sse\"))]\nfn f() {}\n";
    let problems = feature_gates_off_the_hooks_module(&[
        file("src/lib.rs", lib),
        file("src/fast/board/mod.rs", board),
    ]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("src/fast/board/mod.rs:3:"),
        "{problems:?}"
    );
    // No gate at all, or the gate on something else, is said too.
    let problems = feature_gates_off_the_hooks_module(&[file("src/lib.rs", "pub mod judge;\n")]);
    assert!(problems[0].contains("found 0"), "{problems:?}");
    let elsewhere = "#[cfg(feature = \"test-hooks\")]\npub use read::judge_chunked;\n";
    assert_eq!(
        feature_gates_off_the_hooks_module(&[file("src/lib.rs", elsewhere)]).len(),
        2
    );
}
