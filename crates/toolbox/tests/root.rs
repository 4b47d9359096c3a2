//! Grading as root, as CI does: the hostile candidates of
//! crates/toolbox/tests/fixtures/hostile/root.toml, each an attack that got through a box
//! of bubblewrap alone when the grader ran as root (a run was root in its
//! user namespace with almost every capability, saw the whole filesystem
//! and had the grader's whole environment).
//!
//! The class is graded once, from a copy of crates/toolbox/tests/fixtures/hostile in
//! cargo's temporary folder (where a class stands, in sight of a box that
//! shows the whole filesystem), with a secret in the grader's home (a
//! scratch folder there too), another in its environment, unix sockets
//! listening beside the manifest, in that home and in an attacker's own
//! folder, and the machine's
//! shared memory sampled throughout; one check per attack then reads the
//! reports (all in one test, `the_root_class_is_held`, so the class is
//! graded once however the tests are run). The key attacks are graded
//! again with `cz` started as an
//! ordinary user (`nobody`). Two kinds of candidate: an attack that
//! answers right (through `$CONNECTZ`, which its table gives it) only when
//! it was held, so it must pass every case; and a cheat, with no judge of
//! its own and no `$CONNECTZ`, that answers right only when its cheat
//! works and 9 (never right) otherwise, so it must pass none. Like the
//! tests of hostile.rs, these need bubblewrap and say so and pass where
//! it cannot make a box, unless `CZ_REQUIRE_ISOLATION` is set.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::Value;

use crate::hostile::isolation_here;
use crate::support::{Scratch, copy_folder, marker, root, run_cz_as};

/// The limits the class is graded under: the candidates are written for
/// them (a time limit of 2 s, 16 processes, 256 MB).
const TIMEOUT_S: &str = "2";
const MEMORY_MB: u64 = 256;
const PROCESSES: &str = "16";
/// Runs at once: a box may hold up to its memory limit, so the machine's
/// shared memory may grow by this many times the limit.
const JOBS: u64 = 2;

/// The user `cz` runs as in the ordinary user's grade.
const NOBODY: &str = "65534";

/// One grade of a copy of crates/toolbox/tests/fixtures/hostile, and what it left.
struct Grade {
    /// `cz`'s exit status.
    status: Option<i32>,
    /// Its standard output and error.
    text: String,
    /// The JSON report (`Null` when there is none).
    doc: Value,
    /// Every file of the reports folder (the journal too): name and text.
    reports: Vec<(String, String)>,
    /// The journal's entries.
    journal: Vec<Value>,
    /// The victim's file before the grade, and after (`None`: gone).
    victim: (Vec<u8>, Option<Vec<u8>>),
    /// Each listening socket and the connections it had.
    connections: Vec<(String, usize)>,
    /// How much the machine's shared memory (`Shmem:`) grew at most
    /// during the grade, in bytes.
    shmem_growth: u64,
    /// What must not show in any report: the secret of the grader's home,
    /// of its environment, the first line of /etc/shadow.
    secrets: Vec<String>,
}

/// The class of root.toml graded as root (as the tests run), once, and
/// every check of an attack below run on it: one test, so that a runner
/// that starts a process per test (nextest, as CI runs the tiers) grades
/// the class once too. Each check that fails is named, with its message.
#[test]
fn the_root_class_is_held() {
    if !isolation_here() {
        return;
    }
    let g = grade("root.toml", None);
    let failed: Vec<String> = CHECKS
        .iter()
        .filter_map(|(name, check)| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&g)))
                .err()
                .map(|e| {
                    let why = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    format!("{name}: {why}")
                })
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} checks failed:\n{}",
        failed.len(),
        CHECKS.len(),
        failed.join("\n")
    );
}

/// A check of the root grade, and its name.
type Check = (&'static str, fn(&Grade));

/// The checks of the root grade, each named.
const CHECKS: &[Check] = &[
    (
        "the_root_class_is_graded_in_a_box",
        the_root_class_is_graded_in_a_box,
    ),
    (
        "a_cheat_cannot_find_and_run_the_reference",
        a_cheat_cannot_find_and_run_the_reference,
    ),
    (
        "a_cheat_cannot_run_a_classmate",
        a_cheat_cannot_run_a_classmate,
    ),
    (
        "a_cheat_cannot_read_the_corpus",
        a_cheat_cannot_read_the_corpus,
    ),
    (
        "no_secret_of_the_grader_reaches_a_report",
        no_secret_of_the_grader_reaches_a_report,
    ),
    (
        "a_run_cannot_remount_and_rewrite_a_classmate",
        a_run_cannot_remount_and_rewrite_a_classmate,
    ),
    (
        "a_run_cannot_unmount_its_way_to_the_grader",
        a_run_cannot_unmount_its_way_to_the_grader,
    ),
    (
        "a_run_cannot_trace_or_read_its_parent",
        a_run_cannot_trace_or_read_its_parent,
    ),
    (
        "a_run_cannot_raise_its_limits",
        a_run_cannot_raise_its_limits,
    ),
    (
        "a_run_cannot_fill_the_machine_memory",
        a_run_cannot_fill_the_machine_memory,
    ),
    (
        "an_orphan_burning_cpu_is_held_to_the_time_limit",
        an_orphan_burning_cpu_is_held_to_the_time_limit,
    ),
    (
        "a_run_finds_nothing_left_by_an_earlier_one",
        a_run_finds_nothing_left_by_an_earlier_one,
    ),
    (
        "a_run_cannot_reach_a_unix_socket_of_the_machine",
        a_run_cannot_reach_a_unix_socket_of_the_machine,
    ),
    (
        "a_run_cannot_reserve_the_graders_disk",
        a_run_cannot_reserve_the_graders_disk,
    ),
    (
        "a_chain_left_behind_dies_with_its_case",
        a_chain_left_behind_dies_with_its_case,
    ),
    (
        "random_answers_are_marked_nondeterministic",
        random_answers_are_marked_nondeterministic,
    ),
];

/// The machine's shared memory (`Shmem:` of /proc/meminfo), in bytes.
fn shmem() -> u64 {
    fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Shmem:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Gives `path` to the user `uid` (for the ordinary user's grade).
fn give(path: &Path, uid: Option<u32>) {
    if uid.is_some() {
        std::os::unix::fs::chown(path, uid, uid).unwrap();
    }
}

/// Grades `manifest` of a copy of crates/toolbox/tests/fixtures/hostile, as this
/// process's user, or as the user `uid` (through `setpriv`).
fn grade(manifest: &str, uid: Option<u32>) -> Grade {
    let scratch = Scratch::in_target(if uid.is_some() { "user" } else { "root" });
    let class = scratch.path("class");
    copy_folder(
        &root().join("crates/toolbox/tests/fixtures/hostile"),
        &class,
    );
    let victim_file = class.join("victim/connectz.py");
    let victim_before = fs::read(&victim_file).unwrap();
    // The grader's home, with a secret only its owner may read.
    let home = scratch.path("home");
    let home_secret = plant_home_secret(&home, uid);
    let env_secret = format!("cz-env-secret-{}", marker(41));
    let shadow = fs::read_to_string("/etc/shadow")
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .filter(|l| !l.is_empty());
    let reports = scratch.path("reports");
    fs::create_dir(&reports).unwrap();
    give(&reports, uid);
    let listeners = listen(&class, &home);
    let sampler = Sampler::start();
    let out = run_grade(&class.join(manifest), &reports, &home, &env_secret, uid);
    let shmem_growth = sampler.stop();
    let connections = listeners
        .iter()
        .map(|(where_, listener)| {
            let mut n = 0;
            while listener.accept().is_ok() {
                n += 1;
            }
            (where_.clone(), n)
        })
        .collect();
    let found = read_all(&reports);
    let text_of = |name: &str| {
        found
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    };
    let doc = serde_json::from_str(&text_of("r.json")).unwrap_or(Value::Null);
    let journal = text_of("r.json.journal.jsonl")
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let mut secrets = vec![home_secret, env_secret];
    secrets.extend(shadow);
    Grade {
        status: out.status.code(),
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        doc,
        reports: found,
        journal,
        victim: (victim_before, fs::read(&victim_file).ok()),
        connections,
        shmem_growth,
        secrets,
    }
}

/// Makes the grader's home, given to `uid`, with a file only its owner
/// may read; returns the secret the file holds.
fn plant_home_secret(home: &Path, uid: Option<u32>) -> String {
    fs::create_dir(home).unwrap();
    give(home, uid);
    let home_secret = format!("cz-home-secret-{}", marker(40));
    let secret_file = home.join("secret.txt");
    fs::write(&secret_file, format!("{home_secret}\n")).unwrap();
    fs::set_permissions(&secret_file, fs::Permissions::from_mode(0o600)).unwrap();
    give(&secret_file, uid);
    home_secret
}

/// Sockets of the machine: beside the manifest, in the home, and in the
/// attacking candidate's own folder, which its box is given (a process of
/// its owner there once answered for it), open to anyone (connecting needs
/// write permission on the socket); each with where it is.
fn listen(class: &Path, home: &Path) -> Vec<(String, UnixListener)> {
    [
        ("beside the manifest", class.join("agent.sock")),
        ("in the grader's home", home.join("agent.sock")),
        (
            "in the candidate's folder",
            class.join("attacks/agent.sock"),
        ),
    ]
    .into_iter()
    .map(|(where_, path)| {
        let listener = UnixListener::bind(&path).unwrap();
        listener.set_nonblocking(true).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
        (where_.to_string(), listener)
    })
    .collect()
}

/// The machine's shared memory, sampled while the grade runs.
struct Sampler {
    before: u64,
    peak: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Sampler {
    fn start() -> Sampler {
        let before = shmem();
        let peak = Arc::new(AtomicU64::new(before));
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    peak.fetch_max(shmem(), Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
            })
        };
        Sampler {
            before,
            peak,
            done,
            thread,
        }
    }

    /// Stops sampling; how much the shared memory grew at most, in bytes.
    fn stop(self) -> u64 {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        self.peak
            .load(Ordering::Relaxed)
            .saturating_sub(self.before)
    }
}

/// Runs `cz grade` on `manifest` with the reports in `reports`, `home` its
/// home and `env_secret` in its environment; as the user `uid` through
/// `setpriv`, when given.
fn run_grade(
    manifest: &Path,
    reports: &Path,
    home: &Path,
    env_secret: &str,
    uid: Option<u32>,
) -> std::process::Output {
    let report = |name: &str| reports.join(name).to_str().unwrap().to_string();
    let (memory, jobs) = (MEMORY_MB.to_string(), JOBS.to_string());
    let args = [
        "grade",
        manifest.to_str().unwrap(),
        "--cases",
        "9",
        "--timeout",
        TIMEOUT_S,
        "--memory",
        &memory,
        "--processes",
        PROCESSES,
        "--jobs",
        &jobs,
        "--shrink",
        "0",
        "--isolation",
        "require",
        "--json",
        &report("r.json"),
        "--junit",
        &report("r.xml"),
        "--html",
        &report("r.html"),
    ];
    let home_str = home.to_str().unwrap();
    let mut env = vec![("HOME", home_str), ("CZ_SECRET", env_secret)];
    let uid_str = uid.map(|u| u.to_string());
    let wrapper: Vec<&str> = match &uid_str {
        Some(u) => {
            // The ordinary user cannot reach an interpreter under /root.
            env.push(("PATH", "/usr/bin:/bin"));
            vec![
                "setpriv",
                "--reuid",
                u,
                "--regid",
                u,
                "--clear-groups",
                "--",
            ]
        }
        None => Vec::new(),
    };
    run_cz_as(&wrapper, &args, b"", &env)
}

/// Every file of `dir`: its name and text, by name.
fn read_all(dir: &Path) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| {
                    let text = String::from_utf8_lossy(&fs::read(e.path()).unwrap_or_default())
                        .into_owned();
                    (e.file_name().to_string_lossy().into_owned(), text)
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

impl Grade {
    /// The report's entry of the candidate `name`.
    fn candidate(&self, name: &str) -> &Value {
        self.doc["candidates"]
            .as_array()
            .and_then(|all| all.iter().find(|c| c["name"] == name))
            .unwrap_or_else(|| {
                panic!(
                    "no candidate {name} in the JSON report (cz's exit status {:?}):\n{}",
                    self.status, self.text
                )
            })
    }

    /// What the report says of `name`, in one line.
    fn summary(&self, name: &str) -> String {
        let c = self.candidate(name);
        let field = |f: &str| c[f].to_string();
        format!(
            "{name}: passed {} of {}; defined failures {}, crashes {}, timeouts {}, memory breaches {}, not run {}",
            field("passed"),
            field("total"),
            field("defined_failures"),
            field("crashes"),
            field("timeouts"),
            field("memory_breaches"),
            field("not_run"),
        )
    }

    /// Asserts that `name` passed every case: its attack was held.
    fn passes_everything(&self, name: &str) {
        let c = self.candidate(name);
        for field in [
            "defined_failures",
            "crashes",
            "timeouts",
            "memory_breaches",
            "not_run",
        ] {
            assert_eq!(c[field], 0, "{}", self.summary(name));
        }
        assert_eq!(c["passed"], c["total"], "{}", self.summary(name));
    }

    /// Asserts that `name` passed no case: its cheat did not work.
    fn passes_nothing(&self, name: &str) {
        assert_eq!(self.candidate(name)["passed"], 0, "{}", self.summary(name));
    }

    /// Asserts that `name`'s cases were not all run again in fresh
    /// interpreters: the runs through its fork server ended as fresh runs
    /// do, each starting from nothing and held to every limit. (The
    /// journal's account of the runs says it: a grade run again has about
    /// twice as many as it has cases.)
    fn not_run_again_fresh(&self, name: &str) {
        let entry = self
            .journal
            .iter()
            .map(|line| &line["entry"]["graded"])
            .find(|g| g["entry"]["name"] == name)
            .unwrap_or_else(|| panic!("{name} is not in the journal:\n{}", self.text));
        let spent = &entry["check"]["spent"];
        let count = |f: &str| spent[f].as_u64().unwrap_or(0);
        let runs = count("runs") + count("reused") + count("timeouts");
        let total = self.candidate(name)["total"].as_u64().unwrap();
        assert!(
            runs < total + total / 2,
            "{name}: its cases were run again, each in a fresh interpreter ({runs} runs for {total} cases: its runs through the fork server ended otherwise), and the report does not say so or why: {spent}\n{}",
            self.summary(name)
        );
    }
}

/// The grade is in a box, complete, and graded every candidate; the
/// cheats fail, so the exit status is 1.
fn the_root_class_is_graded_in_a_box(g: &Grade) {
    assert_eq!(g.status, Some(1), "{}", g.text);
    assert_eq!(g.doc["isolation"]["isolated"], true, "{}", g.text);
    assert_eq!(g.doc["complete"], true, "{}", g.text);
    assert_eq!(
        g.doc["candidates"].as_array().map(Vec::len),
        Some(17),
        "{}",
        g.text
    );
}

/// A cheat that looks for the reference (in `$CONNECTZ`, the path, the
/// cargo target folder, the usual build folders) and runs it finds none:
/// the environment is cleared and the box shows only what it needs.
fn a_cheat_cannot_find_and_run_the_reference(g: &Grade) {
    g.passes_nothing("find-reference");
}

/// A cheat that runs its classmate's `connectz.py` with its interpreter
/// does not see it: a run sees its own folder alone.
fn a_cheat_cannot_run_a_classmate(g: &Grade) {
    g.passes_nothing("classmate");
}

/// A cheat that looks its game file up in the shipped corpus
/// (`tests/cases/<code>-*`, anywhere in sight) finds no corpus.
fn a_cheat_cannot_read_the_corpus(g: &Grade) {
    g.passes_nothing("corpus");
}

/// A run that prints a file of the grader's home, /etc/shadow and a
/// variable of the grader's environment finds none of them: it passes
/// every case, and no report (text, JSON, HTML, JUnit, the journal)
/// carries any of them.
fn no_secret_of_the_grader_reaches_a_report(g: &Grade) {
    for secret in &g.secrets {
        assert!(
            !g.text.contains(secret.as_str()),
            "cz's output holds {secret}"
        );
        for (name, text) in &g.reports {
            assert!(!text.contains(secret.as_str()), "{name} holds {secret}");
        }
    }
    g.passes_everything("secrets");
}

/// A run that remounts every mount read-write and rewrites its classmate
/// can do neither: the victim's file is as it was and the victim passes
/// every case.
fn a_run_cannot_remount_and_rewrite_a_classmate(g: &Grade) {
    assert!(
        g.victim.1.as_ref() == Some(&g.victim.0),
        "the victim's file was changed or removed: {:?}",
        g.victim
            .1
            .as_ref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    );
    g.passes_everything("victim");
    g.passes_everything("remount");
}

/// A run that unmounts /tmp and /proc finds neither the grader's scratch
/// folder nor its case files, and sees only its box's processes.
fn a_run_cannot_unmount_its_way_to_the_grader(g: &Grade) {
    g.passes_everything("unmount");
}

/// A run can neither trace its parent (the fork server) nor the box's
/// first process, nor read its parent's memory.
fn a_run_cannot_trace_or_read_its_parent(g: &Grade) {
    g.passes_everything("ptrace");
}

/// A run cannot raise its box's limits in the control groups, nor hold
/// more processes than `--processes` gives it.
fn a_run_cannot_raise_its_limits(g: &Grade) {
    g.passes_everything("cgroup");
}

/// A run that fills /dev/shm, /tmp and /var/tmp and memory files, with
/// children holding memory, is held to its box's memory: each such case
/// either found a write refused before it held more than the box's limit
/// (and answered right: the candidate counts what it held at once, its
/// files and memory together, the machine's shared memory it took) or is a
/// memory breach (the box's group ended a process of it; on any case the
/// box ran while full); never a crash, a timeout or a wrong answer. The
/// machine's `Shmem:` is sampled too, and said, but not held to a bound:
/// other tests of this binary run boxes at the same time.
fn a_run_cannot_fill_the_machine_memory(g: &Grade) {
    eprintln!(
        "the machine's shared memory grew by {} MiB at most during the grade",
        g.shmem_growth >> 20
    );
    let c = g.candidate("fill");
    for field in ["crashes", "timeouts", "not_run"] {
        assert_eq!(c[field], 0, "{}", g.summary("fill"));
    }
    for group in c["groups"].as_array().unwrap() {
        assert_eq!(group["kind"], "memory", "{}: {group}", g.summary("fill"));
    }
}

/// A run whose children burn CPU and are never waited for is held to the
/// time limit with them, through the fork server and fresh: it answers
/// right only when their time escaped the limit, so it passes no case;
/// and the fork server's runs end as fresh ones do (it is not run again
/// fresh).
fn an_orphan_burning_cpu_is_held_to_the_time_limit(g: &Grade) {
    g.passes_nothing("orphan-cpu");
    g.passes_nothing("orphan-cpu-sh");
    g.not_run_again_fresh("orphan-cpu");
}

/// A run that leaves markers (files in /tmp, /var/tmp, /dev/shm and /dev,
/// System V shared memory, a POSIX message queue) finds none left by an
/// earlier one: it passes every case through its fork server, not only
/// once run again fresh.
fn a_run_finds_nothing_left_by_an_earlier_one(g: &Grade) {
    g.passes_everything("state");
    g.not_run_again_fresh("state");
}

/// A run that looks for unix sockets (in its own folder and its parents,
/// the grader's home, /root, /home, /tmp) reaches none: the sockets
/// listening beside the manifest, in the grader's home and in its own
/// folder (which its box is given) had no connection.
fn a_run_cannot_reach_a_unix_socket_of_the_machine(g: &Grade) {
    for (where_, n) in &g.connections {
        assert_eq!(*n, 0, "the socket {where_} had {n} connections");
    }
    g.passes_everything("sockets");
}

/// A run cannot reserve disk for its output past the file-size limit
/// (`fallocate` with FALLOC_FL_KEEP_SIZE took 2 GB once): the call is
/// refused.
fn a_run_cannot_reserve_the_graders_disk(g: &Grade) {
    g.passes_everything("fallocate");
}

/// A chain of processes a run leaves behind, each in a group of its own and
/// growing back as fast as it is killed from the top, is dead before the
/// next case starts: every run finds no process of its box but its own
/// ancestors, and the fork server serves every case. (Killed by group and
/// by parent, pass after pass, the chain outlived the passes: a later run
/// found it, or the chain took the processes the server's next fork
/// needed and the cases after ran fresh. With that clean-up put back, this
/// check failed in 14 grades of 14, the chain left on every case; on a
/// tenth of them, in 7 of 9: whether a chain outlives a pass is a race.)
fn a_chain_left_behind_dies_with_its_case(g: &Grade) {
    g.passes_everything("chain");
    let c = g.candidate("chain");
    assert!(
        c["fresh_reason"].is_null(),
        "{}: {}",
        c["fresh_reason"],
        g.summary("chain")
    );
}

/// A candidate that answers a random code in every run is marked
/// nondeterministic in the JSON report.
fn random_answers_are_marked_nondeterministic(g: &Grade) {
    assert_eq!(
        g.candidate("random")["nondeterministic"],
        true,
        "{}",
        g.summary("random")
    );
}

/// The key attacks again, with `cz` started as an ordinary user
/// (`nobody`, from a copy of the class it can read): the cheats find
/// nothing, no secret reaches a report, no socket is reached, runs leave
/// nothing for the next, the victim is unchanged. Only root can start
/// `cz` as another user: otherwise this test says so and passes.
#[test]
fn the_key_attacks_are_held_when_cz_runs_as_an_ordinary_user() {
    use std::os::unix::fs::MetadataExt;
    if !fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        eprintln!("skipped: only root can start cz as an ordinary user");
        return;
    }
    if !isolation_here() {
        return;
    }
    let g = grade("user.toml", Some(NOBODY.parse().unwrap()));
    assert_eq!(g.status, Some(1), "{}", g.text);
    assert_eq!(g.doc["isolation"]["isolated"], true, "{}", g.text);
    for cheat in ["find-reference", "classmate", "corpus"] {
        g.passes_nothing(cheat);
    }
    for held in [
        "victim",
        "secrets",
        "sockets",
        "state",
        "remount",
        "fallocate",
    ] {
        g.passes_everything(held);
    }
    g.not_run_again_fresh("state");
    for secret in &g.secrets {
        assert!(
            !g.text.contains(secret.as_str()),
            "cz's output holds {secret}"
        );
        for (name, text) in &g.reports {
            assert!(!text.contains(secret.as_str()), "{name} holds {secret}");
        }
    }
    for (where_, n) in &g.connections {
        assert_eq!(*n, 0, "the socket {where_} had {n} connections");
    }
    assert!(
        g.victim.1.as_ref() == Some(&g.victim.0),
        "the victim's file changed"
    );
}
