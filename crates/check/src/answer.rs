//! How a candidate's answer is read from what it prints. The brief's form
//! is the whole of standard output: one code. A reviewer grading the logic
//! of submissions that print words, or extra lines, says in the manifest
//! how to read them, instead of wrapping each in a shell adapter (a fresh
//! shell and interpreter per case, where a Python candidate's cases
//! otherwise run through a fork server).

use serde::{Deserialize, Serialize};

/// How to read a candidate's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerReading {
    /// The whole of standard output, as the brief has it.
    #[default]
    Whole,
    /// Its last line that is not blank.
    LastLine,
    /// Its last line that is not blank, looked up in a table of messages
    /// (each trimmed) and their codes.
    Messages(Vec<(String, u8)>),
}

impl AnswerReading {
    /// The answer in `stdout`, as text to read a code from: `stdout`
    /// itself, its last line that is not blank, or the code its message
    /// stands for (`None`: a message not in the table).
    pub fn read<'a>(&self, stdout: &'a str) -> Option<std::borrow::Cow<'a, str>> {
        let last = || {
            stdout
                .lines()
                .rev()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
        };
        match self {
            AnswerReading::Whole => Some(stdout.into()),
            AnswerReading::LastLine => Some(last().into()),
            AnswerReading::Messages(table) => {
                let line = last();
                table
                    .iter()
                    .find(|(message, _)| message.trim() == line)
                    .map(|(_, code)| code.to_string().into())
            }
        }
    }

    /// True for the brief's form.
    pub fn is_whole(&self) -> bool {
        *self == AnswerReading::Whole
    }

    /// How it is shown in the reports: `None` for the brief's form.
    pub fn shown(&self) -> Option<String> {
        match self {
            AnswerReading::Whole => None,
            AnswerReading::LastLine => Some("its last line".into()),
            AnswerReading::Messages(table) => Some(format!(
                "its last line, read through a table of {} messages",
                table.len()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_the_manifest_says() {
        let out = "Reading the file\nPlayer 1 wins\n\n";
        assert_eq!(AnswerReading::Whole.read(out).as_deref(), Some(out));
        assert_eq!(
            AnswerReading::LastLine.read(out).as_deref(),
            Some("Player 1 wins")
        );
        assert_eq!(AnswerReading::LastLine.read("").as_deref(), Some(""));
        let table =
            AnswerReading::Messages(vec![("Player 1 wins".into(), 1), (" Draw ".into(), 0)]);
        assert_eq!(table.read(out).as_deref(), Some("1"));
        assert_eq!(table.read("Draw\n").as_deref(), Some("0"));
        assert_eq!(table.read("Player 3 wins\n"), None);
        assert_eq!(table.read("7\n"), None);
    }
}
