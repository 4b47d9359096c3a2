//! A position as the solver takes it: its frame's masks and two bitboards,
//! made from a string of moves, and what it says without a search (the
//! columns that win now, the safe moves, its parents, its mirror image,
//! its keys).

use std::fmt;

use super::geometry::{Detector, Four, Geometry, RunDetector, Runs};
use super::search::{self, Pos};
use super::shape::{Shape, column_char, column_of};
use super::word::Word;

/// What is wrong with a position string (r[solve.position]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A character that is not a column digit of the frame.
    BadDigit {
        /// 1-based index in the string.
        at: usize,
        /// The character.
        found: char,
    },
    /// A move into a full column.
    FullColumn {
        /// 1-based index in the string.
        at: usize,
        /// The column.
        column: usize,
    },
    /// A move that completes a run: the game is over, there is nothing
    /// left to solve.
    AlreadyWon {
        /// 1-based index of the completing move.
        at: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BadDigit { at, found } => {
                write!(f, "move {at}: {found:?} is not a column of the frame")
            }
            PositionError::FullColumn { at, column } => {
                write!(f, "move {at}: column {column} is full")
            }
            PositionError::AlreadyWon { at } => {
                write!(f, "move {at} completes a run: the game is over")
            }
        }
    }
}

/// A position as two bitboards: the side to move's counters and all
/// counters (held in 128 bits; searched in 64 when the frame fits them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The frame's masks (its shape too).
    g: Geometry<u128>,
    p: Pos<u128>,
}

/// The columns where the side to move of `p` completes a run now, as bits
/// ([`Position::winning_columns`], on any word).
pub(crate) fn winning_columns_in<W: Word>(g: &Geometry<W>, p: &Pos<W>) -> u64 {
    let wins = wins_of(g, p.current) & (g.board ^ p.mask) & p.possible(g);
    if wins == W::ZERO {
        return 0;
    }
    (0..g.width)
        .filter(|&c| wins & g.column(c) != W::ZERO)
        .fold(0, |bits, c| bits | 1 << c)
}

/// Winning cells for `own`, by the frame's detector.
fn wins_of<W: Word>(g: &Geometry<W>, own: W) -> W {
    match g.detector() {
        Detector::None => W::ZERO,
        Detector::Four => Four::wins(g, own),
        Detector::Short => Runs::<8>::wins(g, own),
        Detector::Long => Runs::<128>::wins(g, own),
    }
}

impl Position {
    /// The empty frame (which must fit: [`Shape::fits`]).
    pub fn new(shape: Shape) -> Position {
        assert!(shape.fits(), "{shape:?} does not fit a 128-bit board");
        Position {
            g: shape.geometry(),
            p: Pos::EMPTY,
        }
    }

    /// Plays a string of 1-based columns from the empty frame (`1`-`9`,
    /// then `a`-`z` for 10 to 35); `.` alone is the empty frame.
    ///
    /// # Errors
    /// A bad character, a full column, or a move after a completed run.
    pub fn from_moves(shape: Shape, moves: &str) -> Result<Position, PositionError> {
        let mut p = Position::new(shape);
        if moves == "." {
            return Ok(p);
        }
        for (i, ch) in moves.chars().enumerate() {
            let at = i + 1;
            let col = column_of(ch)
                .filter(|&d| d >= 1 && d <= shape.width)
                .ok_or(PositionError::BadDigit { at, found: ch })?
                - 1;
            if !p.can_play(col) {
                return Err(PositionError::FullColumn {
                    at,
                    column: col + 1,
                });
            }
            if p.is_winning_move(col) {
                return Err(PositionError::AlreadyWon { at });
            }
            p.play_column(col);
        }
        Ok(p)
    }

    /// The frame.
    pub fn shape(&self) -> Shape {
        Shape {
            width: self.g.width,
            height: self.g.height,
            z: self.g.z,
        }
    }

    /// Counters played.
    pub fn moves(&self) -> i32 {
        self.p.moves
    }

    /// The position of this frame with the side to move's counters
    /// `current` and all counters `mask`.
    pub(crate) fn with_counters(&self, current: u128, mask: u128) -> Position {
        Position {
            g: self.g,
            p: Pos {
                current,
                mask,
                moves: mask.count_ones() as i32,
            },
        }
    }

    /// A key unique to the position (current + mask).
    pub fn key(&self) -> u128 {
        self.p.key()
    }

    /// True when `col` (0-based) has room.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.g.width && self.p.mask & self.g.top(col) == 0
    }

    /// Plays in `col` (0-based, with room).
    pub fn play_column(&mut self, col: usize) {
        let bit = (self.p.mask + self.g.bottom_of(col)) & self.g.column(col);
        self.p = self.p.play(bit);
    }

    fn own_wins(&self) -> u128 {
        wins_of(&self.g, self.p.current) & (self.g.board ^ self.p.mask)
    }

    fn opponent_wins(&self) -> u128 {
        wins_of(&self.g, self.p.current ^ self.p.mask) & (self.g.board ^ self.p.mask)
    }

    /// True when playing `col` completes a run for the side to move.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.own_wins() & self.p.possible(&self.g) & self.g.column(col) != 0
    }

    /// The columns (0-based) where the side to move completes a run now,
    /// as bits (column `c` is bit `c`): [`Position::is_winning_move`] of
    /// every column at the cost of one.
    pub(crate) fn winning_columns(&self) -> u64 {
        winning_columns_in(&self.g, &self.p)
    }

    /// True when the side to move can complete a run now.
    pub fn can_win_next(&self) -> bool {
        self.own_wins() & self.p.possible(&self.g) != 0
    }

    /// Columns (0-based) that do not hand the opponent an immediate win,
    /// each with the number of cells where the side to move then threatens
    /// to complete a run; empty when every move loses.
    pub(crate) fn safe_moves(&self) -> Vec<(usize, u32)> {
        let next = search::non_losing(self.p.possible(&self.g), self.opponent_wins());
        let empty = self.g.board ^ self.p.mask;
        (0..self.g.width)
            .filter_map(|c| {
                let bit = next & self.g.column(c);
                (bit != 0).then(|| {
                    let threats = wins_of(&self.g, self.p.current | bit) & empty & !bit;
                    (c, threats.count_ones())
                })
            })
            .collect()
    }

    /// (cells where the side to move would complete a run, cells where the
    /// opponent would).
    pub(crate) fn threat_counts(&self) -> (u32, u32) {
        (
            self.own_wins().count_ones(),
            self.opponent_wins().count_ones(),
        )
    }

    /// The moves as [`Position::from_moves`] reads them (`.` for none),
    /// given the columns played in order (0-based).
    pub fn moves_text(columns: &[usize]) -> String {
        if columns.is_empty() {
            ".".into()
        } else {
            columns.iter().filter_map(|&c| column_char(c + 1)).collect()
        }
    }

    /// The positions one move earlier: for each column whose top counter
    /// is the last mover's, the position without it (the position is a
    /// child of each, by a move that completes no run, since it holds
    /// none). Some may be positions no game reaches: a book holds none of
    /// those.
    pub(crate) fn parents(&self) -> impl Iterator<Item = Position> + '_ {
        let last = self.p.current ^ self.p.mask;
        (0..self.g.width).filter_map(move |c| {
            let held = self.p.mask & self.g.column(c);
            if held == 0 {
                return None;
            }
            let top = 1u128 << (127 - held.leading_zeros());
            (last & top != 0).then(|| Position {
                p: Pos {
                    current: last ^ top,
                    mask: self.p.mask ^ top,
                    moves: self.p.moves - 1,
                },
                ..*self
            })
        })
    }

    /// The position seen in a mirror: column `c` becomes `width - 1 - c`.
    #[cfg(test)]
    pub(crate) fn mirrored(&self) -> Position {
        Position {
            p: Pos {
                current: self.g.mirror(self.p.current),
                mask: self.g.mirror(self.p.mask),
                moves: self.p.moves,
            },
            ..*self
        }
    }

    pub(super) fn narrow<W: Word>(&self) -> Pos<W> {
        Pos {
            current: W::from_u128(self.p.current),
            mask: W::from_u128(self.p.mask),
            moves: self.p.moves,
        }
    }

    /// A key shared by the position and its mirror image, and by nothing
    /// else: the smaller of their keys.
    pub fn symmetric_key(&self) -> u128 {
        // The mirror of the key is the mirror image's key: each column's
        // bits (its counters plus its height mark) move as one.
        let key = self.key();
        key.min(self.g.mirror(key))
    }
}

#[cfg(test)]
mod tests;
