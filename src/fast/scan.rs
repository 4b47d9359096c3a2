//! The fast path's byte scanners: specialisations of the grammar for the
//! common move line, vouched for by it. Anything they cannot vouch for goes
//! to the grammar, which alone describes faults.
//!
//! The `parse` fuzz target holds each scanner to the grammar on every line
//! of its input (`connectz_testkit::grammar_forms`, through
//! `connectz::hooks`): [`plain_move`] takes a line exactly when
//! `grammar::parse_move` accepts it, it has at most 19 digits and a
//! terminator, and then with the grammar's value and end; [`skim_lines`]
//! takes exactly the run of such lines of value at most its limit; every
//! line ending in a block [`plain_lines`] vouches for conforms (with a value
//! at most `max_digit` when `single_digit`) and its count is the block's
//! line feeds. The property tests below check the same on random near-miss
//! bytes.

/// Moves parsed ahead by [`Judge::step_plain`](crate::judge::Judge).
pub(crate) const BATCH: usize = 16;

/// Bytes tested at once by the fast path.
pub(crate) const SKIM_BLOCK: usize = 16384;

/// The line feeds in `block` when every line ending in it surely conforms:
/// only digits and LFs, every LF preceded by a digit 1 to `max_digit` (so no
/// empty line and no line of zeros), and with `single_digit`, every nonzero
/// digit followed by an LF (so each line's value is its last digit, at most
/// `max_digit`); `None` otherwise. `prev` is the byte before the block (LF
/// at the start of a line). One pass, in byte lanes the compiler
/// vectorises; with AVX2 where the processor has it (see [`crate::fast::avx2`]).
pub(crate) fn plain_lines(
    block: &[u8],
    prev: u8,
    max_digit: u8,
    single_digit: bool,
) -> Option<u64> {
    crate::fast::avx2::with_avx2(|| plain_lines_portable(block, prev, max_digit, single_digit))
}

#[inline(always)]
fn plain_lines_portable(block: &[u8], prev: u8, max_digit: u8, single_digit: bool) -> Option<u64> {
    let pair_is_bad = |p: u8, b: u8| -> u8 {
        let digit = b.wrapping_sub(b'0') < 10;
        let lf = b == b'\n';
        let p_nonzero = p.wrapping_sub(b'1') < 9;
        let p_allowed = p.wrapping_sub(b'1') < max_digit - b'0';
        u8::from(!(digit | lf) | (lf & !p_allowed) | (single_digit & p_nonzero & !lf))
    };
    let first = *block.first()?;
    // Separate slices (not a chained iterator) so the loop vectorises.
    let bad = block[..block.len() - 1]
        .iter()
        .zip(&block[1..])
        .fold(pair_is_bad(prev, first), |bad, (&p, &b)| {
            bad | pair_is_bad(p, b)
        });
    (bad == 0).then(|| count_line_feeds(block))
}

/// Line feeds in `bytes`, counted in byte lanes so the loop vectorises.
#[inline(always)]
fn count_line_feeds(bytes: &[u8]) -> u64 {
    bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
            u64::from(n)
        })
        .sum()
}

/// The common move line, recognised without the full grammar: 1 to 19
/// digits (so the value cannot wrap) with a value above zero, then LF or
/// CRLF. Returns the value and the index past the terminator. Anything else,
/// including a line cut by the end of `bytes`, is `None` and left to the
/// grammar (r[format.move]).
#[inline]
pub(crate) fn plain_move(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    short_move(bytes, start).or_else(|| long_move(bytes, start))
}

/// [`plain_move`] for a line of 1 to 15 digits and LF with 8 bytes (16 for
/// more than 7 digits) to read: the digits are found and summed eight at a
/// time in a machine word, with no branch per digit, so lines of varying
/// length cost the same. `None` for anything else, left to [`long_move`].
#[inline]
fn short_move(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    let (digits, high) = digit_word(bytes, start)?;
    let (digits, value) = if digits < 8 {
        (digits, high)
    } else {
        let (more, low) = digit_word(bytes, start + 8)?;
        if more == 8 {
            return None;
        }
        (8 + more, high * POWERS_OF_TEN[more] + low)
    };
    let end = start + digits;
    (digits > 0 && value != 0 && bytes[end] == b'\n').then_some((value, end + 1))
}

/// 10^0 to 10^7.
const POWERS_OF_TEN: [u64; 8] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000];

/// The digits that begin the 8 bytes at `start` (0 to 8 of them) and their
/// value; `None` when fewer than 8 bytes remain.
#[inline]
fn digit_word(bytes: &[u8], start: usize) -> Option<(usize, u64)> {
    let word: [u8; 8] = bytes.get(start..start.checked_add(8)?)?.try_into().ok()?;
    let word = u64::from_le_bytes(word);
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Digits become 0..=9; a byte is flagged when it is not a digit: above
    // 0x7f after the xor, or above 9 (adding 0x76 sets its top bit). A
    // carry out of a flagged byte only reaches bytes after it.
    let values = word ^ (0x30 * ONES);
    let flags = (values.wrapping_add(0x76 * ONES) | values) & (0x80 * ONES);
    let digits = (flags.trailing_zeros() / 8) as usize;
    if digits == 0 {
        return Some((0, 0));
    }
    // The digits moved to the word's top bytes (the last digit in the top
    // byte), zeros below, then summed in pairs, fours and eights.
    let aligned = values << (8 * (8 - digits));
    let pairs = (aligned.wrapping_mul(10) + (aligned >> 8)) & 0x00ff_00ff_00ff_00ff;
    let fours = (pairs.wrapping_mul(100) + (pairs >> 16)) & 0x0000_ffff_0000_ffff;
    let value = (fours.wrapping_mul(10000) + (fours >> 32)) & 0xffff_ffff;
    Some((digits, value))
}

/// [`plain_move`] byte by byte: any line of 1 to 19 digits.
#[inline]
fn long_move(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    // Twenty bytes at most: 19 digits and the terminator.
    let limit = bytes.len().min(start.saturating_add(20));
    let mut i = start;
    let mut value: u64 = 0;
    while i < limit {
        let d = bytes[i].wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    let digits = i - start;
    if digits == 0 || digits > 19 || value == 0 {
        return None;
    }
    match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b'\n'), _) => Some((value, i + 1)),
        (Some(b'\r'), Some(b'\n')) => Some((value, i + 2)),
        _ => None,
    }
}

/// Line by line: skips plain move lines with value at most `limit` that
/// start before `stop`. Returns bytes and lines.
pub(crate) fn skim_lines(bytes: &[u8], stop: usize, limit: u64) -> (usize, u64) {
    let mut start = 0;
    let mut lines = 0;
    while start < stop {
        match plain_move(bytes, start) {
            Some((value, end)) if value <= limit => {
                lines += 1;
                start = end;
            }
            _ => break,
        }
    }
    (start, lines)
}

/// The grammar vouches for the scanners: on random bytes, whatever a scanner
/// accepts, `grammar::parse_move` accepts with the same value; what it
/// declines is left to the grammar.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::parse_move;
    use crate::nat::Nat;
    use connectz_rng::Rng;

    /// Random strings over an alphabet that makes near-misses likely.
    struct Bytes(Rng);
    impl Bytes {
        fn next(&mut self) -> u64 {
            self.0.next_u64()
        }
        fn string(&mut self, len: usize) -> Vec<u8> {
            let alphabet = b"0123456789\n\n\n\r 0x";
            (0..len)
                .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize])
                .collect()
        }
    }

    /// The lines that end in `bytes` (LF removed, CR kept), from the start.
    fn lines(bytes: &[u8]) -> Vec<&[u8]> {
        let mut out: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        out.pop();
        out
    }

    fn grammar_value(line: &[u8]) -> Option<Nat> {
        parse_move(crate::grammar::line_content(line, true)).ok()
    }

    #[test]
    fn the_grammar_vouches_for_plain_move() {
        let mut random = Bytes(Rng::new(1));
        let mut accepted = 0;
        for _ in 0..200_000 {
            let len = 1 + (random.next() % 24) as usize;
            let bytes = random.string(len);
            if let Some((value, end)) = plain_move(&bytes, 0) {
                let line = &bytes[..end - 1];
                assert_eq!(
                    grammar_value(line),
                    Some(Nat::from(value)),
                    "{:?}",
                    bytes.escape_ascii().to_string()
                );
                assert!(value > 0);
                accepted += 1;
            }
        }
        assert!(accepted > 10_000, "only {accepted} lines accepted");
    }

    /// Lines of every length around the word boundaries (7, 8, 15 and 16
    /// digits, and the 19 a u64 always holds), with leading zeros, ends of
    /// the bytes and every terminator: plain_move reads each as the grammar
    /// does.
    #[test]
    fn plain_move_at_every_length() {
        let mut random = Bytes(Rng::new(4));
        let mut accepted = [0u32; 22];
        for _ in 0..100_000 {
            let digits = 1 + (random.next() % 21) as usize;
            let mut line: Vec<u8> = (0..digits)
                .map(|_| b'0' + (random.next() % 10) as u8)
                .collect();
            if random.next().is_multiple_of(4) {
                line[0] = b'0';
            }
            let tail: &[u8] = match random.next() % 4 {
                0 => b"\n7\n12345678\n",
                1 => b"\r\n",
                2 => b"\n",
                _ => b"x\n",
            };
            line.extend_from_slice(tail);
            let cut = line.len() - (random.next() % 3) as usize;
            let bytes = &line[..cut];
            let end = bytes.iter().position(|&b| b == b'\n');
            let expected = end.and_then(|e| grammar_value(&bytes[..e]).map(|v| (v, e + 1)));
            match plain_move(bytes, 0) {
                Some((value, e)) => {
                    assert_eq!(Some((Nat::from(value), e)), expected, "{bytes:?}");
                    accepted[digits] += 1;
                }
                // Declined lines go to the grammar: only those a u64 might
                // not hold, or that do not conform.
                None => assert!(
                    expected.is_none_or(|(v, _)| v.is_zero() || digits > 19),
                    "{bytes:?}"
                ),
            }
        }
        assert!(accepted[1..=19].iter().all(|&n| n > 500), "{accepted:?}");
    }

    #[test]
    fn the_grammar_vouches_for_plain_block_and_skim_lines() {
        let mut random = Bytes(Rng::new(2));
        let (mut blocks, mut skimmed) = (0, 0);
        for _ in 0..200_000 {
            let len = 1 + (random.next() % 40) as usize;
            let bytes = random.string(len);
            let limit = 1 + random.next() % 12;
            let single = limit <= 9;
            let max_digit = if single { b'0' + limit as u8 } else { b'9' };
            if let Some(feeds) = plain_lines(&bytes, b'\n', max_digit, single) {
                assert_eq!(feeds, bytes.iter().filter(|&&b| b == b'\n').count() as u64);
                for line in lines(&bytes) {
                    let value = grammar_value(line).expect("a vouched line conforms");
                    assert!(!single || value <= limit, "{line:?} over {limit}");
                }
                blocks += 1;
            }
            let (n, count) = skim_lines(&bytes, bytes.len(), limit);
            let vouched = lines(&bytes[..n]);
            assert_eq!(vouched.len() as u64, count);
            for line in vouched {
                let value = grammar_value(line).expect("a skimmed line conforms");
                assert!(value <= limit);
                skimmed += 1;
            }
        }
        assert!(
            blocks > 1000 && skimmed > 10_000,
            "{blocks} blocks, {skimmed} lines"
        );
    }
}
