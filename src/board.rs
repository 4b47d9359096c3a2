//! The frame's cells, and line detection in time independent of `z`.
//!
//! r[rule.line]: every placed counter records, at the two ends of each run it
//! belongs to, the length of that run in the four directions. A new counter
//! joins the runs ending beside it, so each move costs O(1) however long the
//! runs grow. Two stores back this: a dense row-major array for frames the
//! file could fill, and a sparse map for everything else, so memory follows
//! the counters placed, not the frame.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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

    fn from_tag(tag: u64) -> Option<Player> {
        match tag {
            1 => Some(Player::One),
            2 => Some(Player::Two),
            _ => None,
        }
    }
}

/// A direction in which a line can run.
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

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Direction::Horizontal => "horizontal",
            Direction::Vertical => "vertical",
            Direction::Diagonal => "diagonal",
            Direction::AntiDiagonal => "anti-diagonal",
        })
    }
}

/// A completed line: its lowest-column (then lowest-row) end, direction and length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinLine {
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

impl WinLine {
    /// The cells of the line, from its start, as (column, row), 1-based.
    pub fn cells(&self) -> impl Iterator<Item = (Nat, u64)> + '_ {
        let (dc, dr): (u64, i64) = match self.direction {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        };
        (0..self.length).map(move |k| {
            let row = self.row.wrapping_add_signed(dr.wrapping_mul(k as i64));
            (self.column.add_u64(dc * k), row)
        })
    }
}

/// The three directions whose runs are stored per cell; vertical runs only
/// ever grow at a column's top, so one count per column serves them.
const SIDEWAYS: [(usize, i64); 3] = [(0, 0), (1, 1), (2, -1)];
const SIDEWAYS_DIRECTIONS: [Direction; 3] = [
    Direction::Horizontal,
    Direction::Diagonal,
    Direction::AntiDiagonal,
];

/// A run length in a dense store: u16 or u32.
trait Lane: Copy + PartialEq + PartialOrd + std::fmt::Debug {
    const ZERO: Self;
    const ONE: Self;
    fn widen(self) -> u64;
    /// Callers guarantee `v` fits (it is bounded by the frame's width).
    fn narrow(v: u64) -> Self;
    fn add(self, other: Self) -> Self;
    fn tag(player: Player) -> Self;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            fn widen(self) -> u64 {
                u64::from(self)
            }
            fn narrow(v: u64) -> Self {
                v as $t
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn tag(player: Player) -> Self {
                <$t>::from(player.number())
            }
        }
    };
}
lane!(u16);
lane!(u32);

/// Cells `[horizontal, diagonal, anti-diagonal, owner]` in one array, row
/// after row: the cells a move reads and writes lie in the three rows
/// around it, so the rows being filled stay few pages of memory however
/// wide the frame. `L` is the narrowest integer that holds the frame's
/// width, so that as many cells as possible share a cache line.
#[derive(Clone, Debug)]
struct Dense<L> {
    width: usize,
    rows: usize,
    cells: Vec<[L; 4]>,
    heights: Vec<u32>,
    top_runs: Vec<u32>,
}

impl<L: Lane> Dense<L> {
    fn new(width: usize, rows: usize) -> Dense<L> {
        Dense {
            width,
            rows,
            // All-zero arrays come from a zeroed allocation: pages are only
            // touched where counters land.
            cells: vec![[L::ZERO; 4]; width * rows],
            heights: vec![0; width],
            top_runs: vec![0; width],
        }
    }

    /// Index of (col, row), 0-based.
    fn index(&self, col: usize, row: usize) -> usize {
        row * self.width + col
    }

    /// The index step one cell to the right along a sideways direction
    /// whose row changes by `dr` per column.
    fn step(&self, dr: i64) -> isize {
        1 + dr as isize * self.width as isize
    }

    /// Counters in `column` (1-based, inside the frame).
    fn height(&self, column: &Nat) -> u64 {
        dense_index(column).map_or(0, |c| u64::from(self.heights[c]))
    }

    /// Who owns (col, row), 0-based.
    fn owner(&self, col: usize, row: u64) -> Option<Player> {
        let height = *self.heights.get(col)?;
        if row >= u64::from(height) {
            return None;
        }
        Player::from_tag(self.cells[self.index(col, row as usize)][3].widen())
    }

    /// The run-length update of [`Sparse::place`], specialised to the
    /// array: the hot loop of dense games. `col` is inside the frame and not full.
    #[inline]
    fn drop(&mut self, col: usize, player: Player) -> (u64, Direction, u64, u64) {
        let tag = L::tag(player);
        let row = self.heights[col] as usize;
        let here = self.index(col, row);
        let (vertical, sides) = self.beside(col, tag);
        let (zero, one) = (L::ZERO, L::ONE);
        let mut best = (
            Direction::Vertical,
            L::narrow(u64::from(vertical)),
            L::narrow(u64::from(vertical - 1)),
        );
        let mut runs = [one; 3];
        for (dir, dr) in SIDEWAYS {
            let step = self.step(dr);
            let (back, ahead) = sides[dir];
            // Bounded by the frame's width, which fits in `L` (Board::new).
            let total = back.add(one).add(ahead);
            // Only the ends of a run are ever read again: update those.
            if back != zero {
                let end = here.wrapping_add_signed(-step * back.widen() as isize);
                self.cells[end][dir] = total;
            }
            if ahead != zero {
                let end = here.wrapping_add_signed(step * ahead.widen() as isize);
                self.cells[end][dir] = total;
            }
            runs[dir] = total;
            if total > best.1 {
                best = (SIDEWAYS_DIRECTIONS[dir], total, back);
            }
        }
        self.cells[here] = [runs[0], runs[1], runs[2], tag];
        self.heights[col] += 1;
        self.top_runs[col] = vertical;
        (row as u64, best.0, best.1.widen(), best.2.widen())
    }

    /// [`Sparse::beside`], specialised to the array: the vertical run and the
    /// (back, ahead) runs a counter tagged `tag` on top of `col` would join.
    #[inline]
    fn beside(&self, col: usize, tag: L) -> (u32, [(L, L); 3]) {
        let row = self.heights[col] as usize;
        let here = self.index(col, row);
        let vertical = if row > 0 && self.cells[here - self.width][3] == tag {
            self.top_runs[col] + 1
        } else {
            1
        };
        // Heights of the neighbouring columns; 0 beyond the frame's edges.
        let left = col.checked_sub(1).map_or(0, |c| self.heights[c] as usize);
        let right = self.heights.get(col + 1).map_or(0, |&h| h as usize);
        let zero = L::ZERO;
        let mut sides = [(zero, zero); 3];
        for (dir, dr) in SIDEWAYS {
            let step = self.step(dr);
            // The cell beside, if occupied by `player`, ends a run there.
            if row.wrapping_add_signed(-dr as isize) < left {
                let cell = self.cells[here.wrapping_add_signed(-step)];
                if cell[3] == tag {
                    sides[dir].0 = cell[dir];
                }
            }
            if row.wrapping_add_signed(dr as isize) < right {
                let cell = self.cells[here.wrapping_add_signed(step)];
                if cell[3] == tag {
                    sides[dir].1 = cell[dir];
                }
            }
        }
        (vertical, sides)
    }

    fn longest_if_played(&self, col: usize, player: Player) -> u64 {
        let (vertical, sides) = self.beside(col, L::tag(player));
        sides
            .iter()
            .map(|(b, a)| b.widen() + 1 + a.widen())
            .fold(u64::from(vertical), u64::max)
    }

    /// Reads the cells a move into `col` will touch, so that their cache
    /// lines are on their way while the current move is played.
    fn warm(&self, col: usize) {
        if let Some(&h) = self.heights.get(col) {
            let i = self.index(col, h as usize);
            let near = [i.wrapping_sub(self.width), i, i.wrapping_add(self.width)];
            for j in near {
                if let Some(cell) = self.cells.get(j) {
                    std::hint::black_box(cell[0]);
                }
            }
        }
    }

    /// [`Board::drop_into`] on the array: the placement as (row, direction,
    /// length, back), or what stopped it. Without `lines`, the counter is
    /// only stacked.
    #[inline]
    fn drop_into(
        &mut self,
        column: &Nat,
        player: Player,
        lines: bool,
    ) -> Result<(u64, Direction, u64, u64), Drop> {
        // A dense frame's width is X itself.
        let col = dense_index(column)
            .filter(|&c| c < self.heights.len())
            .ok_or(Drop::OffFrame)?;
        let row = self.heights[col] as usize;
        if row == self.rows {
            return Err(Drop::Full);
        }
        if lines {
            return Ok(self.drop(col, player));
        }
        let here = self.index(col, row);
        self.cells[here] = [L::ZERO, L::ZERO, L::ZERO, L::tag(player)];
        self.heights[col] += 1;
        Ok((row as u64, Direction::Vertical, 0, 0))
    }
}

/// A fast hasher for the sparse store's keys (column numbers); the keys come
/// from the input file, but the work per move is bounded anyway.
#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

#[derive(Clone, Debug, Default)]
struct SparseColumn {
    /// (owner, runs) per row, bottom first.
    cells: Vec<(Player, [u64; 3])>,
    top_run: u64,
}

/// Occupied columns only, keyed by their 1-based number.
#[derive(Clone, Debug, Default)]
struct Sparse {
    columns: HashMap<Nat, SparseColumn, BuildHasherDefault<FoldHasher>>,
}

/// `col + by`, or `None` left of column 1.
fn shift(col: &Nat, by: i64) -> Option<Nat> {
    if by >= 0 {
        Some(col.add_u64(by as u64))
    } else {
        col.checked_sub_u64(by.unsigned_abs())
            .filter(|c| !c.is_zero())
    }
}

impl Sparse {
    fn cell(&self, col: &Nat, dc: i64, row: u64, dr: i64) -> Option<&(Player, [u64; 3])> {
        let col = shift(col, dc)?;
        let row = usize::try_from(row.checked_add_signed(dr)?).ok()?;
        self.columns.get(&col)?.cells.get(row)
    }

    fn height(&self, col: &Nat) -> u64 {
        self.columns.get(col).map_or(0, |c| c.cells.len() as u64)
    }

    /// The runs a counter of `player` on top of `col` would join: its row
    /// (0-based), its vertical run, and the (back, ahead) lengths beside it
    /// in each sideways direction. Three lookups: the column and its two
    /// neighbours.
    fn beside(&self, col: &Nat, player: Player) -> (u64, u64, [(u64, u64); 3]) {
        let here = self.columns.get(col);
        let row = here.map_or(0, |c| c.cells.len() as u64);
        let vertical = match here.and_then(|c| c.cells.last().map(|top| (top.0, c.top_run))) {
            Some((owner, run)) if owner == player => run + 1,
            _ => 1,
        };
        let left = shift(col, -1).and_then(|c| self.columns.get(&c));
        let right = self.columns.get(&col.add_u64(1));
        // The cell beside, if occupied by `player`, ends a run there.
        let run = |column: Option<&SparseColumn>, row: Option<u64>, dir: usize| -> u64 {
            column
                .zip(row)
                .and_then(|(c, r)| c.cells.get(usize::try_from(r).ok()?))
                .filter(|cell| cell.0 == player)
                .map_or(0, |cell| cell.1[dir])
        };
        let mut sides = [(0, 0); 3];
        for (dir, dr) in SIDEWAYS {
            sides[dir] = (
                run(left, row.checked_add_signed(-dr), dir),
                run(right, row.checked_add_signed(dr), dir),
            );
        }
        (row, vertical, sides)
    }

    /// Places `player`'s counter on top of `col` and returns its row
    /// (0-based) and the longest line through it as (direction, length,
    /// steps back to the line's start).
    fn place(&mut self, col: &Nat, player: Player) -> (u64, Direction, u64, u64) {
        let (row, vertical, sides) = self.beside(col, player);
        let mut best = (Direction::Vertical, vertical, vertical - 1);
        let mut runs = [1u64; 3];
        for (dir, dr) in SIDEWAYS {
            let (back, ahead) = sides[dir];
            let total = back + 1 + ahead;
            // Only the ends of a run are ever read again: update those.
            if back > 0 {
                let k = -(back as i64);
                self.set_run(col, k, row, k * dr, dir, total);
            }
            if ahead > 0 {
                let k = ahead as i64;
                self.set_run(col, k, row, k * dr, dir, total);
            }
            runs[dir] = total;
            if total > best.1 {
                best = (SIDEWAYS_DIRECTIONS[dir], total, back);
            }
        }
        self.push(col, player, runs, vertical);
        (row, best.0, best.1, best.2)
    }

    /// The longest line a counter of `player` on top of `col` would make.
    fn longest_if_played(&self, col: &Nat, player: Player) -> u64 {
        let (_, vertical, sides) = self.beside(col, player);
        sides
            .iter()
            .map(|(b, a)| b + 1 + a)
            .fold(vertical, u64::max)
    }

    fn set_run(&mut self, col: &Nat, dc: i64, row: u64, dr: i64, dir: usize, len: u64) {
        let (Some(col), Some(row)) = (shift(col, dc), row.checked_add_signed(dr)) else {
            return;
        };
        if let Some(cell) = self
            .columns
            .get_mut(&col)
            .and_then(|c| c.cells.get_mut(usize::try_from(row).ok()?))
        {
            cell.1[dir] = len;
        }
    }

    fn push(&mut self, col: &Nat, player: Player, runs: [u64; 3], vertical: u64) {
        // Most columns of a sparse frame hold one counter: start with room
        // for exactly one (a plain push would reserve four).
        let column = self
            .columns
            .entry(col.clone())
            .or_insert_with(|| SparseColumn {
                cells: Vec::with_capacity(1),
                top_run: 0,
            });
        column.cells.push((player, runs));
        column.top_run = vertical;
    }
}

/// The counters on the frame.
#[derive(Clone, Debug)]
pub struct Board {
    store: Store,
    /// Columns and rows of the frame.
    x: Nat,
    y: Nat,
}

/// What dropping a counter did (see [`Board::drop_into`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drop {
    /// The column is greater than X: nothing placed.
    OffFrame,
    /// The column is full: nothing placed.
    Full,
    /// Placed on this row (1-based); the line through it, when lines are
    /// looked for and it is at least z long.
    Placed {
        /// Row, 1-based.
        row: u64,
        /// The completed line.
        line: Option<WinLine>,
    },
}

#[derive(Clone, Debug)]
enum Store {
    /// Frames up to 65535 columns wide: 8-byte cells.
    Narrow(Dense<u16>),
    /// Wider frames: 16-byte cells.
    Dense(Dense<u32>),
    Sparse(Sparse),
}

/// How a board stores its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A dense array when the frame is small or the input could fill it
    /// (`moves_possible` bounds the moves it can hold, from its size), else
    /// a sparse map.
    Auto {
        /// Upper bound on the moves in the input, if known.
        moves_possible: Option<u64>,
    },
    /// Always the sparse map: lets tests hold the two stores to each other.
    Sparse,
}

/// Below this many cells a dense store is always used (16 MiB at most).
const DENSE_ALWAYS: u64 = 1 << 20;
/// Above this many cells (2 GiB of 8-byte cells) a dense store is never used.
const DENSE_NEVER: u64 = 1 << 28;

impl Board {
    /// An empty board for an `x` by `y` frame.
    pub fn new(x: &Nat, y: &Nat, storage: Storage) -> Board {
        let moves_possible = match storage {
            Storage::Auto { moves_possible } => moves_possible,
            Storage::Sparse => {
                return Board {
                    store: Store::Sparse(Sparse::default()),
                    x: x.clone(),
                    y: y.clone(),
                };
            }
        };
        let dense_limit = DENSE_ALWAYS
            .max(moves_possible.unwrap_or(0))
            .min(DENSE_NEVER);
        let dims = x.to_u64().zip(y.to_u64());
        let store = match dims {
            Some((w, h)) if w.checked_mul(h).is_some_and(|cells| cells <= dense_limit) => {
                if w <= u64::from(u16::MAX) {
                    Store::Narrow(Dense::new(w as usize, h as usize))
                } else {
                    Store::Dense(Dense::new(w as usize, h as usize))
                }
            }
            _ => Store::Sparse(Sparse::default()),
        };
        Board {
            store,
            x: x.clone(),
            y: y.clone(),
        }
    }

    /// Columns and rows of the frame.
    pub fn frame(&self) -> (&Nat, &Nat) {
        (&self.x, &self.y)
    }

    /// True when `column` (1-based) is inside the frame and has room.
    pub fn is_open(&self, column: &Nat) -> bool {
        !column.is_zero() && *column <= self.x && self.y > self.height(column)
    }

    /// Counters in `column` (1-based, inside the frame).
    pub fn height(&self, column: &Nat) -> u64 {
        match &self.store {
            Store::Narrow(d) => d.height(column),
            Store::Dense(d) => d.height(column),
            Store::Sparse(s) => s.height(column),
        }
    }

    /// Who owns the cell at `column`, `row` (both 1-based).
    pub fn owner(&self, column: &Nat, row: u64) -> Option<Player> {
        let row = row.checked_sub(1)?;
        match &self.store {
            Store::Narrow(d) => d.owner(dense_index(column)?, row),
            Store::Dense(d) => d.owner(dense_index(column)?, row),
            Store::Sparse(s) => s.cell(column, 0, row, 0).map(|c| c.0),
        }
    }

    /// Drops `player`'s counter into `column` (1-based): r[rule.column-range]
    /// a column past X places nothing, r[rule.column-full] nor does a full
    /// one, r[rule.gravity] otherwise the counter lands on the lowest free
    /// cell. With `z`, the line through it is reported when it is at least
    /// `z` long; without, lines are not looked for (after the game's first
    /// line only heights matter).
    #[inline]
    pub fn drop_into(&mut self, column: &Nat, player: Player, z: Option<&Nat>) -> Drop {
        let (row, direction, length, back) = match &mut self.store {
            Store::Narrow(d) => match d.drop_into(column, player, z.is_some()) {
                Ok(placed) => placed,
                Err(drop) => return drop,
            },
            Store::Dense(d) => match d.drop_into(column, player, z.is_some()) {
                Ok(placed) => placed,
                Err(drop) => return drop,
            },
            Store::Sparse(s) => {
                if *column > self.x {
                    return Drop::OffFrame;
                }
                let row = s.height(column);
                if self.y <= row {
                    return Drop::Full;
                }
                if z.is_none() {
                    s.push(column, player, [0; 3], 0);
                    return Drop::Placed {
                        row: row + 1,
                        line: None,
                    };
                }
                s.place(column, player)
            }
        };
        let line = z
            .filter(|z| **z <= length)
            .map(|_| line_from(column.clone(), row, direction, length, back, player));
        Drop::Placed { row: row + 1, line }
    }

    /// Drops `player`'s counter into `column` (1-based, inside the frame, not
    /// full) and returns its row (1-based) and the longest line through it
    /// if that line is at least `z` long.
    pub fn drop_counter(
        &mut self,
        column: &Nat,
        player: Player,
        z: &Nat,
    ) -> (u64, Option<WinLine>) {
        match self.drop_into(column, player, Some(z)) {
            Drop::Placed { row, line } => (row, line),
            Drop::OffFrame | Drop::Full => (0, None),
        }
    }

    /// The longest line `player` would have through a counter dropped into
    /// `column` (1-based, inside the frame, not full). Changes nothing.
    pub fn longest_if_played(&self, column: &Nat, player: Player) -> u64 {
        match &self.store {
            Store::Narrow(d) => d.longest_if_played(dense_index(column).unwrap_or(0), player),
            Store::Dense(d) => d.longest_if_played(dense_index(column).unwrap_or(0), player),
            Store::Sparse(s) => s.longest_if_played(column, player),
        }
    }

    /// A hint that the next move is into `column` (1-based): dense stores
    /// start loading the cells it will touch.
    pub fn warm(&self, column: u64) {
        let Some(col) = column.checked_sub(1).and_then(|c| usize::try_from(c).ok()) else {
            return;
        };
        match &self.store {
            Store::Narrow(d) => d.warm(col),
            Store::Dense(d) => d.warm(col),
            Store::Sparse(_) => {}
        }
    }
}

#[inline]
fn dense_index(column: &Nat) -> Option<usize> {
    usize::try_from(column.to_u64()?.checked_sub(1)?).ok()
}

fn line_from(
    column: Nat,
    row: u64,
    direction: Direction,
    length: u64,
    back: u64,
    player: Player,
) -> WinLine {
    // Walk `back` steps towards the start of the line.
    let (column, row) = match direction {
        Direction::Vertical => (column, row + 1 - back),
        Direction::Horizontal => (column.checked_sub_u64(back).unwrap_or(Nat::ZERO), row + 1),
        Direction::Diagonal => (
            column.checked_sub_u64(back).unwrap_or(Nat::ZERO),
            row + 1 - back,
        ),
        Direction::AntiDiagonal => (
            column.checked_sub_u64(back).unwrap_or(Nat::ZERO),
            row + 1 + back,
        ),
    };
    WinLine {
        player,
        column,
        row,
        direction,
        length,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;

    /// The narrow and wide arrays and the sparse map are three stores of one
    /// algorithm: on random games they must report the same lines.
    #[test]
    fn stores_agree_on_random_games() {
        let mut rng = Rng::new(42);
        let mut lines_seen = 0;
        for _ in 0..2000 {
            let (w, h) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
            let mut narrow = Dense::<u16>::new(w, h);
            let mut wide = Dense::<u32>::new(w, h);
            let mut sparse = Sparse::default();
            let mut player = Player::One;
            for _ in 0..w * h {
                let open: Vec<usize> = (0..w)
                    .filter(|&c| (narrow.heights[c] as usize) < h)
                    .collect();
                let col = open[rng.below(open.len() as u64) as usize];
                let probe = narrow.longest_if_played(col, player);
                assert_eq!(
                    probe,
                    sparse.longest_if_played(&Nat::from(col as u64 + 1), player)
                );
                let a = narrow.drop(col, player);
                assert_eq!(probe, a.2);
                let b = wide.drop(col, player);
                let c = sparse.place(&Nat::from(col as u64 + 1), player);
                assert_eq!(a, b);
                assert_eq!(a, c);
                lines_seen += u64::from(a.2 >= 3);
                player = player.other();
            }
        }
        assert!(lines_seen > 1000, "too few lines to compare: {lines_seen}");
    }
}
