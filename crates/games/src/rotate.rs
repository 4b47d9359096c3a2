//! "Rotate" (a 2010 programming-contest problem): turn an N x N board
//! clockwise, let the counters fall, and say who has K in a row. Lines are
//! found by the judge's own board (r[board.rotate]).

use std::fmt::Write as _;

use connectz::Nat;
use connectz::board::{Board, Player, Storage};

/// Who has K in a row after the turn.
pub fn winners(rows: &[&[u8]], k: u64) -> (bool, bool) {
    let n = rows.len() as u64;
    let z = Nat::from(k);
    let mut board = Board::new(&Nat::from(n), &Nat::from(n), &z, Storage::Auto);
    let mut has = (false, false);
    // Turning clockwise makes row i a column whose bottom is the row's right
    // end; falling keeps the counters' order. Mirroring the columns does not
    // change which lines exist, so row i becomes column i + 1.
    for (i, row) in rows.iter().enumerate() {
        let column = Nat::from(i as u64 + 1);
        for &cell in row.iter().rev() {
            let player = match cell {
                b'R' => Player::One,
                b'B' => Player::Two,
                _ => continue,
            };
            let (_, run) = board.drop_counter(&column, player, &z);
            if run.is_some() {
                match player {
                    Player::One => has.0 = true,
                    Player::Two => has.1 = true,
                }
            }
        }
    }
    has
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
            (true, true) => "Both",
            (true, false) => "Red",
            (false, true) => "Blue",
            (false, false) => "Neither",
        };
        let _ = writeln!(out, "Case #{case}: {answer}");
    }
    Ok(out)
}
