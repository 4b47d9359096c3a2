//! Running a candidate: its command, one case at a time in the sandbox,
//! and the command-line checks.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use connectz::{Code, USAGE};

use super::{AnswerReading, ArgCheck, Outcome};
use connectz_sandbox::{Ended, Execution, Program, Sandbox};
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
    pub answer: AnswerReading,
    /// Variables of its environment beyond the box's own, name and value.
    #[serde(default)]
    pub env: Vec<(OsString, OsString)>,
    /// Files and folders its box is given read-only, beyond its own.
    #[serde(default)]
    pub paths: Vec<PathBuf>,
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

    /// A candidate run as `command` in the current folder, its whole
    /// output its answer, given nothing beyond its own.
    pub fn new(command: Vec<OsString>) -> Candidate {
        Candidate {
            command,
            dir: None,
            answer: AnswerReading::Whole,
            env: Vec::new(),
            paths: Vec::new(),
        }
    }

    /// What the sandbox runs.
    pub fn program(&self) -> Program {
        Program {
            dir: self.dir.clone(),
            command: self.command.clone(),
            env: self.env.clone(),
            paths: self.paths.clone(),
        }
    }

    fn run(&self, sandbox: &Sandbox, args: &[&Path]) -> Printed {
        self.run_within(sandbox, args, sandbox.limits().timeout)
    }

    fn run_within(&self, sandbox: &Sandbox, args: &[&Path], timeout: Duration) -> Printed {
        let args: Vec<&OsStr> = args.iter().map(|p| p.as_os_str()).collect();
        printed(sandbox.run_within(&self.program(), &args, timeout))
    }

    /// Stops its fork servers, if it has any: call when its runs are done.
    pub fn done(&self, sandbox: &Sandbox) {
        sandbox.release(&self.program());
    }

    /// Whether its cases run through a fork server ([`Sandbox::run_case`]).
    pub fn forks(&self, sandbox: &Sandbox) -> bool {
        sandbox.forks(&self.program())
    }

    /// From now on its cases run each in a fresh interpreter, for the
    /// reason `why`.
    pub fn run_fresh(&self, sandbox: &Sandbox, why: &str) {
        sandbox.run_fresh(&self.program(), why);
    }

    /// Why its cases were run each in a fresh interpreter, when they
    /// started through a fork server.
    pub fn fresh_reason(&self, sandbox: &Sandbox) -> Option<String> {
        sandbox.fresh_reason(&self.program())
    }

    /// The paths its box is given beyond the system's folders and its own
    /// (its interpreter's install, the paths it names).
    pub fn given(&self, sandbox: &Sandbox) -> Vec<PathBuf> {
        sandbox.given(&self.program())
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
        let run = sandbox.run_case(&self.program(), path, timeout);
        judged(printed(run), expect, &self.answer)
    }

    /// [`Candidate::judge_within`] in a fresh process, never a fork server.
    pub fn judge_fresh(
        &self,
        sandbox: &Sandbox,
        path: &Path,
        expect: Code,
        timeout: Duration,
    ) -> (Outcome, Execution) {
        judged(
            self.run_within(sandbox, &[path], timeout),
            expect,
            &self.answer,
        )
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

/// The outcome of a run against the reference's code `expect`: by the
/// code it printed, however it ended (r[decision.exit-status]). A run that
/// printed one code is judged by it: the right code is a pass if the run
/// exited 0 and a note ([`Outcome::ExitStatus`]) otherwise, another code a
/// mismatch. A run that printed anything else crashed, unless it ran out
/// of memory; one that did not end in time timed out, whatever it printed.
fn judged(printed: Printed, expect: Code, answer: &AnswerReading) -> (Outcome, Execution) {
    let run = &printed.run;
    let code = answer
        .read(&printed.stdout)
        .and_then(|text| printed_code(&text));
    // A run that reaches both limits is a memory breach: which it reaches
    // first depends on the machine (docs/grade.md).
    let outcome = match (code, printed.status) {
        _ if run.ended == Ended::TimedOut && run.memory_exceeded => Outcome::MemoryExceeded {
            peak: run.peak_memory,
        },
        _ if run.ended == Ended::TimedOut => Outcome::Timeout,
        (Some(code), _) if code != expect.number() => Outcome::Mismatch { got: code },
        (Some(_), Some(0)) => Outcome::Pass,
        (Some(_), status) => Outcome::ExitStatus { status },
        (None, _) if run.memory_exceeded => Outcome::MemoryExceeded {
            peak: run.peak_memory,
        },
        (None, _) => Outcome::Crash {
            status: printed.status,
            stderr: clip(&printed.stderr),
            stdout: clip(&printed.stdout),
        },
    };
    (outcome, printed.run)
}

/// The code a run printed: its standard out is one digit, white space
/// around it allowed.
fn printed_code(stdout: &str) -> Option<u8> {
    match stdout.trim().as_bytes() {
        &[digit @ b'0'..=b'9'] => Some(digit - b'0'),
        _ => None,
    }
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
            // A code is read as the candidate's answers are; the argument
            // message is its whole output, as the brief has it.
            let got = match candidate.answer.read(&printed.stdout) {
                Some(text) if expected != USAGE && !candidate.answer.is_whole() => {
                    printed_code(&text).map_or(printed.stdout.clone(), |c| format!("{c}\n"))
                }
                _ => printed.stdout.clone(),
            };
            ArgCheck {
                what: what.to_string(),
                expected: format!("{expected}\n"),
                got,
                status: printed.status,
            }
        })
        .collect();
    let _ = fs::remove_file(&file);
    let _ = fs::remove_dir(&folder);
    Ok(checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stdout: &str, ended: Ended, memory_exceeded: bool) -> Outcome {
        let run = Execution {
            ended,
            stdout: stdout.as_bytes().to_vec(),
            stderr: Vec::new(),
            elapsed: Duration::ZERO,
            cpu: Duration::ZERO,
            peak_memory: None,
            memory_exceeded,
        };
        judged(printed(run), Code::WinOne, &AnswerReading::Whole).0
    }

    /// The code printed decides, however the run ended; only a run that
    /// printed no code crashed (r[decision.exit-status]).
    #[test]
    fn the_code_printed_decides_whatever_the_exit_status() {
        use Ended::{Exited, Signalled, TimedOut};
        assert_eq!(run("1\n", Exited(0), false), Outcome::Pass);
        assert_eq!(run(" 1 \n\n", Exited(0), false), Outcome::Pass);
        let noted = |status| Outcome::ExitStatus { status };
        assert_eq!(run("1\n", Exited(1), false), noted(Some(1)));
        assert_eq!(run("1", Exited(3), false), noted(Some(3)));
        assert_eq!(run("1\n", Signalled(11), false), noted(None));
        assert_eq!(run("1\n", Exited(1), true), noted(Some(1)));
        let wrong = Outcome::Mismatch { got: 2 };
        assert_eq!(run("2\n", Exited(0), false), wrong);
        assert_eq!(run("2\n", Exited(2), false), wrong);
        assert_eq!(run("2\n", Signalled(6), false), wrong);
        for (stdout, ended) in [
            ("", Exited(0)),
            ("", Exited(1)),
            ("1\n1\n", Exited(0)),
            ("10\n", Exited(0)),
            ("code 1\n", Exited(1)),
            ("+1\n", Exited(0)),
            ("١\n", Exited(0)),
        ] {
            let outcome = run(stdout, ended.clone(), false);
            assert!(
                matches!(outcome, Outcome::Crash { .. }),
                "{stdout:?}: {outcome:?}"
            );
        }
        assert_eq!(
            run("", Exited(1), true),
            Outcome::MemoryExceeded { peak: None }
        );
        assert_eq!(run("1\n", TimedOut, false), Outcome::Timeout);
    }
}
