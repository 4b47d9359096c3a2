//! Glue: the body is `connectz_testkit::targets::game` (see there for what it checks).
#![no_main]

use connectz_testkit::arbitrary_game::ArbitraryGame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|game: ArbitraryGame| {
    connectz_testkit::targets::game(&game);
});
