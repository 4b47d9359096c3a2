//! r[decision.out-of-memory]: memory that grows with the input is asked for
//! fallibly, and its lack is an answer ([`Exhausted`]), never an abort.

/// Memory for a number, a board or a line could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted;

/// An empty vector with room for exactly `n` items, or [`Exhausted`].
pub(crate) fn try_vec<T>(n: usize) -> Result<Vec<T>, Exhausted> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Exhausted)?;
    Ok(v)
}

/// For the infallible conveniences beside a fallible operation: ends the
/// process as the standard library does when `bytes` cannot be had.
pub(crate) fn or_abort<T>(result: Result<T, Exhausted>, bytes: usize) -> T {
    match result {
        Ok(value) => value,
        Err(Exhausted) => std::alloc::handle_alloc_error(
            std::alloc::Layout::array::<u8>(bytes).unwrap_or(std::alloc::Layout::new::<u8>()),
        ),
    }
}
