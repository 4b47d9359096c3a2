//! Glue: the body is `connectz_testkit::targets::step` (see there for what it checks).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    connectz_testkit::targets::step(data);
});
