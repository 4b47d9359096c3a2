//! "Rotate" (a 2010 programming-contest problem): turn an N x N board
//! clockwise, let the counters fall, and say who has K in a row. Runs are
//! found by the judge's own board (r[board.rotate]), built whole from the
//! fallen columns: its counters need not alternate, so it is not a game and
//! is not played with `step`.

use std::fmt::Write as _;

use connectz::Nat;
use connectz::board::{Board, Player};

/// Who has K in a row after the turn: (red, blue); `None` when the
/// board's memory cannot be had. Public beside [`solve`] for a caller that
/// holds a board as rows of `.`, `R` and `B` rather than a contest file
/// (the `rotate` fuzz target holds it to turning and falling done
/// literally).
pub fn winners(rows: &[&[u8]], k: u64) -> Option<(bool, bool)> {
    let n = Nat::from(rows.len() as u64);
    // Turning clockwise makes row i a column whose bottom is the row's right
    // end; falling keeps the counters' order. Mirroring the columns does not
    // change which runs exist, so row i becomes column i + 1.
    let stacks: Vec<Vec<Player>> = rows
        .iter()
        .map(|row| {
            row.iter()
                .rev()
                .filter_map(|&cell| match cell {
                    b'R' => Some(Player::One),
                    b'B' => Some(Player::Two),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let columns = stacks
        .iter()
        .enumerate()
        .map(|(i, owners)| (Nat::from(i as u64 + 1), owners.as_slice()));
    // N columns of at most N counters each: only memory can fail.
    let (_, [red, blue]) = Board::from_stacks(&n, &n, &Nat::from(k), columns).ok()?;
    Some((red, blue))
}

/// Solves a whole input file: `T`, then per case `N K` and N rows of `.`,
/// `R`, `B`. Output: `Case #i: Red|Blue|Both|Neither`, one line per case.
///
/// # Errors
/// A malformed input, with the line where it went wrong.
pub fn solve(input: &str) -> Result<String, String> {
    let mut lines = input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let mut next = |what: &str| {
        lines
            .next()
            .map(|(n, l)| (n + 1, l.trim()))
            .ok_or(format!("input ends before {what}"))
    };
    let (n, t) = next("the number of cases")?;
    let cases: usize = t
        .parse()
        .map_err(|_| format!("line {n}: expected the number of cases, found {t:?}"))?;
    let mut out = String::new();
    for case in 1..=cases {
        let (n, header) = next("a case header")?;
        let numbers: Vec<u64> = header
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let [size, k] = numbers[..] else {
            return Err(format!("line {n}: expected \"N K\", found {header:?}"));
        };
        let mut rows = Vec::new();
        for _ in 0..size {
            let (n, row) = next("a board row")?;
            if row.len() as u64 != size || !row.bytes().all(|b| matches!(b, b'.' | b'R' | b'B')) {
                return Err(format!(
                    "line {n}: expected {size} cells of '.', 'R' or 'B', found {row:?}"
                ));
            }
            rows.push(row.as_bytes());
        }
        let answer = match winners(&rows, k) {
            Some((true, true)) => "Both",
            Some((true, false)) => "Red",
            Some((false, true)) => "Blue",
            Some((false, false)) => "Neither",
            None => return Err(format!("case {case}: out of memory for its board")),
        };
        let _ = writeln!(out, "Case #{case}: {answer}");
    }
    Ok(out)
}
