//! Reading the input of a command: a file, or standard input.

use std::fs;
use std::io::{self, BufRead, Read};
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

/// [`read`], but only up to and including the first byte for which `stop`
/// is true: a command whose input cannot go on past such a byte (a NUL in
/// a grid) reports it at once, from its own parser, instead of reading the
/// rest (`/dev/zero` has no end).
///
/// # Errors
/// The file or standard input cannot be read.
pub fn read_until(path: Option<&Path>, stop: impl Fn(u8) -> bool) -> Result<Vec<u8>> {
    let (mut reader, what) = match path {
        Some(p) if p != Path::new("-") => (
            Box::new(io::BufReader::new(
                fs::File::open(p).context(p.display().to_string())?,
            )) as Box<dyn BufRead>,
            p.display().to_string(),
        ),
        _ => (
            Box::new(io::stdin().lock()) as Box<dyn BufRead>,
            "standard input".to_string(),
        ),
    };
    let mut bytes = Vec::new();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context(what),
        };
        if chunk.is_empty() {
            return Ok(bytes);
        }
        if let Some(at) = chunk.iter().position(|&b| stop(b)) {
            bytes.extend_from_slice(&chunk[..=at]);
            return Ok(bytes);
        }
        bytes.extend_from_slice(chunk);
        let n = chunk.len();
        reader.consume(n);
    }
}

/// A byte no text input of `cz board` or `cz rotate` can hold: a control
/// character other than a tab or a line end, or DEL.
pub fn not_text(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f
}

/// A file, or standard input for `-` or no path, to be read a piece at a
/// time.
///
/// # Errors
/// The file cannot be opened.
pub fn open(path: Option<&Path>) -> Result<Box<dyn BufRead>> {
    match path {
        Some(p) if p != Path::new("-") => Ok(Box::new(io::BufReader::new(
            fs::File::open(p).context(p.display().to_string())?,
        ))),
        _ => Ok(Box::new(io::stdin().lock())),
    }
}

/// [`read_until`] [`not_text`], as UTF-8 text: an input with a byte no text
/// holds is refused at that byte.
///
/// # Errors
/// As [`read`], or the input holds a control byte or is not UTF-8.
pub fn read_plain_text(path: Option<&Path>) -> Result<String> {
    let bytes = read_until(path, not_text)?;
    if let Some(&last) = bytes.last()
        && not_text(last)
    {
        return Err(format!(
            "byte {} of the input is 0x{last:02x}, a control character: the input is not text",
            bytes.len()
        )
        .into());
    }
    String::from_utf8(bytes).map_err(|_| "the input is not UTF-8 text".into())
}

/// A line of `input` with at most `keep` of its bytes held: what a command
/// that reads line by line needs, without holding a line of any length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeldLine {
    /// The first bytes of the line (of its first token, for
    /// [`next_token`]), at most `keep`, without the line feed.
    pub kept: Vec<u8>,
    /// The length of what `kept` is the start of, in bytes.
    pub len: u64,
}

impl HeldLine {
    /// True when all of it was kept.
    pub fn whole(&self) -> bool {
        self.kept.len() as u64 == self.len
    }

    /// Its first `shown` bytes as text, then `... (N bytes)` when it is
    /// longer (a non-UTF-8 byte shows as U+FFFD).
    pub fn cut(&self, shown: usize) -> String {
        let head = String::from_utf8_lossy(&self.kept[..self.kept.len().min(shown)]);
        if self.len as usize <= shown && self.whole() {
            head.into_owned()
        } else {
            format!("{head}... ({} bytes)", self.len)
        }
    }
}

/// The next line of `input` (its line feed taken off), keeping at most
/// `keep` bytes and skipping the rest to the next line feed; `None` at the
/// end of the input.
///
/// # Errors
/// Errors of `input`.
pub fn next_line(input: &mut impl BufRead, keep: usize) -> io::Result<Option<HeldLine>> {
    let mut line = HeldLine::default();
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let part = &buf[..end.unwrap_or(buf.len())];
        let room = keep.saturating_sub(line.kept.len()).min(part.len());
        line.kept.extend_from_slice(&part[..room]);
        line.len += part.len() as u64;
        let used = end.map_or(buf.len(), |e| e + 1);
        input.consume(used);
        if end.is_some() {
            return Ok(Some(line));
        }
    }
}

/// The first token (a run of bytes other than ASCII white space) of the next
/// line of `input` that has one, keeping at most `keep` bytes of it and
/// skipping the rest of the line; `None` at the end of the input. Lines
/// without a token are passed over.
///
/// # Errors
/// Errors of `input`.
pub fn next_token(input: &mut impl BufRead, keep: usize) -> io::Result<Option<HeldLine>> {
    let mut token = HeldLine::default();
    // After the token, the rest of its line is skipped.
    let mut ended = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((token.len > 0).then_some(token));
        }
        let mut used = 0;
        for &b in buf {
            used += 1;
            if b == b'\n' {
                if token.len > 0 {
                    input.consume(used);
                    return Ok(Some(token));
                }
                ended = false;
            } else if b.is_ascii_whitespace() {
                ended |= token.len > 0;
            } else if !ended {
                if token.kept.len() < keep {
                    token.kept.push(b);
                }
                token.len += 1;
            }
        }
        input.consume(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line one byte below, at and above what is kept: kept whole up to
    /// `keep`, cut at `keep` past it, its length counted in full, and the
    /// next line read from its start either way (for lines, and for a
    /// token with text after it).
    #[test]
    fn a_line_is_kept_whole_up_to_the_bound_and_cut_past_it() {
        let keep = 64;
        for n in [keep - 1, keep, keep + 1] {
            let text = format!("{}\nb\n", "a".repeat(n));
            let mut input = text.as_bytes();
            let line = next_line(&mut input, keep).unwrap().unwrap();
            assert_eq!(line.whole(), n <= keep, "{n}");
            assert_eq!(line.kept, "a".repeat(n.min(keep)).into_bytes(), "{n}");
            assert_eq!(line.len, n as u64, "{n}");
            let next = next_line(&mut input, keep).unwrap().unwrap();
            assert_eq!((next.kept.as_slice(), next.whole()), (&b"b"[..], true));
            assert!(next_line(&mut input, keep).unwrap().is_none());

            let text = format!("  {} rest\n\nb\n", "a".repeat(n));
            let mut input = text.as_bytes();
            let token = next_token(&mut input, keep).unwrap().unwrap();
            assert_eq!(token.whole(), n <= keep, "{n}");
            assert_eq!(token.kept, "a".repeat(n.min(keep)).into_bytes(), "{n}");
            assert_eq!(token.len, n as u64, "{n}");
            let next = next_token(&mut input, keep).unwrap().unwrap();
            assert_eq!(next.kept, b"b");
            assert!(next_token(&mut input, keep).unwrap().is_none());
        }
    }
}
