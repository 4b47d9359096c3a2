//! What a run is: a candidate's program, the folder it runs in, and what
//! its box is given beyond the system's folders ([`Program`]); and where its
//! interpreter lives ([`Interpreter`]), found from the command as the
//! grader's `PATH` finds it, so that a box runs the interpreter the grader
//! named (a pyenv or a venv under a home folder included), and sees its
//! install and nothing else of that home. Only a bare name found on the
//! grader's `PATH` is looked into (asked where it lives, its `#!` line
//! read): a program named by a path may be a candidate's, and is run as it
//! is, in the box, never on the machine.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

/// A program to run: the folder it runs in, its command, and what its box
/// is given beyond the system's folders and the program's own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Program {
    /// The folder it runs in (else the grader's own).
    pub dir: Option<PathBuf>,
    /// Program and leading arguments.
    pub command: Vec<OsString>,
    /// Variables of its environment, beyond the box's own (`PATH`, `HOME`,
    /// `LANG`): name and value.
    pub env: Vec<(OsString, OsString)>,
    /// Files and folders given to its box read-only, at their own paths.
    pub paths: Vec<PathBuf>,
}

impl Program {
    /// A program run in `dir` (else the grader's folder), with nothing
    /// given beyond its own.
    pub fn new(dir: Option<&Path>, command: &[OsString]) -> Program {
        Program {
            dir: dir.map(Path::to_path_buf),
            command: command.to_vec(),
            env: Vec::new(),
            paths: Vec::new(),
        }
    }
}

/// The folders of the system a box is given whole, read-only (or as the
/// symbolic links they are, on a system whose `/bin` is `/usr/bin`).
pub const SYSTEM: [&str; 7] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
];

/// What a box is given of `/etc`: what the loader, the C library and an
/// interpreter read (no secret of the machine's: not `shadow`, not keys).
/// Each is a bind of the box's, which costs its start: no more than these.
pub const ETC: [&str; 6] = [
    "/etc/ld.so.cache",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
];

/// True when `path` lies in a folder of [`SYSTEM`].
pub fn in_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
}

/// The kernel's folders: a box has its own `/proc`, `/dev` and `/run`, and
/// no `/sys`; none is ever bound from the host.
pub const KERNEL: [&str; 4] = ["/proc", "/sys", "/dev", "/run"];

/// The kernel's folder `path` lies in (with `..` taken out as written), if
/// any: what a box never has of the host's, so a candidate's folder or a
/// path given there cannot be.
pub fn in_kernel(path: &Path) -> Option<&'static str> {
    let path = lexical(path);
    KERNEL.into_iter().find(|k| path.starts_with(k))
}

/// Where a command's interpreter is: the program the box runs, and the
/// folders it needs outside the system's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interpreter {
    /// The program as the box runs it: an absolute path, or the word as
    /// given when the grader's `PATH` does not find it.
    pub program: OsString,
    /// Install folders outside the system's that it needs (a pyenv
    /// version, a venv and the Python it was made from).
    pub prefixes: Vec<PathBuf>,
}

/// How long asking an interpreter where it lives may take.
const PROBE: Duration = Duration::from_secs(20);

/// Interpreters found, by program word (each is asked once per process).
static FOUND: Mutex<Option<HashMap<OsString, Interpreter>>> = Mutex::new(None);

/// The interpreter of `word` (a command's first word) run in `dir`: a
/// word with a `/` is a path (from `dir`), left as it is (in the system's
/// folders, as the absolute path it is); a bare word is looked up on the
/// grader's `PATH`, and given with its install folder. A Python (`python`,
/// `python3`, `python3.12`) outside the system's folders is asked, in
/// isolated mode and from `/`, for its executable and prefixes: a pyenv
/// shim or a venv is run as the interpreter it stands for, with its
/// install given.
pub fn interpreter(word: &OsStr, dir: &Path) -> Interpreter {
    let key = {
        let mut k = dir.as_os_str().to_os_string();
        k.push("\0");
        k.push(word);
        k
    };
    if let Some(found) = FOUND
        .lock()
        .ok()
        .and_then(|f| f.as_ref().and_then(|m| m.get(&key).cloned()))
    {
        return found;
    }
    let found = find_interpreter(word, dir, 0, false);
    if let Ok(mut f) = FOUND.lock() {
        f.get_or_insert_with(HashMap::new)
            .insert(key, found.clone());
    }
    found
}

/// [`interpreter`], `depth` scripts' `#!` lines in; `trusted` when `word`
/// comes from the `#!` line of a program found on the grader's `PATH`.
/// Only such a program, or one found there itself, is asked where it lives
/// or has its `#!` line read: a path the command names may be a
/// candidate's (`/class/eve/venv/bin/python3`, `../eve/connectz`), and is
/// run as it is, in the box.
fn find_interpreter(word: &OsStr, dir: &Path, depth: u8, trusted: bool) -> Interpreter {
    let as_given = Interpreter {
        program: word.to_os_string(),
        prefixes: Vec::new(),
    };
    if depth > 4 {
        return as_given;
    }
    let named = word.as_encoded_bytes().contains(&b'/');
    let path = if named {
        dir.join(word)
    } else {
        match on_path(word) {
            Some(path) => path,
            None => return as_given,
        }
    };
    let Ok(real) = path.canonicalize() else {
        return as_given;
    };
    let system = in_system(&path) && in_system(&real);
    if named {
        // In the candidate's own folder, which the box has, as written or
        // where its links lead: run as it is, in the box. Never run on the
        // machine (a venv's Python there reads the venv's `.pth` files, the
        // candidate's code) and never followed out of the folder (a link
        // to the reference, or to a classmate's program, must not bring
        // its folder into the box).
        let mine = lexical(&path).starts_with(lexical(dir))
            || dir.canonicalize().map_or(true, |dir| real.starts_with(dir));
        if mine || !(trusted || system) {
            return as_given;
        }
    }
    if system {
        return Interpreter {
            program: path.into_os_string(),
            prefixes: Vec::new(),
        };
    }
    if is_python(word)
        && let Some(found) = ask_python(&path)
    {
        return found;
    }
    // Another program outside the system's folders: its install, the
    // folder above `bin`, or its own folder; and, for a script, its
    // interpreter's (a venv's console script names the venv's Python,
    // itself a link into the install it was made from).
    let folder = real.parent().unwrap_or(Path::new("/"));
    let prefix = if folder.file_name() == Some(OsStr::new("bin")) {
        folder.parent().unwrap_or(folder)
    } else {
        folder
    };
    let mut prefixes = vec![prefix.to_path_buf()];
    if let Some(words) = shebang(&real) {
        let inner = match words.as_slice() {
            [env, name, ..] if Path::new(env).file_name() == Some(OsStr::new("env")) => {
                Some(find_interpreter(OsStr::new(name), dir, depth + 1, true))
            }
            [program, ..] if Path::new(program).is_absolute() && Path::new(program) != real => {
                Some(find_interpreter(OsStr::new(program), dir, depth + 1, true))
            }
            _ => None,
        };
        if let Some(inner) = inner {
            prefixes.extend(inner.prefixes);
        }
    }
    Interpreter {
        program: real.clone().into_os_string(),
        prefixes: outside_system(&prefixes),
    }
}

/// The words of a script's `#!` line: its interpreter and argument. Only
/// a regular file is read, opened without blocking (a FIFO or a terminal
/// would wait for a writer forever).
fn shebang(path: &Path) -> Option<Vec<String>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut head = [0u8; 256];
    let n = file.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n')?];
    let words: Vec<String> = std::str::from_utf8(line)
        .ok()?
        .split_whitespace()
        .map(String::from)
        .collect();
    (!words.is_empty()).then_some(words)
}

/// True for `python`, `python3`, `python3.12` (the name, not the path).
pub fn is_python(word: &OsStr) -> bool {
    let name = Path::new(word)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    name.strip_prefix("python").is_some_and(|version| {
        version.is_empty()
            || version
                .split('.')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
    })
}

/// Asks the Python at `path` where it lives: its executable, prefix and
/// base prefix, in isolated mode (`-I`: no variable, no user site, not the
/// current folder), from `/`, with no input.
fn ask_python(path: &Path) -> Option<Interpreter> {
    let mut child = Command::new(path)
        .args([
            "-I",
            "-c",
            "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)",
        ])
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let stdout = child.stdout.take()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::Read;
        let mut text = String::new();
        let _ = stdout.take(1 << 16).read_to_string(&mut text);
        let _ = tx.send(text);
    });
    let text = rx.recv_timeout(PROBE).ok();
    let _ = child.kill();
    let _ = child.wait();
    let text = text?;
    let lines: Vec<&str> = text.lines().collect();
    let [exe, prefix, base] = lines[..] else {
        return None;
    };
    let exe = PathBuf::from(exe);
    if !exe.is_absolute() || !exe.is_file() {
        return None;
    }
    let mut folders = vec![PathBuf::from(prefix), PathBuf::from(base)];
    // A venv's executable may be a link into another install.
    if let Ok(real) = exe.canonicalize()
        && let Some(install) = real.parent().and_then(Path::parent)
    {
        folders.push(install.to_path_buf());
    }
    Some(Interpreter {
        program: exe.into_os_string(),
        prefixes: outside_system(&folders),
    })
}

/// The absolute folders of `folders` outside the system's, each once,
/// canonical.
fn outside_system(folders: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for folder in folders {
        let Ok(real) = folder.canonicalize() else {
            continue;
        };
        if real.is_absolute() && real != Path::new("/") && !in_system(&real) && !out.contains(&real)
        {
            out.push(real);
        }
    }
    out
}

/// `path` with `.` and `..` taken out as written (`/tmp/a/../b` is
/// `/tmp/b`; `..` at the root stays at the root), as the kernel follows a
/// path through folders that hold no links (those bubblewrap makes).
pub(crate) fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.parent().is_some() {
                    out.pop();
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The first link among the components of `entry` (taken from `base` when
/// relative) as written, but those that lead to `base` or a folder above it
/// (the grader's), with where it points; `None` when there is none. A
/// folder named through a link in a class (`eve/src` or
/// `/class/eve/src`, a link to `../bob/src` or to `/`) is a candidate's
/// choice of what its box sees, not the grader's.
pub fn named_link(base: &Path, entry: &Path) -> Option<(PathBuf, PathBuf)> {
    use std::path::Component;
    let base = std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf());
    let above = lexical(&base);
    let mut at = if entry.is_absolute() {
        PathBuf::new()
    } else {
        base.clone()
    };
    for part in entry.components() {
        if matches!(part, Component::CurDir) {
            continue;
        }
        at.push(part);
        if matches!(part, Component::Normal(_))
            && !above.starts_with(lexical(&at))
            && let Ok(meta) = std::fs::symlink_metadata(&at)
            && meta.file_type().is_symlink()
        {
            let to = std::fs::read_link(&at).unwrap_or_default();
            return Some((at, to));
        }
    }
    None
}

/// A program found on the grader's `PATH`.
pub fn on_path(name: &OsStr) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| {
                p.is_absolute()
                    && p.metadata()
                        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pythons_are_told_by_name() {
        for yes in ["python", "python3", "python3.12", "/x/bin/python3.11"] {
            assert!(is_python(OsStr::new(yes)), "{yes}");
        }
        for no in ["pythonw", "python3.", "python3.x", "py", "sh", "ipython3"] {
            assert!(!is_python(OsStr::new(no)), "{no}");
        }
    }

    /// `sh` is the system's and stays there; a word not on the path is
    /// left as it is; a path in the candidate's folder too.
    #[test]
    fn system_programs_need_nothing_more() {
        let sh = interpreter(OsStr::new("sh"), Path::new("/"));
        assert!(Path::new(&sh.program).is_absolute(), "{sh:?}");
        assert!(sh.prefixes.is_empty(), "{sh:?}");
        let none = interpreter(OsStr::new("no-such-program-cz"), Path::new("/"));
        assert_eq!(none.program, "no-such-program-cz");
        let own = interpreter(OsStr::new("./connectz"), Path::new("/tmp"));
        assert_eq!(own.program, "./connectz");
        assert!(own.prefixes.is_empty());
    }

    /// A scratch folder of its own for a test of this module.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cz-program-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A program in the candidate's folder is run as it is, in the box:
    /// never on the machine (a "Python" there that writes a file when run
    /// is not run), and never followed out of the folder (a link to a
    /// program elsewhere brings in no folder of that program's).
    #[test]
    fn a_candidates_own_program_is_never_run_nor_followed() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let root = scratch("own");
        let dir = root.join("dir");
        let bin = dir.join("venv/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let ran = root.join("ran");
        let fake = root.join("elsewhere/python3");
        std::fs::create_dir_all(fake.parent().unwrap()).unwrap();
        std::fs::write(&fake, format!("#!/bin/sh\ntouch {}\n", ran.display())).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        symlink(&fake, bin.join("python3")).unwrap();
        symlink("/usr/bin/true", dir.join("judge")).unwrap();
        let candidate = dir.join("candidate");
        std::fs::create_dir(&candidate).unwrap();
        symlink("../venv", candidate.join("venv")).unwrap();
        for (word, at) in [
            ("venv/bin/python3", &dir),
            ("./judge", &dir),
            ("venv/bin/python3", &candidate),
        ] {
            let found = find_interpreter(OsStr::new(word), at, 0, false);
            assert_eq!(found.program, word);
            assert!(found.prefixes.is_empty(), "{word}: {found:?}");
        }
        let absolute = bin.join("python3");
        let found = find_interpreter(absolute.as_os_str(), &dir, 0, false);
        assert_eq!(found.program, absolute.as_os_str());
        // Named from elsewhere (the grader's folder, no `dir`), by an
        // absolute path or through `..`, directly or by a script's `#!`
        // line: the same.
        let script = dir.join("connectz");
        std::fs::write(&script, format!("#!{}\n", fake.display())).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let grader = root.join("grader");
        std::fs::create_dir(&grader).unwrap();
        for word in [
            script.as_os_str(),
            OsStr::new("../dir/connectz"),
            OsStr::new("../dir/venv/bin/python3"),
            fake.as_os_str(),
        ] {
            let found = find_interpreter(word, &grader, 0, false);
            assert_eq!(found.program, word);
            assert!(found.prefixes.is_empty(), "{word:?}: {found:?}");
        }
        assert!(!ran.exists(), "a candidate's program ran on the machine");
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A `#!` line is read from a regular file only: a FIFO (which would
    /// wait for a writer) is not opened to wait.
    #[test]
    fn a_fifo_is_not_read_for_a_shebang() {
        let dir = scratch("fifo");
        let fifo = dir.join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        assert_eq!(shebang(&fifo), None);
        let script = dir.join("script");
        std::fs::write(&script, "#!/usr/bin/env python3\n").unwrap();
        assert_eq!(
            shebang(&script),
            Some(vec!["/usr/bin/env".to_string(), "python3".to_string()])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The first link among the components an entry names itself (after
    /// its leading `..`), found; none in the folders above.
    #[test]
    fn links_an_entry_names_are_found() {
        use std::os::unix::fs::symlink;
        let dir = scratch("links");
        let class = dir.join("class");
        std::fs::create_dir_all(class.join("bob/src")).unwrap();
        std::fs::create_dir_all(class.join("eve")).unwrap();
        symlink("../bob/src", class.join("eve/src")).unwrap();
        symlink("/", class.join("root")).unwrap();
        symlink(&class, dir.join("above")).unwrap();
        let base = dir.join("above");
        assert_eq!(named_link(&base, Path::new("bob/src")), None);
        assert_eq!(named_link(&base, Path::new("./bob/./src")), None);
        assert_eq!(
            named_link(&base, Path::new("eve/src")),
            Some((base.join("eve/src"), PathBuf::from("../bob/src")))
        );
        assert_eq!(
            named_link(&base, Path::new("root/tmp")),
            Some((base.join("root"), PathBuf::from("/")))
        );
        let m = base.join("bob");
        assert_eq!(
            named_link(&m, Path::new("../eve/src/x")),
            Some((m.join("../eve/src"), PathBuf::from("../bob/src")))
        );
        assert_eq!(named_link(&m, Path::new("../bob")), None);
        assert_eq!(named_link(&base, Path::new("/etc")), None);
        // Absolute, the same below the base; the links above it (`above`
        // itself) are the grader's.
        assert_eq!(
            named_link(&base, &base.join("eve/src/x")),
            Some((base.join("eve/src"), PathBuf::from("../bob/src")))
        );
        assert_eq!(named_link(&m, &base.join("bob/src")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The grader's `python3` is run as itself: an absolute executable
    /// that exists, with its install given when it lies outside the
    /// system's folders.
    #[test]
    fn python_is_found_as_the_grader_finds_it() {
        let Some(on) = on_path(OsStr::new("python3")) else {
            return;
        };
        let found = interpreter(OsStr::new("python3"), Path::new("/"));
        let exe = Path::new(&found.program);
        assert!(exe.is_absolute() && exe.is_file(), "{found:?}");
        if !in_system(&on.canonicalize().unwrap()) {
            assert!(
                found
                    .prefixes
                    .iter()
                    .any(|p| exe.starts_with(p) || exe.canonicalize().unwrap().starts_with(p)),
                "{found:?}"
            );
        }
    }
}
