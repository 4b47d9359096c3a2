//! The packed form of a book: a header and its checksum, then a byte a
//! position, the positions themselves left out (the perfect engine's plan
//! is packed with the same header and checksum); and the checks a packed
//! book passes before it is read.

use super::scores::SORTED_BITS;
use super::walk::{Leaves, PositionWalk};
use super::{Book, BookError, positions};
use crate::solver::{Position, Shape, Word};

/// The packed form's first bytes: a name and the version.
pub(super) const MAGIC: &[u8; 8] = b"CZBOOK\x001";

/// The packed form's header: the magic, six little-endian u32s (width,
/// height, connect, depth, weak, entries) and the checksum (u64).
#[cfg(test)]
pub(super) const HEADER_BYTES: usize = 8 + 6 * 4 + 8;

/// FNV-1a, 64 bits: the packed form's checksum of its header's numbers and
/// its scores.
pub(super) fn checksum(bytes: &[u8]) -> u64 {
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
    pub(super) fn from_shipped(bytes: &[u8]) -> Result<Book, BookError> {
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
}
