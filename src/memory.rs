//! r[decision.out-of-memory]: memory that grows with the input is asked for
//! fallibly, and its lack is an answer ([`OutOfMemory`]), never an abort.

/// Memory for a number, a board or a line could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutOfMemory;

/// An empty vector with room for exactly `n` items, or [`OutOfMemory`].
pub(crate) fn try_vec<T>(n: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| OutOfMemory)?;
    Ok(v)
}

/// For the infallible conveniences beside a fallible operation: ends the
/// process as the standard library does when `bytes` cannot be had.
pub(crate) fn or_abort<T>(result: Result<T, OutOfMemory>, bytes: usize) -> T {
    match result {
        Ok(value) => value,
        Err(OutOfMemory) => std::alloc::handle_alloc_error(
            std::alloc::Layout::array::<u8>(bytes).unwrap_or(std::alloc::Layout::new::<u8>()),
        ),
    }
}
