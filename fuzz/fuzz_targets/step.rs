//! A structured game (frame, mostly-legal moves, at most one corruption)
//! rendered to bytes: judge and oracle must agree, and the streaming judge
//! must give the same verdict however the bytes are chunked.
#![no_main]

use connectz::arbitrary_game::ArbitraryGame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|game: ArbitraryGame| {
    let input = game.render();
    if let Err(e) = connectz::oracle::differential(&input, &game.chunk_sizes()) {
        panic!("{e}\n{game:?}");
    }
});
