use std::io::Write;
use std::path::PathBuf;

use crate::{Context, Result};
use connectz_check::Candidate;
use connectz_grade::{self as grade, GradeSettings, perf};
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
    let entries = candidates(&args)?;
    let settings = settings(&args)?;
    let programs: Vec<_> = entries.iter().map(|e| e.candidate.program()).collect();
    let sandbox = args.common.sandbox()?.hiding_reference(&programs);
    // Refused before any case runs: a folder the box's user cannot read
    // would fail every case, and say nothing of why.
    let unreadable: Vec<String> = entries
        .iter()
        .zip(&programs)
        .filter_map(|(e, p)| Some(format!("{}: {}", e.name, sandbox.unreadable(p)?)))
        .collect();
    if !unreadable.is_empty() {
        return Err(unreadable.join("\n").into());
    }
    let output = grade::Output {
        json: args.json,
        junit: args.junit,
        html: args.html,
        resume: args.resume,
        quiet: args.quiet,
    };
    let class = grade::grade_class(entries, &settings, &sandbox, &output);
    // Interrupted: the handler is ending every run and removing the scratch
    // folder, and exits with 130.
    while sandbox::interrupted() {
        std::thread::park();
    }
    let class = class?;
    out.write_all(grade::text::report(&grade::Facts::of(&class)).as_bytes())?;
    Ok(if class.all_passed() { 0 } else { 1 })
}

/// The candidates: of the manifest, or one per path of `--each`; each
/// given the variables of `--env` and the paths of `--path`.
fn candidates(args: &GradeArgs) -> Result<Vec<grade::Entry>> {
    let mut entries = match &args.each {
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
    for entry in &mut entries {
        entry.candidate.env.extend(env.iter().cloned());
        entry.candidate.paths.extend(paths.iter().cloned());
    }
    Ok(entries)
}

/// How to grade, as the arguments say.
fn settings(args: &GradeArgs) -> Result<GradeSettings> {
    let perf = if args.perf {
        Some(perf::PerfSettings {
            runs: args.perf_runs as usize,
            scale: args.perf_scale,
            reference: Candidate::new(vec![reference(args.reference.clone())?.into_os_string()]),
        })
    } else {
        None
    };
    Ok(GradeSettings {
        cases: args.common.cases,
        seed: args.common.seed,
        jobs: args.common.jobs(),
        shrink: args.shrink,
        give_up: args.give_up as usize,
        perf,
        timeouts: args.common.timeouts(),
    })
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
