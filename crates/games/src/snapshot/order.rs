//! Whether the columns can be built by alternating moves (r[board.order]):
//! a greedy schedule, then an exhaustive search within a budget.

use std::collections::{HashSet, TryReserveError};
use std::ops::Index;

use super::{Bounds, Side, try_filled};

/// Columns of counters, bottom-up, held in one vector: a byte a counter and
/// a word a column, however the grid is shaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ColumnStacks {
    sides: Vec<Side>,
    /// Column c is `sides[starts[c]..starts[c + 1]]`.
    starts: Vec<usize>,
    /// A column seen one counter lower (the position before its top).
    lowered: Option<usize>,
}

impl ColumnStacks {
    /// No columns yet, with room for `columns` and `counters`.
    pub(super) fn with_capacity(
        columns: usize,
        counters: usize,
    ) -> Result<ColumnStacks, TryReserveError> {
        let mut sides = Vec::new();
        sides.try_reserve_exact(counters)?;
        let mut starts = Vec::new();
        starts.try_reserve_exact(columns + 1)?;
        starts.push(0);
        Ok(ColumnStacks {
            sides,
            starts,
            lowered: None,
        })
    }

    /// Puts a counter on the column being built.
    pub(super) fn push(&mut self, side: Side) {
        self.sides.push(side);
    }

    /// Ends the column being built; the next push starts another.
    pub(super) fn end_column(&mut self) {
        self.starts.push(self.sides.len());
    }

    /// Sees column `c` one counter lower, or every column as built.
    pub(super) fn lower(&mut self, c: Option<usize>) {
        self.lowered = c;
    }

    /// The number of columns.
    pub(super) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The columns, left to right.
    pub(super) fn iter(&self) -> impl Iterator<Item = &[Side]> {
        (0..self.len()).map(|c| &self[c])
    }

    /// Where column `c`'s counters start in one vector of a value per
    /// counter.
    fn start(&self, c: usize) -> usize {
        self.starts[c]
    }

    #[cfg(test)]
    pub(super) fn from_columns(columns: &[Vec<Side>]) -> ColumnStacks {
        let counters = columns.iter().map(Vec::len).sum();
        let mut stacks = ColumnStacks::with_capacity(columns.len(), counters).expect("memory");
        for column in columns {
            for &side in column {
                stacks.push(side);
            }
            stacks.end_column();
        }
        stacks
    }
}

impl Index<usize> for ColumnStacks {
    type Output = [Side];

    fn index(&self, c: usize) -> &[Side] {
        let end = self.starts[c + 1] - usize::from(self.lowered == Some(c));
        &self.sides[self.starts[c]..end]
    }
}

/// Bytes one remembered dead end costs: its key, the allocation's header,
/// and its share of the hash table.
fn dead_end_bytes(key: &[u32]) -> usize {
    (key.len() * 4).next_multiple_of(16) + 64
}

/// The search's budget, shared by the searches of one judgement.
#[derive(Debug)]
pub(super) struct Work {
    pub(super) done: u64,
    bounds: Bounds,
}

impl Work {
    /// A budget of `bounds`, none of it spent.
    pub(super) fn new(bounds: Bounds) -> Work {
        Work { done: 0, bounds }
    }

    #[cfg(test)]
    pub(super) fn default_bounds() -> Work {
        Work::new(Bounds::default())
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
///
/// # Errors
/// The memory for the deadlines, the greedy pass's heaps or the search's
/// suffix numbers cannot be had.
pub(super) fn reachable(
    stacks: &ColumnStacks,
    work: &mut Work,
) -> Result<Option<bool>, TryReserveError> {
    let schedule = Schedule::new(stacks)?;
    // The set-up's work (a deadline and a suffix number a counter) counts
    // against the budget too (r[board.undecided]).
    work.done += schedule.total as u64;
    if schedule.greedy(work)? {
        return Ok(Some(true));
    }
    let suffix = Suffixes::new(stacks)?;
    Ok(schedule.search(&suffix, work))
}

/// The side whose turn slot `t` (1-based) is.
pub(super) fn side_of(t: usize) -> Side {
    if t % 2 == 1 {
        Side::First
    } else {
        Side::Second
    }
}

pub(super) struct Schedule<'a> {
    stacks: &'a ColumnStacks,
    total: usize,
    /// The last slot each counter can take, in the order of `stacks`'
    /// counters.
    deadline: Vec<usize>,
}

/// For each column and each k, an id of the counters of the column from the
/// k-th up, the same for equal contents (the empty suffix is 0).
pub(super) struct Suffixes {
    /// Column c's ids, k = 0 to its height, are
    /// `ids[start(c) + c..start(c + 1) + c + 1]`.
    ids: Vec<u32>,
    /// Where each column's ids start.
    starts: Vec<usize>,
}

impl Suffixes {
    /// Suffixes are numbered from the top down, each by its bottom counter
    /// and the number of the suffix above it: equal contents get equal
    /// numbers, in time linear in the counters (hashing each suffix whole
    /// took time quadratic in a column's height). The numbers are nodes of
    /// a trie of the suffixes read top-down, each with a child per side.
    pub(super) fn new(stacks: &ColumnStacks) -> Result<Suffixes, TryReserveError> {
        let counters: usize = stacks.iter().map(<[Side]>::len).sum();
        let mut ids = try_filled(counters + stacks.len(), 0u32)?;
        let mut starts = Vec::new();
        starts.try_reserve_exact(stacks.len())?;
        let mut children: Vec<[u32; 2]> = Vec::new();
        children.try_reserve(counters.min(1 << 20) + 1)?;
        children.push([0, 0]);
        let mut at = 0;
        for stack in stacks.iter() {
            starts.push(at);
            let numbers = &mut ids[at..at + stack.len() + 1];
            for k in (0..stack.len()).rev() {
                let (parent, side) = (
                    numbers[k + 1] as usize,
                    usize::from(stack[k] == Side::Second),
                );
                if children[parent][side] == 0 {
                    children.try_reserve(1)?;
                    children.push([0, 0]);
                    children[parent][side] = (children.len() - 1) as u32;
                }
                numbers[k] = children[parent][side];
            }
            at += stack.len() + 1;
        }
        Ok(Suffixes { ids, starts })
    }

    /// Column c's ids, from its bottom counter up to the empty suffix.
    pub(super) fn column(&self, c: usize) -> &[u32] {
        let end = self.starts.get(c + 1).copied().unwrap_or(self.ids.len());
        &self.ids[self.starts[c]..end]
    }
}

impl<'a> Schedule<'a> {
    /// A counter with no slot at all gets deadline 0, which no slot meets.
    pub(super) fn new(stacks: &'a ColumnStacks) -> Result<Schedule<'a>, TryReserveError> {
        let total: usize = stacks.iter().map(<[Side]>::len).sum();
        let mut deadline = try_filled(stacks.sides.len(), 0usize)?;
        for (c, stack) in stacks.iter().enumerate() {
            let d = &mut deadline[stacks.start(c)..stacks.start(c) + stack.len()];
            let mut next = total + 1;
            for k in (0..stack.len()).rev() {
                let mut t = next.saturating_sub(1);
                if t > 0 && side_of(t) != stack[k] {
                    t -= 1;
                }
                d[k] = t;
                next = t;
            }
        }
        Ok(Schedule {
            stacks,
            total,
            deadline,
        })
    }

    /// The deadline of the k-th counter of column c.
    fn deadline(&self, c: usize, k: usize) -> usize {
        self.deadline[self.stacks.start(c) + k]
    }

    /// Earliest deadline first; true when it builds every column.
    fn greedy(&self, work: &mut Work) -> Result<bool, TryReserveError> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut heights = try_filled(self.stacks.len(), 0usize)?;
        let mut heads: [BinaryHeap<Reverse<(usize, usize)>>; 2] = Default::default();
        // Each column is in at most one heap at a time.
        let columns = self.stacks.iter().filter(|s| !s.is_empty()).count();
        for heap in &mut heads {
            heap.try_reserve_exact(columns)?;
        }
        let side_index = |s: Side| usize::from(s == Side::Second);
        for (c, stack) in self.stacks.iter().enumerate() {
            if let Some(&s) = stack.first() {
                heads[side_index(s)].push(Reverse((self.deadline(c, 0), c)));
            }
        }
        for t in 1..=self.total {
            work.done += 1;
            let Some(Reverse((d, c))) = heads[side_index(side_of(t))].pop() else {
                return Ok(false);
            };
            if d < t {
                return Ok(false);
            }
            heights[c] += 1;
            if let Some(&s) = self.stacks[c].get(heights[c]) {
                heads[side_index(s)].push(Reverse((self.deadline(c, heights[c]), c)));
            }
        }
        Ok(true)
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
                if r > self.deadline(c, k) {
                    return false;
                }
                windows[usize::from(stack[k] == Side::Second)].push((r, self.deadline(c, k)));
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
    fn search(&self, suffix: &Suffixes, work: &mut Work) -> Option<bool> {
        struct Visit {
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
        // Bytes of keys held, on the path and among the dead ends.
        let mut dead_bytes = 0usize;
        let mut frames: Vec<Visit> = Vec::new();
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
            let mut key: Box<[u32]> = (0..width).map(|c| suffix.column(c)[heights[c]]).collect();
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
                    .map(|c| {
                        (
                            self.deadline(c, heights[c]),
                            suffix.column(c)[heights[c]],
                            c,
                        )
                    })
                    .collect();
                options.sort_unstable();
                // Columns with the same remaining counters are one choice.
                let mut seen = HashSet::new();
                options.retain(|o| seen.insert(o.1));
                // A position on the path is counted when entered: its key
                // stays held, in its frame and then among the dead ends.
                dead_bytes += dead_end_bytes(&key);
                frames.push(Visit {
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
                dead.insert(frame.key);
                if let Some(c) = frame.via {
                    heights[c] -= 1;
                    placed -= 1;
                }
            }
        }
    }
}
