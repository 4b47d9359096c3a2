//! The search: negamax with alpha-beta on null windows, over word `W` with
//! run detector `L`, monomorphised so that the hot loop has no dispatch.
//! Per node: no allocation (moves live in one buffer that grows to the
//! deepest line once), one line detection per candidate move (its result is
//! both the move's order score and the child's threat mask), one table probe.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::geometry::{Geometry, RunDetector};
use super::table::{Bound, TablePart, View};
use super::win_score;
use super::word::Word;

/// A position over word `W`: the side to move's counters and all counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos<W> {
    pub current: W,
    pub mask: W,
    pub moves: i32,
}

impl<W: Word> Pos<W> {
    pub const EMPTY: Pos<W> = Pos {
        current: W::ZERO,
        mask: W::ZERO,
        moves: 0,
    };

    /// A key unique to the position (current + mask, as in the public
    /// solver: the bit above each column's top counter marks its height).
    #[inline(always)]
    pub fn key(&self) -> W {
        self.current + self.mask
    }

    #[inline(always)]
    pub fn play(&self, bit: W) -> Pos<W> {
        Pos {
            current: self.current ^ self.mask,
            mask: self.mask | bit,
            moves: self.moves + 1,
        }
    }

    /// The playable cells, one per column with room.
    #[inline(always)]
    pub fn possible(&self, g: &Geometry<W>) -> W {
        (self.mask + g.bottom) & g.board
    }

    /// Empty cells where the side to move completes a run.
    #[inline(always)]
    pub fn own_wins<L: RunDetector<W>>(&self, g: &Geometry<W>) -> W {
        L::wins(g, self.current) & (g.board ^ self.mask)
    }

    /// Empty cells where the opponent completes a run.
    #[inline(always)]
    pub fn opponent_wins<L: RunDetector<W>>(&self, g: &Geometry<W>) -> W {
        L::wins(g, self.current ^ self.mask) & (g.board ^ self.mask)
    }
}

/// The non-losing moves of a position whose opponent threatens `threats`:
/// the one forced block if there is one, never the cell below a threat;
/// zero when every move loses.
#[inline(always)]
pub(crate) fn non_losing<W: Word>(possible: W, threats: W) -> W {
    let forced = possible & threats;
    let moves = if forced.is_zero() {
        possible
    } else if forced.several() {
        return W::ZERO;
    } else {
        forced
    };
    moves & !(threats >> 1)
}

/// r[solve.claimeven]: a bound on the score of `p` (no run complete) from
/// a strategy of answering on top. Split the empty cells into the next
/// cells of the columns with an odd number of empty cells (`tops`), the
/// lower of each pair of rows above them and in the other columns
/// (`lower`), and the rest (`upper`). A player that answers every counter
/// in an even column on top of it, and one in an odd column in another odd
/// column, gets at least `upper`; the other gets at most `lower` and
/// `tops`. With an even number of odd columns the opponent
/// can answer so: if the side to move's counters with `lower` and `tops`
/// hold no run, it cannot win (at most 0), and if the opponent's with
/// `upper` hold one, it loses, at the latest with the frame's last counter.
/// With an odd number, the side to move plays an odd column's next cell and
/// then answers so: at least 0 if the opponent's counters with `lower` and
/// the other tops hold no run, and a win with the frame's last counter if
/// its own with `upper` (and the one top, when there is one) hold one.
/// A ceiling is looked for only when it could cut the window `(alpha,
/// beta)` (alpha at least the last counter's loss), and a floor only when
/// beta is at most the last counter's win: `None` otherwise, and when the
/// strategy proves nothing.
#[inline(always)]
pub(crate) fn follow_up<W: Word, L: RunDetector<W>>(
    g: &Geometry<W>,
    p: Pos<W>,
    alpha: i32,
    beta: i32,
) -> Option<Bound> {
    let cells = g.cells();
    let last = win_score(cells, cells - 1);
    let empty = g.board ^ p.mask;
    let tops = (p.mask + g.bottom) & g.odd_below_top;
    let lower = empty & g.even_below_top;
    let upper = empty & !g.even_below_top & !tops;
    let has_run = |set: W| !(L::wins(g, set) & set).is_zero();
    let opponent = p.current ^ p.mask;
    if tops.ones().is_multiple_of(2) {
        if alpha < -last || has_run(p.current | lower | tops) {
            return None;
        }
        if alpha < 0 && has_run(opponent | upper) {
            return Some(Bound::Upper(-last));
        }
        Some(Bound::Upper(0))
    } else {
        if beta > last {
            return None;
        }
        let single = !tops.several();
        if has_run(opponent | lower | if single { W::ZERO } else { tops }) {
            return None;
        }
        if beta > 0 && has_run(p.current | upper | if single { tops } else { W::ZERO }) {
            return Some(Bound::Lower(last));
        }
        Some(Bound::Lower(0))
    }
}

/// The table's key of `p`: for positions of fewer than `mirror_below`
/// moves, the smaller of its key and its mirror image's.
#[inline(always)]
fn key_of<W: Word>(g: &Geometry<W>, mirror_below: i32, p: Pos<W>) -> W {
    let k = p.key();
    if p.moves < mirror_below {
        let m = g.mirror(k);
        if m < k { m } else { k }
    } else {
        k
    }
}

/// A candidate move: its cell, the cells where the mover then threatens to
/// complete a run, and their number (the order score).
#[derive(Clone, Copy)]
struct Move<W> {
    bit: W,
    threats: W,
    score: u32,
}

/// What a search is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// The exact score.
    Exact,
    /// Its sign only (a weak solve).
    Sign,
    /// Whether the score is at least this value.
    AtLeast(i32),
    /// The exact score, known to lie in `[lo, hi]`; the first null-window
    /// search asks whether it is above `lo`.
    Between(i32, i32),
}

/// The positions far from the end that some thread is searching, for
/// threads that share a table (ABDADA, Weill 1996): at such a node a thread
/// leaves a younger child another thread is in for last, by when the
/// table often holds its answer, and takes the next child instead, so the
/// threads split the tree between them instead of searching it twice. A
/// hint: a slot holds one position at a time, and a lost mark costs only
/// work done twice.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

/// Slots of [`Busy`] (16,384 words: 128 KB).
const BUSY_BITS: u32 = 14;

impl Busy {
    pub fn new() -> Busy {
        Busy {
            slots: (0..1usize << BUSY_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// A position's mark: its mixed key's low word, never 0.
    #[inline(always)]
    fn mark<W: Word>(key: W) -> u64 {
        key.mix().slice64(0) | 1
    }

    #[inline(always)]
    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.slots[(mark.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_BITS)) as usize]
    }

    fn enter(&self, mark: u64) {
        self.slot(mark).store(mark, Relaxed);
    }

    fn leave(&self, mark: u64) {
        let _ = self.slot(mark).compare_exchange(mark, 0, Relaxed, Relaxed);
    }

    fn is_busy(&self, mark: u64) -> bool {
        self.slot(mark).load(Relaxed) == mark
    }
}

/// Why a search stopped early.
pub(crate) struct SearchBounds<'a> {
    /// Node count after which it gives up.
    pub budget: u64,
    /// Set by another thread that found the answer.
    pub stop: &'a AtomicBool,
    /// Set by the solver's caller to stop it ([`super::Solver::with_cancel`]).
    pub cancel: Option<&'a AtomicBool>,
}

/// One thread's search.
pub(crate) struct Search<'a, W: Word, L: RunDetector<W>> {
    g: Geometry<W>,
    table: View<'a, W>,
    limits: SearchBounds<'a>,
    pub nodes: u64,
    pub aborted: bool,
    /// Candidate moves of every node on the current line, each node's after
    /// its parent's.
    moves: Vec<Move<W>>,
    /// A helper thread's number (0 for the main one): helpers try the
    /// root's moves in another order, so that threads sharing a table
    /// explore different parts of the tree first.
    helper: usize,
    /// Shared with the other threads of the search, if any.
    busy: Option<&'a Busy>,
    root_moves: i32,
    /// The table's part for each number of moves played: near, mid from a
    /// third of the frame played (on 7 x 6, 14 moves), else far. Near: on
    /// one thread, at most about half the frame empty (on 7 x 6, 20 moves
    /// or more); with other threads, at most three sevenths (24 moves or
    /// more), so that the positions between, whose subtrees are large
    /// enough for both threads to meet in, are in the mid part they share
    /// rather than in each thread's own near part. On the empty 7 x 6
    /// board, two threads searched 807 M nodes in 25.0 s with the near
    /// part from 20 moves and 639 M in 19.3 s from 24 (one thread: 630 M,
    /// 35.3 s; over 50 runs of two threads, 640 to 787 M, median 662 M,
    /// with which thread reaches a node first); on one thread the mid
    /// part's extra entries cost more than they spare (Begin-Medium: 2 %
    /// fewer nodes at 9 to 18 % fewer a second).
    parts: Box<[TablePart]>,
    /// Positions of fewer moves than this (more than about half the frame
    /// empty: far from the end) are keyed by the smaller of their key and
    /// their mirror image's, so that a position and its mirror share an
    /// entry: on the empty 7 x 6 board that spares about a third of the
    /// nodes, and it costs little, since these positions are a small part
    /// of the nodes. With other threads they are the ones marked busy.
    far_below: i32,
    /// The columns' cells, centre first.
    columns: Box<[W]>,
    _lines: std::marker::PhantomData<L>,
}

impl<'a, W: Word, L: RunDetector<W>> Search<'a, W, L> {
    pub fn new(
        g: Geometry<W>,
        table: View<'a, W>,
        limits: SearchBounds<'a>,
        helper: usize,
        busy: Option<&'a Busy>,
    ) -> Self {
        // Far from the end: more than about half the frame empty.
        let far_below = g.cells() - (g.cells() / 2 + 1);
        let near_from = if busy.is_some() {
            g.cells() - g.cells() * 3 / 7
        } else {
            far_below
        };
        Search {
            g,
            table,
            limits,
            nodes: 0,
            aborted: false,
            moves: Vec::with_capacity(64 * 8),
            helper,
            busy,
            root_moves: 0,
            parts: (0..=g.cells())
                .map(|moves| {
                    if moves >= near_from {
                        TablePart::Near
                    } else if moves >= g.cells() / 3 {
                        TablePart::Mid
                    } else {
                        TablePart::Far
                    }
                })
                .collect(),
            columns: g.order[..g.width]
                .iter()
                .map(|&c| g.column(c as usize))
                .collect(),
            far_below,
            _lines: std::marker::PhantomData,
        }
    }

    /// What `goal` asks of `p`: its exact score (r[solve.score]), its sign,
    /// or 1 when its score is at least a value and 0 when it is not. `p` is
    /// not won and has a run that fits. Returns 0 with `aborted` set when a
    /// limit stopped it.
    pub fn solve(&mut self, p: Pos<W>, goal: Goal) -> i32 {
        let cells = self.g.cells();
        let threats = p.opponent_wins::<L>(&self.g);
        if !(p.own_wins::<L>(&self.g) & p.possible(&self.g)).is_zero() {
            let score = win_score(cells, p.moves);
            return match goal {
                Goal::Exact | Goal::Between(..) => score,
                Goal::Sign => score.signum(),
                Goal::AtLeast(v) => i32::from(score >= v),
            };
        }
        // No win now: at best the side to move wins with its next counter but
        // one, at worst the opponent wins with its next.
        let (mut min, mut max) = (
            -win_score(cells, p.moves + 1),
            win_score(cells, p.moves + 2),
        );
        self.root_moves = p.moves;
        match goal {
            Goal::Exact => {}
            Goal::Between(lo, hi) => {
                min = min.max(lo);
                max = max.min(hi);
            }
            Goal::Sign => {
                min = min.max(-1);
                max = max.min(1);
            }
            Goal::AtLeast(v) => {
                // One null-window search: is the score above v - 1?
                if v <= min {
                    return 1;
                }
                if v > max {
                    return 0;
                }
                let r = self.negamax(p, threats, v - 1, v, true);
                return if self.aborted { 0 } else { i32::from(r >= v) };
            }
        }
        // Null-window searches narrow [min, max] to the score.
        // r[solve.bound]: a score known to be at least a floor is most
        // often the floor itself (one move past the book, a parent's best
        // reply scores exactly minus the parent's score), so the first
        // null-window search asks whether it is above the floor: when it is
        // not, that one search proves the score (analysis at the book's
        // depth: 15 % fewer nodes; the depth-9 build: 4 %).
        let mut above_floor = matches!(goal, Goal::Between(lo, _) if lo == min);
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            if above_floor {
                above_floor = false;
                med = min;
            }
            let r = self.negamax(p, threats, med, med + 1, true);
            if self.aborted {
                return 0;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        if goal == Goal::Sign {
            min.signum()
        } else {
            min
        }
    }

    /// Negamax with alpha-beta. `p` has no immediate win for the side to
    /// move; `threats` are the empty cells where the opponent would complete
    /// a run. `cut_expected`: the node is expected to be cut by its first
    /// child (the root, the eldest child of a node not expected to be cut,
    /// and every child of one whose first child did not cut it); otherwise
    /// every child is expected to be searched.
    ///
    /// Long on purpose: this is the hot loop, where a search spends nearly
    /// all its time (with the helpers it inlines), and it reads in the order
    /// a node is decided: its window, its candidates in order, their search.
    /// Split into three methods (those three parts, each inlined back), the
    /// search ran 0.65 % more instructions for the same nodes, paid at every
    /// node for a change of layout only: 3.977 G against 4.003 G (beside the
    /// 0.829 G of reading the book) in `valgrind --tool=callgrind` of the
    /// analysis bench, `--positions 3 --least 12 --most 12 --seed 1
    /// --no-book`.
    fn negamax(
        &mut self,
        p: Pos<W>,
        threats: W,
        mut alpha: i32,
        mut beta: i32,
        cut_expected: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 0x3FF == 0
            && (self.nodes > self.limits.budget
                || self.limits.stop.load(Relaxed)
                || self.limits.cancel.is_some_and(|c| c.load(Relaxed)))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let g = &self.g;
        let cells = g.cells();
        let next = non_losing(p.possible(g), threats);
        if next.is_zero() {
            // Every move lets the opponent complete a run next.
            return -win_score(cells, p.moves + 1);
        }
        if p.moves >= cells - 2 {
            return 0;
        }
        // The opponent cannot win with its next counter (moves are chosen
        // among those that do not allow it), so at the earliest with the one
        // after; the side to move cannot win now, so at the earliest with its
        // next counter but one.
        let min = -win_score(cells, p.moves + 3);
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = win_score(cells, p.moves + 2);
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let empty = g.board ^ p.mask;
        let key = key_of(g, self.far_below, p);
        let part = self.parts[p.moves as usize];
        match self.table.get(key, part) {
            Some(Bound::Upper(u)) if beta > u => {
                beta = u;
                if alpha >= beta {
                    return beta;
                }
            }
            Some(Bound::Lower(l)) if alpha < l => {
                alpha = l;
                if alpha >= beta {
                    return alpha;
                }
            }
            _ => {}
        }
        // r[solve.claimeven]: a bound from the opponent's (or the side to
        // move's) answering on top.
        match follow_up::<W, L>(g, p, alpha, beta) {
            Some(Bound::Upper(u)) => {
                if alpha >= u {
                    return u;
                }
                beta = beta.min(u);
            }
            Some(Bound::Lower(l)) => {
                if beta <= l {
                    return l;
                }
                alpha = alpha.max(l);
            }
            None => {}
        }
        // Candidates by the threats they make, centre first on ties. Each
        // child's entry is read first (an enhanced transposition cutoff): a
        // stored upper bound that proves a score >= beta ends the search
        // without a visit, and a child whose stored lower bound proves it
        // cannot raise alpha is not searched. The reads also bring the
        // children's entries into the cache before they are searched.
        let child_part = self.parts[p.moves as usize + 1];
        let base = self.moves.len();
        for &column in self.columns.iter() {
            let bit = next & column;
            if bit.is_zero() {
                continue;
            }
            let child = p.play(bit);
            match self.table.get(key_of(g, self.far_below, child), child_part) {
                Some(Bound::Upper(u)) if -u >= beta => {
                    self.moves.truncate(base);
                    return -u;
                }
                Some(Bound::Lower(l)) if -l <= alpha => continue,
                _ => {}
            }
            let threats = L::wins(g, p.current | bit) & empty & !bit;
            let score = threats.ones();
            let mut at = self.moves.len();
            self.moves.push(Move {
                bit,
                threats,
                score,
            });
            while at > base && self.moves[at - 1].score < score {
                self.moves.swap(at, at - 1);
                at -= 1;
            }
        }
        let count = self.moves.len() - base;
        // With other threads: far from the end, a child another thread is
        // searching waits for a second pass (see Busy): a younger child, or
        // any child of a node whose children are all expected to be
        // searched (the eldest of a node expected to be cut is searched by
        // every thread that comes to it, since it may be the only one).
        let busy = self.busy.filter(|_| p.moves < self.far_below);
        let mark = Busy::mark(key);
        if let Some(b) = busy {
            // A helper that finds another thread in a node whose children
            // are all expected to be searched starts at another child.
            if !cut_expected && self.helper != 0 && count > 1 && b.is_busy(mark) {
                self.moves[base..base + count].rotate_left(self.helper % count);
            }
            b.enter(mark);
        }
        let mut deferred = 0u64;
        let mut cut = None;
        'passes: for pass in 0..2 {
            for i in 0..count {
                if pass == 1 && deferred & (1 << i) == 0 {
                    continue;
                }
                let m = self.moves[base + i];
                let child = p.play(m.bit);
                if pass == 0
                    && (i > 0 || !cut_expected)
                    && busy.is_some_and(|b| {
                        b.is_busy(Busy::mark(key_of(&self.g, self.far_below, child)))
                    })
                {
                    deferred |= 1 << i;
                    continue;
                }
                let score =
                    -self.negamax(child, m.threats, -beta, -alpha, !(cut_expected && i == 0));
                if self.aborted || score >= beta {
                    cut = Some(score);
                    break 'passes;
                }
                if score > alpha {
                    alpha = score;
                }
            }
            if deferred == 0 {
                break;
            }
        }
        if let Some(b) = busy {
            b.leave(mark);
        }
        if let Some(score) = cut {
            self.moves.truncate(base);
            if self.aborted {
                return 0;
            }
            self.table.put(key, part, Bound::Lower(score));
            return score;
        }
        self.moves.truncate(base);
        self.table.put(key, part, Bound::Upper(alpha));
        alpha
    }
}

#[cfg(test)]
mod tests;
