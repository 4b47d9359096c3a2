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

use std::collections::HashMap;
use std::fmt;

use crate::solver::{Position, PositionError, Shape};

/// An opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    shape: Shape,
    depth: usize,
    weak: bool,
    scores: HashMap<u128, i32>,
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
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Header(h) => write!(f, "not a book header: {h:?}"),
            BookError::Entry { line, why } => write!(f, "line {line}: {why}"),
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
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut level = vec![(Vec::<usize>::new(), Position::new(shape))];
    for d in 0..=depth {
        let mut next = Vec::new();
        for (moves, p) in level {
            if !seen.insert(p.symmetric_key()) {
                continue;
            }
            if !p.can_win_next() {
                out.push((Position::moves_text(&moves), p));
            }
            if d == depth || p.moves() == shape.cells() {
                continue;
            }
            for c in 0..shape.width {
                if p.can_play(c) && !p.is_winning_move(c) {
                    let mut child = p;
                    child.play_column(c);
                    let mut line = moves.clone();
                    line.push(c);
                    next.push((line, child));
                }
            }
        }
        level = next;
    }
    out
}

impl Book {
    /// An empty book for a frame.
    pub fn new(shape: Shape, depth: usize, weak: bool) -> Book {
        Book {
            shape,
            depth,
            weak,
            scores: HashMap::new(),
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
        self.scores.is_empty()
    }

    /// Adds (or replaces) the score of a position.
    pub fn insert(&mut self, p: &Position, score: i32) {
        self.scores.insert(p.symmetric_key(), score);
    }

    /// True when the book holds `p` or its mirror image.
    pub fn contains(&self, p: &Position) -> bool {
        self.scores.contains_key(&p.symmetric_key())
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
        self.scores.get(&p.symmetric_key()).copied()
    }

    /// The best column (0-based) for the side to move and its score, when
    /// the book knows every move's outcome; ties go to the centre.
    pub fn best(&self, p: &Position) -> Option<(usize, i32)> {
        let shape = self.shape;
        let mut best: Option<(i32, (u64, usize), usize)> = None;
        for c in 0..shape.width {
            if !p.can_play(c) {
                continue;
            }
            let score = if p.is_winning_move(c) {
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
            if let Some(score) = self.scores.get(&p.symmetric_key()) {
                out.push_str(&format!("{moves} {score}\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    #[test]
    fn positions_are_unique_up_to_the_mirror() {
        let shape = Shape::CLASSIC;
        let counts: Vec<usize> = (0..=3).map(|d| positions(shape, d).len()).collect();
        // 1; 4 (mirror pairs of 7 columns); then the two-move and
        // three-move positions without a pair.
        assert_eq!(counts[0], 1);
        assert_eq!(counts[1], 5);
        let two = positions(shape, 2).len() - 5;
        // 49 two-move games: 7 repeat a column pair in either order...
        // counted by brute force here.
        let mut keys = std::collections::HashSet::new();
        for a in 0..7 {
            for b in 0..7 {
                let mut p = Position::new(shape);
                p.play_column(a);
                p.play_column(b);
                keys.insert(p.symmetric_key());
            }
        }
        assert_eq!(two, keys.len());
        assert!(counts[3] > counts[2]);
    }

    /// On a frame with an odd number of cells (r[solve.score]: the winner's
    /// counters, not the moves left), every position of up to four moves,
    /// those with a win to take included, scores what the solver says.
    #[test]
    fn scores_on_an_odd_frame_are_the_solvers() {
        let shape = Shape {
            width: 5,
            height: 3,
            z: 3,
        };
        let mut solver = Solver::with_table_mb(2);
        let mut book = Book::new(shape, 4, false);
        let all = positions(shape, 4);
        for (_, p) in &all {
            solver.reset();
            book.insert(p, solver.solve(p, false));
        }
        // Every game of four moves, wins to take among them.
        let mut games = Vec::new();
        for code in 0..5usize.pow(4) {
            let mut p = Position::new(shape);
            for k in 0..4 {
                let c = code / 5usize.pow(k) % 5;
                if p.can_play(c) && !p.is_winning_move(c) {
                    p.play_column(c);
                }
            }
            games.push(p);
        }
        let mut wins = 0;
        for p in &games {
            if p.can_win_next() {
                wins += 1;
                // Answered at once, not from the entries.
                let mut empty = Book::new(shape, 4, false);
                empty.insert(&Position::new(shape), 0);
                solver.reset();
                assert_eq!(empty.score(p), Some(solver.solve(p, false)), "{p:?}");
            }
        }
        for (_, p) in &all {
            if p.moves() < 4 {
                let (_, score) = book.best(p).unwrap();
                solver.reset();
                assert_eq!(score, solver.solve(p, false), "{p:?}");
            }
        }
        assert!(wins > 0);
    }

    #[test]
    fn a_book_reads_back_and_answers_like_the_solver() {
        let shape = Shape {
            width: 5,
            height: 4,
            z: 3,
        };
        let mut solver = Solver::with_table_mb(2);
        for weak in [false, true] {
            let mut book = Book::new(shape, 3, weak);
            for (_, p) in positions(shape, 3) {
                solver.reset();
                book.insert(&p, solver.solve(&p, weak));
            }
            let text = book.to_text();
            let back = Book::parse(&text).unwrap();
            assert_eq!(back, book);
            // Every position of two moves: the book's best move scores what
            // the solver says the position is worth.
            for (_, p) in positions(shape, 2) {
                let (column, score) = back.best(&p).unwrap();
                solver.reset();
                assert_eq!(score, solver.solve(&p, weak), "{p:?}");
                let mut child = p;
                child.play_column(column);
                if !p.is_winning_move(column) {
                    solver.reset();
                    assert_eq!(-solver.solve(&child, weak), score);
                }
                // Mirror images are found too.
                assert_eq!(back.score(&p.mirrored()), back.score(&p));
            }
            // Cut short: the last line is dropped, not an error, and not
            // read as a shorter score.
            for cut in [1, 2] {
                let cut = &text[..text.len() - cut];
                assert_eq!(Book::parse(cut).unwrap().len(), book.len() - 1);
            }
        }
        assert!(matches!(Book::parse("hello\n"), Err(BookError::Header(_))));
        assert!(matches!(
            Book::parse(&format!("{}\n9 1\n1 1\n", header(shape, 1, true))),
            Err(BookError::Entry { line: 2, .. })
        ));
    }
}
