//! What the judge establishes from a file, as findings: what each line and
//! each move's effect means, which findings are kept, whether a game is
//! played and until when, what later lines can still change, and at the end
//! the result of play and the verdict. The judge (`judge.rs`) reads the
//! bytes and reports here what it read; everything it means is said here.

use super::game::{Effect, Game, in_frame};
use super::grammar::{FormatFault, Header};
#[cfg(test)]
use super::verdict::Code;
use super::verdict::{Finding, Rank, decide};
use super::winnability::winnable;
use crate::nat::Nat;

/// The findings of a file so far: the first of each kind of fault, in file
/// order, and the game's first winning run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Findings {
    faults: Vec<Finding>,
    won: Option<Finding>,
}

/// r[decision.big-numbers]: a column with more significant digits than X
/// is past the frame whatever they are, so the judge need not read it
/// whole.
pub(crate) fn longer_than_frame(significant_digits: usize, x: &Nat) -> bool {
    significant_digits > x.digit_count()
}

/// r[code.io], r[decision.unreadable]: a file that cannot be opened or read
/// is code 9, in the operating system's words.
pub(crate) fn unreadable(error: String) -> Finding {
    Finding::Unreadable { error }
}

impl Findings {
    /// The strongest fault so far, as [`decide`] ranks them.
    pub(crate) fn strongest(&self) -> Option<&Finding> {
        decide(&self.faults)
    }

    /// r[decision.precedence]: of each kind of fault, the first in the file
    /// is the one kept: one of the same kind later in the file cannot
    /// outrank it, since among equals the first stands.
    fn record(&mut self, finding: Finding) {
        let kind = std::mem::discriminant(&finding);
        if !self
            .faults
            .iter()
            .any(|f| std::mem::discriminant(f) == kind)
        {
            self.faults.push(finding);
        }
    }

    /// r[format.file] and below: `line` does not conform to the format.
    pub(crate) fn format(&mut self, line: u64, fault: FormatFault) {
        self.record(Finding::Format { line, fault });
    }

    /// Line 1 conforms and its numbers could be held: whether a game is
    /// played on its frame. r[rule.winnable]: a frame no game can win is an
    /// illegal game (7), and no move is played on it (the moves are still
    /// read, for format faults).
    pub(crate) fn header(&mut self, header: &Header) -> bool {
        let plays = winnable(&header.x, &header.y, &header.z);
        if !plays {
            self.record(Finding::Unwinnable);
        }
        plays
    }

    /// Whether later moves are still played. r[code.precedence],
    /// r[decision.out-of-memory]: play stops at the first fault that
    /// nothing found in play can outrank (a full column, a column outside
    /// the frame, memory gone, or anything stronger), since the moves after
    /// it can only find a full column, a move after the win or a result:
    /// so memory is never asked for after it, and cannot outrank it.
    pub(crate) fn plays_on(&self) -> bool {
        self.strongest()
            .is_none_or(|finding| finding.rank() < Rank::ColumnFull)
    }

    /// Whether later moves' columns still count once play has stopped: a
    /// column outside the frame (6) outranks what stopped play unless an
    /// unwinnable frame (7) or a format fault (8) was found, which it cannot
    /// outrank.
    pub(crate) fn columns_count(&self) -> bool {
        self.strongest()
            .is_none_or(|finding| finding.rank() < Rank::Unwinnable)
    }

    /// Whether later lines can still change the verdict: only a format
    /// fault is final (nothing a file's lines hold outranks it; an
    /// unreadable file is found by the reading, not in a line).
    pub(crate) fn settled(&self) -> bool {
        self.strongest()
            .is_some_and(|finding| finding.rank() >= Rank::Format)
    }

    /// r[decision.out-of-memory]: the game, or a number of `line`, needed
    /// more memory than the judge could get. The board is given up; the
    /// rest of the file is still read for what outranks this.
    pub(crate) fn out_of_memory(&mut self, line: u64) {
        self.record(Finding::OutOfMemory { line });
    }

    /// r[rule.column-range], r[decision.big-numbers]: the move on `line` is
    /// for a column past X with more digits than X, `kept` by its leading
    /// ones.
    pub(crate) fn long_column(&mut self, line: u64, kept: Nat) {
        self.record(Finding::OffFrame { line, column: kept });
    }

    /// What the move on `line` into `column` did, `effect` (from
    /// [`crate::step`]), means. False when the game cannot go on: memory
    /// for it ran out, and the board is given up (r[decision.out-of-memory]).
    pub(crate) fn moved(&mut self, line: u64, column: &Nat, effect: Effect) -> bool {
        let goes_on = effect != Effect::OutOfMemory;
        match effect {
            // r[rule.column-range]: code 6.
            Effect::OffFrame => self.record(Finding::OffFrame {
                line,
                column: column.clone(),
            }),
            // r[rule.column-full]: code 5.
            Effect::ColumnFull => self.record(Finding::ColumnFull {
                line,
                column: column.clone(),
            }),
            // r[decision.out-of-memory]: code 9, unless outranked.
            Effect::OutOfMemory => self.out_of_memory(line),
            // r[rule.after-win]: code 4.
            Effect::Placed {
                after_win: true, ..
            } => self.record(Finding::AfterWin { line }),
            Effect::Placed { .. } => {}
            // r[rule.line]: the game's first winning run (`step` reports
            // only the first).
            Effect::Won { run, .. } => self.won = Some(Finding::Won { line, run }),
        }
        goes_on
    }

    /// A move on `line` into `column` when there is no board to play it on
    /// (play has stopped at a fault that nothing in play can outrank, or
    /// memory gave out): r[rule.column-range] still holds it to X.
    pub(crate) fn unplayed(&mut self, line: u64, column: &Nat, x: &Nat) {
        if !in_frame(column, x) {
            self.moved(line, column, Effect::OffFrame);
        }
    }

    /// The end of the file. `empty`: it held no bytes. `game`: the game as
    /// play left it (none without a winnable header, or once memory ran
    /// out). `last_move`, `lines`: the last line that held a move, and the
    /// file's last line. Gives the verdict, the first fault of each kind,
    /// and the result of play.
    pub(crate) fn finish(
        mut self,
        empty: bool,
        game: Option<&Game>,
        last_move: u64,
        lines: u64,
    ) -> (Finding, Vec<Finding>, Option<Finding>) {
        // r[format.file], r[decision.empty-file]: no bytes, no header.
        if empty {
            self.format(1, FormatFault::EmptyFile);
        }
        let result = match (self.won, game.map(Game::is_full)) {
            // r[rule.line], r[decision.win-on-last-cell]: the first winning
            // run decides play, even on the last cell.
            (Some(won), _) => Some(won),
            // r[rule.end]: else a full frame is a draw, at the last move...
            (None, Some(true)) => Some(Finding::Draw { line: last_move }),
            // ...and room left is unfinished, at the last line (a header
            // alone is unfinished, r[decision.header-only]).
            (None, Some(false)) => Some(Finding::Unfinished { line: lines.max(1) }),
            // No game: a fault was recorded (no bytes, a bad header, an
            // unwinnable frame, or memory gone), and it decides.
            (None, None) => None,
        };
        // The fallback keeps this total; without a game a fault always
        // stands (above).
        let verdict = decide(self.faults.iter().chain(result.iter()))
            .cloned()
            .unwrap_or(Finding::Format {
                line: 1,
                fault: FormatFault::EmptyFile,
            });
        (verdict, self.faults, result)
    }
}

#[cfg(test)]
mod tests;
