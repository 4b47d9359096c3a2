//! Glue: the body is `connectz::targets::step` (see there for what it checks).
#![no_main]

use connectz::arbitrary_game::ArbitraryGame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|game: ArbitraryGame| {
    connectz::targets::step(&game);
});
