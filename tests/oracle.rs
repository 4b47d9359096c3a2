//! The fast judge against the oracle: seeded random games, every short game
//! on small frames, and the committed fuzz corpora and regressions.

use std::fs;

use arbitrary::{Arbitrary, Unstructured};
use connectz::arbitrary_game::ArbitraryGame;
use connectz::generate::Rng;
use connectz::oracle::differential;

use crate::support::{files_below, root};

#[test]
fn random_games_agree_with_the_oracle() {
    let mut rng = Rng::new(0x5eed);
    let mut codes = [0u32; 10];
    for _ in 0..30_000 {
        let len = 8 + rng.below(120) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let game = ArbitraryGame::arbitrary_take_rest(Unstructured::new(&data)).unwrap();
        let code = differential(&game.render(), &game.chunk_sizes())
            .unwrap_or_else(|e| panic!("{e}\n{game:?}"));
        codes[usize::from(code.number())] += 1;
    }
    // Every code but 9 must have come up, or the generator lost its reach.
    for (code, count) in codes.iter().enumerate().take(9) {
        assert!(*count > 0, "no game gave code {code}: {codes:?}");
    }
}

#[test]
fn every_short_game_on_small_frames_agrees() {
    let mut games = 0u64;
    for x in 1..=3u64 {
        for y in 1..=3u64 {
            for z in 1..=3u64 {
                // Columns 1..=x+1, so the one past the frame is played too.
                let mut moves: Vec<u64> = Vec::new();
                loop {
                    let mut text = format!("{x} {y} {z}\n");
                    for m in &moves {
                        text.push_str(&format!("{m}\n"));
                    }
                    differential(text.as_bytes(), &[3]).unwrap_or_else(|e| panic!("{e}"));
                    games += 1;
                    // Next sequence in length-then-lexicographic order.
                    if !next_sequence(&mut moves, x + 1, 8) {
                        break;
                    }
                }
            }
        }
    }
    assert!(games > 100_000, "only {games} games");
}

/// Advances `moves` to the next sequence over 1..=base of length <= max.
fn next_sequence(moves: &mut Vec<u64>, base: u64, max: usize) -> bool {
    for i in (0..moves.len()).rev() {
        if moves[i] < base {
            moves[i] += 1;
            moves[i + 1..].iter_mut().for_each(|m| *m = 1);
            return true;
        }
    }
    if moves.len() == max {
        return false;
    }
    moves.iter_mut().for_each(|m| *m = 1);
    moves.push(1);
    true
}

#[test]
fn corpora_and_regressions_replay() {
    let mut replayed = 0;
    for target in ["parse", "step"] {
        let dir = root().join("fuzz/corpus").join(target);
        for path in files_below(&dir) {
            let data = fs::read(&path).unwrap();
            let input = if target == "parse" {
                data
            } else {
                match ArbitraryGame::arbitrary_take_rest(Unstructured::new(&data)) {
                    Ok(game) => game.render(),
                    Err(_) => continue,
                }
            };
            differential(&input, &[1, 7, 4096])
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            replayed += 1;
        }
    }
    for path in files_below(&root().join("tests/regressions")) {
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let data = fs::read(&path).unwrap();
        differential(&data, &[1, 2, 3]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        replayed += 1;
    }
    assert!(replayed > 50, "replayed only {replayed} files");
}
