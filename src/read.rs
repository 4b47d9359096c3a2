//! Entry points: judging bytes in memory, any [`Read`], or a file by path.
//! The only I/O of the library: reading, in chunks, until the verdict is
//! settled.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::findings;
use crate::judge::{Judge, Report};

/// The brief's message for a command line without exactly one file
/// (r[code.args]), byte for byte.
pub const USAGE: &str = "connectz.py: Provide one input file";

/// Judges a whole file held in memory.
pub fn judge_bytes(bytes: &[u8]) -> Report {
    judge_bytes_with(bytes, Judge::new())
}

/// [`judge_bytes`] with a judge of the caller's making.
pub fn judge_bytes_with(bytes: &[u8], mut judge: Judge) -> Report {
    judge.feed(bytes);
    judge.finish()
}

/// Chunk size for reading files.
const CHUNK: usize = 1 << 17;

/// Judges everything `reader` yields, read in chunks, until the verdict is
/// settled (r[resource.settled]): an endless reader gets its verdict once a
/// format fault is seen. A read error is code 9 (r[code.io]).
pub fn judge_reader(reader: impl Read) -> Report {
    judge_reader_with(reader, Judge::new())
}

/// [`judge_reader`] with a judge of the caller's making.
pub fn judge_reader_with(mut reader: impl Read, mut judge: Judge) -> Report {
    // A large buffer when memory allows, else a small one on the stack:
    // never an abort for want of a megabyte.
    let mut heap = Vec::new();
    let mut stack = [0u8; 4096];
    let buffer: &mut [u8] = if heap.try_reserve_exact(CHUNK).is_ok() {
        heap.resize(CHUNK, 0);
        &mut heap
    } else {
        &mut stack
    };
    loop {
        match reader.read(buffer) {
            Ok(0) => return judge.finish(),
            Ok(n) => {
                judge.feed(&buffer[..n]);
                if judge.is_settled() {
                    return judge.finish();
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return unreadable(&e),
        }
    }
}

/// Judges the file at `path`: r[code.io], r[decision.unreadable]: a path that cannot be opened or
/// read (missing, a directory, no permission, an I/O error) is code 9.
pub fn judge_path(path: &Path) -> Report {
    judge_path_with(path, Judge::new())
}

/// The line the `connectz` command prints for its arguments (the
/// program's name left out): the code of the one file given, else the
/// brief's usage message (r[code.output], r[code.args]). The `connectz`
/// binary and the Python package's `connectz` command both print it.
pub fn command_line(args: &[std::ffi::OsString]) -> String {
    match args {
        [path] => judge_path(Path::new(path)).code().to_string(),
        // r[code.args], r[decision.arguments]: the brief's message, byte for
        // byte, to standard out, exit status 0.
        _ => USAGE.to_string(),
    }
}

/// [`judge_path`] with a judge of the caller's making.
pub fn judge_path_with(path: &Path, judge: Judge) -> Report {
    match File::open(path) {
        Ok(file) => judge_reader_with(file, judge),
        Err(e) => unreadable(&e),
    }
}

fn unreadable(error: &io::Error) -> Report {
    Report {
        verdict: findings::unreadable(error.to_string()),
        faults: Vec::new(),
        result: None,
        header: None,
        game: None,
    }
}
