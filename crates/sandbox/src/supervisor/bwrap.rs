//! How the supervisor starts bubblewrap: its options on a descriptor, its
//! system-call filter on others, its environment empty.

use std::ffi::OsString;
use std::fs;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use nix::fcntl::{FcntlArg, FdFlag, OFlag, fcntl};

use super::SupervisedRun;
use crate::isolation::BOX_UID_BASE;

/// Bubblewrap's arguments and descriptors: the box's own arguments
/// (`plan.args`) and the descriptors of its first pid and its system-call
/// filter, given to bubblewrap on a descriptor (`--args`), not on its
/// command line: the box's first process is bubblewrap's, and its command
/// line is what `/proc/1/cmdline` shows in the box, which must name no
/// path or process of the grader's. Its environment is emptied for the
/// same reason (`/proc/1/environ`). Returns the pipe of the box's first
/// pid (its two ends) and the descriptors bubblewrap inherits, to be
/// closed once it is started.
pub(super) fn box_arguments(
    command: &mut Command,
    plan: &SupervisedRun,
) -> Result<((OwnedFd, OwnedFd), Vec<OwnedFd>), String> {
    // Bubblewrap writes the box's first pid on an inherited descriptor,
    // and closes it in the box; it reads each program of the box's
    // system-call filter from another, and its arguments from another.
    let mut inherited = Vec::new();
    let mut words: Vec<OsString> = Vec::new();
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe: {e}"))?;
    fcntl(&write, FcntlArg::F_SETFD(FdFlag::empty())).map_err(|e| format!("pipe: {e}"))?;
    words.push("--info-fd".into());
    words.push(write.as_raw_fd().to_string().into());
    for program in crate::seccomp::filter().unwrap_or_default() {
        let (filter_read, filter_write) =
            nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| format!("pipe: {e}"))?;
        fcntl(&filter_read, FcntlArg::F_SETFD(FdFlag::empty()))
            .map_err(|e| format!("pipe: {e}"))?;
        // Within a page (seccomp's tests hold it): within any pipe's buffer.
        let mut feed = fs::File::from(filter_write);
        std::io::Write::write_all(&mut feed, program).map_err(|e| format!("filter: {e}"))?;
        drop(feed);
        words.push("--add-seccomp-fd".into());
        words.push(filter_read.as_raw_fd().to_string().into());
        inherited.push(filter_read);
    }
    // The options go on the descriptor; the command after `--` stays on
    // the command line, as bubblewrap wants it: the box's own program,
    // its arguments and game file as the box names them.
    let command_at = plan
        .args
        .iter()
        .position(|word| word == "--")
        .unwrap_or(plan.args.len());
    words.extend(plan.args[..command_at].iter().cloned());
    let args = arguments_file(&words)?;
    command
        .env_clear()
        .arg("--args")
        .arg(args.as_raw_fd().to_string())
        .args(&plan.args[command_at..]);
    inherited.push(args);
    if plan.own_user {
        let id = BOX_UID_BASE + std::process::id();
        command.uid(id).gid(id);
    }
    // Bubblewrap's folder (it changes to the box's own).
    command.current_dir("/");
    Ok(((read, write), inherited))
}

/// A file of `words`, each ended by a NUL, as bubblewrap's `--args` reads
/// them: an anonymous file in memory (no size limit of a pipe's, no name
/// on a disk), its descriptor inherited and read from its start.
fn arguments_file(words: &[OsString]) -> Result<OwnedFd, String> {
    use std::io::{Seek, SeekFrom, Write};
    use std::os::unix::ffi::OsStrExt;
    let fd = nix::sys::memfd::memfd_create("cz-box-args", nix::sys::memfd::MFdFlags::empty())
        .map_err(|e| format!("arguments: {e}"))?;
    let mut file = fs::File::from(fd);
    let mut bytes = Vec::new();
    for word in words {
        bytes.extend_from_slice(word.as_bytes());
        bytes.push(0);
    }
    file.write_all(&bytes)
        .and_then(|()| file.seek(SeekFrom::Start(0)).map(drop))
        .map_err(|e| format!("arguments: {e}"))?;
    Ok(OwnedFd::from(file))
}
