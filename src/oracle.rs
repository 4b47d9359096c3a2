//! The executable definition: a slow, plain judge to check the fast one.
//!
//! It reads the whole input, splits lines with the plainest code possible,
//! keeps the frame as a full grid (small frames only), and after every move
//! scans the entire board for a line. It shares no board, parsing or line
//! detection code with the judge: only the number type, the code type and
//! the winnability formula (itself checked against brute force in tests).

use crate::judge::{Code, Judge, judge_bytes, judge_chunked};
use crate::nat::Nat;
use crate::rules::winnable;

/// Frames with more cells than this are beyond the oracle.
pub const MAX_CELLS: u64 = 4096;

/// The code for `input`, or `None` when its frame is too large for a grid.
pub fn judge(input: &[u8]) -> Option<Code> {
    let Some(lines) = split_lines(input) else {
        return Some(Code::InvalidFile);
    };
    let Some(header) = lines.first().and_then(|l| read_header(l)) else {
        return Some(Code::InvalidFile);
    };
    let mut moves = Vec::new();
    for line in &lines[1..] {
        match read_number(line) {
            Some(n) => moves.push(n),
            None => return Some(Code::InvalidFile),
        }
    }
    let [x, y, z] = header;
    if !winnable(&x, &y, &z) {
        return Some(Code::IllegalGame);
    }
    let width = usize::try_from(x.to_u64()?).ok()?;
    let height = usize::try_from(y.to_u64()?).ok()?;
    if (width as u64).checked_mul(height as u64)? > MAX_CELLS {
        return None;
    }
    // z longer than the frame's sides can still be reached only if z = 1.
    let z = usize::try_from(z.to_u64().unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
    Some(play(width, height, z, &moves))
}

/// Lines of the file, terminators removed; `None` for a lone CR or no bytes.
fn split_lines(input: &[u8]) -> Option<Vec<&[u8]>> {
    if input.is_empty() {
        return None;
    }
    let mut pieces: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let terminated = input.ends_with(b"\n");
    if terminated {
        pieces.pop();
    }
    let count = pieces.len();
    let mut lines = Vec::new();
    for (i, piece) in pieces.into_iter().enumerate() {
        let had_lf = terminated || i + 1 < count;
        let line = match piece.strip_suffix(b"\r") {
            Some(rest) if had_lf => rest,
            _ => piece,
        };
        if line.contains(&b'\r') {
            return None;
        }
        lines.push(line);
    }
    Some(lines)
}

fn read_header(line: &[u8]) -> Option<[Nat; 3]> {
    let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    if fields.len() != 3 {
        return None;
    }
    Some([
        read_number(fields[0])?,
        read_number(fields[1])?,
        read_number(fields[2])?,
    ])
}

fn read_number(text: &[u8]) -> Option<Nat> {
    let n = Nat::from_digits(text)?;
    if n.is_zero() { None } else { Some(n) }
}

fn play(width: usize, height: usize, z: usize, moves: &[Nat]) -> Code {
    let mut grid = vec![vec![0u8; height]; width];
    let mut player = 1u8;
    let mut winner = 0u8;
    let (mut off_frame, mut full_column, mut after_win) = (false, false, false);
    let mut placed = 0usize;
    for m in moves {
        let Some(c) = m
            .to_u64()
            .and_then(|c| usize::try_from(c).ok())
            .filter(|&c| c <= width)
        else {
            off_frame = true;
            continue;
        };
        let column = &mut grid[c - 1];
        let Some(row) = column.iter().position(|&cell| cell == 0) else {
            full_column = true;
            continue;
        };
        column[row] = player;
        placed += 1;
        if winner != 0 {
            after_win = true;
        } else if has_line(&grid, z, player) {
            winner = player;
        }
        player = 3 - player;
    }
    if off_frame {
        Code::IllegalColumn
    } else if full_column {
        Code::IllegalRow
    } else if after_win {
        Code::IllegalContinue
    } else if winner == 1 {
        Code::WinOne
    } else if winner == 2 {
        Code::WinTwo
    } else if placed == width * height {
        Code::Draw
    } else {
        Code::Incomplete
    }
}

/// Does `player` have `z` in a row anywhere? Every cell, every direction.
pub(crate) fn has_line(grid: &[Vec<u8>], z: usize, player: u8) -> bool {
    let width = grid.len() as i64;
    let height = grid.first().map_or(0, Vec::len) as i64;
    let owns = |c: i64, r: i64| {
        (0..width).contains(&c)
            && (0..height).contains(&r)
            && grid[c as usize][r as usize] == player
    };
    for c in 0..width {
        for r in 0..height {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let mut k = 0;
                while k < z && owns(c + k as i64 * dc, r + k as i64 * dr) {
                    k += 1;
                }
                if k == z {
                    return true;
                }
            }
        }
    }
    false
}

/// Judges `input` whole and in chunks of `chunk_sizes`, and by the oracle
/// when its frame is small enough; returns the code, or what disagreed.
///
/// # Errors
/// A description of the disagreement, with a paste-able reproducer.
pub fn differential(input: &[u8], chunk_sizes: &[usize]) -> Result<Code, String> {
    let whole = judge_bytes(input);
    let chunked = judge_chunked(input, chunk_sizes);
    let mut sparse = Judge::with_sparse_board();
    sparse.feed(input);
    let sparse = sparse.finish();
    let repro = crate::arbitrary_game::reproducer(input);
    if sparse.verdict != whole.verdict {
        return Err(format!(
            "the sparse board gives {:?}, the default {:?} for {repro}",
            sparse.verdict, whole.verdict
        ));
    }
    if chunked.verdict != whole.verdict {
        return Err(format!(
            "chunks {chunk_sizes:?} change the verdict: {:?} vs {:?} for {repro}",
            chunked.verdict, whole.verdict
        ));
    }
    match judge(input) {
        Some(expected) if expected != whole.code() => Err(format!(
            "judge says {} ({}), oracle says {expected} for {repro}",
            whole.code(),
            whole.verdict
        )),
        _ => Ok(whole.code()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_brief_samples() {
        let samples: [(&[u8], Code); 4] = [
            (b"3 3 3\n1\n2\n3\n1\n3\n2\n1\n3\n2\n", Code::Draw),
            (b"3 3 3\n1\n2\n1\n2\n1\n", Code::WinOne),
            (b"3 3 3\n1\n2\n2\n1\n1\n2\n2\n", Code::IllegalRow),
            (b"banana", Code::InvalidFile),
        ];
        for (input, code) in samples {
            assert_eq!(judge(input), Some(code));
        }
        assert_eq!(judge(b"1000 1000 4\n1\n"), None);
    }
}
