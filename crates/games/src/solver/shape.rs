//! A frame of the solver (its columns, rows and run length) and how a
//! position string names its columns (r[solve.position]).

use super::geometry::Geometry;
use super::word::Word;

/// The frame of a bitboard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Length of a winning run.
    pub z: usize,
}

impl Shape {
    /// The classic frame: 7 x 6, runs of 4.
    pub const CLASSIC: Shape = Shape {
        width: 7,
        height: 6,
        z: 4,
    };

    /// Bits of the bitboard: a column of `height` cells and a spare bit.
    pub(crate) fn bits(&self) -> Option<usize> {
        self.height.checked_add(1)?.checked_mul(self.width)
    }

    /// True when the frame fits a bitboard of 128 bits (with a spare bit per
    /// column): `width * (height + 1) <= 128`.
    pub fn fits(&self) -> bool {
        self.width >= 1 && self.height >= 1 && self.z >= 1 && self.bits().is_some_and(|b| b <= 128)
    }

    /// True when the frame fits a 64-bit word, the faster search.
    pub(crate) fn fits_64(&self) -> bool {
        self.fits() && self.bits().is_some_and(|b| b <= 64)
    }

    /// True when a run of z fits the frame in some direction; when it does
    /// not, every game is a draw.
    pub(crate) fn run_fits(&self) -> bool {
        self.z <= self.width.max(self.height)
    }

    /// Orders columns centre first, then outwards, left before right.
    pub(crate) fn centre_rank(&self, col: usize) -> (u64, usize) {
        (
            (2 * col as i64 - (self.width as i64 - 1)).unsigned_abs(),
            col,
        )
    }

    /// Number of cells.
    pub fn cells(&self) -> i32 {
        (self.width * self.height) as i32
    }

    /// The score of a win completed by the side to move's next counter when
    /// `moves` counters have been played (r[solve.score]).
    pub fn win_score(&self, moves: i32) -> i32 {
        win_score(self.cells(), moves)
    }

    pub(crate) fn geometry<W: Word>(&self) -> Geometry<W> {
        Geometry::new(self.width, self.height, self.z)
    }
}

/// The score (r[solve.score]) of a win completed by the side to move's next
/// counter on a frame of `cells` cells when `moves` counters have been
/// played: (cells + 1) / 2 + 1 minus the winner's counters, which are then
/// moves / 2 + 1 (each side has played half the moves, rounded down for the
/// side to move). The two halvings are separate: on a frame with an odd
/// number of cells, `(cells + 1 - moves) / 2` would give the second player
/// one less.
pub(crate) fn win_score(cells: i32, moves: i32) -> i32 {
    (cells + 1) / 2 - moves / 2
}

/// The column of a move character: `1` to `9`, then `a` (10) to `z` (35),
/// either case (r[solve.position]).
pub fn column_of(ch: char) -> Option<usize> {
    match ch {
        '1'..='9' => Some(ch as usize - '0' as usize),
        'a'..='z' => Some(ch as usize - 'a' as usize + 10),
        'A'..='Z' => Some(ch as usize - 'A' as usize + 10),
        _ => None,
    }
}

/// The character of a 1-based column (the inverse of [`column_of`]).
pub fn column_char(col: usize) -> Option<char> {
    match col {
        1..=9 => char::from_digit(col as u32, 10),
        10..=35 => Some((b'a' + (col - 10) as u8) as char),
        _ => None,
    }
}
