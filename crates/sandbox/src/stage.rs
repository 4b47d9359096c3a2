//! What a box of a user of its own is given, made reachable to that user.
//!
//! When the grader is root, bubblewrap runs as the box's own unprivileged
//! user ([`super::isolation::BOX_UID_BASE`]), and finds the folders it
//! binds as that user: one under a folder it may not enter (a pyenv under
//! `/root`, mode 0700; the grader's scratch folder, 0700) would be refused.
//! So the supervisor, still root, enters a mount namespace of its own
//! (private: nothing it mounts is seen outside it, and it ends with the
//! supervisor and its box), mounts a small tmpfs on a folder of its own
//! (`/run/cz-stage-PID`, mode 0755), binds there each source the box is
//! given, and has bubblewrap bind it from there. Only the folder itself is
//! made on the host, and removed at the end; the sources keep their own
//! modes, so the box reads what others may read, and nothing more. A box
//! whose sources the user reaches already (a candidate's folder of mode
//! 0755 on the way) is started without staging.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};

use super::isolation::arity;
use super::program::in_system;

/// A staging folder in use, removed when dropped.
pub(super) struct Stage {
    dir: PathBuf,
}

/// The prefix of staging folders' names, before the supervisor's pid.
const PREFIX: &str = "cz-stage-";

impl Stage {
    /// Enters a private mount namespace and stages the source of every
    /// `--ro-bind` of bubblewrap's arguments `args` (up to `--`) that the
    /// box's user cannot reach ([`reachable`]), rewriting it to its staged
    /// path; `None`, and nothing done, when it reaches them all. Must be
    /// called while this process has one thread.
    ///
    /// # Errors
    /// The namespace, the folder or a bind cannot be made: why (the
    /// arguments may then be half rewritten: do not use them).
    pub(super) fn new(args: &mut [OsString]) -> Result<Option<Stage>, String> {
        if sources(args).all(|(_, source)| reachable(&source)) {
            return Ok(None);
        }
        unshare(CloneFlags::CLONE_NEWNS).map_err(|e| format!("mount namespace: {e}"))?;
        mount(
            None::<&str>,
            "/",
            None::<&str>,
            MsFlags::MS_REC | MsFlags::MS_PRIVATE,
            None::<&str>,
        )
        .map_err(|e| format!("private mounts: {e}"))?;
        let base = if Path::new("/run").is_dir() {
            PathBuf::from("/run")
        } else {
            std::env::temp_dir()
        };
        super::cgroup::sweep(&base, PREFIX);
        let dir = base.join(format!("{PREFIX}{}", std::process::id()));
        let _ = fs::remove_dir(&dir);
        fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let stage = Stage { dir };
        mount(
            Some("tmpfs"),
            &stage.dir,
            Some("tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
            Some("mode=0755,size=1m"),
        )
        .map_err(|e| format!("staging tmpfs: {e}"))?;
        let unreachable: Vec<(usize, PathBuf)> =
            sources(args).filter(|(_, s)| !reachable(s)).collect();
        for (n, (at, source)) in unreachable.into_iter().enumerate() {
            let place = stage.dir.join(n.to_string());
            if source.is_dir() {
                fs::create_dir(&place)
            } else {
                fs::write(&place, b"")
            }
            .map_err(|e| format!("{}: {e}", place.display()))?;
            mount(
                Some(&source),
                &place,
                None::<&str>,
                MsFlags::MS_BIND | MsFlags::MS_REC,
                None::<&str>,
            )
            .map_err(|e| format!("staging {}: {e}", source.display()))?;
            args[at] = place.into_os_string();
        }
        Ok(Some(stage))
    }
}

/// Each `--ro-bind` source of `args` (up to `--`) outside the system's
/// folders and `/etc`, with the place of its path among `args`.
fn sources(args: &[OsString]) -> impl Iterator<Item = (usize, PathBuf)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < args.len() && args[at] != "--" {
            // An option this crate does not write: stop reading.
            let count = arity(&args[at])?;
            let here = at;
            at += 1 + count;
            if args[here] == "--ro-bind" && here + 2 < args.len() {
                let source = PathBuf::from(&args[here + 1]);
                if !in_system(&source) && !source.starts_with("/etc") {
                    return Some((here + 1, source));
                }
            }
        }
        None
    })
}

/// Whether a user who owns nothing can reach `path`: every folder on the
/// way lets others through, and it lets others read it (and, a folder,
/// through it).
pub(super) fn reachable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(real) = path.canonicalize() else {
        return false;
    };
    let mode = |p: &Path| fs::metadata(p).map(|m| (m.permissions().mode(), m.is_dir()));
    let own = match mode(&real) {
        Ok((m, true)) => m & 0o005 == 0o005,
        Ok((m, false)) => m & 0o004 == 0o004,
        Err(_) => false,
    };
    own && real
        .ancestors()
        .skip(1)
        .all(|p| mode(p).is_ok_and(|(m, _)| m & 0o001 == 0o001))
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = umount2(&self.dir, MntFlags::MNT_DETACH);
        let _ = fs::remove_dir(&self.dir);
    }
}
