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

use crate::book::{
    BookError, KeyHash, frame_words, number, pack, packed_shape, score_range, unpack, whole_lines,
};
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
    entries: HashMap<u128, (String, i32, usize), KeyHash>,
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
            entries: HashMap::default(),
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
        self.met(ply)
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, p)| self.get(p).is_none())
            .map(|(moves, p)| (Position::moves_text(&moves), p))
            .collect()
    }

    /// Every position the engine can meet after `ply` moves that needs an
    /// entry (the game goes on and the side to move cannot complete a run
    /// at once), one of each mirror pair, in the order the packed form
    /// keeps them; `None` when an earlier ply lacks an entry.
    fn met(&self, ply: usize) -> Option<Vec<(Vec<usize>, Position)>> {
        let mut level = vec![(Vec::<usize>::new(), Position::new(self.shape))];
        let ends = |p: &Position| p.can_win_next() || p.moves() >= self.shape.cells();
        for d in 0..ply {
            let engine = d % 2 == ply % 2;
            let mut seen: HashSet<u128, KeyHash> = HashSet::default();
            level.retain(|(_, p)| seen.insert(p.symmetric_key()));
            let mut next = Vec::new();
            for (moves, p) in level {
                if ends(&p) {
                    continue; // the game ends here
                }
                let columns: Vec<usize> = if engine {
                    vec![self.get(&p)?.0]
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
        let mut seen: HashSet<u128, KeyHash> = HashSet::default();
        level.retain(|(_, p)| !ends(p) && seen.insert(p.symmetric_key()));
        Some(level)
    }

    /// The packed form (see [`Plan::from_packed`]).
    ///
    /// # Errors
    /// [`BookError::Incomplete`]: a position the engine can meet within
    /// the plan's plies has no entry; [`BookError::Packed`]: the plan holds
    /// entries no line of its own reaches, or a score beyond a byte.
    pub fn to_packed(&self) -> Result<Vec<u8>, BookError> {
        let mut payload = Vec::with_capacity(2 * self.entries.len());
        for ply in 0..=self.plies {
            let level = self.met(ply).unwrap_or_default();
            let missing = level.iter().filter(|(_, p)| self.get(p).is_none());
            if let Some((moves, _)) = missing.clone().next() {
                return Err(BookError::Incomplete {
                    moves: Position::moves_text(moves),
                    missing: missing.count(),
                });
            }
            for (moves, p) in &level {
                let (column, score) = self.get(p).expect("checked above");
                let score = i8::try_from(score).map_err(|_| {
                    BookError::Packed(format!(
                        "{}: a score of {score} does not fit a byte",
                        Position::moves_text(moves)
                    ))
                })?;
                payload.extend_from_slice(&[column as u8, score as u8]);
            }
        }
        let count = payload.len() / 2;
        if count != self.entries.len() {
            return Err(BookError::Packed(format!(
                "{} of its entries are in no line of the plan",
                self.entries.len() - count
            )));
        }
        let shape = self.shape;
        Ok(pack(
            PLAN_MAGIC,
            &[shape.width, shape.height, shape.z, self.plies, count],
            &payload,
        ))
    }

    /// Reads the packed form: the 8 bytes `CZPLAN`, 0, `1` (the version);
    /// the width, height, connect, plies and the number of entries, each a
    /// little-endian u32; an FNV-1a checksum (u64) of those numbers' bytes
    /// and the entries; then two bytes an entry, its column (0-based) and
    /// its score (signed), for the positions the engine can meet ply by
    /// ply, in the order its own entries make them.
    ///
    /// The checksum must hold, the entries must be exactly the positions
    /// their columns lead to, and each column must have room and each
    /// score be one the position's moves allow.
    ///
    /// # Errors
    /// [`BookError::Packed`] or [`BookError::Inconsistent`].
    pub fn from_packed(bytes: &[u8]) -> Result<Plan, BookError> {
        let bad = |why: String| BookError::Packed(why);
        let ([width, height, z, plies, count], payload) =
            unpack::<5>(bytes, PLAN_MAGIC, "entries", |count| {
                count.saturating_mul(2)
            })?;
        let shape = packed_shape(width, height, z)?;
        if plies > shape.cells() as usize {
            return Err(bad(format!(
                "{plies} plies are more than the frame's {} cells",
                shape.cells()
            )));
        }
        let mut plan = Plan::new(shape, plies);
        let mut entries = payload.chunks_exact(2);
        for ply in 0..=plies {
            let level = plan
                .met(ply)
                .ok_or_else(|| bad(format!("ply {ply} is met before its entries")))?;
            for (moves, p) in level {
                let text = Position::moves_text(&moves);
                let Some(&[column, score]) = entries.next() else {
                    return Err(bad(format!(
                        "it says {count} entries and its lines meet more"
                    )));
                };
                let (column, score) = (usize::from(column), i32::from(score as i8));
                if column >= width || !p.can_play(column) {
                    return Err(bad(format!("{text}: column {} has no room", column + 1)));
                }
                let (low, high) = score_range(&p, false);
                if !(low..=high).contains(&score) {
                    return Err(BookError::Inconsistent {
                        moves: text,
                        stored: score,
                        children: None,
                    });
                }
                plan.insert(&text, &p, score, column);
            }
        }
        if entries.next().is_some() {
            return Err(bad(format!(
                "it says {count} entries and its lines meet {}",
                plan.len()
            )));
        }
        Ok(plan)
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

/// The packed form's first bytes: a name and the version.
const PLAN_MAGIC: &[u8; 8] = b"CZPLAN\x001";

/// The plan shipped for 7 x 6, runs of 4, packed (made by `cz book --plan
/// --pack`; the text it was packed from is `book/7x6.plan`), read and
/// checked on first use.
pub fn classic() -> &'static Plan {
    static PLAN: std::sync::OnceLock<Plan> = std::sync::OnceLock::new();
    PLAN.get_or_init(|| {
        // The shipped bytes are checked by the tests; should they fail to
        // read, the engine searches as it would without a plan.
        Plan::from_packed(include_bytes!("../book/7x6.czp"))
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

    /// The same column and score for every position of `a`'s entries.
    fn same_answers(a: &Plan, b: &Plan) {
        assert_eq!((a.shape, a.plies, a.len()), (b.shape, b.plies, b.len()));
        for (moves, _, _) in a.entries.values() {
            let p = Position::from_moves(a.shape, moves).unwrap();
            assert_eq!(a.get(&p), b.get(&p), "{moves}");
            assert_eq!(a.get(&p.mirrored()), b.get(&p.mirrored()), "{moves}");
        }
    }

    #[test]
    fn a_packed_plan_reads_back_and_a_corrupt_one_is_refused() {
        let shape = Shape {
            width: 5,
            height: 4,
            z: 3,
        };
        let plan = made(shape, 5);
        let packed = plan.to_packed().unwrap();
        // The header (36 bytes), then a column and a score an entry.
        assert_eq!(packed.len(), 36 + 2 * plan.len());
        assert_eq!(&packed[..8], b"CZPLAN\x001");
        let back = Plan::from_packed(&packed).unwrap();
        same_answers(&plan, &back);
        assert_eq!(back.to_packed().unwrap(), packed);
        // Every bit flipped, and every length cut short or one longer.
        for i in 0..packed.len() * 8 {
            let mut bad = packed.clone();
            bad[i / 8] ^= 1 << (i % 8);
            assert!(Plan::from_packed(&bad).is_err(), "bit {i}");
        }
        for n in 0..packed.len() {
            assert!(Plan::from_packed(&packed[..n]).is_err(), "cut at {n}");
        }
        let mut longer = packed.clone();
        longer.push(0);
        assert!(Plan::from_packed(&longer).is_err());
        // Plies: at the frame's cells a header is read (the empty frame's
        // entry), one above it is refused, whatever the checksum says.
        let cells = shape.cells() as usize;
        let (w, h, z) = (shape.width, shape.height, shape.z);
        let at = pack(PLAN_MAGIC, &[w, h, z, cells, 1], &packed[36..38]);
        assert!(
            matches!(Plan::from_packed(&at), Err(BookError::Packed(why)) if why.contains("meet more"))
        );
        let above = pack(PLAN_MAGIC, &[w, h, z, cells + 1, 1], &packed[36..38]);
        assert!(
            matches!(Plan::from_packed(&above), Err(BookError::Packed(why)) if why.contains("more than the frame's 20 cells"))
        );
        // A plan that lacks an entry its lines meet is not packed.
        let mut short = plan.clone();
        let (key, _) = short
            .entries
            .iter()
            .find(|(_, (m, _, _))| m.len() == 3)
            .map(|(k, v)| (*k, v.clone()))
            .unwrap();
        short.entries.remove(&key);
        assert!(matches!(
            short.to_packed(),
            Err(BookError::Incomplete { missing: 1, .. })
        ));
        // Nor one with an entry no line meets.
        let mut extra = plan.clone();
        let stray = Position::from_moves(shape, "1111").unwrap();
        assert!(extra.get(&stray).is_none());
        extra.insert("1111", &stray, 0, 1);
        assert!(matches!(extra.to_packed(), Err(BookError::Packed(_))));
    }

    /// The shipped packed plan is its text's, packed: the same bytes.
    #[test]
    fn the_shipped_plan_is_its_text_packed() {
        let text = Plan::parse(include_str!("../book/7x6.plan")).unwrap();
        assert_eq!(
            text.to_packed().unwrap(),
            include_bytes!("../book/7x6.czp").to_vec()
        );
        let shipped = classic();
        assert_eq!((shipped.len(), shipped.plies()), (16_230, 12));
        same_answers(&text, shipped);
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
