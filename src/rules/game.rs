//! The game and `step`, the one transition: every rule of play, in the
//! order of spec/rules.md.
//!
//! The board (`crate::board`) keeps the counters and answers questions of
//! cells: how many counters a column holds, how far one player's counters
//! reach from an empty cell in each direction, and "place a counter on top
//! of this column". It answers each in time independent of Z and of the
//! file's size; what those answers mean for a move is decided here.

use super::grammar::Header;
use super::run::{Direction, Player, WinningRun};
use crate::board::Board;
use crate::memory::OutOfMemory;
use crate::nat::Nat;

/// A game in progress on a winnable frame.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) x: Nat,
    pub(crate) y: Nat,
    pub(crate) z: Nat,
    /// `x * y`, when it fits in a u64 (else the frame can never fill).
    cells: Option<u64>,
    pub(crate) board: Board,
    pub(crate) to_move: Player,
    /// The first winning run, once a counter completes one.
    pub(crate) winning_run: Option<WinningRun>,
    /// Column and row (1-based) of the last counter placed.
    pub(crate) last: Option<(Nat, u64)>,
    /// Column and row (1-based) of the first counter placed after the win.
    after_win: Option<(Nat, u64)>,
}

/// What one move did, as [`step`] reports it; what it means for the code
/// is for `findings` to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Memory ran out: nothing placed, and the game cannot go on
    /// (r[decision.out-of-memory]).
    OutOfMemory,
    /// r[rule.column-range]: the column is outside the frame (greater than X,
    /// or 0 from a caller of [`step`]); nothing placed.
    OffFrame,
    /// r[rule.column-full]: the column is full; nothing placed.
    ColumnFull,
    /// The counter was placed at this 1-based row and won nothing.
    Placed {
        /// Row the counter landed on (r[rule.gravity]).
        row: u64,
        /// True when a run had already won the game before this move
        /// (r[rule.after-win]).
        after_win: bool,
    },
    /// The counter was placed at this 1-based row and completed the game's
    /// first winning run (r[rule.line]).
    Won {
        /// Row the counter landed on.
        row: u64,
        /// The run it completed.
        run: WinningRun,
    },
}

/// The transition: state in, state and effect out, by the rules of
/// `spec/rules.md`. No I/O, no precedence (`findings` says what an effect
/// means and `verdict::decide` chooses between findings). The judge folds
/// it over a file's moves. The one public way to change a game.
#[inline]
pub fn step(mut state: Game, column: &Nat) -> (Game, Effect) {
    let effect = state.play(column);
    (state, effect)
}

impl Game {
    /// An empty frame: no counter placed, player 1 to move.
    pub fn new(header: &Header) -> Game {
        Game::on(header, Board::new(&header.x, &header.y, &header.z))
    }

    /// An empty frame whose counters `board` (empty, of the same frame)
    /// keeps.
    pub(crate) fn on(header: &Header, board: Board) -> Game {
        Game {
            x: header.x.clone(),
            y: header.y.clone(),
            z: header.z.clone(),
            cells: header
                .x
                .to_u64()
                .zip(header.y.to_u64())
                .and_then(|(x, y)| x.checked_mul(y)),
            board,
            to_move: Player::One,
            winning_run: None,
            last: None,
            after_win: None,
        }
    }

    /// The body of [`step`]: the rules of play, in the spec's order.
    #[inline]
    fn play(&mut self, column: &Nat) -> Effect {
        // r[rule.frame], r[rule.column-range]: columns are 1 to X; a move
        // for any other places nothing (a file's 0 is a format fault,
        // r[decision.zero], but a caller of `step` may pass one).
        if !in_frame(column, &self.x) {
            return Effect::OffFrame;
        }
        // r[rule.column-full]: a column that holds Y counters takes no more.
        let height = self.board.height(column);
        if self.y <= height {
            return Effect::ColumnFull;
        }
        // r[rule.gravity]: the counter falls to the lowest empty cell.
        let row = height + 1;
        // r[rule.turns]: player 1 moves first, then the players alternate.
        let player = self.to_move;
        // r[rule.line]: the first counter that completes a run of Z or
        // more wins; runs are looked for until then, and not after
        // (r[rule.after-win]).
        let won = match self.winning_run {
            Some(_) => None,
            None => match winning_run(&self.board, column, row, player, &self.z) {
                Ok(won) => won,
                Err(OutOfMemory) => return Effect::OutOfMemory,
            },
        };
        if self.board.place(column, player).is_err() {
            return Effect::OutOfMemory;
        }
        // r[rule.turns]: every counter placed is one turn.
        self.to_move = player.other();
        self.last = Some((column.clone(), row));
        if let Some(run) = won {
            self.winning_run = Some(run.clone());
            // No run is looked for again: the board may keep less.
            self.board.runs_settled();
            return Effect::Won { row, run };
        }
        // r[rule.after-win], r[decision.placed-after-win]: a move after the
        // win still places its counter.
        let after_win = self.winning_run.is_some();
        if after_win && self.after_win.is_none() {
            self.after_win = Some((column.clone(), row));
        }
        Effect::Placed { row, after_win }
    }

    /// Column and row (1-based) of the last counter placed.
    pub fn last(&self) -> Option<(&Nat, u64)> {
        self.last.as_ref().map(|(c, r)| (c, *r))
    }

    /// Column and row (1-based) of the first counter placed after the game
    /// was won (r[rule.after-win]), if any.
    pub fn first_after_win(&self) -> Option<(&Nat, u64)> {
        self.after_win.as_ref().map(|(c, r)| (c, *r))
    }

    /// The first winning run, if any.
    pub fn winning_run(&self) -> Option<&WinningRun> {
        self.winning_run.as_ref()
    }

    /// True when every cell of the frame holds a counter (r[rule.end]).
    pub fn is_full(&self) -> bool {
        self.cells == Some(self.board.placed())
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Counters placed so far.
    pub fn placed(&self) -> u64 {
        self.board.placed()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The frame: columns, rows, run length to win.
    pub fn frame(&self) -> (&Nat, &Nat, &Nat) {
        (&self.x, &self.y, &self.z)
    }
}

/// r[rule.frame], r[rule.column-range]: columns 1 to X are in the frame.
pub(crate) fn in_frame(column: &Nat, x: &Nat) -> bool {
    !column.is_zero() && column <= x
}

/// The longest run a counter of one player's would be part of, through an
/// empty cell: its direction, its length, and how many of its counters lie
/// back from the cell, towards its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Through {
    pub(crate) direction: Direction,
    pub(crate) length: u64,
    back: u64,
}

/// r[rule.line]: the run `player` would have through a counter at the
/// empty cell `column`, `row` (1-based; at or above the column's top), in a
/// row, a column or either diagonal: in each direction, the player's
/// counters that reach back from the cell, the counter, and those that
/// reach ahead. The longest, and of equal ones the first in the order
/// vertical, horizontal, diagonal, anti-diagonal: the one a finding gives.
pub(crate) fn longest_through(
    board: &Board,
    column: &Nat,
    row: u64,
    player: Player,
) -> Result<Through, OutOfMemory> {
    let reach = board.reach(column, row, player)?;
    let mut longest = Through {
        direction: Direction::Vertical,
        length: 0,
        back: 0,
    };
    for direction in [
        Direction::Vertical,
        Direction::Horizontal,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ] {
        let (back, ahead) = reach.along(direction);
        // Runs are at most the frame's width or height long, and a board
        // holds less than 2^64 counters a column or row, so no overflow.
        let length = back + 1 + ahead;
        if length > longest.length {
            longest = Through {
                direction,
                length,
                back,
            };
        }
    }
    Ok(longest)
}

/// r[rule.line]: the winning run a counter of `player`'s at `column`, `row`
/// would complete, a run of at least `z`, given from its start; `None` when
/// the longest run through the cell is shorter. [`OutOfMemory`] when a
/// number it needs (a neighbour's column past 2^64) cannot be made.
fn winning_run(
    board: &Board,
    column: &Nat,
    row: u64,
    player: Player,
    z: &Nat,
) -> Result<Option<WinningRun>, OutOfMemory> {
    let through = longest_through(board, column, row, player)?;
    if *z > through.length {
        return Ok(None);
    }
    // Walk `back` counters towards the start.
    let (dc, dr) = through.direction.step();
    let column = match dc {
        0 => column.clone(),
        _ => column
            .try_checked_sub(&Nat::from(through.back))?
            .unwrap_or(Nat::ZERO),
    };
    let row = match dr {
        1 => row - through.back,
        -1 => row + through.back,
        _ => row,
    };
    Ok(Some(WinningRun {
        player,
        column,
        row,
        direction: through.direction,
        length: through.length,
    }))
}

#[cfg(test)]
mod tests;
