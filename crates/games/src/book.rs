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

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, OnceLock};

use crate::solver::{Pos, Position, PositionError, Shape, Word, winning_columns_in};

/// An opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    shape: Shape,
    depth: usize,
    weak: bool,
    scores: Scores,
}

/// A book's scores by the positions' symmetric keys. A key below 2^64
/// (every key of a frame of at most 64 bits, 7 x 6 among them) is kept in
/// a map of 16-byte slots, any other in one of 32: on 7 x 6, half the
/// memory of one map for every key. A packed book of a frame of at most 56
/// bits (7 x 6 among them) is read into `sorted` instead: each entry its
/// key shifted left a byte and its score in that byte, in order, 8 bytes an
/// entry and found by a binary search. Filling it is a sort, where inserts
/// into a map of a million keys each wait on memory.
#[derive(Clone, Debug, Default)]
struct Scores {
    narrow: HashMap<u64, i32, KeyHash>,
    wide: HashMap<u128, i32, KeyHash>,
    sorted: Vec<u64>,
}

/// Bits of a key [`Scores::sorted`] takes.
const SORTED_BITS: usize = 56;

impl Scores {
    fn insert(&mut self, key: u128, score: i32) {
        if let Some(i) = self.sorted_index(key) {
            if let Ok(byte) = i8::try_from(score) {
                self.sorted[i] = (key as u64) << 8 | u64::from(byte as u8);
                return;
            }
            self.sorted.remove(i);
        }
        match u64::try_from(key) {
            Ok(key) => self.narrow.insert(key, score),
            Err(_) => self.wide.insert(key, score),
        };
    }

    /// Where `key` is in `sorted`.
    fn sorted_index(&self, key: u128) -> Option<usize> {
        if self.sorted.is_empty() || key >> SORTED_BITS != 0 {
            return None;
        }
        let key = key as u64;
        let i = self.sorted.partition_point(|&e| e >> 8 < key);
        (self.sorted.get(i).is_some_and(|&e| e >> 8 == key)).then_some(i)
    }

    fn get(&self, key: u128) -> Option<i32> {
        if let Some(i) = self.sorted_index(key) {
            return Some(i32::from(self.sorted[i] as u8 as i8));
        }
        match u64::try_from(key) {
            Ok(key) => self.narrow.get(&key),
            Err(_) => self.wide.get(&key),
        }
        .copied()
    }

    fn contains(&self, key: u128) -> bool {
        self.get(key).is_some()
    }

    fn len(&self) -> usize {
        self.narrow.len() + self.wide.len() + self.sorted.len()
    }

    /// Every entry, in no particular order.
    fn entries(&self) -> impl Iterator<Item = (u128, i32)> + '_ {
        let sorted = self
            .sorted
            .iter()
            .map(|&e| (u128::from(e >> 8), i32::from(e as u8 as i8)));
        let narrow = self.narrow.iter().map(|(&k, &s)| (u128::from(k), s));
        let wide = self.wide.iter().map(|(&k, &s)| (k, s));
        sorted.chain(narrow).chain(wide)
    }

    /// Room for `more` keys of frame `shape`.
    fn reserve(&mut self, shape: Shape, more: usize) {
        if shape.fits_64() {
            self.narrow.reserve(more);
        } else {
            self.wide.reserve(more);
        }
    }
}

/// Two books' scores are equal when they hold the same keys with the same
/// scores, however each keeps them.
impl PartialEq for Scores {
    fn eq(&self, other: &Scores) -> bool {
        self.len() == other.len() && self.entries().all(|(k, s)| other.get(k) == Some(s))
    }
}

impl Eq for Scores {}

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

/// The positions of the first `depth` moves, each met once (one of each
/// mirror pair, the first the walk meets), in order of depth: each node
/// the position's counters, its parent's index and the column played from
/// there. The book holds those of `held`: the ones whose side to move
/// cannot complete a run at once. Moves are kept as the path to the root,
/// not as text: reading the shipped book builds none (it took three
/// quarters of the time to read it). A node is a position's counters and
/// its way back, not a whole [`Position`], which carries its frame's masks
/// (with whole positions, reading the depth-9 book peaked at 154 MB;
/// `tests/memory.rs` bounds it now).
///
/// The walk is on the narrowest word that holds the frame (`W`): on 7 x 6,
/// 64-bit words, whose play, mirror and run detection take a fraction of
/// the work of 128-bit ones, and nodes of 24 bytes instead of 40.
struct PositionWalk<W> {
    /// The empty frame, for the positions of [`PositionWalk::position`].
    root: Position,
    nodes: Vec<Node<W>>,
    /// The nodes of the positions the book holds (those of the last level
    /// only with [`Leaves::Kept`]).
    held: Vec<u32>,
    /// The positions the book holds that the walk met.
    met: usize,
}

/// Whether a [`PositionWalk`] keeps the positions of its last level as
/// nodes (to name them, or check their scores) or only meets them: the
/// walk of the shipped book, whose last level is most of its positions,
/// then holds a key for each, not a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaves {
    Kept,
    Met,
}

/// A position of a [`PositionWalk`]: its counters (the side to move's and
/// all), where the walk came from (the node of its parent, `u32::MAX` for
/// the root) and the column played: 24 bytes on 64-bit words; on 128-bit
/// ones, packed to an alignment of 8, 40 instead of 48 (its fields are only
/// read by value).
#[repr(C, packed(8))]
struct Node<W> {
    current: W,
    mask: W,
    parent: u32,
    column: u8,
}

impl<W: Word> PositionWalk<W> {
    /// The walk, or `None` as soon as the book would hold more than `most`
    /// (a packed book's header cannot make its reader enumerate without
    /// end). `held` is given each held position's symmetric key in the
    /// order of the book's entries (that of [`PositionWalk::held`], which
    /// with [`Leaves::Met`] lacks the last level).
    fn new(
        shape: Shape,
        depth: usize,
        most: usize,
        leaves: Leaves,
        mut held: impl FnMut(W),
    ) -> Option<PositionWalk<W>> {
        let g = shape.geometry::<W>();
        let mirror = g.mirror_by_swaps();
        // Positions of different depths have different numbers of
        // counters, so two meet only within a level: the set of keys seen
        // is a level's.
        let mut seen: HashSet<W, KeyHash> = HashSet::default();
        let mut walk = PositionWalk {
            root: Position::new(shape),
            nodes: vec![Node {
                current: W::ZERO,
                mask: W::ZERO,
                parent: u32::MAX,
                column: 0,
            }],
            held: Vec::new(),
            met: 0,
        };
        // Held positions of the last level, when they are not kept as
        // nodes: their keys, given to `held` once the level before is.
        let mut last: Vec<W> = Vec::new();
        let mut level = 0..1;
        for d in 0..=depth {
            if level.is_empty() {
                break;
            }
            seen.clear();
            // The children are the last level, met rather than kept.
            let meet_children = leaves == Leaves::Met && d + 1 == depth;
            for i in level.clone() {
                let node = &walk.nodes[i];
                let p = Pos {
                    current: node.current,
                    mask: node.mask,
                    moves: d as i32,
                };
                // The mirror image, played into as the position is (column
                // c there is width - 1 - c here): a mirror a position, not
                // one a child.
                let mirrored = Pos {
                    current: mirror.apply(p.current),
                    mask: mirror.apply(p.mask),
                    moves: p.moves,
                };
                let wins = winning_columns_in(&g, &p);
                if wins == 0 {
                    if walk.met == most {
                        return None;
                    }
                    walk.met += 1;
                    walk.held.push(i as u32);
                    held(p.key().min(mirrored.key()));
                }
                if d == depth || d == shape.cells() as usize {
                    continue;
                }
                let possible = p.possible(&g);
                let possible_mirrored = mirrored.possible(&g);
                for c in 0..shape.width {
                    let bit = possible & g.column(c);
                    if bit != W::ZERO && wins >> c & 1 == 0 {
                        let child = p.play(bit);
                        let across = possible_mirrored & g.column(shape.width - 1 - c);
                        let key = child.key().min(mirrored.play(across).key());
                        if !seen.insert(key) {
                            continue;
                        }
                        if meet_children {
                            if winning_columns_in(&g, &child) == 0 {
                                if last.len() == most - walk.met {
                                    return None;
                                }
                                last.push(key);
                            }
                        } else {
                            walk.nodes.push(Node {
                                current: child.current,
                                mask: child.mask,
                                parent: i as u32,
                                column: c as u8,
                            });
                        }
                    }
                }
                if walk.nodes.len() - level.end > most.saturating_mul(shape.width) {
                    return None;
                }
            }
            level = level.end..walk.nodes.len();
            walk.met += last.len();
            last.drain(..).for_each(&mut held);
        }
        // The vectors grew by doubling: up to half of each is room never
        // used, which the book's map would sit beside.
        walk.nodes.shrink_to_fit();
        walk.held.shrink_to_fit();
        Some(walk)
    }

    /// The position of node `i`.
    fn position(&self, i: u32) -> Position {
        let node = &self.nodes[i as usize];
        self.root
            .with_counters(node.current.to_u128(), node.mask.to_u128())
    }

    /// The moves of node `i`, as `cz solve` reads them.
    fn moves(&self, mut i: u32) -> String {
        let mut columns = Vec::new();
        while i != u32::MAX {
            let node = &self.nodes[i as usize];
            if node.parent != u32::MAX {
                columns.push(usize::from(node.column));
            }
            i = node.parent;
        }
        columns.reverse();
        Position::moves_text(&columns)
    }
}

/// Hashes the solver's position keys: a multiply and shifts (SplitMix64's
/// finaliser), several times quicker than the standard library's SipHash,
/// whose work was a third of reading the shipped book. The keys are the
/// positions' own, which no input chooses beyond the positions it names.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHash;

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

/// [`KeyHash`]'s hasher.
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = mix(self.0 ^ key);
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = mix(self.0 ^ key as u64 ^ ((key >> 64) as u64).rotate_left(32));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// SplitMix64's finaliser: every bit of `z` moves every bit of the result.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The packed form's first bytes: a name and the version.
const MAGIC: &[u8; 8] = b"CZBOOK\x001";

/// The packed form's header: the magic, six little-endian u32s (width,
/// height, connect, depth, weak, entries) and the checksum (u64).
#[cfg(test)]
const HEADER_BYTES: usize = 8 + 6 * 4 + 8;

/// FNV-1a, 64 bits: the packed form's checksum of its header's numbers and
/// its scores.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A packed file (the book's and the plan's form): `magic` (a name, a 0
/// byte and the version), `numbers` as little-endian u32s, an FNV-1a
/// checksum (u64) of the numbers' bytes and the payload, then the payload.
pub(crate) fn pack(magic: &[u8; 8], numbers: &[usize], payload: &[u8]) -> Vec<u8> {
    let mut body = Vec::with_capacity(4 * numbers.len() + payload.len());
    for &n in numbers {
        body.extend_from_slice(&(n as u32).to_le_bytes());
    }
    body.extend_from_slice(payload);
    let mut out = magic.to_vec();
    out.extend_from_slice(&body[..4 * numbers.len()]);
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The `N` numbers and the payload of a packed file of `magic`, whose
/// payload is as long as `bytes_of` says the numbers make it (with `what`
/// said to be as many as the last number) and whose checksum holds.
pub(crate) fn unpack<'a, const N: usize>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    what: &str,
    bytes_of: impl Fn(usize) -> usize,
) -> Result<([usize; N], &'a [u8]), BookError> {
    let bad = |why: String| BookError::Packed(why);
    let head = 8 + 4 * N + 8;
    if bytes.len() < head || &bytes[..8] != magic {
        return Err(bad(format!(
            "it does not start with {} and version {}",
            String::from_utf8_lossy(&magic[..6]),
            magic[7] as char
        )));
    }
    let numbers: [usize; N] = std::array::from_fn(|i| {
        let at = 8 + 4 * i;
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
    });
    let payload = &bytes[head..];
    let count = numbers[N - 1];
    if payload.len() != bytes_of(count) {
        return Err(bad(format!(
            "it says {count} {what} and holds {} bytes of them",
            payload.len()
        )));
    }
    let mut sum = bytes[8..8 + 4 * N].to_vec();
    sum.extend_from_slice(payload);
    let stored = u64::from_le_bytes(bytes[8 + 4 * N..head].try_into().expect("eight bytes"));
    if checksum(&sum) != stored {
        return Err(bad("its checksum does not match its bytes".to_string()));
    }
    Ok((numbers, payload))
}

/// The scores `p` can have (with `weak`, its signs): 0 on a full frame,
/// else from losing to the opponent's next counter to winning with the
/// side to move's next counter but one (r[solve.score]).
pub(crate) fn score_range(p: &Position, weak: bool) -> (i32, i32) {
    let shape = p.shape();
    if p.moves() >= shape.cells() {
        (0, 0)
    } else if weak {
        (-1, 1)
    } else {
        (
            (-shape.win_score(p.moves() + 1)).min(0),
            shape.win_score(p.moves() + 2).max(0),
        )
    }
}

/// The frame of a packed file's first three numbers, if the solver takes
/// it.
pub(crate) fn packed_shape(width: usize, height: usize, z: usize) -> Result<Shape, BookError> {
    let shape = Shape { width, height, z };
    if width == 0 || height == 0 || z == 0 || !shape.fits() {
        return Err(BookError::Packed(format!(
            "its frame, {width} x {height} with runs of {z}, is not one the solver takes"
        )));
    }
    Ok(shape)
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

    /// The packed form (what `cz book --pack` writes and the shipped book
    /// is): the header (see [`Book::from_packed`]), then every position of
    /// [`positions`], in that order, as its score, one signed byte each.
    /// Symmetric positions are there once, and the positions themselves
    /// not at all: the reader enumerates them again.
    ///
    /// # Errors
    /// [`BookError::Incomplete`]: the book lacks a position of its depth.
    pub fn to_packed(&self) -> Result<Vec<u8>, BookError> {
        let all = positions(self.shape, self.depth);
        let mut scores = Vec::with_capacity(all.len());
        let mut missing = all
            .iter()
            .filter(|(_, p)| !self.scores.contains(p.symmetric_key()));
        if let Some((moves, _)) = missing.next() {
            return Err(BookError::Incomplete {
                moves: moves.clone(),
                missing: 1 + missing.count(),
            });
        }
        for (moves, p) in &all {
            let score = self
                .scores
                .get(p.symmetric_key())
                .expect("every position is held");
            scores.push(i8::try_from(score).map_err(|_| BookError::Inconsistent {
                moves: moves.clone(),
                stored: score,
                children: None,
            })? as u8);
        }
        let numbers = [
            self.shape.width,
            self.shape.height,
            self.shape.z,
            self.depth,
            usize::from(self.weak),
            all.len(),
        ];
        Ok(pack(MAGIC, &numbers, &scores))
    }

    /// Reads the packed form: the 8 bytes `CZBOOK`, 0, `1` (the version);
    /// the width, height, connect, depth, 1 for signs only (else 0) and the
    /// number of entries, each a little-endian u32; an FNV-1a checksum
    /// (u64) of those numbers' bytes and the scores; then the scores, one
    /// signed byte for each position of [`positions`], in order.
    ///
    /// Nothing is taken on trust: the frame must fit the solver, the
    /// entries must be as many as the positions of that depth (counted
    /// without enumerating more), the checksum must hold, each score must
    /// be one the position's moves allow, and each position short of the
    /// depth must score the best of its children (negamax), so a book made
    /// wrongly is refused as well as one altered since.
    ///
    /// # Errors
    /// [`BookError::Packed`] or [`BookError::Inconsistent`].
    pub fn from_packed(bytes: &[u8]) -> Result<Book, BookError> {
        Book::unpacked(bytes, true)
    }

    /// The book packed in `bytes`, whole and as written (its frame, depth,
    /// entries and checksum), but its scores not checked against their
    /// children: for the shipped book, whose bytes the tests read with
    /// [`Book::from_packed`] (the check is four tenths of the read).
    fn from_shipped(bytes: &[u8]) -> Result<Book, BookError> {
        Book::unpacked(bytes, false)
    }

    /// The entries of a packed book, each score checked against its
    /// children when `check` says so.
    fn unpacked(bytes: &[u8], check: bool) -> Result<Book, BookError> {
        // The checksum is read before the numbers are trusted; there are
        // as many scores as the header's entries.
        let ([width, height, z, depth, weak, _entries], scores) =
            unpack::<6>(bytes, MAGIC, "entries", |entries| entries)?;
        let shape = packed_shape(width, height, z)?;
        if weak > 1 {
            return Err(BookError::Packed(
                "its kind of score is neither exact nor signs".to_string(),
            ));
        }
        let mut book = Book::new(shape, depth, weak == 1);
        if shape.fits_64() {
            book.read::<u64>(scores, check)?;
        } else {
            book.read::<u128>(scores, check)?;
        }
        Ok(book)
    }

    /// Fills an empty book with `scores`, one for each position of its
    /// walk on words `W`, in order.
    fn read<W: Word>(&mut self, scores: &[u8], check: bool) -> Result<(), BookError> {
        let count = scores.len();
        let sorted = self.shape.bits().is_some_and(|b| b <= SORTED_BITS);
        let mut next = scores.iter();
        let table = &mut self.scores;
        if sorted {
            table.sorted.reserve_exact(count);
        } else {
            table.reserve(self.shape, count);
        }
        // Checking the scores needs every position; reading the shipped
        // book, only their keys.
        let leaves = if check { Leaves::Kept } else { Leaves::Met };
        let walk = PositionWalk::<W>::new(self.shape, self.depth, count, leaves, |key| {
            if let Some(&score) = next.next() {
                if sorted {
                    table
                        .sorted
                        .push((key.to_u128() as u64) << 8 | u64::from(score));
                } else {
                    table.insert(key.to_u128(), i32::from(score as i8));
                }
            }
        })
        .filter(|walk| walk.met == count)
        .ok_or_else(|| {
            BookError::Packed(format!(
                "{count} entries are not the number of positions of depth {}",
                self.depth
            ))
        })?;
        // The walk meets each position once, so no two entries share a
        // key, and sorting the entries sorts them by key, whatever their
        // scores.
        self.scores.sorted.sort_unstable();
        if check {
            self.check(&walk)?;
        }
        Ok(())
    }

    /// Every score in its range, and every position short of the depth the
    /// best of its children (r[solve.book]).
    fn check<W: Word>(&self, walk: &PositionWalk<W>) -> Result<(), BookError> {
        for &i in &walk.held {
            let p = &walk.position(i);
            let stored = self
                .scores
                .get(p.symmetric_key())
                .expect("the walk's positions are the book's");
            let cells = self.shape.cells();
            let (low, high) = score_range(p, self.weak);
            if stored < low || stored > high {
                return Err(BookError::Inconsistent {
                    moves: walk.moves(i),
                    stored,
                    children: None,
                });
            }
            if (p.moves() as usize) < self.depth && p.moves() < cells {
                let children = self.best(p).map(|(_, s)| s);
                if children != Some(stored) {
                    return Err(BookError::Inconsistent {
                        moves: walk.moves(i),
                        stored,
                        children,
                    });
                }
            }
        }
        Ok(())
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
            Book::from_shipped(include_bytes!("../book/7x6.czb"))
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

/// The depth of the shipped book.
pub const CLASSIC_DEPTH: usize = 10;

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

    /// r[solve.bound]: one move past an exact book, the floor from the
    /// parents it holds is at most the score, the score itself for some
    /// positions, and a search given it finds the solver's score without
    /// the book in fewer nodes; past that, and from a weak book, no floor.
    #[test]
    fn a_floor_from_the_parents_is_sound_and_spares_nodes() {
        let shape = Shape {
            width: 5,
            height: 4,
            z: 3,
        };
        let depth = 3;
        let book = Arc::new(whole(shape, depth, false));
        let mut without = Solver::with_table_mb(2).without_book();
        let mut with = Solver::with_table_mb(2).with_book(Arc::clone(&book));
        let (mut tight, mut floors) = (0, 0);
        for (_, p) in positions(shape, depth + 1) {
            if p.moves() as usize != depth + 1 || p.can_win_next() {
                continue;
            }
            without.reset();
            let score = without.solve(&p, false);
            let floor = book.floor(&p).expect("a parent in the book");
            assert!(floor <= score, "{p:?}: {floor} > {score}");
            floors += 1;
            tight += usize::from(floor == score);
            with.reset();
            assert_eq!(with.solve(&p, false), score, "{p:?}");
            // Deeper, no parent is in the book.
            for c in (0..shape.width).filter(|&c| p.can_play(c) && !p.is_winning_move(c)) {
                let mut child = p;
                child.play_column(c);
                assert_eq!(book.floor(&child), None);
            }
        }
        assert!(
            floors > 100 && tight > 0 && tight < floors,
            "{tight} of {floors}"
        );
        assert!(
            with.nodes() < without.nodes(),
            "{} >= {}",
            with.nodes(),
            without.nodes()
        );
        let weak = whole(shape, depth, true);
        let (_, p) = positions(shape, depth + 1).pop().unwrap();
        assert_eq!(weak.floor(&p), None);
    }

    /// A whole exact book of a small frame, made as `cz book` makes it:
    /// the deepest positions solved, the rest from their children.
    fn whole(shape: Shape, depth: usize, weak: bool) -> Book {
        let mut solver = Solver::with_table_mb(2).without_book();
        let mut book = Book::new(shape, depth, weak);
        let all = positions(shape, depth);
        for (_, p) in all.iter().rev() {
            let score = if p.moves() as usize == depth {
                solver.solve(p, weak)
            } else {
                book.best(p).unwrap().1
            };
            book.insert(p, score);
        }
        book
    }

    /// r[solve.book]: packed and read back, a book is the same book, each
    /// position's score the solver's, one byte a position after the header.
    #[test]
    fn a_packed_book_reads_back_as_the_solver_scores() {
        let shape = Shape {
            width: 5,
            height: 4,
            z: 3,
        };
        let mut solver = Solver::with_table_mb(2).without_book();
        for weak in [false, true] {
            let book = whole(shape, 4, weak);
            let packed = book.to_packed().unwrap();
            let all = positions(shape, 4);
            assert_eq!(packed.len(), HEADER_BYTES + all.len());
            let back = Book::from_packed(&packed).unwrap();
            assert_eq!(back, book);
            for (moves, p) in &all {
                solver.reset();
                assert_eq!(back.score(p), Some(solver.solve(p, weak)), "{moves}");
            }
            // A solver given the book answers from it, with no node.
            let mut reader = Solver::with_table_mb(2).with_book(Arc::new(back));
            for (moves, p) in &all {
                reader.reset();
                let want = book.score(p).unwrap();
                assert_eq!(
                    reader.solve(p, weak),
                    if weak { want.signum() } else { want }
                );
                assert_eq!(reader.nodes(), 0, "{moves}");
            }
        }
    }

    /// The walk on 64-bit words meets the positions the walk on 128-bit
    /// words meets, in the same order, with the same keys; and a packed
    /// book is read into the sorted entries on frames of at most 56 bits
    /// and into the maps past them, the same book either way. Frames just
    /// below, at and above 56 and 64 bits.
    #[test]
    fn each_frame_is_walked_and_kept_on_the_words_that_hold_it() {
        for (width, height, z, depth, bits) in [
            (5, 10, 3, 3, 55),
            (7, 7, 3, 3, 56),
            (8, 6, 3, 3, 56),
            (3, 18, 2, 3, 57),
            (9, 6, 3, 2, 63),
            (8, 7, 3, 2, 64),
            (13, 4, 3, 2, 65),
        ] {
            let shape = Shape { width, height, z };
            assert_eq!(shape.bits(), Some(bits));
            if shape.fits_64() {
                let mut narrow_keys = Vec::new();
                let narrow =
                    PositionWalk::<u64>::new(shape, depth, usize::MAX, Leaves::Kept, |k| {
                        narrow_keys.push(u128::from(k))
                    })
                    .unwrap();
                let mut wide_keys = Vec::new();
                let wide = PositionWalk::<u128>::new(shape, depth, usize::MAX, Leaves::Kept, |k| {
                    wide_keys.push(k)
                })
                .unwrap();
                assert_eq!(narrow_keys, wide_keys, "{width} x {height}");
                assert_eq!(narrow.held, wide.held, "{width} x {height}");
                for (&i, &key) in wide.held.iter().zip(&wide_keys) {
                    assert_eq!(narrow.position(i), wide.position(i));
                    assert_eq!(narrow.moves(i), wide.moves(i));
                    assert_eq!(wide.position(i).symmetric_key(), key);
                }
            }
            // Met, not kept: the last level's positions are given on in the
            // same order, and none of them stays a node.
            let walk = |leaves| {
                let mut keys = Vec::new();
                let walk =
                    PositionWalk::<u128>::new(shape, depth, usize::MAX, leaves, |k| keys.push(k))
                        .unwrap();
                (keys, walk)
            };
            let ((kept_keys, kept), (met_keys, met)) = (walk(Leaves::Kept), walk(Leaves::Met));
            assert_eq!(met_keys, kept_keys);
            assert_eq!(met.met, kept.held.len());
            let deepest =
                |w: &PositionWalk<u128>| w.nodes.iter().map(|n| ({ n.mask }).ones()).max().unwrap();
            assert_eq!(
                (deepest(&kept), deepest(&met)),
                (depth as u32, depth as u32 - 1)
            );
            let book = whole(shape, depth, false);
            let packed = book.to_packed().unwrap();
            let mut back = Book::from_packed(&packed).unwrap();
            assert_eq!(back, book, "{width} x {height}");
            // Read as the shipped book is (its last level met, not kept).
            assert_eq!(Book::from_shipped(&packed).unwrap(), book);
            // A header that says one entry fewer is refused that way too,
            // the walk stopping at the entry too many.
            let scores = &packed[HEADER_BYTES..];
            let fewer = [width, height, z, depth, 0, scores.len() - 1];
            let short = pack(MAGIC, &fewer, &scores[..scores.len() - 1]);
            assert!(Book::from_shipped(&short).is_err());
            assert_eq!(
                back.scores.sorted.len(),
                if bits <= 56 { book.len() } else { 0 }
            );
            // A key past the sorted entries' 56 bits is not one of them,
            // whatever its low bits.
            if let Some(&entry) = back.scores.sorted.first() {
                let key = u128::from(entry >> 8);
                assert!(back.scores.get(key).is_some());
                for past in [SORTED_BITS, 64, 100] {
                    assert_eq!(back.scores.get(key | 1 << past), None);
                }
            }
            for (moves, p) in positions(shape, depth) {
                assert_eq!(
                    back.score(&p),
                    book.score(&p),
                    "{width} x {height}: {moves}"
                );
            }
            // Replacing a score keeps one entry for the position, in the
            // sorted entries while the score fits their byte.
            let (_, last) = positions(shape, depth).pop().unwrap();
            for score in [3, 1000, -2] {
                back.insert(&last, score);
                assert_eq!(back.score(&last), Some(score));
                assert_eq!(back.len(), book.len());
            }
            assert_ne!(back, book);
        }
    }

    /// A whole book whose header says a depth past the frame's last move
    /// (every position of the frame; here u32::MAX) is read once the
    /// positions run out, not a level at a time to the depth it says.
    #[test]
    fn a_book_deeper_than_its_frame_is_read_to_its_last_position() {
        let shape = Shape {
            width: 3,
            height: 3,
            z: 3,
        };
        let book = whole(shape, 9, false);
        let scores: Vec<u8> = positions(shape, 9)
            .iter()
            .map(|(_, p)| book.score(p).unwrap() as i8 as u8)
            .collect();
        let numbers = [3, 3, 3, u32::MAX as usize, 0, scores.len()];
        let back = Book::from_packed(&pack(MAGIC, &numbers, &scores)).unwrap();
        assert_eq!(back.depth(), u32::MAX as usize);
        assert_eq!(back.len(), book.len());
        assert_eq!(positions(shape, 1_000_000).len(), book.len());
    }

    /// A frame of more than 64 bits: keys below 2^64 and above it are kept
    /// apart and both counted, found and packed (33 x 1, where no run fits,
    /// so every score is a draw: a position with counters in both end
    /// columns has a key, and a mirror image's, of 65 bits or more).
    #[test]
    fn keys_past_64_bits_are_kept_and_counted() {
        let shape = Shape {
            width: 33,
            height: 1,
            z: 34,
        };
        assert!(!shape.fits_64());
        let book = whole(shape, 2, false);
        let all = positions(shape, 2);
        assert_eq!(book.len(), all.len());
        assert!(!book.scores.wide.is_empty() && !book.scores.narrow.is_empty());
        let ends = Position::from_moves(shape, "1x").unwrap();
        assert!(ends.symmetric_key() >> 64 != 0);
        assert!(book.contains(&ends));
        assert_eq!(book.score(&ends), Some(0));
        let back = Book::from_packed(&book.to_packed().unwrap()).unwrap();
        assert_eq!(back, book);
    }

    /// Every position's winning columns are the columns whose move wins,
    /// on random positions of several frames and run lengths.
    #[test]
    fn winning_columns_are_the_winning_moves() {
        let mut state = 7u64;
        let mut below = |n: usize| {
            state = mix(state);
            (state % n as u64) as usize
        };
        let mut wins = 0;
        for (width, height, z) in [(7, 6, 4), (5, 4, 3), (9, 7, 5), (3, 10, 2)] {
            let shape = Shape { width, height, z };
            for _ in 0..200 {
                let mut p = Position::new(shape);
                for _ in 0..below(shape.cells() as usize) {
                    let open: Vec<usize> = (0..width)
                        .filter(|&c| p.can_play(c) && !p.is_winning_move(c))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    p.play_column(open[below(open.len())]);
                }
                let want = (0..width)
                    .filter(|&c| p.can_play(c) && p.is_winning_move(c))
                    .fold(0u64, |bits, c| bits | 1 << c);
                assert_eq!(p.winning_columns(), want, "{width}x{height}");
                assert_eq!(p.can_win_next(), want != 0);
                wins += usize::from(want != 0);
            }
        }
        // Some positions have a win to take (else nothing was checked).
        assert!(wins > 50, "{wins}");
    }

    /// r[solve.book]: a packed book altered anywhere, cut short, of a
    /// header that would make its reader enumerate without end, or made
    /// wrongly (a score that is not the best of its children's, with a
    /// checksum that holds) is refused, and says why.
    #[test]
    fn a_corrupt_packed_book_is_refused() {
        let shape = Shape {
            width: 5,
            height: 4,
            z: 3,
        };
        let book = whole(shape, 3, false);
        let packed = book.to_packed().unwrap();
        let refused = |bytes: &[u8]| match Book::from_packed(bytes) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted"),
        };
        // Every single bit flipped anywhere.
        for at in 0..packed.len() {
            for bit in 0..8 {
                let mut bad = packed.clone();
                bad[at] ^= 1 << bit;
                refused(&bad);
            }
        }
        // Cut short, or with a byte more.
        for len in 0..packed.len() {
            refused(&packed[..len]);
        }
        let mut longer = packed.clone();
        longer.push(0);
        assert!(refused(&longer).contains("holds"));
        // A header that asks for depth 40 of 7 x 6 with as many entries as
        // bytes follow: refused by counting, without enumerating them all.
        let mut deep = MAGIC.to_vec();
        let numbers = [7u32, 6, 4, 40, 0, 1000];
        let mut body: Vec<u8> = numbers.iter().flat_map(|n| n.to_le_bytes()).collect();
        body.extend(std::iter::repeat_n(0u8, 1000));
        deep.extend_from_slice(&body[..24]);
        deep.extend_from_slice(&checksum(&body).to_le_bytes());
        deep.extend_from_slice(&body[24..]);
        assert!(refused(&deep).contains("not the number of positions"));
        // Made wrongly: the empty frame's score one off, checksum right.
        let mut wrong = book.clone();
        let empty = Position::new(shape);
        wrong.insert(&empty, book.score(&empty).unwrap() + 1);
        let why = refused(&wrong.to_packed().unwrap());
        assert!(why.contains("position . scores"), "{why}");
        assert!(why.contains("children make it"), "{why}");
        // A leaf out of its range, checksum right.
        let mut wide = book.clone();
        let (moves, leaf) = positions(shape, 3).pop().unwrap();
        wide.insert(&leaf, 100);
        let why = refused(&wide.to_packed().unwrap());
        assert!(why.contains("more than its moves allow"), "{why}");
        assert!(why.contains(&format!("position {moves} ")), "{why}");
        // Another frame's book is another frame's: never asked of this one.
        let other = Book::from_packed(&packed).unwrap();
        assert_eq!(other.score(&Position::new(Shape::CLASSIC)), None);
        // Not whole: not packed.
        let mut part = Book::new(shape, 3, false);
        part.insert(&empty, 0);
        assert!(matches!(
            part.to_packed(),
            Err(BookError::Incomplete { .. })
        ));
    }
}
