//! Whether the columns can be built by alternating moves (r[board.order]):
//! a greedy schedule, then an exhaustive search within a budget.

use std::collections::{HashMap, HashSet};

use super::{Bounds, Side, dead_end_bytes};

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
pub(super) fn reachable(stacks: &[Vec<Side>], work: &mut Work) -> Option<bool> {
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
pub(super) fn side_of(t: usize) -> Side {
    if t % 2 == 1 {
        Side::First
    } else {
        Side::Second
    }
}

pub(super) struct Schedule<'a> {
    stacks: &'a [Vec<Side>],
    total: usize,
    /// `deadline[c][k]`: the last slot the k-th counter of column c can take.
    deadline: Vec<Vec<usize>>,
    /// `suffix[c][k]`: an id of the counters of column c from the k-th up,
    /// the same for equal contents.
    pub(super) suffix: Vec<Vec<u32>>,
}

impl<'a> Schedule<'a> {
    /// A counter with no slot at all gets deadline 0, which no slot meets.
    pub(super) fn new(stacks: &'a [Vec<Side>]) -> Schedule<'a> {
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
