//! Board snapshots: a grid of counters instead of a move list. Who has a
//! line, who moves next, and whether any legal game reaches the position
//! (spec/board.md).

use std::collections::{HashMap, HashSet};
use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, satisfy};
use nom::combinator::{all_consuming, opt};
use nom::multi::{many1, separated_list1};
use nom::sequence::terminated;
use nom::{IResult, Parser};

/// A grid as written: rows top-down, each a list of cell symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Rows, top first; every row has the same width.
    pub rows: Vec<Vec<u8>>,
}

/// What is wrong with a grid (r[board.grid]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// No rows at all.
    Empty,
    /// A byte that is not a cell symbol, at 1-based row and column.
    UnexpectedByte {
        /// Row, from the top.
        row: usize,
        /// Byte position in the row.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// A row of another width than the first.
    Ragged {
        /// Row, from the top.
        row: usize,
        /// Its width.
        width: usize,
        /// The first row's width.
        expected: usize,
    },
    /// A third kind of counter, at 1-based row and column.
    ThirdSymbol {
        /// Row, from the top.
        row: usize,
        /// Cell, from the left.
        column: usize,
        /// The symbol.
        symbol: char,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Empty => write!(f, "the grid has no rows"),
            GridError::UnexpectedByte { row, column, byte } => {
                write!(
                    f,
                    "row {row}, byte {column}: '{}' is not a cell",
                    [*byte].escape_ascii()
                )
            }
            GridError::Ragged {
                row,
                width,
                expected,
            } => {
                write!(f, "row {row} has {width} cells, the first row {expected}")
            }
            GridError::ThirdSymbol {
                row,
                column,
                symbol,
            } => write!(
                f,
                "row {row}, column {column}: '{symbol}' is a third kind of counter (two players only; empty is '.', '_' or '0')"
            ),
        }
    }
}

// cell = ALPHA / DIGIT / "." / "_"
fn cell(input: &[u8]) -> IResult<&[u8], u8> {
    satisfy(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        .map(|c| c as u8)
        .parse(input)
}

// row = 1*(cell [SP])
fn row(input: &[u8]) -> IResult<&[u8], Vec<u8>> {
    many1(terminated(cell, opt(char(' ')))).parse(input)
}

// grid = row *(("\n" / "\r\n" / "/" / ";") row) [newline]
fn grid(input: &[u8]) -> IResult<&[u8], Vec<Vec<u8>>> {
    let separator = || {
        alt((
            tag(&b"\r\n"[..]),
            tag(&b"\n"[..]),
            tag(&b"/"[..]),
            tag(&b";"[..]),
        ))
    };
    all_consuming(terminated(
        separated_list1(separator(), row),
        opt(separator()),
    ))
    .parse(input)
}

/// Reads a grid (r[board.grid]): rows top-down, separated by line feeds,
/// `/` or `;`; cells are letters, digits, `.` or `_`, optionally separated by
/// single spaces; every row the same width.
///
/// # Errors
/// The first fault, with its row and column.
pub fn parse_grid(input: &[u8]) -> Result<Grid, GridError> {
    // A file's final line feed ends its last line, after a final `/` or `;`
    // too: `..;xo;` and a line feed is two rows.
    let input = input
        .strip_suffix(b"\r\n")
        .or_else(|| input.strip_suffix(b"\n"))
        .unwrap_or(input);
    if input.is_empty() {
        return Err(GridError::Empty);
    }
    let rows = match grid(input) {
        Ok((_, rows)) => rows,
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let offset = input.len() - e.input.len();
            let before = &input[..offset];
            let row = 1 + before
                .iter()
                .filter(|&&b| matches!(b, b'\n' | b'/' | b';'))
                .count();
            let start = before
                .iter()
                .rposition(|&b| matches!(b, b'\n' | b'/' | b';'))
                .map_or(0, |p| p + 1);
            return Err(GridError::UnexpectedByte {
                row,
                column: offset - start + 1,
                byte: e.input.first().copied().unwrap_or(b' '),
            });
        }
        Err(nom::Err::Incomplete(_)) => return Err(GridError::Empty),
    };
    let expected = rows[0].len();
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != expected) {
        return Err(GridError::Ragged {
            row: i + 1,
            width: r.len(),
            expected,
        });
    }
    Ok(Grid { rows })
}

impl Grid {
    /// The symbols of counters on the grid, in reading order, at most the
    /// first two (`.`, `_`, `0` and `empty` are empty cells).
    pub fn symbols(&self, empty: Option<char>) -> Vec<char> {
        let mut symbols = Vec::new();
        for &b in self.rows.iter().flatten() {
            let s = char::from(b);
            if matches!(b, b'.' | b'_' | b'0') || Some(s) == empty || symbols.contains(&s) {
                continue;
            }
            symbols.push(s);
            if symbols.len() == 2 {
                break;
            }
        }
        symbols
    }
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

/// A run of at least z counters (r[board.lines]): cells as (row from the
/// top, column from the left), 1-based, from one end to the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Whose line.
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
    pub fn runs(&self, z: usize) -> Vec<Run> {
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
                        out.push(Run { side, cells });
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
    let mut work = Work { done: 0, bounds };
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
    // line of theirs passes through, from a reachable position with no line.
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
fn breaks_every_run(runs: &[Run], cell: (usize, usize), z: usize) -> bool {
    runs.iter().all(|run| {
        run.cells
            .iter()
            .position(|&c| c == cell)
            .is_some_and(|k| k < z && run.cells.len() - k - 1 < z)
    })
}

/// The search's budget, shared by the searches of one judgement.
#[derive(Debug)]
struct Work {
    done: u64,
    bounds: Bounds,
}

impl Work {
    #[cfg(test)]
    fn default_bounds() -> Work {
        Work {
            done: 0,
            bounds: Bounds::default(),
        }
    }
}

/// Can the columns (bottom-up stacks) be built by alternating moves, the
/// first player first? `None` when the search ran past its bounds.
///
/// A schedule: slot t (1-based) takes a first-player counter when t is odd.
/// Each counter has a deadline, the last slot it can take with every counter
/// above it in its column still placed in time. First a greedy pass places,
/// at each slot, the available counter with the earliest deadline; it finds
/// a game for nearly every valid position, and a game found is a proof. When
/// it fails, an exhaustive depth-first search over the column heights
/// decides: it tries moves by deadline, treats columns whose remaining
/// counters are the same as one, remembers dead ends by the multiset of what
/// remains, and prunes a position when, for either player, the remaining
/// counters cannot be given distinct slots between their earliest and
/// latest (a relaxation of the problem: when it has no solution, neither
/// does the problem). The search stops at the bounds of `work`.
fn reachable(stacks: &[Vec<Side>], work: &mut Work) -> Option<bool> {
    let schedule = Schedule::new(stacks);
    // The set-up's work (a deadline and a suffix number a counter) counts
    // against the budget too (r[board.undecided]).
    work.done += schedule.total as u64;
    if schedule.greedy(work) {
        return Some(true);
    }
    schedule.search(work)
}

/// The side whose turn slot `t` (1-based) is.
fn side_of(t: usize) -> Side {
    if t % 2 == 1 {
        Side::First
    } else {
        Side::Second
    }
}

struct Schedule<'a> {
    stacks: &'a [Vec<Side>],
    total: usize,
    /// `deadline[c][k]`: the last slot the k-th counter of column c can take.
    deadline: Vec<Vec<usize>>,
    /// `suffix[c][k]`: an id of the counters of column c from the k-th up,
    /// the same for equal contents.
    suffix: Vec<Vec<u32>>,
}

impl<'a> Schedule<'a> {
    /// A counter with no slot at all gets deadline 0, which no slot meets.
    fn new(stacks: &'a [Vec<Side>]) -> Schedule<'a> {
        let total: usize = stacks.iter().map(Vec::len).sum();
        let mut deadline = Vec::with_capacity(stacks.len());
        for stack in stacks {
            let mut d = vec![0; stack.len()];
            let mut next = total + 1;
            for k in (0..stack.len()).rev() {
                let mut t = next.saturating_sub(1);
                if t > 0 && side_of(t) != stack[k] {
                    t -= 1;
                }
                d[k] = t;
                next = t;
            }
            deadline.push(d);
        }
        // Suffixes are numbered from the top down, each by its bottom
        // counter and the number of the suffix above it: equal contents get
        // equal numbers, in time linear in the counters (hashing each
        // suffix whole took time quadratic in a column's height).
        let mut ids: HashMap<(Side, u32), u32> = HashMap::new();
        let suffix = stacks
            .iter()
            .map(|stack| {
                let mut numbers = vec![0u32; stack.len() + 1];
                for k in (0..stack.len()).rev() {
                    let next = ids.len() as u32 + 1;
                    numbers[k] = *ids.entry((stack[k], numbers[k + 1])).or_insert(next);
                }
                numbers
            })
            .collect();
        Schedule {
            stacks,
            total,
            deadline,
            suffix,
        }
    }

    /// Earliest deadline first; true when it builds every column.
    fn greedy(&self, work: &mut Work) -> bool {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut heights = vec![0usize; self.stacks.len()];
        let mut heads: [BinaryHeap<Reverse<(usize, usize)>>; 2] = Default::default();
        let side_index = |s: Side| usize::from(s == Side::Second);
        for (c, stack) in self.stacks.iter().enumerate() {
            if let Some(&s) = stack.first() {
                heads[side_index(s)].push(Reverse((self.deadline[c][0], c)));
            }
        }
        for t in 1..=self.total {
            work.done += 1;
            let Some(Reverse((d, c))) = heads[side_index(side_of(t))].pop() else {
                return false;
            };
            if d < t {
                return false;
            }
            heights[c] += 1;
            if let Some(&s) = self.stacks[c].get(heights[c]) {
                heads[side_index(s)].push(Reverse((self.deadline[c][heights[c]], c)));
            }
        }
        true
    }

    /// The relaxation: for each side, can the remaining counters have
    /// distinct slots of their side, each between its earliest slot (from
    /// the counters below it) and its deadline, every slot from `t` on used?
    fn relaxation_holds(&self, heights: &[usize], t: usize, work: &mut Work) -> bool {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut windows: [Vec<(usize, usize)>; 2] = Default::default();
        for (c, stack) in self.stacks.iter().enumerate() {
            let mut earliest = t;
            for k in heights[c]..stack.len() {
                let mut r = earliest;
                if side_of(r) != stack[k] {
                    r += 1;
                }
                if r > self.deadline[c][k] {
                    return false;
                }
                windows[usize::from(stack[k] == Side::Second)].push((r, self.deadline[c][k]));
                earliest = r + 1;
            }
        }
        for (i, jobs) in windows.iter_mut().enumerate() {
            work.done += jobs.len() as u64;
            jobs.sort_unstable();
            let mut open = BinaryHeap::new();
            let mut next = 0;
            let mut slot = if side_of(t) == [Side::First, Side::Second][i] {
                t
            } else {
                t + 1
            };
            while slot <= self.total {
                while next < jobs.len() && jobs[next].0 <= slot {
                    open.push(Reverse(jobs[next].1));
                    next += 1;
                }
                match open.pop() {
                    Some(Reverse(d)) if d >= slot => {}
                    _ => return false,
                }
                slot += 2;
            }
        }
        true
    }

    /// The exhaustive search (see [`reachable`]).
    fn search(&self, work: &mut Work) -> Option<bool> {
        struct Frame {
            options: Vec<usize>,
            next: usize,
            key: Box<[u32]>,
            /// The column played to get here.
            via: Option<usize>,
        }
        let width = self.stacks.len();
        let mut heights = vec![0usize; width];
        let mut placed = 0;
        let mut dead: HashSet<Box<[u32]>> = HashSet::new();
        let mut dead_bytes = 0usize;
        let mut frames: Vec<Frame> = Vec::new();
        let mut via = None;
        loop {
            // Enter the position `heights`.
            work.done += width as u64;
            if work.done > work.bounds.work || dead_bytes > work.bounds.memory {
                return None;
            }
            if placed == self.total {
                return Some(true);
            }
            let mut key: Box<[u32]> = (0..width).map(|c| self.suffix[c][heights[c]]).collect();
            key.sort_unstable();
            let entered = if dead.contains(&key) {
                false
            } else if !self.relaxation_holds(&heights, placed + 1, work) {
                dead_bytes += dead_end_bytes(&key);
                dead.insert(key);
                false
            } else {
                let side = side_of(placed + 1);
                let mut options: Vec<(usize, u32, usize)> = (0..width)
                    .filter(|&c| self.stacks[c].get(heights[c]) == Some(&side))
                    .map(|c| (self.deadline[c][heights[c]], self.suffix[c][heights[c]], c))
                    .collect();
                options.sort_unstable();
                // Columns with the same remaining counters are one choice.
                let mut seen = HashSet::new();
                options.retain(|o| seen.insert(o.1));
                frames.push(Frame {
                    options: options.into_iter().map(|o| o.2).collect(),
                    next: 0,
                    key,
                    via,
                });
                true
            };
            if !entered {
                // Back to the parent: undo the move that led here.
                if let Some(c) = via {
                    heights[c] -= 1;
                    placed -= 1;
                }
            }
            // Take the next untried move, backtracking over exhausted frames.
            loop {
                let Some(frame) = frames.last_mut() else {
                    return Some(false);
                };
                if let Some(&c) = frame.options.get(frame.next) {
                    frame.next += 1;
                    heights[c] += 1;
                    placed += 1;
                    via = Some(c);
                    break;
                }
                let frame = frames.pop().expect("a frame");
                dead_bytes += dead_end_bytes(&frame.key);
                dead.insert(frame.key);
                if let Some(c) = frame.via {
                    heights[c] -= 1;
                    placed -= 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pruned search against a plain one (every move, dead ends
    /// remembered by heights) on random columns, up to 6 x 6: the pruning,
    /// the symmetry and the greedy pass never change an answer.
    #[test]
    fn search_matches_a_plain_search() {
        fn plain(stacks: &[Vec<Side>]) -> bool {
            let total: usize = stacks.iter().map(Vec::len).sum();
            let mut dead = HashSet::new();
            fn go(
                st: &[Vec<Side>],
                h: &mut Vec<usize>,
                placed: usize,
                total: usize,
                dead: &mut HashSet<Vec<usize>>,
            ) -> bool {
                if placed == total {
                    return true;
                }
                if dead.contains(h) {
                    return false;
                }
                for c in 0..st.len() {
                    if st[c].get(h[c]) == Some(&side_of(placed + 1)) {
                        h[c] += 1;
                        let found = go(st, h, placed + 1, total, dead);
                        h[c] -= 1;
                        if found {
                            return true;
                        }
                    }
                }
                dead.insert(h.clone());
                false
            }
            go(stacks, &mut vec![0; stacks.len()], 0, total, &mut dead)
        }
        let mut rng = connectz_rng::Rng::new(11);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..40_000 {
            let width = 1 + rng.below(6) as usize;
            let tallest = 1 + rng.below(6);
            let stacks: Vec<Vec<Side>> = (0..width)
                .map(|_| {
                    let mut side = rng.below(2) == 0;
                    (0..rng.below(tallest + 1))
                        .map(|_| {
                            // Runs of one side make hard positions.
                            if rng.below(3) == 0 {
                                side = !side;
                            }
                            if side { Side::First } else { Side::Second }
                        })
                        .collect()
                })
                .collect();
            let firsts = stacks
                .iter()
                .flatten()
                .filter(|&&s| s == Side::First)
                .count();
            let total: usize = stacks.iter().map(Vec::len).sum();
            if firsts != total - total / 2 {
                continue;
            }
            let expected = plain(&stacks);
            assert_eq!(
                reachable(&stacks, &mut Work::default_bounds()),
                Some(expected),
                "{stacks:?}"
            );
            if expected { yes += 1 } else { no += 1 }
        }
        assert!(yes > 1000 && no > 1000, "{yes} reachable, {no} not");
    }

    /// r[board.undecided]: the budget counts the set-up, and the set-up is
    /// linear: one column of 100,000 alternating counters (whose suffixes
    /// were once hashed whole, 247 s) costs a few steps a counter, and
    /// equal suffixes still share their number.
    #[test]
    fn set_up_is_counted_and_linear_in_the_counters() {
        for n in [2usize, 1_000, 100_000] {
            let column: Vec<Side> = (0..n)
                .map(|k| {
                    if k % 2 == 0 {
                        Side::First
                    } else {
                        Side::Second
                    }
                })
                .collect();
            let stacks = vec![column.clone(), column];
            let mut work = Work::default_bounds();
            let reachable = reachable(&stacks, &mut work);
            assert_eq!(reachable, Some(true), "{n}");
            let counters = 2 * n as u64;
            assert!(work.done >= counters, "{n}: set-up not counted");
            assert!(work.done <= 4 * counters, "{n}: {} steps", work.done);
            // Two equal columns: the same numbers, suffix by suffix.
            let schedule = Schedule::new(&stacks);
            assert_eq!(schedule.suffix[0], schedule.suffix[1]);
            let mut distinct = schedule.suffix[0].clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), n + 1, "{n}");
        }
        // Suffixes equal across columns of different heights.
        let a = vec![Side::Second, Side::First, Side::Second];
        let b = vec![Side::First, Side::Second];
        let stacks = vec![a, b];
        let schedule = Schedule::new(&stacks);
        assert_eq!(schedule.suffix[0][1], schedule.suffix[1][0]);
        assert_eq!(schedule.suffix[0][3], schedule.suffix[1][2]);
        assert_ne!(schedule.suffix[0][0], schedule.suffix[1][0]);
    }

    #[test]
    fn grid_reader_and_errors() {
        let g = parse_grid(b"..x\n.ox\nxoo\n").unwrap();
        assert_eq!(g.rows.len(), 3);
        assert_eq!(
            parse_grid(b"0 1 2;1 2 0").unwrap().rows,
            vec![b"012".to_vec(), b"120".to_vec()]
        );
        assert_eq!(parse_grid(b"OOX/OXY").unwrap().rows.len(), 2);
        assert_eq!(
            parse_grid(b"..x\n.o\n"),
            Err(GridError::Ragged {
                row: 2,
                width: 2,
                expected: 3
            })
        );
        assert_eq!(
            parse_grid(b"..x\n.o#\n"),
            Err(GridError::UnexpectedByte {
                row: 2,
                column: 3,
                byte: b'#'
            })
        );
        assert_eq!(parse_grid(b""), Err(GridError::Empty));
        let three = parse_grid(b"xoz").unwrap();
        assert_eq!(
            from_grid(&three, None, None),
            Err(GridError::ThirdSymbol {
                row: 1,
                column: 3,
                symbol: 'z'
            })
        );
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
