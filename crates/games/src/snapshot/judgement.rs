//! What `cz board` answers of a snapshot and how it is decided
//! (r[board.verdict]): the runs, the counts, gravity, and the search for a
//! game that reaches the position, within its bounds.

use std::collections::TryReserveError;
use std::fmt;

use super::order::{ColumnStacks, Work, reachable};
use super::{BoardError, RunCells, Side, Snapshot};

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

impl Judgement {
    /// An answer that needs no reason.
    fn answered(answer: Answer) -> Judgement {
        Judgement { answer, why: None }
    }

    /// `invalid`, and why.
    fn invalid(why: String) -> Judgement {
        Judgement {
            answer: Answer::Invalid,
            why: Some(why),
        }
    }

    /// `undecided`: the search passed `bounds`.
    fn undecided(bounds: Bounds) -> Judgement {
        Judgement {
            answer: Answer::Undecided,
            why: Some(format!(
                "the search for a game reaching this position passed its bounds ({} million steps or {} MiB) before it found one or ruled them all out",
                bounds.work / 1_000_000,
                bounds.memory >> 20
            )),
        }
    }
}

/// Work the reachability search may do before it answers `undecided`: a few
/// seconds on this project's machine (a unit is a column or a counter
/// looked at; about 16 million a second were measured). The default of
/// [`Bounds::work`], public for callers that set their bounds from it.
pub const SEARCH_WORK: u64 = 50_000_000;
/// Memory the search's remembered positions (dead ends and those on its
/// path) may take, in bytes: the default of [`Bounds::memory`], public as
/// [`SEARCH_WORK`] is.
pub const SEARCH_MEMORY: usize = 128 << 20;

/// How far one judgement's search may go (r[board.undecided]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Steps (see [`SEARCH_WORK`]).
    pub work: u64,
    /// Bytes of remembered positions.
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

/// Judges a position: r[board.verdict] with gravity, r[board.no-gravity]
/// without.
///
/// # Errors
/// [`BoardError::OutOfMemory`].
pub fn judge(p: &Snapshot, z: usize, gravity: bool) -> Result<Judgement, BoardError> {
    judge_within(p, z, gravity, Bounds::default())
}

/// [`judge`] with the search bounded by `bounds`.
///
/// # Errors
/// As [`judge`].
pub fn judge_within(
    p: &Snapshot,
    z: usize,
    gravity: bool,
    bounds: Bounds,
) -> Result<Judgement, BoardError> {
    judge_or_run_out(p, z, gravity, bounds).map_err(|_| BoardError::OutOfMemory)
}

fn judge_or_run_out(
    p: &Snapshot,
    z: usize,
    gravity: bool,
    bounds: Bounds,
) -> Result<Judgement, TryReserveError> {
    let [a, b] = p.symbols;
    let (runs, more_than_four) = kept_runs(p, z);
    let (first_run, second_run) = (!runs[0].is_empty(), !runs[1].is_empty());
    let (nf, ns) = (p.count(Side::First), p.count(Side::Second));
    if first_run && second_run {
        return Ok(Judgement::invalid(format!(
            "both {a} and {b} have a run of {z}: the game stops at the first"
        )));
    }
    let full = nf + ns == p.width * p.height;
    if !gravity {
        return Ok(Judgement::answered(match (first_run, second_run) {
            (true, _) => Answer::FirstWins,
            (_, true) => Answer::SecondWins,
            _ if full => Answer::Draw,
            _ if nf > ns => Answer::SecondMoves,
            _ => Answer::FirstMoves,
        }));
    }
    // r[board.gravity]
    let mut stacks = match p.stacks()? {
        Ok(s) => s,
        Err((r, c)) => {
            return Ok(Judgement::invalid(format!(
                "floating counter at row {r} column {c} (rows from the top)"
            )));
        }
    };
    // r[board.counts]
    if nf != ns && nf != ns + 1 {
        return Ok(Judgement::invalid(format!(
            "{a} has {nf} counters and {b} {ns}: the first player has as many as the second or one more"
        )));
    }
    let mut work = Work::new(bounds);
    let winner = match (first_run, second_run) {
        (true, _) => Some(Side::First),
        (_, true) => Some(Side::Second),
        _ => None,
    };
    let Some(winner) = winner else {
        // r[board.order]
        return Ok(match reachable(&stacks, &mut work)? {
            Some(true) => Judgement::answered(if full {
                Answer::Draw
            } else if nf == ns {
                Answer::FirstMoves
            } else {
                Answer::SecondMoves
            }),
            Some(false) => Judgement::invalid(format!(
                "no alternating game, {a} first, stacks the columns this way"
            )),
            None => Judgement::undecided(bounds),
        });
    };
    // r[board.last-line]: the winner moved last, with a counter that every
    // run of theirs passes through, from a reachable position with no winning run.
    let (name, moved_last) = match winner {
        Side::First => (a, nf == ns + 1),
        Side::Second => (b, nf == ns),
    };
    if !moved_last {
        return Ok(Judgement::invalid(format!(
            "{name} has a winning run but did not move last"
        )));
    }
    let w = usize::from(winner == Side::Second);
    let last = completed_last(
        p,
        z,
        winner,
        &runs[w],
        more_than_four[w],
        &mut stacks,
        &mut work,
    )?;
    Ok(match last {
        Some(true) => Judgement::answered(if winner == Side::First {
            Answer::FirstWins
        } else {
            Answer::SecondWins
        }),
        Some(false) => Judgement::invalid(format!(
            "{name}'s winning run could not have been completed last: no top counter of {name} is on every winning run of theirs with a reachable position before it"
        )),
        None => Judgement::undecided(bounds),
    })
}

/// The runs of z of each side (the first's, then the second's), at most
/// four a side, and whether a side has more. A cell is on at most four
/// maximal runs, one a direction: of a side with more, no one counter is
/// on every run, and only four are kept.
fn kept_runs(p: &Snapshot, z: usize) -> ([Vec<RunCells>; 2], [bool; 2]) {
    let mut runs: [Vec<RunCells>; 2] = Default::default();
    let mut more_than_four = [false; 2];
    for run in p.runs(z) {
        let i = usize::from(run.side == Side::Second);
        if runs[i].len() < 4 {
            runs[i].push(run);
        } else {
            more_than_four[i] = true;
        }
    }
    (runs, more_than_four)
}

/// r[board.last-line]: whether `winner`, with the winning `runs` (and more
/// than four of them when `more_than_four`), can have completed them with
/// its last counter: a top counter of its on every run, taken away,
/// leaves a reachable position with no winning run. `None` when the search
/// passed its bounds before it found such a counter.
fn completed_last(
    p: &Snapshot,
    z: usize,
    winner: Side,
    runs: &[RunCells],
    more_than_four: bool,
    stacks: &mut ColumnStacks,
    work: &mut Work,
) -> Result<Option<bool>, TryReserveError> {
    let mut gave_up = false;
    for c in 0..stacks.len() {
        let stack = &stacks[c];
        if stack.last() != Some(&winner) || more_than_four {
            continue;
        }
        let cell = (p.height - stack.len() + 1, c + 1);
        if !breaks_every_run(runs, cell, z) {
            continue;
        }
        // The position before that counter: its column one lower.
        stacks.lower(Some(c));
        let found = reachable(stacks, work)?;
        stacks.lower(None);
        match found {
            Some(true) => return Ok(Some(true)),
            Some(false) => {}
            None => gave_up = true,
        }
    }
    Ok(if gave_up { None } else { Some(false) })
}

/// True when taking the counter at `cell` (row from the top, column, 1-based)
/// away leaves no winning run: it lies on every run, and splits each into
/// pieces shorter than z.
fn breaks_every_run(runs: &[RunCells], cell: (usize, usize), z: usize) -> bool {
    runs.iter().all(|run| {
        run.index_of(cell)
            .is_some_and(|k| k < z && run.len - k - 1 < z)
    })
}
