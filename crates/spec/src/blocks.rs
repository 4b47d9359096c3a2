//! The example blocks of a spec page, one function per kind: the words
//! after the fence (`connectz expect=3 no-eol`) and the block's lines,
//! read into an [`Example`] (spec/README.md gives the syntax).

use connectz::Code;

use crate::{Class, Example, Part, Resource, unescape};

/// The kinds of block that are examples; a fenced block of another kind is
/// prose.
pub(crate) const KINDS: [&str; 8] = [
    "connectz", "cli", "board", "rotate", "solve", "scores", "resource", "scale",
];

/// The example of a block of `kind` (one of [`KINDS`]) with the words
/// `flags` after its kind and the lines `body`, at `at`, in a clause of
/// class `class`.
pub(crate) fn example(
    kind: &str,
    flags: Vec<&str>,
    body: &[&str],
    class: Class,
    at: String,
) -> Result<Example, String> {
    match kind {
        "resource" | "scale" => sized(kind, &flags, body, at),
        "solve" | "scores" => positions(kind, &flags, body, at),
        "board" => board(&flags, body, at),
        "rotate" => rotate(body, at),
        "connectz" => game(&flags, body, class, at),
        _ => cli(body, at),
    }
}

/// The value of the flag `key` (`expect=`, `n=`, ...) among `flags`.
fn flag<'a>(flags: &[&'a str], key: &str) -> Option<&'a str> {
    flags.iter().find_map(|f| f.strip_prefix(key))
}

/// A `resource` block (an input of parts, `expect=`, `held<=`, `read<=`,
/// `board<=`, `limit-kb=`) or a `scale` block (`family=`, `n=`, `unwon`,
/// `expect=`, `board<=`).
fn sized(kind: &str, flags: &[&str], body: &[&str], at: String) -> Result<Example, String> {
    let number = |key: &str| -> Result<Option<u64>, String> {
        flag(flags, key)
            .map(|v| {
                v.replace('_', "")
                    .parse()
                    .map_err(|_| format!("{at}: bad {key}"))
            })
            .transpose()
    };
    let expect = flag(flags, "expect=")
        .and_then(|n| n.parse().ok())
        .and_then(Code::from_number)
        .ok_or(format!("{at}: missing or bad expect="))?;
    let board_per_move = number("board<=")?.map(|v| v as usize);
    if kind == "scale" {
        Ok(Example::Scale {
            family: flag(flags, "family=")
                .ok_or(format!("{at}: missing family="))?
                .to_string(),
            n: number("n=")?.ok_or(format!("{at}: missing n="))?,
            unwon: flags.contains(&"unwon"),
            expect,
            board_per_move,
            at,
        })
    } else {
        Ok(Example::Resource(Resource {
            parts: resource_parts(body).map_err(|e| format!("{at}: {e}"))?,
            expect,
            held: number("held<=")?.map(|v| v as usize),
            read: number("read<=")?,
            board_per_move,
            limit_kb: number("limit-kb=")?,
            at,
        }))
    }
}

/// Parses the body of a `resource` block: one part per line, either a
/// quoted string with `\n`-style escapes, optionally `* N` or `* forever`,
/// or `multiples STEP COUNT`.
fn resource_parts(body: &[&str]) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    for line in body {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("multiples ") {
            let numbers: Vec<u64> = rest
                .split_whitespace()
                .map(|w| {
                    w.replace('_', "")
                        .parse()
                        .map_err(|_| format!("bad number {w:?}"))
                })
                .collect::<Result<_, _>>()?;
            let [step, count] = numbers[..] else {
                return Err(format!("multiples takes STEP COUNT: {line:?}"));
            };
            parts.push(Part::Multiples { step, count });
            continue;
        }
        let end = line
            .rfind('"')
            .filter(|&e| e > 0 && line.starts_with('"'))
            .ok_or(format!("a part is a quoted string: {line:?}"))?;
        let bytes = unescape(&line[1..end])?;
        let times = match line[end + 1..].trim() {
            "" => Some(1),
            rest => {
                let count = rest
                    .strip_prefix('*')
                    .map(str::trim)
                    .ok_or(format!("after a string: * N or * forever: {line:?}"))?;
                if count == "forever" {
                    None
                } else {
                    Some(
                        count
                            .replace('_', "")
                            .parse()
                            .map_err(|_| format!("bad count {count:?}"))?,
                    )
                }
            }
        };
        parts.push(Part::Repeat { bytes, times });
    }
    Ok(parts)
}

/// A `solve` block (`moves score` per line) or a `scores` block (`moves`
/// and a score per column), on the frame of `width=`, `height=` and
/// `connect=` (7, 6 and 4 by default).
fn positions(kind: &str, flags: &[&str], body: &[&str], at: String) -> Result<Example, String> {
    let number = |key: &str, default: usize| -> Result<usize, String> {
        flag(flags, key).map_or(Ok(default), |v| {
            v.parse().map_err(|_| format!("{at}: bad {key}"))
        })
    };
    let shape = (
        number("width=", 7)?,
        number("height=", 6)?,
        number("connect=", 4)?,
    );
    if kind == "scores" {
        let lines = scores_lines(body, shape.0, &at)?;
        Ok(Example::Scores { shape, lines, at })
    } else {
        let lines = solve_lines(body, &at)?;
        Ok(Example::Solve { shape, lines, at })
    }
}

/// A `board` block: a grid, its run length `z=`, symbols `first=` and
/// `empty=`, the `no-gravity` flag, and the answer `expect=`.
fn board(flags: &[&str], body: &[&str], at: String) -> Result<Example, String> {
    let symbol = |key: &str| flag(flags, key).and_then(|s| s.chars().next());
    let mut grid = body.join("\n").into_bytes();
    grid.push(b'\n');
    Ok(Example::Board {
        grid,
        z: flag(flags, "z=")
            .map_or(Ok(4), str::parse)
            .map_err(|_| format!("{at}: bad z="))?,
        first: symbol("first="),
        empty: symbol("empty="),
        gravity: !flags.contains(&"no-gravity"),
        expect: flag(flags, "expect=")
            .ok_or(format!("{at}: missing expect="))?
            .replace('-', " "),
        at,
    })
}

/// A `rotate` block: the input, a `---` line, the output.
fn rotate(body: &[&str], at: String) -> Result<Example, String> {
    let split = body
        .iter()
        .position(|l| *l == "---")
        .ok_or(format!("{at}: a rotate block needs a --- line"))?;
    let join = |lines: &[&str]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    Ok(Example::Rotate {
        input: join(&body[..split]),
        output: join(&body[split + 1..]),
        at,
    })
}

/// A `connectz` block: a game file, a line per line with escapes, its code
/// `expect=`, its class `class=` (else the clause's) and the `no-eol` flag.
fn game(flags: &[&str], body: &[&str], class: Class, at: String) -> Result<Example, String> {
    let expect = flag(flags, "expect=")
        .and_then(|n| n.parse().ok())
        .and_then(Code::from_number)
        .ok_or(format!("{at}: missing or bad expect="))?;
    let class = match flag(flags, "class=") {
        Some(word) => Class::parse(word).ok_or(format!("{at}: unknown class {word}"))?,
        None => class,
    };
    let mut bytes = Vec::new();
    for l in body {
        bytes.extend(unescape(l).map_err(|e| format!("{at}: {e}"))?);
        bytes.push(b'\n');
    }
    if flags.contains(&"no-eol") {
        bytes.pop();
    }
    Ok(Example::Game {
        bytes,
        expect,
        class,
        at,
    })
}

/// A `cli` block: a command line running `connectz`, and what it prints.
fn cli(body: &[&str], at: String) -> Result<Example, String> {
    let [command, stdout] = body[..] else {
        return Err(format!(
            "{at}: a cli block is a command line and its output"
        ));
    };
    let mut args = command.split_whitespace().map(String::from);
    if args.next().as_deref() != Some("connectz") {
        return Err(format!("{at}: a cli block runs connectz"));
    }
    Ok(Example::Cli {
        args: args.collect(),
        stdout: format!("{stdout}\n"),
        at,
    })
}

/// The lines of a `solve` block: `moves score`, or `moves invalid`.
fn solve_lines(body: &[&str], at: &str) -> Result<Vec<(String, Option<i32>)>, String> {
    let mut lines = Vec::new();
    for l in body {
        let (moves, score) = l
            .split_once(' ')
            .ok_or(format!("{at}: a solve line is moves and a score"))?;
        let score = if score == "invalid" {
            None
        } else {
            Some(
                score
                    .parse()
                    .map_err(|_| format!("{at}: bad score {score}"))?,
            )
        };
        lines.push((moves.to_string(), score));
    }
    Ok(lines)
}

/// A line of a `scores` block: the moves, each column's score.
type ScoresLine = (String, Vec<Option<i32>>);

/// The lines of a `scores` block: `moves` and a score for each of `width`
/// columns, `-` for a full one.
fn scores_lines(body: &[&str], width: usize, at: &str) -> Result<Vec<ScoresLine>, String> {
    let mut lines = Vec::new();
    for l in body {
        let mut words = l.split(' ');
        let moves = words.next().unwrap_or_default().to_string();
        let scores = words
            .map(|w| match w {
                "-" => Ok(None),
                _ => w
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{at}: bad score {w}")),
            })
            .collect::<Result<Vec<_>, String>>()?;
        if scores.len() != width {
            return Err(format!(
                "{at}: {moves}: a score for each of {width} columns"
            ));
        }
        lines.push((moves, scores));
    }
    Ok(lines)
}
