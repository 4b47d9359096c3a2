//! An opening book: scores of every position of the first plies, made by
//! the project's own solver (`cz book`): a table of game values to look up
//! or build on. (The perfect engine plays from a [`plan`](crate::plan),
//! which holds only the positions it can meet, with exact scores.)
//!
//! The text form, one entry a line after a header:
//!
//! ```text
//! # connectz book: width 7 height 6 connect 4 depth 2 weak
//! . 1
//! 1 -1
//! ...
//! ```
//!
//! Each entry is a position (`cz solve`'s moves, `.` for the empty frame)
//! and its score for the side to move: the sign only (`weak`) or the exact
//! score (`exact`). The book holds every position of at most `depth` moves
//! that no run has ended and whose side to move cannot complete a run at
//! once (those need no book), one of each mirror pair.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::solver::{Position, PositionError, Shape, Word};

mod packed;
mod scores;
mod walk;

pub(crate) use packed::{pack, packed_shape, score_range, unpack};
pub(crate) use scores::KeyHash;
use scores::Scores;
use walk::{Leaves, PositionWalk};

/// An opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    shape: Shape,
    depth: usize,
    weak: bool,
    scores: Scores,
}

/// Why a book's text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not a book header.
    Header(String),
    /// A line is not `moves score` of a legal position of the frame.
    Entry {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A packed book that is not one, is cut short, or whose bytes are not
    /// the ones written (its checksum).
    Packed(String),
    /// A position's score that is not the best of its children's, or out
    /// of the range its moves allow: a book made wrongly or altered.
    Inconsistent {
        /// The position (`cz solve`'s moves, `.` for the empty frame).
        moves: String,
        /// Its score in the book.
        stored: i32,
        /// What its children's scores make it (`None`: out of range).
        children: Option<i32>,
    },
    /// A book that lacks positions of its depth (packing needs them all).
    Incomplete {
        /// The first position missing.
        moves: String,
        /// How many are.
        missing: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Header(h) => write!(f, "not a book header: {h:?}"),
            BookError::Entry { line, why } => write!(f, "line {line}: {why}"),
            BookError::Packed(why) => write!(f, "not a packed book: {why}"),
            BookError::Inconsistent {
                moves,
                stored,
                children: Some(children),
            } => write!(
                f,
                "position {moves} scores {stored} in the book, but its children make it {children}: the book is corrupt"
            ),
            BookError::Inconsistent {
                moves,
                stored,
                children: None,
            } => write!(
                f,
                "position {moves} scores {stored} in the book, more than its moves allow: the book is corrupt"
            ),
            BookError::Incomplete { moves, missing } => write!(
                f,
                "the book lacks {missing} positions of its depth, {moves} the first"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// The book's first line.
pub fn header(shape: Shape, depth: usize, weak: bool) -> String {
    format!(
        "# connectz book: width {} height {} connect {} depth {depth} {}",
        shape.width,
        shape.height,
        shape.z,
        if weak { "weak" } else { "exact" }
    )
}

fn parse_header(line: &str) -> Option<(Shape, usize, bool)> {
    let (shape, words) = frame_words(line, "# connectz book:")?;
    let depth = number(&words, "depth")?;
    let weak = match *words.last()? {
        "weak" => true,
        "exact" => false,
        _ => return None,
    };
    Some((shape, depth, weak))
}

/// The words of a header line after `prefix`, and the frame they name
/// (`width W height H connect Z`), when it fits the solver.
pub(crate) fn frame_words<'a>(line: &'a str, prefix: &str) -> Option<(Shape, Vec<&'a str>)> {
    let words: Vec<&str> = line.strip_prefix(prefix)?.split_whitespace().collect();
    let shape = Shape {
        width: number(&words, "width")?,
        height: number(&words, "height")?,
        z: number(&words, "connect")?,
    };
    shape.fits().then_some((shape, words))
}

/// The number after the word `name` among a header's words.
pub(crate) fn number(words: &[&str], name: &str) -> Option<usize> {
    let at = words.iter().position(|w| *w == name)?;
    words.get(at + 1)?.parse().ok()
}

/// A file's text without a last line cut short (one without its line
/// feed, as an interrupted run can leave).
pub(crate) fn whole_lines(text: &str) -> &str {
    if text.ends_with('\n') {
        text
    } else {
        text.rsplit_once('\n').map_or("", |(whole, _)| whole)
    }
}

/// Every position the book of `depth` holds, one of each mirror pair, in
/// order of depth: its moves and the position.
pub fn positions(shape: Shape, depth: usize) -> Vec<(String, Position)> {
    fn all<W: Word>(shape: Shape, depth: usize) -> Vec<(String, Position)> {
        let walk = PositionWalk::<W>::new(shape, depth, usize::MAX, Leaves::Kept, |_| {})
            .expect("a walk without a limit ends");
        walk.held
            .iter()
            .map(|&i| (walk.moves(i), walk.position(i)))
            .collect()
    }
    if shape.fits_64() {
        all::<u64>(shape, depth)
    } else {
        all::<u128>(shape, depth)
    }
}

impl Book {
    /// An empty book for a frame.
    pub fn new(shape: Shape, depth: usize, weak: bool) -> Book {
        Book {
            shape,
            depth,
            weak,
            scores: Scores::default(),
        }
    }

    /// Reads a book's text (a header, then `moves score` lines; a last line
    /// cut short, as an interrupted `cz book` can leave, is ignored).
    ///
    /// # Errors
    /// A bad header or a bad entry.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("");
        let (shape, depth, weak) =
            parse_header(first).ok_or_else(|| BookError::Header(first.to_string()))?;
        let mut book = Book::new(shape, depth, weak);
        // A last line without its line feed may be cut short: left out.
        for (i, line) in whole_lines(text).lines().enumerate().skip(1) {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let entry = (|| {
                let (moves, score) = line.split_once(' ').ok_or("no score")?;
                let score: i32 = score.trim().parse().map_err(|_| "a bad score")?;
                let p =
                    Position::from_moves(shape, moves).map_err(|e: PositionError| e.to_string())?;
                Ok::<_, String>((p, score))
            })();
            match entry {
                Ok((p, score)) => book.insert(&p, score),
                Err(why) => return Err(BookError::Entry { line: i + 1, why }),
            }
        }
        Ok(book)
    }

    /// The frame.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The deepest plies the book is made for.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// True when the scores are signs only.
    pub fn weak(&self) -> bool {
        self.weak
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// True when the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.scores.len() == 0
    }

    /// Adds (or replaces) the score of a position.
    pub fn insert(&mut self, p: &Position, score: i32) {
        self.scores.insert(p.symmetric_key(), score);
    }

    /// True when the book holds `p` or its mirror image.
    pub fn contains(&self, p: &Position) -> bool {
        self.scores.contains(p.symmetric_key())
    }

    /// The score of `p` for the side to move: from the book, or at once
    /// when the side to move can complete a run.
    pub fn score(&self, p: &Position) -> Option<i32> {
        if p.shape() != self.shape {
            return None;
        }
        if p.can_win_next() {
            let score = self.shape.win_score(p.moves());
            return Some(if self.weak { score.signum() } else { score });
        }
        self.scores.get(p.symmetric_key())
    }

    /// A floor under the score of `p`, one move past the positions the
    /// book holds, from the parents it holds (r[solve.bound]): a parent `q`
    /// scores the best of its children's negated scores, so `p` scores at
    /// least `-score(q)`. `None` for a weak book, or when it holds no
    /// parent of `p`.
    pub fn floor(&self, p: &Position) -> Option<i32> {
        if self.weak || p.shape() != self.shape || p.moves() as usize > self.depth + 1 {
            return None;
        }
        p.parents().filter_map(|q| self.score(&q)).map(|s| -s).max()
    }

    /// The best column (0-based) for the side to move and its score, when
    /// the book knows every move's outcome; ties go to the centre.
    pub fn best(&self, p: &Position) -> Option<(usize, i32)> {
        let shape = self.shape;
        let mut best: Option<(i32, (u64, usize), usize)> = None;
        let wins = p.winning_columns();
        for c in 0..shape.width {
            if !p.can_play(c) {
                continue;
            }
            let score = if wins >> c & 1 == 1 {
                let s = shape.win_score(p.moves());
                if self.weak { s.signum() } else { s }
            } else {
                let mut child = *p;
                child.play_column(c);
                if child.moves() == shape.cells() {
                    0
                } else {
                    -self.score(&child)?
                }
            };
            let rank = shape.centre_rank(c);
            if best.is_none_or(|(s, r, _)| score > s || (score == s && rank < r)) {
                best = Some((score, rank, c));
            }
        }
        best.map(|(s, _, c)| (c, s))
    }

    /// The book as text: the header, then entries in the order of
    /// [`positions`].
    pub fn to_text(&self) -> String {
        let mut out = header(self.shape, self.depth, self.weak);
        out.push('\n');
        for (moves, p) in positions(self.shape, self.depth) {
            if let Some(score) = self.scores.get(p.symmetric_key()) {
                out.push_str(&format!("{moves} {score}\n"));
            }
        }
        out
    }
}

/// The book shipped for 7 x 6, runs of 4: the exact score of every
/// position of at most [`CLASSIC_DEPTH`] moves, packed (made by `cz book
/// --exact --pack`), read on first use (its frame, entries and checksum
/// checked; the tests check every score against its children). Every [`Solver`]
/// consults it unless told not to.
///
/// [`Solver`]: crate::solver::Solver
pub fn classic() -> &'static Arc<Book> {
    CLASSIC.get_or_init(|| {
        // The shipped bytes are checked whole by the tests (every score
        // against its children: tests/book.rs); should they fail to read,
        // the solver searches as it would without a book.
        Arc::new(
            Book::from_shipped(include_bytes!("../../book/7x6.czb"))
                .unwrap_or_else(|_| Book::new(Shape::CLASSIC, 0, false)),
        )
    })
}

/// The shipped book, once read.
static CLASSIC: OnceLock<Arc<Book>> = OnceLock::new();

/// Whether this process has read the shipped book (a solver reads it at the
/// first 7 x 6 position it is asked of at most [`CLASSIC_DEPTH`] + 1
/// moves).
pub fn classic_is_read() -> bool {
    CLASSIC.get().is_some()
}

/// The depth of the shipped book: public so that a caller knows which
/// 7 x 6 positions it answers without reading it (as
/// `classic().depth()` would).
pub const CLASSIC_DEPTH: usize = 10;

#[cfg(test)]
mod tests;
