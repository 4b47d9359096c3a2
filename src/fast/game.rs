//! A game's machinery: the store its board is kept in and what the board
//! keeps (`Game::keeping`, and `Game::in_store` for the test hooks), and
//! the judge's batched path (`Game::step_ordinary`, `Game::warm`). None of
//! it decides what a move does: `rules::game::step` does.

use crate::board::{Board, Keep};
use crate::fast::Storage;
use crate::game::Game;
use crate::grammar::Header;
use crate::nat::Nat;

impl Game {
    /// An empty frame whose board keeps what `keep` says: with
    /// `Keep { board: true }`, every counter's owner after the first
    /// winning run too, for pictures of the final board ([`Game::new`]
    /// keeps only heights from then on).
    pub fn keeping(header: &Header, keep: Keep) -> Game {
        Game::in_store(header, keep, Storage::Auto)
    }

    /// [`Game::keeping`], its board in the store `storage` says (`Auto` but
    /// for the test hooks).
    pub(crate) fn in_store(header: &Header, keep: Keep, storage: Storage) -> Game {
        let board = Board::in_store(&header.x, &header.y, &header.z, storage, keep);
        Game::on(header, board)
    }

    /// Steps through the longest prefix of `columns` whose moves are
    /// ordinary (inside the frame, into a column with room, winning
    /// nothing, before any win) and returns how many it stepped: the state
    /// is the one that folding [`crate::step`] over them gives (each a
    /// counter placed that wins nothing), reached without a `Nat` per move. The move after
    /// them is for `step`. Steps through none where the board has no fast
    /// path. The judge's batched path, held equal to folding `step` by the
    /// `step` fuzz target and `step_ordinary_is_step_folded_move_by_move`
    /// (`fast/board/tests.rs`).
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
