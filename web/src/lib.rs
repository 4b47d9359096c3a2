//! The judge in the browser. The page (`web/page/connectz.html`, built into
//! `web/dist/connectz.html` by `web/build.sh`) loads this crate compiled to
//! WebAssembly and calls the functions of [`exports`] by hand-written
//! JavaScript: no generated glue, no imports.
//!
//! Everything the page shows is computed here by the same code as the CLI:
//! the streaming [`Judge`] (fed a file chunk by chunk as the browser reads
//! it), the account of `cz explain --json` with the clause of the spec that
//! decides, the picture of `cz render` after any move, `cz board`, and a
//! game against the engine of `cz play` with every column's exact score
//! ([`play`]). The functions below are plain Rust and tested natively;
//! [`exports`] only moves bytes between them and the page.
#![deny(unsafe_code)]
#![deny(missing_docs)]

use connectz::{Judge, Report};
use connectz_explain::json::to_json;
use connectz_explain::{account, render};
use connectz_games::snapshot::{self, Answer};
use connectz_spec as spec;
use serde::Serialize;

pub mod exports;
pub mod play;

/// Files up to this size are kept in memory so the page can replay them
/// move by move; larger ones are judged as a stream and shown at the end.
pub const REPLAY_BYTES: usize = 16 << 20;

/// A judgement in progress: the file's bytes are fed as the browser reads
/// them, in bounded memory (the judge's own bounds: r[resource.line],
/// r[resource.board]).
pub struct Session {
    judge: Judge,
    name: String,
}

impl Session {
    /// A judge for the file called `name`, keeping the whole board so the
    /// picture can show it.
    pub fn new(name: &str) -> Session {
        Session {
            judge: account::keeping_board(),
            name: name.to_string(),
        }
    }

    /// The next chunk of the file.
    pub fn feed(&mut self, chunk: &[u8]) {
        self.judge.feed(chunk);
    }

    /// True once the rest of the file cannot change the code: the page
    /// stops reading (r[resource.settled]).
    pub fn is_settled(&self) -> bool {
        self.judge.is_settled()
    }

    /// The verdict as [`explain`] describes it.
    pub fn finish(self) -> String {
        explain(&self.judge.finish(), &self.name)
    }
}

/// The account of `cz explain --json`, with the clause that decides (its
/// id, file and text from the embedded spec), the moves placed, and the
/// picture of the final board.
pub fn explain(report: &Report, name: &str) -> String {
    let clause = spec::clause(report.verdict.rule()).map(|c| SpecClause {
        id: c.id.clone(),
        file: c.file.clone(),
        text: c.text.trim().to_string(),
    });
    to_json(&Explained {
        account: account::account(report, name),
        clause,
        moves: report.game.as_ref().map_or(0, |g| g.placed()),
        svg: render::svg(report, name),
    })
}

/// The page's account: `cz explain --json`'s, and more.
#[derive(Serialize)]
struct Explained {
    #[serde(flatten)]
    account: account::Account,
    #[serde(skip_serializing_if = "Option::is_none")]
    clause: Option<SpecClause>,
    moves: u64,
    svg: String,
}

/// A clause of the spec, as the page shows it.
#[derive(Serialize)]
struct SpecClause {
    id: String,
    file: String,
    text: String,
}

/// The board of `file` after its first `moves` counters: the file judged up
/// to the line that placed the last of them, as [`explain`] describes that
/// prefix (its code is that of the game so far; its `moves`, the counters
/// shown, fewer than asked where the game has fewer).
pub fn replay(file: &[u8], moves: u64, name: &str) -> String {
    let mut judge = account::keeping_board();
    for line in file.split_inclusive(|&b| b == b'\n') {
        if judge.game().is_some_and(|g| g.placed() >= moves) || judge.is_settled() {
            break;
        }
        judge.feed(line);
    }
    explain(&judge.finish(), name)
}

/// `cz board`: who moves, who won, or why no game reaches the grid.
/// `first` and `empty` are the symbols of the first player and of an empty
/// cell, when given; `z` the run length.
pub fn board(
    grid: &[u8],
    z: usize,
    first: Option<char>,
    empty: Option<char>,
    gravity: bool,
) -> String {
    match snapshot::judge_grid(grid, z, first, empty, gravity) {
        Err(e) => to_json(&UnreadableGrid {
            error: e.to_string(),
        }),
        Ok((position, judgement)) => {
            let [a, b] = position.symbols;
            let to_move = match judgement.answer {
                Answer::FirstMoves => Some(a.to_string()),
                Answer::SecondMoves => Some(b.to_string()),
                _ => None,
            };
            to_json(&BoardAnswer {
                answer: judgement.answer.to_string(),
                valid: !matches!(judgement.answer, Answer::Invalid),
                first: a.to_string(),
                second: b.to_string(),
                to_move,
                why: judgement.why,
            })
        }
    }
}

/// `cz board`'s answer, for the page.
#[derive(Serialize)]
struct BoardAnswer {
    answer: String,
    valid: bool,
    first: String,
    second: String,
    to_move: Option<String>,
    why: Option<String>,
}

/// A grid that could not be read.
#[derive(Serialize)]
struct UnreadableGrid {
    error: String,
}

/// A sample game.
#[derive(Serialize)]
struct Sample {
    name: &'static str,
    code: u8,
    text: String,
}

/// The brief's nine sample games, in code order, as
/// `[{"name", "code", "text"}]`.
pub fn samples() -> String {
    let items: Vec<Sample> = spec::case_files()
        .into_iter()
        .filter(|c| c.path.ends_with("/brief-sample.txt"))
        .map(|c| Sample {
            name: c.path,
            code: c.expect.number(),
            text: String::from_utf8_lossy(c.bytes).into_owned(),
        })
        .collect();
    to_json(&items)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The raw text of `key`'s value in a flat JSON object (the play
    /// tab's tests read its answers with it too).
    pub(crate) fn field<'a>(json: &'a str, key: &str) -> &'a str {
        let start = json.find(&format!("\"{key}\":")).expect(key) + key.len() + 3;
        let rest = &json[start..];
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        &rest[..end]
    }

    /// Every shipped case, fed in chunks as the page feeds it, gets the
    /// code its folder names, with the clause text of its rule.
    #[test]
    fn the_session_judges_every_case_as_the_cli_does() {
        let cases = spec::case_files();
        assert!(cases.len() > 60);
        for case in cases {
            let mut session = Session::new(case.path);
            for chunk in case.bytes.chunks(7) {
                session.feed(chunk);
            }
            let json = session.finish();
            assert_eq!(
                field(&json, "code"),
                case.expect.to_string(),
                "{}",
                case.path
            );
            assert!(json.contains("\"clause\":{\"id\":"), "{}", case.path);
            assert!(json.contains("<svg"), "{}", case.path);
        }
    }

    /// Replaying shows the board after exactly the moves asked for, and the
    /// last step is the whole game's verdict.
    #[test]
    fn numbers_longer_than_a_format_width_are_explained() {
        // A frame and a column of 65,536 digits (r[resource.numbers]).
        let file = format!("1{} 6 4\n{}\n", "0".repeat(65_536), "5".repeat(65_536));
        let mut session = Session::new("huge");
        session.feed(file.as_bytes());
        let json = session.finish();
        assert!(json.contains("\"code\":3"));
        assert!(replay(file.as_bytes(), 1, "huge").contains("\"moves\":1"));
    }

    #[test]
    fn replay_stops_after_the_moves_asked_for() {
        let file = b"7 6 4\n1\n2\n1\n2\n1\n2\n1\n";
        for k in 0..=7 {
            let json = replay(file, k, "g");
            assert_eq!(field(&json, "moves"), k.to_string());
            let code = if k == 7 { "1" } else { "3" };
            assert_eq!(field(&json, "code"), code, "after {k} moves");
        }
    }

    #[test]
    fn board_snapshots_answer_as_cz_board() {
        let json = board(
            b"......./......./......./......./xo...../xo.....",
            4,
            Some('x'),
            None,
            true,
        );
        assert_eq!(field(&json, "answer"), "\"first player moves\"");
        let json = board(b"x.\nx.\nx.\nx.", 4, Some('x'), None, true);
        assert_eq!(field(&json, "valid"), "false");
        assert!(board(b"x?\n", 4, None, None, true).contains("\"error\""));
    }

    #[test]
    fn the_nine_samples_are_there() {
        let json = samples();
        for code in 0..=8 {
            assert!(json.contains(&format!("\"{code}-")), "{code}");
        }
        assert_eq!(json.matches("\"name\"").count(), 9);
    }
}
