//! Grading strangers' code: hostile candidates held by the box
//! (crates/toolbox/tests/fixtures/hostile: each attacks the grader, then answers right only
//! if every attack was held), and the same findings whatever the machine's
//! load. The attacks need bubblewrap; where it cannot make a box these tests
//! say so and pass, unless `CZ_REQUIRE_ISOLATION` is set (`.ci/run` sets it).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::grade::findings;
use crate::support::{
    Scratch, copy_folder, json, marker, processes_with, root, run_cz, run_cz_with,
};

/// Whether bubblewrap makes a box here; when `CZ_REQUIRE_ISOLATION` is
/// set, it must.
pub(crate) fn isolation_here() -> bool {
    let made = Command::new("bwrap")
        .args(["--unshare-user", "--unshare-pid", "--unshare-net"])
        .args(["--ro-bind", "/", "/", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        assert!(
            std::env::var_os("CZ_REQUIRE_ISOLATION").is_none(),
            "CZ_REQUIRE_ISOLATION is set, but bubblewrap cannot make a box here"
        );
        eprintln!("skipped: bubblewrap cannot make a box here (install bubblewrap)");
    }
    made
}

/// Every file below `dir` and its bytes, but Python's caches.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if entry.file_name() != "__pycache__" {
                    stack.push(path);
                }
            } else {
                out.insert(path.clone(), fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// Every attack of crates/toolbox/tests/fixtures/hostile is held: killing the parent and
/// leaving a sleeper, rewriting another candidate, the manifest, the
/// grader's reports and journal, planting files (beside its folder too, after
/// trying to make the folders on the way writable), patching the fork
/// server, reading standard input, holding descriptors, reaching a port of
/// the machine's loopback, a fork bomb. Each candidate answers wrong when an
/// attack got through; every one passes every case, the victim among them,
/// nothing of theirs is left running, no file changed, and the loopback
/// port saw no connection.
#[test]
fn hostile_candidates_are_held_by_the_box() {
    if !isolation_here() {
        return;
    }
    let fixtures = root().join("crates/toolbox/tests/fixtures/hostile");
    held("hostile", 20, &fixtures.join("grade.toml"), &fixtures, 12);
}

/// The same attacks on a class that lies under `/tmp`, each candidate's
/// folder named through `..` (its manifest in a folder of its own): a box
/// makes the folders on the way to it in its own fresh `/tmp`, where the
/// run owns them. The rewrite and ways candidates find them read-only all
/// the same (they could write there before), and bubblewrap takes the paths
/// as written (a folder given as `class/..` crashed every run once). A
/// candidate run by its own venv's Python, whose `.pth` file writes a file
/// when that Python starts, is run in its box only: the grader once asked
/// that Python where it lives, on the machine, as itself (root).
#[test]
fn a_class_under_tmp_is_held_the_same() {
    if !isolation_here() {
        return;
    }
    let scratch = Scratch::in_tmp("hostile-tmp");
    let class = scratch.path("class");
    copy_folder(
        &root().join("crates/toolbox/tests/fixtures/hostile"),
        &class,
    );
    // Made from the system's Python, which every box has (a venv of an
    // install elsewhere, such as a pyenv, runs in a box only when the
    // manifest names that install in `paths`).
    let venv = class.join("attacks/venv");
    let made = Command::new("/usr/bin/python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .unwrap();
    assert!(made.success(), "/usr/bin/python3 -m venv");
    let pwned = scratch.path("pwned");
    let site = fs::read_dir(venv.join("lib"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("site-packages"))
        .find(|p| p.is_dir())
        .expect("the venv's site-packages");
    fs::write(site.join("cz_pwn.pth"), "import cz_pwn\n").unwrap();
    fs::write(
        site.join("cz_pwn.py"),
        format!(
            "try:\n    open({:?}, 'a').write('ran\\n')\nexcept OSError:\n    pass\n",
            pwned.to_str().unwrap()
        ),
    )
    .unwrap();
    fs::create_dir(class.join("manifest")).unwrap();
    let mut manifest = String::new();
    for (name, command, dir) in [
        ("victim", "\"python3\", \"connectz.py\"", "../victim"),
        ("rewrite", "\"python3\", \"rewrite.py\"", "../attacks"),
        ("ways", "\"python3\", \"ways.py\"", "../attacks"),
        ("whole", "\"python3\", \"attacks/ways.py\"", ".."),
        ("venv", "\"venv/bin/python3\", \"ways.py\"", "../attacks"),
    ] {
        manifest += &format!(
            "[[candidate]]\nname = \"{name}\"\ncommand = [{command}]\ndir = \"{dir}\"\n\
             env = [\"CONNECTZ\", \"HOSTILE_REPORTS\"]\npaths = [\"$CONNECTZ\"]\n\n"
        );
    }
    let manifest_path = class.join("manifest/grade.toml");
    fs::write(&manifest_path, manifest).unwrap();
    held(
        "hostile-tmp-reports",
        22,
        &manifest_path,
        &scratch.path(""),
        5,
    );
    assert!(!pwned.exists(), "the venv's code ran outside a box");
}

/// Grades the hostile class of `manifest` (`count` candidates) in boxes,
/// its reports in the scratch folder `name`, its runs marked with
/// [`marker`]`(mark)`, and checks that every attack was held: every candidate passes every
/// case, no file below `watched` changed, the reports hold only what the
/// grader wrote, the loopback's port saw nothing, and nothing is left
/// running.
fn held(name: &str, mark: u32, manifest: &Path, watched: &Path, count: usize) {
    let scratch = Scratch::new(name);
    let reports = scratch.path("reports");
    fs::create_dir(&reports).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let before = files(watched);
    let m = marker(mark);
    let report = reports.join("r.json");
    let out = run_cz_with(
        &[
            "grade",
            manifest.to_str().unwrap(),
            "--cases",
            "9",
            "--isolation",
            "require",
            "--json",
            report.to_str().unwrap(),
            "--junit",
            reports.join("r.xml").to_str().unwrap(),
            "--html",
            reports.join("r.html").to_str().unwrap(),
        ],
        b"",
        &[
            ("HOSTILE_MARK", &m),
            ("HOSTILE_PORT", &port),
            ("HOSTILE_REPORTS", reports.to_str().unwrap()),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("isolation: isolated with bubblewrap"),
        "{text}"
    );
    let doc = json(&report);
    assert_eq!(doc["isolation"]["isolated"], true);
    let candidates = doc["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), count);
    for c in candidates {
        for field in ["defined_failures", "crashes", "timeouts", "memory_breaches"] {
            assert_eq!(c[field], 0, "{}: {field}\n{text}", c["name"]);
        }
        // These two answer wrong only through a fork server they took
        // over, which the fresh check then caught: run fresh, all right.
        // Held, they stay on the server.
        if ["shadow", "pid-one"].contains(&c["name"].as_str().unwrap_or("")) {
            assert!(c["fresh_reason"].is_null(), "{}: {text}", c["name"]);
        }
    }
    assert!(
        listener.accept().is_err(),
        "a run reached the loopback's port"
    );
    assert_eq!(
        files(watched),
        before,
        "a run changed {}",
        watched.display()
    );
    let mut left: Vec<String> = fs::read_dir(&reports)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "r.html",
            "r.json",
            "r.json.journal.jsonl",
            "r.json.journal.key",
            "r.xml"
        ]
    );
    // What the attacks write, where they could.
    for name in &left {
        let text = String::from_utf8_lossy(&fs::read(reports.join(name)).unwrap()).into_owned();
        assert!(
            !text.contains("written by a hostile candidate"),
            "a run wrote into {name}"
        );
    }
    assert_eq!(processes_with(&m), Vec::<String>::new());
}

/// A run that kills its parent and leaves a sleeper, as `cz check` runs
/// it: without a box the sleeper got out (the supervisor was its parent);
/// in one, nothing is left.
#[test]
fn a_run_that_kills_its_parent_leaves_nothing() {
    if !isolation_here() {
        return;
    }
    let m = marker(21);
    let out = run_cz_with(
        &[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "0",
            "--isolation",
            "require",
            "--",
            "sh",
            "-c",
            &format!("kill -9 $PPID; setsid sleep {m} & exec \"$CONNECTZ\" \"$0\""),
        ],
        b"",
        &[],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("crashes 0; timeouts 0"), "{text}");
    assert_eq!(processes_with(&m), Vec::<String>::new());
}

/// The fixture class graded twice, once alone and once while two threads
/// keep both cores busy, has the same findings: a run's time is its CPU
/// time and its own time, not the wall-clock time that load stretches.
#[test]
fn a_class_graded_under_load_has_the_same_findings() {
    let scratch = Scratch::new("load");
    let grade = |name: &str| {
        let path = scratch.path(name);
        let out = run_cz(
            &[
                "grade",
                "crates/toolbox/tests/fixtures/class/grade.toml",
                "--cases",
                "40",
                "--json",
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(1));
        findings(&json(&path))
    };
    let alone = grade("alone.json");
    let stop = Arc::new(AtomicBool::new(false));
    let busy: Vec<_> = (0..2)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let loaded = grade("loaded.json");
    stop.store(true, Ordering::Relaxed);
    for b in busy {
        b.join().unwrap();
    }
    assert_eq!(alone, loaded);
}

/// A candidate that scans the whole board after every move, right on every
/// small file, fails the defaults: it times out on the sized long game,
/// blamed on r[resource.time].
#[test]
fn a_quadratic_candidate_fails_the_defaults() {
    let out = run_cz(
        &[
            "check",
            "--env",
            "CONNECTZ",
            "--path",
            "$CONNECTZ",
            "--cases",
            "0",
            "--",
            "python3",
            "crates/toolbox/tests/fixtures/class/full_scan.py",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("TIMEOUT sized: a long game")
                && l.contains("[resource.time, defined]")),
        "{text}"
    );
}
