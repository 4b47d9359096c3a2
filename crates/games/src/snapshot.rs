//! Board snapshots: a grid of counters instead of a move list. Who has a
//! run, who moves next, and whether any legal game reaches the position
//! (spec/board.md).

use std::fmt;

mod grid;
mod order;

pub use grid::{Grid, GridError, parse_grid};
use order::{Work, reachable};

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
    /// `cells[r][c]`, row 0 at the top as written.
    pub cells: Vec<Vec<Option<Side>>>,
    /// The first player's symbol and the second's.
    pub symbols: [char; 2],
}

/// Turns a grid into a position. `empty` is an extra empty symbol (`.`,
/// `_` and `0` always are); `first` names the first player's symbol.
/// Without it the first player is the one with more counters, or, on equal
/// counts, the first symbol in reading order (`1` before `2`).
///
/// # Errors
/// A third counter symbol.
pub fn from_grid(
    grid: &Grid,
    empty: Option<char>,
    first: Option<char>,
) -> Result<Snapshot, GridError> {
    let is_empty = |s: u8| matches!(s, b'.' | b'_' | b'0') || Some(char::from(s)) == empty;
    let mut symbols: Vec<char> = Vec::new();
    for (r, row) in grid.rows.iter().enumerate() {
        for (c, &s) in row.iter().enumerate() {
            let s = char::from(s);
            if is_empty(s as u8) || symbols.contains(&s) {
                continue;
            }
            if symbols.len() == 2 {
                return Err(GridError::ThirdSymbol {
                    row: r + 1,
                    column: c + 1,
                    symbol: s,
                });
            }
            symbols.push(s);
        }
    }
    if symbols == ['2', '1'] {
        symbols.reverse();
    }
    let count = |s: char| {
        grid.rows
            .iter()
            .flatten()
            .filter(|&&b| char::from(b) == s)
            .count()
    };
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
    let cells = grid
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|&b| match char::from(b) {
                    s if s == pair[0] && !is_empty(b) => Some(Side::First),
                    s if s == pair[1] && !is_empty(b) => Some(Side::Second),
                    _ => None,
                })
                .collect()
        })
        .collect();
    Ok(Snapshot {
        width: grid.rows[0].len(),
        height: grid.rows.len(),
        cells,
        symbols: pair,
    })
}

/// A winning run, a run of at least z counters (r[board.lines]), given by
/// its cells as (row from the top, column from the left), 1-based, from one
/// end to the other: the snapshot's form of the core's
/// [`connectz::WinningRun`], which gives a run by its start, direction and
/// length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunCells {
    /// Whose run.
    pub side: Side,
    /// Its cells.
    pub cells: Vec<(usize, usize)>,
}

impl Snapshot {
    fn at(&self, r: isize, c: isize) -> Option<Side> {
        if r < 0 || c < 0 {
            return None;
        }
        *self.cells.get(r as usize)?.get(c as usize)?
    }

    /// Every maximal run of z or more of one side's counters, in any of the
    /// four directions.
    pub fn runs(&self, z: usize) -> Vec<RunCells> {
        let mut out = Vec::new();
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            for r in 0..self.height as isize {
                for c in 0..self.width as isize {
                    let Some(side) = self.at(r, c) else {
                        continue;
                    };
                    // Start only at the first cell of a run.
                    if self.at(r - dr, c - dc) == Some(side) {
                        continue;
                    }
                    let mut cells = Vec::new();
                    let (mut rr, mut cc) = (r, c);
                    while self.at(rr, cc) == Some(side) {
                        cells.push((rr as usize + 1, cc as usize + 1));
                        rr += dr;
                        cc += dc;
                    }
                    if cells.len() >= z {
                        out.push(RunCells { side, cells });
                    }
                }
            }
        }
        out
    }

    fn count(&self, side: Side) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&s| s == Some(side))
            .count()
    }

    /// Each column bottom-up, or the first floating counter as (row from
    /// the top, column), 1-based.
    fn stacks(&self) -> Result<Vec<Vec<Side>>, (usize, usize)> {
        let mut stacks = Vec::with_capacity(self.width);
        for c in 0..self.width {
            let mut stack = Vec::new();
            let mut gap = false;
            for r in (0..self.height).rev() {
                match self.cells[r][c] {
                    Some(_) if gap => return Err((r + 1, c + 1)),
                    Some(side) => stack.push(side),
                    None => gap = true,
                }
            }
            stacks.push(stack);
        }
        Ok(stacks)
    }
}

/// The answer of `cz board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// It is the first player's turn.
    FirstMoves,
    /// It is the second player's turn.
    SecondMoves,
    /// The first player completed a winning run.
    FirstWins,
    /// The second player completed a winning run.
    SecondWins,
    /// The frame is full and nobody has a run.
    Draw,
    /// No legal game reaches this position.
    Invalid,
    /// The search for a game reaching the position ran past its bounds
    /// before it could prove an answer (r[board.undecided]).
    Undecided,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::FirstMoves => "first player moves",
            Answer::SecondMoves => "second player moves",
            Answer::FirstWins => "first player wins",
            Answer::SecondWins => "second player wins",
            Answer::Draw => "draw game",
            Answer::Invalid => "invalid",
            Answer::Undecided => "undecided",
        })
    }
}

/// An answer and, when it is `Invalid` or `Undecided`, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The answer.
    pub answer: Answer,
    /// The reason for an invalid or undecided position.
    pub why: Option<String>,
}

/// Work the reachability search may do before it answers `undecided`: a few
/// seconds on this project's machine (a unit is a column or a counter
/// looked at; about 16 million a second were measured).
pub const SEARCH_WORK: u64 = 50_000_000;
/// Memory the search's table of dead ends may take, in bytes.
pub const SEARCH_MEMORY: usize = 128 << 20;

/// How far one judgement's search may go (r[board.undecided]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Steps (see [`SEARCH_WORK`]).
    pub work: u64,
    /// Bytes of remembered dead ends.
    pub memory: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            work: SEARCH_WORK,
            memory: SEARCH_MEMORY,
        }
    }
}

/// Bytes one remembered dead end costs: its key, the allocation's header,
/// and its share of the hash table.
fn dead_end_bytes(key: &[u32]) -> usize {
    (key.len() * 4).next_multiple_of(16) + 64
}

/// Judges a position: r[board.verdict] with gravity, r[board.no-gravity]
/// without.
pub fn judge(p: &Snapshot, z: usize, gravity: bool) -> Judgement {
    judge_within(p, z, gravity, Bounds::default())
}

/// [`judge`] with the search bounded by `bounds`.
pub fn judge_within(p: &Snapshot, z: usize, gravity: bool, bounds: Bounds) -> Judgement {
    let invalid = |why: String| Judgement {
        answer: Answer::Invalid,
        why: Some(why),
    };
    let undecided = || Judgement {
        answer: Answer::Undecided,
        why: Some(format!(
            "the search for a game reaching this position passed its bounds ({} million steps or {} MiB) before it found one or ruled them all out",
            bounds.work / 1_000_000,
            bounds.memory >> 20
        )),
    };
    let [a, b] = p.symbols;
    let runs = p.runs(z);
    let has = |side| runs.iter().any(|r| r.side == side);
    let (first_run, second_run) = (has(Side::First), has(Side::Second));
    let (nf, ns) = (p.count(Side::First), p.count(Side::Second));
    if first_run && second_run {
        return invalid(format!(
            "both {a} and {b} have a run of {z}: the game stops at the first"
        ));
    }
    let full = nf + ns == p.width * p.height;
    let ok = |answer| Judgement { answer, why: None };
    if !gravity {
        return ok(match (first_run, second_run) {
            (true, _) => Answer::FirstWins,
            (_, true) => Answer::SecondWins,
            _ if full => Answer::Draw,
            _ if nf > ns => Answer::SecondMoves,
            _ => Answer::FirstMoves,
        });
    }
    // r[board.gravity]
    let stacks = match p.stacks() {
        Ok(s) => s,
        Err((r, c)) => {
            return invalid(format!(
                "floating counter at row {r} column {c} (rows from the top)"
            ));
        }
    };
    // r[board.counts]
    if nf != ns && nf != ns + 1 {
        return invalid(format!(
            "{a} has {nf} counters and {b} {ns}: the first player has as many as the second or one more"
        ));
    }
    let mut work = Work::new(bounds);
    let winner = match (first_run, second_run) {
        (true, _) => Some(Side::First),
        (_, true) => Some(Side::Second),
        _ => None,
    };
    let Some(winner) = winner else {
        // r[board.order]
        return match reachable(&stacks, &mut work) {
            Some(true) => ok(if full {
                Answer::Draw
            } else if nf == ns {
                Answer::FirstMoves
            } else {
                Answer::SecondMoves
            }),
            Some(false) => invalid(format!(
                "no alternating game, {a} first, stacks the columns this way"
            )),
            None => undecided(),
        };
    };
    // r[board.last-line]: the winner moved last, with a counter that every
    // run of theirs passes through, from a reachable position with no winning run.
    let (name, moved_last) = match winner {
        Side::First => (a, nf == ns + 1),
        Side::Second => (b, nf == ns),
    };
    if !moved_last {
        return invalid(format!("{name} has a winning run but did not move last"));
    }
    let mut gave_up = false;
    for (c, stack) in stacks.iter().enumerate() {
        if stack.last() != Some(&winner) {
            continue;
        }
        let cell = (p.height - stack.len() + 1, c + 1);
        if !breaks_every_run(&runs, cell, z) {
            continue;
        }
        let mut smaller = stacks.clone();
        smaller[c].pop();
        match reachable(&smaller, &mut work) {
            Some(true) => {
                return ok(if winner == Side::First {
                    Answer::FirstWins
                } else {
                    Answer::SecondWins
                });
            }
            Some(false) => {}
            None => gave_up = true,
        }
    }
    if gave_up {
        return undecided();
    }
    invalid(format!(
        "{name}'s winning run could not have been completed last: no top counter of {name} is on every winning run of theirs with a reachable position before it"
    ))
}

/// True when taking the counter at `cell` (row from the top, column, 1-based)
/// away leaves no winning run: it lies on every run, and splits each into
/// pieces shorter than z.
fn breaks_every_run(runs: &[RunCells], cell: (usize, usize), z: usize) -> bool {
    runs.iter().all(|run| {
        run.cells
            .iter()
            .position(|&c| c == cell)
            .is_some_and(|k| k < z && run.cells.len() - k - 1 < z)
    })
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

/// Reads and judges a grid. r[board.first]: which symbol moved first comes
/// from `first`, else from the counts; on equal counts both are tried: a
/// reading under which the position is invalid gives way to one under which
/// it is valid, and two valid readings must agree.
///
/// # Errors
/// A grid that does not parse, or equal counts where the first player matters.
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
    let grid = parse_grid(input).map_err(BoardError::Grid)?;
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
    let p = from_grid(&grid, empty, first).map_err(BoardError::Grid)?;
    let judgement = judge_within(&p, z, gravity, bounds);
    if first.is_some() || p.count(Side::First) != p.count(Side::Second) || p.count(Side::First) == 0
    {
        return Ok((p, judgement));
    }
    let [a, b] = p.symbols;
    let swapped = from_grid(&grid, empty, Some(b)).map_err(BoardError::Grid)?;
    let other = judge_within(&swapped, z, gravity, bounds);
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
