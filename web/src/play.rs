//! The play tab: a game against the engine of `cz play`, on any frame the
//! solver takes. The page keeps the moves; every answer is computed here from
//! them by the crates the CLI uses: the judge's verdict and picture of the
//! game so far (as `connectz` and `cz render` give them for the game's file),
//! the engine's move at each level ([`engine::try_choose_timed`], the opening
//! plan on 7 x 6 first), and each column's exact score on `cz solve`'s scale
//! (r[solve.score]). The searches run in a Web Worker of the page, each with
//! its own instance of this crate, so the page never waits for them.
//!
//! Moves are 0-based columns here and 1-based in what the page shows, as in
//! `cz play`.

use std::time::Duration;

use connectz_explain::account::{self, Account};
use connectz_explain::json::to_json;
use connectz_explain::render;
use connectz_games::engine::{self, Level};
use connectz_games::plan;
use connectz_games::solver::{Position, PositionError, Shape, Solver, column_of};
use connectz_rng::Rng;
use serde::Serialize;

/// The transposition table the page's solver asks for first, in MB, then
/// half of it down to 1 MB when a browser cannot give that much: enough for
/// the positions past the 7 x 6 plan, small beside a tab's memory.
pub const TABLE_MB: usize = 32;

/// The frame of width x height with runs of `z`, when the solver takes it
/// (width x (height + 1) <= 128).
///
/// # Errors
/// The frame does not fit the solver's bitboard, or a side or z is 0.
pub fn frame(width: usize, height: usize, z: usize) -> Result<Shape, String> {
    let shape = Shape { width, height, z };
    if shape.fits() {
        // r[rule.winnable]: a frame no game can be won on is refused up
        // front, as `cz play` and the Python Engine refuse it.
        match connectz_explain::account::unwinnable_refusal(width as u64, height as u64, z as u64) {
            Some(why) => Err(why),
            None => Ok(shape),
        }
    } else if width == 0 || height == 0 || z == 0 {
        Err("the width, the height and the run length are at least 1".into())
    } else {
        Err(format!(
            "{width} x {height} is too large for the solver: width x (height + 1) is at most 128"
        ))
    }
}

/// The position after `moves`, each checked as `cz solve` checks a
/// position's moves (r[solve.position]): in the frame, into a column with
/// room, and none after a completed run.
///
/// # Errors
/// The first move that breaks one of those rules, in `cz solve`'s words.
pub fn position(shape: Shape, moves: &[usize]) -> Result<Position, String> {
    let mut p = Position::new(shape);
    for (i, &column) in moves.iter().enumerate() {
        let at = i + 1;
        if column >= shape.width {
            return Err(format!(
                "move {at}: column {} is not in the frame",
                column + 1
            ));
        }
        if !p.can_play(column) {
            return Err(PositionError::FullColumn {
                at,
                column: column + 1,
            }
            .to_string());
        }
        if p.is_winning_move(column) {
            return Err(PositionError::AlreadyWon { at }.to_string());
        }
        p.play_column(column);
    }
    Ok(p)
}

/// The columns (0-based) of a position written as `cz solve` reads it (`1`
/// to `9`, then `a` to `z`; `.` or nothing for the empty frame), checked as
/// `cz solve` checks it.
///
/// # Errors
/// `cz solve`'s message for the first bad move.
pub fn parse_moves(shape: Shape, text: &str) -> Result<Vec<usize>, String> {
    let text = text.trim();
    if text.is_empty() || text == "." {
        return Ok(Vec::new());
    }
    Position::from_moves(shape, text).map_err(|e| e.to_string())?;
    Ok(text
        .chars()
        .map(|c| column_of(c).map_or(0, |c| c - 1))
        .collect())
}

/// What the page shows of a game: the judge's account and picture of its
/// file (`cz explain --json`'s fields, with `svg`), the file, whose turn it
/// is and which columns take a counter.
#[derive(Serialize)]
struct PlayedGame {
    #[serde(flatten)]
    account: Account,
    svg: String,
    /// The game as a ConnectZ file (`cz play --save`'s).
    file: String,
    /// The moves as `cz solve` reads them; none past column 35.
    position: Option<String>,
    /// 1 or 2 while the game goes on (code 3), else none.
    to_move: Option<u8>,
    /// Per column, true when the side to move may play there.
    open: Vec<bool>,
}

/// An answer that is an error.
#[derive(Serialize)]
struct PlayError {
    error: String,
}

fn error(why: String) -> String {
    to_json(&PlayError { error: why })
}

/// The game after `moves` as the judge sees its file, for the page: the
/// account and the picture (titled `title`), the file, the side to move and
/// the open columns, as JSON. Moves after the game ended or into a full
/// column are an error, as they are to `cz play`.
pub fn view(shape: Shape, moves: &[usize], title: &str) -> String {
    let file = engine::connectz_file(shape, moves);
    let mut judge = account::keeping_board();
    judge.feed(file.as_bytes());
    let report = judge.finish();
    let code = report.code().number();
    if code > 3 {
        return error(account::reason(&report));
    }
    let to_move = (code == 3).then_some(if moves.len().is_multiple_of(2) { 1 } else { 2 });
    let open = match &report.game {
        Some(game) if to_move.is_some() => (0..shape.width)
            .map(|c| game.is_open(&connectz::Nat::from(c as u64 + 1)))
            .collect(),
        _ => vec![false; shape.width],
    };
    let position = if moves.iter().all(|&c| c < 35) {
        Some(Position::moves_text(moves))
    } else {
        None
    };
    to_json(&PlayedGame {
        account: account::account(&report, title),
        svg: render::svg(&report, title),
        file,
        position,
        to_move,
        open,
    })
}

/// The solver of the page's worker: [`TABLE_MB`], or less when that much
/// cannot be had (never an abort).
///
/// # Errors
/// Not even a table of 1 MB can be had.
pub fn solver() -> Result<Solver, String> {
    halving(TABLE_MB, Solver::try_with_table_mb)
}

/// What `make` makes of `megabytes`, else of half as many, down to 1; or
/// why not even that could be had.
fn halving<T>(
    mut megabytes: usize,
    mut make: impl FnMut(usize) -> Result<T, String>,
) -> Result<T, String> {
    loop {
        match make(megabytes) {
            Ok(made) => return Ok(made),
            Err(why) if megabytes <= 1 => return Err(why),
            Err(_) => megabytes /= 2,
        }
    }
}

/// The engine's move.
#[derive(Serialize)]
struct EngineReply {
    /// 1-based.
    column: usize,
    /// What the engine thinks of it, as `cz play` says it.
    evaluation: String,
}

/// The engine's move at `level` for the side to move after `moves`, as `cz
/// play` chooses it ([`engine::try_choose_timed`]); `seed` drives the easy
/// level's random choices, `elapsed` is the time since the choice began (the
/// medium level's budget). The hint is the perfect level's move for the
/// player. JSON: `{"column", "evaluation"}` or `{"error"}`.
pub fn engine_move(
    shape: Shape,
    moves: &[usize],
    level: Level,
    seed: u64,
    solver: &mut Solver,
    elapsed: &mut dyn FnMut() -> Duration,
) -> String {
    let p = match position(shape, moves) {
        Ok(p) => p,
        Err(why) => return error(why),
    };
    if p.moves() >= shape.cells() {
        return error("the frame is full".into());
    }
    let mut rng = Rng::new(seed);
    let options = engine::Options { shape, level };
    // Only a cancel flag stops a search short, and the page sets none (it
    // cancels by ending the worker).
    let Some(choice) = engine::try_choose_timed(
        &options,
        moves,
        &mut |n| rng.below(n),
        solver,
        &mut || {},
        elapsed,
    ) else {
        return error("the search was cancelled".into());
    };
    to_json(&EngineReply {
        column: choice.column + 1,
        evaluation: choice.evaluation,
    })
}

/// The exact score (r[solve.score]) for the side to move after `moves` if
/// it plays `column` (0-based): `None` when the column is full; the score of
/// the win when the counter completes a run; else minus the score of the
/// position it leaves, from the 7 x 6 plan when that has it, else as
/// [`Solver::score_of_column`] gives it (the book's bound included).
/// `cz solve` prints the same number for that position, negated.
///
/// # Errors
/// The moves are not a position (see [`position`]), or the column is not in
/// the frame.
pub fn column_score(
    shape: Shape,
    moves: &[usize],
    column: usize,
    solver: &mut Solver,
) -> Result<Option<i32>, String> {
    let p = position(shape, moves)?;
    if column >= shape.width {
        return Err(format!("column {} is not in the frame", column + 1));
    }
    // The plan is of 7 x 6: read only there.
    let planned = if shape == Shape::CLASSIC && p.can_play(column) && !p.is_winning_move(column) {
        let mut child = p;
        child.play_column(column);
        plan::classic().get(&child).map(|(_, score)| -score)
    } else {
        None
    };
    Ok(planned.or_else(|| solver.score_of_column(&p, column, false)))
}

/// A column's score, for the page.
#[derive(Serialize)]
struct ColumnScore {
    /// 1-based.
    column: usize,
    /// None when the column is full.
    score: Option<i32>,
}

/// [`column_score`] as JSON: `{"column", "score"}` (the column 1-based, the
/// score null for a full column) or `{"error"}`.
pub fn column_score_json(
    shape: Shape,
    moves: &[usize],
    column: usize,
    solver: &mut Solver,
) -> String {
    match column_score(shape, moves, column, solver) {
        Ok(score) => to_json(&ColumnScore {
            column: column + 1,
            score,
        }),
        Err(why) => error(why),
    }
}

/// Engine levels as the page numbers them: 0 easy, 1 medium, 2 perfect.
pub fn level(number: u32) -> Level {
    match number {
        0 => Level::Easy,
        1 => Level::Medium,
        _ => Level::Perfect,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::field;

    fn no_clock() -> Duration {
        Duration::ZERO
    }

    /// A table that cannot be had is asked for again at half the size, and
    /// when not even 1 MB can be had the answer says why (the page shows it;
    /// nothing aborts).
    #[test]
    fn a_smaller_table_when_memory_is_short() {
        let mut asked = Vec::new();
        let made = halving(32, |mb| {
            asked.push(mb);
            if mb <= 4 {
                Ok(mb)
            } else {
                Err(format!("no {mb} MB"))
            }
        });
        assert_eq!(made, Ok(4));
        assert_eq!(asked, [32, 16, 8, 4]);
        let none = halving(32, |mb| Err::<usize, _>(format!("no {mb} MB")));
        assert_eq!(none, Err("no 1 MB".to_string()));
        assert!(solver().unwrap().table_bytes() >= TABLE_MB << 20);
    }

    #[test]
    fn frames_the_solver_takes() {
        assert_eq!(frame(7, 6, 4), Ok(Shape::CLASSIC));
        assert!(frame(64, 1, 4).is_ok());
        assert!(frame(16, 7, 9).is_ok());
        assert!(frame(8, 15, 4).is_ok());
        assert!(frame(8, 16, 4).unwrap_err().contains("at most 128"));
        assert!(frame(0, 6, 4).is_err());
        assert!(frame(7, 6, 0).is_err());
        // r[rule.winnable]: a frame no game can be won on is refused, in
        // the words of `cz play` and the Python Engine.
        for (width, height, z) in [(7, 6, 100), (7, 6, 8), (2, 1, 2), (3, 3, 5), (1, 5, 2)] {
            let why = frame(width, height, z).unwrap_err();
            assert!(
                why.starts_with(&format!("{width} {height} {z} cannot be won")),
                "{why}"
            );
        }
    }

    #[test]
    fn positions_are_checked_as_cz_solve_checks_them() {
        let shape = Shape::CLASSIC;
        assert_eq!(parse_moves(shape, "4453"), Ok(vec![3, 3, 4, 2]));
        assert_eq!(parse_moves(shape, "."), Ok(vec![]));
        assert_eq!(parse_moves(shape, " "), Ok(vec![]));
        for bad in ["48", "4444444", "1212121"] {
            let why = parse_moves(shape, bad).unwrap_err();
            assert_eq!(
                why,
                Position::from_moves(shape, bad).unwrap_err().to_string()
            );
            let columns: Vec<usize> = bad
                .chars()
                .map(|c| column_of(c).unwrap().saturating_sub(1))
                .collect();
            if bad != "48" {
                assert_eq!(position(shape, &columns).unwrap_err(), why);
            }
        }
        assert!(
            position(shape, &[7])
                .unwrap_err()
                .contains("not in the frame")
        );
    }

    #[test]
    fn the_view_is_the_judges_verdict_on_the_file() {
        let shape = Shape::CLASSIC;
        let json = view(shape, &[3, 3, 4], "game");
        assert_eq!(field(&json, "code"), "3");
        assert_eq!(field(&json, "to_move"), "2");
        assert_eq!(field(&json, "position"), "\"445\"");
        assert!(json.contains("\"file\":\"7 6 4\\n4\\n4\\n5\\n\""));
        assert!(json.contains("<svg"));
        // The first player's run across the bottom ends the game: code 1,
        // nobody to move, no open column.
        let json = view(shape, &[0, 0, 1, 1, 2, 2, 3], "game");
        assert_eq!(field(&json, "code"), "1");
        assert_eq!(field(&json, "to_move"), "null");
        assert!(json.contains("\"open\":[false,false,false,false,false,false,false]"));
        // A full column is closed; a move into it is the judge's fault.
        let json = view(shape, &[0; 6], "game");
        assert!(json.contains("\"open\":[false,true,true,true,true,true,true]"));
        assert!(view(shape, &[0; 7], "game").contains("\"error\""));
        // Past column 35 there is no position text, and the game still shows.
        let wide = frame(64, 1, 4).unwrap();
        assert_eq!(field(&view(wide, &[40], "game"), "position"), "null");
    }

    /// A game of `plies` random moves on `shape` that completes no run.
    fn random_game(shape: Shape, plies: usize, seed: u64) -> Vec<usize> {
        let mut rng = Rng::new(seed);
        let mut p = Position::new(shape);
        let mut moves = Vec::new();
        while moves.len() < plies {
            let quiet: Vec<usize> = (0..shape.width)
                .filter(|&c| p.can_play(c) && !p.is_winning_move(c))
                .collect();
            assert!(!quiet.is_empty(), "no quiet move after {moves:?}");
            let c = quiet[rng.below(quiet.len() as u64) as usize];
            p.play_column(c);
            moves.push(c);
        }
        moves
    }

    /// Every column's score is the solver's score of the position it
    /// leaves, negated ([`Solver::analyze`]), on frames of every kind of
    /// line detector and both words (13 x 4 needs 128 bits).
    #[test]
    fn column_scores_are_the_solvers() {
        let mut solver = solver().unwrap();
        for (width, height, z, plies) in [
            (5, 4, 3, 3),
            (4, 4, 4, 0),
            (6, 5, 3, 2),
            (4, 5, 5, 1),
            (13, 4, 4, 38),
            (3, 10, 11, 1),
        ] {
            // Frames no game can be won on too (their scores are all 0),
            // which the play tab's setup refuses (`frame`).
            let shape = Shape { width, height, z };
            let moves = random_game(shape, plies, (width * 100 + plies) as u64);
            let p = position(shape, &moves).unwrap();
            let want = Solver::with_table_mb(2).analyze(&p, false);
            let got: Vec<Option<i32>> = (0..width)
                .map(|c| column_score(shape, &moves, c, &mut solver).unwrap())
                .collect();
            assert_eq!(got, want, "{width}x{height} z={z} {moves:?}");
        }
        assert!(column_score(Shape::CLASSIC, &[], 7, &mut solver).is_err());
        let json = column_score_json(Shape::CLASSIC, &[0; 6], 0, &mut solver);
        assert_eq!(json, "{\"column\":1,\"score\":null}");
    }

    /// On 7 x 6 the plan answers the opening at once (every first move's
    /// score, no node searched), and its scores are the solver's: checked on
    /// a position whose every reply the plan holds (the engine's replies as
    /// first player at ply 8, the first such entry of the plan).
    #[test]
    fn the_plan_scores_the_opening() {
        let mut solver = Solver::with_table_mb(2);
        let first: Vec<Option<i32>> = (0..7)
            .map(|c| column_score(Shape::CLASSIC, &[], c, &mut solver).unwrap())
            .collect();
        assert!(first.iter().all(Option::is_some));
        assert_eq!(solver.nodes(), 0);
        // The centre keeps the first player's win (the plan's first entry).
        assert_eq!(first[3], Some(1));
        let text = include_str!("../../crates/games/book/7x6.plan");
        let ply8 = text
            .lines()
            .skip(1)
            .filter_map(|l| l.split(' ').next())
            .find(|m| m.len() == 8)
            .unwrap();
        let columns = parse_moves(Shape::CLASSIC, &ply8[..7]).unwrap();
        let p = position(Shape::CLASSIC, &columns).unwrap();
        let got: Vec<Option<i32>> = (0..7)
            .map(|c| column_score(Shape::CLASSIC, &columns, c, &mut solver).unwrap())
            .collect();
        assert_eq!(solver.nodes(), 0, "every reply from the plan");
        assert_eq!(got, Solver::new().analyze(&p, false), "{}", &ply8[..7]);
    }

    /// The engine answers with a legal column at every level, and the
    /// perfect level plays its plan on 7 x 6 (the centre first).
    #[test]
    fn the_engine_moves_at_every_level() {
        let mut solver = solver().unwrap();
        let json = engine_move(
            Shape::CLASSIC,
            &[],
            Level::Perfect,
            1,
            &mut solver,
            &mut no_clock,
        );
        assert_eq!(field(&json, "column"), "4");
        assert!(json.contains("opening plan"), "{json}");
        let shape = frame(5, 4, 3).unwrap();
        for level in [Level::Easy, Level::Medium, Level::Perfect] {
            let moves = [2, 2];
            let json = engine_move(shape, &moves, level, 7, &mut solver, &mut no_clock);
            let column: usize = field(&json, "column").parse().unwrap();
            assert!((1..=5).contains(&column), "{json}");
        }
        // The medium level stops when its clock says the time is spent.
        let mut ticks = 0;
        let mut clock = || {
            ticks += 1;
            Duration::from_secs(ticks)
        };
        let json = engine_move(shape, &[2], Level::Medium, 0, &mut solver, &mut clock);
        assert!(json.contains("depth 1"), "{json}");
        let won = engine_move(
            Shape::CLASSIC,
            &[0, 0, 1, 1, 2, 2, 3],
            Level::Easy,
            0,
            &mut solver,
            &mut no_clock,
        );
        assert!(won.contains("\"error\""), "{won}");
        assert_eq!(level(0), Level::Easy);
        assert_eq!(level(1), Level::Medium);
        assert_eq!(level(2), Level::Perfect);
    }
}
