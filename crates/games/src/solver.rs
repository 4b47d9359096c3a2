//! An exact solver for Connect-Z positions on frames whose bitboard fits in
//! 64 bits (width * (height + 1) <= 64), for any line length z.
//!
//! The ideas are the public ones of Pascal Pons' Connect Four solver
//! (bitboards, negamax with alpha-beta, null-window search on the score, a
//! transposition table, threat-based move ordering, forced and losing
//! moves); the code is this project's, generalised to any frame and any z.
//!
//! Score (r[solve.score]): 0 for a draw; for a win of the side to move,
//! (cells + 1) / 2 + 1 minus the number of counters the winner has played
//! when the line is completed with best play by both; negative when the side
//! to move loses.

use std::fmt;

/// What is wrong with a position string (r[solve.position]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A character that is not a column digit of the frame.
    BadDigit {
        /// 1-based index in the string.
        at: usize,
        /// The character.
        found: char,
    },
    /// A move into a full column.
    FullColumn {
        /// 1-based index in the string.
        at: usize,
        /// The column.
        column: usize,
    },
    /// A move that completes a line: the game is over, there is nothing
    /// left to solve.
    AlreadyWon {
        /// 1-based index of the completing move.
        at: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BadDigit { at, found } => {
                write!(f, "move {at}: {found:?} is not a column of the frame")
            }
            PositionError::FullColumn { at, column } => {
                write!(f, "move {at}: column {column} is full")
            }
            PositionError::AlreadyWon { at } => {
                write!(f, "move {at} completes a line: the game is over")
            }
        }
    }
}

/// The frame of a bitboard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Line length.
    pub z: usize,
}

impl Shape {
    /// The classic frame: 7 x 6, lines of 4.
    pub const CLASSIC: Shape = Shape {
        width: 7,
        height: 6,
        z: 4,
    };

    /// True when the frame fits a 64-bit board (with a spare bit per column).
    pub fn fits(&self) -> bool {
        self.width >= 1
            && self.z >= 1
            && self
                .height
                .checked_add(1)
                .and_then(|h| h.checked_mul(self.width))
                .is_some_and(|bits| self.height >= 1 && bits <= 64)
    }

    /// True when a line of z fits the frame in some direction; when it does
    /// not, every game is a draw.
    pub fn line_fits(&self) -> bool {
        self.z <= self.width.max(self.height)
    }

    /// Orders columns centre first, then outwards, left before right.
    pub fn centre_rank(&self, col: usize) -> (u64, usize) {
        (
            (2 * col as i64 - (self.width as i64 - 1)).unsigned_abs(),
            col,
        )
    }

    /// Number of cells.
    pub fn cells(&self) -> i32 {
        (self.width * self.height) as i32
    }

    fn bottom(&self) -> u64 {
        (0..self.width).fold(0, |m, c| m | 1 << (c * (self.height + 1)))
    }

    fn board(&self) -> u64 {
        self.bottom() * ((1u64 << self.height) - 1)
    }

    pub(crate) fn column_mask(&self, col: usize) -> u64 {
        ((1u64 << self.height) - 1) << (col * (self.height + 1))
    }
}

/// A position as two bitboards: the side to move's counters and all counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    shape: Shape,
    current: u64,
    mask: u64,
    moves: i32,
}

fn shr(x: u64, s: usize) -> u64 {
    x.checked_shr(s as u32).unwrap_or(0)
}

fn shl(x: u64, s: usize) -> u64 {
    x.checked_shl(s as u32).unwrap_or(0)
}

impl Position {
    /// The empty frame.
    pub fn new(shape: Shape) -> Position {
        Position {
            shape,
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// Plays a string of 1-based column digits from the empty frame.
    ///
    /// # Errors
    /// A bad digit, a full column, or a move after a completed line.
    pub fn from_moves(shape: Shape, moves: &str) -> Result<Position, PositionError> {
        let mut p = Position::new(shape);
        for (i, ch) in moves.chars().enumerate() {
            let at = i + 1;
            let col = ch
                .to_digit(10)
                .map(|d| d as usize)
                .filter(|&d| d >= 1 && d <= shape.width)
                .ok_or(PositionError::BadDigit { at, found: ch })?
                - 1;
            if !p.can_play(col) {
                return Err(PositionError::FullColumn {
                    at,
                    column: col + 1,
                });
            }
            if p.is_winning_move(col) {
                return Err(PositionError::AlreadyWon { at });
            }
            p.play_column(col);
        }
        Ok(p)
    }

    /// The frame.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Counters played.
    pub fn moves(&self) -> i32 {
        self.moves
    }

    /// A key unique to the position (current + mask).
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// True when `col` (0-based) has room.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.shape.width && self.mask & self.top(col) == 0
    }

    fn top(&self, col: usize) -> u64 {
        1u64 << (col * (self.shape.height + 1) + self.shape.height - 1)
    }

    fn bottom_of(&self, col: usize) -> u64 {
        1u64 << (col * (self.shape.height + 1))
    }

    /// Plays a move given as the bit of the cell it fills.
    pub(crate) fn play_bit(&mut self, bit: u64) {
        self.current ^= self.mask;
        self.mask |= bit;
        self.moves += 1;
    }

    /// Plays in `col` (0-based, with room).
    pub fn play_column(&mut self, col: usize) {
        let bit = (self.mask + self.bottom_of(col)) & self.shape.column_mask(col);
        self.play_bit(bit);
    }

    /// Cells that complete a line of z for the counters `own`, among `empty`.
    fn winning_cells(&self, own: u64) -> u64 {
        let h = self.shape.height;
        let z = self.shape.z;
        // A line longer than the frame's sides never fits (and z is then
        // at most 64, the most bits a side can have).
        if !self.shape.line_fits() {
            return 0;
        }
        let mut out = 0u64;
        for s in [1, h + 1, h + 2, h] {
            // left[k]: cells whose k neighbours in -s direction are own.
            // right[k]: the same in the +s direction.
            let mut left = [u64::MAX; 64];
            let mut right = [u64::MAX; 64];
            for k in 1..z {
                left[k] = left[k - 1] & shl(own, k * s);
                right[k] = right[k - 1] & shr(own, k * s);
            }
            for k in 0..z {
                out |= left[k] & right[z - 1 - k];
            }
        }
        out & (self.shape.board() ^ self.mask)
    }

    /// Cells where the side to move would complete a line.
    pub(crate) fn own_wins(&self) -> u64 {
        self.winning_cells(self.current)
    }

    /// Cells where the opponent would complete a line.
    pub(crate) fn opponent_wins(&self) -> u64 {
        self.winning_cells(self.current ^ self.mask)
    }

    /// The playable cells, one per column with room.
    fn possible(&self) -> u64 {
        (self.mask + self.shape.bottom()) & self.shape.board()
    }

    /// True when playing `col` completes a line for the side to move.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.own_wins() & self.possible() & self.shape.column_mask(col) != 0
    }

    /// True when the side to move can complete a line now.
    pub fn can_win_next(&self) -> bool {
        self.own_wins() & self.possible() != 0
    }

    /// Moves that do not hand the opponent an immediate win; 0 when every
    /// move loses.
    pub(crate) fn non_losing(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_wins();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two threats at once: lost
            }
            possible = forced;
        }
        // Never play just below a cell the opponent would win on.
        possible & !shr(threats, 1)
    }

    /// How good a move looks for ordering: the threats it creates.
    pub(crate) fn move_score(&self, bit: u64) -> u32 {
        self.winning_cells(self.current | bit).count_ones()
    }
}

/// A transposition table of upper and lower bounds, cleared in O(1) by
/// bumping a generation counter.
struct Table {
    keys: Vec<u64>,
    values: Vec<i8>,
    generations: Vec<u16>,
    generation: u16,
}

const TABLE_BITS: u32 = 22;

impl Table {
    fn new() -> Table {
        let n = 1usize << TABLE_BITS;
        Table {
            keys: vec![0; n],
            values: vec![0; n],
            generations: vec![0; n],
            generation: 1,
        }
    }

    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
    }

    fn get(&self, key: u64) -> Option<i8> {
        let i = Self::slot(key);
        (self.keys[i] == key && self.generations[i] == self.generation).then_some(self.values[i])
    }

    fn put(&mut self, key: u64, value: i8) {
        let i = Self::slot(key);
        self.keys[i] = key;
        self.values[i] = value;
        self.generations[i] = self.generation;
    }

    fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.generations.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
    }
}

/// The solver: reusable across positions.
pub struct Solver {
    table: Table,
    nodes: u64,
    /// Node count at which a budgeted search gives up.
    budget: u64,
    aborted: bool,
    /// Column order: centre first.
    order: Vec<usize>,
    shape: Option<Shape>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            table: Table::new(),
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
            order: Vec::new(),
            shape: None,
        }
    }

    /// Nodes searched since the last [`Solver::reset`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the table and the node count.
    pub fn reset(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    fn prepare(&mut self, shape: Shape) {
        if self.shape != Some(shape) {
            self.shape = Some(shape);
            let mut order: Vec<usize> = (0..shape.width).collect();
            order.sort_by_key(|&c| shape.centre_rank(c));
            self.order = order;
            self.table.clear();
        }
    }

    /// The exact score of `p` (r[solve.score]); with `weak`, only its sign.
    pub fn solve(&mut self, p: &Position, weak: bool) -> i32 {
        if !p.shape.line_fits() {
            return 0;
        }
        self.prepare(p.shape);
        let cells = p.shape.cells();
        if p.can_win_next() {
            let score = (cells + 1 - p.moves) / 2;
            return if weak { score.signum() } else { score };
        }
        let (mut min, mut max) = (-(cells - p.moves) / 2, (cells + 1 - p.moves) / 2);
        if weak {
            min = min.max(-1);
            max = max.min(1);
        }
        // Null-window searches narrow [min, max] to the score.
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(p, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        if weak { min.signum() } else { min }
    }

    /// Like [`Solver::solve`], but gives up (`None`) once `max_nodes` more
    /// nodes have been searched. Nothing a search that gave up learned is kept.
    pub fn solve_within(&mut self, p: &Position, weak: bool, max_nodes: u64) -> Option<i32> {
        self.budget = self.nodes.saturating_add(max_nodes);
        self.aborted = false;
        let score = self.solve(p, weak);
        self.budget = u64::MAX;
        if self.aborted {
            // Bounds stored before the abort are sound; the abort itself
            // stores nothing, but start clean all the same.
            self.table.clear();
            self.aborted = false;
            return None;
        }
        Some(score)
    }

    /// Scores of every column (0-based) for the side to move; `None` for a
    /// full column.
    pub fn analyze(&mut self, p: &Position, weak: bool) -> Vec<Option<i32>> {
        let cells = p.shape.cells();
        (0..p.shape.width)
            .map(|col| {
                if !p.can_play(col) {
                    None
                } else if p.is_winning_move(col) {
                    Some((cells + 1 - p.moves) / 2)
                } else {
                    let mut next = *p;
                    next.play_column(col);
                    Some(-self.solve(&next, weak))
                }
            })
            .collect()
    }

    /// The (lower, upper) bounds the table holds for `p`.
    fn bounds(&self, p: &Position, cells: i32) -> (Option<i32>, Option<i32>) {
        decode(i32::from(self.table.get(p.key()).unwrap_or(0)), cells)
    }

    /// Negamax with alpha-beta; `p` has no immediate win for the side to move.
    fn negamax(&mut self, p: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let cells = p.shape.cells();
        let next = p.non_losing();
        if next == 0 {
            return -(cells - p.moves) / 2;
        }
        if p.moves >= cells - 2 {
            return 0;
        }
        let min = -(cells - 2 - p.moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (cells - 1 - p.moves) / 2;
        let (lower, upper) = self.bounds(p, cells);
        if let Some(u) = upper {
            max = max.min(u);
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        if let Some(l) = lower
            && alpha < l
        {
            alpha = l;
            if alpha >= beta {
                return alpha;
            }
        }
        // Order the non-losing moves by the threats they create, centre first on ties.
        let mut candidates: Vec<(u32, usize, u64)> = Vec::with_capacity(p.shape.width);
        for (rank, &col) in self.order.iter().enumerate() {
            let bit = next & p.shape.column_mask(col);
            if bit != 0 {
                candidates.push((p.move_score(bit), rank, bit));
            }
        }
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        // Enhanced transposition cutoff: a child whose stored upper bound
        // already proves a score >= beta ends the search without a visit.
        for &(_, _, bit) in &candidates {
            let mut child = *p;
            child.play_bit(bit);
            if let (_, Some(upper)) = self.bounds(&child, cells)
                && -upper >= beta
            {
                return -upper;
            }
        }
        for &(_, _, bit) in &candidates {
            let mut child = *p;
            child.play_bit(bit);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score >= beta {
                self.table.put(p.key(), encode_lower(score, cells));
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(p.key(), encode_upper(alpha, cells));
        alpha
    }
}

/// Table values: 0 empty; positive an upper bound, negative a lower bound,
/// each offset so that it is never 0.
fn encode_upper(v: i32, cells: i32) -> i8 {
    (v + cells / 2 + 2) as i8
}

fn encode_lower(v: i32, cells: i32) -> i8 {
    -((v + cells / 2 + 2) as i8)
}

fn decode(value: i32, cells: i32) -> (Option<i32>, Option<i32>) {
    match value {
        0 => (None, None),
        v if v > 0 => (None, Some(v - cells / 2 - 2)),
        v => (Some(-v - cells / 2 - 2), None),
    }
}
