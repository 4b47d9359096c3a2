//! The spec's clauses and examples, and the edge-case corpus, embedded at
//! build time (see spec/README.md for the example syntax). Tests run them;
//! `cz check` and `cz grade` run candidate implementations on them; the page
//! shows a clause's text and offers the corpus.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use connectz::Code;

mod blocks;

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
    pub(crate) fn parse(word: &str) -> Option<Class> {
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
        let Some(kind) = words.next().filter(|k| blocks::KINDS.contains(k)) else {
            continue;
        };
        let clause = clauses
            .last_mut()
            .ok_or(format!("{at}: example before any clause"))?;
        let example = blocks::example(kind, words.collect(), &body, clause.class, at)?;
        clause.examples.push(example);
    }
    Ok(clauses)
}

/// `\r`, `\n`, `\t`, `\xHH` and `\\`, as spec/README.md defines them.
pub(crate) fn unescape(line: &str) -> Result<Vec<u8>, String> {
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

#[cfg(test)]
mod tests;
