//! The crate's uses of `unsafe`, each behind a safe function: a prefetch
//! hint, and running a closure compiled for AVX2 where the processor has it.
//!
//! The judge parses a batch of moves ahead and asks for the cells they will
//! touch, so that their cache misses overlap. A load does that too, but a
//! load must complete before it retires, so a batch of them stalls the core;
//! a prefetch retires at once. Measured on the dense workload (3000 x 3000,
//! 9 M moves): 0.29 s with prefetches, 0.37 s with loads, 0.40 s with
//! neither. Rust has no safe prefetch, hence this module.
#![allow(unsafe_code)]

/// Asks the processor to start loading the cache line that holds
/// `slice[index]`; does nothing when `index` is out of range or the target
/// has no prefetch instruction. A hint only: no value changes, nothing can
/// fault.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], index: usize) {
    if let Some(item) = slice.get(index) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
        // SAFETY: `_mm_prefetch` is a hint that reads nothing into the
        // program and never faults, whatever the address; this one points at
        // a live element of `slice`. The cfg guarantees the SSE feature it
        // needs.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>());
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
        let _ = item;
    }
}

/// Runs `f`, compiled for AVX2 when the processor has it (checked at run
/// time, once), else as it is: for byte loops the compiler vectorises,
/// which then take 32 bytes a step instead of 16. The closure is safe code;
/// only the call into the AVX2 copy needs the check.
///
/// Measured on the settled tail (600 MB of one-digit moves after a verdict
/// that only a format fault or a column past the frame can change), paired
/// with `wc -l` on the same file: 0.098 s (1.40x) with AVX2, 0.122 s
/// (1.78x) without.
#[inline(always)]
pub(crate) fn with_avx2<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2<T>(f: impl FnOnce() -> T) -> T {
            f()
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above), the only
            // requirement of calling a function compiled for it.
            return unsafe { avx2(f) };
        }
    }
    f()
}
