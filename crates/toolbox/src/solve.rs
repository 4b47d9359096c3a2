//! `cz solve`: positions, one per line, with their exact scores.

use std::io::{self, Write};
use std::time::Instant;

use connectz_games::solver::{Position, Shape, Solver};

/// What to print for each position.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// The frame and line length.
    pub shape: Shape,
    /// Only the sign of the score.
    pub weak: bool,
    /// Add the best column.
    pub best: bool,
    /// Add the nodes searched, and the means at the end.
    pub stats: bool,
}

/// Why a frame cannot be solved, if it cannot.
pub fn check_frame(shape: Shape) -> Result<(), String> {
    if !shape.fits() || shape.width > 9 {
        return Err(format!(
            "{} x {} is too large to solve exactly: width * (height + 1) must be at most 64, and positions are written one digit per move, so width at most 9",
            shape.width, shape.height
        ));
    }
    Ok(())
}

/// Solves every position of `input` (the first token of each line: column
/// digits from the empty frame) and writes one line per position, as it
/// goes. Returns the number of invalid positions.
///
/// # Errors
/// Errors of `out`.
pub fn solve_positions(
    input: &str,
    request: Request,
    out: &mut (impl Write + ?Sized),
) -> io::Result<u64> {
    let Request {
        shape,
        weak,
        best,
        stats,
    } = request;
    let width = shape.width;
    let mut engine = Solver::new();
    let (mut solved, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    for line in input.lines() {
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        let position = match Position::from_moves(shape, moves) {
            Ok(p) => p,
            Err(e) => {
                failed += 1;
                writeln!(out, "{moves} invalid: {e}")?;
                continue;
            }
        };
        engine.reset();
        let score = engine.solve(&position, weak);
        let searched = engine.nodes();
        let mut text = format!("{moves} {}", if weak { score.signum() } else { score });
        if best {
            let scores = engine.analyze(&position, weak);
            let column = (0..width)
                .filter(|&c| scores[c].is_some())
                .max_by_key(|&c| (scores[c], std::cmp::Reverse(c.abs_diff(width / 2))));
            text.push_str(&column.map_or(" -".into(), |c| format!(" {}", c + 1)));
        }
        if stats {
            text.push_str(&format!(" nodes={searched}"));
        }
        nodes += searched;
        solved += 1;
        writeln!(out, "{text}")?;
    }
    if stats && solved > 0 {
        let elapsed = started.elapsed().as_secs_f64();
        writeln!(
            out,
            "# {solved} positions: mean {:.2} nodes, mean {:.3} ms per position",
            nodes as f64 / solved as f64,
            elapsed * 1e3 / solved as f64
        )?;
    }
    Ok(failed)
}
