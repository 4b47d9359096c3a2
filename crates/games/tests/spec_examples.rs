//! The spec's examples of the neighbouring problems (spec/board.md,
//! spec/solve.md): every board, rotate and solve block gives its answer.

use connectz_spec::{Example, clauses};

#[test]
fn every_board_and_rotate_example_gives_its_answer() {
    let mut ran = 0;
    for clause in clauses().unwrap() {
        for example in &clause.examples {
            match example {
                Example::Board {
                    grid,
                    z,
                    first,
                    empty,
                    gravity,
                    expect,
                    at,
                } => {
                    let (_, judgement) =
                        connectz_games::snapshot::judge_grid(grid, *z, *first, *empty, *gravity)
                            .unwrap_or_else(|e| panic!("{at}: {e}"));
                    assert_eq!(
                        judgement.answer.to_string(),
                        *expect,
                        "{at} [{}]: {:?}",
                        clause.id,
                        judgement.why
                    );
                }
                Example::Solve { shape, lines, at } => {
                    let shape = shape_of(*shape);
                    let mut solver = connectz_games::solver::Solver::new();
                    for (moves, score) in lines {
                        let got = connectz_games::solver::Position::from_moves(shape, moves)
                            .ok()
                            .map(|p| {
                                solver.reset();
                                solver.solve(&p, false)
                            });
                        assert_eq!(got, *score, "{at} [{}]: {moves}", clause.id);
                    }
                }
                Example::Scores { shape, lines, at } => {
                    let shape = shape_of(*shape);
                    let mut solver = connectz_games::solver::Solver::new();
                    for (moves, scores) in lines {
                        let p = connectz_games::solver::Position::from_moves(shape, moves)
                            .unwrap_or_else(|e| panic!("{at}: {moves}: {e}"));
                        solver.reset();
                        let got = solver.analyze(&p, false);
                        assert_eq!(&got, scores, "{at} [{}]: {moves}", clause.id);
                        // The position's own score is the best of them.
                        solver.reset();
                        assert_eq!(
                            got.iter().flatten().max().copied(),
                            Some(solver.solve(&p, false)),
                            "{at} [{}]: {moves}",
                            clause.id
                        );
                    }
                }
                Example::Rotate { input, output, at } => {
                    assert_eq!(
                        connectz_games::rotate::solve(input).as_ref(),
                        Ok(output),
                        "{at} [{}]",
                        clause.id
                    );
                }
                _ => continue,
            }
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} board and rotate examples found");
}

/// The frame of a `solve` or `scores` block: width, height, run length.
fn shape_of((width, height, z): (usize, usize, usize)) -> connectz_games::solver::Shape {
    connectz_games::solver::Shape { width, height, z }
}
