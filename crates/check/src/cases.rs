//! The cases a candidate is run on: the shipped corpus and generated games.

use connectz::{Code, Direction};
use connectz_gen::{Frame, Workload, game_with_run, workload};
use connectz_rng::Rng;
use connectz_spec::{Class, Example, case_files, clauses};

use super::Case;

/// The shipped corpus: every spec example, every file of tests/cases, and
/// the sized files (`sized`).
pub fn corpus() -> Vec<Case> {
    let mut out = Vec::new();
    for clause in clauses().unwrap_or_default() {
        for (i, example) in clause.examples.iter().enumerate() {
            if let Example::Game { bytes, class, .. } = example {
                out.push(Case::new(
                    format!("spec {} #{}", clause.id, i + 1),
                    bytes.clone(),
                    Some(&clause.id),
                    *class,
                ));
            }
        }
    }
    for case in case_files() {
        out.push(Case::new(
            format!("tests/cases/{}", case.path),
            case.bytes.to_vec(),
            case.decision,
            case.class,
        ));
    }
    out.extend(sized());
    out
}

/// Files of the size the brief is about, so that a candidate whose work
/// grows faster than its file (one that scans the whole board after every
/// move, say) fails by default, each within the time the timeout policy
/// derives from the reference's own time on it, blamed on
/// `r[resource.time]`: a long game (a 250 x 250 frame filled, 62,500
/// moves) and a settled tail (a 7 x 6 game won at move 7, then 200,000
/// more moves). `cz grade --perf` times larger ones against the reference.
pub fn sized() -> Vec<Case> {
    let files = [
        (
            Workload::Dense,
            SIZED_SIDE,
            format!("sized: a long game, a {SIZED_SIDE} x {SIZED_SIDE} frame filled"),
        ),
        (
            Workload::Tail,
            SIZED_TAIL,
            format!(
                "sized: a settled tail, a 7 x 6 game won at move 7, then {SIZED_TAIL} more moves"
            ),
        ),
    ];
    files
        .into_iter()
        .filter_map(|(kind, size, name)| {
            let mut bytes = Vec::new();
            workload(kind, size, 1, &mut bytes).ok()?;
            Some(Case::new(
                name,
                bytes,
                Some("resource.time"),
                Class::Defined,
            ))
        })
        .collect()
}

/// The side of the sized long game's frame.
const SIZED_SIDE: u64 = 250;

/// Moves of the sized settled tail after its win.
const SIZED_TAIL: u64 = 200_000;

/// `count` generated games, every code 0 to 8 in turn, on random frames,
/// made as they are asked for. The games won (codes 1, 2 and 4) take the
/// four directions of the winning run in turn, each won in that direction
/// only: nine games cover every code, thirty-six every code and every
/// direction of a win for each, so a small count already finds a judge
/// blind to one direction.
pub fn generated(count: usize, seed: u64) -> impl Iterator<Item = Case> {
    let mut rng = Rng::new(seed);
    let mut made = 0;
    let mut tries = 0;
    std::iter::from_fn(move || {
        while made < count && tries < count.saturating_mul(50) {
            tries += 1;
            let code = Code::ALL[made % 9];
            let direction = matches!(code, Code::WinOne | Code::WinTwo | Code::IllegalContinue)
                .then(|| DIRECTIONS[(made / 9) % 4]);
            let frame = Frame {
                x: 1 + rng.below(9),
                y: 1 + rng.below(8),
                z: 1 + rng.below(6),
            };
            let game_seed = rng.next_u64();
            if let Ok(bytes) = game_with_run(code, frame, direction, game_seed) {
                made += 1;
                let run = direction.map_or(String::new(), |d| format!(", {d} win"));
                let name = format!(
                    "generated code {code}{run}, frame {} {} {}, seed {game_seed}",
                    frame.x, frame.y, frame.z
                );
                let mut case = Case::new(name, bytes, None, Class::Defined);
                case.generated = true;
                return Some(case);
            }
        }
        None
    })
}

/// The directions a generated win takes, in turn.
const DIRECTIONS: [Direction; 4] = [
    Direction::Horizontal,
    Direction::Vertical,
    Direction::Diagonal,
    Direction::AntiDiagonal,
];

#[cfg(test)]
mod tests {
    use super::*;
    use connectz::judge_bytes;

    /// Thirty-six generated games hold every code 0 to 8 four times, and
    /// the games won (1, 2 and 4) one of each direction each, as the judge
    /// reads them.
    #[test]
    fn thirty_six_games_cover_every_code_and_direction() {
        let mut seen = Vec::new();
        let mut codes = [0; 9];
        for case in generated(36, 7) {
            let report = judge_bytes(&case.bytes);
            assert_eq!(report.code(), case.expect);
            codes[usize::from(case.expect.number())] += 1;
            if let Some(run) = report.game.as_ref().and_then(|g| g.winning_run()) {
                seen.push((case.expect, run.direction));
            }
        }
        assert_eq!(codes, [4; 9]);
        for code in [Code::WinOne, Code::WinTwo, Code::IllegalContinue] {
            for d in DIRECTIONS {
                assert!(seen.contains(&(code, d)), "no {d} win with code {code}");
            }
        }
    }
}
