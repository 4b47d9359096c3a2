//! `cz`: the toolbox around the reference judge. Every rule lives in the
//! library; this file reads arguments, calls it and prints.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::fs;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use connectz::check::{Candidate, check, corpus, generated};
use connectz::explain::{self, Style, json_string};
use connectz::generate::{Frame, Workload, game_with_code, workload};
use connectz::{
    Code, Judge, Keep, judge_path, judge_path_with, play, render, rotate, sandbox, snapshot, solver,
};
use rayon::prelude::*;

#[derive(Parser)]
#[command(
    name = "cz",
    version,
    about = "The toolbox around the ConnectZ reference judge"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Explain a verdict: code, rule, line, why, and the final board.
    Explain {
        /// The game file.
        file: PathBuf,
        /// Print the account as one JSON object.
        #[arg(long)]
        json: bool,
        /// Print the board after every move.
        #[arg(long, conflicts_with = "json")]
        trace: bool,
    },
    /// Draw the final board as an SVG picture.
    Render {
        /// The game file.
        file: PathBuf,
        /// Where to write the SVG.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Write a valid game file with a chosen code, or a benchmark workload.
    Gen {
        /// The code the file must judge to (0 to 8).
        #[arg(
            long,
            required_unless_present = "workload",
            conflicts_with = "workload"
        )]
        code: Option<u8>,
        /// Columns (default 7).
        #[arg(long)]
        width: Option<u64>,
        /// Rows (default 6).
        #[arg(long)]
        height: Option<u64>,
        /// Line length (default 4; 8 for code 7).
        #[arg(long)]
        connect: Option<u64>,
        /// A benchmark shape instead of a code.
        #[arg(long, value_enum)]
        workload: Option<WorkloadArg>,
        /// Scale of the workload (default: the benchmark's size).
        #[arg(long)]
        size: Option<u64>,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write here instead of standard out.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Judge files and folders in parallel: one `path<TAB>code` line each, sorted by path.
    Batch {
        /// Files or folders (searched recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// JSON lines instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Judge a board snapshot: who moves, who won, or invalid.
    Board {
        /// The grid (rows top-down, one per line or joined by `/` or `;`); `-` or none reads standard input.
        file: Option<PathBuf>,
        /// Line length.
        #[arg(short = 'z', default_value_t = 4)]
        z: usize,
        /// The symbol of the player who moved first.
        #[arg(long)]
        first: Option<char>,
        /// One more symbol for an empty cell (`.`, `_` and `0` always are).
        #[arg(long)]
        empty: Option<char>,
        /// Say why a position is invalid.
        #[arg(long)]
        why: bool,
        /// List every line of z or more.
        #[arg(long)]
        lines: bool,
        /// Counters need not rest on anything: skip the validity checks.
        #[arg(long)]
        no_gravity: bool,
    },
    /// Solve the "Rotate" contest problem: `Case #i: Red|Blue|Both|Neither`.
    Rotate {
        /// The contest input; `-` or none reads standard input.
        file: Option<PathBuf>,
    },
    /// Exact scores: one position per line (column digits from the empty frame).
    Solve {
        /// Positions, one per line (the first token; the rest is ignored); `-` or none reads standard input.
        file: Option<PathBuf>,
        #[command(flatten)]
        frame: FrameArgs,
        /// Only the sign of the score: win, draw or loss.
        #[arg(long)]
        weak: bool,
        /// Add the best column.
        #[arg(long)]
        best: bool,
        /// Nodes searched per position, and the mean time and nodes at the end.
        #[arg(long)]
        stats: bool,
    },
    /// Play against the engine in the terminal: a column number to move, u to undo, q to quit.
    Play {
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
    },
    /// Run another implementation on the reference corpus and generated games.
    Check {
        /// Generated games to add to the shipped corpus.
        #[arg(long, default_value_t = 200)]
        cases: usize,
        /// Seed for the generated games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds one run may take (more than 0, at most a day).
        #[arg(long, default_value = "10", value_parser = parse_timeout)]
        timeout: Duration,
        /// Megabytes of address space one run may use (its process and all
        /// it starts each).
        #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(16..=1 << 24))]
        memory: u64,
        /// Runs at a time (default: the number of cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
        jobs: Option<u64>,
        /// Failing generated games to shrink.
        #[arg(long, default_value_t = 3)]
        shrink: usize,
        /// The candidate's command line; the game file's path is appended.
        #[arg(last = true, required = true)]
        command: Vec<OsString>,
    },
}

/// A frame for the solver and the game.
#[derive(Clone, Copy, clap::Args)]
struct FrameArgs {
    /// Columns.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Rows.
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Line length.
    #[arg(long, default_value_t = 4)]
    connect: usize,
}

impl FrameArgs {
    fn shape(self) -> solver::Shape {
        solver::Shape {
            width: self.width,
            height: self.height,
            z: self.connect,
        }
    }
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

#[derive(Clone, Copy, ValueEnum)]
enum WorkloadArg {
    Tail,
    Dense,
    Ladder,
    Sparse,
}

fn main() -> ExitCode {
    // The supervisor of one run of `cz check` (see connectz::sandbox).
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == sandbox::SUPERVISE) {
        sandbox::supervise(&args[2..]);
    }
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cz: {e}");
            ExitCode::from(2)
        }
    }
}

fn style() -> Style {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Style {
        color: !no_color && io::stdout().is_terminal(),
        ..Style::default()
    }
}

fn run(command: Command) -> Result<ExitCode, String> {
    let mut out = BufWriter::new(io::stdout().lock());
    match command {
        Command::Explain { file, json, trace } => {
            if trace {
                self::trace(&file, &mut out)?;
            }
            let report = judge_path_with(&file, whole_board());
            let text = if json {
                format!("{}\n", explain::json(&report, &file.display().to_string()))
            } else {
                explain::text(&report, style())
            };
            out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        }
        Command::Render { file, output } => {
            let report = judge_path_with(&file, whole_board());
            let title = file
                .file_name()
                .map_or("game".into(), |n| n.to_string_lossy().into_owned());
            fs::write(&output, render::svg(&report, &title))
                .map_err(|e| format!("{}: {e}", output.display()))?;
            writeln!(
                out,
                "{}: code {} ({})",
                output.display(),
                report.code(),
                report.code().name()
            )
            .map_err(|e| e.to_string())?;
        }
        Command::Gen {
            code,
            width,
            height,
            connect,
            workload: shape,
            size,
            seed,
            output,
        } => {
            let mut sink: Box<dyn Write> = match &output {
                Some(path) => Box::new(
                    fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                ),
                None => Box::new(&mut out),
            };
            if let Some(shape) = shape {
                let (kind, default) = match shape {
                    WorkloadArg::Tail => (Workload::Tail, 30_000_000),
                    WorkloadArg::Dense => (Workload::Dense, 3000),
                    WorkloadArg::Ladder => (Workload::Ladder, 200_000),
                    WorkloadArg::Sparse => (Workload::Sparse, 1_000_000),
                };
                workload(kind, size.unwrap_or(default), seed, &mut sink)
                    .map_err(|e| e.to_string())?;
            } else {
                let code = code
                    .and_then(Code::from_number)
                    .ok_or("--code takes 0 to 8")?;
                let frame = Frame {
                    x: width.unwrap_or(7),
                    y: height.unwrap_or(6),
                    z: connect.unwrap_or(if code == Code::IllegalGame { 8 } else { 4 }),
                };
                let bytes = game_with_code(code, frame, seed)?;
                sink.write_all(&bytes).map_err(|e| e.to_string())?;
            }
            sink.flush().map_err(|e| e.to_string())?;
        }
        Command::Batch { paths, json } => batch(&paths, json, &mut out)?,
        Command::Board {
            file,
            z,
            first,
            empty,
            why,
            lines,
            no_gravity,
        } => {
            let input = read_input(file.as_deref())?;
            let (position, judgement) = snapshot::judge_grid(&input, z, first, empty, !no_gravity)
                .map_err(|e| e.to_string())?;
            writeln!(out, "{}", judgement.verdict).map_err(|e| e.to_string())?;
            if why && let Some(reason) = &judgement.why {
                writeln!(out, "why: {reason}").map_err(|e| e.to_string())?;
            }
            if judgement.verdict == snapshot::Verdict::Undecided {
                out.flush().map_err(|e| e.to_string())?;
                return Ok(ExitCode::from(3));
            }
            if lines {
                for line in position.lines(z) {
                    let symbol = position.symbols[usize::from(line.side == snapshot::Side::Second)];
                    let cells: Vec<String> = line
                        .cells
                        .iter()
                        .map(|(r, c)| format!("({r},{c})"))
                        .collect();
                    writeln!(
                        out,
                        "{symbol}: {} in a row: {}",
                        line.cells.len(),
                        cells.join(" ")
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
        }
        Command::Solve {
            file,
            frame,
            weak,
            best,
            stats,
        } => {
            let shape = frame.shape();
            let (width, height) = (frame.width, frame.height);
            if !shape.fits() || width > 9 {
                return Err(format!(
                    "{width} x {height} is too large to solve exactly: width * (height + 1) must be at most 64, and positions are written one digit per move, so width at most 9"
                ));
            }
            let input = String::from_utf8(read_input(file.as_deref())?)
                .map_err(|_| "the input is not UTF-8 text")?;
            let mut engine = solver::Solver::new();
            let (mut solved, mut failed, mut nodes) = (0u64, 0u64, 0u64);
            let started = std::time::Instant::now();
            for line in input.lines() {
                let Some(moves) = line.split_whitespace().next() else {
                    continue;
                };
                let position = match solver::Position::from_moves(shape, moves) {
                    Ok(p) => p,
                    Err(e) => {
                        failed += 1;
                        writeln!(out, "{moves} invalid: {e}").map_err(|e| e.to_string())?;
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
                writeln!(out, "{text}").map_err(|e| e.to_string())?;
            }
            if stats && solved > 0 {
                let elapsed = started.elapsed().as_secs_f64();
                writeln!(
                    out,
                    "# {solved} positions: mean {:.2} nodes, mean {:.3} ms per position",
                    nodes as f64 / solved as f64,
                    elapsed * 1e3 / solved as f64
                )
                .map_err(|e| e.to_string())?;
            }
            out.flush().map_err(|e| e.to_string())?;
            return Ok(if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        Command::Play {
            frame,
            level,
            first,
            save,
            seed,
        } => {
            if frame.width == 0 || frame.height == 0 || frame.connect == 0 {
                return Err("the frame's numbers must be positive".into());
            }
            if frame.width > play::MAX_SIDE || frame.height > play::MAX_SIDE {
                return Err(format!(
                    "cz play takes frames of at most {} columns and rows",
                    play::MAX_SIDE
                ));
            }
            let options = play::Options {
                shape: frame.shape(),
                level: match level {
                    LevelArg::Easy => play::Level::Easy,
                    LevelArg::Medium => play::Level::Medium,
                    LevelArg::Perfect => play::Level::Perfect,
                },
                engine_first: matches!(first, FirstArg::Engine),
                seed,
                color: style().color,
            };
            let moves = play::session(&options, &mut io::stdin().lock(), &mut out)
                .map_err(|e| e.to_string())?;
            if let Some(path) = save {
                fs::write(&path, play::connectz_file(options.shape, &moves))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                writeln!(out, "saved {} moves to {}", moves.len(), path.display())
                    .map_err(|e| e.to_string())?;
            }
        }
        Command::Rotate { file } => {
            let input = read_input(file.as_deref())?;
            let text =
                String::from_utf8(input).map_err(|_| "the input is not UTF-8 text".to_string())?;
            out.write_all(rotate::solve(&text)?.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        Command::Check {
            cases,
            seed,
            timeout,
            memory,
            jobs,
            shrink,
            command,
        } => {
            let candidate = Candidate { command };
            let sandbox = sandbox(timeout, memory)?;
            let all = corpus().into_iter().chain(generated(cases, seed));
            let jobs = jobs.map_or_else(default_jobs, |j| j as usize);
            let report =
                check(&candidate, all, &sandbox, jobs, shrink).map_err(|e| e.to_string())?;
            out.write_all(report.text().as_bytes())
                .map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            return Ok(if report.defined_failures() == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// Feeds the file a line at a time and draws the board after every counter.
fn trace(file: &Path, out: &mut impl Write) -> Result<(), String> {
    let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut judge = whole_board();
    let mut placed = 0;
    for (n, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        judge.feed(line);
        let Some(game) = judge.game() else {
            continue;
        };
        if game.placed() != placed {
            placed = game.placed();
            let text = String::from_utf8_lossy(line);
            writeln!(
                out,
                "line {}: move {} (column {})",
                n + 1,
                placed,
                text.trim_end()
            )
            .map_err(|e| e.to_string())?;
            out.write_all(explain::draw(game, style()).as_bytes())
                .map_err(|e| e.to_string())?;
            writeln!(out).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// `--timeout`: seconds, more than 0 and at most a day.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(format!("{text} is not between 0 and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// A sandbox for runs of candidates, whose scratch folder and processes are
/// removed and killed even when cz is interrupted.
fn sandbox(timeout: Duration, memory_mb: u64) -> Result<sandbox::Sandbox, String> {
    let _ = ctrlc::set_handler(|| {
        sandbox::clean_up_on_interrupt();
        std::process::exit(130);
    });
    let exe = std::env::current_exe().map_err(|e| format!("cannot find cz itself: {e}"))?;
    let scratch = std::env::temp_dir().join(format!("cz-check-{}", std::process::id()));
    let limits = sandbox::Limits {
        timeout,
        memory: memory_mb << 20,
        output: 1 << 20,
    };
    sandbox::Sandbox::new(exe, scratch, limits).map_err(|e| format!("scratch folder: {e}"))
}

/// A judge that keeps every counter to the end, for pictures of the board.
fn whole_board() -> Judge {
    Judge::keeping(Keep {
        board: true,
        ..Keep::default()
    })
}

/// A file's bytes, or standard input for `-` or no path.
fn read_input(path: Option<&Path>) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    match path {
        Some(p) if p != Path::new("-") => {
            bytes = fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        _ => {
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("standard input: {e}"))?;
        }
    }
    Ok(bytes)
}

fn batch(paths: &[PathBuf], json: bool, out: &mut impl Write) -> Result<(), String> {
    let walk = connectz::batch::walk(paths);
    for path in &walk.special {
        eprintln!(
            "cz batch: {}: not a regular file, not opened (code 9)",
            path.display()
        );
    }
    if !walk.skipped.is_empty() {
        eprintln!("cz batch: {}", walk.skipped);
    }
    let mut files = walk.files;
    files.extend(walk.special.iter().cloned());
    files.sort();
    let done = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let show = io::stderr().is_terminal() && files.len() >= 200;
    let codes: Vec<Code> = std::thread::scope(|scope| {
        if show {
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    eprint!("\r{}/{} files", done.load(Ordering::Relaxed), files.len());
                    std::thread::sleep(Duration::from_millis(200));
                }
                eprint!("\r{}\r", " ".repeat(32));
            });
        }
        let codes = files
            .par_iter()
            .map(|f| {
                // Named special files are never opened: they could block.
                let code = if walk.special.contains(f) {
                    Code::FileError
                } else {
                    judge_path(f).code()
                };
                done.fetch_add(1, Ordering::Relaxed);
                code
            })
            .collect();
        finished.store(true, Ordering::Relaxed);
        codes
    });
    let mut counts = [0usize; 10];
    for (file, code) in files.iter().zip(&codes) {
        counts[usize::from(code.number())] += 1;
        let line = if json {
            format!(
                "{{\"path\":{},\"code\":{code},\"name\":{}}}",
                json_string(&file.display().to_string()),
                json_string(code.name())
            )
        } else {
            format!("{}\t{code}", file.display())
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    if json {
        let summary: Vec<String> = Code::ALL
            .iter()
            .map(|c| format!("\"{}\":{}", c.number(), counts[usize::from(c.number())]))
            .collect();
        writeln!(
            out,
            "{{\"summary\":{{{}}},\"files\":{}}}",
            summary.join(","),
            files.len()
        )
        .map_err(|e| e.to_string())?;
    } else {
        writeln!(out, "# {} files", files.len()).map_err(|e| e.to_string())?;
        for code in Code::ALL {
            let n = counts[usize::from(code.number())];
            if n > 0 {
                writeln!(out, "# {code} {}: {n}", code.name()).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}
