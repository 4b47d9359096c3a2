//! Boards that are not games: counters stacked whole, in any order of
//! players ("Rotate", a picture of a board). A game changes only through
//! [`crate::step`].

use super::{Board, Effect, Player};
use crate::fast::Storage;
use crate::nat::Nat;

impl Board {
    /// A board for an `x` by `y` frame holding `stacks`: for each column
    /// (1-based), its counters' owners from the bottom up. For positions
    /// that are not games, whose counters need not alternate ("Rotate", a
    /// picture of a board); a game changes only through [`crate::step`].
    /// Also says which players hold a run of at least `z`: `[one, two]`.
    ///
    /// # Errors
    /// The effect of the first counter that could not be stacked:
    /// [`Effect::OffFrame`] for a column past `x` (or 0),
    /// [`Effect::ColumnFull`] for a stack taller than `y`,
    /// [`Effect::OutOfMemory`].
    pub fn from_stacks<'a>(
        x: &Nat,
        y: &Nat,
        z: &Nat,
        stacks: impl IntoIterator<Item = (Nat, &'a [Player])>,
    ) -> Result<(Board, [bool; 2]), Effect> {
        let mut board = Board::new(x, y, z, Storage::Auto);
        let mut holds = [false; 2];
        for (column, owners) in stacks {
            if column.is_zero() {
                return Err(Effect::OffFrame);
            }
            for &player in owners {
                match board.step(&column, player, Some(z)) {
                    Effect::Placed { .. } => {}
                    Effect::Won { .. } => holds[usize::from(player.number() - 1)] = true,
                    failed => return Err(failed),
                }
            }
        }
        Ok((board, holds))
    }
}
