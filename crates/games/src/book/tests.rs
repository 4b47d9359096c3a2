use super::packed::{HEADER_BYTES, MAGIC, checksum};
use super::scores::{SORTED_BITS, mix};
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
            let narrow = PositionWalk::<u64>::new(shape, depth, usize::MAX, Leaves::Kept, |k| {
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
