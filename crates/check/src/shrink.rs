//! Shrinking a failing generated game to a shorter one that fails the same
//! way.

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::time::Instant;

use connectz::{Code, judge_bytes};

use super::{Candidate, Case, Outcome, Policy, SHRINK_RUNS, Shrinking, Shrunk};
use connectz_sandbox::Sandbox;

/// True when `outcome` on an input the reference calls `expect` is the
/// same failure as `original` on the case: the same wrong code, or a crash
/// again, for the same expected code.
fn same_failure(case: &Case, original: &Outcome, expect: Code, outcome: &Outcome) -> bool {
    expect == case.expect
        && match (original, outcome) {
            (Outcome::Mismatch { got: a }, Outcome::Mismatch { got: b }) => a == b,
            (Outcome::Crash { .. }, Outcome::Crash { .. }) => true,
            _ => false,
        }
}

/// Words with which programs report that an allocation failed.
const OUT_OF_MEMORY: [&str; 6] = [
    "MemoryError",
    "memory allocation of",
    "bad_alloc",
    "Cannot allocate memory",
    "out of memory",
    "OutOfMemory",
];

/// True for a crash that says an allocation failed: it is not shrunk, as a
/// memory breach is not. Smaller frames ask for less, up to what the cap
/// allows, and each such try costs that much memory touched.
fn failed_to_allocate(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Crash { stderr, .. } if OUT_OF_MEMORY.iter().any(|w| stderr.contains(w)))
}

/// Shrinks a failing case while the failure stays the same (the reference
/// gives the smaller input the case's code, and the candidate the same
/// wrong code, or a crash again): drops blocks of move lines, halving their size down
/// to single lines, and lowers the frame's numbers (to 1, to half, by one),
/// in at most 200 runs of the candidate. An input is run only when the
/// reference gives it the case's code, and never twice; the search stops
/// when a whole pass shrinks nothing. `None` when nothing smaller fails the same
/// way, or the failure is not one that shrinks (a timeout or a memory
/// breach would cost a limit per try, a crash that says an allocation failed
/// the memory it asks for).
///
/// # Errors
/// The scratch file cannot be written.
pub fn shrink(
    candidate: &Candidate,
    sandbox: &Sandbox,
    case: &Case,
    original: &Outcome,
    path: &Path,
    policy: Option<Policy>,
) -> std::io::Result<Shrinking> {
    let start = Instant::now();
    if !matches!(original, Outcome::Mismatch { .. } | Outcome::Crash { .. })
        || failed_to_allocate(original)
    {
        return Ok(Shrinking::default());
    }
    let Ok(text) = std::str::from_utf8(&case.bytes) else {
        return Ok(Shrinking::default());
    };
    // Split at line feeds only: a carriage return stays in its line.
    let ends_with_newline = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut lines: Vec<String> = body.split('\n').map(String::from).collect();
    let render = |lines: &[String]| -> Vec<u8> {
        let mut out = lines.join("\n").into_bytes();
        if ends_with_newline {
            out.push(b'\n');
        }
        out
    };
    let mut runs = 0;
    let mut best: Option<Shrunk> = None;
    // Inputs tried: the same input is never run twice.
    let mut tried: HashSet<Vec<u8>> = HashSet::new();
    let mut attempt = |lines: &[String], runs: &mut usize| -> std::io::Result<bool> {
        let bytes = render(lines);
        // The reference decides first, for free: an input it gives another
        // code cannot fail the same way, and is not run.
        let start = Instant::now();
        let expect = judge_bytes(&bytes).code();
        let reference_time = start.elapsed();
        if expect != case.expect || !tried.insert(bytes.clone()) {
            return Ok(false);
        }
        *runs += 1;
        fs::write(path, &bytes)?;
        // A timeout is no failure to shrink to: with a policy, a try gets
        // only the time its input needs.
        let limit = policy.map_or(sandbox.limits().timeout, |p| p.first_limit(reference_time));
        let (outcome, _) = candidate.judge_within(sandbox, path, expect, limit);
        if same_failure(case, original, expect, &outcome) {
            best = Some(Shrunk {
                bytes,
                expect,
                outcome,
            });
            return Ok(true);
        }
        Ok(false)
    };
    let mut changed = true;
    while changed && runs < SHRINK_RUNS {
        changed = false;
        // Drop blocks of move lines, from half of them down to one.
        let mut block = (lines.len().saturating_sub(1) / 2).max(1);
        loop {
            let mut end = lines.len();
            while end > 1 && runs < SHRINK_RUNS {
                let start = end.saturating_sub(block).max(1);
                let mut fewer = lines.clone();
                fewer.drain(start..end);
                if attempt(&fewer, &mut runs)? {
                    lines = fewer;
                    changed = true;
                    end = start.min(lines.len());
                } else {
                    end = start;
                }
            }
            if block == 1 || runs >= SHRINK_RUNS {
                break;
            }
            block /= 2;
        }
        // Lower each number of the frame: to 1, to half, by one.
        for field in 0..3 {
            let Some(header) = lines.first() else { break };
            let numbers: Vec<u64> = header.split(' ').filter_map(|n| n.parse().ok()).collect();
            if numbers.len() != 3 || numbers[field] <= 1 {
                continue;
            }
            let n = numbers[field];
            for lower in [1, n / 2, n - 1] {
                if lower == 0 || lower >= n || runs >= SHRINK_RUNS {
                    continue;
                }
                let mut fewer = numbers.clone();
                fewer[field] = lower;
                let mut smaller = lines.clone();
                smaller[0] = format!("{} {} {}", fewer[0], fewer[1], fewer[2]);
                if attempt(&smaller, &mut runs)? {
                    lines = smaller;
                    changed = true;
                    break;
                }
            }
        }
    }
    let _ = fs::remove_file(path);
    Ok(Shrinking {
        shrunk: best,
        runs,
        elapsed: start.elapsed(),
    })
}
