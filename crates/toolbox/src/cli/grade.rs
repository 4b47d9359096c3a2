use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use crate::{Context, Result};
use connectz_check::{Candidate, Progress, corpus, shown};
use connectz_grade::journal::Key;
use connectz_grade::{self as grade, ClassReport, GradeSettings, perf};
use connectz_sandbox as sandbox;

use super::check::Common;

#[derive(clap::Args)]
pub struct GradeArgs {
    /// The manifest (TOML: one `[[candidate]]` table each, with name, command
    /// and an optional dir); with --each, the paths, one candidate each.
    #[arg(required = true, value_name = "MANIFEST | PATHS")]
    inputs: Vec<PathBuf>,
    /// One candidate per path: its command line, with {} for the path
    /// (e.g. 'python3 {}/connectz.py'); the game file's path is appended.
    #[arg(long, value_name = "TEMPLATE")]
    each: Option<String>,
    /// A variable of every candidate's environment (cleared in a box), as
    /// a manifest's `env` names it: NAME passes the grader's own,
    /// NAME=VALUE sets it. Repeatable.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    env: Vec<String>,
    /// A file or folder given to every candidate's box read-only, as a
    /// manifest's `paths` names it (`$NAME` for a variable of the
    /// grader's). Repeatable.
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    #[command(flatten)]
    common: Common,
    /// Failure groups to shrink per candidate.
    #[arg(long, default_value_t = 10)]
    shrink: usize,
    /// Timeouts in a row after which a candidate's remaining cases are not
    /// run (it hangs on everything).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    give_up: u64,
    /// Also grade speed: the benchmark's workloads, against the reference.
    #[arg(long)]
    perf: bool,
    /// Runs of each speed workload (the median is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
    perf_runs: u64,
    /// Scale of the speed workloads (1: 200,000 moves after a win, a 300 x
    /// 300 fill, a 20,000 ladder, 20,000 sparse moves, 20 small files).
    #[arg(long, default_value = "1", value_parser = parse_scale)]
    perf_scale: f64,
    /// The reference binary for --perf (default: connectz beside cz).
    #[arg(long, value_name = "PATH")]
    reference: Option<PathBuf>,
    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the report as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write the report as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// No progress lines on standard error.
    #[arg(long, short)]
    quiet: bool,
    /// Take from the journal beside the reports (FILE.journal.jsonl, kept
    /// by every grade that writes a report) the candidates already graded
    /// with the same command, cases, limits and reference; grade only the
    /// others. A line that does not parse or whose digest does not match
    /// (FILE.journal.key) is said on standard error and graded again.
    #[arg(long)]
    resume: bool,
}

fn parse_scale(text: &str) -> std::result::Result<f64, String> {
    super::above_zero_at_most(text, 100.0, "")
}

pub fn run(args: GradeArgs, out: &mut dyn Write) -> Result<u8> {
    let entries = match &args.each {
        Some(template) => grade::each(template, &args.inputs)?,
        None => match &args.inputs[..] {
            [manifest] => grade::manifest(manifest)?,
            _ => {
                return Err(
                    "give one manifest, or --each TEMPLATE and the paths of the candidates".into(),
                );
            }
        },
    };
    let env = args
        .env
        .iter()
        .map(|e| connectz_check::env_entry(e))
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let paths = args
        .paths
        .iter()
        .map(|p| connectz_check::path_entry(p, std::path::Path::new(".")))
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let mut entries = entries;
    for entry in &mut entries {
        entry.candidate.env.extend(env.iter().cloned());
        entry.candidate.paths.extend(paths.iter().cloned());
    }
    let perf = if args.perf {
        Some(perf::PerfSettings {
            runs: args.perf_runs as usize,
            scale: args.perf_scale,
            reference: Candidate::new(vec![reference(args.reference.clone())?.into_os_string()]),
        })
    } else {
        None
    };
    let settings = GradeSettings {
        cases: args.common.cases,
        seed: args.common.seed,
        jobs: args.common.jobs(),
        shrink: args.shrink,
        give_up: args.give_up as usize,
        perf,
        timeouts: args.common.timeouts(),
    };
    let sandbox = args.common.sandbox()?;
    let quiet = args.quiet;
    let journal = [&args.json, &args.junit, &args.html]
        .into_iter()
        .flatten()
        .next()
        .map(|p| grade::journal::path_beside(p));
    if args.resume && journal.is_none() {
        return Err(
            "--resume takes the results kept beside the reports: give --json, --junit or --html"
                .into(),
        );
    }
    let corpus_cases = corpus();
    let digest = grade::journal::digest(&corpus_cases);
    let keys: HashMap<String, Key> = entries
        .iter()
        .map(|e| {
            (
                e.name.clone(),
                Key::of(e, &settings, sandbox.limits(), sandbox.isolation(), digest),
            )
        })
        .collect();
    let (kept, todo) = match (args.resume, &journal) {
        (true, Some(path)) => {
            let (kept, todo, refused) = grade::journal::resume(path, entries, &keys);
            // Said even with -q: results were not taken that might have been.
            for r in refused {
                eprintln!(
                    "cz grade: {} line {}: {}{}; graded again",
                    shown(path.as_os_str().as_encoded_bytes()),
                    r.line,
                    r.why,
                    r.candidate.map_or(String::new(), |name| format!(
                        " (candidate \"{}\")",
                        shown(name)
                    ))
                );
            }
            (kept, todo)
        }
        _ => (Vec::new(), entries),
    };
    // The journal is written anew, under a new key: the results taken,
    // then each new one.
    let journal = match &journal {
        Some(path) => Some(grade::journal::start(path, &kept).context(path.display().to_string())?),
        None => None,
    };
    let resumed: Vec<_> = kept.into_iter().map(|(_, g)| g).collect();
    if !quiet && !resumed.is_empty() {
        eprintln!(
            "cz grade: {} candidates taken from {}, {} to grade",
            resumed.len(),
            journal.as_ref().map_or(String::new(), |j| shown(
                j.path().as_os_str().as_encoded_bytes()
            )),
            todo.len()
        );
    }
    let planned = todo.len() as u64 * (corpus_cases.len() + settings.cases) as u64;
    let progress = Progress::new(
        planned,
        todo.len(),
        !quiet && std::io::stderr().is_terminal(),
    );
    let report = grade::grade(resumed, todo, &settings, &sandbox, &progress, |class, g| {
        if let (Some(g), Some(journal)) = (g, &journal)
            && let Some(key) = keys.get(&g.entry.name)
            && let Err(e) = journal.append(key, g)
        {
            progress.println(&format!("cz grade: {}: {e}", journal.path().display()));
        }
        // Each candidate's result is written as soon as it is known: an
        // interrupted grade leaves the reports of the candidates finished.
        if let Err(e) = write_reports(&args, class) {
            progress.println(&format!("cz grade: {e}"));
        }
        if let Some(g) = g.filter(|_| !quiet) {
            progress.println(&format!(
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
            ));
        }
    });
    progress.finish();
    // Interrupted: the handler is ending every run and removing the scratch
    // folder, and exits with 130.
    while sandbox::interrupted() {
        std::thread::park();
    }
    let report = report?;
    out.write_all(grade::text::report(&grade::Facts::of(&report)).as_bytes())?;
    Ok(if report.all_passed() { 0 } else { 1 })
}

/// A report's writer: its text, of the class's facts.
type Render = fn(&grade::Facts) -> String;

fn write_reports(args: &GradeArgs, report: &ClassReport) -> Result<()> {
    let facts = grade::Facts::of(report);
    let outputs: [(_, Render); 3] = [
        (&args.json, grade::json::report),
        (&args.html, grade::html::report),
        (&args.junit, grade::junit::report),
    ];
    for (path, render) in outputs {
        if let Some(path) = path {
            let text = render(&facts);
            // Whole or not at all, never through a link planted beside it.
            connectz_sandbox::files::write_whole(path, text.as_bytes(), 0o644)
                .context(path.display().to_string())?;
        }
    }
    Ok(())
}

/// The reference binary: the one given, else `connectz` beside `cz`.
fn reference(given: Option<PathBuf>) -> Result<PathBuf> {
    let path = match given {
        Some(path) => path,
        None => connectz_sandbox::own_program()
            .context("cannot find cz itself")?
            .with_file_name("connectz"),
    };
    if !path.is_file() {
        return Err(format!(
            "--perf runs the reference alongside each candidate, but {} is not a file: give its path with --reference",
            path.display()
        )
        .into());
    }
    std::path::absolute(&path).context(path.display().to_string())
}
