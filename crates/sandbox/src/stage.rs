//! The supervisor's own mount namespace, made for one box before
//! bubblewrap starts: the box's fresh places and, for a box of a user of
//! its own, what it is given, staged where that user reaches it.
//!
//! **Fresh places with their files bounded.** A box's `/tmp`, `/var/tmp`
//! and `/dev/shm` are tmpfs of their own, sized from its memory; but an
//! empty file costs an inode, not a block, and bubblewrap cannot bound a
//! tmpfs's inodes: a run could make files without end and fill the
//! kernel's memory with their inodes. So the supervisor mounts each itself,
//! with `nr_inodes` set ([`FILES`]) beside its size, and has bubblewrap bind
//! it in place of its own `--tmpfs`. As root it enters a mount namespace
//! of its own; as an ordinary user, a user namespace of its own (mapping
//! only itself) and a mount namespace in it: either is private, nothing
//! mounted in it is seen outside, and it ends with the supervisor and its
//! box.
//!
//! **Staging.** When the grader is root, bubblewrap runs as the box's own
//! unprivileged user ([`super::isolation::BOX_UID_BASE`]), and finds the
//! folders it binds as that user: one under a folder it may not enter (a
//! pyenv under `/root`, mode 0700; the grader's scratch folder, 0700) would
//! be refused. So each source the box is given that the user cannot reach
//! is bound into the namespace's staging folder (`/run/cz-stage-NS-PID-N`,
//! mode 0755), and bubblewrap binds it from there. The sources keep their
//! own modes, so the box reads what others may read, and nothing more.
//!
//! Only the staging folder itself is made on the host (in `/run`
//! as root, a folder beside the run's files in the grader's scratch folder
//! otherwise), and removed at the end.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};
use nix::unistd::{getegid, geteuid};

use super::isolation::{PRIVATE, arity};
use super::program::in_system;

/// Files (inodes) each of a box's fresh places may hold: far more than a
/// judge of one game file makes, and a bound on the kernel memory a run
/// can take with empty files.
pub const FILES: u64 = 4096;

/// The supervisor's namespace for one box, its staging folder removed when
/// dropped.
pub(super) struct Stage {
    dir: PathBuf,
}

/// The prefix of staging folders' names, before the supervisor's pid.
const PREFIX: &str = "cz-stage-";

/// A box whose fresh places hold at most this many files, in a namespace
/// made for it, could be made; else why not.
pub(super) fn probe() -> Result<(), String> {
    let root = geteuid().is_root();
    let near = std::env::temp_dir();
    let mut args: Vec<OsString> = ["--size", "1048576", "--tmpfs", "/tmp", "--", "true"]
        .map(OsString::from)
        .to_vec();
    let stage = Stage::new(&mut args, root, false, &near)?;
    let made = stage.dir.join("0");
    let ok = args[..3]
        == [
            OsString::from("--bind"),
            made.into_os_string(),
            "/tmp".into(),
        ];
    let files = fs::read_to_string("/proc/self/mountinfo")
        .map(|m| m.lines().any(|l| l.contains(&format!("nr_inodes={FILES}"))))
        .unwrap_or(false);
    drop(stage);
    match ok && files {
        true => Ok(()),
        false => Err("its tmpfs were not mounted with their files bounded".into()),
    }
}

impl Stage {
    /// Enters a private mount namespace (in a user namespace of its own
    /// when not `root`), mounts each fresh place of bubblewrap's arguments
    /// `args` (up to `--`) with its size and its files bounded, rewriting
    /// `--size N --tmpfs PLACE` to `--bind MOUNTED PLACE`, and, for a box
    /// of its own user (`own_user`), stages each source the box's user
    /// cannot reach ([`reachable`]). Its folder is made in `/run` as root,
    /// else in `near`. Must be called while this process has one thread.
    ///
    /// # Errors
    /// A namespace, a folder, a mount or a bind cannot be made: why (the
    /// arguments may then be half rewritten: do not use them).
    pub(super) fn new(
        args: &mut Vec<OsString>,
        root: bool,
        own_user: bool,
        near: &Path,
    ) -> Result<Stage, String> {
        if root {
            unshare(CloneFlags::CLONE_NEWNS).map_err(|e| format!("mount namespace: {e}"))?;
        } else {
            let (uid, gid) = (geteuid(), getegid());
            unshare(CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNS)
                .map_err(|e| format!("user namespace: {e}"))?;
            // Only itself, mapped to itself: no other user's files and no
            // other group become its own.
            fs::write("/proc/self/setgroups", "deny")
                .and_then(|()| fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")))
                .and_then(|()| fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")))
                .map_err(|e| format!("user namespace: {e}"))?;
        }
        mount(
            None::<&str>,
            "/",
            None::<&str>,
            MsFlags::MS_REC | MsFlags::MS_PRIVATE,
            None::<&str>,
        )
        .map_err(|e| format!("private mounts: {e}"))?;
        let base = match root {
            true if Path::new("/run").is_dir() => PathBuf::from("/run"),
            true => std::env::temp_dir(),
            false => near.to_path_buf(),
        };
        let (ours, name) = super::cgroup::group_name(PREFIX);
        if root {
            super::cgroup::sweep(&base, &ours);
        }
        let dir = base.join(name);
        let _ = fs::remove_dir(&dir);
        fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let stage = Stage { dir };
        tmpfs(&stage.dir, "mode=0755,size=1m,nr_inodes=1024")?;
        stage.fresh_places(args)?;
        if own_user {
            stage.stage_sources(args)?;
        }
        Ok(stage)
    }

    /// Mounts each `--size N --tmpfs PLACE` of `args` that is a fresh
    /// place of the box's, with its files bounded, and binds it instead.
    fn fresh_places(&self, args: &mut Vec<OsString>) -> Result<(), String> {
        let mut at = 0;
        let mut n = 0;
        while at < args.len() && args[at] != "--" {
            let Some(count) = arity(&args[at]) else {
                break;
            };
            let place = args.get(at + 3).map(Path::new);
            let fresh = place.is_some_and(|p| PRIVATE.iter().any(|(f, _)| Path::new(f) == p));
            if args[at] == "--size" && args.get(at + 2).is_some_and(|a| a == "--tmpfs") && fresh {
                let size = args[at + 1].to_string_lossy().into_owned();
                let mounted = self.dir.join(n.to_string());
                n += 1;
                fs::create_dir(&mounted).map_err(|e| format!("{}: {e}", mounted.display()))?;
                tmpfs(
                    &mounted,
                    &format!("mode=1777,size={size},nr_inodes={FILES}"),
                )?;
                let place = args[at + 3].clone();
                args.splice(
                    at..at + 4,
                    ["--bind".into(), mounted.into_os_string(), place],
                );
                at += 3;
                continue;
            }
            at += 1 + count;
        }
        Ok(())
    }

    /// Binds each `--ro-bind` source of `args` (up to `--`) that the box's
    /// user cannot reach into the staging folder, and names it instead.
    fn stage_sources(&self, args: &mut [OsString]) -> Result<(), String> {
        let unreachable: Vec<(usize, PathBuf)> =
            sources(args).filter(|(_, s)| !reachable(s)).collect();
        for (n, (at, source)) in unreachable.into_iter().enumerate() {
            let place = self.dir.join(format!("s{n}"));
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
        Ok(())
    }
}

/// Mounts a tmpfs of `options` on `at`, with no device or set-user-id
/// file honoured in it.
fn tmpfs(at: &Path, options: &str) -> Result<(), String> {
    mount(
        Some("tmpfs"),
        at,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(options),
    )
    .map_err(|e| format!("tmpfs at {}: {e}", at.display()))
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
