//! The shipped opening book (r[solve.book]): whole, of 7 x 6, answering
//! what the reference solver answers, and consulted by every solver.

use connectz_games::book::{self, Book, CLASSIC_DEPTH};
use connectz_games::solver::{Position, Shape, Solver};

/// Every column's score of positions of four to seven moves, as Pascal Pons'
/// solver printed them (`c4solver -a`, no book; -1000 a full column), kept
/// with the command in `tests/data/c4solver-a-book.txt`.
fn reference() -> Vec<(String, Vec<Option<i32>>)> {
    let text = include_str!("data/c4solver-a-book.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            let moves = words.next().unwrap().to_string();
            let scores = words
                .map(|w| match w.parse::<i32>().unwrap() {
                    -1000 => None,
                    s => Some(s),
                })
                .collect();
            (moves, scores)
        })
        .collect()
}

#[test]
fn the_shipped_book_is_whole_and_of_7_by_6() {
    let shipped = book::classic();
    assert_eq!(shipped.shape(), Shape::CLASSIC);
    assert_eq!(shipped.depth(), CLASSIC_DEPTH);
    assert!(!shipped.weak());
    // Whole: every position of its depth, read back from its packed form
    // (which checks each score against its children's).
    let all = book::positions(Shape::CLASSIC, CLASSIC_DEPTH);
    assert_eq!(shipped.len(), all.len());
    let packed = shipped.to_packed().unwrap();
    assert_eq!(&Book::from_packed(&packed).unwrap(), &**shipped);
    // The shipped bytes pass every check of a book read from a file
    // (book::classic reads them without checking scores against children).
    let bytes = include_bytes!("../book/7x6.czb");
    assert_eq!(&packed[..], &bytes[..]);
    assert_eq!(&Book::from_packed(bytes).unwrap(), &**shipped);
    // The sizes crates/games/README.md and web/README.md give.
    assert_eq!((all.len(), packed.len()), (988_231, 988_271));
    // The empty frame: the first player wins with its last counter.
    assert_eq!(shipped.score(&Position::new(Shape::CLASSIC)), Some(1));
    // The README's example, at once.
    let mut solver = Solver::new();
    let p = Position::from_moves(Shape::CLASSIC, "44").unwrap();
    let want = [-3, -3, -2, 1, -2, -3, -3].map(Some);
    assert_eq!(solver.analyze(&p, false), want);
    assert_eq!(solver.nodes(), 0);
}

/// The book's scores of the children of positions of four to seven moves are the
/// reference's, and a solver answers them with no node searched.
#[test]
fn the_book_answers_what_the_reference_answers() {
    let cases = reference();
    assert_eq!(cases.len(), 29);
    let mut solver = Solver::new();
    for (moves, want) in &cases {
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        solver.reset();
        assert_eq!(&solver.analyze(&p, false), want, "{moves}");
        assert_eq!(solver.nodes(), 0, "{moves} was searched");
        // Every column's score is the book's own for the child.
        for (c, score) in want.iter().enumerate() {
            let mut child = p;
            child.play_column(c);
            if let Some(score) = score
                && !p.is_winning_move(c)
            {
                assert_eq!(book::classic().score(&child), Some(-score));
            }
        }
    }
}

/// The book's deepest positions are the ones solved (the rest are checked
/// against their children when it is read): one of them, at random with a
/// fixed seed, searched without the book (24 in the slow tier).
#[test]
fn a_deepest_entry_is_what_the_search_says() {
    let deepest: Vec<(String, Position)> = book::positions(Shape::CLASSIC, CLASSIC_DEPTH)
        .into_iter()
        .filter(|(_, p)| p.moves() as usize == CLASSIC_DEPTH)
        .collect();
    let mut rng = connectz_rng::Rng::new(42);
    let (moves, p) = &deepest[rng.below(deepest.len() as u64) as usize];
    let mut solver = Solver::with_table_mb(64).without_book();
    assert_eq!(
        Some(solver.solve(p, false)),
        book::classic().score(p),
        "{moves}"
    );
    assert!(solver.nodes() > 0);
}

/// r[solve.bound]: the floors spec/solve.md gives one move past the shipped
/// book, each at most the score the reference gives there.
#[test]
fn the_floors_the_spec_gives_past_the_book() {
    let classic = book::classic();
    for (moves, floor, score) in [("25777131474", 0, 0), ("36136127576", -4, -2)] {
        let p = Position::from_moves(Shape::CLASSIC, moves).unwrap();
        assert_eq!(p.moves() as usize, CLASSIC_DEPTH + 1);
        assert_eq!(classic.floor(&p), Some(floor), "{moves}");
        assert!(floor <= score);
        // Two moves past the book, no parent is in it.
        let mut child = p;
        child.play_column(3);
        assert_eq!(classic.floor(&child), None, "{moves}4");
    }
}
