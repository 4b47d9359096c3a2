//! `cz play`: a terminal game against the engine of `connectz_games`.

use std::io::{self, BufRead, Write};

use connectz::{Nat, Player};
use connectz_explain::draw::{Style, draw};
use connectz_games::engine::{self, choose_with, replay};
use connectz_rng::Rng;

/// SessionOptions of a session.
#[derive(Clone, Copy, Debug)]
pub struct SessionOptions {
    /// The frame, the length of a winning run and the strength of the engine.
    pub engine: engine::Options,
    /// True when the engine makes the first move.
    pub engine_first: bool,
    /// Seed for the easy engine's choices.
    pub seed: u64,
    /// Colours on the board.
    pub color: bool,
}

/// The bytes of a line `session` holds: more than any command it knows.
const LONGEST_COMMAND: usize = 64;

/// Plays a session: reads commands from `input` (a column number, `u` to
/// undo, `q` to quit), writes the board and the engine's moves to
/// `output`, and returns the moves played (0-based columns).
///
/// # Errors
/// Errors of `input` or `output`.
pub fn session(
    options: &SessionOptions,
    input: &mut impl BufRead,
    output: &mut (impl Write + ?Sized),
) -> io::Result<Vec<usize>> {
    let shape = options.engine.shape;
    let mut moves: Vec<usize> = Vec::new();
    let mut rng = Rng::new(options.seed);
    // Every core on each reply: the perfect engine's proofs past its plan.
    let mut solver = crate::solve::solver(
        connectz_games::solver::DEFAULT_TABLE_MB,
        &connectz_games::solver::BookChoice::Shipped,
    )?
    .with_every_core();
    let engine_side = if options.engine_first {
        Player::One
    } else {
        Player::Two
    };
    let style = Style {
        color: options.color,
        ..Style::default()
    };
    writeln!(
        output,
        "Connect {} on {} x {}: type a column (1-{}), u to undo, q to quit.",
        shape.z, shape.width, shape.height, shape.width
    )?;
    loop {
        let game = replay(shape, &moves);
        if let Some(run) = game.winning_run() {
            output.write_all(draw(&game, style).as_bytes())?;
            let who = if run.player == engine_side {
                "the engine wins"
            } else {
                "you win"
            };
            writeln!(output, "game over: {who} ({} in a row)", run.length)?;
            return Ok(moves);
        }
        if game.is_full() {
            output.write_all(draw(&game, style).as_bytes())?;
            writeln!(output, "game over: draw")?;
            return Ok(moves);
        }
        if game.to_move() == engine_side {
            let choice = choose_with(
                &options.engine,
                &moves,
                &mut |n| rng.below(n),
                &mut solver,
                &mut || {
                    let _ = writeln!(output, "{}", engine::thinking_words(shape));
                    let _ = output.flush();
                },
            );
            moves.push(choice.column);
            writeln!(
                output,
                "engine plays {} ({})",
                choice.column + 1,
                choice.evaluation
            )?;
            continue;
        }
        output.write_all(draw(&game, style).as_bytes())?;
        write!(output, "your move> ")?;
        output.flush()?;
        // A line is held only as far as a command can be long; a longer
        // one, or one that is not UTF-8, is not understood and asked again.
        let Some(line) = crate::input::next_line(input, LONGEST_COMMAND)? else {
            writeln!(output)?;
            return Ok(moves);
        };
        let text = if line.whole() {
            String::from_utf8_lossy(&line.kept)
        } else {
            "".into()
        };
        match text.trim() {
            "q" | "quit" => return Ok(moves),
            "u" | "undo" => {
                // Take back the engine's reply and your move (on your turn
                // both are there, unless the engine has made only its first).
                if moves.len() >= 2 {
                    moves.truncate(moves.len() - 2);
                }
            }
            text => match text.parse::<usize>() {
                Ok(c) if c >= 1 && c <= shape.width && game.is_open(&Nat::from(c as u64)) => {
                    moves.push(c - 1)
                }
                Ok(c) if c >= 1 && c <= shape.width => writeln!(output, "column {c} is full")?,
                _ => writeln!(output, "type a column from 1 to {}, u or q", shape.width)?,
            },
        }
    }
}
