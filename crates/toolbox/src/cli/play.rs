use std::io::Write;
use std::path::PathBuf;

use crate::session::{SessionOptions, session};
use crate::{Context, Result};
use clap::ValueEnum;
use connectz_games::engine::{self, Level, MAX_SIDE, connectz_file};

use super::FrameArgs;

#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    frame: FrameArgs,
    /// Engine strength.
    #[arg(long, value_enum, default_value = "medium")]
    level: LevelArg,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "human")]
    first: FirstArg,
    /// Write the game as a ConnectZ file when it ends.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Seed for the easy engine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum LevelArg {
    Easy,
    Medium,
    Perfect,
}

#[derive(Clone, Copy, ValueEnum)]
enum FirstArg {
    Human,
    Engine,
}

pub fn run(args: PlayArgs, out: &mut dyn Write) -> Result<u8> {
    let frame = args.frame;
    if frame.width == 0 || frame.height == 0 || frame.connect == 0 {
        return Err("the frame's numbers must be positive".into());
    }
    if frame.width > MAX_SIDE || frame.height > MAX_SIDE {
        return Err(format!("cz play takes frames of at most {MAX_SIDE} columns and rows").into());
    }
    // r[rule.winnable]: the judge calls any game on such a frame 7; say so
    // before the first move rather than announce a draw.
    if let Some(why) = connectz_explain::account::unwinnable_refusal(
        frame.width as u64,
        frame.height as u64,
        frame.connect as u64,
    ) {
        return Err(why.into());
    }
    let options = SessionOptions {
        engine: engine::Options {
            shape: frame.shape(),
            level: match args.level {
                LevelArg::Easy => Level::Easy,
                LevelArg::Medium => Level::Medium,
                LevelArg::Perfect => Level::Perfect,
            },
        },
        engine_first: matches!(args.first, FirstArg::Engine),
        seed: args.seed,
        color: super::style().color,
    };
    let moves = session(&options, &mut std::io::stdin().lock(), &mut *out)?;
    if let Some(path) = args.save {
        std::fs::write(&path, connectz_file(options.engine.shape, &moves))
            .context(path.display().to_string())?;
        writeln!(out, "saved {} moves to {}", moves.len(), path.display())?;
    }
    Ok(0)
}
