use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::time::Duration;

use crate::{Context, Result};
use connectz_check::{
    AnswerReading, Candidate, CheckOptions, Policy, Progress, check, corpus, env_entry, generated,
    path_entry, pool,
};
use connectz_sandbox::{self as sandbox, Isolation, Limits, Sandbox, Wanted};

/// What `cz check` and `cz grade` share: the cases and the limits of a run.
#[derive(clap::Args)]
pub struct Common {
    /// Generated games to add to the shipped corpus.
    #[arg(long, default_value_t = 200)]
    pub cases: usize,
    /// Seed for the generated games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds one run may take (more than 0, at most a day). Without it, 10,
    /// and a candidate found to hang (its runs past what a case needs, 1 s
    /// plus a hundred times the reference's time, timed out twice in a row)
    /// has its runs stopped at what each case needs.
    #[arg(long, value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// Megabytes of address space one run may use (its process and all
    /// it starts each).
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(16..=1 << 24))]
    pub memory: u64,
    /// Runs at a time (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Processes one run may hold at once, in its box, each thread counted:
    /// a shell wrapper and an interpreter, and room to spare (a JVM or
    /// Node.js needs more). Fewer boxes run at once when the machine's
    /// file table could not hold what many such boxes may open.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub processes: u64,
    /// Isolation of each run: auto (a box of bubblewrap's when it works
    /// here, else none, and the report says so), require (refuse to run
    /// without), none.
    #[arg(long, value_enum, default_value_t = Wanted::Auto)]
    pub isolation: Wanted,
    /// Start a fresh interpreter for every run of a candidate run as
    /// `python SCRIPT`, instead of forking one started once (faster; the
    /// findings are checked against fresh runs either way).
    #[arg(long)]
    pub fresh_python: bool,
}

impl Common {
    /// Runs at a time: as asked (else the cores), but no
    /// more boxes than the machine's file table holds at once
    /// (`sandbox::shared::boxes_at_once`); a lowered `--jobs` is said.
    pub fn jobs(&self) -> usize {
        let wanted = self.jobs.map_or_else(default_jobs, |j| j as usize);
        let Some(most) = sandbox::shared::boxes_at_once(self.processes) else {
            return wanted;
        };
        if self.jobs.is_some() && most < wanted {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                eprintln!(
                    "cz: {most} runs at a time, not {wanted}: a box of {} processes may hold {} of the machine's open files, and all boxes together at most three quarters of those free",
                    self.processes,
                    sandbox::shared::files_per_box(self.processes)
                );
            });
        }
        wanted.min(most)
    }

    /// A sandbox with these limits.
    pub fn sandbox(&self) -> Result<Sandbox> {
        let limits = Limits {
            timeout: self.timeout.unwrap_or(DEFAULT_TIMEOUT),
            memory: self.memory << 20,
            output: 1 << 20,
            processes: self.processes,
        };
        let isolation = Isolation::choose(self.isolation)?;
        Ok(new_sandbox(limits, isolation)?.fork_python(!self.fresh_python))
    }

    /// How a timeout is decided: the default policy unless a flat limit
    /// was given.
    pub fn timeouts(&self) -> Option<Policy> {
        self.timeout.is_none().then(Policy::default)
    }
}

/// The limit of one run when none is given.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    common: Common,
    /// Failing generated games to shrink.
    #[arg(long, default_value_t = 3)]
    shrink: usize,
    /// Read the candidate's answer from its last line that is not blank,
    /// not its whole output (for a candidate that prints more than the
    /// brief allows; `cz grade`'s manifest can also map messages to codes).
    #[arg(long)]
    last_line: bool,
    /// A variable of the candidate's environment (cleared in a box): NAME
    /// passes the grader's own, NAME=VALUE sets it. Repeatable.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    env: Vec<String>,
    /// A file or folder given to the candidate's box read-only, at its own
    /// path, beyond the folders of the files its command names; `$NAME` for
    /// a variable of the grader's. Repeatable.
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// The candidate's command line; the game file's path is appended.
    #[arg(last = true, required = true)]
    command: Vec<OsString>,
}

pub fn run(args: CheckArgs, out: &mut dyn Write) -> Result<u8> {
    let cases = || {
        corpus()
            .into_iter()
            .chain(generated(args.common.cases, args.common.seed))
    };
    let env = args
        .env
        .iter()
        .map(|e| env_entry(e))
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let paths = args
        .paths
        .iter()
        .map(|p| path_entry(p, std::path::Path::new(".")))
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let candidate = Candidate {
        answer: if args.last_line {
            AnswerReading::LastLine
        } else {
            AnswerReading::Whole
        },
        env,
        paths,
        ..Candidate::new(args.command)
    };
    let sandbox = args
        .common
        .sandbox()?
        .hiding_reference(&[candidate.program()]);
    if let Some(why) = sandbox.unreadable(&candidate.program()) {
        return Err(format!("the candidate's folder: {why}").into());
    }
    let planned = (corpus().len() + args.common.cases) as u64;
    let progress = Progress::new(planned, 1, std::io::stderr().is_terminal());
    let options = CheckOptions {
        shrink: args.shrink,
        log: false,
        give_up: None,
        progress: Some(&progress),
        timeouts: args.common.timeouts(),
    };
    let report = pool(args.common.jobs())
        .and_then(|pool| pool.install(|| check(&candidate, cases, &sandbox, options)));
    candidate.done(&sandbox);
    progress.finish();
    // Interrupted: the handler is ending every run and removing the scratch
    // folder, and exits with 130; what failed meanwhile is no error to report.
    while sandbox::interrupted() {
        std::thread::park();
    }
    let report = report?;
    out.write_all(report.text().as_bytes())?;
    Ok(if report.defined_failures() == 0 { 0 } else { 1 })
}

/// `--timeout`: seconds, more than 0 and at most a day.
fn parse_timeout(text: &str) -> std::result::Result<Duration, String> {
    super::above_zero_at_most(text, 86_400.0, " seconds").map(Duration::from_secs_f64)
}

/// A run a core: a class's runs are the candidates' own computing (their
/// time is their CPU time and own time, so more runs at once change no
/// finding), and a run more than the cores only shares them (a real class
/// on two cores took 6 % longer with three runs at once than with two;
/// docs/performance.md).
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// A sandbox for runs of candidates, whose scratch folder and processes are
/// removed and killed even when cz is interrupted.
fn new_sandbox(limits: Limits, isolation: Isolation) -> Result<Sandbox> {
    let _ = ctrlc::set_handler(|| {
        sandbox::clean_up_on_interrupt();
        std::process::exit(130);
    });
    let exe = sandbox::own_program().context("cannot find cz itself")?;
    Sandbox::new(exe, &std::env::temp_dir(), limits, isolation).context("scratch folder")
}
