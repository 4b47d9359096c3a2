//! Glue: the body is `connectz::targets::board` (see there for what it checks).
#![no_main]

use libfuzzer_sys::{Corpus, fuzz_target};

fuzz_target!(|data: &[u8]| -> Corpus {
    if data.len() > connectz::targets::MAX_LEN {
        return Corpus::Reject;
    }
    connectz::targets::board(data);
    Corpus::Keep
});
