//! The solver, the engine and the board snapshot for Python: what `cz
//! solve`, `cz play` and `cz board` compute, as calls.
//!
//! A search runs first on the caller's thread, the interpreter released,
//! for [`QUICK_NODES`]; one that needs more goes on in a thread of its own
//! while the caller's thread wakes every [`SIGNAL_POLL`] to run Python's
//! signal handlers, so that Ctrl-C raises `KeyboardInterrupt`: the solver
//! is then cancelled and stops within about a thousand nodes a thread.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use connectz::Nat;
use connectz_games::engine::{self, Level, MAX_SIDE};
use connectz_games::snapshot;
use connectz_games::solver::{Position, Shape, Solver, column_char, column_of};
use connectz_rng::Rng;
use connectz_toolbox::solve::{MAX_WIDTH, check_frame};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

/// Nodes a search spends on the caller's thread before it moves to one of
/// its own: a few milliseconds, so that easy positions cost no thread.
const QUICK_NODES: u64 = 100_000;

/// How often the caller's thread looks for signals while a search runs.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// A solver kept between calls (its table costs milliseconds to clear into
/// being), with the flag that cancels it.
struct KeptSolver {
    table_mb: usize,
    jobs: usize,
    solver: Solver,
    cancel: Arc<AtomicBool>,
}

/// The last solver used; a call that finds it taken (by another Python
/// thread) or of another size makes its own.
static KEPT: Mutex<Option<KeptSolver>> = Mutex::new(None);

/// A solver of `table_mb` megabytes with `cancel`, or `MemoryError`.
fn new_solver(py: Python<'_>, table_mb: usize, cancel: &Arc<AtomicBool>) -> PyResult<Solver> {
    py.detach(|| Solver::try_with_table_mb(table_mb))
        .map(|s| s.with_cancel(cancel.clone()))
        .map_err(PyMemoryError::new_err)
}

/// Runs `f` with a kept solver of `table_mb` on `jobs` threads, reset.
fn with_solver<T>(
    py: Python<'_>,
    table_mb: usize,
    jobs: usize,
    f: impl FnOnce(Python<'_>, &mut Solver, &AtomicBool) -> PyResult<T>,
) -> PyResult<T> {
    let kept = KEPT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        // One of another size is freed before the new one is made.
        .filter(|k| k.table_mb == table_mb);
    let mut kept = match kept {
        Some(k) => k,
        None => {
            let cancel = Arc::new(AtomicBool::new(false));
            KeptSolver {
                table_mb,
                jobs: 1,
                solver: new_solver(py, table_mb, &cancel)?,
                cancel,
            }
        }
    };
    if kept.jobs != jobs {
        let solver = std::mem::replace(&mut kept.solver, placeholder()?);
        kept.solver = solver.with_jobs(jobs);
        kept.jobs = jobs;
    }
    kept.cancel.store(false, Relaxed);
    kept.solver.reset();
    let result = f(py, &mut kept.solver, &kept.cancel);
    *KEPT.lock().unwrap_or_else(|e| e.into_inner()) = Some(kept);
    result
}

/// The smallest solver, to stand in while a kept one changes its threads.
fn placeholder() -> PyResult<Solver> {
    Solver::try_with_table_mb(1).map_err(PyMemoryError::new_err)
}

/// `work(solver, budget)` within [`QUICK_NODES`] on this thread, else
/// without a budget on another while this one runs the signal handlers;
/// an exception from them (`KeyboardInterrupt`) cancels the search.
fn searching<T: Send>(
    py: Python<'_>,
    solver: &mut Solver,
    cancel: &AtomicBool,
    work: impl Fn(&mut Solver, u64) -> Option<T> + Send + Sync,
) -> PyResult<T> {
    if let Some(found) = py.detach(|| work(solver, QUICK_NODES)) {
        return Ok(found);
    }
    // What the first search stored is proved: the second goes on from it.
    waiting(py, cancel, || work(solver, u64::MAX))
}

/// Runs `work` on a thread of its own while this one runs Python's signal
/// handlers every [`SIGNAL_POLL`]; when one raises, sets `cancel` (which
/// must make `work` return soon) and raises it.
fn waiting<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> Option<T> + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (sender, mut receiver) = mpsc::channel();
        scope.spawn(move || {
            let _ = sender.send(work());
        });
        loop {
            let (got, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_POLL), receiver));
            receiver = back;
            match got {
                Ok(Some(found)) => return Ok(found),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Relaxed);
                        // The scope waits for the search, which stops now.
                        return Err(e);
                    }
                }
                // Only a cancel stops a search without a budget; a thread
                // that ended without sending panicked (the scope says so).
                Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    py.check_signals()?;
                    return Err(PyRuntimeError::new_err(
                        "the search stopped without a score",
                    ));
                }
            }
        }
    })
}

/// A position as Python gives it, 1-based columns as text (`cz solve`'s
/// characters) or as ints, in `cz solve`'s characters (frames of at most
/// 35 columns).
fn columns_text(position: &Bound<'_, PyAny>, width: usize) -> PyResult<String> {
    if let Ok(text) = position.extract::<String>() {
        return Ok(text);
    }
    // Bytes are a sequence of ints to Python, but not a position.
    let numbers = (!position.is_instance_of::<PyBytes>()
        && !position.is_instance_of::<PyByteArray>())
    .then(|| position.extract::<Vec<i64>>().ok())
    .flatten();
    let Some(numbers) = numbers else {
        return Err(PyTypeError::new_err(format!(
            "a position is a str of columns (\"4453\") or a list of ints ([4, 4, 5, 3]), not {}",
            position.get_type().name()?
        )));
    };
    // The ints as the characters `cz solve` reads (r[solve.position]).
    numbers
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            usize::try_from(n)
                .ok()
                .filter(|&c| c <= width)
                .and_then(column_char)
                .ok_or_else(|| not_a_column(i + 1, n))
        })
        .collect()
}

fn not_a_column(at: usize, column: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("move {at}: {column} is not a column of the frame"))
}

/// The frame, checked as `cz solve` checks it.
fn solvable((width, height, connect): (usize, usize, usize)) -> PyResult<Shape> {
    let shape = Shape {
        width,
        height,
        z: connect,
    };
    check_frame(shape).map_err(PyValueError::new_err)?;
    Ok(shape)
}

/// The position, or `ValueError` with the solver's message.
fn position_of(shape: Shape, position: &Bound<'_, PyAny>) -> PyResult<Position> {
    let text = columns_text(position, shape.width)?;
    Position::from_moves(shape, &text).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The exact score (r[solve.score]), or with `weak` its sign.
#[pyfunction]
fn solve(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    frame: (usize, usize, usize),
    weak: bool,
    table_mb: usize,
    jobs: usize,
) -> PyResult<i32> {
    let p = position_of(solvable(frame)?, position)?;
    with_solver(py, table_mb, jobs, |py, solver, cancel| {
        searching(py, solver, cancel, |s, budget| {
            s.solve_within(&p, weak, budget)
        })
    })
}

/// The best column (1-based; `None` on a full frame) and the score.
#[pyfunction]
fn best(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    frame: (usize, usize, usize),
    table_mb: usize,
    jobs: usize,
) -> PyResult<(Option<usize>, i32)> {
    let p = position_of(solvable(frame)?, position)?;
    let (score, column) = with_solver(py, table_mb, jobs, |py, solver, cancel| {
        searching(py, solver, cancel, |s, budget| {
            s.best_within(&p, false, budget)
        })
    })?;
    Ok((column.map(|c| c + 1), score))
}

/// Every column's score for the side to move if it plays there (as
/// `Solver::analyze`): `None` for a full column; a column that completes a
/// run scores the win it completes, what the position itself scores.
#[pyfunction]
fn scores(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    frame: (usize, usize, usize),
    table_mb: usize,
    jobs: usize,
) -> PyResult<Vec<Option<i32>>> {
    let p = position_of(solvable(frame)?, position)?;
    let shape = p.shape();
    with_solver(py, table_mb, jobs, |py, solver, cancel| {
        searching(py, solver, cancel, |s, budget| {
            (0..shape.width)
                .map(|c| {
                    if !p.can_play(c) {
                        Some(None)
                    } else if p.is_winning_move(c) {
                        Some(Some(shape.win_score(p.moves())))
                    } else {
                        let mut next = p;
                        next.play_column(c);
                        s.solve_within(&next, false, budget).map(|v| Some(-v))
                    }
                })
                .collect()
        })
    })
}

/// The engine of `cz play` at one level on one frame, with its own solver
/// and random numbers.
#[pyclass(module = "connectz_reference._native")]
struct NativeEngine {
    options: engine::Options,
    rng: Rng,
    solver: Solver,
    cancel: Arc<AtomicBool>,
}

#[pymethods]
impl NativeEngine {
    /// `level` is `"easy"`, `"medium"` or `"perfect"`; the frame is checked
    /// as `cz play` checks it.
    #[new]
    fn new(
        py: Python<'_>,
        level: &str,
        frame: (usize, usize, usize),
        seed: u64,
        table_mb: usize,
        jobs: usize,
    ) -> PyResult<NativeEngine> {
        let (width, height, connect) = frame;
        let level = match level {
            "easy" => Level::Easy,
            "medium" => Level::Medium,
            "perfect" => Level::Perfect,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "level {level:?}: the levels are \"easy\", \"medium\" and \"perfect\""
                )));
            }
        };
        if width == 0 || height == 0 || connect == 0 {
            return Err(PyValueError::new_err(
                "the frame's numbers must be positive",
            ));
        }
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(PyValueError::new_err(format!(
                "the engine takes frames of at most {MAX_SIDE} columns and rows"
            )));
        }
        if let Some(why) = connectz_explain::account::unwinnable_refusal(
            width as u64,
            height as u64,
            connect as u64,
        ) {
            return Err(PyValueError::new_err(why));
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let shape = Shape {
            width,
            height,
            z: connect,
        };
        // Only the perfect level on a frame the solver takes uses the
        // table: the others get the smallest.
        let table_mb = if level == Level::Perfect && shape.fits() {
            table_mb
        } else {
            1
        };
        Ok(NativeEngine {
            options: engine::Options { shape, level },
            rng: Rng::new(seed),
            // 0 threads: one for each core, as `cz play` has.
            solver: match new_solver(py, table_mb, &cancel)? {
                solver if jobs == 0 => solver.with_every_core(),
                solver => solver.with_jobs(jobs),
            },
            cancel,
        })
    }

    /// The engine's column (1-based) for the side to move after
    /// `position`, and its evaluation in words.
    fn play(&mut self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<(usize, String)> {
        let shape = self.options.shape;
        // Text names at most 35 columns (`cz solve`'s characters): wider
        // frames, even those the solver takes, read ints.
        let moves = if shape.fits() && shape.width <= MAX_WIDTH {
            let text = columns_text(position, shape.width)?;
            Position::from_moves(shape, &text).map_err(|e| PyValueError::new_err(e.to_string()))?;
            if text == "." {
                Vec::new()
            } else {
                // Every character names a column: from_moves checked them.
                text.chars().filter_map(column_of).map(|c| c - 1).collect()
            }
        } else {
            replayed(shape, &position.extract::<Vec<i64>>().map_err(|_| {
                PyTypeError::new_err(
                    "on a frame of more than 35 columns, a position is a list of ints (1-based columns)",
                )
            })?)?
        };
        if moves.len() >= shape.width * shape.height {
            return Err(PyValueError::new_err(
                "the frame is full: there is no move to make",
            ));
        }
        self.cancel.store(false, Relaxed);
        let NativeEngine {
            options,
            rng,
            solver,
            cancel,
        } = self;
        let options = *options;
        let choice = waiting(py, cancel, || {
            engine::try_choose_with(&options, &moves, &mut |n| rng.below(n), solver, &mut || {})
        })?;
        Ok((choice.column + 1, choice.evaluation))
    }
}

/// The 0-based columns of `numbers` on a frame too large for the solver,
/// checked by the judge's own game (with the solver's messages).
fn replayed(shape: Shape, numbers: &[i64]) -> PyResult<Vec<usize>> {
    let mut game = engine::replay(shape, &[]);
    let mut moves = Vec::with_capacity(numbers.len());
    for (i, &n) in numbers.iter().enumerate() {
        let at = i + 1;
        let column = usize::try_from(n)
            .ok()
            .filter(|&c| c >= 1 && c <= shape.width)
            .ok_or_else(|| not_a_column(at, n))?;
        let nat = Nat::from(column as u64);
        if !game.is_open(&nat) {
            return Err(PyValueError::new_err(format!(
                "move {at}: column {column} is full"
            )));
        }
        if game.would_complete(&nat) {
            return Err(PyValueError::new_err(format!(
                "move {at} completes a run: the game is over"
            )));
        }
        game = connectz::step(game, &nat).0;
        moves.push(column - 1);
    }
    Ok(moves)
}

/// `cz board`'s answer on a grid (rows top-down) and, for an invalid or
/// undecided one, why; a grid it cannot read is `ValueError`. The search
/// cannot be cancelled, but it is bounded (a few seconds at most,
/// r[board.undecided]): on Ctrl-C the caller raises `KeyboardInterrupt` at
/// once and leaves it to end on its thread.
#[pyfunction]
fn board(
    py: Python<'_>,
    grid: &[u8],
    connect: usize,
    first: Option<char>,
    empty: Option<char>,
    gravity: bool,
) -> PyResult<(String, Option<String>)> {
    let grid = grid.to_vec();
    let (sender, mut receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let judged = snapshot::judge_grid(&grid, connect, first, empty, gravity);
        let _ = sender.send(judged.map(|(_, judgement)| judgement));
    });
    loop {
        let (got, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_POLL), receiver));
        receiver = back;
        match got {
            Ok(judged) => {
                let judgement = judged.map_err(|e| PyValueError::new_err(e.to_string()))?;
                return Ok((judgement.answer.to_string(), judgement.why));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the board's search panicked"));
            }
        }
    }
}

/// For the overhead bench (`python/benches/overhead.py`): the time of each
/// of `best`'s calls into the solver when made from Rust (the position
/// read, the kept solver reset, its best column found), in nanoseconds,
/// without Python's share (converting arguments and results, releasing the
/// interpreter, the kept solver's lock).
#[pyfunction]
fn best_loop_nanoseconds(
    py: Python<'_>,
    positions: Vec<String>,
    frame: (usize, usize, usize),
    table_mb: usize,
) -> PyResult<Vec<u64>> {
    let shape = solvable(frame)?;
    with_solver(py, table_mb, 1, |py, solver, _| {
        py.detach(|| {
            positions
                .iter()
                .map(|text| {
                    let started = std::time::Instant::now();
                    let p = Position::from_moves(shape, text).ok()?;
                    solver.reset();
                    std::hint::black_box(solver.best_within(&p, false, u64::MAX)?);
                    Some(started.elapsed().as_nanos() as u64)
                })
                .collect::<Option<Vec<u64>>>()
        })
        .ok_or_else(|| PyValueError::new_err("an invalid position"))
    })
}

/// Reads the shipped 7 x 6 opening book now, if this process has not, and
/// gives its number of positions.
#[pyfunction]
fn read_book(py: Python<'_>) -> usize {
    py.detach(|| connectz_games::book::classic().len())
}

/// Adds this module's functions and class to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DEFAULT_TABLE_MB", connectz_games::solver::DEFAULT_TABLE_MB)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(best, m)?)?;
    m.add_function(wrap_pyfunction!(scores, m)?)?;
    m.add_function(wrap_pyfunction!(read_book, m)?)?;
    m.add_function(wrap_pyfunction!(board, m)?)?;
    m.add_function(wrap_pyfunction!(best_loop_nanoseconds, m)?)?;
    m.add_class::<NativeEngine>()?;
    Ok(())
}
