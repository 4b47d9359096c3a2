//! The frame's cells, and run detection in time independent of `z`.
//!
//! r[rule.line]: every placed counter records, at the two ends of each run it
//! belongs to, the length of that run in the three sideways directions
//! (vertical runs only grow at a column's top, so one count per column serves
//! them). A new counter joins the runs ending beside it, so each move costs
//! O(1) however long the runs grow.
//!
//! r[resource.board]: the stores, and what each costs.
//! - `Dense`: an array of the whole frame, row after row, for frames whose
//!   array fits in 64 MiB (`UP_FRONT_BYTES`), or once an eighth of the frame is
//!   occupied (so the array costs at most eight cells per counter). Rows are
//!   committed as counters reach them.
//! - `Sparse`: occupied columns only, in a table with a keyed hash (see
//!   `column_map`), so columns chosen against the hash do not slow it down.
//! - `Heights`: once only heights matter (after the game's first winning run), the
//!   cells are dropped and one height per occupied column is kept.
//!
//! A stored run is only read while it is shorter than z (the judge stops
//! looking for runs at the first one) and never exceeds the frame's width,
//! so runs are kept in the narrowest integer ("lane") that holds
//! min(z - 1, width); a longer value saturates and reads as "at least that".
//! Every allocation that grows with the input is fallible: when memory runs
//! out the board says so ([`Effect::OutOfMemory`]) instead of aborting.
//!
//! A board changes only inside this crate, by one act: a step, a counter
//! dropped into a column (`Board::step`, and its batched form for
//! ordinary moves, `step_ordinary`, on each store). Outside, a game changes
//! through [`crate::step`] alone, and a position that is not a game is
//! built whole by [`Board::from_stacks`].

use std::fmt::Debug;

use crate::fast::Storage;
use crate::nat::Nat;

pub(crate) mod column_map;
mod columns;
mod dense;
mod sparse;
mod stacks;

use columns::Heights;
use dense::{Dense, dense_index, dense_step};
use sparse::{Sparse, sparse_step};

pub use crate::rules::game::Effect;
pub use crate::rules::run::{Direction, Player, WinningRun};
use column_map::Probes;

/// The three directions whose runs are stored per cell, with the row step
/// per column to the right.
const SIDEWAYS: [(usize, i64); 3] = [(0, 0), (1, 1), (2, -1)];
const SIDEWAYS_DIRECTIONS: [Direction; 3] = [
    Direction::Horizontal,
    Direction::Diagonal,
    Direction::AntiDiagonal,
];

/// A stored run length. `put` saturates at `MAX`; a stored `MAX` reads as
/// "at least `MAX`", which is exact whenever `MAX` >= the longest run the
/// store must tell apart (see [`lane_bits`]).
pub(crate) trait Lane: Copy + Eq + Default + Debug {
    const MAX: u64;
    fn get(self) -> u64;
    fn put(v: u64) -> Self;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const MAX: u64 = <$t>::MAX as u64;
            #[inline]
            fn get(self) -> u64 {
                self as u64
            }
            #[inline]
            fn put(v: u64) -> Self {
                v.min(<Self as Lane>::MAX) as $t
            }
        }
    };
}
lane!(u8);
lane!(u16);
lane!(u32);
lane!(u64);

/// A cell's four lanes: runs `[horizontal, diagonal, anti-diagonal]` at
/// the ends of runs and the owner's tag (0 empty, 1 or 2) in the fourth.
type CellLanes<L> = [L; 4];

/// How one counter was placed: its row (0-based) and the longest run through
/// it as (direction, length, steps back to the run's start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    row: u64,
    direction: Direction,
    length: u64,
    back: u64,
}

use crate::memory::OutOfMemory;

/// The owner's tag a cell keeps: 1 or 2 (0 is an empty cell).
fn tag(player: Player) -> u64 {
    u64::from(player.number())
}

/// The player of a cell's tag; `None` for an empty cell.
fn player_from_tag(tag: u64) -> Option<Player> {
    match tag {
        1 => Some(Player::One),
        2 => Some(Player::Two),
        _ => None,
    }
}

/// The run completed by `placed`, from its start; [`OutOfMemory`] when the
/// start's column number (a column past 2^64) cannot be made.
fn run_from(column: Nat, placed: Placement, player: Player) -> Result<WinningRun, OutOfMemory> {
    let Placement {
        row,
        direction,
        length,
        back,
    } = placed;
    // Walk `back` steps towards the start of the run.
    let start = |column: Nat| -> Result<Nat, OutOfMemory> {
        Ok(column
            .try_checked_sub(&Nat::from(back))?
            .unwrap_or(Nat::ZERO))
    };
    let (column, row) = match direction {
        Direction::Vertical => (column, row + 1 - back),
        Direction::Horizontal => (start(column)?, row + 1),
        Direction::Diagonal => (start(column)?, row + 1 - back),
        Direction::AntiDiagonal => (start(column)?, row + 1 + back),
    };
    Ok(WinningRun {
        player,
        column,
        row,
        direction,
        length,
    })
}

/// The runs through a cell from the runs beside it, the run-length update
/// shared by the stores: `vertical` is the run the counter makes in its
/// column, `sides[dir]` the (back, ahead) runs it joins. Returns the three
/// totals and the longest run.
#[inline]
fn join(vertical: u64, sides: [(u64, u64); 3]) -> ([u64; 3], Direction, u64, u64) {
    let mut best = (Direction::Vertical, vertical, vertical - 1);
    let mut totals = [1u64; 3];
    for (dir, _) in SIDEWAYS {
        let (back, ahead) = sides[dir];
        // Runs are at most the frame's width, so this cannot overflow a u64
        // on any frame a store can hold.
        let total = back + 1 + ahead;
        totals[dir] = total;
        if total > best.1 {
            best = (SIDEWAYS_DIRECTIONS[dir], total, back);
        }
    }
    (totals, best.0, best.1, best.2)
}

/// The stores, one variant per lane width (see the module docs).
#[derive(Clone, Debug)]
enum Store {
    Dense8(Dense<u8>),
    Dense16(Dense<u16>),
    Dense32(Dense<u32>),
    Sparse8(Sparse<u8>),
    Sparse16(Sparse<u16>),
    Sparse32(Sparse<u32>),
    Sparse64(Sparse<u64>),
    Heights(Heights),
}

/// Runs `$body` with `$s` bound to the store of whichever lane width, for
/// the dense and the sparse variants; `$heights` for the heights store.
macro_rules! with_store {
    ($store:expr, dense $d:ident => $dense:expr, sparse $s:ident => $sparse:expr, heights $h:ident => $heights:expr) => {
        match $store {
            Store::Dense8($d) => $dense,
            Store::Dense16($d) => $dense,
            Store::Dense32($d) => $dense,
            Store::Sparse8($s) => $sparse,
            Store::Sparse16($s) => $sparse,
            Store::Sparse32($s) => $sparse,
            Store::Sparse64($s) => $sparse,
            Store::Heights($h) => $heights,
        }
    };
}

/// A frame whose array takes at most this many bytes gets it from the start
/// (r[resource.board]: 64 MiB).
const UP_FRONT_BYTES: u64 = 64 << 20;
/// No array has more cells than this (its index must fit the address space).
const MAX_DENSE_CELLS: u64 = 1 << 34;
/// The sparse map moves to an array once the array (its columns' heights and
/// top runs counted) costs at most this many cells' bytes per counter.
const PROMOTE_AT: u64 = 8;

/// The counters on the frame.
#[derive(Clone, Debug)]
pub struct Board {
    store: Store,
    /// Columns and rows of the frame.
    x: Nat,
    y: Nat,
    /// Counters placed.
    placed: u64,
    /// Counters at which the sparse map moves to an array (`u64::MAX`: never).
    promote_at: u64,
}

/// The dense frame's width and height, if it has an array at all.
fn dense_dims(x: &Nat, y: &Nat) -> Option<(usize, u32, u64)> {
    let (w, h) = (x.to_u64()?, y.to_u64()?);
    let cells = w.checked_mul(h).filter(|&c| c <= MAX_DENSE_CELLS)?;
    Some((usize::try_from(w).ok()?, u32::try_from(h).ok()?, cells))
}

/// Bytes of the array store of a `w` by `h` frame with cells of
/// `cell_bytes`, and a height and a top run (four bytes each) a column.
fn dense_bytes(cell_bytes: u64, w: u64, h: u64) -> u64 {
    w.saturating_mul(h)
        .saturating_mul(cell_bytes)
        .saturating_add(w.saturating_mul(8))
}

/// The bits a lane needs: the longest run it must tell apart is
/// min(z - 1, x) (runs are kept while shorter than z, and fit in a row).
fn lane_bits(x: &Nat, z: &Nat) -> u32 {
    let need = match (x.to_u64(), z.to_u64()) {
        (Some(x), Some(z)) => x.min(z.saturating_sub(1)),
        (Some(x), None) => x,
        (None, Some(z)) => z.saturating_sub(1),
        (None, None) => u64::MAX,
    };
    match need {
        0..=0xff => 8,
        0x100..=0xffff => 16,
        0x1_0000..=0xffff_ffff => 32,
        _ => 64,
    }
}

impl Board {
    /// An empty board for an `x` by `y` frame on which runs of up to `z`
    /// must be told apart (longer runs read as "at least z"), in the store
    /// `storage` says.
    pub(crate) fn new(x: &Nat, y: &Nat, z: &Nat, storage: Storage) -> Board {
        let bits = lane_bits(x, z);
        let dims = dense_dims(x, y);
        let cell_bytes = u64::from(bits) / 2; // four lanes
        let up_front = match storage {
            Storage::Sparse => false,
            Storage::Dense => dims.is_some(),
            Storage::Auto => dims.is_some_and(|(w, h, _)| {
                dense_bytes(cell_bytes, w as u64, u64::from(h)) <= UP_FRONT_BYTES
            }),
        };
        let store = up_front
            .then(|| dims.and_then(|(w, h, _)| dense_store(bits, w, h)))
            .flatten()
            .unwrap_or_else(|| sparse_store(bits, x));
        let promote_at = match (storage, dims) {
            (Storage::Sparse, _) => u64::MAX,
            (_, None) => u64::MAX,
            // Once the array costs at most PROMOTE_AT cells' bytes a
            // counter, its columns' heights and top runs counted.
            (_, Some((w, h, _))) => {
                (dense_bytes(cell_bytes, w as u64, u64::from(h)) / (PROMOTE_AT * cell_bytes)).max(1)
            }
        };
        Board {
            store,
            x: x.clone(),
            y: y.clone(),
            placed: 0,
            promote_at,
        }
    }

    /// Columns and rows of the frame.
    pub fn frame(&self) -> (&Nat, &Nat) {
        (&self.x, &self.y)
    }

    /// Counters on the board.
    pub fn placed(&self) -> u64 {
        self.placed
    }

    /// True when `column` (1-based) is inside the frame and has room.
    pub fn is_open(&self, column: &Nat) -> bool {
        !column.is_zero() && *column <= self.x && self.y > self.height(column)
    }

    /// Counters in `column` (1-based, inside the frame).
    pub fn height(&self, column: &Nat) -> u64 {
        with_store!(&self.store,
            dense d => dense_index(column).map_or(0, |c| d.height(c)),
            sparse s => s.height(column),
            heights h => h.height(column))
    }

    /// The smallest box holding every counter: the first and last occupied
    /// columns (1-based) and the tallest column's height; `None` when the
    /// board is empty.
    pub fn occupied(&self) -> Option<(Nat, Nat, u64)> {
        with_store!(&self.store,
            dense d => d.span().map(|(lo, hi, top)| {
                (Nat::from(lo as u64 + 1), Nat::from(hi as u64 + 1), top)
            }),
            sparse s => s.span(),
            heights h => h.span(|&c| c))
    }

    /// Who owns the cell at `column`, `row` (both 1-based); `None` when it is
    /// empty or the board keeps heights only.
    pub fn owner(&self, column: &Nat, row: u64) -> Option<Player> {
        let row = row.checked_sub(1)?;
        with_store!(&self.store,
            dense d => d.owner(dense_index(column)?, row),
            sparse s => s.owner(column, row),
            heights _h => None)
    }

    /// True once the board keeps heights only (after a game's first winning
    /// run, unless the game keeps its board: [`crate::Keep`]).
    pub fn heights_only(&self) -> bool {
        matches!(self.store, Store::Heights(_))
    }

    /// Drops every counter's owner and runs, keeping only column heights:
    /// for when no more runs are looked for.
    pub(crate) fn keep_heights_only(&mut self) {
        let heights = with_store!(&self.store,
            dense d => {
                // An array of a height per column: no more than the array
                // store's own heights and top runs, which it replaces. When
                // its memory cannot be had, the cells answer as well.
                let Ok(mut h) = Heights::try_new(&self.x, u64::MAX) else {
                    return;
                };
                for (c, &height) in d.heights.iter().enumerate() {
                    if height > 0 {
                        match h.entry(&Nat::from(c as u64 + 1)) {
                            Ok(slot) => *slot = u64::from(height),
                            Err(OutOfMemory) => return,
                        }
                    }
                }
                h
            },
            sparse s => match s.heights(&self.x) {
                Some(h) => h,
                // Memory is short: keep the cells, which answer as well.
                None => return,
            },
            heights _h => return);
        self.store = Store::Heights(heights);
    }

    /// Steps: drops `player`'s counter into `column` (1-based): r[rule.column-range]
    /// a column past X (or 0) places nothing, r[rule.column-full] nor does a full
    /// one, r[rule.gravity] otherwise the counter lands on the lowest free
    /// cell. With `z`, a run through it at least `z` long is reported
    /// ([`Effect::Won`]); without (once the game is won, r[rule.after-win]),
    /// runs are not looked for and the counter is placed `after_win`.
    #[inline]
    pub(crate) fn step(&mut self, column: &Nat, player: Player, z: Option<&Nat>) -> Effect {
        // r[rule.frame]: columns are 1..=X; each store holds them to X.
        if column.is_zero() {
            return Effect::OffFrame;
        }
        let placed = match &mut self.store {
            Store::Dense8(d) => dense_step(d, column, player),
            Store::Dense16(d) => dense_step(d, column, player),
            Store::Dense32(d) => dense_step(d, column, player),
            Store::Sparse8(s) => sparse_step(s, column, player, &self.x, &self.y),
            Store::Sparse16(s) => sparse_step(s, column, player, &self.x, &self.y),
            Store::Sparse32(s) => sparse_step(s, column, player, &self.x, &self.y),
            Store::Sparse64(s) => sparse_step(s, column, player, &self.x, &self.y),
            Store::Heights(h) => {
                if *column > self.x {
                    return Effect::OffFrame;
                }
                if self.y <= h.height(column) {
                    return Effect::ColumnFull;
                }
                match h.step(column) {
                    Ok(row) => Ok(Placement {
                        row,
                        direction: Direction::Vertical,
                        length: 0,
                        back: 0,
                    }),
                    Err(OutOfMemory) => Err(Effect::OutOfMemory),
                }
            }
        };
        let placed = match placed {
            Ok(p) => p,
            Err(effect) => return effect,
        };
        self.placed += 1;
        if self.placed >= self.promote_at {
            self.promote();
        }
        let row = placed.row + 1;
        match z.filter(|z| **z <= placed.length) {
            None => Effect::Placed {
                row,
                after_win: z.is_none(),
            },
            Some(_) => match run_from(column.clone(), placed, player) {
                Ok(run) => Effect::Won { row, run },
                Err(OutOfMemory) => Effect::OutOfMemory,
            },
        }
    }

    /// Steps through the longest prefix of `columns` (1-based), `first`
    /// moving first, whose moves are ordinary: inside the frame, into a
    /// column with room, completing no run of `z`; returns how many it
    /// stepped (none once only heights are kept). The move after them is
    /// for [`Board::step`]. The same placements as `step`, batched.
    #[inline]
    pub(crate) fn step_ordinary(&mut self, columns: &[u64], first: Player, z: u64) -> usize {
        // Frames past a machine word: every column of one is inside, and
        // no column of one fills.
        let [x, y] = [&self.x, &self.y].map(|n| n.to_u64().unwrap_or(u64::MAX));
        // A sparse map stops where it moves to an array.
        let limit = usize::try_from(self.promote_at - self.placed).unwrap_or(usize::MAX);
        let played = with_store!(&mut self.store,
            dense d => d.step_ordinary(columns, first, z),
            sparse s => s.step_ordinary(columns, first, [x, y, z], limit),
            heights _h => 0);
        self.placed += played as u64;
        if self.placed >= self.promote_at {
            self.promote();
        }
        played
    }

    /// Moves a sparse map that fills its frame to an array; stays sparse
    /// when the memory cannot be had.
    fn promote(&mut self) {
        self.promote_at = u64::MAX;
        let Some((w, h, _)) = dense_dims(&self.x, &self.y) else {
            return;
        };
        let dense = match &self.store {
            Store::Sparse8(s) => s.to_dense(w, h).map(Store::Dense8),
            Store::Sparse16(s) => s.to_dense(w, h).map(Store::Dense16),
            Store::Sparse32(s) => s.to_dense(w, h).map(Store::Dense32),
            _ => None,
        };
        if let Some(store) = dense {
            self.store = store;
        }
    }

    /// The longest run `player` would have through a counter dropped into
    /// `column` (1-based, inside the frame, not full); 0 once only heights
    /// are kept. Changes nothing.
    pub fn longest_if_played(&self, column: &Nat, player: Player) -> u64 {
        with_store!(&self.store,
            dense d => {
                let col = dense_index(column).unwrap_or(0);
                d.longest_if_played(col, d.heights[col] as usize, player)
            },
            sparse s => s.longest_if_played(column, None, player),
            heights _h => 0)
    }

    /// The longest run `player` would have through a counter one above the
    /// top of `column`, once the other player has filled the top (so its
    /// vertical run is 1); 0 when that cell is outside the frame. For
    /// engines that ask "does my move here give the opponent a run above
    /// it?" without playing it.
    pub fn longest_above(&self, column: &Nat, player: Player) -> u64 {
        let row = self.height(column) + 1;
        if self.y <= row || column.is_zero() || *column > self.x {
            return 0;
        }
        with_store!(&self.store,
            dense d => d.longest_if_played(dense_index(column).unwrap_or(0), row as usize, player),
            sparse s => s.longest_if_played(column, Some(row), player),
            heights _h => 0)
    }

    /// A hint that the next moves are into `columns` (1-based): the store
    /// starts loading the memory they will touch.
    #[inline]
    pub(crate) fn warm(&self, columns: &[u64]) {
        with_store!(&self.store,
            dense d => columns.iter().for_each(|&c| d.warm(c)),
            sparse s => columns.iter().for_each(|&c| s.warm(c)),
            heights _h => {})
    }
}

// What tests measure of a board: read only through the test hooks
// (`connectz::hooks`) and the core's own tests.
#[allow(dead_code, reason = "read only through the test hooks")]
impl Board {
    /// The work of the keyed table's lookups so far (none for the array):
    /// counted, so tests can bound it on any machine (r[resource.time]).
    pub(crate) fn probes(&self) -> Probes {
        with_store!(&self.store,
            dense _d => Probes::default(),
            sparse s => s.probes(),
            heights h => h.probes())
    }

    /// The heap memory the board holds, in bytes (an estimate from the
    /// capacities of its arrays and maps).
    pub(crate) fn heap_bytes(&self) -> usize {
        with_store!(&self.store,
            dense d => d.heap_bytes(),
            sparse s => s.heap_bytes(),
            heights h => h.heap_bytes())
    }

    /// Which store holds the counters: `dense`, `sparse` or `heights`, and
    /// the lane width in bits (0 for heights).
    pub(crate) fn store_kind(&self) -> (&'static str, u32) {
        match &self.store {
            Store::Dense8(_) => ("dense", 8),
            Store::Dense16(_) => ("dense", 16),
            Store::Dense32(_) => ("dense", 32),
            Store::Sparse8(_) => ("sparse", 8),
            Store::Sparse16(_) => ("sparse", 16),
            Store::Sparse32(_) => ("sparse", 32),
            Store::Sparse64(_) => ("sparse", 64),
            Store::Heights(_) => ("heights", 0),
        }
    }
}

fn dense_store(bits: u32, w: usize, h: u32) -> Option<Store> {
    match bits {
        8 => Dense::try_new(w, h).map(Store::Dense8),
        16 => Dense::try_new(w, h).map(Store::Dense16),
        32 => Dense::try_new(w, h).map(Store::Dense32),
        // Rows wider than 2^32 with runs longer still: the sparse map's
        // 64-bit lanes hold those runs.
        _ => None,
    }
}

fn sparse_store(bits: u32, x: &Nat) -> Store {
    match bits {
        8 => Store::Sparse8(Sparse::new(x)),
        16 => Store::Sparse16(Sparse::new(x)),
        32 => Store::Sparse32(Sparse::new(x)),
        _ => Store::Sparse64(Sparse::new(x)),
    }
}

#[cfg(test)]
mod tests;
