//! The fast judge against the oracle: seeded random games, every short game
//! on small frames, and the committed fuzz corpora and regressions.

use std::fs;

use connectz_rng::Rng;
use connectz_testkit::arbitrary::{Arbitrary, Unstructured};
use connectz_testkit::arbitrary_game::ArbitraryGame;
use connectz_testkit::oracle::differential;
use connectz_testkit::targets;

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

/// Every fuzz target's body, by name.
fn target(name: &str) -> fn(&[u8]) {
    match name {
        "parse" => targets::parse,
        "game" => |data| {
            if let Ok(game) = ArbitraryGame::arbitrary_take_rest(Unstructured::new(data)) {
                targets::game(&game);
            }
        },
        "board" => targets::board,
        "rotate" => targets::rotate,
        "solve" => targets::solve,
        "step" => targets::step,
        other => panic!("no fuzz target {other}"),
    }
}

const TARGETS: [&str; 6] = ["parse", "game", "step", "board", "rotate", "solve"];

/// The targets on random bytes: what the fuzzer does, briefly, in every
/// `cargo test`.
#[test]
fn fuzz_targets_hold_on_random_inputs() {
    let mut rng = Rng::new(0xf022);
    for name in TARGETS {
        let run = target(name);
        for _ in 0..3000 {
            let len = rng.below(200) as usize;
            let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            run(&data);
        }
    }
}

#[test]
fn corpora_and_regressions_replay() {
    let mut replayed = 0;
    for name in TARGETS {
        let dir = root().join("fuzz/corpus").join(name);
        let run = target(name);
        for path in files_below(&dir) {
            let data = fs::read(&path).unwrap();
            let caught = std::panic::catch_unwind(|| run(&data));
            assert!(caught.is_ok(), "{}", path.display());
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
