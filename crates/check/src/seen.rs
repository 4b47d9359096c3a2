//! Inputs already run, so that a case with the same bytes as another is not
//! run again.

use std::collections::HashMap;
use std::time::Duration;

use super::Outcome;

/// Inputs up to this many bytes are remembered, so that another case with
/// the same bytes is not run again.
pub(crate) const SAME_INPUT: usize = 1 << 16;

/// Bytes of inputs [`check`](crate::check) remembers across its batches at most: memory
/// stays bounded however many cases there are.
pub(crate) const SEEN_BYTES: usize = 16 << 20;

/// Outcomes of inputs already run, by their bytes: inputs of up to
/// [`SAME_INPUT`] bytes each, while the bytes held stay within a budget.
pub(crate) struct Seen {
    outcomes: HashMap<Vec<u8>, (Outcome, Duration)>,
    held: usize,
    budget: usize,
}

impl Seen {
    pub(crate) fn new(budget: usize) -> Seen {
        Seen {
            outcomes: HashMap::new(),
            held: 0,
            budget,
        }
    }

    pub(crate) fn get(&self, bytes: &[u8]) -> Option<&(Outcome, Duration)> {
        self.outcomes.get(bytes)
    }

    /// Remembers the outcome of `bytes` if it fits; true when it did.
    pub(crate) fn remember(&mut self, bytes: &[u8], outcome: &Outcome, elapsed: Duration) -> bool {
        if bytes.len() > SAME_INPUT
            || self.held + bytes.len() > self.budget
            || self.outcomes.contains_key(bytes)
        {
            return false;
        }
        self.held += bytes.len();
        self.outcomes
            .insert(bytes.to_vec(), (outcome.clone(), elapsed));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inputs remembered stay within their budget of bytes, and none
    /// is longer than SAME_INPUT: just below, at and above each.
    #[test]
    fn remembered_inputs_stay_within_their_bounds() {
        let t = Duration::ZERO;
        let mut seen = Seen::new(10);
        assert!(seen.remember(&[1; 4], &Outcome::Pass, t));
        assert!(seen.remember(&[2; 5], &Outcome::Timeout, t), "below");
        assert!(
            seen.remember(&[3; 1], &Outcome::Pass, t),
            "at: 10 bytes held"
        );
        assert!(!seen.remember(&[4; 1], &Outcome::Pass, t), "above");
        assert_eq!(seen.held, 10);
        assert_eq!(seen.get(&[2; 5]).map(|o| &o.0), Some(&Outcome::Timeout));
        assert!(seen.get(&[4; 1]).is_none());
        // The same input twice is held once.
        assert!(!seen.remember(&[1; 4], &Outcome::Pass, t));
        let mut seen = Seen::new(usize::MAX);
        assert!(seen.remember(&vec![0; SAME_INPUT - 1], &Outcome::Pass, t));
        assert!(seen.remember(&vec![1; SAME_INPUT], &Outcome::Pass, t));
        assert!(!seen.remember(&vec![2; SAME_INPUT + 1], &Outcome::Pass, t));
        assert_eq!(seen.held, 2 * SAME_INPUT - 1);
    }
}
