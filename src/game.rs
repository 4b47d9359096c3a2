//! The state of a game and the pure transition `step`.

use crate::board::{Board, Drop, Player, Storage, WinLine};
use crate::grammar::Header;
use crate::nat::Nat;

/// A game in progress on a winnable frame. A handle to boxed state, so that
/// `step` moves a pointer, not the board.
#[derive(Clone, Debug)]
pub struct Game(Box<State>);

#[derive(Clone, Debug)]
struct State {
    z: Nat,
    /// `x * y`, when it fits in a u64 (else the frame can never fill).
    cells: Option<u64>,
    board: Board,
    keep_board: bool,
    to_move: Player,
    line: Option<WinLine>,
    /// Column and row (1-based) of the last counter placed.
    last: Option<(Nat, u64)>,
}

/// How a game keeps its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Keep {
    /// How the board stores its cells.
    pub storage: Storage,
    /// Keep every counter's owner after the first line (for pictures of the
    /// final board); otherwise only column heights are kept from then on,
    /// since no more lines are looked for (r[resource.board]).
    pub board: bool,
}

/// What one move did. `step` reports; the judge decides what it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Memory ran out: nothing placed, and the game cannot go on
    /// (r[decision.out-of-memory]).
    Exhausted,
    /// r[rule.column-range]: the column is greater than X; nothing placed.
    OffFrame,
    /// r[rule.column-full]: the column is full; nothing placed.
    ColumnFull,
    /// The counter was placed at this 1-based row.
    Placed {
        /// Row the counter landed on (r[rule.gravity]).
        row: u64,
        /// True when a line had already been completed before this move
        /// (r[rule.after-win]).
        after_line: bool,
        /// True when this counter completed the first line (see [`Game::line`]).
        completes: bool,
    },
}

impl Game {
    /// An empty frame.
    pub fn new(header: &Header, keep: Keep) -> Game {
        Game(Box::new(State {
            cells: header
                .x
                .to_u64()
                .zip(header.y.to_u64())
                .and_then(|(x, y)| x.checked_mul(y)),
            board: Board::new(&header.x, &header.y, &header.z, keep.storage),
            keep_board: keep.board,
            z: header.z.clone(),
            to_move: Player::One,
            line: None,
            last: None,
        }))
    }

    /// Plays one move in place. See [`step`] for the pure form.
    #[inline]
    pub fn play(&mut self, column: &Nat) -> Effect {
        let s = &mut *self.0;
        let player = s.to_move;
        // r[rule.line]: lines are looked for until the first is completed;
        // r[decision.placed-after-win]: after it counters are placed all the same.
        let after_line = s.line.is_some();
        let z = (!after_line).then_some(&s.z);
        // r[rule.frame]: columns are 1..=X; zero never reaches here (format).
        match s.board.drop_into(column, player, z) {
            Drop::OffFrame => Effect::OffFrame,
            Drop::Full => Effect::ColumnFull,
            Drop::Exhausted => Effect::Exhausted,
            Drop::Placed { row, line } => {
                // r[rule.turns]: players alternate, every placed counter is a turn.
                s.to_move = player.other();
                s.last = Some((column.clone(), row));
                let completes = line.is_some();
                if completes {
                    s.line = line;
                    if !s.keep_board {
                        s.board.keep_heights_only();
                    }
                }
                Effect::Placed {
                    row,
                    after_line,
                    completes,
                }
            }
        }
    }

    /// A hint that the next move is into `column`; changes nothing.
    pub fn warm(&self, column: u64) {
        self.0.board.warm(column);
    }

    /// True when `column` is inside the frame and has room.
    pub fn is_open(&self, column: &Nat) -> bool {
        self.0.board.is_open(column)
    }

    /// True when the player to move would complete a line by dropping a
    /// counter into `column` (which must be open). Changes nothing.
    pub fn would_complete(&self, column: &Nat) -> bool {
        self.is_open(column) && self.0.z <= self.0.board.longest_if_played(column, self.0.to_move)
    }

    /// Column and row (1-based) of the last counter placed.
    pub fn last(&self) -> Option<(&Nat, u64)> {
        self.0.last.as_ref().map(|(c, r)| (c, *r))
    }

    /// The first completed line, if any.
    pub fn line(&self) -> Option<&WinLine> {
        self.0.line.as_ref()
    }

    /// True when every cell of the frame holds a counter.
    pub fn is_full(&self) -> bool {
        self.0.cells == Some(self.0.board.placed())
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Player {
        self.0.to_move
    }

    /// Counters placed so far.
    pub fn placed(&self) -> u64 {
        self.0.board.placed()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.0.board
    }

    /// The frame: columns, rows, line length.
    pub fn frame(&self) -> (&Nat, &Nat, &Nat) {
        let (x, y) = self.0.board.frame();
        (x, y, &self.0.z)
    }
}

/// The transition: state in, state and effect out. No I/O, no precedence.
#[inline]
pub fn step(mut state: Game, column: &Nat) -> (Game, Effect) {
    let effect = state.play(column);
    (state, effect)
}
