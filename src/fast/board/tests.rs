use super::*;

use connectz_rng::Rng;

use crate::fast::Storage;
use crate::game::{Game, step};
use crate::grammar::Header;

/// The arrays and the sparse maps of every lane width are stores of one
/// algorithm: on random games they must answer the same reaches from the
/// top of every column and from the cell above it, and narrow lanes must
/// saturate, never wrap.
#[test]
fn stores_agree_on_random_games() {
    let mut rng = Rng::new(42);
    let mut runs_seen = 0;
    let mut saturated = 0;
    for _ in 0..2000 {
        let (w, h) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
        let mut wide = Dense::<u32>::try_new(w, h as u32).unwrap();
        // One map indexes its columns by an array, the other by hashing.
        let mut sparse = Sparse::<u64>::new(&Nat::from(w as u64));
        // A lane of 8 bits that saturates at 3 stands in for any lane at
        // its limit: runs of 3 or more must read as "at least 3".
        let mut tiny = Sparse::<Tiny>::new(&Nat::from(u64::MAX));
        let mut player = Player::One;
        for _ in 0..w * h {
            let open: Vec<usize> = (0..w).filter(|&c| (wide.heights[c] as usize) < h).collect();
            let col = open[rng.below(open.len() as u64) as usize];
            let n = Nat::from(col as u64 + 1);
            let top = wide.heights[col] as usize;
            // The top of the column, and the cell above it, as an engine
            // asks about it.
            for (row, who) in [(top, player), (top + 1, player.other())] {
                if row >= h {
                    continue;
                }
                let (vertical, sides) = wide.beside_at(col, row, who);
                let (at, v, s) = sparse.beside_at(&n, Some(row as u64), who).unwrap();
                assert_eq!((at, v, s), (row as u64, vertical, sides));
                let (_, v, s) = tiny.beside_at(&n, Some(row as u64), who).unwrap();
                let capped = sides.map(|(b, a)| (b.min(Tiny::MAX), a.min(Tiny::MAX)));
                assert_eq!((v, s), (vertical, capped));
                saturated += usize::from(capped != sides);
                let longest = totals(sides).into_iter().fold(vertical, u64::max);
                runs_seen += u64::from(longest >= 3);
            }
            wide.place(col, player);
            sparse.place(&n, player).unwrap();
            tiny.place(&n, player).unwrap();
            player = player.other();
        }
    }
    assert!(runs_seen > 1000, "too few runs to compare: {runs_seen}");
    assert!(saturated > 100, "too few saturated runs: {saturated}");
}

/// Each store's batched hot loop is `step` move by move: on random
/// games (with columns past both edges, full columns and wins) it stops
/// at the first move that is not ordinary and leaves the same board, in
/// lanes at and below their limit.
#[test]
fn step_ordinary_is_step_move_by_move() {
    fn check<L: Lane>(rng: &mut Rng, max_z: u64) -> (usize, usize) {
        let (w, h) = (1 + rng.below(9) as usize, 1 + rng.below(9) as u32);
        let z = 1 + rng.below(max_z);
        let moves: Vec<u64> = (0..rng.below(90))
            .map(|_| match rng.below(60) {
                0 => 0,
                1 => w as u64 + 1 + rng.below(3),
                _ => 1 + rng.below(w as u64),
            })
            .collect();
        // Move by move: stop before the first move that is not ordinary.
        let mut slow = Dense::<L>::try_new(w, h).unwrap();
        let mut player = Player::One;
        let mut ordinary = moves.len();
        for (i, &c) in moves.iter().enumerate() {
            let col = c.wrapping_sub(1) as usize;
            if col >= w || slow.heights[col] == h {
                ordinary = i;
                break;
            }
            let (vertical, sides) = slow.beside_at(col, slow.heights[col] as usize, player);
            if totals(sides).into_iter().fold(vertical, u64::max) >= z {
                ordinary = i;
                break;
            }
            slow.place(col, player);
            player = player.other();
        }
        // Batched, in chunks of random sizes.
        let mut fast = Dense::<L>::try_new(w, h).unwrap();
        let done = in_chunks(rng, &moves, |m, p| fast.step_ordinary(m, p, z));
        assert_eq!(done, ordinary, "{w}x{h} z={z} {moves:?}");
        assert_eq!(fast.contents(), slow.contents(), "{w}x{h} z={z} {moves:?}");
        // The sparse map's loop, with its columns in an array and (moved
        // past 2^40) in the keyed table: the same stop, the same owners
        // and the same runs as the array's.
        let offset = 1u64 << 40;
        for shift in [0, offset] {
            let x = w as u64 + shift;
            let mut sparse = Sparse::<L>::new(&Nat::from(x));
            let shifted: Vec<u64> = moves
                .iter()
                .map(|&c| if c == 0 { 0 } else { c + shift })
                .collect();
            let limits = [x, u64::from(h), z];
            let done = in_chunks(rng, &shifted, |m, p| {
                sparse.step_ordinary(m, p, limits, usize::MAX)
            });
            assert_eq!(done, ordinary, "sparse +{shift}: {w}x{h} z={z} {moves:?}");
            for col in 0..w {
                let n = Nat::from(col as u64 + 1 + shift);
                assert_eq!(sparse.height(&n), slow.height(col));
                for row in 0..u64::from(h) {
                    assert_eq!(sparse.owner(&n, row), slow.owner(col, row));
                }
                if slow.height(col) < u64::from(h) {
                    for p in [Player::One, Player::Two] {
                        let top = slow.heights[col] as usize;
                        let (_, vertical, sides) = sparse.beside_at(&n, None, p).unwrap();
                        assert_eq!(
                            (vertical, sides),
                            slow.beside_at(col, top, p),
                            "sparse +{shift}: {w}x{h} z={z} {moves:?}"
                        );
                    }
                }
            }
        }
        (ordinary, usize::from(ordinary < moves.len()))
    }
    /// Feeds `moves` to a batched loop `play` in chunks of random sizes,
    /// the players alternating, until it stops short; returns how many
    /// it played.
    fn in_chunks(
        rng: &mut Rng,
        moves: &[u64],
        mut play: impl FnMut(&[u64], Player) -> usize,
    ) -> usize {
        let (mut done, mut player) = (0, Player::One);
        while done < moves.len() {
            let end = (done + 1 + rng.below(20) as usize).min(moves.len());
            let played = play(&moves[done..end], player);
            if played % 2 == 1 {
                player = player.other();
            }
            done += played;
            if done < end {
                break;
            }
        }
        done
    }
    let mut rng = Rng::new(77);
    let (mut played, mut stops) = (0, 0);
    for _ in 0..3000 {
        for (p, s) in [check::<u8>(&mut rng, 7), check::<Tiny>(&mut rng, 4)] {
            played += p;
            stops += s;
        }
    }
    assert!(
        played > 25_000 && stops > 4000,
        "{played} moves, {stops} stops"
    );
}

/// The game's batched hot loop, `Game::step_ordinary`, is an optimisation
/// of folding `step`: over random games on every store, `step_ordinary` in
/// chunks of random sizes plays exactly the moves that `step` reports as
/// ordinary, and leaves the same state (every owner, every height, who
/// moves, the last counter) as folding `step` over them.
#[test]
fn step_ordinary_is_step_folded_move_by_move() {
    let mut rng = Rng::new(7);
    let mut batched_moves = [0; 3];
    for round in 0..3000 {
        let (w, h) = (1 + rng.below(9), 1 + rng.below(9));
        let z = 1 + rng.below(5);
        let storage = [Storage::Auto, Storage::Sparse, Storage::Dense][round % 3];
        let header = Header {
            x: w.into(),
            y: h.into(),
            z: z.into(),
        };
        let keep = crate::board::Keep::default();
        let moves: Vec<u64> = (0..rng.below(90))
            .map(|_| match rng.below(60) {
                0 => w + 1 + rng.below(3),
                _ => 1 + rng.below(w),
            })
            .collect();
        let mut folded = Game::in_store(&header, keep, storage);
        let mut ordinary = moves.len();
        for (i, &c) in moves.iter().enumerate() {
            // Ordinary: a counter placed that wins nothing.
            let (next, _) = step(folded.clone(), &Nat::from(c));
            if next.placed() == folded.placed() || next.winning_run().is_some() {
                ordinary = i;
                break;
            }
            folded = next;
        }
        let mut batched = Game::in_store(&header, keep, storage);
        let mut done = 0;
        while done < moves.len() {
            let chunk = (1 + rng.below(20) as usize).min(moves.len() - done);
            let played = batched.step_ordinary(&moves[done..done + chunk]);
            done += played;
            if played < chunk {
                break;
            }
        }
        let context = format!("{w}x{h} z={z} {storage:?} {moves:?}");
        assert_eq!(done, ordinary, "{context}");
        batched_moves[round % 3] += done;
        assert_eq!(batched.to_move(), folded.to_move(), "{context}");
        assert_eq!(batched.placed(), folded.placed(), "{context}");
        assert_eq!(batched.last(), folded.last(), "{context}");
        for c in 1..=w {
            let c = Nat::from(c);
            assert_eq!(batched.board().height(&c), folded.board().height(&c));
            for r in 1..=h {
                assert_eq!(batched.board().owner(&c, r), folded.board().owner(&c, r));
            }
        }
        // Past the prefix both go on as `step` says.
        if let Some(c) = moves.get(ordinary) {
            let (a, x) = step(batched, &Nat::from(*c));
            let (b, y) = step(folded, &Nat::from(*c));
            assert_eq!(x, y, "{context}");
            assert_eq!(a.winning_run(), b.winning_run(), "{context}");
        }
    }
    // Every store plays long ordinary prefixes in batches.
    assert!(
        batched_moves.iter().all(|&n| n > 4_000),
        "{batched_moves:?}"
    );
}

/// A lane that saturates at 3: the saturation logic at a small scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tiny(u8);
impl Lane for Tiny {
    const MAX: u64 = 3;
    fn get(self) -> u64 {
        u64::from(self.0)
    }
    fn put(v: u64) -> Self {
        Tiny(v.min(3) as u8)
    }
}

/// The reach from the cell above a column's top does not change when the
/// top is filled (the cell below it is then the other player's, and no run
/// reaches down through it either way): every store answers for the cell
/// above the top, rows not yet committed among them, what it answers once
/// the top is filled.
#[test]
fn reach_above_the_top_is_reach_once_the_top_is_filled() {
    let mut rng = Rng::new(8);
    let mut compared = 0;
    for storage in [Storage::Auto, Storage::Sparse] {
        for _ in 0..300 {
            let (w, h) = (2 + rng.below(7), 2 + rng.below(7));
            let (x, y, z) = (Nat::from(w), Nat::from(h), Nat::from(h.max(w)));
            let mut board = Board::in_store(&x, &y, &z, storage, Keep::default());
            let mut player = Player::One;
            for _ in 0..w * h / 2 {
                for c in 1..=w {
                    let col = Nat::from(c);
                    let above = board.height(&col) + 2;
                    if above > h {
                        continue;
                    }
                    let mut after = board.clone();
                    after.place(&col, player).unwrap();
                    let opponent = player.other();
                    assert_eq!(
                        board.reach(&col, above, opponent),
                        after.reach(&col, above, opponent)
                    );
                    compared += 1;
                }
                let c = Nat::from(1 + rng.below(w));
                if board.height(&c) < h {
                    board.place(&c, player).unwrap();
                    player = player.other();
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// `occupied` is the box of every counter placed, in every store: the
/// array, the sparse map indexed by array, by hash and past 2^64, and
/// heights only.
#[test]
fn occupied_is_the_box_of_every_counter() {
    let mut rng = Rng::new(5);
    let big = Nat::from_digits(b"100000000000000000000000").unwrap();
    // Frames: narrow (array), wide (hash map), and past 2^64 (big map).
    let frames = [(9u64, None), (1 << 20, None), (0, Some(&big))];
    let mut checked = 0;
    for (w, huge) in frames {
        let x = huge.cloned().unwrap_or(Nat::from(w));
        for storage in [Storage::Auto, Storage::Sparse] {
            for _ in 0..200 {
                let (y, z) = (Nat::from(6), Nat::from(4));
                let mut board = Board::in_store(&x, &y, &z, storage, Keep::default());
                let mut heights_only = board.clone();
                heights_only.keep_heights_only();
                assert_eq!(board.occupied(), None);
                let mut expected: Option<(Nat, Nat, u64)> = None;
                for _ in 0..rng.below(20) {
                    // Near column 1, near the right edge, or in between.
                    let c = match (rng.below(3), huge) {
                        (0, _) => Nat::from(1 + rng.below(4)),
                        (1, Some(b)) => b.checked_sub_u64(rng.below(4)).unwrap(),
                        (1, None) => Nat::from(w - rng.below(4.min(w))),
                        (_, _) => Nat::from(1 + rng.below(w.max(1 << 30) / 2)),
                    };
                    let c = if c > x { x.clone() } else { c };
                    if board.height(&c) >= 6 {
                        continue;
                    }
                    board.place(&c, Player::One).unwrap();
                    let row = board.height(&c);
                    heights_only.place(&c, Player::One).unwrap();
                    expected = Some(match expected {
                        None => (c.clone(), c.clone(), row),
                        Some((lo, hi, top)) => (
                            if c < lo { c.clone() } else { lo },
                            if c > hi { c.clone() } else { hi },
                            top.max(row),
                        ),
                    });
                }
                assert_eq!(board.occupied(), expected, "{}", board.store_kind().0);
                assert_eq!(heights_only.occupied(), expected);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 1200);
}

#[test]
fn lanes_hold_the_longest_run_that_matters() {
    let n = |v: u64| Nat::from(v);
    assert_eq!(lane_bits(&n(7), &n(4)), 8);
    assert_eq!(lane_bits(&n(1000), &n(256)), 8);
    assert_eq!(lane_bits(&n(1000), &n(257)), 16);
    assert_eq!(lane_bits(&n(255), &n(100_000)), 8);
    assert_eq!(lane_bits(&n(256), &n(100_000)), 16);
    assert_eq!(lane_bits(&n(2), &n(65536)), 8);
    assert_eq!(lane_bits(&n(70_000), &n(65536)), 16);
    assert_eq!(lane_bits(&n(70_000), &n(65537)), 32);
    let huge = Nat::from_digits(b"100000000000000000000000").unwrap();
    assert_eq!(lane_bits(&huge, &n(1 << 32)), 32);
    assert_eq!(lane_bits(&huge, &n((1 << 32) + 2)), 64);
    assert_eq!(lane_bits(&huge, &huge), 64);
}

#[test]
fn arrays_only_for_small_or_occupied_frames() {
    let n = |v: u64| Nat::from(v);
    let kind = |x: u64, y: u64, z: u64| Board::new(&n(x), &n(y), &n(z)).store_kind();
    assert_eq!(kind(7, 6, 4), ("dense", 8));
    // The up-front budget counts the cells (four bytes) and a height and
    // a top run a column (eight bytes): 4095^2 cells fit 64 MiB with their
    // columns, 4096^2 do not.
    assert_eq!(kind(4095, 4095, 4), ("dense", 8));
    assert_eq!(kind(4096, 4096, 4), ("sparse", 8));
    // Flat frames: the columns cost twice the cells.
    assert_eq!(kind(1 << 22, 1, 2), ("dense", 8));
    assert_eq!(kind((1 << 22) + 1, 1, 2), ("dense", 8));
    assert_eq!(kind(5_592_405, 1, 2), ("dense", 8));
    assert_eq!(kind(5_592_406, 1, 2), ("sparse", 8));
    assert_eq!(kind(1 << 24, 1, 2), ("sparse", 8));
    // 2^28 cells of four bytes: 1 GiB, far above the up-front budget.
    assert_eq!(kind(16384, 16384, 4), ("sparse", 8));
    assert_eq!(kind(1 << 40, 1 << 40, 4), ("sparse", 8));
    // Taller than u32 rows: never an array.
    assert_eq!(kind(2, 1 << 33, 3), ("sparse", 8));
    // Promotion: a 4096 x 8192 frame (2^25 cells of 4 bytes, and 8 bytes
    // a column) once the array costs at most 8 cells a counter.
    let mut board = Board::new(&n(4096), &n(8192), &n(4));
    assert_eq!(board.store_kind().0, "sparse");
    let mut player = Player::One;
    let mut k = 0u64;
    while board.placed() < ((1 << 25) * 4 + 4096 * 8) / (PROMOTE_AT * 4) {
        assert_eq!(board.store_kind().0, "sparse");
        board.place(&n(1 + k % 4096), player).unwrap();
        player = player.other();
        k += 1;
    }
    assert_eq!(board.store_kind().0, "dense");
    // The array agrees with what the map held.
    let placed = board.placed();
    assert_eq!(board.height(&n(1)), placed.div_ceil(4096));
    assert_eq!(board.owner(&n(1), 1), Some(Player::One));
    assert_eq!(board.owner(&n(2), 1), Some(Player::Two));
}

/// Once runs are settled, a board that does not keep its cells keeps the
/// heights alone: counters still stack, no owner is known and no counter
/// reaches anywhere; one that keeps them keeps every owner.
#[test]
fn settled_runs_keep_heights_or_the_whole_board() {
    let n = |v: u64| Nat::from(v);
    for storage in [Storage::Auto, Storage::Sparse] {
        for keep in [false, true] {
            let keep = Keep { board: keep };
            let mut board = Board::in_store(&n(3), &n(2), &n(3), storage, keep);
            board.place(&n(1), Player::One).unwrap();
            board.place(&n(2), Player::One).unwrap();
            board.runs_settled();
            assert_eq!(board.heights_only(), !keep.board);
            board.place(&n(1), Player::Two).unwrap();
            assert_eq!(board.height(&n(1)), 2);
            assert_eq!(board.placed(), 3);
            let owner = keep.board.then_some(Player::One);
            assert_eq!(board.owner(&n(1), 1), owner);
            let reach = board.reach(&n(3), 1, Player::One).unwrap();
            assert_eq!(
                reach.along(Direction::Horizontal).0,
                if keep.board { 2 } else { 0 }
            );
        }
    }
}
