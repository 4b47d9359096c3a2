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

mod geometry;
mod position;
mod search;
mod shape;
mod table;
mod word;

pub(crate) use position::winning_columns_in;
pub use position::{Position, PositionError};
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
/// Public as the default for callers that let their users choose the size
/// (`cz solve --table-mb`, the Python package's `DEFAULT_TABLE_MB`, the
/// solver bench), so that each offers the size [`Solver::new`] takes.
pub const DEFAULT_TABLE_MB: usize = 64;

/// The most threads one search or one command takes: far more than the
/// cores of any machine the solver runs on, and far fewer than a system
/// refuses to start. Public as the bound of [`Solver::with_jobs`] and
/// [`check_jobs`], for callers that take a number of threads from a user.
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
    pub(crate) fn is_cancelled(&self) -> bool {
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
    /// more nodes have been searched. For a caller that needs a bound and
    /// not the score (is this move still a win, does it keep the draw), as
    /// [`Solver::best_within`] asks of each column.
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
mod tests;
