//! The full-board-scan oracle behind the `step` fuzz target: the rules of
//! `spec/rules.md` applied literally to the columns' owners, and every
//! winning run found by scanning the whole board from scratch after each
//! move. It shares nothing
//! with the core's board but the number type and the words of a result
//! (`Player`, `Direction`, `WinningRun`): no run lengths, no stores.
//!
//! The frame may be far wider than the board: the board holds a window of
//! `width` consecutive columns starting after column `base`, the only
//! columns in the frame that moves reach (moves past X are off the frame).

use connectz::{Direction, Nat, Player, WinningRun};

/// What a move does by the rules' words: [`connectz::Effect`] as the
/// oracle finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// r[rule.column-range]: a column greater than X.
    OffFrame,
    /// r[rule.column-full]: a column whose Y cells are taken.
    ColumnFull,
    /// Placed at this row; `after_win` when a run had already won
    /// (r[rule.after-win]).
    Placed {
        /// 1-based row.
        row: u64,
        /// Placed after the game was won.
        after_win: bool,
    },
    /// Placed at this row and, for the first time in the game, the board
    /// holds runs of Z or more (r[rule.line]): all of them.
    Won {
        /// 1-based row.
        row: u64,
        /// Every winning run on the board (Z or more), each maximal.
        runs: Vec<WinningRun>,
    },
}

/// The frame X by Y, runs of Z to win, and the window of columns played.
#[derive(Clone, Debug)]
pub struct FullScanBoard {
    x: Nat,
    y: Nat,
    z: u64,
    base: Nat,
    /// Owners, bottom up, of each column of the window.
    columns: Vec<Vec<Player>>,
    to_move: Player,
    won: bool,
}

impl FullScanBoard {
    /// An empty frame; moves reach columns `base + 1 ..= base + width`,
    /// which must lie inside it.
    pub fn new(x: Nat, y: Nat, z: &Nat, base: Nat, width: usize) -> FullScanBoard {
        FullScanBoard {
            x,
            y,
            z: z.to_u64().unwrap_or(u64::MAX),
            base,
            columns: vec![Vec::new(); width],
            to_move: Player::One,
            won: false,
        }
    }

    /// The 1-based column of the window's column `i`.
    pub fn column(&self, i: usize) -> Nat {
        self.base.add_u64(i as u64 + 1)
    }

    /// Columns in the window.
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// The owners of the window's column `i`, bottom up.
    pub fn owners(&self, i: usize) -> &[Player] {
        &self.columns[i]
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Counters on the board.
    pub fn placed(&self) -> u64 {
        self.columns.iter().map(|c| c.len() as u64).sum()
    }

    /// Steps: the next counter into `column` (1-based), by the rules.
    pub fn step(&mut self, column: &Nat) -> Ruling {
        // Columns are 1 to X (r[rule.frame]): 0 and past X are off it.
        if column.is_zero() || *column > self.x {
            return Ruling::OffFrame;
        }
        let i = column
            .checked_sub(&self.base)
            .and_then(|d| d.to_u64())
            .filter(|&d| d >= 1 && d as usize <= self.columns.len())
            .expect("moves stay inside the window or go past X") as usize
            - 1;
        if self.y <= self.columns[i].len() as u64 {
            return Ruling::ColumnFull;
        }
        self.columns[i].push(self.to_move);
        self.to_move = self.to_move.other();
        let row = self.columns[i].len() as u64;
        if self.won {
            return Ruling::Placed {
                row,
                after_win: true,
            };
        }
        let runs = self.runs();
        if runs.is_empty() {
            return Ruling::Placed {
                row,
                after_win: false,
            };
        }
        self.won = true;
        Ruling::Won { row, runs }
    }

    /// Every winning run, each maximal (a run of Z or more): each cell, each
    /// direction, counted from the cell where the run starts.
    pub fn runs(&self) -> Vec<WinningRun> {
        let owner = |c: i64, r: i64| -> Option<Player> {
            let column = self.columns.get(usize::try_from(c).ok()?)?;
            column.get(usize::try_from(r).ok()?).copied()
        };
        let mut runs = Vec::new();
        for (c, column) in self.columns.iter().enumerate() {
            for (r, &player) in column.iter().enumerate() {
                let (c, r) = (c as i64, r as i64);
                for (direction, dc, dr) in [
                    (Direction::Horizontal, 1, 0),
                    (Direction::Vertical, 0, 1),
                    (Direction::Diagonal, 1, 1),
                    (Direction::AntiDiagonal, 1, -1),
                ] {
                    if owner(c - dc, r - dr) == Some(player) {
                        continue;
                    }
                    let mut length = 1;
                    while owner(c + length * dc, r + length * dr) == Some(player) {
                        length += 1;
                    }
                    if length as u64 >= self.z {
                        runs.push(WinningRun {
                            player,
                            column: self.column(c as usize),
                            row: r as u64 + 1,
                            direction,
                            length: length as u64,
                        });
                    }
                }
            }
        }
        runs
    }
}
