//! Board snapshots: a grid of counters instead of a move list. Who has a
//! run, who moves next, and whether any legal game reaches the position
//! (spec/board.md).

use std::collections::TryReserveError;
use std::fmt;

mod grid;
mod judgement;
mod order;

pub use grid::GridError;
pub(crate) use grid::{Grid, parse_grid};
pub use judgement::{Answer, Bounds, Judgement, SEARCH_MEMORY, SEARCH_WORK, judge, judge_within};
use order::ColumnStacks;

/// Bytes a cell may cost `cz board`, beside the input as read: judging a
/// grid of n cells asks for at most `n * BYTES_PER_CELL` bytes plus a few
/// kilobytes, and more only for the exhaustive search's remembered
/// positions, bounded by [`Bounds::memory`] (r[board.memory]). Public as
/// the bound a caller can plan the memory of a large grid on.
pub const BYTES_PER_CELL: usize = 64;

/// A vector of `n` copies of `value`, or the memory cannot be had.
fn try_filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.resize(n, value);
    Ok(v)
}

/// One of the two sides of a snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player who moved first.
    First,
    /// The other.
    Second,
}

/// A position: the grid's counters by side, and the symbols used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells row by row, row 0 at the top as written: cell (r, c) is
    /// `cells[r * width + c]`.
    pub cells: Vec<Option<Side>>,
    /// The first player's symbol and the second's.
    pub symbols: [char; 2],
}

/// Turns a grid into a position. `empty` is an extra empty symbol (`.`,
/// `_` and `0` always are); `first` names the first player's symbol.
/// Without it the first player is the one with more counters, or, on equal
/// counts, the first symbol in reading order (`1` before `2`).
///
/// # Errors
/// A third counter symbol, or the memory cannot be had.
pub(crate) fn from_grid(
    grid: &Grid,
    empty: Option<char>,
    first: Option<char>,
) -> Result<Snapshot, GridError> {
    let is_empty = |s: u8| matches!(s, b'.' | b'_' | b'0') || Some(char::from(s)) == empty;
    let mut symbols: Vec<char> = Vec::new();
    for (i, &s) in grid.cells.iter().enumerate() {
        let s = char::from(s);
        if is_empty(s as u8) || symbols.contains(&s) {
            continue;
        }
        if symbols.len() == 2 {
            return Err(GridError::ThirdSymbol {
                row: i / grid.width + 1,
                column: i % grid.width + 1,
                symbol: s,
            });
        }
        symbols.push(s);
    }
    if symbols == ['2', '1'] {
        symbols.reverse();
    }
    let count = |s: char| grid.cells.iter().filter(|&&b| char::from(b) == s).count();
    let mut pair = [
        symbols.first().copied().unwrap_or('x'),
        symbols.get(1).copied().unwrap_or('o'),
    ];
    match first {
        Some(f) if f == pair[1] => pair.swap(0, 1),
        Some(f) if f == pair[0] => {}
        Some(f) => pair = [f, pair[0]],
        None if count(pair[1]) > count(pair[0]) => pair.swap(0, 1),
        None => {}
    }
    let mut cells = Vec::new();
    cells
        .try_reserve_exact(grid.cells.len())
        .map_err(|_| GridError::OutOfMemory)?;
    cells.extend(grid.cells.iter().map(|&b| match char::from(b) {
        s if s == pair[0] && !is_empty(b) => Some(Side::First),
        s if s == pair[1] && !is_empty(b) => Some(Side::Second),
        _ => None,
    }));
    Ok(Snapshot {
        width: grid.width,
        height: grid.height,
        cells,
        symbols: pair,
    })
}

/// A winning run, a run of at least z counters (r[board.lines]), given by
/// its first cell as (row from the top, column from the left), 1-based, the
/// step to the next and its length: the snapshot's form of the core's
/// [`connectz::WinningRun`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunCells {
    /// Whose run.
    pub side: Side,
    /// Its first cell in reading order (the top one, or the left one of a
    /// row).
    pub start: (usize, usize),
    /// From one cell to the next, in rows (down) and columns (right): (0,
    /// 1), (1, 0), (1, 1) or (1, -1).
    pub step: (isize, isize),
    /// Its number of cells.
    pub len: usize,
}

impl RunCells {
    /// Its cells, from `start` on.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len as isize).map(|k| {
            (
                (self.start.0 as isize + k * self.step.0) as usize,
                (self.start.1 as isize + k * self.step.1) as usize,
            )
        })
    }

    /// Where `cell` is on the run, from 0, if it is.
    fn index_of(&self, cell: (usize, usize)) -> Option<usize> {
        let (dr, dc) = self.step;
        let k = if dr != 0 {
            cell.0 as isize - self.start.0 as isize
        } else {
            (cell.1 as isize - self.start.1 as isize) * dc
        };
        let on = k >= 0
            && (k as usize) < self.len
            && self.start.0 as isize + k * dr == cell.0 as isize
            && self.start.1 as isize + k * dc == cell.1 as isize;
        on.then_some(k as usize)
    }
}

impl Snapshot {
    /// The counter at row `r` from the top and column `c`, from 0.
    pub fn cell(&self, r: usize, c: usize) -> Option<Side> {
        self.cells[r * self.width + c]
    }

    fn at(&self, r: isize, c: isize) -> Option<Side> {
        if r < 0 || c < 0 || r as usize >= self.height || c as usize >= self.width {
            return None;
        }
        self.cell(r as usize, c as usize)
    }

    /// Every maximal run of z or more of one side's counters, in any of the
    /// four directions, found as it is asked for: nothing is held but the
    /// run at hand.
    pub fn runs(&self, z: usize) -> impl Iterator<Item = RunCells> + '_ {
        let cells = self.width * self.height;
        [(0isize, 1isize), (1, 0), (1, 1), (1, -1)]
            .into_iter()
            .flat_map(move |step| (0..cells).map(move |i| (step, i)))
            .filter_map(move |((dr, dc), i)| {
                let (r, c) = ((i / self.width) as isize, (i % self.width) as isize);
                let side = self.at(r, c)?;
                // Start only at the first cell of a run.
                if self.at(r - dr, c - dc) == Some(side) {
                    return None;
                }
                let mut len = 0;
                while self.at(r + len as isize * dr, c + len as isize * dc) == Some(side) {
                    len += 1;
                }
                (len >= z).then_some(RunCells {
                    side,
                    start: (r as usize + 1, c as usize + 1),
                    step: (dr, dc),
                    len,
                })
            })
    }

    fn count(&self, side: Side) -> usize {
        self.cells.iter().filter(|&&s| s == Some(side)).count()
    }

    /// Each column bottom-up, or the first floating counter as (row from
    /// the top, column), 1-based.
    fn stacks(&self) -> Result<Result<ColumnStacks, (usize, usize)>, TryReserveError> {
        let counters = self.cells.iter().filter(|s| s.is_some()).count();
        let mut stacks = ColumnStacks::with_capacity(self.width, counters)?;
        for c in 0..self.width {
            let mut gap = false;
            for r in (0..self.height).rev() {
                match self.cell(r, c) {
                    Some(_) if gap => return Ok(Err((r + 1, c + 1))),
                    Some(side) => stacks.push(side),
                    None => gap = true,
                }
            }
            stacks.end_column();
        }
        Ok(Ok(stacks))
    }
}

/// Why `cz board` cannot answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The grid does not parse.
    Grid(GridError),
    /// Both symbols have as many counters and the answer depends on which
    /// moved first (r[board.first]).
    AmbiguousFirst([char; 2]),
    /// A run length of 0: no run is that short (r[board.lines]).
    ZeroZ,
    /// The memory to hold or judge the grid cannot be had
    /// (r[board.memory]).
    OutOfMemory,
    /// `--first` names a symbol that cannot be a counter, or neither of the
    /// board's two (r[board.first]).
    NotASymbol {
        /// The symbol given.
        first: char,
        /// True when it could be a counter (a letter or digit, not empty).
        counter: bool,
        /// The board's counters' symbols.
        symbols: Vec<char>,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Grid(e) => e.fmt(f),
            BoardError::OutOfMemory => f.write_str("the grid needs more memory than can be had"),
            BoardError::AmbiguousFirst([a, b]) => write!(
                f,
                "{a} and {b} have as many counters and the answer depends on who moved first: say so with --first"
            ),
            BoardError::ZeroZ => f.write_str("the run length (-z) must be at least 1"),
            BoardError::NotASymbol {
                first,
                counter: true,
                symbols,
            } => write!(
                f,
                "--first {first:?} is neither of the board's symbols ({} and {})",
                symbols[0], symbols[1]
            ),
            BoardError::NotASymbol { first, .. } => write!(
                f,
                "--first {first:?} cannot be a counter: a counter is a letter or a digit other than 0, and not the --empty symbol"
            ),
        }
    }
}

impl From<GridError> for BoardError {
    fn from(e: GridError) -> BoardError {
        match e {
            GridError::OutOfMemory => BoardError::OutOfMemory,
            e => BoardError::Grid(e),
        }
    }
}

/// Reads and judges a grid. r[board.first]: which symbol moved first comes
/// from `first`, else from the counts; on equal counts both are tried: a
/// reading under which the position is invalid gives way to one under which
/// it is valid, and two valid readings must agree.
///
/// # Errors
/// A grid that does not parse, equal counts where the first player
/// matters, or [`BoardError::OutOfMemory`]: at most [`BYTES_PER_CELL`] a
/// cell is asked for, each piece before it is used, so a grid too large
/// for the memory there is gets this error, never an abort.
pub fn judge_grid(
    input: &[u8],
    z: usize,
    first: Option<char>,
    empty: Option<char>,
    gravity: bool,
) -> Result<(Snapshot, Judgement), BoardError> {
    judge_grid_within(input, z, first, empty, gravity, Bounds::default())
}

/// [`judge_grid`] with each reading's search bounded by `bounds`.
///
/// # Errors
/// As [`judge_grid`].
pub fn judge_grid_within(
    input: &[u8],
    z: usize,
    first: Option<char>,
    empty: Option<char>,
    gravity: bool,
    bounds: Bounds,
) -> Result<(Snapshot, Judgement), BoardError> {
    if z == 0 {
        return Err(BoardError::ZeroZ);
    }
    let grid = parse_grid(input).map_err(BoardError::from)?;
    if let Some(f) = first {
        let counter = |s: char| s.is_ascii_alphanumeric() && s != '0' && Some(s) != empty;
        let symbols = grid.symbols(empty);
        if !counter(f) || (symbols.len() == 2 && !symbols.contains(&f)) {
            return Err(BoardError::NotASymbol {
                first: f,
                counter: counter(f),
                symbols,
            });
        }
    }
    let p = from_grid(&grid, empty, first).map_err(BoardError::from)?;
    let judgement = judge_within(&p, z, gravity, bounds)?;
    if first.is_some() || p.count(Side::First) != p.count(Side::Second) || p.count(Side::First) == 0
    {
        return Ok((p, judgement));
    }
    let [a, b] = p.symbols;
    let swapped = from_grid(&grid, empty, Some(b)).map_err(BoardError::from)?;
    let other = judge_within(&swapped, z, gravity, bounds)?;
    // Only a reading under which the position is valid counts; an undecided
    // reading leaves the answer undecided unless the other is the same.
    match (judgement.answer, other.answer) {
        (x, y) if x == y => Ok((p, judgement)),
        (Answer::Undecided, _) => Ok((p, judgement)),
        (_, Answer::Undecided) => Ok((swapped, other)),
        (_, Answer::Invalid) => Ok((p, judgement)),
        (Answer::Invalid, _) => Ok((swapped, other)),
        _ => Err(BoardError::AmbiguousFirst([a, b])),
    }
}

#[cfg(test)]
mod tests;
