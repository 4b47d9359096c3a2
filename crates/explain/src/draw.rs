//! The board as text.

use std::fmt::Write as _;

use connectz::board::{Direction, Player, WinningRun};
use connectz::{Game, Nat};

use crate::window::Window;

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
    let window = Window::around(game, (style.max_columns, style.max_rows));
    let mut out = String::new();
    let last_column = window.first_column.add_u64(window.columns - 1);
    if !window.whole {
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
