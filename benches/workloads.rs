//! The performance bench: writes the performance workloads
//! deterministically, times the `connectz` binary on each as a whole process
//! (median of several runs) next to `wc -l` on the same file in the same run,
//! and prints one table.
//!
//!     cargo bench --bench workloads             # full sizes
//!     cargo bench --bench workloads -- --quick  # small sizes, a smoke test
//!
//! Peak memory comes from GNU time (`/usr/bin/time -f %M`) when present.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use connectz_gen::{Workload, workload};
use connectz_rng::Rng;
use connectz_testkit::arbitrary::{Arbitrary, Unstructured};
use connectz_testkit::arbitrary_game::ArbitraryGame;

struct Bench {
    name: &'static str,
    kind: Workload,
    full: u64,
    quick: u64,
    /// Moves in a file of this size.
    moves: fn(u64) -> u64,
}

const BENCHES: [Bench; 4] = [
    Bench {
        name: "tail",
        kind: Workload::Tail,
        // 600 MB: far above the timer's resolution.
        full: 300_000_000,
        quick: 300_000,
        moves: |n| n + 7,
    },
    Bench {
        name: "dense",
        kind: Workload::Dense,
        full: 3000,
        quick: 300,
        moves: |n| n * n,
    },
    Bench {
        name: "ladder",
        kind: Workload::Ladder,
        full: 200_000,
        quick: 2_000,
        moves: |n| 2 * n - 1,
    },
    Bench {
        name: "sparse",
        kind: Workload::Sparse,
        full: 1_000_000,
        quick: 10_000,
        moves: |n| n,
    },
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(if quick { 3 } else { 5 });
    let judge = PathBuf::from(env!("CARGO_BIN_EXE_connectz"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(if quick {
        "bench-quick"
    } else {
        "bench"
    });
    fs::create_dir_all(&dir).expect("create bench dir");
    println!(
        "connectz bench: {runs} runs each, medians; baseline = `wc -l` on the same file, same run"
    );
    println!(
        "{:<14} {:>9} {:>11} {:>9} {:>9} {:>8} {:>10} {:>8} {:>9}",
        "workload", "MB", "moves", "time s", "wc -l s", "x wc -l", "Mmoves/s", "MB/s", "peak MiB"
    );
    let mut rows = Vec::new();
    for bench in &BENCHES {
        let size = if quick { bench.quick } else { bench.full };
        for (label, n) in [
            (format!("{}/2", bench.name), half(bench, size)),
            (bench.name.to_string(), size),
        ] {
            let path = dir.join(format!("{}-{n}.txt", bench.name));
            if !path.exists() {
                let file = BufWriter::new(fs::File::create(&path).expect("create workload"));
                workload(bench.kind, n, 1, file).expect("write workload");
            }
            let bytes = fs::metadata(&path).expect("workload").len();
            let moves = (bench.moves)(n);
            let (ours, base) = paired(
                runs,
                &[judge.as_os_str(), path.as_os_str()],
                &["wc".as_ref(), "-l".as_ref(), path.as_os_str()],
            );
            let row = TimedWorkload {
                bench: bench.name,
                n,
                moves,
                ours: secs(ours),
                base: secs(base),
                peak_mb: peak_mb(&judge, &path),
            };
            let mb = bytes as f64 / 1e6;
            println!(
                "{:<14} {:>9.1} {:>11} {:>9.3} {:>9.3} {:>8.2} {:>10.2} {:>8.0} {:>9}",
                label,
                mb,
                moves,
                row.ours,
                row.base,
                row.ours / row.base.max(1e-9),
                row.per_second() / 1e6,
                mb / row.ours,
                row.peak_mb.map_or("n/a".into(), |p| format!("{p:.1}")),
            );
            rows.push(row);
        }
    }
    targets(&rows);
    many(&judge, &dir, if quick { 300 } else { 10_000 }, runs.min(3));
    scale(&judge, &dir, quick, runs.min(3));
}

/// One timed workload.
struct TimedWorkload {
    bench: &'static str,
    /// The workload's size parameter.
    n: u64,
    moves: u64,
    /// Median seconds: ours, and `wc -l`'s.
    ours: f64,
    base: f64,
    peak_mb: Option<f64>,
}

impl TimedWorkload {
    fn per_second(&self) -> f64 {
        self.moves as f64 / self.ours
    }

    /// Peak bytes per cell the workload's measure counts (the frame's cells
    /// when dense, the counters placed when sparse) above `floor`, the
    /// peak of a process whose board is a few bytes.
    fn bytes_per_cell(&self, floor: f64) -> f64 {
        let cells = match self.bench {
            "dense" => self.n * self.n,
            _ => self.moves,
        };
        self.peak_mb
            .map_or(f64::NAN, |p| (p - floor) * 1048576.0 / cells as f64)
    }
}

/// The performance targets, each figure from this run's table: the
/// full size's row, and the half size's for growth.
fn targets(rows: &[TimedWorkload]) {
    let full = |name: &str| rows.iter().rfind(|r| r.bench == name);
    let half = |name: &str| rows.iter().find(|r| r.bench == name);
    // The process's own floor: the tail's board is a few hundred bytes.
    let floor = full("tail").and_then(|t| t.peak_mb).unwrap_or(0.0);
    println!(
        "targets (from the rows above; bytes per cell above the tail's peak, {floor:.1} MiB):"
    );
    let line = |what: String, ok: bool| {
        println!("  {:<72} {}", what, if ok { "met" } else { "NOT MET" });
    };
    // Speed in moves per second and bytes per cell, each at most or at least its bar.
    for (name, speed, bytes, per) in [
        ("dense", 20e6, 4.0, "cell"),
        ("sparse", 5e6, 64.0, "counter"),
    ] {
        let Some(row) = full(name) else {
            continue;
        };
        let per_cell = row.bytes_per_cell(floor);
        line(
            format!(
                "{name}: {:.1} M moves/s (>= {}), {per_cell:.2} B/{per} (<= {bytes})",
                row.per_second() / 1e6,
                speed / 1e6
            ),
            row.per_second() >= speed && per_cell <= bytes,
        );
    }
    if let Some(t) = full("tail") {
        let ratio = t.ours / t.base;
        line(format!("tail: {ratio:.2}x wc -l (<= 1.5)"), ratio <= 1.5);
    }
    if let (Some(l), Some(d)) = (full("ladder"), full("dense")) {
        let ratio = d.per_second() / l.per_second();
        line(
            format!("ladder: time per move {ratio:.2}x dense's (<= 1.5)"),
            ratio <= 1.5,
        );
    }
    for name in ["tail", "dense", "ladder", "sparse"] {
        let (Some(h), Some(f)) = (half(name), full(name)) else {
            continue;
        };
        let time = f.ours / h.ours;
        let memory = f.peak_mb.zip(h.peak_mb).map_or(f64::NAN, |(a, b)| a / b);
        let moves = f.moves as f64 / h.moves as f64;
        // Memory flat in the file's length: no more than the board grows,
        // the board growing with the cells the game fills.
        let flat = match name {
            "tail" => memory <= 1.1,
            _ => memory <= moves * 1.1,
        };
        line(
            format!(
                "{name} growth: {moves:.1}x moves, {time:.2}x time (<= 2.1), {memory:.2}x peak memory"
            ),
            time <= 2.1 && flat,
        );
    }
}

/// Writes an input of the scale table.
type Writer = Box<dyn Fn(&mut dyn Write) -> std::io::Result<()>>;

/// One input of the scale table: a name, its code, and how to write it.
struct Input {
    name: String,
    code: u8,
    write: Writer,
}

fn scale_input(family: Family, n: u64, unwon: bool) -> Input {
    let mut scale = connectz_testkit::scale::Scale::new(family, n);
    if unwon {
        scale = scale.unwon();
    }
    Input {
        name: scale.to_string(),
        code: scale.expect().number(),
        write: Box::new(move |out| std::io::copy(&mut scale.reader(), out).map(|_| ())),
    }
}

use connectz_testkit::scale::Family;

/// Columns that collide in a hash table keyed by the column's low bits.
fn colliding(n: u64, random: bool) -> Input {
    Input {
        name: format!("{} columns x{n}", if random { "random" } else { "2^32 k" }),
        code: 3,
        write: Box::new(move |out| {
            writeln!(out, "1000000000000000000 1000000000000000000 4")?;
            let mut rng = Rng::new(5);
            for k in 1..=n {
                let column = if random {
                    1 + rng.below(1 << 59)
                } else {
                    k << 32
                };
                writeln!(out, "{column}")?;
            }
            Ok(())
        }),
    }
}

/// An X of `digits` digits, then a column of twice as many.
fn long_lines(digits: u64) -> Input {
    Input {
        name: format!("X of {digits} digits"),
        code: 6,
        write: Box::new(move |out| {
            let nines = vec![b'9'; digits as usize];
            out.write_all(&nines)?;
            out.write_all(b" 1 1\n")?;
            out.write_all(&vec![b'8'; 2 * digits as usize])?;
            out.write_all(b"\n")
        }),
    }
}

/// A win at move 1 on a one-column frame, then `n` moves into it.
fn after_win(n: u64) -> Input {
    Input {
        name: format!("1-column win, then {n} moves"),
        code: 4,
        write: Box::new(move |out| {
            writeln!(out, "1 1000000000000 1")?;
            for _ in 0..n {
                out.write_all(b"1\n")?;
            }
            Ok(())
        }),
    }
}

/// The scale suite and the adversarial inputs at full
/// size, as whole processes: time, peak memory, and the code checked.
fn scale(judge: &Path, dir: &Path, quick: bool, runs: usize) {
    let k = if quick { 2 } else { 16 };
    let inputs = vec![
        scale_input(Family::Vertical, 65_536, false),
        scale_input(Family::Vertical, 65_537, true),
        scale_input(Family::Row, 65_537, false),
        scale_input(Family::Vertical, 1 << 20, false),
        scale_input(Family::Vertical, k << 20, false),
        scale_input(Family::Row, 1 << 18, false),
        scale_input(Family::Row, k << 18, false),
        scale_input(Family::Staircase, 257, false),
        colliding(25_000 * k, false),
        colliding(25_000 * k, true),
        colliding(200_000 * k, false),
        long_lines(6_250_000 * k),
        long_lines(12_500_000 * k),
        after_win(3_125_000 * k),
        after_win(6_250_000 * k),
    ];
    println!();
    println!(
        "scale: {runs} runs each, medians; the code of every input is known by construction and checked"
    );
    println!(
        "{:<32} {:>9} {:>9} {:>9} {:>6}",
        "input", "MB", "time s", "peak MB", "code"
    );
    for input in inputs {
        let slug: String = input
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let path = dir.join(format!("scale-{slug}.txt"));
        if !path.exists() {
            let mut file = BufWriter::new(fs::File::create(&path).expect("create input"));
            (input.write)(&mut file).expect("write input");
            file.flush().expect("flush input");
        }
        let out = Command::new(judge).arg(&path).output().expect("run judge");
        let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(code, input.code.to_string(), "{}: wrong code", input.name);
        let times: Vec<Duration> = (0..runs)
            .map(|_| run(&[judge.as_os_str(), path.as_os_str()]))
            .collect();
        println!(
            "{:<32} {:>9.1} {:>9.3} {:>9} {:>6}",
            input.name,
            fs::metadata(&path).expect("input").len() as f64 / 1e6,
            secs(median(times)),
            peak_mb(judge, &path).map_or("n/a".into(), |p| format!("{p:.1}")),
            code
        );
    }
}

fn half(bench: &Bench, size: u64) -> u64 {
    match bench.kind {
        // Half the moves of a square frame: side / sqrt(2).
        Workload::Dense => ((size as f64) / 2f64.sqrt()).round() as u64,
        _ => size / 2,
    }
}

/// Runs the two commands in turn, `runs` times each, and returns the medians.
fn paired(runs: usize, a: &[&std::ffi::OsStr], b: &[&std::ffi::OsStr]) -> (Duration, Duration) {
    let mut ta = Vec::new();
    let mut tb = Vec::new();
    run(a);
    for _ in 0..runs {
        ta.push(run(a));
        tb.push(run(b));
    }
    (median(ta), median(tb))
}

fn run(cmd: &[&std::ffi::OsStr]) -> Duration {
    let start = Instant::now();
    let status = Command::new(cmd[0])
        .args(&cmd[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run command");
    assert!(status.success(), "{cmd:?} failed");
    start.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Peak resident memory of one run, in MiB, from GNU time.
fn peak_mb(judge: &Path, path: &Path) -> Option<f64> {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(judge)
        .arg(path)
        .stdout(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let kb = String::from_utf8_lossy(&out.stderr)
        .trim()
        .lines()
        .last()?
        .parse::<f64>()
        .ok()?;
    Some(kb / 1024.0)
}

/// Many small files, one process each: the cost a batch of submissions pays.
fn many(judge: &Path, dir: &Path, count: usize, runs: usize) {
    let folder = dir.join(format!("many-{count}"));
    if !folder.exists() {
        fs::create_dir_all(&folder).expect("create many dir");
        let mut rng = Rng::new(7);
        for i in 0..count {
            let data: Vec<u8> = (0..64).map(|_| rng.next_u64() as u8).collect();
            let game = ArbitraryGame::arbitrary_take_rest(Unstructured::new(&data)).expect("game");
            let mut file = fs::File::create(folder.join(format!("{i:05}.txt"))).expect("create");
            file.write_all(&game.render()).expect("write");
        }
    }
    let mut files: Vec<PathBuf> = fs::read_dir(&folder)
        .expect("read")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut ours = Vec::new();
    let mut base = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        for f in &files {
            run(&[judge.as_os_str(), f.as_os_str()]);
        }
        ours.push(start.elapsed());
        let start = Instant::now();
        for f in &files {
            run(&["wc".as_ref(), "-l".as_ref(), f.as_os_str()]);
        }
        base.push(start.elapsed());
    }
    let (ours, base) = (median(ours), median(base));
    println!(
        "{:<14} {:>9} {:>11} {:>9.3} {:>9.3} {:>8.2} {:>10} {:>8} {:>9}",
        format!("many x{count}"),
        "-",
        "-",
        secs(ours),
        secs(base),
        secs(ours) / secs(base),
        "-",
        "-",
        format!("{:.2}ms/f", secs(ours) * 1e3 / count as f64)
    );
}
