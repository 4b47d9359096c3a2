//! The grammar's fast forms held to the grammar, line by line: the body of
//! the `parse` fuzz target's direct differential.
//!
//! The nom grammar (`connectz::grammar`) is the one statement of the format
//! in code. The judge reads lines in faster forms too, reached here through
//! the core's `test-hooks` feature (`connectz::hooks`): the byte
//! scanners of its fast path (`plain_move`, `skim_lines`, `plain_lines`)
//! and `Prefix`, the byte-at-a-time form, as the judge uses it through
//! `Partial` for a line that spans chunks. [`check`] takes every line of an
//! input (and the whole input as one line) and requires of each form what
//! the grammar gives: the same value, or the same fault at the same byte.

use connectz::FormatFault;
use connectz::grammar::{parse_header, parse_move};
use connectz::hooks;

/// A line of the input: where it starts, its bytes (line feed removed) and
/// whether a line feed ended it.
struct InputLine<'a> {
    start: usize,
    bytes: &'a [u8],
    terminated: bool,
}

/// The lines of `data`, split at line feeds as the judge splits them.
fn input_lines(data: &[u8]) -> Vec<InputLine<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < data.len() {
        match memchr(data, start) {
            Some(end) => {
                lines.push(InputLine {
                    start,
                    bytes: &data[start..end],
                    terminated: true,
                });
                start = end + 1;
            }
            None => {
                lines.push(InputLine {
                    start,
                    bytes: &data[start..],
                    terminated: false,
                });
                start = data.len();
            }
        }
    }
    lines
}

fn memchr(data: &[u8], from: usize) -> Option<usize> {
    data[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| from + i)
}

/// What the grammar says of a line's content read as line 1 or as a move
/// line: the fault, if any.
fn grammar_fault(content: &[u8], header: bool) -> Option<FormatFault> {
    match header {
        true => parse_header(content).err(),
        false => parse_move(content).err(),
    }
}

/// Holds every fast form of the grammar to the grammar on the lines of
/// `data` and on `data` as one line; `chunks` are the sizes a line that
/// spans chunks arrives in.
///
/// # Panics
/// On the first disagreement, with the line and what each form said.
pub fn check(data: &[u8], chunks: &[usize]) {
    let lines = input_lines(data);
    let whole = InputLine {
        start: 0,
        bytes: data,
        terminated: false,
    };
    let mut copy = Vec::new();
    for (index, line) in lines.iter().chain([&whole]).enumerate() {
        let keep = chunks
            .get(index % chunks.len().max(1))
            .copied()
            .unwrap_or(1);
        for header in [true, false] {
            prefix(line.bytes, header);
            partial(line, header, keep, chunks);
        }
        if index < lines.len() {
            plain_move(data, line);
            // The line alone, so the scanner meets the end of its bytes.
            copy.clear();
            copy.extend_from_slice(line.bytes);
            if line.terminated {
                copy.push(b'\n');
            }
            let alone = InputLine {
                start: 0,
                bytes: line.bytes,
                terminated: line.terminated,
            };
            plain_move(&copy, &alone);
        }
    }
    let small = chunks.first().map_or(1, |&n| (n % 10).max(1) as u64);
    for limit in [small, 12, u64::MAX] {
        skim_lines(data, &lines, limit);
    }
    for (max, block) in [(small, 7), (9, 16), (u64::MAX, 5), (u64::MAX, 64)] {
        plain_lines(data, &lines, max, block);
    }
}

/// The content the grammar reads: the line without its terminator.
fn content<'a>(line: &InputLine<'a>) -> &'a [u8] {
    match line.terminated {
        true => line.bytes.strip_suffix(b"\r").unwrap_or(line.bytes),
        false => line.bytes,
    }
}

/// What `plain_move` must answer for `line` (at its start in `bytes`): its
/// value and the index past its terminator exactly when the grammar takes
/// it as a move, it has at most 19 digits and it is terminated.
fn expected_plain_move(line: &InputLine<'_>) -> Option<(u64, usize)> {
    let content = content(line);
    let value = parse_move(content).ok()?;
    if !line.terminated || content.len() > 19 {
        return None;
    }
    let value = value.to_u64()?;
    Some((value, line.start + line.bytes.len() + 1))
}

fn plain_move(bytes: &[u8], line: &InputLine<'_>) {
    let scanned = hooks::plain_move(bytes, line.start);
    let expected = expected_plain_move(line);
    assert_eq!(
        scanned,
        expected,
        "plain_move on {:?} (at {} of {:?}): the grammar says {:?}",
        line.bytes.escape_ascii().to_string(),
        line.start,
        bytes.escape_ascii().to_string(),
        parse_move(content(line)),
    );
}

/// `Prefix` refuses a byte exactly where the grammar reports a fault at
/// that byte (a byte out of place or a carriage return, which is the
/// caller's), and the grammar finds that fault in the line cut there; when
/// it takes every byte, the grammar finds no byte out of place.
fn prefix(line: &[u8], header: bool) {
    let whole = grammar_fault(line, header);
    let context = || {
        format!(
            "Prefix on {:?} as {}: the grammar says {whole:?}",
            line.escape_ascii().to_string(),
            if header { "line 1" } else { "a move line" }
        )
    };
    match hooks::prefix_refuses(line, header) {
        Some(at) => {
            let cut = grammar_fault(&line[..=at], header);
            assert_eq!(cut, whole, "{} (cut at {at})", context());
            assert!(
                matches!(
                    whole,
                    Some(FormatFault::UnexpectedByte { column, .. }
                        | FormatFault::LoneCarriageReturn { column })
                        if column == at + 1
                ),
                "{} (refused at {at})",
                context()
            );
        }
        None => assert!(
            !matches!(
                whole,
                Some(FormatFault::UnexpectedByte { .. } | FormatFault::LoneCarriageReturn { .. })
            ),
            "{} (took every byte)",
            context()
        ),
    }
}

/// A line pushed through `Partial` in chunks gives the grammar's fault at
/// the same byte; a line that conforms keeps the same header, or a column's
/// first `keep` significant digits.
fn partial(line: &InputLine<'_>, header: bool, keep: usize, chunks: &[usize]) {
    let content = content(line);
    let kept = hooks::partial_line(line.bytes, line.terminated, header, keep, chunks);
    let context = || {
        format!(
            "Partial on {:?} as {}, terminated {}, keeping {keep} digits, chunks {chunks:?}",
            line.bytes.escape_ascii().to_string(),
            if header { "line 1" } else { "a move line" },
            line.terminated
        )
    };
    match (grammar_fault(content, header), kept) {
        (Some(fault), Err(located)) => assert_eq!(located, fault, "{}", context()),
        (None, Ok(kept)) if header => {
            assert_eq!(parse_header(&kept), parse_header(content), "{}", context());
        }
        (None, Ok(kept)) => {
            let significant = |digits: &[u8]| -> Vec<u8> {
                digits.iter().copied().skip_while(|&d| d == b'0').collect()
            };
            let full = significant(content);
            let leading = &full[..full.len().min(keep.max(1))];
            assert_eq!(significant(&kept), leading, "{}", context());
        }
        (expected, got) => panic!(
            "{}: the grammar says {expected:?}, Partial {got:?}",
            context()
        ),
    }
}

/// From the second line on (where the judge skims), `skim_lines` takes
/// exactly the run of lines `plain_move` takes with a value at most
/// `limit`; each time it stops, it is started again at the next line.
fn skim_lines(data: &[u8], lines: &[InputLine<'_>], limit: u64) {
    let mut i = 1;
    while i < lines.len() {
        let start = lines[i].start;
        let rest = &data[start..];
        let (bytes, count) = hooks::skim_lines(rest, rest.len(), limit);
        let mut expected_bytes = 0;
        let mut expected_count = 0;
        while i < lines.len() {
            match expected_plain_move(&lines[i]) {
                Some((value, end)) if value <= limit => {
                    expected_bytes = end - start;
                    expected_count += 1;
                    i += 1;
                }
                _ => break,
            }
        }
        assert_eq!(
            (bytes, count),
            (expected_bytes, expected_count),
            "skim_lines up to {limit} from {start} of {:?}",
            data.escape_ascii().to_string()
        );
        i += 1;
    }
}

/// `plain_lines` in blocks of `block` bytes from a line's start, block
/// after block while it vouches for them: every line ending in what it
/// vouched for conforms (a column at most `max` when `max` is a digit), and
/// each block's count is its line feeds. After the first block it declines,
/// it starts again at the next line.
fn plain_lines(data: &[u8], lines: &[InputLine<'_>], max: u64, block: usize) {
    let single_digit = max <= 9;
    let max_digit = if single_digit { b'0' + max as u8 } else { b'9' };
    let mut i = 1;
    while i < lines.len() {
        let start = lines[i].start;
        let mut pos = start;
        while pos < data.len() {
            let end = (pos + block).min(data.len());
            let prev = if pos == start { b'\n' } else { data[pos - 1] };
            let Some(feeds) = hooks::plain_lines(&data[pos..end], prev, max_digit, single_digit)
            else {
                break;
            };
            let in_block = data[pos..end].iter().filter(|&&b| b == b'\n').count();
            assert_eq!(feeds, in_block as u64, "plain_lines counts line feeds");
            pos = end;
        }
        // The lines that end in the bytes vouched for.
        while i < lines.len() && lines[i].terminated && lines[i].start + lines[i].bytes.len() < pos
        {
            let line = &lines[i];
            let value = parse_move(content(line));
            let fits = match &value {
                Ok(value) => !single_digit || value.to_u64().is_some_and(|v| v <= max),
                Err(_) => false,
            };
            assert!(
                fits,
                "plain_lines (max {max_digit}, single digit {single_digit}, blocks of {block}) \
                 vouched for {:?} at {}: the grammar says {value:?}",
                line.bytes.escape_ascii().to_string(),
                line.start
            );
            i += 1;
        }
        // Past the line where it declined.
        while i < lines.len() && lines[i].start <= pos {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connectz_rng::Rng;

    /// Random files over an alphabet of near misses: every form agrees with
    /// the grammar on each of their lines.
    #[test]
    fn every_form_agrees_with_the_grammar_on_near_misses() {
        let mut rng = Rng::new(0x6a3);
        let alphabet = b"0123456789\n\n\n\r 00x";
        for _ in 0..20_000 {
            let len = rng.below(60) as usize;
            let data: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let chunks: Vec<usize> = (0..3).map(|_| 1 + rng.below(5) as usize).collect();
            check(&data, &chunks);
        }
    }

    /// The `parse` target's committed corpus, through this differential
    /// alone (`tests/oracle.rs` in the core replays it through the whole
    /// target).
    #[test]
    fn the_parse_corpus_replays() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/parse");
        let mut replayed = 0;
        for entry in std::fs::read_dir(&dir).expect("the parse corpus") {
            let path = entry.expect("a corpus entry").path();
            let data = std::fs::read(&path).expect("a corpus file");
            let sizes: Vec<usize> = data
                .iter()
                .take(4)
                .map(|&b| usize::from(b % 17) + 1)
                .collect();
            let caught = std::panic::catch_unwind(|| check(&data, &sizes));
            assert!(caught.is_ok(), "{}", path.display());
            replayed += 1;
        }
        assert!(replayed > 100, "replayed only {replayed} files");
    }

    /// r[format.positive]: a line's shape is faulted before a zero in it,
    /// by every form of the grammar.
    #[test]
    fn a_zero_before_a_byte_out_of_place() {
        for data in [&b"0 6 x\n"[..], b"0 x 6\n", b"x 0 6", b"0 6 4\n0x\n1\n"] {
            check(data, &[1, 2]);
        }
        let x_at = |column| FormatFault::UnexpectedByte { byte: b'x', column };
        assert_eq!(
            hooks::partial_line(b"0 6 x", true, true, 1, &[1]),
            Err(x_at(5))
        );
        assert_eq!(
            hooks::partial_line(b"0000 x 6", true, true, 1, &[3]),
            Err(x_at(6))
        );
    }
}
