//! Who holds a cell and the runs through it: the players, the four
//! directions, and the winning run.

use crate::nat::Nat;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first.
    One,
    /// Moves second.
    Two,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 1 or 2.
    pub fn number(self) -> u8 {
        match self {
            Player::One => 1,
            Player::Two => 2,
        }
    }
}

/// A direction in which a run can lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Along a row.
    Horizontal,
    /// Up a column.
    Vertical,
    /// Up and to the right.
    Diagonal,
    /// Down and to the right.
    AntiDiagonal,
}

impl Direction {
    /// The step from one cell of a run to the next, away from its start:
    /// columns to the right, rows up.
    pub(crate) fn step(self) -> (u64, i64) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}

/// A winning run: a run of at least z counters of one player (the one
/// meaning of "winning run" in the workspace), given by its lowest-column
/// (then lowest-row) end, direction and length. The judge reports the
/// first one completed; the test kit's full-board-scan oracle lists every
/// one on the board; the games' snapshots give theirs by its cells
/// (`connectz_games::snapshot::RunCells`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinningRun {
    /// Who owns it.
    pub player: Player,
    /// Column (1-based) of the start.
    pub column: Nat,
    /// Row (1-based, bottom is 1) of the start.
    pub row: u64,
    /// Where it runs from the start.
    pub direction: Direction,
    /// Number of counters, at least `z`.
    pub length: u64,
}

impl WinningRun {
    /// The cells of the run, from its start, as (column, row), 1-based.
    pub fn cells(&self) -> impl Iterator<Item = (Nat, u64)> + '_ {
        let (dc, dr) = self.direction.step();
        (0..self.length).map(move |k| {
            let row = self.row.wrapping_add_signed(dr.wrapping_mul(k as i64));
            (self.column.add_u64(dc * k), row)
        })
    }
}
