//! The board as text, and the window of a large frame that a picture shows.

use std::fmt::Write as _;

use connectz::board::{Direction, Player, WinningRun};
use connectz::{Game, Nat};

/// A rectangle of the frame to draw: columns `first_column ..` (1-based)
/// and rows `first_row ..` (1-based, bottom is 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// Leftmost column shown.
    pub first_column: Nat,
    /// Columns shown.
    pub columns: u64,
    /// Lowest row shown.
    pub first_row: u64,
    /// Rows shown.
    pub rows: u64,
}

impl Window {
    /// The whole frame if it fits in `max_columns` by `max_rows`, else that
    /// much of it around the winning run and the last move.
    pub fn around(game: &Game, max_columns: u64, max_rows: u64) -> Window {
        let (x, y, _) = game.frame();
        let columns = x.to_u64().map_or(max_columns, |x| x.min(max_columns));
        let rows = y.to_u64().map_or(max_rows, |y| y.min(max_rows));
        // Points of interest: the run's two ends and the last counter.
        let mut points: Vec<(Nat, u64)> = Vec::new();
        if let Some(run) = game.winning_run() {
            points.push((run.column.clone(), run.row));
            if let Some(end) = run.cells().last() {
                points.push(end);
            }
        }
        if let Some((c, r)) = game.last() {
            points.push((c.clone(), r));
        }
        let lowest_column = points
            .iter()
            .map(|p| &p.0)
            .min()
            .cloned()
            .unwrap_or(Nat::from(1));
        let lowest_row = points.iter().map(|p| p.1).min().unwrap_or(1);
        // Start a little left of and below the interesting cells, inside the frame.
        let first_column = lowest_column
            .checked_sub_u64(columns / 4)
            .filter(|c| !c.is_zero())
            .unwrap_or(Nat::from(1));
        let last_allowed = x.checked_sub_u64(columns - 1).unwrap_or(Nat::from(1));
        let first_column = first_column.min(last_allowed).max(Nat::from(1));
        let top = y.to_u64().unwrap_or(u64::MAX);
        let first_row = lowest_row
            .saturating_sub(rows / 4)
            .max(1)
            .min(top.saturating_sub(rows - 1).max(1));
        Window {
            first_column,
            columns,
            first_row,
            rows,
        }
    }

    /// True when the window shows the whole frame.
    pub fn is_whole(&self, game: &Game) -> bool {
        let (x, y, _) = game.frame();
        self.first_column == 1 && self.first_row == 1 && *x == self.columns && *y == self.rows
    }
}

/// True when (column, row) is one of the winning run's cells.
pub fn on_run(run: &WinningRun, column: &Nat, row: u64) -> bool {
    let Some(k) = column.checked_sub(&run.column).and_then(|k| k.to_u64()) else {
        return false;
    };
    match run.direction {
        Direction::Vertical => k == 0 && row >= run.row && row - run.row < run.length,
        Direction::Horizontal => k < run.length && row == run.row,
        Direction::Diagonal => k < run.length && run.row.checked_add(k) == Some(row),
        Direction::AntiDiagonal => k < run.length && run.row.checked_sub(k) == Some(row),
    }
}

/// How to draw a board in a terminal.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// ANSI colours.
    pub color: bool,
    /// Widest window shown.
    pub max_columns: u64,
    /// Tallest window shown.
    pub max_rows: u64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            max_columns: 40,
            max_rows: 20,
        }
    }
}

/// The board as text: `x` player 1, `o` player 2, `.` empty; the winning
/// run in capitals (and bold with colour); the last counter marked by `^`
/// under its column.
pub fn draw(game: &Game, style: Style) -> String {
    let window = Window::around(game, style.max_columns, style.max_rows);
    let mut out = String::new();
    let last_column = window.first_column.add_u64(window.columns - 1);
    if !window.is_whole(game) {
        let _ = writeln!(
            out,
            "columns {}..{}, rows {}..{} of the frame",
            window.first_column,
            last_column,
            window.first_row,
            window.first_row + window.rows - 1
        );
    }
    let board = game.board();
    let run = game.winning_run();
    for row in (window.first_row..window.first_row + window.rows).rev() {
        let _ = write!(out, "{row:>4} ");
        for k in 0..window.columns {
            let column = window.first_column.add_u64(k);
            let winning = run.is_some_and(|r| on_run(r, &column, row));
            let glyph = match (board.owner(&column, row), winning) {
                (Some(Player::One), false) => "x",
                (Some(Player::Two), false) => "o",
                (Some(Player::One), true) => "X",
                (Some(Player::Two), true) => "O",
                (None, _) => ".",
            };
            if style.color && glyph != "." {
                let colour = if glyph.eq_ignore_ascii_case("x") {
                    "31"
                } else {
                    "33"
                };
                let bold = if winning { ";1;7" } else { "" };
                let _ = write!(out, "\x1b[{colour}{bold}m{glyph}\x1b[0m");
            } else {
                out.push_str(glyph);
            }
            out.push(' ');
        }
        out.push('\n');
    }
    // Column numbers: all of them when they are single digits, else the
    // first and every fifth.
    let _ = write!(out, "     ");
    let single_digits = last_column <= 9;
    if single_digits {
        for k in 0..window.columns {
            let _ = write!(out, "{} ", window.first_column.add_u64(k));
        }
    }
    let mut k = if single_digits { window.columns } else { 0 };
    while k < window.columns {
        let column = window.first_column.add_u64(k);
        let label = column.to_string();
        let wide = (label.len() as u64).div_ceil(2);
        if k == 0 || (column.to_u64().is_some_and(|c| c % 5 == 0) && k + wide <= window.columns) {
            // Padded by hand: a format width is limited to 65,535, and a
            // column may have more digits than that.
            out.push_str(&label);
            out.extend(std::iter::repeat_n(' ', (wide * 2) as usize - label.len()));
            k += wide;
        } else {
            out.push_str("  ");
            k += 1;
        }
    }
    out.push('\n');
    if let Some((column, _)) = game.last()
        && let Some(offset) =
            (0..window.columns).find(|&k| window.first_column.add_u64(k) == *column)
    {
        let _ = writeln!(out, "     {}^ last move", "  ".repeat(offset as usize));
    }
    out
}
