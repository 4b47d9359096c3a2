//! The box a run goes in: bubblewrap (`bwrap`, the sandbox Flatpak uses),
//! when it is present and this machine lets it make namespaces.
//!
//! A box has its own user, process, network, IPC and host-name namespaces:
//! it sees only its own processes (when its first process ends, every
//! process in it ends), has no network but a loopback of its own, and holds
//! no capability. The whole filesystem is bound read-only; `/tmp`,
//! `/var/tmp` and `/dev/shm` are fresh and private to the box; `/run` is
//! an empty read-only folder but for [`INBOX`], where the box finds the
//! files it is given (a game file, the fork server's script), read-only;
//! the grader's scratch folder is hidden. A folder the run needs that lies
//! in a hidden place (its own folder under `/tmp`, say) is bound again,
//! read-only, at the same path.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Where a box finds the files it is given.
pub const INBOX: &str = "/run/cz";

/// Whether runs are isolated, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Every run in a box of bubblewrap's.
    Bubblewrap {
        /// The `bwrap` program.
        program: PathBuf,
        /// Its version, as it prints it.
        version: String,
    },
    /// Runs are not isolated: why not.
    None(String),
}

/// What isolation a grade asks for (`--isolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Wanted {
    /// Bubblewrap when it works here; else run without, and say so.
    Auto,
    /// Bubblewrap, or refuse to run.
    Require,
    /// No box (runs share the grader's user, files and network).
    None,
}

impl Isolation {
    /// The isolation `wanted` gives on this machine.
    ///
    /// # Errors
    /// `Require`d and bubblewrap cannot make a box here: why.
    pub fn choose(wanted: Wanted) -> Result<Isolation, String> {
        match (wanted, detect()) {
            (Wanted::None, _) => Ok(Isolation::None("--isolation none".into())),
            (Wanted::Require, Isolation::None(why)) => Err(format!(
                "--isolation require: runs cannot be isolated here: {why}"
            )),
            (_, found) => Ok(found),
        }
    }

    /// True when runs are in a box.
    pub fn isolated(&self) -> bool {
        matches!(self, Isolation::Bubblewrap { .. })
    }

    /// The isolation in force, in one line, for the top of every report.
    pub fn describe(&self) -> String {
        match self {
            Isolation::Bubblewrap { version, .. } => format!(
                "isolated with {version}: every run in a box of its own (no process outside it can be seen or signalled, no network, the whole filesystem read-only but a private /tmp, the grader's scratch folder hidden)"
            ),
            Isolation::None(why) => format!(
                "NOT ISOLATED ({why}): runs have the grader's user, files and network; a run can read and change any file the grader can (other candidates, the reports), use the network, and end its supervisor, leaving processes behind"
            ),
        }
    }
}

/// Bubblewrap, if it is on the path and makes a box here; else why not.
/// Tried once per process.
pub fn detect() -> Isolation {
    static FOUND: OnceLock<Isolation> = OnceLock::new();
    FOUND.get_or_init(find).clone()
}

fn find() -> Isolation {
    let Some(program) = on_path("bwrap") else {
        return Isolation::None("bubblewrap (bwrap) is not installed".into());
    };
    let version = Command::new(&program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "bubblewrap".into());
    let probe = Command::new(&program)
        .args(NAMESPACES)
        .args(["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"])
        .arg("true")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    match probe {
        Ok(out) if out.status.success() => Isolation::Bubblewrap { program, version },
        Ok(out) => Isolation::None(format!(
            "{} cannot make a box here: {}",
            program.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Isolation::None(format!("{} cannot start: {e}", program.display())),
    }
}

/// A program found on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The namespaces of a box.
const NAMESPACES: [&str; 7] = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
];

/// Places fresh and private in a box (the grader's scratch folder too).
const PRIVATE: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// One box: what runs in it and what it is given.
pub(super) struct BoxSpec<'a> {
    /// The folder it runs in (absolute).
    pub dir: &'a Path,
    /// The program and its arguments, as the box sees them.
    pub command: Vec<OsString>,
    /// Files and folders given to it, each bound read-only at its path in
    /// the box (under [`INBOX`]).
    pub given: Vec<(PathBuf, OsString)>,
    /// A folder bound whole, read-only, at [`INBOX`] (the fork server's).
    pub inbox: Option<&'a Path>,
    /// The grader's scratch folder, hidden from the box.
    pub scratch: &'a Path,
    /// Processes the box may hold.
    pub processes: u64,
}

impl BoxSpec<'_> {
    /// The command that runs this box: `bwrap` and its arguments.
    pub(super) fn argv(&self, bwrap: &Path) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec![bwrap.into()];
        let mut push = |words: &[&OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
        let os = |s: &'static str| OsStr::new(s);
        push(&NAMESPACES.map(OsStr::new));
        push(&[os("--new-session")]);
        push(&[os("--ro-bind"), os("/"), os("/")]);
        push(&[os("--dev"), os("/dev"), os("--proc"), os("/proc")]);
        let mut hidden: Vec<&Path> = PRIVATE.iter().map(Path::new).collect();
        hidden.retain(|p| p.is_dir());
        for place in &hidden {
            push(&[os("--tmpfs"), place.as_os_str()]);
        }
        if !hidden.iter().any(|h| self.scratch.starts_with(h)) {
            push(&[os("--tmpfs"), self.scratch.as_os_str()]);
            hidden.push(self.scratch);
        }
        push(&[os("--tmpfs"), os("/run")]);
        match self.inbox {
            Some(inbox) => push(&[os("--ro-bind"), inbox.as_os_str(), os(INBOX)]),
            None => push(&[os("--dir"), os(INBOX)]),
        }
        for (host, inside) in &self.given {
            push(&[os("--ro-bind"), host.as_os_str(), inside]);
        }
        push(&[os("--remount-ro"), os("/run")]);
        hidden.push(Path::new("/run"));
        // What the run needs from a hidden place, bound again read-only;
        // the outer folders first.
        let mut needed = self.needed(&hidden);
        needed.sort_by_key(|p| p.components().count());
        needed.dedup();
        for path in &needed {
            push(&[os("--ro-bind"), path.as_os_str(), path.as_os_str()]);
        }
        push(&[os("--chdir"), self.dir.as_os_str(), os("--")]);
        // The box's first process limits the processes of the box's user
        // (in the box's own user namespace: the box's alone) and becomes
        // the command. `ulimit -u` is bash's, `-p` dash's.
        let limit = format!(
            "ulimit -u {n} 2>/dev/null || ulimit -p {n} || exit 126; exec \"$@\"",
            n = self.processes
        );
        push(&[os("/bin/sh"), os("-c"), OsStr::new(&limit), os("cz-box")]);
        a.extend(self.command.iter().cloned());
        a
    }

    /// Folders in a hidden place that the run needs: for its folder, and
    /// for each word of its command that names a file or folder, the
    /// outermost folder that holds it in its hidden place (`/tmp/venv` for
    /// `/tmp/venv/bin/tool`, so that a script finds the interpreter and the
    /// packages installed beside it).
    fn needed(&self, hidden: &[&Path]) -> Vec<PathBuf> {
        let outermost = |p: &Path| -> Option<PathBuf> {
            let place = hidden.iter().find(|h| p.starts_with(h) && p != **h)?;
            let first = p.strip_prefix(place).ok()?.components().next()?;
            Some(place.join(first))
        };
        let mut needed = Vec::new();
        let mut need = |p: &Path| {
            if let Some(folder) = outermost(p)
                && !needed.contains(&folder)
            {
                needed.push(folder);
            }
        };
        need(self.dir);
        for word in &self.command {
            if let Ok(path) = std::path::absolute(self.dir.join(word))
                && path.exists()
            {
                need(&path);
            }
        }
        needed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec<'a>(dir: &'a Path, scratch: &'a Path, command: &[&str]) -> BoxSpec<'a> {
        BoxSpec {
            dir,
            command: command.iter().map(OsString::from).collect(),
            given: Vec::new(),
            inbox: None,
            scratch,
            processes: 64,
        }
    }

    fn words(argv: &[OsString]) -> Vec<String> {
        argv.iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    /// A candidate's folder under /tmp is bound again, read-only, after the
    /// fresh /tmp; one elsewhere is not; the scratch folder is hidden.
    #[test]
    fn folders_in_hidden_places_are_bound_again() {
        let here = std::env::temp_dir().join(format!("cz-iso-{}", std::process::id()));
        std::fs::create_dir_all(here.join("alice")).unwrap();
        std::fs::write(here.join("alice/c.py"), "").unwrap();
        let scratch = Path::new("/var/cz-scratch");
        let argv =
            words(&spec(&here, scratch, &["python3", "alice/c.py"]).argv(Path::new("bwrap")));
        let text = argv.join(" ");
        let tmp = here.starts_with("/tmp");
        if tmp {
            let bind = format!("--ro-bind {} {}", here.display(), here.display());
            assert!(text.contains(&bind), "{text}");
            let at = text.find(&bind).unwrap();
            assert!(text.find("--tmpfs /tmp").unwrap() < at, "{text}");
        }
        assert!(text.contains("--tmpfs /var/cz-scratch"), "{text}");
        assert!(text.contains("--unshare-net"), "{text}");
        assert!(
            text.ends_with("|| exit 126; exec \"$@\" cz-box python3 alice/c.py"),
            "{text}"
        );
        let elsewhere = words(&spec(Path::new("/usr"), scratch, &["ls"]).argv(Path::new("bwrap")));
        assert!(!elsewhere.join(" ").contains("--ro-bind /usr /usr"));
        std::fs::remove_dir_all(&here).unwrap();
    }
}
