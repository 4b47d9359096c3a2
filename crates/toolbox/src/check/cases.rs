//! The cases a candidate is run on: the shipped corpus and generated games.

use connectz::Code;
use connectz_gen::{Frame, game_with_code};
use connectz_rng::Rng;
use connectz_spec::{Class, Example, case_files, clauses};

use super::Case;

/// The shipped corpus: every spec example and every file of tests/cases.
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
    out
}

/// `count` generated games, every code 0 to 8 in turn, on random frames,
/// made as they are asked for.
pub fn generated(count: usize, seed: u64) -> impl Iterator<Item = Case> {
    let mut rng = Rng::new(seed);
    let mut made = 0;
    let mut tries = 0;
    std::iter::from_fn(move || {
        while made < count && tries < count.saturating_mul(50) {
            tries += 1;
            let code = Code::ALL[made % 9];
            let frame = Frame {
                x: 1 + rng.below(9),
                y: 1 + rng.below(8),
                z: 1 + rng.below(6),
            };
            let game_seed = rng.next_u64();
            if let Ok(bytes) = game_with_code(code, frame, game_seed) {
                made += 1;
                let name = format!(
                    "generated code {code}, frame {} {} {}, seed {game_seed}",
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
