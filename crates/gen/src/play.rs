//! Random play towards an ending (a full frame, a full column, a win, a
//! length) in which no move completes a run the ending does not ask for.

use connectz::{Direction, Game, Header, Nat, Player, step};
use connectz_rng::Rng;

/// What a generated game plays towards; no move completes a run unless
/// the ending asks for it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ending {
    /// Fill the frame.
    Fill,
    /// Fill this column (1-based), then stop.
    Column(u64),
    /// Complete a run for this player: in this direction only, if given.
    Win(Player, Option<Direction>),
    /// Stop after this many moves.
    Length(u64),
}

/// A game from the empty frame towards `ending`: its columns, or `None`
/// when the ending cannot be reached.
pub(crate) fn random_game(header: &Header, rng: &mut Rng, ending: Ending) -> Option<Vec<u64>> {
    let game = Game::new(header);
    continue_game(game, rng, ending).map(|(_, moves)| moves)
}

/// The columns with room, kept as a list with each column's place in it, so
/// that a random one is drawn and a full one dropped in O(1).
pub(crate) struct Open {
    columns: Vec<u64>,
    /// `at[c]`: where column c is in `columns` (`usize::MAX`: full).
    at: Vec<usize>,
}

impl Open {
    pub(crate) fn new(game: &Game, x: u64) -> Open {
        let mut at = vec![usize::MAX; x as usize + 1];
        let mut columns = Vec::new();
        for c in 1..=x {
            if game.is_open(&Nat::from(c)) {
                at[c as usize] = columns.len();
                columns.push(c);
            }
        }
        Open { columns, at }
    }

    pub(crate) fn random(&self, rng: &mut Rng) -> Option<u64> {
        (!self.columns.is_empty())
            .then(|| self.columns[rng.below(self.columns.len() as u64) as usize])
    }

    /// Drops `column` from the list once it is full.
    fn update(&mut self, game: &Game, column: u64) {
        let i = self.at[column as usize];
        if i != usize::MAX && !game.is_open(&Nat::from(column)) {
            let last = *self.columns.last().expect("column is listed");
            self.columns.swap_remove(i);
            self.at[last as usize] = i;
            self.at[column as usize] = usize::MAX;
        }
    }
}

/// Random probes before a full scan of the open columns: most moves find
/// what they look for at once, so a game costs O(1) per move, expected.
const PROBES: usize = 8;

/// An open column, other than `avoid`, that does not complete a run for
/// the player to move; `None` when there is none.
fn safe_column(game: &Game, open: &Open, rng: &mut Rng, avoid: Option<u64>) -> Option<u64> {
    let safe = |c: u64| Some(c) != avoid && !game.would_complete(&Nat::from(c));
    for _ in 0..PROBES {
        let c = open.random(rng)?;
        if safe(c) {
            return Some(c);
        }
    }
    let candidates: Vec<u64> = open.columns.iter().copied().filter(|&c| safe(c)).collect();
    candidates
        .get(rng.below(candidates.len().max(1) as u64) as usize)
        .copied()
}

/// Plays random moves towards `ending`; `None` when it cannot be reached.
/// A win is built as a column: after a random opening, the winner stacks
/// counters in a column with room for a run while the other player plays
/// elsewhere, until some run of the winner's is complete.
pub(crate) fn continue_game(
    mut game: Game,
    rng: &mut Rng,
    ending: Ending,
) -> Option<(Game, Vec<u64>)> {
    let x = game.frame().0.to_u64()?;
    let y = game.frame().1.to_u64()?;
    let z = game.frame().2.to_u64().unwrap_or(u64::MAX);
    let mut open = Open::new(&game, x);
    let mut moves = Vec::new();
    let opening = match ending {
        Ending::Win(..) => rng.below((x * y / 3).min(400) + 1),
        _ => u64::MAX,
    };
    let mut target: Option<u64> = None;
    loop {
        match ending {
            Ending::Length(n) if moves.len() as u64 >= n => return Some((game, moves)),
            Ending::Fill if game.is_full() => return Some((game, moves)),
            Ending::Column(c) if !game.is_open(&Nat::from(c)) => return Some((game, moves)),
            _ => {}
        }
        let column =
            match ending {
                Ending::Win(p, Some(d)) if game.to_move() == p => {
                    match directed(&game, &open, rng, d, x, y, z) {
                        Ok(c) => {
                            game = step(game, &Nat::from(c)).0;
                            moves.push(c);
                            return Some((game, moves));
                        }
                        Err(Some(c)) => c,
                        Err(None) => safe_column(&game, &open, rng, None)?,
                    }
                }
                Ending::Win(p, None) if game.to_move() == p => {
                    // Take a win when a probe finds one.
                    let probes = (0..PROBES).filter_map(|_| open.random(rng));
                    if let Some(c) = target.into_iter().chain(probes).find(|&c| {
                        game.is_open(&Nat::from(c)) && game.would_complete(&Nat::from(c))
                    }) {
                        game = step(game, &Nat::from(c)).0;
                        moves.push(c);
                        return Some((game, moves));
                    }
                    if moves.len() as u64 >= opening && target.is_none() {
                        // A column with room for z counters of the winner's.
                        target = (0..PROBES)
                            .filter_map(|_| open.random(rng))
                            .find(|&c| game.board().height(&Nat::from(c)).saturating_add(z) <= y);
                    }
                    match target.filter(|&c| game.is_open(&Nat::from(c))) {
                        Some(c) => c,
                        None => safe_column(&game, &open, rng, None)?,
                    }
                }
                // Lean on the column to fill, when that is safe.
                Ending::Column(c)
                    if rng.below(2) == 0
                        && game.is_open(&Nat::from(c))
                        && !game.would_complete(&Nat::from(c)) =>
                {
                    c
                }
                _ => safe_column(&game, &open, rng, target)?,
            };
        game = step(game, &Nat::from(column)).0;
        open.update(&game, column);
        moves.push(column);
    }
}

/// The winner's move towards a win in direction `d` only: `Ok` a column
/// that completes a run in `d` and in no other direction, else `Err` of a
/// safe column that lengthens the longest run in `d` (taken half the time,
/// to steer the game), or `Err(None)` for a random safe move.
fn directed(
    game: &Game,
    open: &Open,
    rng: &mut Rng,
    d: Direction,
    x: u64,
    y: u64,
    z: u64,
) -> Result<u64, Option<u64>> {
    let player = game.to_move();
    // Small frames are scanned whole, larger ones probed.
    let columns: Vec<u64> = if open.columns.len() <= 64 {
        open.columns.clone()
    } else {
        (0..PROBES).filter_map(|_| open.random(rng)).collect()
    };
    let mut best: Option<(u64, u64)> = None;
    for c in columns {
        let row = game.board().height(&Nat::from(c)) + 1;
        let runs = DIRECTIONS.map(|dir| run_through(game, player, c, row, dir, x, y));
        let wins = runs.iter().filter(|&&n| n >= z).count();
        let along = runs[DIRECTIONS.iter().position(|&dir| dir == d).unwrap_or(0)];
        if wins == 1 && along >= z {
            return Ok(c);
        }
        if wins == 0 && best.is_none_or(|(n, _)| along > n) {
            best = Some((along, c));
        }
    }
    Err(best.filter(|_| rng.below(2) == 0).map(|(_, c)| c))
}

/// The four directions, in the order [`run_through`] is asked about them.
pub(crate) const DIRECTIONS: [Direction; 4] = [
    Direction::Horizontal,
    Direction::Vertical,
    Direction::Diagonal,
    Direction::AntiDiagonal,
];

/// The length of `player`'s run in direction `d` through a counter of
/// theirs at `column`, `row` (1-based), counted cell by cell on the board.
fn run_through(
    game: &Game,
    player: Player,
    column: u64,
    row: u64,
    d: Direction,
    x: u64,
    y: u64,
) -> u64 {
    let (dc, dr): (i64, i64) = match d {
        Direction::Horizontal => (1, 0),
        Direction::Vertical => (0, 1),
        Direction::Diagonal => (1, 1),
        Direction::AntiDiagonal => (1, -1),
    };
    let mut n = 1;
    for sign in [1, -1] {
        let (mut c, mut r) = (column as i64, row as i64);
        loop {
            c += sign * dc;
            r += sign * dr;
            if c < 1 || r < 1 || c as u64 > x || r as u64 > y {
                break;
            }
            if game.board().owner(&Nat::from(c as u64), r as u64) != Some(player) {
                break;
            }
            n += 1;
        }
    }
    n
}
