//! What a box may take of what the whole machine shares, and the reference
//! installed where graders install it: the hostile candidates of
//! crates/toolbox/tests/fixtures/hostile/holes.toml graded with the default limits, as root
//! and as an ordinary user (`nobody`), with a copy of the reference
//! installed as `pip install connectz` installs it into the interpreter
//! the candidates are given (a venv first on the grader's `PATH`): its
//! packages, its record and its commands. Each attack answers right only
//! when held; the cheat, which asks that reference, only when it is not
//! hidden; the installed reference itself, named as a candidate's
//! command, still sees its package and passes. While the class is graded, the machine's file table is sampled:
//! it must never come near full. And a candidate's folder that the box's
//! own user cannot read is refused before any case runs. Like hostile.rs,
//! these need bubblewrap, and root.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::Value;

use crate::hostile::isolation_here;
use crate::support::{Scratch, connectz_binary, copy_folder, root, run_cz_as};

/// The user `cz` runs as in the ordinary user's grade.
const NOBODY: &str = "65534";

/// Every candidate that attacks and must be held: each passes every case.
const HELD: [&str; 7] = [
    "victim",
    "installed-reference",
    "file-table",
    "inodes",
    "address-families",
    "proc-one",
    "sticky-tmp",
];

#[test]
fn the_machine_and_the_reference_are_held_as_root() {
    if let Some(g) = grade(None) {
        g.holds();
    }
}

#[test]
fn the_machine_and_the_reference_are_held_as_an_ordinary_user() {
    if let Some(g) = grade(Some(NOBODY)) {
        g.holds();
    }
}

/// One grade of holes.toml, and what was sampled during it.
struct Grade {
    status: Option<i32>,
    text: String,
    doc: Value,
    /// The most entries of the machine's file table in use during the
    /// grade, and its size.
    files: (u64, u64),
    /// Where the installed reference's packages are.
    site: String,
}

/// Grades holes.toml as root, or as `uid`; `None` where that cannot be
/// done here (no box, or not root), said.
fn grade(uid: Option<&str>) -> Option<Grade> {
    use std::os::unix::fs::MetadataExt;
    if !fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        eprintln!("skipped: the grade as an ordinary user, and its fixtures, need root");
        return None;
    }
    if !isolation_here() {
        return None;
    }
    let scratch = Scratch::in_target(if uid.is_some() { "holes-user" } else { "holes" });
    let class = scratch.path("class");
    copy_folder(
        &root().join("crates/toolbox/tests/fixtures/hostile"),
        &class,
    );
    // The interpreter the candidates are given: a venv of the grader's
    // Python (the system's for an ordinary user, who cannot reach root's
    // pyenv), with the reference installed in it.
    let python = match uid {
        Some(_) => "/usr/bin/python3",
        None => "python3",
    };
    let venv = scratch.path("venv");
    let made = std::process::Command::new(python)
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "cannot make a venv with {python}");
    let site = install_reference(&venv);
    open_to_all(scratch.path("").as_path());
    let reports = scratch.path("reports");
    fs::create_dir(&reports).unwrap();
    if let Some(u) = uid {
        // The ordinary user writes the reports.
        let id = u.parse().unwrap();
        std::os::unix::fs::chown(&reports, Some(id), Some(id)).unwrap();
    }
    let json = reports.join("r.json");
    let path = format!("{}:/usr/bin:/bin", venv.join("bin").display());
    let sampler = FileTable::start();
    let wrapper: Vec<&str> = match uid {
        Some(u) => vec![
            "setpriv",
            "--reuid",
            u,
            "--regid",
            u,
            "--clear-groups",
            "--",
        ],
        None => Vec::new(),
    };
    let manifest = class.join("holes.toml");
    let args = [
        "grade",
        manifest.to_str().unwrap(),
        "--cases",
        "9",
        "--timeout",
        "10",
        "--memory",
        "512",
        "--jobs",
        "2",
        "--shrink",
        "0",
        "--isolation",
        "require",
        "--json",
        json.to_str().unwrap(),
    ];
    let home = scratch.str("class");
    let connectz = connectz_binary();
    let env = [
        ("PATH", path.as_str()),
        ("HOME", home.as_str()),
        ("CONNECTZ", connectz.to_str().unwrap()),
    ];
    let out = run_cz_as(&wrapper, &args, b"", &env);
    let files = sampler.stop();
    let doc = fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    Some(Grade {
        status: out.status.code(),
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        doc,
        files,
        site: site.display().to_string(),
    })
}

/// Installs a copy of the reference into `venv` as its wheel does: the
/// packages `connectz_reference` (its judge: the reference program, in the
/// package) and `connectz`, their record, and the commands `connectz` and
/// `cz`. Returns the folder of packages.
fn install_reference(venv: &Path) -> std::path::PathBuf {
    let lib = fs::read_dir(venv.join("lib"))
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let site = lib.join("site-packages");
    let package = site.join("connectz_reference");
    fs::create_dir_all(&package).unwrap();
    fs::copy(connectz_binary(), package.join("judge")).unwrap();
    fs::write(
        package.join("__init__.py"),
        "import os, subprocess\n\
         class Verdict:\n    def __init__(self, code):\n        self.code = code\n\
         def judge(path):\n    \
         run = subprocess.run([os.path.join(os.path.dirname(__file__), 'judge'), path],\n        \
         capture_output=True, text=True)\n    return Verdict(int(run.stdout))\n",
    )
    .unwrap();
    fs::create_dir_all(site.join("connectz")).unwrap();
    fs::write(
        site.join("connectz/__init__.py"),
        "from connectz_reference import judge\n",
    )
    .unwrap();
    fs::create_dir_all(site.join("connectz-0.1.0.dist-info")).unwrap();
    fs::write(
        site.join("connectz-0.1.0.dist-info/METADATA"),
        "Name: connectz\n",
    )
    .unwrap();
    // The commands, as pip writes entry points: scripts of the
    // interpreter that import the package.
    let python = venv.join("bin/python3");
    let commands = [
        (
            "connectz",
            "import os, sys, connectz_reference\n\
             judge = os.path.join(os.path.dirname(connectz_reference.__file__), 'judge')\n\
             os.execv(judge, ['connectz'] + sys.argv[1:])\n",
        ),
        (
            "cz",
            "from connectz_reference import _cz_command\n_cz_command()\n",
        ),
    ];
    for (name, body) in commands {
        let path = venv.join("bin").join(name);
        fs::write(&path, format!("#!{}\n{body}", python.display())).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    site
}

/// Lets anyone read everything below `dir` (and pass through it), for
/// the ordinary user's grade.
fn open_to_all(dir: &Path) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let meta = fs::symlink_metadata(&path).unwrap();
        if meta.is_symlink() {
            continue;
        }
        let mode = meta.permissions().mode();
        let open = if meta.is_dir() {
            mode | 0o755
        } else {
            mode | 0o444
        };
        fs::set_permissions(&path, fs::Permissions::from_mode(open)).unwrap();
        if meta.is_dir() {
            open_to_all(&path);
        }
    }
    let mode = fs::metadata(dir).unwrap().permissions().mode();
    fs::set_permissions(dir, fs::Permissions::from_mode(mode | 0o755)).unwrap();
}

/// The machine's file table, sampled while the grade runs.
struct FileTable {
    peak: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

/// Entries of the file table in use, and its size.
fn file_nr() -> (u64, u64) {
    let text = fs::read_to_string("/proc/sys/fs/file-nr").unwrap_or_default();
    let fields: Vec<u64> = text
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    (
        fields.first().copied().unwrap_or(0),
        fields.get(2).copied().unwrap_or(u64::MAX),
    )
}

impl FileTable {
    fn start() -> FileTable {
        let peak = Arc::new(AtomicU64::new(file_nr().0));
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    peak.fetch_max(file_nr().0, Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            })
        };
        FileTable { peak, done, thread }
    }

    /// Stops sampling: the most entries in use, and the table's size.
    fn stop(self) -> (u64, u64) {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        (self.peak.load(Ordering::Relaxed), file_nr().1)
    }
}

impl Grade {
    fn candidate(&self, name: &str) -> &Value {
        self.doc["candidates"]
            .as_array()
            .and_then(|all| all.iter().find(|c| c["name"] == name))
            .unwrap_or_else(|| panic!("no candidate {name} in the report: {}", self.text))
    }

    fn counts(&self, name: &str) -> (u64, u64) {
        let c = self.candidate(name);
        (
            c["passed"].as_u64().unwrap_or(0),
            c["total"].as_u64().unwrap_or(0),
        )
    }

    /// Every attack held, the cheat answering nothing right, the file
    /// table never near full, and the reference named as hidden.
    fn holds(&self) {
        assert_eq!(self.status, Some(1), "{}", self.text);
        assert_eq!(self.doc["isolation"]["isolated"], true, "{}", self.text);
        let mut failed = Vec::new();
        for name in HELD {
            let (passed, cases) = self.counts(name);
            if cases == 0 || passed != cases {
                failed.push(format!("{name}: passed {passed} of {cases}"));
            }
        }
        let (passed, cases) = self.counts("use-reference");
        if cases == 0 || passed * 10 > cases {
            failed.push(format!(
                "use-reference (a cheat): passed {passed} of {cases}"
            ));
        }
        // Its fork server served every case: none was run again fresh
        // because a case found what an earlier one left.
        let fresh = &self.candidate("sticky-tmp")["fresh_reason"];
        if !fresh.is_null() {
            failed.push(format!("sticky-tmp was run again fresh: {fresh}"));
        }
        assert!(failed.is_empty(), "{}\n{}", failed.join("\n"), self.text);
        let (peak, size) = self.files;
        assert!(
            peak < size / 10 * 6,
            "the file table reached {peak} of {size} during the grade"
        );
        let said = self.doc["isolation"]["description"].as_str().unwrap_or("");
        assert!(
            said.contains("the reference hidden from it:")
                && said.contains(&format!("{}/connectz_reference", self.site)),
            "{said}"
        );
    }
}

/// A candidate's folder of mode 0700, as `mktemp -d` or an unzip under
/// `umask 077` leaves it, is refused before any case runs, by its name,
/// its mode and the fix, when the box runs as a user of its own (the
/// grader is root).
#[test]
fn a_folder_the_box_cannot_read_is_refused_up_front() {
    use std::os::unix::fs::MetadataExt;
    if !fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) || !isolation_here() {
        eprintln!("skipped: a box of a user of its own needs root and bubblewrap");
        return;
    }
    let scratch = Scratch::in_target("closed");
    let alice = scratch.path("alice");
    fs::create_dir(&alice).unwrap();
    fs::copy(
        root().join("crates/toolbox/tests/fixtures/hostile/victim/connectz.py"),
        alice.join("connectz.py"),
    )
    .unwrap();
    fs::set_permissions(&alice, fs::Permissions::from_mode(0o700)).unwrap();
    let report = scratch.path("r.json");
    let out = run_cz_as(
        &[],
        &[
            "grade",
            "--each",
            "python3 {}/connectz.py",
            alice.to_str().unwrap(),
            "--cases",
            "1",
            "--isolation",
            "require",
            "--json",
            report.to_str().unwrap(),
        ],
        b"",
        &[],
    );
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains(&format!("{} (mode 0700)", alice.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("chmod -R a+rX {}", alice.display())),
        "{text}"
    );
    assert!(!report.exists(), "a report was written: no case may run");
}
