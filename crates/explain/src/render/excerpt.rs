//! The offending line of a file that does not conform (code 8): the bytes
//! around its fault, read from the file, and shown as text in a picture.

use std::fmt::Write as _;
use std::io::Read;

use connectz::{Finding, FormatFault, Report};

/// The offending line of a file that does not conform (code 8), as much of
/// it as a picture shows: the bytes around the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// The line's number (1-based).
    pub line: u64,
    /// The bytes shown.
    pub bytes: Vec<u8>,
    /// Index in `bytes` of the byte at fault (`bytes.len()` when the line
    /// ended too early).
    pub marked: usize,
    /// Bytes of the line before and after those shown.
    pub cut: (u64, u64),
}

/// Bytes shown on each side of a fault.
pub(super) const EXCERPT_SIDE: usize = 30;

impl Excerpt {
    /// The excerpt of the line and byte column (both 1-based) at which
    /// `report`'s verdict is a format fault, read from `file`; `None` for
    /// other verdicts or when the file cannot be read.
    pub fn of(report: &Report, file: impl Read) -> Option<Excerpt> {
        let Finding::Format { line, fault } = &report.verdict else {
            return None;
        };
        let column = match fault {
            FormatFault::UnexpectedByte { column, .. }
            | FormatFault::LoneCarriageReturn { column }
            | FormatFault::UnexpectedEnd { column }
            | FormatFault::Zero { column } => *column,
            FormatFault::EmptyFile | FormatFault::EmptyLine => 1,
        };
        Excerpt::find(file, *line, column)
    }

    /// Reads `file` to byte `column` of line `line` (both 1-based), keeping
    /// only the bytes around it.
    pub fn find(file: impl Read, line: u64, column: usize) -> Option<Excerpt> {
        let (first, last) = (
            column.saturating_sub(EXCERPT_SIDE + 1),
            column + EXCERPT_SIDE,
        );
        let mut current = 1u64;
        let mut at = 0usize;
        let mut bytes = Vec::new();
        let mut after = 0u64;
        for byte in std::io::BufReader::new(file).bytes() {
            let byte = byte.ok()?;
            if current > line {
                break;
            }
            if byte == b'\n' {
                if current == line {
                    break;
                }
                current += 1;
                continue;
            }
            if current == line {
                if (first..last).contains(&at) {
                    bytes.push(byte);
                } else if at >= last {
                    after += 1;
                    // Enough is known once the excerpt is full.
                    if after > 4096 {
                        break;
                    }
                }
                at += 1;
            }
        }
        (current == line).then(|| Excerpt {
            line,
            marked: (column - 1 - first).min(bytes.len()),
            cut: (first as u64, after),
            bytes,
        })
    }
}

/// The excerpt of a bad line as text: its caption and its three parts.
pub(super) type ExcerptText = (String, [String; 3]);

/// The excerpt as text: its caption, and the line shown in three parts:
/// before the fault, the faulty byte, after it. Printable bytes show as
/// themselves, a space as a middle dot, others escaped.
pub(super) fn excerpt_text(e: &Excerpt) -> ExcerptText {
    let show = |bytes: &[u8]| -> String {
        let mut out = String::new();
        for &b in bytes {
            match b {
                b' ' => out.push('\u{b7}'),
                0x21..=0x7e => out.push(char::from(b)),
                b'\r' => out.push_str("\\r"),
                b'\t' => out.push_str("\\t"),
                b => {
                    let _ = write!(out, "\\x{b:02x}");
                }
            }
        }
        out
    };
    let marked = e.marked.min(e.bytes.len());
    let mut before = show(&e.bytes[..marked]);
    if e.cut.0 > 0 {
        before.insert_str(0, "...");
    }
    // A line that ended too early is marked where a byte was wanted.
    let fault = match e.bytes.get(marked) {
        Some(_) => show(&e.bytes[marked..=marked]),
        None => "_".to_string(),
    };
    let mut after = show(e.bytes.get(marked + 1..).unwrap_or(&[]));
    if e.cut.1 > 0 {
        after.push_str("...");
    }
    let caption = format!(
        "line {} as written (a space as \u{b7}), the fault in colour{}",
        e.line,
        if e.cut.0 + e.cut.1 > 0 {
            format!(
                " ({} bytes before and {} after not shown)",
                e.cut.0,
                if e.cut.1 > 4096 {
                    "more than 4096".to_string()
                } else {
                    e.cut.1.to_string()
                }
            )
        } else {
            String::new()
        }
    );
    (caption, [before, fault, after])
}
