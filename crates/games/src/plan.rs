//! The perfect engine's plan: for every position the engine can meet in the
//! first plies of a game, as either player, the position's exact score and
//! the column it plays there (the most central of the best exact score, as
//! [`Solver::best_within`](crate::solver::Solver::best_within) picks it).
//!
//! The engine's own moves are fixed, so the positions it can meet branch
//! only on the opponent's replies: from the empty board, at the engine's
//! turn the plan's column, at the opponent's every column (one of each
//! mirror pair). Positions where the side to move completes a run at once
//! need no entry, and a reply that completes one ends the game.
//!
//! The text form, one entry a line after a header:
//!
//! ```text
//! # connectz plan: width 7 height 6 connect 4 plies 12
//! . 1 4
//! 1 -2 4
//! ...
//! ```
//!
//! Each entry: a position (`cz solve`'s moves, `.` for the empty frame), its
//! exact score for the side to move (r[solve.score]) and the column played
//! (1-based, as `cz solve` writes columns).

use std::collections::{HashMap, HashSet};

use crate::book::{BookError, frame_words, number, whole_lines};
use crate::solver::{Position, Shape, column_char, column_of};

/// A plan: the engine's column and the exact score of the positions it can
/// meet in the first `plies` plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    shape: Shape,
    plies: usize,
    /// By the position's symmetric key: its moves as first written, its
    /// score, and its column, 0-based, for the position whose key is the
    /// symmetric key (the mirror plays the mirrored column).
    entries: HashMap<u128, (String, i32, usize)>,
}

/// The plan's first line.
pub fn header(shape: Shape, plies: usize) -> String {
    format!(
        "# connectz plan: width {} height {} connect {} plies {plies}",
        shape.width, shape.height, shape.z
    )
}

fn parse_header(line: &str) -> Option<(Shape, usize)> {
    let (shape, words) = frame_words(line, "# connectz plan:")?;
    Some((shape, number(&words, "plies")?))
}

impl Plan {
    /// An empty plan for a frame.
    pub fn new(shape: Shape, plies: usize) -> Plan {
        Plan {
            shape,
            plies,
            entries: HashMap::new(),
        }
    }

    /// Reads a plan's text (a header, then `moves score column` lines; a
    /// last line cut short, as an interrupted `cz book --plan` can leave,
    /// is ignored).
    ///
    /// # Errors
    /// A bad header, or an entry that is not a legal position of the frame
    /// with a column that has room.
    pub fn parse(text: &str) -> Result<Plan, BookError> {
        let first = text.lines().next().unwrap_or("");
        let (shape, plies) =
            parse_header(first).ok_or_else(|| BookError::Header(first.to_string()))?;
        let mut plan = Plan::new(shape, plies);
        for (i, line) in whole_lines(text).lines().enumerate().skip(1) {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let entry = (|| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let [moves, score, column] = words[..] else {
                    return Err("not `moves score column`".to_string());
                };
                let score: i32 = score.parse().map_err(|_| "a bad score")?;
                let p = Position::from_moves(shape, moves).map_err(|e| e.to_string())?;
                let column = column
                    .chars()
                    .next()
                    .and_then(column_of)
                    .filter(|&c| (1..=shape.width).contains(&c) && p.can_play(c - 1))
                    .ok_or("a column without room")?;
                Ok::<_, String>((moves, p, score, column - 1))
            })();
            match entry {
                Ok((moves, p, score, column)) => plan.insert(moves, &p, score, column),
                Err(why) => return Err(BookError::Entry { line: i + 1, why }),
            }
        }
        Ok(plan)
    }

    /// The frame.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The plies the plan is made for.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// The same entries, the plan said to be made for `plies`.
    pub fn with_plies(mut self, plies: usize) -> Plan {
        self.plies = plies;
        self
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the plan has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds (or replaces) the entry of `p` (whose moves are `moves`).
    pub fn insert(&mut self, moves: &str, p: &Position, score: i32, column: usize) {
        let column = if p.key() == p.symmetric_key() {
            column
        } else {
            self.shape.width - 1 - column
        };
        self.entries
            .insert(p.symmetric_key(), (moves.to_string(), score, column));
    }

    /// The column (0-based) the plan plays in `p` and `p`'s exact score.
    pub fn get(&self, p: &Position) -> Option<(usize, i32)> {
        if p.shape() != self.shape {
            return None;
        }
        let &(_, score, column) = self.entries.get(&p.symmetric_key())?;
        let column = if p.key() == p.symmetric_key() {
            column
        } else {
            self.shape.width - 1 - column
        };
        Some((column, score))
    }

    /// The positions the engine can meet after `ply` moves, as first
    /// player (`ply` even) or second, that the plan has no entry for, one
    /// of each mirror pair; empty when some earlier ply still lacks one
    /// (its entries decide which positions come next).
    pub fn missing(&self, ply: usize) -> Vec<(String, Position)> {
        let mut level = vec![(Vec::<usize>::new(), Position::new(self.shape))];
        for d in 0..=ply {
            let engine = d % 2 == ply % 2;
            let mut seen = HashSet::new();
            level.retain(|(_, p)| seen.insert(p.symmetric_key()));
            if d == ply {
                return level
                    .into_iter()
                    .filter(|(_, p)| !p.can_win_next() && self.get(p).is_none())
                    .map(|(moves, p)| (Position::moves_text(&moves), p))
                    .collect();
            }
            let mut next = Vec::new();
            for (moves, p) in level {
                if p.can_win_next() || p.moves() == self.shape.cells() {
                    continue; // the game ends here
                }
                let columns: Vec<usize> = if engine {
                    match self.get(&p) {
                        Some((column, _)) => vec![column],
                        None => return Vec::new(),
                    }
                } else {
                    (0..self.shape.width).filter(|&c| p.can_play(c)).collect()
                };
                for c in columns {
                    let mut child = p;
                    child.play_column(c);
                    let mut line = moves.clone();
                    line.push(c);
                    next.push((line, child));
                }
            }
            level = next;
        }
        Vec::new()
    }

    /// The plan as text: the header, then entries by ply, then moves.
    pub fn to_text(&self) -> String {
        let mut out = header(self.shape, self.plies);
        out.push('\n');
        let mut entries: Vec<&(String, i32, usize)> = self.entries.values().collect();
        entries.sort_by_key(|(moves, _, _)| {
            (if moves == "." { 0 } else { moves.len() }, moves.clone())
        });
        for (moves, score, _) in entries {
            let p = Position::from_moves(self.shape, moves).expect("an entry's own moves");
            let (column, _) = self.get(&p).expect("an entry");
            let column = column_char(column + 1).unwrap_or('?');
            out.push_str(&format!("{moves} {score} {column}\n"));
        }
        out
    }
}

/// The plan shipped for 7 x 6, runs of 4 (made by `cz book --plan`; its
/// header says its plies).
pub fn classic() -> &'static Plan {
    static PLAN: std::sync::OnceLock<Plan> = std::sync::OnceLock::new();
    PLAN.get_or_init(|| {
        Plan::parse(include_str!("../book/7x6.plan"))
            .unwrap_or_else(|_| Plan::new(Shape::CLASSIC, 0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    /// A plan made the way `cz book --plan` makes it, one thread.
    fn made(shape: Shape, plies: usize) -> Plan {
        let mut solver = Solver::with_table_mb(2);
        let mut plan = Plan::new(shape, plies);
        for ply in 0..=plies {
            for (moves, p) in plan.missing(ply) {
                solver.reset();
                let (score, column) = solver.best_within(&p, false, u64::MAX).unwrap();
                plan.insert(&moves, &p, score, column.unwrap());
            }
            assert!(plan.missing(ply).is_empty());
        }
        plan
    }

    #[test]
    fn a_plan_reads_back_and_plays_mirrored_positions_mirrored() {
        let shape = Shape {
            width: 5,
            height: 4,
            z: 3,
        };
        let plan = made(shape, 5);
        assert!(plan.len() > 20, "{}", plan.len());
        let text = plan.to_text();
        assert!(text.starts_with("# connectz plan: width 5 height 4 connect 3 plies 5\n. "));
        assert_eq!(Plan::parse(&text).unwrap(), plan);
        let mut asymmetric = 0;
        for line in text.lines().skip(1) {
            let moves = line.split(' ').next().unwrap();
            let p = Position::from_moves(shape, moves).unwrap();
            let (column, score) = plan.get(&p).unwrap();
            let m = p.mirrored();
            if m.key() != p.key() {
                asymmetric += 1;
                assert_eq!(plan.get(&m), Some((shape.width - 1 - column, score)));
            }
        }
        assert!(asymmetric > 10);
        // Cut short: the last line is dropped; bad entries are errors.
        assert_eq!(
            Plan::parse(&text[..text.len() - 2]).unwrap().len(),
            plan.len() - 1
        );
        let head = header(shape, 1);
        for bad in ["3 1", "3 x 3", "3 1 9", "33333 1 3", "3 1 3 3"] {
            assert!(
                matches!(
                    Plan::parse(&format!("{head}\n{bad}\n")),
                    Err(BookError::Entry { line: 2, .. })
                ),
                "{bad}"
            );
        }
        // A full column is refused.
        assert!(Plan::parse(&format!("{head}\n3333 1 3\n")).is_err());
        assert!(matches!(
            Plan::parse("# connectz book: width 5\n"),
            Err(BookError::Header(_))
        ));
        // Another frame's position is not the plan's.
        assert_eq!(plan.get(&Position::new(Shape::CLASSIC)), None);
    }

    #[test]
    fn the_positions_met_branch_only_on_the_opponents_replies() {
        let shape = Shape {
            width: 4,
            height: 4,
            z: 3,
        };
        let plan = made(shape, 4);
        // Ply 0: the empty board; ply 1: the first moves, one of each
        // mirror pair (2 of 4 columns); ply 2: the engine's move then every
        // reply, up to the mirror.
        let count = |ply: usize| {
            plan.entries
                .values()
                .filter(|(m, _, _)| if m == "." { ply == 0 } else { m.len() == ply })
                .count()
        };
        assert_eq!(count(0), 1);
        assert_eq!(count(1), 2);
        assert!((2..=4).contains(&count(2)), "{}", count(2));
        // Every engine position at ply 2 comes from the plan's first move.
        let (first, _) = plan.get(&Position::new(shape)).unwrap();
        for (m, _, _) in plan.entries.values().filter(|(m, _, _)| m.len() == 2) {
            let c = column_of(m.chars().next().unwrap()).unwrap() - 1;
            assert!(c == first || c == shape.width - 1 - first, "{m}");
        }
    }
}
