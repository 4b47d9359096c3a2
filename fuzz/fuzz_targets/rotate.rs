//! Glue: the body is `connectz_testkit::targets::rotate` (see there for what it checks).
#![no_main]

use libfuzzer_sys::{Corpus, fuzz_target};

fuzz_target!(|data: &[u8]| -> Corpus {
    if data.len() > connectz_testkit::targets::MAX_LEN {
        return Corpus::Reject;
    }
    connectz_testkit::targets::rotate(data);
    Corpus::Keep
});
