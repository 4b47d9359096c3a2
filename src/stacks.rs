//! Boards that are not games: counters stacked whole, in any order of
//! players ("Rotate", a picture of a board). A game changes only through
//! [`crate::step`].

use crate::board::{Board, Player};
use crate::game::{Effect, in_frame, longest_through};
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
        let mut board = Board::new(x, y, z);
        let mut holds = [false; 2];
        for (column, owners) in stacks {
            if column.is_zero() {
                return Err(Effect::OffFrame);
            }
            for &player in owners {
                // The rules of a move, but for turns: the frame, a full
                // column, gravity, and a run through the counter.
                if !in_frame(&column, x) {
                    return Err(Effect::OffFrame);
                }
                let row = board.height(&column) + 1;
                if *y < row {
                    return Err(Effect::ColumnFull);
                }
                let run = longest_through(&board, &column, row, player)
                    .map_err(|_| Effect::OutOfMemory)?;
                board
                    .place(&column, player)
                    .map_err(|_| Effect::OutOfMemory)?;
                if *z <= run.length {
                    holds[usize::from(player.number() - 1)] = true;
                }
            }
        }
        Ok((board, holds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_stacks` holds any stacks inside the frame, whoever owns them,
    /// says who holds a winning run, and errs with the effect of the first
    /// counter that cannot be stacked.
    #[test]
    fn from_stacks_builds_positions_that_are_not_games() {
        let n = |v: u64| Nat::from(v);
        const ONE: Player = Player::One;
        const TWO: Player = Player::Two;
        let stack = |c: u64, owners: &'static [Player]| (n(c), owners);
        // Player 1 alone holds three in column 1; nothing alternates.
        let (board, holds) = Board::from_stacks(
            &n(3),
            &n(3),
            &n(3),
            [stack(1, &[ONE, ONE, ONE]), stack(3, &[TWO])],
        )
        .unwrap();
        assert_eq!(holds, [true, false]);
        assert_eq!(board.placed(), 4);
        assert_eq!(board.owner(&n(1), 3), Some(ONE));
        assert_eq!(board.owner(&n(3), 1), Some(TWO));
        // Both can hold one: a row each.
        let (_, holds) = Board::from_stacks(
            &n(2),
            &n(2),
            &n(2),
            [stack(1, &[ONE, TWO]), stack(2, &[ONE, TWO])],
        )
        .unwrap();
        assert_eq!(holds, [true, true]);
        let (_, holds) = Board::from_stacks(&n(2), &n(2), &n(2), [stack(2, &[ONE])]).unwrap();
        assert_eq!(holds, [false, false]);
        let fails = |stacks: Vec<(Nat, &'static [Player])>| {
            Board::from_stacks(&n(2), &n(2), &n(3), stacks).err()
        };
        assert_eq!(fails(vec![stack(3, &[ONE])]), Some(Effect::OffFrame));
        assert_eq!(fails(vec![stack(0, &[ONE])]), Some(Effect::OffFrame));
        assert_eq!(
            fails(vec![stack(1, &[ONE, TWO, ONE])]),
            Some(Effect::ColumnFull)
        );
        assert_eq!(fails(vec![stack(1, &[])]), None);
    }
}
