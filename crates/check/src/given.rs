//! What a candidate's box is given beyond its own folder, as a manifest
//! (`env`, `paths`) or `cz check` (`--env`, `--path`) names it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A variable of a candidate's environment: `NAME=value` sets it, `NAME`
/// alone passes the grader's own (absent: the entry is refused). A name is
/// letters, digits and `_`, not starting with a digit.
///
/// # Errors
/// A name that is not one, or a grader's variable that is not set: why.
pub fn env_entry(entry: &str) -> Result<(OsString, OsString), String> {
    let (name, value) = match entry.split_once('=') {
        Some((name, value)) => (name, Some(OsString::from(value))),
        None => (entry, None),
    };
    let named = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !named {
        return Err(format!(
            "env {entry:?}: give NAME (the grader's own) or NAME=value"
        ));
    }
    let value = match value {
        Some(v) => v,
        None => std::env::var_os(name)
            .ok_or_else(|| format!("env {name:?}: the grader has no such variable"))?,
    };
    Ok((name.into(), value))
}

/// A path given to a candidate's box read-only: `$NAME` is the grader's
/// variable's value, a relative path is taken from `base`; it must exist,
/// must not be named through a link below `base` and the folders above it
/// (`eve/data` a link to `..` or to `/`: in a class, a candidate's choice),
/// and must not lie in a folder of the kernel's (`/dev/shm`: a box has its
/// own).
///
/// # Errors
/// An unset variable, a path that does not exist, one named through a
/// link, or one in the kernel's folders: why.
pub fn path_entry(entry: &str, base: &Path) -> Result<PathBuf, String> {
    let text = match entry.strip_prefix('$') {
        Some(name) => std::env::var_os(name)
            .ok_or_else(|| format!("paths {entry:?}: the grader has no variable {name}"))?,
        None => OsString::from(entry),
    };
    if let Some((link, to)) = connectz_sandbox::program::named_link(base, Path::new(&text)) {
        return Err(format!(
            "paths {entry:?}: goes through a link, {} -> {} (name the path itself)",
            link.display(),
            to.display()
        ));
    }
    let path =
        std::path::absolute(base.join(&text)).map_err(|e| format!("paths {entry:?}: {e}"))?;
    if !path.exists() {
        return Err(format!(
            "paths {entry:?}: {} does not exist",
            path.display()
        ));
    }
    if let Some(kernel) = connectz_sandbox::program::in_kernel(&path) {
        return Err(format!(
            "paths {entry:?}: lies in {kernel}, which a box has its own of, never the machine's"
        ));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_set_or_passed_and_names_checked() {
        assert_eq!(env_entry("A=1").unwrap(), ("A".into(), "1".into()));
        assert_eq!(env_entry("A_B2=").unwrap(), ("A_B2".into(), "".into()));
        assert_eq!(env_entry("A=b=c").unwrap(), ("A".into(), "b=c".into()));
        let path = std::env::var_os("PATH").unwrap();
        assert_eq!(env_entry("PATH").unwrap(), ("PATH".into(), path));
        for bad in ["", "=1", "1A=2", "A B=1", "A-B", "CZ_NO_SUCH_VARIABLE_HERE"] {
            assert!(env_entry(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn paths_are_taken_from_the_base_or_a_variable_and_must_exist() {
        let base = Path::new("/usr");
        assert_eq!(path_entry("bin", base).unwrap(), Path::new("/usr/bin"));
        assert_eq!(path_entry("/usr", base).unwrap(), Path::new("/usr"));
        assert!(path_entry("no-such-folder-cz", base).is_err());
        assert!(path_entry("$CZ_NO_SUCH_VARIABLE_HERE", base).is_err());
        let home = std::env::var("PATH").is_ok();
        assert!(home);
        // The kernel's folders, which a box has its own of: refused, as
        // named or reached through `..`.
        for kernel in ["/dev/shm", "/proc/sys", "/usr/../dev/null", "../run"] {
            let err = path_entry(kernel, base).unwrap_err();
            assert!(
                err.contains("which a box has its own of"),
                "{kernel}: {err}"
            );
        }
    }
}
