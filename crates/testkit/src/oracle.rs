//! The executable definition: a slow, plain judge to check the fast one.
//!
//! It reads the whole input, splits lines with the plainest code possible,
//! keeps the frame as a full grid (small frames only), and after every move
//! scans the entire board for a winning run. It shares no board, parsing or line
//! detection code with the judge: only the number type, the code type and
//! the winnability formula (itself checked against brute force in tests).

use connectz::hooks::{self, Storage, judge_chunked};
use connectz::{Code, Keep, Nat, judge_bytes, winnable};

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
        } else if has_run(&grid, z, player) {
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
pub(crate) fn has_run(grid: &[Vec<u8>], z: usize, player: u8) -> bool {
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

/// Bytes as a Rust byte-string literal, to paste into a regression test.
pub fn reproducer(bytes: &[u8]) -> String {
    format!("b\"{}\"", bytes.escape_ascii())
}

/// Judges `input` whole and in chunks of `chunk_sizes`, and by the oracle
/// when its frame is small enough; returns the code, or what disagreed.
///
/// # Errors
/// A description of the disagreement, with a paste-able reproducer.
pub fn differential(input: &[u8], chunk_sizes: &[usize]) -> Result<Code, String> {
    let whole = judge_bytes(input);
    let chunked = judge_chunked(input, chunk_sizes);
    let mut sparse = hooks::judge(Keep::default(), Storage::Sparse);
    sparse.feed(input);
    let sparse = sparse.finish();
    let repro = reproducer(input);
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

/// A column-major grid of a small frame: `grid[c][r]`, row 0 at the bottom,
/// 0 empty, 1 the first player, 2 the second.
pub type CellColumns = Vec<Vec<u8>>;

/// How a position reached by some game stands (see [`reachable_positions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The first player is to move.
    FirstMoves,
    /// The second player is to move.
    SecondMoves,
    /// The first player completed a winning run.
    FirstWins,
    /// The second player completed a winning run.
    SecondWins,
    /// The frame is full with no winning run.
    Draw,
}

/// Every position some legal game reaches on a `width` by `height` frame
/// with winning runs of `z`, by playing every game (stopping at the first winning run),
/// with how it stands. Columns are listed bottom-up, as the players' numbers.
/// Runs are found by a full scan of the grid.
pub fn reachable_positions(
    width: usize,
    height: usize,
    z: usize,
) -> std::collections::HashMap<Vec<Vec<u8>>, Standing> {
    let mut truth = std::collections::HashMap::new();
    let empty: Vec<Vec<u8>> = vec![Vec::new(); width];
    truth.insert(empty.clone(), Standing::FirstMoves);
    let mut frontier = vec![empty];
    let grid_of = |stacks: &[Vec<u8>]| -> CellColumns {
        stacks
            .iter()
            .map(|s| {
                let mut col = s.clone();
                col.resize(height, 0);
                col
            })
            .collect()
    };
    while let Some(stacks) = frontier.pop() {
        let placed: usize = stacks.iter().map(Vec::len).sum();
        let player = if placed.is_multiple_of(2) { 1 } else { 2 };
        for c in 0..width {
            if stacks[c].len() == height {
                continue;
            }
            let mut next = stacks.clone();
            next[c].push(player);
            if truth.contains_key(&next) {
                continue;
            }
            let won = has_run(&grid_of(&next), z, player);
            let standing = match (won, player) {
                (true, 1) => Standing::FirstWins,
                (true, _) => Standing::SecondWins,
                _ if placed + 1 == width * height => Standing::Draw,
                (false, 1) => Standing::SecondMoves,
                (false, _) => Standing::FirstMoves,
            };
            truth.insert(next.clone(), standing);
            if !won {
                frontier.push(next);
            }
        }
    }
    truth
}

/// Who has K in a row after the "Rotate" board `rows` (top row first, `R`,
/// `B` or `.`) is turned clockwise and its counters fall: done literally,
/// a new grid for the turn, another for the fall, and a scan of every cell
/// in every direction.
pub fn rotate_plainly(rows: &[&[u8]], k: usize) -> (bool, bool) {
    let n = rows.len();
    // Turned clockwise: the new row r, column c is the old row n-1-c, column r.
    let turned: Vec<Vec<u8>> = (0..n)
        .map(|r| (0..n).map(|c| rows[n - 1 - c][r]).collect())
        .collect();
    // Each column's counters fall to the bottom (row n-1), keeping their order.
    let mut fallen = vec![vec![b'.'; n]; n];
    for c in 0..n {
        let counters: Vec<u8> = (0..n)
            .map(|r| turned[r][c])
            .filter(|&b| b != b'.')
            .collect();
        for (i, &b) in counters.iter().rev().enumerate() {
            fallen[n - 1 - i][c] = b;
        }
    }
    let has = |who: u8| {
        (0..n as i64).any(|r| {
            (0..n as i64).any(|c| {
                [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
                    (0..k as i64).all(|i| {
                        let (rr, cc) = (r + i * dr, c + i * dc);
                        (0..n as i64).contains(&rr)
                            && (0..n as i64).contains(&cc)
                            && fallen[rr as usize][cc as usize] == who
                    })
                })
            })
        })
    };
    (has(b'R'), has(b'B'))
}

/// The exact score (spec/solve.md) of the position after `moves` (0-based
/// columns) on a small frame, by plain negamax over every game with a full
/// scan for lines; `None` when the moves are not a legal unfinished game.
pub fn game_value(width: usize, height: usize, z: usize, moves: &[usize]) -> Option<i32> {
    let mut grid: CellColumns = vec![vec![0; height]; width];
    let mut heights = vec![0; width];
    for (i, &c) in moves.iter().enumerate() {
        let player = if i.is_multiple_of(2) { 1 } else { 2 };
        if c >= width || heights[c] == height {
            return None;
        }
        grid[c][heights[c]] = player;
        heights[c] += 1;
        if has_run(&grid, z, player) {
            return None;
        }
    }
    let cells = (width * height) as i32;
    let mut memo = std::collections::HashMap::new();
    fn negamax(
        grid: &mut CellColumns,
        heights: &mut Vec<usize>,
        played: i32,
        cells: i32,
        z: usize,
        memo: &mut std::collections::HashMap<CellColumns, i32>,
    ) -> i32 {
        if played == cells {
            return 0;
        }
        if let Some(&v) = memo.get(grid) {
            return v;
        }
        let player = if played % 2 == 0 { 1 } else { 2 };
        let height = grid[0].len();
        let mut best = i32::MIN;
        for c in 0..grid.len() {
            if heights[c] == height {
                continue;
            }
            grid[c][heights[c]] = player;
            heights[c] += 1;
            let score = if has_run(grid, z, player) {
                // r[solve.score], in its own words: (cells + 1) / 2 + 1
                // minus the counters the winner has on the grid now.
                let counters = grid.iter().flatten().filter(|&&o| o == player).count() as i32;
                (cells + 1) / 2 + 1 - counters
            } else {
                -negamax(grid, heights, played + 1, cells, z, memo)
            };
            heights[c] -= 1;
            grid[c][heights[c]] = 0;
            best = best.max(score);
        }
        memo.insert(grid.clone(), best);
        best
    }
    Some(negamax(
        &mut grid,
        &mut heights,
        moves.len() as i32,
        cells,
        z,
        &mut memo,
    ))
}
