//! The spec's clauses and examples, and the edge-case corpus, embedded at
//! build time (see spec/README.md for the example syntax). Tests run them;
//! `cz check` and `cz grade` run candidate implementations on them; the page
//! shows a clause's text and offers the corpus.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use connectz::Code;

mod corpus {
    include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
}

/// Whether the brief's own text settles a point (spec/decisions.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The brief settles it: disagreeing is an error.
    Defined,
    /// The brief is silent or conflicts: this project's ruling.
    Impl,
}

impl Class {
    fn parse(word: &str) -> Option<Class> {
        match word {
            "defined" => Some(Class::Defined),
            "impl" => Some(Class::Impl),
            _ => None,
        }
    }

    /// `defined` or `impl`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Defined => "defined",
            Class::Impl => "impl",
        }
    }
}

/// One example block of a clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Example {
    /// A game file and its code.
    Game {
        /// The file's bytes.
        bytes: Vec<u8>,
        /// Its code.
        expect: Code,
        /// Whether the brief settles this example.
        class: Class,
        /// `file:line` of the block.
        at: String,
    },
    /// A board snapshot and the answer of `cz board` (spec/board.md).
    Board {
        /// The grid as written.
        grid: Vec<u8>,
        /// Line length (`z=`, default 4).
        z: usize,
        /// The first player's symbol (`first=`).
        first: Option<char>,
        /// An extra empty symbol (`empty=`).
        empty: Option<char>,
        /// False with the `no-gravity` flag.
        gravity: bool,
        /// The answer, e.g. `first player moves` (written with `-` for spaces).
        expect: String,
        /// `file:line` of the block.
        at: String,
    },
    /// A "Rotate" input and its exact output, split by a `---` line.
    Rotate {
        /// The contest input.
        input: String,
        /// The expected output.
        output: String,
        /// `file:line` of the block.
        at: String,
    },
    /// Positions and their exact scores (spec/solve.md): `moves score`
    /// per line, or `moves invalid`.
    Solve {
        /// Frame: width, height, run length (`width=`, `height=`,
        /// `connect=`, default 7, 6, 4).
        shape: (usize, usize, usize),
        /// (moves, score or `None` for an invalid position).
        lines: Vec<(String, Option<i32>)>,
        /// `file:line` of the block.
        at: String,
    },
    /// Positions and every column's score (spec/solve.md, `cz solve
    /// --scores`): `moves` then one score a column, `-` for a full one.
    Scores {
        /// Frame: width, height, run length, as for [`Example::Solve`].
        shape: (usize, usize, usize),
        /// (moves, each column's score or `None` for a full column).
        lines: Vec<(String, Vec<Option<i32>>)>,
        /// `file:line` of the block.
        at: String,
    },
    /// A command line and exactly what it prints.
    Cli {
        /// Arguments after `connectz`.
        args: Vec<String>,
        /// Standard out, with its line feed.
        stdout: String,
        /// `file:line` of the block.
        at: String,
    },
    /// A streamed input too large to write out, its code, and the resources
    /// judging it may take (spec/resources.md).
    Resource(Resource),
    /// A game of the scale suite and the board memory it may take.
    Scale {
        /// Family name (see `scale::Family::name`).
        family: String,
        /// Its length.
        n: u64,
        /// With lines one longer than it builds.
        unwon: bool,
        /// Its code.
        expect: Code,
        /// At most this many bytes of board per move (`board<=`).
        board_per_move: Option<usize>,
        /// `file:line` of the block.
        at: String,
    },
}

/// One part of a streamed input (see [`Resource`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// These bytes, `times` times (`None`: forever).
    Repeat {
        /// The bytes.
        bytes: Vec<u8>,
        /// How many times.
        times: Option<u64>,
    },
    /// The lines `step`, `2 * step`, ... `count * step`.
    Multiples {
        /// The first column.
        step: u64,
        /// How many.
        count: u64,
    },
}

/// A `resource` example: an input made of parts, and what judging it may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The input, part after part.
    pub parts: Vec<Part>,
    /// Its code.
    pub expect: Code,
    /// At most this many bytes held for a partial line (`held<=`).
    pub held: Option<usize>,
    /// At most this many bytes read (`read<=`), for endless inputs.
    pub read: Option<u64>,
    /// At most this many bytes of board per move (`board<=`).
    pub board_per_move: Option<usize>,
    /// Run `connectz` with this much address space, in KiB (`limit-kb=`).
    pub limit_kb: Option<u64>,
    /// `file:line` of the block.
    pub at: String,
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

/// A clause of the spec.
#[derive(Clone, Debug)]
pub struct Clause {
    /// Its stable id, e.g. `rule.winnable`.
    pub id: String,
    /// The spec file it is in.
    pub file: String,
    /// Its class: from a `class:` line right after the id, else `defined`.
    pub class: Class,
    /// Its prose: the Markdown lines after the id, up to the next clause or
    /// heading, without the fenced blocks.
    pub text: String,
    /// Its examples, in order.
    pub examples: Vec<Example>,
}

/// Every clause of the embedded spec, in file order.
///
/// # Errors
/// A malformed spec file: the place and what is wrong.
pub fn clauses() -> Result<Vec<Clause>, String> {
    let mut out = Vec::new();
    for (name, text) in corpus::SPEC_FILES {
        out.extend(parse(name, text)?);
    }
    let mut ids: Vec<&str> = out.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    if let Some(pair) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("clause {} defined twice", pair[0]));
    }
    Ok(out)
}

/// The clause of the embedded spec with this id; the spec is parsed once
/// per process. `None` for an id the spec does not have (or a spec that
/// does not parse, which `clauses` reports).
pub fn clause(id: &str) -> Option<&'static Clause> {
    static ALL: std::sync::OnceLock<Vec<Clause>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| clauses().unwrap_or_default())
        .iter()
        .find(|c| c.id == id)
}

/// Parses one spec file.
///
/// # Errors
/// A malformed example block or an example before any clause.
pub fn parse(name: &str, text: &str) -> Result<Vec<Clause>, String> {
    let mut clauses: Vec<Clause> = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    // Whether prose lines still belong to the last clause.
    let mut in_clause = false;
    while let Some((n, line)) = lines.next() {
        let at = format!("{name}:{}", n + 1);
        if line.starts_with('#') {
            in_clause = false;
        } else if in_clause
            && !line.starts_with("```")
            && !line.starts_with("r[")
            && let Some(clause) = clauses.last_mut()
        {
            clause.text.push_str(line);
            clause.text.push('\n');
        }
        if let Some(id) = line.strip_prefix("r[").and_then(|l| l.strip_suffix(']')) {
            let class = match lines.peek().and_then(|(_, l)| l.strip_prefix("class: ")) {
                Some(word) => {
                    lines.next();
                    Class::parse(word.trim()).ok_or(format!("{at}: unknown class {word}"))?
                }
                None => Class::Defined,
            };
            clauses.push(Clause {
                id: id.to_string(),
                file: name.to_string(),
                class,
                text: String::new(),
                examples: Vec::new(),
            });
            in_clause = true;
            continue;
        }
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| *l != "```")
            .collect();
        let mut words = info.split_whitespace();
        let kind = words.next();
        if !matches!(
            kind,
            Some(
                "connectz" | "cli" | "board" | "rotate" | "solve" | "scores" | "resource" | "scale"
            )
        ) {
            continue;
        }
        let clause = clauses
            .last_mut()
            .ok_or(format!("{at}: example before any clause"))?;
        let flags_of = |words: std::str::SplitWhitespace<'_>| -> Vec<String> {
            words.map(String::from).collect()
        };
        let example = if kind == Some("resource") || kind == Some("scale") {
            let flags = flags_of(words);
            let flag = |key: &str| flags.iter().find_map(|f| f.strip_prefix(key));
            let number = |key: &str| -> Result<Option<u64>, String> {
                flag(key)
                    .map(|v| {
                        v.replace('_', "")
                            .parse()
                            .map_err(|_| format!("{at}: bad {key}"))
                    })
                    .transpose()
            };
            let expect = flag("expect=")
                .and_then(|n| n.parse().ok())
                .and_then(Code::from_number)
                .ok_or(format!("{at}: missing or bad expect="))?;
            let board_per_move = number("board<=")?.map(|v| v as usize);
            if kind == Some("scale") {
                Example::Scale {
                    family: flag("family=")
                        .ok_or(format!("{at}: missing family="))?
                        .to_string(),
                    n: number("n=")?.ok_or(format!("{at}: missing n="))?,
                    unwon: flags.iter().any(|f| f == "unwon"),
                    expect,
                    board_per_move,
                    at,
                }
            } else {
                Example::Resource(Resource {
                    parts: resource_parts(&body).map_err(|e| format!("{at}: {e}"))?,
                    expect,
                    held: number("held<=")?.map(|v| v as usize),
                    read: number("read<=")?,
                    board_per_move,
                    limit_kb: number("limit-kb=")?,
                    at,
                })
            }
        } else if kind == Some("solve") || kind == Some("scores") {
            let flags: Vec<&str> = words.collect();
            let number = |key: &str, default: usize| -> Result<usize, String> {
                flags
                    .iter()
                    .find_map(|f| f.strip_prefix(key))
                    .map_or(Ok(default), |v| {
                        v.parse().map_err(|_| format!("{at}: bad {key}"))
                    })
            };
            let shape = (
                number("width=", 7)?,
                number("height=", 6)?,
                number("connect=", 4)?,
            );
            if kind == Some("scores") {
                let lines = scores_lines(&body, shape.0, &at)?;
                Example::Scores { shape, lines, at }
            } else {
                let lines = solve_lines(&body, &at)?;
                Example::Solve { shape, lines, at }
            }
        } else if kind == Some("board") {
            let flags: Vec<&str> = words.collect();
            let flag = |key: &str| flags.iter().find_map(|f| f.strip_prefix(key));
            let symbol = |key: &str| flag(key).and_then(|s| s.chars().next());
            let mut grid = body.join("\n").into_bytes();
            grid.push(b'\n');
            Example::Board {
                grid,
                z: flag("z=")
                    .map_or(Ok(4), str::parse)
                    .map_err(|_| format!("{at}: bad z="))?,
                first: symbol("first="),
                empty: symbol("empty="),
                gravity: !flags.contains(&"no-gravity"),
                expect: flag("expect=")
                    .ok_or(format!("{at}: missing expect="))?
                    .replace('-', " "),
                at,
            }
        } else if kind == Some("rotate") {
            let split = body
                .iter()
                .position(|l| *l == "---")
                .ok_or(format!("{at}: a rotate block needs a --- line"))?;
            let join = |lines: &[&str]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
            Example::Rotate {
                input: join(&body[..split]),
                output: join(&body[split + 1..]),
                at,
            }
        } else if kind == Some("connectz") {
            let flags: Vec<&str> = words.collect();
            let flag = |key: &str| flags.iter().find_map(|f| f.strip_prefix(key));
            let expect = flag("expect=")
                .and_then(|n| n.parse().ok())
                .and_then(Code::from_number)
                .ok_or(format!("{at}: missing or bad expect="))?;
            let class = match flag("class=") {
                Some(word) => Class::parse(word).ok_or(format!("{at}: unknown class {word}"))?,
                None => clause.class,
            };
            let mut bytes = Vec::new();
            for l in &body {
                bytes.extend(unescape(l).map_err(|e| format!("{at}: {e}"))?);
                bytes.push(b'\n');
            }
            if flags.contains(&"no-eol") {
                bytes.pop();
            }
            Example::Game {
                bytes,
                expect,
                class,
                at,
            }
        } else {
            let [command, stdout] = body[..] else {
                return Err(format!(
                    "{at}: a cli block is a command line and its output"
                ));
            };
            let mut args = command.split_whitespace().map(String::from);
            if args.next().as_deref() != Some("connectz") {
                return Err(format!("{at}: a cli block runs connectz"));
            }
            Example::Cli {
                args: args.collect(),
                stdout: format!("{stdout}\n"),
                at,
            }
        };
        clause.examples.push(example);
    }
    Ok(clauses)
}

/// `\r`, `\n`, `\t`, `\xHH` and `\\`, as spec/README.md defines them.
fn unescape(line: &str) -> Result<Vec<u8>, String> {
    let b = line.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'r') => out.push(b'\r'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex = line.get(i + 2..i + 4).ok_or("short \\x escape")?;
                out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
                i += 2;
            }
            _ => return Err(format!("unknown escape in {line:?}")),
        }
        i += 2;
    }
    Ok(out)
}

/// A file of tests/cases: its code is in its path.
#[derive(Clone, Debug)]
pub struct CaseFile {
    /// Path below tests/cases, e.g. `8-invalid-file/bom.txt`.
    pub path: &'static str,
    /// The file's bytes.
    pub bytes: &'static [u8],
    /// The code its folder names.
    pub expect: Code,
    /// `impl` when tests/cases/impl.tsv lists it, else `defined`.
    pub class: Class,
    /// The decision behind an `impl` case.
    pub decision: Option<&'static str>,
}

/// Every embedded file of tests/cases, sorted by path.
pub fn case_files() -> Vec<CaseFile> {
    let notes: Vec<(&str, &str)> = corpus::CASE_NOTES
        .iter()
        .flat_map(|(_, text)| text.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .collect();
    corpus::CASE_FILES
        .iter()
        .filter_map(|&(path, bytes)| {
            let expect = Code::from_number(path.as_bytes().first()?.wrapping_sub(b'0'))?;
            let decision = notes.iter().find(|(p, _)| *p == path).map(|(_, d)| *d);
            Some(CaseFile {
                path,
                bytes,
                expect,
                class: if decision.is_some() {
                    Class::Impl
                } else {
                    Class::Defined
                },
                decision,
            })
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_parses_embedded_spec_and_cases() {
        let all = clauses().unwrap();
        assert!(all.len() >= 20);
        assert!(all.iter().any(|c| c.class == Class::Impl));
        assert!(case_files().len() >= 60);
    }

    #[test]
    fn example_syntax() {
        let text = "r[a.b]\nclass: impl\n```connectz expect=8 no-eol\n1\\r\\x41\n```\n```connectz expect=3 class=defined\n7 6 4\n```\n";
        let c = parse("t.md", text).unwrap();
        assert_eq!(c[0].class, Class::Impl);
        match &c[0].examples[..] {
            [
                Example::Game {
                    bytes,
                    class: Class::Impl,
                    ..
                },
                Example::Game {
                    class: Class::Defined,
                    expect: Code::Incomplete,
                    ..
                },
            ] => assert_eq!(bytes, b"1\rA"),
            other => panic!("{other:?}"),
        }
        assert!(parse("t.md", "```connectz expect=3\n1\n```\n").is_err());
    }

    #[test]
    fn a_clause_keeps_its_prose_without_blocks_up_to_the_next_heading() {
        let text = "# T\nr[a.b]\nclass: impl\nFirst line.\n\n```connectz expect=3\n7 6 4\n```\nAfter.\nr[a.c]\nOwn.\n## Next\nNot a clause's.\n";
        let c = parse("t.md", text).unwrap();
        assert_eq!(c[0].text, "First line.\n\nAfter.\n");
        assert_eq!(c[1].text, "Own.\n");
        let all = clauses().unwrap();
        let winnable = all.iter().find(|c| c.id == "rule.winnable").unwrap();
        assert!(winnable.text.contains("can"), "{}", winnable.text);
        assert!(!winnable.text.contains("```"));
    }
}
