//! Files the grader writes where others may write too (a shared report
//! folder, `/tmp`): never through a link someone planted there. As root,
//! following one would let any local user have root overwrite or create
//! a file of their choosing.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use nix::fcntl::OFlag;

/// Writes `bytes` to `path` whole or not at all: to a new file beside it
/// (`NAME.part`, of `mode`, made by one exclusive create, which a link or
/// any file already there makes fail: one left is removed first, and a
/// link put back in between is an error), then renamed over it (which
/// replaces a link at `path` itself, never what it points to).
///
/// # Errors
/// The file cannot be made, written or renamed.
pub fn write_whole(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    let part = path.with_file_name(name);
    let _ = fs::remove_file(&part);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&part)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&part, path)
}

/// Opens `path` to append to it, made (of mode 0666 less the umask) if
/// missing; a link there is refused, not followed.
///
/// # Errors
/// The file cannot be opened, or is a link.
pub fn append_to(path: &Path) -> io::Result<fs::File> {
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(OFlag::O_NOFOLLOW.bits())
        .open(path)
}

/// The first folder under `dir` (itself included) that a user who owns
/// none of it could not list and enter, or of the files `named` (those a
/// command names) one such a user could not read, with its mode. Links are
/// not followed (the box resolves them itself), folders whose names start
/// with a dot are passed over (a `.git`, a `.venv` the command does not
/// name), and at most `WALKED` folders are looked at. `None` when others
/// may use all of them.
pub fn first_closed_to_others(dir: &Path, named: &[PathBuf]) -> Option<(PathBuf, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| {
        fs::symlink_metadata(path)
            .ok()
            .map(|m| (m.permissions().mode() & 0o7777, m.is_dir()))
    };
    let mut pending = vec![dir.to_path_buf()];
    let mut walked = 0;
    while let Some(folder) = pending.pop() {
        walked += 1;
        if walked > WALKED {
            break;
        }
        match mode(&folder) {
            Some((bits, true)) if bits & 0o005 != 0o005 => return Some((folder, bits)),
            Some((_, true)) => {}
            _ => continue,
        }
        if let Ok(entries) = fs::read_dir(&folder) {
            let mut below: Vec<PathBuf> = entries
                .flatten()
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect();
            below.sort_unstable_by(|a, b| b.cmp(a));
            pending.extend(below);
        }
    }
    named.iter().find_map(|file| match mode(file) {
        Some((bits, false)) if bits & 0o004 == 0 => Some((file.clone(), bits)),
        _ => None,
    })
}

/// Entries of a candidate's folder looked at for [`first_closed_to_others`].
const WALKED: usize = 20_000;

#[cfg(test)]
mod tests {
    /// A folder others may use whole is open; one of mode 0700, a folder
    /// in it of mode 0750 or the command's file of mode 0600 is the first
    /// found, with its mode.
    #[test]
    fn the_first_file_closed_to_others_is_found() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("cz-closed-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("lib")).unwrap();
        fs::write(dir.join("lib/rules.py"), "").unwrap();
        fs::write(dir.join("main.py"), "").unwrap();
        let set =
            |p: &Path, mode: u32| fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
        set(&dir, 0o755);
        set(&dir.join("lib"), 0o755);
        set(&dir.join("lib/rules.py"), 0o644);
        set(&dir.join("main.py"), 0o644);
        let named = [dir.join("main.py")];
        assert_eq!(first_closed_to_others(&dir, &named), None);
        // A file the command does not name is the candidate's business (a
        // grader's key file left there must stay closed).
        set(&dir.join("lib/rules.py"), 0o600);
        assert_eq!(first_closed_to_others(&dir, &named), None);
        set(&dir.join("main.py"), 0o600);
        let closed = |path: PathBuf, mode| Some((path, mode));
        assert_eq!(
            first_closed_to_others(&dir, &named),
            closed(dir.join("main.py"), 0o600)
        );
        set(&dir.join("lib"), 0o750);
        assert_eq!(
            first_closed_to_others(&dir, &named),
            closed(dir.join("lib"), 0o750)
        );
        set(&dir, 0o700);
        assert_eq!(
            first_closed_to_others(&dir, &named),
            closed(dir.clone(), 0o700)
        );
        set(&dir, 0o755);
        set(&dir.join("lib"), 0o755);
        fs::remove_dir_all(&dir).unwrap();
    }

    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A link planted at `NAME.part` or at the appended file is not
    /// followed: what it points to is unchanged, and the report lands
    /// where it was asked, whole, of its mode.
    #[test]
    fn a_planted_link_is_not_followed() {
        let dir = std::env::temp_dir().join(format!("cz-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        let target = dir.join("target");
        fs::write(&target, "keep").unwrap();
        let report = dir.join("r.html");
        std::os::unix::fs::symlink(&target, dir.join("r.html.part")).unwrap();
        write_whole(&report, b"report", 0o640).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(fs::read_to_string(&report).unwrap(), "report");
        let meta = fs::symlink_metadata(&report).unwrap();
        assert!(meta.is_file());
        assert_eq!(meta.permissions().mode() & 0o777, 0o640 & !umask());
        // A link at the report itself is replaced, not written through.
        fs::remove_file(&report).unwrap();
        std::os::unix::fs::symlink(&target, &report).unwrap();
        write_whole(&report, b"again", 0o600).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert!(fs::symlink_metadata(&report).unwrap().is_file());
        // Appending: a file is made and appended to; a link is refused.
        let journal = dir.join("j.jsonl");
        append_to(&journal).unwrap().write_all(b"a").unwrap();
        append_to(&journal).unwrap().write_all(b"b").unwrap();
        assert_eq!(fs::read_to_string(&journal).unwrap(), "ab");
        let link = dir.join("link.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(append_to(&link).is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The process's umask (read by setting it and back).
    fn umask() -> u32 {
        use nix::sys::stat::{Mode, umask};
        let old = umask(Mode::from_bits_truncate(0o022));
        umask(old);
        old.bits()
    }
}
