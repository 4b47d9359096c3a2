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
//! out the board says so (`OutOfMemory`) instead of aborting.
//!
//! The board decides nothing: the rules (`rules/game.rs`) ask it questions
//! of cells (a column's height, how far a player's counters reach from an
//! empty cell, `Board::reach`) and tell it to place a counter on top of a
//! column (`Board::place`). The judge's batched path, `step_ordinary` on
//! each store, places a run of ordinary moves in one loop and is held equal
//! to folding `step` by the `step` fuzz target. Outside this crate, a game
//! changes through [`crate::step`] alone, and a position that is not a game
//! is built whole by [`Board::from_stacks`].

use std::fmt::Debug;

use crate::fast::Storage;
use crate::nat::Nat;

pub(crate) mod column_map;
mod columns;
mod dense;
mod sparse;

use columns::Heights;
use dense::{Dense, dense_index};
use sparse::Sparse;

pub use crate::rules::run::{Direction, Player, WinningRun};
use column_map::Probes;

/// The three directions whose runs are stored per cell, with the row step
/// per column to the right: horizontal, diagonal, anti-diagonal.
const SIDEWAYS: [(usize, i64); 3] = [(0, 0), (1, 1), (2, -1)];

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

/// How far one player's counters reach from an empty cell, in each
/// direction: what the rules ask of the board to find the run a counter
/// there would complete (`rules::game::longest_through`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The player's counters straight below the cell.
    down: u64,
    /// Along `SIDEWAYS`, the player's counters (towards column 1, away
    /// from it).
    sides: [(u64, u64); 3],
}

impl Reach {
    /// The player's counters back from the cell along `direction` (towards
    /// a run's start: left, or down for a column) and ahead of it. Cells
    /// above an empty cell are empty, so nothing lies ahead in a column.
    pub(crate) fn along(&self, direction: Direction) -> (u64, u64) {
        match direction {
            Direction::Vertical => (self.down, 0),
            Direction::Horizontal => self.sides[0],
            Direction::Diagonal => self.sides[1],
            Direction::AntiDiagonal => self.sides[2],
        }
    }
}

/// The run totals a counter makes from the (back, ahead) runs beside it
/// along `SIDEWAYS`: what the stores write at the ends of the runs it joins.
#[inline]
fn totals(sides: [(u64, u64); 3]) -> [u64; 3] {
    // Runs are at most the frame's width, so this cannot overflow a u64
    // on any frame a store can hold.
    sides.map(|(back, ahead)| back + 1 + ahead)
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
    /// Keep every counter's owner once runs are settled (for pictures of
    /// the final board); otherwise only heights are kept from then on.
    keep: bool,
}

/// How a game keeps its board (r[resource.board]). Public for those who
/// draw the final board: a judge or game that keeps it answers
/// [`Board::owner`] after the first winning run too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Keep {
    /// Keep every counter's owner after the first winning run (for pictures
    /// of the final board); otherwise only column heights are kept from then
    /// on, since no more runs are looked for.
    pub board: bool,
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
    /// it chooses, keeping heights only once runs are settled.
    pub(crate) fn new(x: &Nat, y: &Nat, z: &Nat) -> Board {
        Board::in_store(x, y, z, Storage::Auto, Keep::default())
    }

    /// [`Board::new`], in the store `storage` says, keeping what `keep` says.
    pub(crate) fn in_store(x: &Nat, y: &Nat, z: &Nat, storage: Storage, keep: Keep) -> Board {
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
            keep: keep.board,
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

    /// Counters in `column` (1-based; 0 outside the frame).
    pub fn height(&self, column: &Nat) -> u64 {
        with_store!(&self.store,
            dense d => dense_index(column).map_or(0, |c| d.height(c)),
            sparse s => s.height(column),
            heights h => h.height(column))
    }

    /// The smallest box holding every counter: the first and last occupied
    /// columns (1-based) and the tallest column's height; `None` when the
    /// board is empty. Public for those who draw a board of a frame too
    /// large to show whole, who show the part that holds the counters.
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
    /// run, unless the game keeps its board: [`Keep`]).
    #[allow(dead_code, reason = "read only through the test hooks")]
    pub(crate) fn heights_only(&self) -> bool {
        matches!(self.store, Store::Heights(_))
    }

    /// No run is asked for again (the game is won): unless the board is
    /// kept, the cells are dropped and only heights are kept.
    pub(crate) fn runs_settled(&mut self) {
        if !self.keep {
            self.keep_heights_only();
        }
    }

    /// Drops every counter's owner and runs, keeping only column heights:
    /// for when no more runs are looked for.
    fn keep_heights_only(&mut self) {
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

    /// How far `player`'s counters reach from the empty cell `column`, `row`
    /// (1-based; inside the frame, at or above the column's top): the
    /// question the rules ask to find the run a counter there would make.
    /// Answered from the run lengths kept at the ends of runs, in time
    /// independent of their length. Once only heights are kept, no counter
    /// reaches anywhere. [`OutOfMemory`] when a neighbour's column number
    /// (past 2^64) cannot be made.
    pub(crate) fn reach(
        &self,
        column: &Nat,
        row: u64,
        player: Player,
    ) -> Result<Reach, OutOfMemory> {
        let row = row.saturating_sub(1);
        let (vertical, sides): (u64, [(u64, u64); 3]) = with_store!(&self.store,
            dense d => match (dense_index(column), usize::try_from(row)) {
                (Some(col), Ok(row)) if col < d.width => d.beside_at(col, row, player),
                _ => (1, [(0, 0); 3]),
            },
            sparse s => {
                let (_, vertical, sides) = s.beside_at(column, Some(row), player)?;
                (vertical, sides)
            },
            heights _h => (1, [(0, 0); 3]));
        Ok(Reach {
            down: vertical - 1,
            sides,
        })
    }

    /// Places `player`'s counter on top of `column` (1-based, inside the
    /// frame, with room) and keeps the run lengths at the ends of the runs
    /// it joins. [`OutOfMemory`] when the store cannot grow; nothing is
    /// placed then.
    pub(crate) fn place(&mut self, column: &Nat, player: Player) -> Result<(), OutOfMemory> {
        with_store!(&mut self.store,
        dense d => {
            let col = dense_index(column).filter(|&c| c < d.width).ok_or(OutOfMemory)?;
            d.place(col, player);
        },
        sparse s => s.place(column, player)?,
        heights h => {
            h.step(column)?;
        });
        self.placed += 1;
        if self.placed >= self.promote_at {
            self.promote();
        }
        Ok(())
    }

    /// Steps through the longest prefix of `columns` (1-based), `first`
    /// moving first, whose moves are ordinary: inside the frame, into a
    /// column with room, completing no run of `z`; returns how many it
    /// stepped (none once only heights are kept). The move after them is
    /// for `rules::game::step`. The same placements as `step`, batched.
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
