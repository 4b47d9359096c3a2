//! Reading the input of a command: a file, or standard input.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use crate::error::{Context, Result};

/// A file's bytes, or standard input's for `-` or no path.
///
/// # Errors
/// The file or standard input cannot be read.
pub fn read(path: Option<&Path>) -> Result<Vec<u8>> {
    match path {
        Some(p) if p != Path::new("-") => fs::read(p).context(p.display().to_string()),
        _ => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .context("standard input")?;
            Ok(bytes)
        }
    }
}

/// [`read`], as UTF-8 text.
///
/// # Errors
/// As [`read`], or the bytes are not UTF-8.
pub fn read_text(path: Option<&Path>) -> Result<String> {
    String::from_utf8(read(path)?).map_err(|_| "the input is not UTF-8 text".into())
}
