use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use connectz_toolbox::check::{Candidate, Options, check, corpus, generated};
use connectz_toolbox::sandbox::{self, Limits, Sandbox};
use connectz_toolbox::{Context, Result};

/// What `cz check` and `cz grade` share: the cases and the limits of a run.
#[derive(clap::Args)]
pub struct Common {
    /// Generated games to add to the shipped corpus.
    #[arg(long, default_value_t = 200)]
    pub cases: usize,
    /// Seed for the generated games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds one run may take (more than 0, at most a day).
    #[arg(long, default_value = "10", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Megabytes of address space one run may use (its process and all
    /// it starts each).
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(16..=1 << 24))]
    pub memory: u64,
    /// Runs at a time (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
}

impl Common {
    /// Runs at a time.
    pub fn jobs(&self) -> usize {
        self.jobs.map_or_else(default_jobs, |j| j as usize)
    }

    /// A sandbox with these limits.
    pub fn sandbox(&self) -> Result<Sandbox> {
        new_sandbox(self.timeout, self.memory)
    }
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Failing generated games to shrink.
    #[arg(long, default_value_t = 3)]
    shrink: usize,
    /// The candidate's command line; the game file's path is appended.
    #[arg(last = true, required = true)]
    command: Vec<OsString>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode> {
    let sandbox = args.common.sandbox()?;
    let cases = corpus()
        .into_iter()
        .chain(generated(args.common.cases, args.common.seed));
    let jobs = args.common.jobs();
    let candidate = Candidate {
        command: args.command,
        dir: None,
    };
    let options = Options {
        jobs,
        shrink: args.shrink,
        log: false,
        give_up: None,
    };
    let report = check(&candidate, cases, &sandbox, options);
    // Interrupted: the handler is ending every run and removing the scratch
    // folder, and exits with 130; what failed meanwhile is no error to report.
    while sandbox::interrupted() {
        std::thread::park();
    }
    let report = report?;
    out.write_all(report.text().as_bytes())?;
    Ok(if report.defined_failures() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `--timeout`: seconds, more than 0 and at most a day.
fn parse_timeout(text: &str) -> std::result::Result<Duration, String> {
    super::above_zero_at_most(text, 86_400.0, " seconds").map(Duration::from_secs_f64)
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// A sandbox for runs of candidates, whose scratch folder and processes are
/// removed and killed even when cz is interrupted.
fn new_sandbox(timeout: Duration, memory_mb: u64) -> Result<Sandbox> {
    let _ = ctrlc::set_handler(|| {
        sandbox::clean_up_on_interrupt();
        std::process::exit(130);
    });
    let exe = std::env::current_exe().context("cannot find cz itself")?;
    let scratch = std::env::temp_dir().join(format!("cz-check-{}", std::process::id()));
    let limits = Limits {
        timeout,
        memory: memory_mb << 20,
        output: 1 << 20,
    };
    Sandbox::new(exe, scratch, limits).context("scratch folder")
}
