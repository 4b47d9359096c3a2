//! Resources as results (r[resource.line], r[resource.time],
//! r[resource.settled], r[decision.out-of-memory]): an endless source gets
//! its verdict, long lines are held in bounded memory and read in linear
//! time, columns built against the hash cost what other columns cost, a
//! read that fails is a 9 unless the verdict was already settled, and a
//! run with little address space still prints a code.

use std::io::{self, Read, Write};
use std::process::{Command, Stdio};

use connectz::{Code, Judge, judge_reader, judge_reader_with};

use crate::support::root;

/// A reader that yields `head`, then `body` repeated forever.
struct Endless {
    head: Vec<u8>,
    body: Vec<u8>,
    at: usize,
    /// Bytes handed out.
    read: u64,
}

impl Endless {
    fn new(head: &[u8], body: &[u8]) -> Endless {
        Endless {
            head: head.to_vec(),
            body: body.to_vec(),
            at: 0,
            read: 0,
        }
    }
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let source = if self.at < self.head.len() {
                &self.head[self.at..]
            } else {
                let k = (self.at - self.head.len()) % self.body.len();
                &self.body[k..]
            };
            let m = source.len().min(buf.len() - n);
            buf[n..n + m].copy_from_slice(&source[..m]);
            n += m;
            self.at += m;
        }
        self.read += n as u64;
        Ok(n)
    }
}

#[test]
fn endless_sources_with_a_fault_get_eight_at_once() {
    let cases: [(&[u8], &[u8]); 5] = [
        (b"", b"\0"),
        (b"", b"a"),
        (b"7 6 4\n1\n", b"x"),
        (b"7 6 4\n1\nx", b"1\n"),
        (b"7 6 4\n1\n", b"\r"),
    ];
    for (i, (head, body)) in cases.into_iter().enumerate() {
        let mut source = Endless::new(head, body);
        let report = judge_reader(&mut source);
        assert_eq!(report.code(), Code::InvalidFile, "case {i}");
        // One chunk read, not more.
        assert!(
            source.read <= 1 << 20,
            "case {i}: read {} bytes",
            source.read
        );
    }
}

/// A reader that yields `bytes`, a few at a time, then fails.
struct Failing<'a> {
    bytes: &'a [u8],
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.bytes.is_empty() {
            return Err(io::Error::other("the device went away"));
        }
        let n = buf.len().min(self.bytes.len()).min(3);
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// r[decision.unreadable]: a file read up to its first format fault is an
/// 8 however its reading would have ended; one whose reading fails before
/// its verdict is settled is a 9, whatever was found before.
#[test]
fn a_read_that_fails_is_a_nine_unless_the_verdict_was_settled() {
    let cases: [(&[u8], Code); 6] = [
        (b"7 6 4\nx\n", Code::InvalidFile),
        (b"7 6 0\n1\n", Code::InvalidFile),
        (b"", Code::FileError),
        (b"7 6 4\n1\n2\n", Code::FileError),
        (b"1 1 4\n1\n", Code::FileError),
        (b"7 6 4\n9\n1\n", Code::FileError),
    ];
    for (bytes, code) in cases {
        let report = judge_reader(Failing { bytes });
        assert_eq!(
            report.code(),
            code,
            "{:?}",
            bytes.escape_ascii().to_string()
        );
    }
}

#[test]
fn a_pipe_left_open_after_a_bad_byte_gets_its_code() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_connectz"))
        .arg("/dev/stdin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"7 6 4\n1\n2\nx").unwrap();
    stdin.flush().unwrap();
    // The writer stays open; the judge must answer without waiting for it
    // (if it waited, this read would never end).
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "8\n");
    drop(stdin);
    child.wait().unwrap();
}

/// Feeds `source` in chunks; returns the code and the most bytes held.
fn held(mut source: impl Read) -> (Code, usize) {
    let mut judge = Judge::new();
    let mut most = 0;
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = source.read(&mut buffer).unwrap();
        if n == 0 {
            break;
        }
        judge.feed(&buffer[..n]);
        most = most.max(connectz::hooks::buffered(&judge));
        if judge.is_settled() {
            break;
        }
    }
    (judge.finish().code(), most)
}

#[test]
fn long_lines_are_held_in_memory_that_exactness_needs() {
    let mib = 1 << 20;
    let long = 64 * mib;
    // A column of 64 MiB of digits after a header of one-digit numbers:
    // two digits of it matter.
    let column = Endless::new(b"7 6 4\n", b"9")
        .take(long as u64)
        .chain(&b"\n"[..]);
    let (code, most) = held(column);
    assert_eq!(code, Code::IllegalColumn);
    assert!(most <= 64 * 1024, "held {most} bytes");
    // 64 MiB of leading zeros, in the header and in a move.
    let zeros = Endless::new(b"", b"0")
        .take(long as u64)
        .chain(&b"7 6 4\n"[..]);
    let (code, most) = held(zeros);
    assert_eq!(code, Code::Incomplete);
    assert!(most <= 64 * 1024, "held {most} bytes");
    let zeros = (&b"7 6 4\n"[..])
        .chain(Endless::new(b"", b"0").take(long as u64))
        .chain(&b"3\n"[..]);
    let (code, most) = held(zeros);
    assert_eq!(code, Code::Incomplete);
    assert!(most <= 64 * 1024, "held {most} bytes");
    // An exact X of 8 MiB digits must be kept, and is: once.
    let x = 8 * mib;
    let header = Endless::new(b"", b"9")
        .take(x as u64)
        .chain(&b" 2 2\n5\n"[..]);
    let (code, most) = held(header);
    assert_eq!(code, Code::Incomplete);
    assert!(
        most <= 2 * x + mib,
        "held {most} bytes for an X of {x} digits"
    );
}

/// The same verdict at n and 8n, and the line buffer no larger than the
/// header's numbers need. Time is not asserted here (a test must pass on a
/// busy machine): the workloads bench times long lines.
fn assert_linear(name: &str, make: impl Fn(usize) -> Vec<u8>, n: usize) {
    let (small, large) = (make(n), make(8 * n));
    let expect = connectz::judge_bytes(&small).code();
    assert_eq!(connectz::judge_bytes(&large).code(), expect, "{name}");
    let (code, most) = held(&large[..]);
    assert_eq!(code, expect, "{name}");
    assert!(most <= 2 * large.len(), "{name}: held {most} bytes");
}

#[test]
fn long_lines_are_read_in_linear_time() {
    // An X of n digits, then a column of 2n digits (once quadratic).
    assert_linear(
        "long X and column",
        |n| {
            let mut v = vec![b'9'; n];
            v.extend_from_slice(b" 1 1\n");
            v.extend(std::iter::repeat_n(b'8', 2 * n));
            v.push(b'\n');
            v
        },
        1 << 20,
    );
    // A header with a million zeros in each number.
    assert_linear(
        "zeros in the header",
        |n| {
            let mut v = Vec::new();
            for d in [b"7 ", b"6 ", b"4\n"] {
                v.extend(std::iter::repeat_n(b'0', n));
                v.extend_from_slice(d);
            }
            v
        },
        1 << 20,
    );
}

/// Columns built to collide in a hash table keyed by the column: multiples
/// of 2^32 and 2^40 share their low bits, and multiples of the constant of
/// the multiplicative hash this judge once used.
fn colliding(n: usize, family: u32) -> Vec<u8> {
    let mut v = b"1000000000000000000 1000000000000000000 4\n".to_vec();
    for k in 1..=n as u64 {
        let column = match family {
            0 => k << 32,
            1 => k << 40,
            _ => k.wrapping_mul(0x51_7c_c1_b7_27_22_0a_95) % 1_000_000_000_000_000_000 + 1,
        };
        v.extend_from_slice(format!("{column}\n").as_bytes());
    }
    v
}

/// Slots the keyed table examined past home per lookup, judging `bytes`.
fn probes_per_lookup(bytes: &[u8]) -> f64 {
    let mut judge = Judge::new();
    judge.feed(bytes);
    let probes = connectz::hooks::probes(judge.game().expect("a game in play").board());
    assert!(probes.lookups > 0);
    probes.extra as f64 / probes.lookups as f64
}

#[test]
fn columns_built_to_collide_cost_what_others_cost() {
    // Counted, not timed: the table's probe steps per lookup are the same
    // on any machine, however busy.
    let random = {
        let mut rng = connectz_rng::Rng::new(9);
        let mut v = b"1000000000000000000 1000000000000000000 4\n".to_vec();
        for _ in 0..200_000 {
            v.extend_from_slice(format!("{}\n", 1 + rng.below(1 << 59)).as_bytes());
        }
        v
    };
    let base = probes_per_lookup(&random);
    assert!(
        base < 4.0,
        "random columns: {base:.2} slots past home a lookup"
    );
    for family in 0..3 {
        let extra = probes_per_lookup(&colliding(200_000, family));
        assert!(
            extra < 8.0,
            "collision family {family}: {extra:.2} slots past home a lookup (random: {base:.2})"
        );
    }
}

/// Runs `connectz FILE` with the address space limited to `kb` kilobytes.
fn limited(kb: u64, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("connectz-limited-{}-{kb}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, bytes).unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kb}; exec \"$0\" \"$1\""))
        .arg(env!("CARGO_BIN_EXE_connectz"))
        .arg(&file)
        .current_dir(root())
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn little_address_space_still_gives_a_code() {
    // A frame whose array would be 64 MiB: with 40 MB of address space the
    // judge plays it sparse, and the NUL bytes after the moves make it 8.
    let mut game = b"4096 4096 4\n1\n2\n".to_vec();
    game.extend(std::iter::repeat_n(0u8, 1 << 20));
    assert_eq!(limited(40_000, &game), "8\n");
    // A sparse game that cannot fit in 60 MB: memory runs out (9), unless a
    // later fault outranks that: a column past the frame (6), a bad byte (8).
    let mut rng = connectz_rng::Rng::new(4);
    let mut big = b"1000000000000 1000000000000 1000\n".to_vec();
    for _ in 0..2_000_000 {
        big.extend_from_slice(format!("{}\n", 1 + rng.below(1_000_000_000_000)).as_bytes());
    }
    assert_eq!(limited(60_000, &big), "9\n");
    assert_eq!(limited(400_000, &big), "3\n");
    let mut off = big.clone();
    off.extend_from_slice(b"1000000000001\n");
    assert_eq!(limited(60_000, &off), "6\n");
    let mut bad = off.clone();
    bad.extend_from_slice(b"x\n");
    assert_eq!(limited(60_000, &bad), "8\n");
    // What the judge says about it.
    let report = judge_reader_with(&big[..], Judge::new());
    assert_eq!(report.code(), Code::Incomplete);
}
