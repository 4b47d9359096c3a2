//! The frame's cells, and line detection in time independent of `z`.
//!
//! r[rule.line]: every placed counter records, at the two ends of each run it
//! belongs to, the length of that run in the four directions. A new counter
//! joins the runs ending beside it, so each move costs O(1) however long the
//! runs grow. Two stores back this: a dense column-major array for frames the
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

    fn from_tag(tag: u32) -> Option<Player> {
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

/// How a store exposes cells to the run-length update.
trait Cells {
    type Col: Clone;
    fn shift(&self, col: &Self::Col, by: i64) -> Option<Self::Col>;
    fn height(&self, col: &Self::Col) -> u64;
    fn owner(&self, col: &Self::Col, row: u64) -> Option<Player>;
    fn run(&self, col: &Self::Col, row: u64, dir: usize) -> u64;
    fn set_run(&mut self, col: &Self::Col, row: u64, dir: usize, len: u64);
    fn top_run(&self, col: &Self::Col) -> u64;
    fn push(&mut self, col: &Self::Col, player: Player, runs: [u64; 3], vertical: u64);
}

/// Length of `player`'s run that ends next to (col, row) at offset (dc, dr).
fn run_beside<C: Cells>(
    cells: &C,
    col: &C::Col,
    row: u64,
    dc: i64,
    dr: i64,
    dir: usize,
    player: Player,
) -> u64 {
    let Some(row) = row.checked_add_signed(dr) else {
        return 0;
    };
    match cells.shift(col, dc) {
        Some(next) if cells.owner(&next, row) == Some(player) => cells.run(&next, row, dir),
        _ => 0,
    }
}

/// Places `player`'s counter on top of `col` and returns the longest line
/// through it as (direction, length, steps back to the line's start).
fn place<C: Cells>(cells: &mut C, col: &C::Col, player: Player) -> (u64, Direction, u64, u64) {
    let row = cells.height(col);
    let vertical = if row > 0 && cells.owner(col, row - 1) == Some(player) {
        cells.top_run(col) + 1
    } else {
        1
    };
    let mut best = (Direction::Vertical, vertical, vertical - 1);
    let mut runs = [1u64; 3];
    for (dir, dr) in SIDEWAYS {
        let back = run_beside(cells, col, row, -1, -dr, dir, player);
        let ahead = run_beside(cells, col, row, 1, dr, dir, player);
        let total = back + 1 + ahead;
        // Only the ends of a run are ever read again: update those.
        for (len, sign) in [(back, -1i64), (ahead, 1)] {
            if len > 0 {
                let k = len as i64 * sign;
                if let (Some(end), Some(end_row)) =
                    (cells.shift(col, k), row.checked_add_signed(k * dr))
                {
                    cells.set_run(&end, end_row, dir, total);
                }
            }
        }
        runs[dir] = total;
        if total > best.1 {
            let direction = [
                Direction::Horizontal,
                Direction::Diagonal,
                Direction::AntiDiagonal,
            ][dir];
            best = (direction, total, back);
        }
    }
    cells.push(col, player, runs, vertical);
    (row, best.0, best.1, best.2)
}

/// Column-major cells `[horizontal, diagonal, anti-diagonal, owner]`: the
/// three columns a move touches are each one contiguous stretch of memory.
#[derive(Clone, Debug)]
struct Dense {
    width: usize,
    rows: usize,
    cells: Vec<[u32; 4]>,
    heights: Vec<u32>,
    top_runs: Vec<u32>,
}

impl Dense {
    fn new(width: usize, rows: usize) -> Dense {
        Dense {
            width,
            rows,
            // All-zero arrays come from a zeroed allocation: pages are only
            // touched where counters land.
            cells: vec![[0; 4]; width * rows],
            heights: vec![0; width],
            top_runs: vec![0; width],
        }
    }
}

// Runs in a dense store are bounded by its width or height, which fit in u32
// (Board::new checks), so the narrowing casts below never truncate.
impl Cells for Dense {
    type Col = usize;
    fn shift(&self, col: &usize, by: i64) -> Option<usize> {
        col.checked_add_signed(by as isize)
            .filter(|&c| c < self.width)
    }
    fn height(&self, col: &usize) -> u64 {
        u64::from(self.heights[*col])
    }
    fn owner(&self, col: &usize, row: u64) -> Option<Player> {
        if row >= self.height(col) {
            return None;
        }
        Player::from_tag(self.cells[col * self.rows + row as usize][3])
    }
    fn run(&self, col: &usize, row: u64, dir: usize) -> u64 {
        u64::from(self.cells[col * self.rows + row as usize][dir])
    }
    fn set_run(&mut self, col: &usize, row: u64, dir: usize, len: u64) {
        self.cells[col * self.rows + row as usize][dir] = len as u32;
    }
    fn top_run(&self, col: &usize) -> u64 {
        u64::from(self.top_runs[*col])
    }
    fn push(&mut self, col: &usize, player: Player, runs: [u64; 3], vertical: u64) {
        let row = self.heights[*col] as usize;
        self.cells[col * self.rows + row] = [
            runs[0] as u32,
            runs[1] as u32,
            runs[2] as u32,
            u32::from(player.number()),
        ];
        self.heights[*col] += 1;
        self.top_runs[*col] = vertical as u32;
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

impl Cells for Sparse {
    type Col = Nat;
    fn shift(&self, col: &Nat, by: i64) -> Option<Nat> {
        if by >= 0 {
            Some(col.add_u64(by as u64))
        } else {
            col.checked_sub_u64(by.unsigned_abs())
                .filter(|c| !c.is_zero())
        }
    }
    fn height(&self, col: &Nat) -> u64 {
        self.columns.get(col).map_or(0, |c| c.cells.len() as u64)
    }
    fn owner(&self, col: &Nat, row: u64) -> Option<Player> {
        let column = self.columns.get(col)?;
        column.cells.get(usize::try_from(row).ok()?).map(|c| c.0)
    }
    fn run(&self, col: &Nat, row: u64, dir: usize) -> u64 {
        self.columns
            .get(col)
            .and_then(|c| c.cells.get(usize::try_from(row).ok()?))
            .map_or(0, |c| c.1[dir])
    }
    fn set_run(&mut self, col: &Nat, row: u64, dir: usize, len: u64) {
        if let Some(cell) = self
            .columns
            .get_mut(col)
            .and_then(|c| c.cells.get_mut(usize::try_from(row).ok()?))
        {
            cell.1[dir] = len;
        }
    }
    fn top_run(&self, col: &Nat) -> u64 {
        self.columns.get(col).map_or(0, |c| c.top_run)
    }
    fn push(&mut self, col: &Nat, player: Player, runs: [u64; 3], vertical: u64) {
        let column = self.columns.entry(col.clone()).or_default();
        column.cells.push((player, runs));
        column.top_run = vertical;
    }
}

/// The counters on the frame.
#[derive(Clone, Debug)]
pub struct Board {
    store: Store,
}

#[derive(Clone, Debug)]
enum Store {
    Dense(Dense),
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
/// Above this many cells a dense store is never used.
const DENSE_NEVER: u64 = 1 << 30;

impl Board {
    /// An empty board for an `x` by `y` frame.
    pub fn new(x: &Nat, y: &Nat, storage: Storage) -> Board {
        let moves_possible = match storage {
            Storage::Auto { moves_possible } => moves_possible,
            Storage::Sparse => {
                return Board {
                    store: Store::Sparse(Sparse::default()),
                };
            }
        };
        let dense_limit = DENSE_ALWAYS
            .max(moves_possible.unwrap_or(0))
            .min(DENSE_NEVER);
        let dims = x.to_u64().zip(y.to_u64());
        let store = match dims {
            Some((w, h)) if w.checked_mul(h).is_some_and(|cells| cells <= dense_limit) => {
                Store::Dense(Dense::new(w as usize, h as usize))
            }
            _ => Store::Sparse(Sparse::default()),
        };
        Board { store }
    }

    /// True when the board keeps every cell of the frame in an array.
    pub fn is_dense(&self) -> bool {
        matches!(self.store, Store::Dense(_))
    }

    /// Counters in `column` (1-based, inside the frame).
    pub fn height(&self, column: &Nat) -> u64 {
        match &self.store {
            Store::Dense(d) => dense_index(column).map_or(0, |c| d.height(&c)),
            Store::Sparse(s) => s.height(column),
        }
    }

    /// Who owns the cell at `column`, `row` (both 1-based).
    pub fn owner(&self, column: &Nat, row: u64) -> Option<Player> {
        let row = row.checked_sub(1)?;
        match &self.store {
            Store::Dense(d) => d.owner(&dense_index(column)?, row),
            Store::Sparse(s) => s.owner(column, row),
        }
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
        let (row, direction, length, back, start) = match &mut self.store {
            Store::Dense(d) => {
                let col = dense_index(column).unwrap_or(0);
                let (row, dir, len, back) = place(d, &col, player);
                (row, dir, len, back, col)
            }
            Store::Sparse(s) => {
                let (row, dir, len, back) = place(s, column, player);
                (row, dir, len, back, 0)
            }
        };
        let start = || match self.store {
            Store::Dense(_) => Nat::from(start as u64 + 1),
            Store::Sparse(_) => column.clone(),
        };
        let line = (*z <= length).then(|| line_from(start(), row, direction, length, back, player));
        (row + 1, line)
    }

    /// Places a counter without looking for lines: only heights matter once
    /// a line has been completed (r[rule.after-win]).
    pub fn stack(&mut self, column: &Nat, player: Player) {
        match &mut self.store {
            Store::Dense(d) => {
                let col = dense_index(column).unwrap_or(0);
                d.push(&col, player, [0; 3], 0);
            }
            Store::Sparse(s) => s.push(column, player, [0; 3], 0),
        }
    }
}

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
