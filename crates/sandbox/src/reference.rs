//! The reference, hidden from every box: a candidate that runs or imports
//! an installed copy of the judge gets an error, not an answer.
//!
//! A box sees the system's folders and its interpreter's install, which is
//! where a grader installs the reference: `pip install connectz` puts the
//! packages `connectz` and `connectz_reference` (with the judge compiled
//! in) in a `site-packages` or `dist-packages`, and the commands `connectz`
//! and `cz` in its `bin` (`/usr/local/bin` for the system's Python); `cargo
//! install` puts the `connectz` and `cz` programs in a `bin`. [`installed`]
//! finds every such copy under the folders a box is given, and the grader's
//! own program with the `connectz` beside it; each box then has an empty,
//! read-only folder over a package and `/dev/null` over a program
//! ([`super::isolation`]), and every report names what was hidden.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::{Program, SYSTEM, Sandbox};

/// The reference's importable packages, as a wheel installs them.
const PACKAGES: [&str; 2] = ["connectz", "connectz_reference"];

/// The reference's commands.
const COMMANDS: [&str; 2] = ["connectz", "cz"];

/// Every installed copy of the reference under `roots` (installs a box is
/// given: the system's folders, an interpreter's prefix), and the grader's
/// own program `own` with the `connectz` beside it, where they lie under
/// the roots: the packages and their records in each `site-packages` and
/// `dist-packages`, and the commands in each `bin`. Sorted, each once.
pub fn installed(roots: &[PathBuf], own: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = BTreeSet::new();
    for root in roots {
        for packages in package_folders(root) {
            found.extend(packages_in(&packages));
        }
        for bin in ["bin", "local/bin"].map(|b| root.join(b)) {
            found.extend(commands_in(&bin, own));
        }
    }
    for program in own {
        let beside = program.parent().map(|dir| dir.join("connectz"));
        for path in [Some(program.clone()), beside].into_iter().flatten() {
            if path.is_file() && roots.iter().any(|root| path.starts_with(root)) {
                found.insert(path);
            }
        }
    }
    found.into_iter().collect()
}

/// The folders of packages of an install at `root`: `lib*/python*/` and
/// `local/lib*/python*/`, each `site-packages` and `dist-packages` (Debian's
/// `python3/dist-packages` among them).
fn package_folders(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for lib in [root.to_path_buf(), root.join("local")] {
        let Ok(entries) = fs::read_dir(&lib) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            // A venv's `lib64` is a link to its `lib`: read each folder once.
            if !name.to_string_lossy().starts_with("lib") || entry.path().is_symlink() {
                continue;
            }
            let Ok(pythons) = fs::read_dir(entry.path()) else {
                continue;
            };
            for python in pythons.flatten() {
                if !python.file_name().to_string_lossy().starts_with("python") {
                    continue;
                }
                for kind in ["site-packages", "dist-packages"] {
                    let folder = python.path().join(kind);
                    if folder.is_dir() {
                        out.push(folder);
                    }
                }
            }
        }
    }
    out
}

/// The reference's packages in the folder of packages `folder`: each
/// package, its install record (`connectz-0.1.0.dist-info`), and a `.pth`
/// file of its name (an editable install's).
fn packages_in(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(folder) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            PACKAGES.iter().any(|package| {
                name == *package
                    || name.starts_with(&format!("{package}-"))
                    || name == format!("{package}.pth")
                    || name == format!("_{package}.pth")
            })
        })
        .map(|entry| entry.path())
        .collect()
}

/// The reference's commands in the folder `bin`: a `connectz`, whatever
/// it is, and a `cz` that is the grader's own program or a script that
/// names the reference (a wheel's entry point); another `cz` is someone
/// else's tool, and stays.
fn commands_in(bin: &Path, own: &[PathBuf]) -> Vec<PathBuf> {
    COMMANDS
        .iter()
        .map(|name| bin.join(name))
        .filter(|path| {
            let Ok(meta) = fs::metadata(path) else {
                return false;
            };
            if !meta.is_file() {
                return false;
            }
            if path.file_name().is_some_and(|n| n == "connectz") {
                return true;
            }
            same_file(path, own) || names_the_reference(path)
        })
        .collect()
}

/// True when `path` is one of `own`, or the same file.
fn same_file(path: &Path, own: &[PathBuf]) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = fs::metadata(path) else {
        return false;
    };
    own.iter()
        .any(|o| fs::metadata(o).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino()))
}

/// True when the start of the file at `path` is a script that names one of
/// the reference's packages.
fn names_the_reference(path: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(4096).read_to_end(&mut head).is_err() || !head.starts_with(b"#!") {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    PACKAGES.iter().any(|package| {
        text.contains(&format!("import {package}")) || text.contains(&format!("from {package}"))
    })
}

impl Sandbox {
    /// Hides from every box each installed copy of the reference under the
    /// system's folders and the installs of `programs`' interpreters (all
    /// the candidates to be run), and the grader's own program
    /// ([`installed`]); the isolation line names them. A run
    /// still sees one its program names (a path it is given), and a run
    /// whose command is an installed reference (a class's reference) sees
    /// all of them.
    pub fn hiding_reference(mut self, programs: &[Program]) -> Sandbox {
        if !self.isolation.isolated() {
            return self;
        }
        let mut roots: Vec<PathBuf> = SYSTEM
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_dir() && !p.is_symlink())
            .collect();
        for program in programs {
            roots.extend(self.given(program).into_iter().filter(|p| p.is_dir()));
        }
        // The grader's own program is the supervisor it starts: the running
        // executable may be an interpreter (the Python package runs the
        // toolbox inside `python3`), which the candidates need.
        self.hidden = installed(&roots, std::slice::from_ref(&self.supervisor));
        self.isolation.note_hidden(&self.hidden);
        self
    }

    /// The installed copies of the reference hidden from every box.
    pub fn hidden(&self) -> &[PathBuf] {
        &self.hidden
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An install as pip and cargo leave it, with someone else's `cz`
    /// beside it: every copy of the reference is found, nothing else.
    #[test]
    fn every_installed_copy_is_found() {
        let root = std::env::temp_dir().join(format!("cz-reference-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let site = root.join("lib/python3.11/site-packages");
        let debian = root.join("local/lib/python3.11/dist-packages");
        for dir in [
            site.join("connectz"),
            site.join("connectz_reference"),
            site.join("connectz-0.1.0.dist-info"),
            site.join("numpy"),
            site.join("connectzilla"),
            debian.join("connectz_reference"),
            root.join("bin"),
            root.join("local/bin"),
        ] {
            fs::create_dir_all(&dir).unwrap();
        }
        let script = "#!/usr/bin/python3\nfrom connectz_reference import _cz_command\n";
        fs::write(root.join("bin/connectz"), "\x7fELF").unwrap();
        fs::write(root.join("bin/cz"), script).unwrap();
        fs::write(
            root.join("local/bin/cz"),
            "#!/bin/sh\nexec commitizen \"$@\"\n",
        )
        .unwrap();
        fs::write(root.join("bin/python3"), "").unwrap();
        let own = root.join("tools/cz");
        fs::create_dir_all(own.parent().unwrap()).unwrap();
        fs::write(&own, "").unwrap();
        fs::write(root.join("tools/connectz"), "").unwrap();
        let found = installed(std::slice::from_ref(&root), &[own]);
        let relative: Vec<String> = found
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            relative,
            [
                "bin/connectz",
                "bin/cz",
                "lib/python3.11/site-packages/connectz",
                "lib/python3.11/site-packages/connectz-0.1.0.dist-info",
                "lib/python3.11/site-packages/connectz_reference",
                "local/lib/python3.11/dist-packages/connectz_reference",
                "tools/connectz",
                "tools/cz",
            ]
        );
        // Outside every root the box is given, the grader's own program is
        // not the box's to see, and needs no hiding.
        let elsewhere = installed(&[root.join("lib")], &[root.join("tools/cz")]);
        assert!(elsewhere.iter().all(|p| !p.starts_with(root.join("tools"))));
        fs::remove_dir_all(&root).unwrap();
    }
}
