use super::*;

fn spec<'a>(dir: &'a Path, own: &[&str], command: &[&str]) -> BoxSpec<'a> {
    BoxSpec {
        dir,
        command: command.iter().map(OsString::from).collect(),
        own: own.iter().map(PathBuf::from).collect(),
        path_first: Vec::new(),
        env: &[],
        hidden: Vec::new(),
        given: Vec::new(),
        inbox: None,
        processes: 64,
        memory: 1 << 30,
        no_userns: true,
        as_pid_1: false,
    }
}

fn words(argv: &[OsString]) -> Vec<String> {
    argv.iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect()
}

/// A candidate's folder under /tmp is bound, read-only, after the
/// fresh /tmp; the whole filesystem is not; the environment is cleared;
/// no capability; every option is one the supervisor can read.
#[test]
fn a_box_holds_its_own_folder_and_the_system() {
    let here = Path::new("/tmp/class/alice");
    let argv =
        words(&spec(here, &["/tmp/class/alice"], &["python3", "c.py"]).argv(Path::new("bwrap")));
    let text = argv.join(" ");
    let bind = "--ro-bind /tmp/class/alice /tmp/class/alice";
    assert!(text.contains(bind), "{text}");
    assert!(text.find("--tmpfs /tmp").unwrap() < text.find(bind).unwrap());
    assert!(!text.contains("--ro-bind / /"), "{text}");
    assert!(!text.contains("--dir /tmp/class/alice"), "{text}");
    // The folder on the way, in the fresh /tmp, is a small tmpfs of its
    // own, made before the bind and read-only after it.
    let way = "--size 65536 --tmpfs /tmp/class ";
    let ro = "--remount-ro /tmp/class ";
    assert!(text.find("--tmpfs /tmp ").unwrap() < text.find(way).unwrap());
    assert!(text.find(way).unwrap() < text.find(bind).unwrap(), "{text}");
    assert!(text.find(bind).unwrap() < text.find(ro).unwrap(), "{text}");
    for needed in [
        "--unshare-net",
        "--cap-drop ALL",
        "--disable-userns",
        "--clearenv",
        "--setenv HOME /tmp",
        "--ro-bind /usr /usr",
        "--remount-ro /dev",
        "--remount-ro / --chdir",
    ] {
        assert!(text.contains(needed), "{needed}: {text}");
    }
    assert!(
        text.ends_with("|| exit 126; exec \"$@\" cz-box python3 c.py"),
        "{text}"
    );
    let mut at = 1;
    while argv[at] != "--" {
        let n = arity(OsStr::new(&argv[at])).unwrap_or_else(|| panic!("{}", argv[at]));
        at += 1 + n;
    }
}

/// A run in a folder nothing given holds gets it made, empty; the
/// system's folders are never bound again.
#[test]
fn a_folder_of_its_own_is_made_when_not_given() {
    let argv = words(
        &spec(
            Path::new("/work/class"),
            &["/work/class/bob", "/usr/lib"],
            &["sh"],
        )
        .argv(Path::new("bwrap")),
    );
    let text = argv.join(" ");
    assert!(
        text.contains("--dir /work/class --remount-ro / --chdir /work/class"),
        "{text}"
    );
    assert!(!text.contains("--ro-bind /usr/lib /usr/lib"), "{text}");
    let inside = words(&spec(Path::new("/usr"), &[], &["ls"]).argv(Path::new("bwrap")));
    assert!(!inside.join(" ").contains("--dir /usr"));
}

/// The folders on the way to what a box binds in a fresh place are
/// found as bubblewrap follows the paths (`..` steps back); one that is
/// bound itself, or lies outside the fresh places, needs none.
#[test]
fn the_folders_on_the_way_in_a_fresh_place_are_found() {
    // The small tmpfs each way becomes, read from the command.
    let ways = |dir: &str, own: &[&str]| -> Vec<String> {
        let argv = words(&spec(Path::new(dir), own, &["sh"]).argv(Path::new("bwrap")));
        let made: Vec<String> = argv
            .windows(4)
            .filter(|w| w[..3] == ["--size", "65536", "--tmpfs"])
            .map(|w| w[3].clone())
            .collect();
        for way in &made {
            assert!(argv.join(" ").contains(&format!("--remount-ro {way} ")));
        }
        made
    };
    assert_eq!(ways("/tmp/c/a", &["/tmp/c/a"]), ["/tmp/c"]);
    assert_eq!(
        ways("/dev/shm/x/y/z", &["/var/tmp/b/c", "/srv/d"]),
        ["/dev/shm/x", "/var/tmp/b"]
    );
    // `class/..` is the folder above `class`: bound itself, it holds
    // the folder it runs in too.
    assert!(ways("/tmp/s/class/..", &["/tmp/s/class/.."]).is_empty());
    assert_eq!(ways("/tmp/s/m/../a", &["/tmp/s/m/../a"]), ["/tmp/s"]);
    // `..` cannot climb out of a fresh place into another folder's name.
    assert_eq!(
        ways("/tmp/a/../../b", &["/tmp/a/../../b"]),
        Vec::<String>::new()
    );
    assert!(ways("/tmp", &[]).is_empty());
    assert!(ways("/work/class", &["/work/class/bob"]).is_empty());
    // A fresh place itself is never bound from the host: the folder a
    // run in it runs in is made, read-only.
    assert_eq!(ways("/tmp/c", &["/tmp"]), ["/tmp/c"]);
    assert_eq!(lexical(Path::new("/a/./b/../../..")), Path::new("/"));
}

/// What a box binds is bound at its place with `..` taken out (a `..`
/// past the root stays there: it cannot lead out of the box's root),
/// from the path as given; the root, the kernel's folders and a fresh
/// place or a folder above it are never bound.
#[test]
fn binds_land_inside_the_box_and_never_over_its_own_places() {
    let text = words(
        &spec(
            Path::new("/srv/c/m/../../../../tmp/x/alice"),
            &[
                "/srv/c/m/../../../../tmp/x/alice",
                "/",
                "/proc/1",
                "/tmp",
                "/var",
                "/sys",
                "/run/a",
                "/dev/shm",
            ],
            &["sh"],
        )
        .argv(Path::new("bwrap")),
    )
    .join(" ");
    assert!(
        text.contains("--ro-bind /srv/c/m/../../../../tmp/x/alice /tmp/x/alice "),
        "{text}"
    );
    assert!(text.contains("--chdir /tmp/x/alice --"), "{text}");
    assert!(text.contains("--size 65536 --tmpfs /tmp/x "), "{text}");
    for never in [
        "/ ",
        "/proc/1 ",
        "/tmp ",
        "/var ",
        "/sys ",
        "/run/a ",
        "/dev/shm ",
    ] {
        assert!(
            !text.contains(&format!("--ro-bind {never}")),
            "{never}: {text}"
        );
    }
}
