//! The state of a game and the pure transition `step`.

use super::grammar::Header;
use super::run::{Player, WinningRun};
use crate::board::Board;
use crate::fast::Storage;
use crate::nat::Nat;

/// A game in progress on a winnable frame.
#[derive(Clone, Debug)]
pub struct Game {
    z: Nat,
    /// `x * y`, when it fits in a u64 (else the frame can never fill).
    cells: Option<u64>,
    board: Board,
    keep_board: bool,
    to_move: Player,
    /// The first winning run, once a counter completes one.
    winning_run: Option<WinningRun>,
    /// Column and row (1-based) of the last counter placed.
    last: Option<(Nat, u64)>,
    /// Column and row (1-based) of the first counter placed after the win.
    after_win: Option<(Nat, u64)>,
}

/// How a game keeps its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Keep {
    /// Keep every counter's owner after the first winning run (for pictures
    /// of the final board); otherwise only column heights are kept from then
    /// on, since no more runs are looked for (r[resource.board]).
    pub board: bool,
}

impl Game {
    /// An empty frame.
    pub fn new(header: &Header, keep: Keep) -> Game {
        Game::in_store(header, keep, Storage::Auto)
    }

    /// An empty frame whose board is kept in the store `storage` says
    /// (`Auto` but for the test hooks).
    pub(crate) fn in_store(header: &Header, keep: Keep, storage: Storage) -> Game {
        Game {
            cells: header
                .x
                .to_u64()
                .zip(header.y.to_u64())
                .and_then(|(x, y)| x.checked_mul(y)),
            board: Board::new(&header.x, &header.y, &header.z, storage),
            keep_board: keep.board,
            z: header.z.clone(),
            to_move: Player::One,
            winning_run: None,
            last: None,
            after_win: None,
        }
    }

    /// Steps the next counter into `column`, in place: the body of
    /// [`step`], the one transition.
    #[inline]
    fn step_in_place(&mut self, column: &Nat) -> Effect {
        let player = self.to_move;
        // r[rule.line]: runs are looked for until the first wins;
        // r[decision.placed-after-win]: after it counters are placed all the same.
        let after_win = self.winning_run.is_some();
        let z = (!after_win).then_some(&self.z);
        // r[rule.frame], r[rule.column-range]: columns are 1..=X; the board
        // says a column outside them (0, from a caller of `step`: a file's
        // zero is a format fault, r[decision.zero]) is off the frame.
        let effect = self.board.step(column, player, z);
        if let Effect::Placed { row, .. } | Effect::Won { row, .. } = effect {
            // r[rule.turns]: players alternate, every placed counter is a turn.
            self.to_move = player.other();
            self.last = Some((column.clone(), row));
            if after_win && self.after_win.is_none() {
                self.after_win = Some((column.clone(), row));
            }
        }
        if let Effect::Won { run, .. } = &effect {
            self.winning_run = Some(run.clone());
            if !self.keep_board {
                self.board.keep_heights_only();
            }
        }
        effect
    }

    /// True when `column` is inside the frame and has room.
    pub fn is_open(&self, column: &Nat) -> bool {
        self.board.is_open(column)
    }

    /// True when the player to move would complete a winning run by dropping
    /// a counter into `column` (which must be open). Changes nothing.
    pub fn would_complete(&self, column: &Nat) -> bool {
        self.is_open(column) && self.z <= self.board.longest_if_played(column, self.to_move)
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

    /// True when every cell of the frame holds a counter.
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
        let (x, y) = self.board.frame();
        (x, y, &self.z)
    }
}

/// What one move did, as [`step`] reports it (the board's store carries the
/// move out, `Board::step`); the judge decides what it means.
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
/// `spec/rules.md`. No I/O, no precedence (the judge turns effects into
/// findings and `verdict::decide` chooses between them). The judge folds it
/// over a file's moves; `Game::step_ordinary`, private to the core, is a
/// batched form of it. The one public way to change a game.
#[inline]
pub fn step(mut state: Game, column: &Nat) -> (Game, Effect) {
    let effect = state.step_in_place(column);
    (state, effect)
}

// The judge's batched path: machinery (`fast/`), here only because it
// needs the game's fields. Held equal to folding `step` by the `step` fuzz
// target and `step_ordinary_is_step_folded_move_by_move` (`fast/board/tests.rs`).
impl Game {
    /// Steps through the longest prefix of `columns` whose moves are
    /// ordinary (inside the frame, into a column with room, winning
    /// nothing, before any win) and returns how many it stepped: the state
    /// is the one that folding [`step`] over them gives (each with
    /// [`Effect::Placed`]), reached without a `Nat` per move. The move after
    /// them is for `step`. Steps through none where the board has no fast
    /// path. The judge's batched path; private to the core, and held equal
    /// to folding `step` by the `step` fuzz target.
    #[inline]
    pub(crate) fn step_ordinary(&mut self, columns: &[u64]) -> usize {
        if self.winning_run.is_some() {
            return 0;
        }
        // A z past u64 is never reached by a run of a frame with an array.
        let z = self.z.to_u64().unwrap_or(u64::MAX);
        let played = self.board.step_ordinary(columns, self.to_move, z);
        if let Some(&last) = columns[..played].last() {
            if played % 2 == 1 {
                self.to_move = self.to_move.other();
            }
            let column = Nat::from(last);
            let row = self.board.height(&column);
            self.last = Some((column, row));
        }
        played
    }

    /// A hint that the next moves are into `columns`; changes nothing.
    #[inline]
    pub(crate) fn warm(&self, columns: &[u64]) {
        self.board.warm(columns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(x: u64, y: u64, z: u64) -> Game {
        let header = Header {
            x: x.into(),
            y: y.into(),
            z: z.into(),
        };
        Game::new(&header, Keep::default())
    }

    /// r[rule.frame]: column 0 is outside the frame whatever the store (a
    /// file's 0 is a format fault; a caller of `step` may pass one), and
    /// places nothing; the next counter is still the same player's.
    #[test]
    fn column_zero_is_off_the_frame_on_every_store() {
        use crate::fast::Storage;
        let header = Header {
            x: 7u64.into(),
            y: 6u64.into(),
            z: 4u64.into(),
        };
        for storage in [Storage::Auto, Storage::Sparse, Storage::Dense] {
            let g = Game::in_store(&header, Keep::default(), storage);
            let (g, effect) = step(g, &Nat::from(0u64));
            assert_eq!(effect, Effect::OffFrame, "{storage:?}");
            assert_eq!(g.board().placed(), 0, "{storage:?}");
            assert_eq!(g.to_move(), Player::One, "{storage:?}");
        }
    }

    /// r[rule.after-win]: the first counter after the win is remembered,
    /// none before it.
    #[test]
    fn the_first_counter_after_the_win_is_remembered() {
        let mut g = game(3, 3, 2);
        for (column, after) in [
            (1, None),
            (3, None),
            (1, None),
            (2, Some((2, 1))),
            (3, Some((2, 1))),
        ] {
            let effect = g.step_in_place(&Nat::from(column));
            assert!(
                matches!(effect, Effect::Placed { .. } | Effect::Won { .. }),
                "{effect:?}"
            );
            assert_eq!(
                g.first_after_win().map(|(c, r)| (c.to_u64().unwrap(), r)),
                after,
                "after column {column}"
            );
        }
        assert!(g.winning_run().is_some());
    }

    /// `is_open` and `would_complete` answer for the player to move and
    /// change nothing.
    #[test]
    fn open_columns_and_completing_moves() {
        // One row of 5, runs of 2.
        let mut g = game(5, 1, 2);
        g.step_in_place(&Nat::from(1));
        g.step_in_place(&Nat::from(3));
        // Player 1 to move: column 2 joins its counter in column 1; column 4
        // would join player 2's.
        assert!(g.would_complete(&Nat::from(2)));
        assert!(!g.would_complete(&Nat::from(4)));
        assert!(!g.would_complete(&Nat::from(5)));
        assert!(!g.is_open(&Nat::from(1)));
        assert!(!g.would_complete(&Nat::from(1)));
        assert!(g.is_open(&Nat::from(2)));
        assert!(!g.is_open(&Nat::from(6)));
        assert!(!g.is_open(&Nat::ZERO));
        g.step_in_place(&Nat::from(5));
        // Player 2 to move: column 4 joins its counter in column 3.
        assert!(g.would_complete(&Nat::from(4)));
        assert_eq!(g.placed(), 3);
        assert!(g.winning_run().is_none());
    }
}
