//! The supervisor of one run (`cz __supervise`).
//!
//! The supervisor closes every descriptor it inherited but 0, 1 and 2,
//! lowers its own limits (address space, size of a written file, CPU time
//! as a safety net, no core dumps), which the run inherits, makes itself a
//! child subreaper, and starts the run in a process group of its own: the
//! candidate itself, or bubblewrap with the box around it (see
//! [`super::isolation`]), given the system-call filter
//! ([`super::seccomp`]). As root it puts the run in control groups of its
//! own ([`super::cgroup`]) that hold the whole box's processes, memory and
//! CPU time, and starts bubblewrap as the box's own unprivileged user, with
//! what the box is given staged where that user can reach it
//! ([`super::stage`]). While the run goes on it reads the run's first
//! process's times, and the CPU time of every process of the box, every few
//! milliseconds and stops the run when its time is up ([`own_time`]). Then
//! it kills the run's group, the box, and every process left (they come to
//! it as a subreaper), reaps them all, and writes its report.

use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use nix::errno::Errno;

use nix::sys::prctl::{set_child_subreaper, set_pdeathsig};
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpid};
use procfs::process::{Process, all_processes};

use super::SUPERVISE;
use super::cgroup::{BoxGroup, Usage};

use super::stage::Stage;

mod bwrap;
mod times;
use bwrap::box_arguments;
use times::{Times, own_time, tree_cpu};

/// The supervisor's argument that asks only whether a box's namespace
/// (its fresh places with their files bounded) can be made here.
pub(super) const PROBE_STAGE: &str = "probe-stage";

/// Descriptors a run's process may hold open at once (`RLIMIT_NOFILE`),
/// as isolate gives a box.
pub const OPEN_FILES: u64 = 64;

/// How often a run's times are read.
const POLL: Duration = Duration::from_millis(5);

/// The candidate's process group (or the box's), for the termination
/// handler (0: none yet).
static RUN_GROUP: AtomicI32 = AtomicI32::new(0);

/// The run's control groups, if it has them, for the termination handler
/// to remove.
static GROUPS: Mutex<Option<BoxGroup>> = Mutex::new(None);

/// The run's staging folder, if it has one, for the termination handler
/// to remove.
static STAGE: Mutex<Option<Stage>> = Mutex::new(None);

/// Why the run's namespace could not be made, if it could not.
static UNSTAGED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Ends the run and all it started, and removes its control group; the
/// termination handler and the end of a run may call it at once, and the
/// second waits for the first.
fn end_run(group: Pid) {
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    end_everything(group, groups.as_ref());
    *groups = None;
    *STAGE.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// Closes every descriptor of this process from 3 up: a run inherits
/// only its standard input, output and error.
pub(super) fn close_inherited() {
    // The numbers first: the listing holds descriptors of its own (closed
    // with it, before the others are).
    let open: Vec<i32> = Process::myself()
        .and_then(|me| me.fd())
        .map(|listing| {
            listing
                .filter_map(|fd| Some(fd.ok()?.fd))
                .filter(|&fd| fd > 2)
                .collect()
        })
        .unwrap_or_default();
    for fd in open {
        let _ = nix::unistd::close(fd);
    }
}

/// The supervisor: `cz __supervise TIMEOUT_US MEMORY OUTPUT PROCESSES
/// STDOUT STDERR REPORT MODE PROGRAM [ARGS...]`; MODE is `plain` or `boxed`
/// (PROGRAM is bubblewrap, told to write the box's first pid on a
/// descriptor it inherits). A TIMEOUT_US of 0 is no limit (a fork server); STDOUT
/// `-` passes this process's standard input and output on (a fork server
/// talks through them). Never returns. Asked to end (SIGTERM, SIGINT, or
/// its parent's death, which sends it SIGTERM), it ends the run and all it
/// started first.
pub fn supervise(args: &[OsString]) -> ! {
    if args.first().is_some_and(|a| a == PROBE_STAGE) {
        // Whether a box's namespace can be made here, for the isolation
        // line: said on standard output, and by the exit status.
        match super::stage::probe() {
            Ok(()) => std::process::exit(0),
            Err(why) => {
                println!("{why}");
                std::process::exit(1);
            }
        }
    }
    close_inherited();
    // A box gets a mount namespace of this process's, made while it has
    // one thread: its fresh places with their files bounded and, as root,
    // what a box of its own user is given staged.
    let mut args = args.to_vec();
    if args.get(7).is_some_and(|m| m != "plain") && args.len() > 9 {
        let root = nix::unistd::geteuid().is_root();
        let own_user = own_user_box(&args);
        let near = args
            .get(6)
            .and_then(|report| Path::new(report).parent())
            .map_or_else(std::env::temp_dir, Path::to_path_buf);
        let mut rewritten = args[9..].to_vec();
        match Stage::new(&mut rewritten, root, own_user, &near) {
            Ok(stage) => {
                args.truncate(9);
                args.extend(rewritten);
                *STAGE.lock().unwrap_or_else(|e| e.into_inner()) = Some(stage);
            }
            // Not staged: a box of its own user runs as root without
            // capabilities; its fresh places are bubblewrap's own, and the
            // report says that their files were not bounded.
            Err(why) => {
                if own_user {
                    args[7] = "boxed".into();
                }
                UNSTAGED.get_or_init(|| why);
            }
        }
    }
    let args = &args[..];
    let _ = set_pdeathsig(Signal::SIGTERM);
    let _ = ctrlc::set_handler(|| {
        end_run(Pid::from_raw(RUN_GROUP.load(Ordering::SeqCst)));
        std::process::exit(130);
    });
    let report_path = args.get(6).map(PathBuf::from);
    let mut report = String::new();
    if let Err(why) = supervise_run(args, report_path.as_ref(), &mut report) {
        report = format!("not-started={why}\n");
    }
    *STAGE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    if let Some(path) = report_path {
        let _ = write_private(&path, report.as_bytes());
    }
    std::process::exit(0);
}

/// A file of the run's (its output, its errors, the report) made for
/// writing, readable by its owner alone: the scratch folder lets others
/// pass (a box of a user of its own is given a game file in it), and
/// another user of the machine who learns its name must not read a
/// candidate's output. The run writes to it through the descriptor it
/// is born with.
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

/// Writes `bytes` to `path`, made as [`private_file`] makes it.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::io::Write::write_all(&mut private_file(path)?, bytes)
}

/// Whether `args` ask for a box run as a user of its own, and this
/// process is root.
fn own_user_box(args: &[OsString]) -> bool {
    args.get(7).is_some_and(|m| m == "boxed-own-user") && nix::unistd::geteuid().is_root()
}

/// A run's arguments, read.
struct SupervisedRun {
    timeout: Duration,
    memory: u64,
    output: u64,
    processes: u64,
    stdout: PathBuf,
    stderr: PathBuf,
    boxed: bool,
    /// Bubblewrap is started as the box's own user.
    own_user: bool,
    program: OsString,
    args: Vec<OsString>,
}

fn plan(args: &[OsString]) -> Result<SupervisedRun, String> {
    let number = |i: usize| -> Result<u64, String> {
        args.get(i)
            .and_then(|a| a.to_str())
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("argument {} of {SUPERVISE} is not a number", i + 1))
    };
    let path = |i: usize| args.get(i).map(PathBuf::from).ok_or("missing file");
    let (boxed, own_user) = match args.get(7).and_then(|m| m.to_str()) {
        Some("plain") => (false, false),
        Some("boxed") => (true, false),
        Some("boxed-own-user") => (true, true),
        _ => {
            return Err(format!(
                "{SUPERVISE}: the mode is plain, boxed or boxed-own-user"
            ));
        }
    };
    Ok(SupervisedRun {
        timeout: Duration::from_micros(number(0)?),
        memory: number(1)?,
        output: number(2)?,
        processes: number(3)?,
        stdout: path(4)?,
        stderr: path(5)?,
        boxed,
        own_user,
        program: args.get(8).ok_or("no program to run")?.clone(),
        args: args.get(9..).unwrap_or_default().to_vec(),
    })
}

fn supervise_run(
    args: &[OsString],
    report_path: Option<&PathBuf>,
    report: &mut String,
) -> Result<(), String> {
    let plan = plan(args)?;
    limit_run(&plan)?;
    let (input, out, err) = run_files(&plan)?;
    // As root, the run is held as a whole by control groups: this process
    // joins them, starts the run, which is born in them, and leaves. A run
    // whose limits cannot be set is not started.
    let groups = BoxGroup::new(plan.processes + 8, plan.memory)
        .map_err(|e| format!("control group: {e}"))?;
    let mut command = Command::new(&plan.program);
    let (info, inherited) = if plan.boxed {
        let (info, inherited) = box_arguments(&mut command, &plan)?;
        (Some(info), inherited)
    } else {
        command.args(&plan.args);
        (None, Vec::new())
    };
    command
        .stdin(input)
        .stdout(out)
        .stderr(err)
        .process_group(0);
    if let Some(g) = &groups {
        g.join().map_err(|e| format!("control group: {e}"))?;
    }
    let start = Instant::now();
    let spawned = command.spawn();
    let left = groups.as_ref().map_or(Ok(()), BoxGroup::leave);
    drop(inherited);
    let child =
        spawned.map_err(|e| format!("cannot start {}: {e}", plan.program.to_string_lossy()))?;
    if let Err(e) = left {
        // This process would count with the box, its time as the run's.
        end_everything(Pid::from_raw(child.id() as i32), groups.as_ref());
        return Err(format!("control group: {e}"));
    }
    if let Ok(mut held) = GROUPS.lock() {
        *held = groups;
    }
    let group = Pid::from_raw(child.id() as i32);
    RUN_GROUP.store(group.as_raw(), Ordering::SeqCst);
    if let Some(path) = report_path {
        // For the caller, should this process fail to end the group itself;
        // and where the box's memory is counted (a fork server's cases).
        let memory = GROUPS
            .lock()
            .ok()
            .and_then(|g| g.as_ref()?.memory_dir().map(|d| d.display().to_string()))
            .map_or(String::new(), |d| format!("memory-group={d}\n"));
        let _ = write_private(path, format!("group={group}\n{memory}").as_bytes());
    }
    // The run's first process: the candidate, or the box's.
    let first = match info {
        Some((read, write)) => {
            drop(write);
            first_in_box(read).unwrap_or(group)
        }
        None => group,
    };
    let watched = watch(child, first, plan.timeout, start);
    let usage = {
        let mut held = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
        end_everything(group, held.as_ref());
        let usage = held.as_ref().map(BoxGroup::usage).unwrap_or_default();
        *held = None;
        usage
    };
    *STAGE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    account(report, plan.timeout, &watched, &usage);
    Ok(())
}

/// Makes this process the run's subreaper and lowers the limits the run
/// inherits.
fn limit_run(plan: &SupervisedRun) -> Result<(), String> {
    // Whatever the run leaves behind becomes this process's child.
    set_child_subreaper(true).map_err(|e| format!("child subreaper: {e}"))?;
    // Limits the run inherits, the hard limits too so that it cannot raise
    // them. CPU time is kept by reading the run's times; the limit is a
    // net for a process that outlives its first one.
    setrlimit(Resource::RLIMIT_AS, plan.memory, plan.memory)
        .map_err(|e| format!("address space limit: {e}"))?;
    setrlimit(Resource::RLIMIT_FSIZE, plan.output, plan.output)
        .map_err(|e| format!("file size limit: {e}"))?;
    setrlimit(Resource::RLIMIT_CORE, 0, 0).map_err(|e| format!("core limit: {e}"))?;
    // Descriptors, as isolate gives a box: what a judge of one file needs,
    // and a bound on the machine's file table that a run shares with every
    // process (docs/toolbox.md says why and what else bounds it).
    setrlimit(Resource::RLIMIT_NOFILE, OPEN_FILES, OPEN_FILES)
        .map_err(|e| format!("open-file limit: {e}"))?;
    if !plan.timeout.is_zero() {
        let net = plan.timeout.as_secs() * 2 + 2;
        setrlimit(Resource::RLIMIT_CPU, net, net + 1)
            .map_err(|e| format!("CPU time limit: {e}"))?;
    }
    Ok(())
}

/// The run's standard input, output and error.
fn run_files(plan: &SupervisedRun) -> Result<(Stdio, Stdio, Stdio), String> {
    // A fork server ("-" for its standard output) talks to `cz` through
    // the supervisor's own standard input and output.
    let server = plan.stdout.as_os_str() == "-";
    let (input, out) = if server {
        (Stdio::inherit(), Stdio::inherit())
    } else {
        let out =
            private_file(&plan.stdout).map_err(|e| format!("{}: {e}", plan.stdout.display()))?;
        (Stdio::null(), out.into())
    };
    let err = private_file(&plan.stderr).map_err(|e| format!("{}: {e}", plan.stderr.display()))?;
    Ok((input, out, err.into()))
}

/// How a run went while it was watched.
struct Watched {
    /// How it ended, if it ended and was waited for.
    status: Option<std::process::ExitStatus>,
    /// Whether it was stopped at its time limit.
    timed_out: bool,
    /// Its first process's times, as last read.
    last: Times,
    /// CPU time of every process of the run, orphans included.
    box_cpu: Duration,
    /// Wall-clock time from its start.
    elapsed: Duration,
}

/// Waits for the run, started at `start`, reading the times of its first
/// process `first` and of the whole run every [`POLL`], and stops waiting
/// when its time is up (a `timeout` of zero: never).
fn watch(mut child: Child, first: Pid, timeout: Duration, start: Instant) -> Watched {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let mut timed_out = false;
    let mut last = Times::default();
    // CPU time of every process of the run, orphans included.
    let mut box_cpu = Duration::ZERO;
    let mut polls = 0u64;
    let status = loop {
        match rx.recv_timeout(POLL) {
            Ok(status) => break status.ok(),
            Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if timeout.is_zero() {
            continue;
        }
        if let Some(t) = Times::of(first) {
            last = t;
        }
        polls += 1;
        if let Some(cpu) = run_cpu(polls) {
            box_cpu = box_cpu.max(cpu);
        }
        if own_time(&last, start.elapsed()) >= timeout || last.cpu.max(box_cpu) >= timeout {
            timed_out = true;
            break None;
        }
    };
    Watched {
        status,
        timed_out,
        last,
        box_cpu,
        elapsed: start.elapsed(),
    }
}

/// The report's lines of a run that has ended and been reaped: whether it
/// timed out, how it exited, its peak memory and its CPU and wall-clock
/// time.
fn account(report: &mut String, timeout: Duration, watched: &Watched, usage: &Usage) {
    let cpu = getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|u| {
            let t = |v: nix::sys::time::TimeVal| {
                Duration::new(v.tv_sec().max(0) as u64, v.tv_usec().max(0) as u32 * 1000)
            };
            t(u.user_time()) + t(u.system_time())
        })
        .unwrap_or(watched.last.cpu);
    let cpu = cpu
        .max(watched.last.cpu)
        .max(watched.box_cpu)
        .max(usage.cpu.unwrap_or_default());
    if watched.timed_out || (!timeout.is_zero() && cpu >= timeout) {
        report.push_str("timed-out=1\n");
    }
    match watched.status {
        Some(s) if !watched.timed_out => {
            if let Some(code) = s.code() {
                report.push_str(&format!("exit={code}\n"));
            } else if let Some(signal) = s.signal() {
                report.push_str(&format!("signal={signal}\n"));
            }
        }
        _ => {}
    }
    if let Ok(usage) = getrusage(UsageWho::RUSAGE_CHILDREN) {
        report.push_str(&format!("peak-kb={}\n", usage.max_rss()));
    }
    if let Some(peak) = usage.peak {
        report.push_str(&format!("box-peak-kb={}\n", peak / 1024));
    }
    if usage.oom {
        report.push_str("box-oom=1\n");
    }
    if let Some(why) = UNSTAGED.get() {
        report.push_str(&format!("files-unbounded={}\n", why.replace('\n', " ")));
    }
    report.push_str(&format!("cpu-us={}\n", cpu.as_micros()));
    report.push_str(&format!("elapsed-us={}\n", watched.elapsed.as_micros()));
}

/// CPU time of every process of the run so far, at the `polls`-th poll:
/// its control group's count, where it has one; else, every twentieth poll,
/// the times of every process below this one (a subreaper: the run's
/// orphans come to it, or to its box's first process).
fn run_cpu(polls: u64) -> Option<Duration> {
    if let Ok(held) = GROUPS.lock()
        && let Some(cpu) = held.as_ref().and_then(BoxGroup::cpu)
    {
        return Some(cpu);
    }
    polls.is_multiple_of(20).then(|| tree_cpu(getpid()))
}

/// The pid bubblewrap wrote on its info descriptor (`"child-pid": N`).
fn first_in_box(read: OwnedFd) -> Option<Pid> {
    let mut text = String::new();
    let mut file = fs::File::from(read);
    let _ = (&mut file).take(1 << 16).read_to_string(&mut text);
    let rest = &text[text.find("\"child-pid\"")? + "\"child-pid\"".len()..];
    let digits: String = rest
        .trim_start_matches([':', ' ', '\t', '\n'])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().map(Pid::from_raw)
}

/// Kills the run's process group, the processes of its control group, and
/// every child this process has (left-behind descendants come here as a
/// subreaper), and reaps them, until none is left (or two seconds pass).
pub(super) fn end_everything(group: Pid, pids: Option<&BoxGroup>) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if group.as_raw() > 0 {
            let _ = killpg(group, Signal::SIGKILL);
        }
        if let Some(pids) = pids {
            pids.kill_all();
        }
        for pid in children() {
            let _ = kill(pid, Signal::SIGKILL);
        }
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => std::thread::sleep(Duration::from_millis(1)),
            Ok(_) => {}
            Err(Errno::ECHILD) => return,
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}

/// The processes whose parent is this one, from /proc.
fn children() -> Vec<Pid> {
    let me = getpid().as_raw();
    let Ok(processes) = all_processes() else {
        return Vec::new();
    };
    // One that ends while the list is read is left out: it is reaped.
    processes
        .filter_map(|p| p.ok()?.stat().ok())
        .filter(|stat| stat.ppid == me)
        .map(|stat| Pid::from_raw(stat.pid))
        .collect()
}
