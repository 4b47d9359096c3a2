//! An exact solver for Connect-Z positions on frames whose bitboard fits in
//! 128 bits (width * (height + 1) <= 128), for any winning run length z; frames that
//! fit 64 bits are searched in 64-bit words.
//!
//! The ideas are the public ones of Pascal Pons' Connect Four solver
//! (bitboards, negamax with alpha-beta, null-window search on the score, a
//! transposition table, threat-based move ordering, forced and losing
//! moves); the code is this project's, generalised to any frame and any z,
//! with a table shared by several threads.
//!
//! Score (r[solve.score]): 0 for a draw; for a win of the side to move,
//! (cells + 1) / 2 + 1 minus the number of counters the winner has played
//! when the run is completed with best play by both; negative when the side
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
    /// A move that completes a run: the game is over, there is nothing
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
                write!(f, "move {at} completes a run: the game is over")
            }
        }
    }
}

mod geometry;
mod search;
mod shape;
mod table;
mod word;

pub(crate) use shape::win_score;
pub use shape::{Shape, column_char, column_of};

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

pub(crate) use geometry::Geometry;
use geometry::{Detector, Four, FourHigh, NoRuns, RunDetector, Runs};
pub(crate) use search::Pos;
use search::{Busy, Goal, Search, SearchBounds};
use table::Table;
pub(crate) use word::Word;

use crate::book::Book;

/// The transposition table's default size: 2^23 entries on 64-bit frames.
pub const DEFAULT_TABLE_MB: usize = 64;

/// A position as two bitboards: the side to move's counters and all
/// counters (held in 128 bits; searched in 64 when the frame fits them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The frame's masks (its shape too).
    g: Geometry<u128>,
    p: Pos<u128>,
}

/// The columns where the side to move of `p` completes a run now, as bits
/// ([`Position::winning_columns`], on any word).
pub(crate) fn winning_columns_in<W: Word>(g: &Geometry<W>, p: &Pos<W>) -> u64 {
    let wins = wins_of(g, p.current) & (g.board ^ p.mask) & p.possible(g);
    if wins == W::ZERO {
        return 0;
    }
    (0..g.width)
        .filter(|&c| wins & g.column(c) != W::ZERO)
        .fold(0, |bits, c| bits | 1 << c)
}

/// Winning cells for `own`, by the frame's detector.
fn wins_of<W: Word>(g: &Geometry<W>, own: W) -> W {
    match g.detector() {
        Detector::None => W::ZERO,
        Detector::Four => Four::wins(g, own),
        Detector::Short => Runs::<8>::wins(g, own),
        Detector::Long => Runs::<128>::wins(g, own),
    }
}

impl Position {
    /// The empty frame (which must fit: [`Shape::fits`]).
    pub fn new(shape: Shape) -> Position {
        assert!(shape.fits(), "{shape:?} does not fit a 128-bit board");
        Position {
            g: shape.geometry(),
            p: Pos::EMPTY,
        }
    }

    /// Plays a string of 1-based columns from the empty frame (`1`-`9`,
    /// then `a`-`z` for 10 to 35); `.` alone is the empty frame.
    ///
    /// # Errors
    /// A bad character, a full column, or a move after a completed run.
    pub fn from_moves(shape: Shape, moves: &str) -> Result<Position, PositionError> {
        let mut p = Position::new(shape);
        if moves == "." {
            return Ok(p);
        }
        for (i, ch) in moves.chars().enumerate() {
            let at = i + 1;
            let col = column_of(ch)
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
        Shape {
            width: self.g.width,
            height: self.g.height,
            z: self.g.z,
        }
    }

    /// Counters played.
    pub fn moves(&self) -> i32 {
        self.p.moves
    }

    /// The position of this frame with the side to move's counters
    /// `current` and all counters `mask`.
    pub(crate) fn with_counters(&self, current: u128, mask: u128) -> Position {
        Position {
            g: self.g,
            p: Pos {
                current,
                mask,
                moves: mask.count_ones() as i32,
            },
        }
    }

    /// A key unique to the position (current + mask).
    pub fn key(&self) -> u128 {
        self.p.key()
    }

    /// True when `col` (0-based) has room.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.g.width && self.p.mask & self.g.top(col) == 0
    }

    /// Plays in `col` (0-based, with room).
    pub fn play_column(&mut self, col: usize) {
        let bit = (self.p.mask + self.g.bottom_of(col)) & self.g.column(col);
        self.p = self.p.play(bit);
    }

    fn own_wins(&self) -> u128 {
        wins_of(&self.g, self.p.current) & (self.g.board ^ self.p.mask)
    }

    fn opponent_wins(&self) -> u128 {
        wins_of(&self.g, self.p.current ^ self.p.mask) & (self.g.board ^ self.p.mask)
    }

    /// True when playing `col` completes a run for the side to move.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.own_wins() & self.p.possible(&self.g) & self.g.column(col) != 0
    }

    /// The columns (0-based) where the side to move completes a run now,
    /// as bits (column `c` is bit `c`): [`Position::is_winning_move`] of
    /// every column at the cost of one.
    pub fn winning_columns(&self) -> u64 {
        winning_columns_in(&self.g, &self.p)
    }

    /// True when the side to move can complete a run now.
    pub fn can_win_next(&self) -> bool {
        self.own_wins() & self.p.possible(&self.g) != 0
    }

    /// Columns (0-based) that do not hand the opponent an immediate win,
    /// each with the number of cells where the side to move then threatens
    /// to complete a run; empty when every move loses.
    pub fn safe_moves(&self) -> Vec<(usize, u32)> {
        let next = search::non_losing(self.p.possible(&self.g), self.opponent_wins());
        let empty = self.g.board ^ self.p.mask;
        (0..self.g.width)
            .filter_map(|c| {
                let bit = next & self.g.column(c);
                (bit != 0).then(|| {
                    let threats = wins_of(&self.g, self.p.current | bit) & empty & !bit;
                    (c, threats.count_ones())
                })
            })
            .collect()
    }

    /// (cells where the side to move would complete a run, cells where the
    /// opponent would).
    pub fn threat_counts(&self) -> (u32, u32) {
        (
            self.own_wins().count_ones(),
            self.opponent_wins().count_ones(),
        )
    }

    /// The moves as [`Position::from_moves`] reads them (`.` for none),
    /// given the columns played in order (0-based).
    pub fn moves_text(columns: &[usize]) -> String {
        if columns.is_empty() {
            ".".into()
        } else {
            columns.iter().filter_map(|&c| column_char(c + 1)).collect()
        }
    }

    /// The positions one move earlier: for each column whose top counter
    /// is the last mover's, the position without it (the position is a
    /// child of each, by a move that completes no run, since it holds
    /// none). Some may be positions no game reaches: a book holds none of
    /// those.
    pub fn parents(&self) -> impl Iterator<Item = Position> + '_ {
        let last = self.p.current ^ self.p.mask;
        (0..self.g.width).filter_map(move |c| {
            let held = self.p.mask & self.g.column(c);
            if held == 0 {
                return None;
            }
            let top = 1u128 << (127 - held.leading_zeros());
            (last & top != 0).then(|| Position {
                p: Pos {
                    current: last ^ top,
                    mask: self.p.mask ^ top,
                    moves: self.p.moves - 1,
                },
                ..*self
            })
        })
    }

    /// The position seen in a mirror: column `c` becomes `width - 1 - c`.
    pub fn mirrored(&self) -> Position {
        Position {
            p: Pos {
                current: self.g.mirror(self.p.current),
                mask: self.g.mirror(self.p.mask),
                moves: self.p.moves,
            },
            ..*self
        }
    }

    fn narrow<W: Word>(&self) -> Pos<W> {
        Pos {
            current: W::from_u128(self.p.current),
            mask: W::from_u128(self.p.mask),
            moves: self.p.moves,
        }
    }

    /// A key shared by the position and its mirror image, and by nothing
    /// else: the smaller of their keys.
    pub fn symmetric_key(&self) -> u128 {
        // The mirror of the key is the mirror image's key: each column's
        // bits (its counters plus its height mark) move as one.
        let key = self.key();
        key.min(self.g.mirror(key))
    }
}

/// The most threads one search or one command takes: far more than the
/// cores of any machine the solver runs on, and far fewer than a system
/// refuses to start.
pub const MAX_JOBS: usize = 1024;

/// A number of threads as the command line and the Python package take it:
/// from 1 to [`MAX_JOBS`], or why not.
///
/// # Errors
/// 0, or more than [`MAX_JOBS`].
pub fn check_jobs(jobs: usize) -> Result<usize, String> {
    if (1..=MAX_JOBS).contains(&jobs) {
        Ok(jobs)
    } else {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Err(format!(
            "{jobs} threads: the solver takes from 1 to {MAX_JOBS} (this machine has {cores} cores)"
        ))
    }
}

/// The solver: reusable across positions; its table is kept between them
/// until [`Solver::reset`].
pub struct Solver {
    table: Table,
    jobs: usize,
    nodes: u64,
    shape: Option<Shape>,
    cancel: Option<Arc<AtomicBool>>,
    /// Scores looked up rather than searched (r[solve.book]).
    book: BookChoice,
}

/// The book a solver consults.
#[derive(Clone, Debug, Default)]
pub enum BookChoice {
    /// The [shipped book](crate::book::classic), read when a 7 x 6
    /// position it can answer or bound is first asked of it (a solver of
    /// other frames or of later positions, or one told to search every
    /// position, never reads it).
    #[default]
    Shipped,
    /// A book given.
    Given(Arc<Book>),
    /// None: every position is searched.
    Without,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// What one search returns: the score (None when it gave up) and its nodes.
type ScoreAndNodes = (Option<i32>, u64);

impl Solver {
    /// A solver with a table of [`DEFAULT_TABLE_MB`] and one thread.
    pub fn new() -> Solver {
        Solver::with_table_mb(DEFAULT_TABLE_MB)
    }

    /// A solver whose table takes about `megabytes` (a power of two of
    /// entries, at least 1 MB).
    pub fn with_table_mb(megabytes: usize) -> Solver {
        Self::try_with_table_mb(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Solver::with_table_mb`], or why the table's memory cannot be had.
    ///
    /// # Errors
    /// The allocation failed: the message says how much was asked for.
    pub fn try_with_table_mb(megabytes: usize) -> Result<Solver, String> {
        Ok(Solver {
            table: Table::try_new(megabytes)?,
            jobs: 1,
            nodes: 0,
            shape: None,
            cancel: None,
            book: BookChoice::Shipped,
        })
    }

    /// Looks up the positions `book` holds instead of searching them (a
    /// solver starts with the [shipped book](crate::book::classic), which
    /// holds early 7 x 6 positions). A book of another frame is never
    /// consulted; one of signs only answers only weak searches.
    pub fn with_book(self, book: Arc<Book>) -> Solver {
        self.with_book_choice(BookChoice::Given(book))
    }

    /// Consults the book `choice` names: the shipped one (the default),
    /// one given, or none.
    pub fn with_book_choice(mut self, choice: BookChoice) -> Solver {
        self.book = choice;
        self
    }

    /// Searches every position, the book's too (to measure or check the
    /// search itself).
    pub fn without_book(self) -> Solver {
        self.with_book_choice(BookChoice::Without)
    }

    /// Searches each position on `jobs` threads that share the table (the
    /// first to finish gives the score; the others explore other moves
    /// first and fill the table for it).
    ///
    /// At most [`MAX_JOBS`] (more are taken as that many; [`check_jobs`]
    /// says why a number is refused, for callers that refuse it); threads
    /// the system will not give are done without.
    pub fn with_jobs(mut self, jobs: usize) -> Solver {
        self.jobs = jobs.clamp(1, MAX_JOBS);
        self
    }

    /// [`Solver::with_jobs`] with a thread for each core (as the perfect
    /// engine runs it).
    pub fn with_every_core(self) -> Solver {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        self.with_jobs(cores)
    }

    /// Searches that stop once `flag` is set (by another thread: an
    /// interrupt): each thread of a search looks at it every 1024 nodes and
    /// then gives up as when its budget is spent, so the `_within` calls
    /// return `None` (and [`Solver::solve`] a meaningless 0) until it is
    /// cleared; a position of the book is still answered. What the searches
    /// stored before they stopped is sound.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Solver {
        self.cancel = Some(flag);
        self
    }

    /// Whether the caller's cancel flag ([`Solver::with_cancel`]) is set.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Relaxed))
    }

    /// Bytes of the table.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
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

    /// The exact score of `p` (r[solve.score]); with `weak`, only its sign.
    pub fn solve(&mut self, p: &Position, weak: bool) -> i32 {
        self.search(p, weak, u64::MAX).unwrap_or(0)
    }

    /// Like [`Solver::solve`], but gives up (`None`) once `max_nodes` more
    /// nodes have been searched. What a search that gave up stored is sound
    /// (bounds proved before it stopped) and stays in the table.
    pub fn solve_within(&mut self, p: &Position, weak: bool, max_nodes: u64) -> Option<i32> {
        self.search(p, weak, max_nodes)
    }

    /// Whether the score of `p` is at least `value`, by one null-window
    /// search (much cheaper than the exact score); `None` once `max_nodes`
    /// more nodes have been searched.
    pub fn at_least_within(&mut self, p: &Position, value: i32, max_nodes: u64) -> Option<bool> {
        self.search_for(p, Goal::AtLeast(value), max_nodes)
            .map(|r| r == 1)
    }

    fn search(&mut self, p: &Position, weak: bool, budget: u64) -> Option<i32> {
        let goal = if weak { Goal::Sign } else { Goal::Exact };
        self.search_for(p, goal, budget)
    }

    fn search_for(&mut self, p: &Position, goal: Goal, budget: u64) -> Option<i32> {
        // r[solve.score]: a full frame is a draw; a run that cannot fit
        // makes every position one.
        if !p.shape().run_fits() || p.moves() >= p.shape().cells() {
            return Some(match goal {
                Goal::AtLeast(v) => i32::from(0 >= v),
                _ => 0,
            });
        }
        if let Some(score) = self.book_answer(p, goal) {
            return Some(score);
        }
        // r[solve.bound]: one move past the book, its parents' scores are a
        // floor under the score.
        let goal = match (goal, self.book_for(p).and_then(|b| b.floor(p))) {
            (goal, None) => goal,
            (Goal::AtLeast(v), Some(floor)) if v <= floor => return Some(1),
            (Goal::Sign, Some(floor)) if floor > 0 => return Some(1),
            (Goal::Exact, Some(floor)) => Goal::Between(floor, i32::MAX),
            (Goal::Between(lo, hi), Some(floor)) => Goal::Between(lo.max(floor), hi),
            (goal, Some(_)) => goal,
        };
        if self.shape != Some(p.shape()) {
            self.shape = Some(p.shape());
            self.table.clear();
        }
        let (score, nodes) = if p.shape().fits_64() {
            dispatch::<u64>(
                &self.table,
                p,
                goal,
                budget,
                self.jobs,
                self.cancel.as_deref(),
            )
        } else {
            dispatch::<u128>(
                &self.table,
                p,
                goal,
                budget,
                self.jobs,
                self.cancel.as_deref(),
            )
        };
        self.nodes += nodes;
        score
    }

    /// The book consulted at `p`, if any. The shipped book answers only
    /// positions of at most its depth and bounds those one move deeper
    /// ([`Book::floor`]); past them it is not read (each query consults
    /// the book at its root only, never inside the search).
    fn book_for(&self, p: &Position) -> Option<&Book> {
        match &self.book {
            BookChoice::Shipped
                if p.shape() == Shape::CLASSIC
                    && p.moves() as usize <= crate::book::CLASSIC_DEPTH + 1 =>
            {
                Some(crate::book::classic())
            }
            BookChoice::Given(book) => Some(book),
            _ => None,
        }
    }

    /// What the book says `goal` is at `p`, if it holds `p` (or its mirror
    /// image) with the scores `goal` needs (r[solve.book]).
    fn book_answer(&self, p: &Position, goal: Goal) -> Option<i32> {
        let book = self.book_for(p)?;
        let score = book.score(p)?;
        match goal {
            Goal::Sign => Some(score.signum()),
            Goal::Exact | Goal::Between(..) if !book.weak() => Some(score),
            Goal::AtLeast(v) if !book.weak() => Some(i32::from(score >= v)),
            _ => None,
        }
    }

    /// The score of `p` (with `weak`, its sign) and its best column
    /// (0-based; `None` on a full frame): the most central column that
    /// completes a run, else the most central one whose reply scores
    /// exactly minus the position's score, found by one null-window search
    /// per column tried (scoring every column exactly costs twice as much
    /// or more: proving how long a losing column resists is the expensive
    /// part). With `weak` on a lost position, every column loses, and the
    /// most central is given. `None` once `max_nodes` more nodes have been
    /// searched.
    pub fn best_within(
        &mut self,
        p: &Position,
        weak: bool,
        max_nodes: u64,
    ) -> Option<(i32, Option<usize>)> {
        let start = self.nodes;
        let score = self.solve_within(p, weak, max_nodes)?;
        let shape = p.shape();
        let mut columns: Vec<usize> = (0..shape.width).filter(|&c| p.can_play(c)).collect();
        columns.sort_by_key(|&c| shape.centre_rank(c));
        if let Some(&c) = columns.iter().find(|&&c| p.is_winning_move(c)) {
            return Some((score, Some(c)));
        }
        if weak && score < 0 {
            return Some((score, columns.first().copied()));
        }
        for &c in &columns {
            let mut child = *p;
            child.play_column(c);
            let left = max_nodes.saturating_sub(self.nodes - start);
            // The reply scores at most -score exactly when it does not
            // score at least 1 - score (with `weak`: a loss for a win, at
            // most a draw for a draw).
            if !self.at_least_within(&child, 1 - score, left)? {
                return Some((score, Some(c)));
            }
        }
        // Only a full frame has no column; a score is always some column's.
        debug_assert!(columns.is_empty(), "no column keeps the score {score}");
        Some((score, columns.first().copied()))
    }

    /// Scores of every column (0-based) for the side to move; `None` for a
    /// full column: [`Solver::score_of_column`] of each.
    pub fn analyze(&mut self, p: &Position, weak: bool) -> Vec<Option<i32>> {
        (0..p.shape().width)
            .map(|col| self.score_of_column(p, col, weak))
            .collect()
    }

    /// The score for the side to move if it plays `col` (0-based; with
    /// `weak`, its sign, but for a win at once): `None` for a full column
    /// or one not in the frame.
    /// When the book holds `p`'s exact score `s`, no column scores more, so
    /// the reply is searched knowing its score is at least `-s`, or more
    /// when the book holds another of its parents ([`Book::floor`]; at a
    /// position of the book's depth, about a tenth fewer nodes: `cargo
    /// bench -p connectz-games --bench analysis`).
    pub fn score_of_column(&mut self, p: &Position, col: usize, weak: bool) -> Option<i32> {
        if col >= p.shape().width || !p.can_play(col) {
            return None;
        }
        if p.is_winning_move(col) {
            return Some(win_score(p.shape().cells(), p.moves()));
        }
        let reply = if weak { Goal::Sign } else { Goal::Exact };
        let mut next = *p;
        next.play_column(col);
        Some(-self.search_for(&next, reply, u64::MAX).unwrap_or(0))
    }
}

/// Picks the run detector once per search.
fn dispatch<W: Word>(
    table: &Table,
    p: &Position,
    goal: Goal,
    budget: u64,
    jobs: usize,
    cancel: Option<&AtomicBool>,
) -> ScoreAndNodes {
    let g = p.shape().geometry::<W>();
    let pos = p.narrow::<W>();
    match g.detector() {
        Detector::None => run::<W, NoRuns>(g, table, pos, goal, budget, jobs, cancel),
        // Constant shifts for the heights of the frames people play (7 x 6,
        // 6 x 6, 7 x 7, 8 x 7): about an eighth fewer instructions a node.
        Detector::Four if g.height == 6 => {
            run::<W, FourHigh<6>>(g, table, pos, goal, budget, jobs, cancel)
        }
        Detector::Four if g.height == 7 => {
            run::<W, FourHigh<7>>(g, table, pos, goal, budget, jobs, cancel)
        }
        Detector::Four => run::<W, Four>(g, table, pos, goal, budget, jobs, cancel),
        Detector::Short => run::<W, Runs<8>>(g, table, pos, goal, budget, jobs, cancel),
        Detector::Long => run::<W, Runs<128>>(g, table, pos, goal, budget, jobs, cancel),
    }
}

/// Runs the search on `jobs` threads sharing the table; the first to finish
/// stops the others.
fn run<W: Word, L: RunDetector<W>>(
    g: Geometry<W>,
    table: &Table,
    p: Pos<W>,
    goal: Goal,
    budget: u64,
    jobs: usize,
    cancel: Option<&AtomicBool>,
) -> ScoreAndNodes {
    let stop = AtomicBool::new(false);
    let answer: Mutex<Option<i32>> = Mutex::new(None);
    let busy = (jobs > 1).then(Busy::new);
    let thread = |helper: usize| -> u64 {
        let limits = SearchBounds {
            budget,
            stop: &stop,
            cancel,
        };
        // Helpers keep the positions near the end in a near part of their
        // own: with two threads writing one near part, the cache lines they
        // share went back and forth and each thread searched at about half
        // its speed (Begin-Hard on two threads: 1.06 s to 1.31 s against
        // 0.79 s with a part each, for as many nodes).
        let own = (helper > 0).then(|| table.private_near::<W>());
        let view = match &own {
            Some(near) => table.view_with_near::<W>(near),
            None => table.view::<W>(),
        };
        let mut search = Search::<W, L>::new(g, view, limits, helper, busy.as_ref());
        let score = search.solve(p, goal);
        if !search.aborted {
            stop.store(true, Relaxed);
            let mut slot = answer.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert(score);
        }
        search.nodes
    };
    let nodes = if jobs <= 1 {
        thread(0)
    } else {
        std::thread::scope(|scope| {
            // A helper the system will not give is done without: the search
            // runs on the threads it has (never an abort).
            let helpers: Vec<_> = (1..jobs)
                .map_while(|h| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || thread(h))
                        .ok()
                })
                .collect();
            let own = thread(0);
            own + helpers
                .into_iter()
                .map(|h| h.join().unwrap_or(0))
                .sum::<u64>()
        })
    };
    let score = answer.into_inner().unwrap_or_else(|e| e.into_inner());
    (score, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position's parents are exactly the positions one move earlier
    /// from which a move that completes no run leads to it, found here
    /// forwards, and others no game reaches: every game of up to five
    /// moves on a frame with runs of 3
    /// (where some moves complete one) and on one with 128-bit boards.
    #[test]
    fn parents_are_the_positions_a_move_leads_from() {
        use std::collections::{BTreeSet, HashMap};
        for (width, height, z) in [(4, 3, 3), (9, 12, 4)] {
            let shape = Shape { width, height, z };
            let mut level = vec![Position::new(shape)];
            let (mut some_parents, mut unreachable) = (0, 0);
            for _ in 0..5 {
                let mut led_from: HashMap<u128, BTreeSet<u128>> = HashMap::new();
                let mut next = HashMap::new();
                for q in &level {
                    for c in (0..width).filter(|&c| q.can_play(c) && !q.is_winning_move(c)) {
                        let mut p = *q;
                        p.play_column(c);
                        led_from.entry(p.key()).or_default().insert(q.key());
                        next.insert(p.key(), p);
                    }
                }
                let reached: BTreeSet<u128> = level.iter().map(Position::key).collect();
                for (key, p) in &next {
                    let found: BTreeSet<u128> = p.parents().map(|q| q.key()).collect();
                    assert_eq!(found.len(), p.parents().count(), "{p:?}");
                    // Those a game reaches; the others no game does (a
                    // counter of the second player's under the first's in
                    // a column of two, with the first to move).
                    let played: BTreeSet<u128> = found.intersection(&reached).copied().collect();
                    assert_eq!(&played, &led_from[key], "{p:?}");
                    unreachable += found.len() - played.len();
                    for q in p.parents() {
                        assert_eq!(q.moves(), p.moves() - 1);
                        assert_eq!(q.shape(), shape);
                    }
                    some_parents += found.len();
                }
                level = next.into_values().collect();
            }
            assert!(some_parents > level.len(), "{shape:?}");
            assert!(unreachable > 0, "{shape:?}");
        }
        assert_eq!(Position::new(Shape::CLASSIC).parents().count(), 0);
    }

    /// Solves `p` with word `W`, on a fresh table.
    fn score_with<W: Word>(p: &Position, weak: bool) -> Option<i32> {
        let goal = if weak { Goal::Sign } else { Goal::Exact };
        dispatch::<W>(&Table::new(2), p, goal, u64::MAX, 1, None).0
    }

    #[test]
    fn both_words_give_the_same_scores_on_64_bit_frames() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver");
        for (file, step) in [("Test_L2_R1", 20), ("Test_L1_R1", 50)] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            for line in text.lines().step_by(step) {
                let (moves, score) = line.split_once(' ').unwrap();
                let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
                let want = score.parse().ok();
                assert_eq!(score_with::<u64>(&p, false), want, "{moves}");
                assert_eq!(score_with::<u128>(&p, false), want, "{moves} in 128 bits");
            }
        }
        // Other run lengths and frames, every detector.
        for (width, height, z, moves) in [
            (6, 5, 3, "3434"),
            (4, 5, 5, "2"),
            (4, 4, 2, ""),
            (5, 4, 4, "3"),
            (3, 10, 9, "2"),
        ] {
            let p = Position::from_moves(Shape { width, height, z }, moves).unwrap();
            assert_eq!(
                score_with::<u64>(&p, false),
                score_with::<u128>(&p, false),
                "{width}x{height} z={z} {moves}"
            );
        }
    }

    #[test]
    fn a_score_known_to_lie_between_bounds_is_the_exact_score() {
        // Every bound that holds the score, tight or loose, above or below
        // it, gives the score the unbounded search gives.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver");
        let text = std::fs::read_to_string(dir.join("Test_L2_R1")).unwrap();
        let mut checked = 0;
        for line in text.lines().step_by(50) {
            let (moves, score) = line.split_once(' ').unwrap();
            let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
            let want: i32 = score.parse().unwrap();
            // A floor that is the score costs one null-window search: as
            // many nodes as asking whether the score is above it.
            let table = Table::new(2);
            let floor =
                dispatch::<u64>(&table, &p, Goal::Between(want, i32::MAX), u64::MAX, 1, None);
            let fresh = Table::new(2);
            let above = dispatch::<u64>(&fresh, &p, Goal::AtLeast(want + 1), u64::MAX, 1, None);
            assert_eq!((floor.0, above.0), (Some(want), Some(0)), "{moves}");
            assert_eq!(floor.1, above.1, "{moves}");
            for (lo, hi) in [
                (want, want),
                (want, i32::MAX),
                (i32::MIN, want),
                (want - 1, want + 1),
                (want - 5, want + 2),
            ] {
                let goal = Goal::Between(lo, hi);
                let got = dispatch::<u64>(&Table::new(2), &p, goal, u64::MAX, 1, None).0;
                assert_eq!(got, Some(want), "{moves} in [{lo}, {hi}]");
            }
            checked += 1;
        }
        assert_eq!(checked, 20);
        // The book's score of a position bounds its replies: analysing a
        // position of the book's depth (whose replies it does not hold)
        // searches with the bound and finds what the search without the
        // book finds.
        let p = Position::from_moves(Shape::CLASSIC, "3443534252").unwrap();
        assert_eq!(p.moves() as usize, crate::book::CLASSIC_DEPTH);
        let mut with = Solver::with_table_mb(8);
        let mut without = Solver::with_table_mb(8).without_book();
        assert_eq!(with.analyze(&p, false), without.analyze(&p, false));
        assert!(with.nodes() > 0);
    }

    #[test]
    fn the_search_mirrors_keys_as_positions_mirror() {
        // The search keys positions far from the end by the smaller of their
        // key and the mirror of it (Geometry::mirror, on the key's columns);
        // the mirror position is the game replayed with column c played as
        // width - 1 - c. Reading a book works on 64-bit words where the
        // frame fits them, and mirrors by swaps (Mirror): the same keys and
        // columns that win.
        let mut rng = connectz_rng::Rng::new(0x4D49_5252);
        let mut winning = 0;
        for (width, height) in [
            (7, 6),
            (6, 6),
            (7, 7),
            (8, 7),
            (1, 5),
            (2, 3),
            (3, 6),
            (4, 6),
            (5, 6),
            (9, 7),
            (16, 6),
            (64, 1),
            (1, 127),
            (11, 10),
        ] {
            let shape = Shape {
                width,
                height,
                z: 4,
            };
            let g128 = shape.geometry::<u128>();
            let g64 = shape.fits_64().then(|| shape.geometry::<u64>());
            for _ in 0..40 {
                let mut p = Position::new(shape);
                let mut q = Position::new(shape);
                let moves = rng.below((width * height) as u64 + 1);
                for _ in 0..moves {
                    let open: Vec<usize> = (0..width).filter(|&c| p.can_play(c)).collect();
                    let c = open[rng.below(open.len() as u64) as usize];
                    p.play_column(c);
                    q.play_column(width - 1 - c);
                }
                let want = q.key();
                assert_eq!(p.mirrored().key(), want, "{width}x{height}");
                assert_eq!(g128.mirror(p.key()), want, "{width}x{height}");
                assert_eq!(g128.mirror(want), p.key(), "{width}x{height}");
                let by_swaps = g128.mirror_by_swaps();
                assert_eq!(by_swaps.apply(p.key()), want, "{width}x{height}");
                assert_eq!(by_swaps.apply(p.p.mask), g128.mirror(p.p.mask));
                assert_eq!(p.symmetric_key(), want.min(p.key()));
                let wins = p.winning_columns();
                if let Some(g64) = &g64 {
                    assert_eq!(u128::from(g64.mirror(p.key() as u64)), want);
                    let by_swaps = g64.mirror_by_swaps();
                    assert_eq!(u128::from(by_swaps.apply(p.key() as u64)), want);
                    let at_64 = winning_columns_in(g64, &p.narrow::<u64>());
                    assert_eq!(at_64, wins, "{width}x{height}");
                }
                winning += usize::from(wins != 0);
            }
        }
        assert!(winning > 20, "{winning}");
    }

    #[test]
    fn the_shipped_book_is_consulted_only_where_it_answers_or_bounds() {
        // r[solve.book]: at most its depth it answers, one move deeper it
        // bounds (Book::floor); later positions never read it.
        let solver = Solver::with_table_mb(2);
        let depth = crate::book::CLASSIC_DEPTH;
        let mut p = Position::new(Shape::CLASSIC);
        for (i, c) in "14112242444532".chars().enumerate() {
            assert_eq!(p.moves() as usize, i);
            assert_eq!(solver.book_for(&p).is_some(), i <= depth + 1, "{i} moves");
            p.play_column(c as usize - '1' as usize);
        }
        // Other frames and the other choices.
        let other = Position::new(Shape {
            width: 7,
            height: 7,
            z: 4,
        });
        assert!(solver.book_for(&other).is_none());
        let start = Position::new(Shape::CLASSIC);
        assert!(
            Solver::with_table_mb(2)
                .without_book()
                .book_for(&start)
                .is_none()
        );
        let given = Arc::new(Book::new(Shape::CLASSIC, 2, false));
        let with = Solver::with_table_mb(2).with_book(given);
        assert!(with.book_for(&p).is_some());
    }

    #[test]
    fn a_search_that_gives_up_says_so() {
        // Past the book: searched, and the budget stops it.
        let p = Position::from_moves(Shape::CLASSIC, "14772267714").unwrap();
        let mut solver = Solver::with_table_mb(2);
        assert_eq!(solver.solve_within(&p, false, 5_000), None);
        assert!(solver.nodes() >= 5_000 && solver.nodes() < 5_000 + 2_048);
    }

    #[test]
    fn a_cancelled_search_gives_up_within_a_thousand_nodes_a_thread() {
        // The empty frame takes hundreds of millions of nodes: only the
        // flag stops these searches.
        let p = Position::new(Shape::CLASSIC);
        for jobs in [1, 2] {
            let flag = Arc::new(AtomicBool::new(true));
            let mut solver = Solver::with_table_mb(2)
                .without_book()
                .with_jobs(jobs)
                .with_cancel(flag.clone());
            assert_eq!(solver.solve_within(&p, false, u64::MAX), None);
            assert_eq!(solver.best_within(&p, true, u64::MAX), None);
            assert!(
                solver.nodes() <= 2 * 1_024 * jobs as u64,
                "{}",
                solver.nodes()
            );
            let options = crate::engine::Options {
                shape: Shape::CLASSIC,
                level: crate::engine::Level::Perfect,
            };
            // A position past the opening plan that takes seconds to solve.
            let moves = [3, 3, 4, 2];
            let mut none = |_| 0;
            let choice = crate::engine::try_choose_with(
                &options,
                &moves,
                &mut none,
                &mut solver,
                &mut || {},
            );
            assert_eq!(choice, None);
            // Cleared, the same solver finishes.
            flag.store(false, Relaxed);
            let q = Position::from_moves(Shape::CLASSIC, "2252576253462244111563365343671351441")
                .unwrap();
            assert_eq!(solver.solve_within(&q, false, u64::MAX), Some(-1));
        }
    }
}
