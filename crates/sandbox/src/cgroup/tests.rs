use super::*;
use procfs::FromBufRead;

/// As root where the controllers are mounted, a box's groups hold its
/// processes and memory, count its CPU time and are gone after.
#[test]
fn a_box_group_is_made_and_removed() {
    let Some(group) = BoxGroup::new(10, 64 << 20).unwrap() else {
        return;
    };
    let dirs: Vec<PathBuf> = group.dirs.iter().map(|(_, d, _)| d.clone()).collect();
    for (c, dir, _) in &group.dirs {
        if matches!(c, Controller::Pids | Controller::Unified) {
            assert_eq!(
                fs::read_to_string(dir.join("pids.max")).unwrap().trim(),
                "10"
            );
        }
        if *c == Controller::Memory {
            let limit = read_number(&dir.join("memory.limit_in_bytes")).unwrap();
            assert!(limit <= 64 << 20 && limit > 60 << 20, "{limit}");
        }
    }
    if group.holding().cpu {
        assert!(group.cpu().is_some());
    }
    drop(group);
    for dir in dirs {
        assert!(!dir.exists(), "{}", dir.display());
    }
}

/// A folder of its own, made empty, that stands for a group's.
fn fake_group(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cz-fake-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir(&dir).unwrap();
    dir
}

/// Every limit of a v1 memory group is written, read back, and holds.
#[test]
fn limits_are_written_and_read_back() {
    let dir = fake_group("written");
    let memory = limits(Controller::Memory, 10, 1 << 30);
    for limit in &memory {
        fs::write(dir.join(limit.file), "").unwrap();
    }
    set_limits(&dir, &memory, true, 4096).unwrap();
    for (file, value) in [
        ("memory.limit_in_bytes", "1073741824"),
        ("memory.memsw.limit_in_bytes", "1073741824"),
        ("memory.swappiness", "0"),
    ] {
        assert_eq!(fs::read_to_string(dir.join(file)).unwrap(), value);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A limit whose file is missing is an error that names the file,
/// not a limit passed over; a missing limit of swap is passed over
/// only where the machine has no swap.
#[test]
fn a_limit_that_cannot_be_written_is_reported() {
    let dir = fake_group("missing");
    let pids = limits(Controller::Pids, 10, 1 << 30);
    let why = set_limits(&dir, &pids, true, 4096).unwrap_err();
    assert!(
        why.contains(&dir.join("pids.max").display().to_string()),
        "{why}"
    );
    assert!(!dir.join("pids.max").exists());
    // A v2 group without its swap file.
    let unified = limits(Controller::Unified, 10, 1 << 30);
    for file in ["pids.max", "memory.max"] {
        fs::write(dir.join(file), "").unwrap();
    }
    set_limits(&dir, &unified, false, 4096).unwrap();
    let why = set_limits(&dir, &unified, true, 4096).unwrap_err();
    assert!(why.contains("memory.swap.max"), "{why}");
    // A folder where the file should be takes no limit.
    fs::create_dir(dir.join("memory.swap.max")).unwrap();
    let why = set_limits(&dir, &unified, false, 4096).unwrap_err();
    assert!(why.contains("memory.swap.max"), "{why}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A limit the kernel takes but does not keep (read back as something
/// else) is an error.
#[test]
fn a_limit_that_does_not_read_back_is_reported() {
    let dir = fake_group("dropped");
    std::os::unix::fs::symlink("/dev/null", dir.join("pids.max")).unwrap();
    let why = set_limits(&dir, &limits(Controller::Pids, 10, 0), true, 4096).unwrap_err();
    assert!(why.contains("pids.max"), "{why}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A memory limit holds when the kernel rounds it down within a page;
/// a count of processes only as written.
#[test]
fn a_limit_holds_as_the_kernel_rounds_it() {
    let memory = Limit::bytes("memory.max", 10_000);
    assert!(memory.holds("10000\n", 4096));
    assert!(memory.holds("8192\n", 4096));
    assert!(!memory.holds("4096", 4096));
    assert!(!memory.holds("12288", 4096));
    assert!(!memory.holds("max", 4096));
    let pids = Limit::exact("pids.max", 72);
    assert!(pids.holds("72\n", 4096));
    assert!(!pids.holds("70", 4096));
    assert!(!pids.holds("max", 4096));
}

/// Which files each controller's group is given: v1 and v2.
#[test]
fn each_controller_has_its_limits() {
    let files = |c| -> Vec<&str> { limits(c, 72, 1 << 20).iter().map(|l| l.file).collect() };
    assert_eq!(files(Controller::Pids), ["pids.max"]);
    assert_eq!(
        files(Controller::Memory),
        [
            "memory.limit_in_bytes",
            "memory.memsw.limit_in_bytes",
            "memory.swappiness"
        ]
    );
    assert!(files(Controller::Cpu).is_empty());
    assert_eq!(
        limits(Controller::Unified, 72, 1 << 20),
        [
            Limit::exact("pids.max", 72),
            Limit::bytes("memory.max", 1 << 20),
            Limit::bytes("memory.swap.max", 0).of_swap(),
        ]
    );
}

/// A folder of a supervisor that is gone is removed; one of a
/// supervisor that runs, or of another pid namespace, is left.
#[test]
fn only_the_folders_of_supervisors_gone_from_this_namespace_are_swept() {
    let base = fake_group("sweep");
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let gone = child.id();
    child.wait().unwrap();
    let me = std::process::id();
    let names = [
        format!("cz-group-7-{gone}-0"),
        format!("cz-group-7-{gone}"),
        format!("cz-group-7-{me}-1"),
        format!("cz-group-8-{gone}-0"),
        format!("cz-stage-{gone}"),
    ];
    for name in &names {
        fs::create_dir(base.join(name)).unwrap();
    }
    sweep(&base, "cz-group-7-");
    let left: Vec<bool> = names.iter().map(|n| base.join(n).exists()).collect();
    assert_eq!(left, [false, false, true, true, true]);
    fs::remove_dir_all(&base).unwrap();
}

fn groups(text: &str) -> Vec<ProcessCGroup> {
    procfs::ProcessCGroups::from_buf_read(text.as_bytes())
        .unwrap()
        .0
}

fn mounts(lines: &[&str]) -> Vec<MountInfo> {
    lines
        .iter()
        .map(|l| MountInfo::from_line(l).unwrap())
        .collect()
}

/// A hybrid machine's v1 hierarchies are found, each at this process's
/// own group, also where a mount shows a part of its hierarchy only.
#[test]
fn v1_hierarchies_are_found() {
    let found = places_in(
        &groups("8:pids:/\n4:memory:/jobs/a\n2:cpuacct:/\n1:cpu:/\n0::/\n"),
        &mounts(&[
            "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
            "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct",
            "35 31 0:32 /jobs /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
            "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
            "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
        ]),
        |_| "pids memory cpu".into(),
    );
    assert_eq!(
        found,
        [
            (Controller::Cpu, PathBuf::from("/sys/fs/cgroup/cpuacct")),
            (Controller::Memory, PathBuf::from("/sys/fs/cgroup/memory/a")),
            (Controller::Pids, PathBuf::from("/sys/fs/cgroup/pids")),
        ]
    );
}

/// A v2 machine's group is found when its children may use pids,
/// memory and cpu; else none is.
#[test]
fn the_v2_group_is_found_where_its_controllers_are_enabled() {
    let cgroups = groups("0::/user.slice/job\n");
    let mounts = mounts(&["25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate"]);
    let job = PathBuf::from("/sys/fs/cgroup/user.slice/job");
    let found = places_in(&cgroups, &mounts, |dir| {
        assert_eq!(dir, job);
        "cpuset cpu io memory pids".into()
    });
    assert_eq!(found, [(Controller::Unified, job)]);
    assert!(places_in(&cgroups, &mounts, |_| "cpu memory".into()).is_empty());
}

/// The isolation line claims control groups hold exactly what they
/// hold.
#[test]
fn the_words_claim_only_what_the_groups_hold() {
    let claimed = |holding: Holding| -> Vec<&str> {
        let words = in_words(holding);
        let claim = words
            .split_once(" held for the whole box by control groups")
            .map_or("", |(claim, _)| claim)
            .to_string();
        ["memory", "processes", "CPU time"]
            .into_iter()
            .filter(|w| claim.contains(w))
            .collect()
    };
    assert!(claimed(Holding::default()).is_empty());
    let all = Holding {
        processes: true,
        memory: true,
        cpu: true,
    };
    assert_eq!(claimed(all), ["memory", "processes", "CPU time"]);
    let no_memory = Holding {
        memory: false,
        ..all
    };
    assert_eq!(claimed(no_memory), ["processes", "CPU time"]);
    assert_eq!(
        claimed(Holding {
            processes: true,
            ..Holding::default()
        }),
        ["processes"]
    );
}
