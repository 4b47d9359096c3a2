//! Running a candidate: its command, one case at a time in the sandbox,
//! and the command-line checks.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use connectz::{Code, USAGE};

use super::{Answer, ArgCheck, Outcome};
use crate::sandbox::{Ended, Execution, Sandbox};
use serde::{Deserialize, Serialize};

/// How to run the candidate.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Candidate {
    /// Program and leading arguments; the file's path is appended.
    pub command: Vec<OsString>,
    /// The folder to run it in (else the current one).
    pub dir: Option<PathBuf>,
    /// How its answer is read from what it prints.
    #[serde(default)]
    pub answer: Answer,
}

/// What one run printed, as text.
#[derive(Clone, Debug)]
struct Printed {
    stdout: String,
    stderr: String,
    status: Option<i32>,
    run: Execution,
}

impl Candidate {
    /// The command line, as one string to show.
    pub fn shown(&self) -> String {
        self.command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn run(&self, sandbox: &Sandbox, args: &[&Path]) -> Printed {
        self.run_within(sandbox, args, sandbox.limits().timeout)
    }

    fn run_within(&self, sandbox: &Sandbox, args: &[&Path], timeout: Duration) -> Printed {
        let args: Vec<&OsStr> = args.iter().map(|p| p.as_os_str()).collect();
        printed(sandbox.run_within(self.dir.as_deref(), &self.command, &args, timeout))
    }

    /// Stops its fork servers, if it has any: call when its runs are done.
    pub fn done(&self, sandbox: &Sandbox) {
        sandbox.release(self.dir.as_deref(), &self.command);
    }

    /// Whether its cases run through a fork server ([`Sandbox::run_case`]).
    pub fn forks(&self, sandbox: &Sandbox) -> bool {
        sandbox.forks(self.dir.as_deref(), &self.command)
    }

    /// Runs the candidate on the file at `path` within `timeout` (at most
    /// the sandbox's), through the candidate's fork server if it has one:
    /// its outcome against the reference's code `expect`, and the run
    /// itself (time, peak memory).
    pub fn judge_within(
        &self,
        sandbox: &Sandbox,
        path: &Path,
        expect: Code,
        timeout: Duration,
    ) -> (Outcome, Execution) {
        let run = sandbox.run_case(self.dir.as_deref(), &self.command, path, timeout);
        judged(printed(run), expect)
    }

    /// [`Candidate::judge_within`] in a fresh process, never a fork server.
    pub fn judge_fresh(
        &self,
        sandbox: &Sandbox,
        path: &Path,
        expect: Code,
        timeout: Duration,
    ) -> (Outcome, Execution) {
        judged(self.run_within(sandbox, &[path], timeout), expect)
    }
}

/// What a run printed, as text.
fn printed(run: Execution) -> Printed {
    let status = match &run.ended {
        Ended::Exited(code) => Some(*code),
        _ => None,
    };
    let stderr = match &run.ended {
        Ended::NotStarted(why) => why.clone(),
        Ended::Signalled(signal) => format!(
            "{}(killed by signal {signal})",
            String::from_utf8_lossy(&run.stderr)
        ),
        _ => String::from_utf8_lossy(&run.stderr).into_owned(),
    };
    Printed {
        stdout: String::from_utf8_lossy(&run.stdout).into_owned(),
        stderr,
        status,
        run,
    }
}

/// The outcome of a run against the reference's code `expect`.
fn judged(printed: Printed, expect: Code) -> (Outcome, Execution) {
    let answer = printed.stdout.trim();
    let outcome = if printed.run.ended == Ended::TimedOut {
        Outcome::Timeout
    } else {
        match (answer.parse::<u8>(), printed.status) {
            (Ok(code), Some(0)) if code <= 9 && answer.len() == 1 => {
                if code == expect.number() {
                    Outcome::Pass
                } else {
                    Outcome::Mismatch { got: code }
                }
            }
            _ if printed.run.memory_exceeded => Outcome::MemoryExceeded {
                peak: printed.run.peak_memory,
            },
            _ => Outcome::Crash {
                status: printed.status,
                stderr: clip(&printed.stderr),
                stdout: clip(&printed.stdout),
            },
        }
    };
    (outcome, printed.run)
}

fn clip(s: &str) -> String {
    let line = s.trim().lines().last().unwrap_or("");
    line.chars().take(160).collect()
}

pub(super) fn argument_checks(
    candidate: &Candidate,
    sandbox: &Sandbox,
) -> std::io::Result<Vec<ArgCheck>> {
    // Files of this candidate's alone: others may be checked at once.
    let file = sandbox.scratch_file("args-sample");
    fs::write(&file, b"3 3 3\n1\n2\n1\n2\n1\n")?;
    let missing = sandbox.scratch_file("no-such-file");
    let folder = sandbox.scratch_file("a-folder");
    fs::create_dir(&folder)?;
    let runs: [(&'static str, Vec<&Path>, &str); 4] = [
        ("no argument", vec![], USAGE),
        ("two arguments", vec![&file, &file], USAGE),
        ("a missing file", vec![&missing], "9"),
        ("a directory", vec![&folder], "9"),
    ];
    let checks = runs
        .into_iter()
        .map(|(what, args, expected)| {
            let printed = candidate.run(sandbox, &args);
            ArgCheck {
                what: what.to_string(),
                expected: format!("{expected}\n"),
                got: printed.stdout,
                status: printed.status,
            }
        })
        .collect();
    let _ = fs::remove_file(&file);
    let _ = fs::remove_dir(&folder);
    Ok(checks)
}
