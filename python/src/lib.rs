//! The native half of the Python package `connectz`
//! (`connectz_reference._native`): the judge's verdict on a file or on
//! bytes, `cz explain --json`'s account, the solver's scores (`cz solve`),
//! the engine of `cz play`, `cz board`'s snapshot verdict, `cz render`'s
//! picture, and the `connectz` and `cz` commands, each a thin call into the
//! Rust crates. The Python half (`connectz_reference/__init__.py`) checks
//! arguments and builds objects.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use connectz::Report;
use connectz_explain::account;
use connectz_explain::render::{Excerpt, Picture, draw};
use pyo3::prelude::*;

mod solving;

/// A verdict as Python receives it: code, rule, line, why, and the frame's
/// three numbers as decimal text (of any length: Python makes them ints).
type Verdict = (u8, &'static str, Option<u64>, String, Option<[String; 3]>);

fn verdict(report: &Report) -> Verdict {
    (
        report.code().number(),
        report.verdict.rule(),
        report.verdict.line(),
        report.verdict.to_string(),
        report
            .header
            .as_ref()
            .map(|h| [h.x.to_string(), h.y.to_string(), h.z.to_string()]),
    )
}

/// The verdict on the file at `path` (the interpreter's lock released while
/// the judge reads).
#[pyfunction]
fn judge_path(py: Python<'_>, path: PathBuf) -> Verdict {
    py.detach(|| verdict(&connectz::judge_path(&path)))
}

/// The verdict on `data`, a whole file's bytes.
#[pyfunction]
fn judge_bytes(py: Python<'_>, data: &[u8]) -> Verdict {
    py.detach(|| verdict(&connectz::judge_bytes(data)))
}

/// `cz explain --json`'s account of the file at `path`, as JSON text.
#[pyfunction]
fn explain_path(py: Python<'_>, path: PathBuf) -> String {
    py.detach(|| {
        let report = connectz::judge_path_with(&path, account::keeping_board());
        account::json(&report, &path.display().to_string())
    })
}

/// The same account of `data`, a whole file's bytes, called `name`.
#[pyfunction]
fn explain_bytes(py: Python<'_>, data: &[u8], name: &str) -> String {
    py.detach(|| {
        let report = connectz::judge_bytes_with(data, account::keeping_board());
        account::json(&report, name)
    })
}

/// `cz render`'s SVG picture of the game file at `path`, titled with its
/// name.
#[pyfunction]
fn render_path(py: Python<'_>, path: PathBuf, title: &str) -> String {
    py.detach(|| {
        let report = connectz::judge_path_with(&path, account::keeping_board());
        // As `cz render`: the offending line read again, from a regular
        // file only (a FIFO cannot be read twice).
        let excerpt = std::fs::metadata(&path)
            .is_ok_and(|m| m.is_file())
            .then(|| std::fs::File::open(&path).ok())
            .flatten()
            .and_then(|f| Excerpt::of(&report, f));
        picture(&report, title, excerpt.as_ref())
    })
}

/// The same picture of `data`, a whole game file's bytes.
#[pyfunction]
fn render_bytes(py: Python<'_>, data: &[u8], title: &str) -> String {
    py.detach(|| {
        let report = connectz::judge_bytes_with(data, account::keeping_board());
        let excerpt = Excerpt::of(&report, data);
        picture(&report, title, excerpt.as_ref())
    })
}

fn picture(report: &Report, title: &str, excerpt: Option<&Excerpt>) -> String {
    draw(&Picture {
        report,
        title,
        excerpt,
    })
}

/// The `connectz` command: prints what the `connectz` binary prints for
/// `args` (the program's name left out); its exit status is 0.
#[pyfunction]
fn connectz_command(py: Python<'_>, args: Vec<OsString>) -> u8 {
    let line = py.detach(|| connectz::command_line(&args));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
    0
}

/// The `cz` command: runs what the `cz` binary runs for `args` (the first
/// is the program's name) and returns its exit status. `program` is the
/// command's own path, which starts `cz check`'s supervisors (this process
/// is an interpreter, not `cz`).
#[pyfunction]
fn cz_command(py: Python<'_>, program: PathBuf, args: Vec<OsString>) -> u8 {
    connectz_sandbox::set_own_program(program);
    py.detach(|| connectz_toolbox::cli::main(args))
}

/// The module `connectz._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(judge_path, m)?)?;
    m.add_function(wrap_pyfunction!(judge_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(explain_path, m)?)?;
    m.add_function(wrap_pyfunction!(explain_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(render_path, m)?)?;
    m.add_function(wrap_pyfunction!(render_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(connectz_command, m)?)?;
    m.add_function(wrap_pyfunction!(cz_command, m)?)?;
    solving::register(m)?;
    Ok(())
}
