//! Questions a player asks of a game without playing it: is a column open,
//! would a counter there complete a winning run. Public for those who write
//! players (the generator of games with a chosen code, the engine of
//! `cz play`, the Python package): each is answered by the rules'
//! statement of a run (`rules::game::longest_through`), in time
//! independent of Z, and changes nothing.

use crate::board::Player;
use crate::game::{Game, in_frame, longest_through};
use crate::memory::or_abort;
use crate::nat::Nat;

impl Game {
    /// True when `column` is inside the frame and has room: a move there
    /// places a counter.
    pub fn is_open(&self, column: &Nat) -> bool {
        in_frame(column, &self.x) && self.y > self.board.height(column)
    }

    /// True when the player to move would complete a winning run by
    /// dropping a counter into `column`; false when the column is not open
    /// or the game is already won.
    pub fn would_complete(&self, column: &Nat) -> bool {
        self.would_complete_for(column, self.to_move)
    }

    /// True when a counter of `player`'s dropped into `column` would complete
    /// a winning run, whoever is to move ("must I block this column?");
    /// false when the column is not open or the game is already won.
    pub fn would_complete_for(&self, column: &Nat, player: Player) -> bool {
        self.is_open(column) && self.completes_at(column, self.board.height(column) + 1, player)
    }

    /// True when, once the top of `column` is filled by the other player,
    /// a counter of `player`'s on the cell above would complete a winning
    /// run ("does my move here give the opponent a win above it?"); false
    /// when that cell is outside the frame or the game is already won.
    pub fn would_complete_above(&self, column: &Nat, player: Player) -> bool {
        let row = self.board.height(column) + 2;
        in_frame(column, &self.x) && self.y >= row && self.completes_at(column, row, player)
    }

    /// A counter of `player`'s at the empty cell `column`, `row` would
    /// complete a winning run; the cells between the column's top and the
    /// cell are the other player's.
    fn completes_at(&self, column: &Nat, row: u64, player: Player) -> bool {
        if self.winning_run.is_some() {
            return false;
        }
        let through = or_abort(
            longest_through(&self.board, column, row, player),
            column.digit_count(),
        );
        self.z <= through.length
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::step;
    use crate::grammar::Header;

    fn game(x: u64, y: u64, z: u64) -> Game {
        Game::new(&Header {
            x: x.into(),
            y: y.into(),
            z: z.into(),
        })
    }

    /// `is_open` and `would_complete` answer for the player to move and
    /// change nothing.
    #[test]
    fn open_columns_and_completing_moves() {
        // One row of 5, runs of 2.
        let mut g = game(5, 1, 2);
        g = step(g, &Nat::from(1)).0;
        g = step(g, &Nat::from(3)).0;
        // Player 1 to move: column 2 joins its counter in column 1; column 4
        // would join player 2's.
        assert!(g.would_complete(&Nat::from(2)));
        assert!(!g.would_complete(&Nat::from(4)));
        assert!(g.would_complete_for(&Nat::from(4), Player::Two));
        assert!(!g.would_complete(&Nat::from(5)));
        assert!(!g.is_open(&Nat::from(1)));
        assert!(!g.would_complete(&Nat::from(1)));
        assert!(g.is_open(&Nat::from(2)));
        assert!(!g.is_open(&Nat::from(6)));
        assert!(!g.is_open(&Nat::ZERO));
        g = step(g, &Nat::from(5)).0;
        // Player 2 to move: column 4 joins its counter in column 3.
        assert!(g.would_complete(&Nat::from(4)));
        assert_eq!(g.placed(), 3);
        assert!(g.winning_run().is_none());
        // Once won, nothing completes a winning run.
        g = step(g, &Nat::from(4)).0;
        assert!(g.winning_run().is_some());
        assert!(!g.would_complete(&Nat::from(2)));
    }

    /// `would_complete_above` is what playing into the column and then
    /// asking `would_complete_for` of the cell above says, on random games
    /// (before a win, which ends the asking).
    #[test]
    fn completing_above_is_playing_then_asking() {
        let mut compared = 0;
        let mut completes = 0;
        let mut rng = connectz_rng::Rng::new(8);
        let mut next = |n: u64| rng.below(n);
        for _ in 0..400 {
            let (w, h) = (2 + next(6), 2 + next(6));
            let mut g = game(w, h, 2 + next(3));
            while g.winning_run().is_none() && !g.is_full() {
                let player = g.to_move();
                for c in (1..=w).map(Nat::from) {
                    if !g.is_open(&c) || g.would_complete(&c) {
                        continue;
                    }
                    let (after, _) = step(g.clone(), &c);
                    let expected = after.would_complete_for(&c, player.other());
                    assert_eq!(g.would_complete_above(&c, player.other()), expected);
                    compared += 1;
                    completes += usize::from(expected);
                }
                let c = Nat::from(1 + next(w));
                if g.is_open(&c) {
                    g = step(g, &c).0;
                }
            }
        }
        assert!(
            compared > 5_000 && completes > 200,
            "{compared} {completes}"
        );
    }
}
