//! A grade as `cz grade` runs it ([`grade_class`]): the candidates graded
//! before taken from the journal (`--resume`), the others graded, and as
//! each is, its result added to the journal, every report rewritten and a
//! line said on standard error.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use connectz_check::{Progress, corpus, shown};
use connectz_sandbox::Sandbox;
use connectz_sandbox::files::write_whole;

use crate::journal::{self, Refused};
use crate::{ClassReport, Entry, Facts, GradeSettings, Graded, grade, html, json, junit, on_path};

/// Where a grade keeps what it finds, and what it says as it goes.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// The JSON report's file.
    pub json: Option<PathBuf>,
    /// The JUnit report's file.
    pub junit: Option<PathBuf>,
    /// The HTML page's file.
    pub html: Option<PathBuf>,
    /// Take from the journal beside the reports the candidates graded
    /// before with the same command, cases, limits and reference.
    pub resume: bool,
    /// No progress lines on standard error (the journal's lines refused
    /// are said still: results were not taken that might have been).
    pub quiet: bool,
}

impl Output {
    /// The journal's file: beside the first report named, of the JSON,
    /// JUnit and HTML reports.
    pub fn journal(&self) -> Option<PathBuf> {
        [&self.json, &self.junit, &self.html]
            .into_iter()
            .flatten()
            .next()
            .map(|p| journal::path_beside(p))
    }

    /// Writes every report asked for, of `class`: each whole or not at
    /// all, never through a link planted beside it.
    ///
    /// # Errors
    /// A report cannot be written; the error names it.
    pub fn write(&self, class: &ClassReport) -> io::Result<()> {
        let facts = Facts::of(class);
        let write = |path: &Option<PathBuf>, render: fn(&Facts) -> String| match path {
            Some(path) => {
                write_whole(path, render(&facts).as_bytes(), 0o644).map_err(on_path(path))
            }
            None => Ok(()),
        };
        write(&self.json, json::report)?;
        write(&self.html, html::report)?;
        write(&self.junit, junit::report)?;
        Ok(())
    }
}

/// Grades `entries` with `settings` in `sandbox` ([`grade`]), keeping what
/// it finds as `output` says: with `output.resume`, the candidates graded
/// before are taken from the journal; as each candidate is graded, its
/// result is added to the journal (written anew beside the first report,
/// whenever a report is asked for) and every report is rewritten, so that
/// an interrupted grade leaves the reports of the candidates finished.
/// Says on standard error each journal line refused, and unless
/// `output.quiet` the candidates taken, a live progress line on a terminal
/// and a line per candidate graded.
///
/// # Errors
/// `--resume` without a report to find the journal beside, a journal that
/// cannot be started, or what [`grade`] fails on.
pub fn grade_class(
    entries: Vec<Entry>,
    settings: &GradeSettings,
    sandbox: &Sandbox,
    output: &Output,
) -> io::Result<ClassReport> {
    let corpus_cases = corpus();
    let digest = journal::digest(&corpus_cases);
    let (mut journal, todo) = match output.journal() {
        Some(path) => {
            let mut opened =
                journal::open(&path, entries, settings, sandbox, digest, output.resume)?;
            // Said even with -q: results were not taken that might have been.
            for r in &opened.refused {
                eprintln!("{}", refused(&path, r));
            }
            let todo = std::mem::take(&mut opened.todo);
            (Some(opened), todo)
        }
        None if output.resume => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--resume takes the results kept beside the reports: give --json, --junit or --html",
            ));
        }
        None => (None, entries),
    };
    let resumed = journal
        .as_mut()
        .map(|j| std::mem::take(&mut j.resumed))
        .unwrap_or_default();
    if let Some(j) = journal
        .as_ref()
        .filter(|_| !output.quiet && !resumed.is_empty())
    {
        eprintln!(
            "cz grade: {} candidates taken from {}, {} to grade",
            resumed.len(),
            shown(j.journal.path().as_os_str().as_encoded_bytes()),
            todo.len()
        );
    }
    let planned = todo.len() as u64 * (corpus_cases.len() + settings.cases) as u64;
    let live = !output.quiet && io::stderr().is_terminal();
    let progress = Progress::new(planned, todo.len(), live);
    let class = grade(resumed, todo, settings, sandbox, &progress, |class, g| {
        if let (Some(g), Some(journal)) = (g, &journal)
            && let Err(e) = journal.record(g)
        {
            let path = journal.journal.path();
            progress.println(&format!("cz grade: {}: {e}", path.display()));
        }
        // Each candidate's result is written as soon as it is known: an
        // interrupted grade leaves the reports of the candidates finished.
        if let Err(e) = output.write(class) {
            progress.println(&format!("cz grade: {e}"));
        }
        if let Some(g) = g.filter(|_| !output.quiet) {
            progress.println(&graded(class, g));
        }
    });
    progress.finish();
    class
}

/// A journal's line not taken, in words.
fn refused(path: &Path, r: &Refused) -> String {
    format!(
        "cz grade: {} line {}: {}{}; graded again",
        shown(path.as_os_str().as_encoded_bytes()),
        r.line,
        r.why,
        r.candidate.as_ref().map_or(String::new(), |name| format!(
            " (candidate \"{}\")",
            shown(name)
        ))
    )
}

/// A candidate graded, in one line: its place in the class so far and its
/// counts.
fn graded(class: &ClassReport, g: &Graded) -> String {
    format!(
        "cz grade: [{}/{}] {}: {} defined failures, {} crashes, {} timeouts, {} memory breaches, {} impl notes ({:.1} s)",
        class.graded.len(),
        class.planned,
        shown(&g.entry.name),
        g.failures(),
        g.crashes(),
        g.timeouts(),
        g.memory(),
        g.notes(),
        g.seconds
    )
}
