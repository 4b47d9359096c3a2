//! Arbitrary bytes into the judge: it must never panic, must not depend on
//! how the input is chunked, and on small frames must agree with the oracle.
#![no_main]

use libfuzzer_sys::{Corpus, fuzz_target};

fuzz_target!(|data: &[u8]| -> Corpus {
    if data.len() > 1 << 16 {
        return Corpus::Reject;
    }
    // Chunk sizes come from the input itself so the fuzzer explores them too.
    let sizes: Vec<usize> = data.iter().take(4).map(|&b| usize::from(b % 17) + 1).collect();
    let sizes = if sizes.is_empty() { vec![1] } else { sizes };
    if let Err(e) = connectz::oracle::differential(data, &sizes) {
        panic!("{e}");
    }
    Corpus::Keep
});
