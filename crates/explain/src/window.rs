//! The part of a large frame that a drawing shows, chosen one way for the
//! text board ([`crate::draw`]) and the picture ([`crate::render`]): the
//! whole frame when it fits, otherwise the smallest window around the cells
//! that matter, taken in order of importance while they fit together, with a
//! margin, on the ground when they are near it.

use connectz::{Game, Nat};

/// Where a cell of the frame is: (column, row), both 1-based, bottom row 1.
pub type Coordinates = (Nat, u64);

/// Columns and rows around the cells that matter, on each side.
const MARGIN: u64 = 3;

/// A window narrower or shorter than this (unless the frame is) is widened
/// or raised to it: a few cells alone say little about where they are.
const LEAST: (u64, u64) = (12, 8);

/// A rectangle of the frame: columns `first_column ..` and rows
/// `first_row ..` (1-based, bottom row 1).
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
    /// True when the window is the whole frame.
    pub whole: bool,
}

impl Window {
    /// The window of an `x` by `y` frame at most `most` (columns, rows) in
    /// size around `focus`, the cells that matter, most important first:
    /// the whole frame when it fits; otherwise a window around as many of
    /// the first cells as fit together.
    pub fn framing(x: &Nat, y: &Nat, focus: &[Coordinates], most: (u64, u64)) -> Window {
        let (most_columns, most_rows) = (most.0.max(1), most.1.max(1));
        let fits = |n: &Nat, most: u64| n.to_u64().filter(|&v| v <= most);
        if let (Some(w), Some(h)) = (fits(x, most_columns), fits(y, most_rows)) {
            return Window {
                first_column: Nat::from(1),
                columns: w,
                first_row: 1,
                rows: h,
                whole: true,
            };
        }
        let y_top = y.to_u64().unwrap_or(u64::MAX);
        // The bounding box of the cells that fit together.
        let mut bbox: Option<(Nat, Nat, u64, u64)> = None;
        for (c, r) in focus {
            let next = match &bbox {
                None => (c.clone(), c.clone(), *r, *r),
                Some((c0, c1, r0, r1)) => (
                    c0.clone().min(c.clone()),
                    c1.clone().max(c.clone()),
                    (*r0).min(*r),
                    (*r1).max(*r),
                ),
            };
            let span_c = next.1.checked_sub(&next.0).and_then(|d| d.to_u64());
            // Saturating: the cells may lie a machine word apart.
            let room = 2 * MARGIN + 1;
            let fits = span_c.is_some_and(|d| d.saturating_add(room) <= most_columns)
                && (next.3 - next.2).saturating_add(room) <= most_rows;
            if fits || bbox.is_none() {
                bbox = Some(next);
            }
        }
        let (c0, c1, r0, r1) = bbox.unwrap_or((Nat::from(1), Nat::from(1), 1, 1));
        // Columns.
        let frame_columns = x.to_u64().unwrap_or(u64::MAX);
        let span = c1.checked_sub(&c0).and_then(|d| d.to_u64()).unwrap_or(0);
        let columns = (span.saturating_add(2 * MARGIN + 1))
            .clamp(LEAST.0.min(most_columns), most_columns)
            .min(frame_columns);
        let spare = columns.saturating_sub(span.saturating_add(1));
        let mut first_column = c0
            .checked_sub_u64(spare / 2)
            .filter(|c| !c.is_zero())
            .unwrap_or(Nat::from(1));
        // Not past the frame's right edge.
        if let Some(last_allowed) = x.checked_sub_u64(columns - 1)
            && first_column > last_allowed
        {
            first_column = last_allowed.max(Nat::from(1));
        }
        // Rows: on the ground when the cells are near it.
        let rows = (r1 - r0 + 2 * MARGIN + 1)
            .clamp(LEAST.1.min(most_rows), most_rows)
            .min(y_top);
        let first_row = if r1 < rows {
            1
        } else {
            let spare = rows.saturating_sub(r1 - r0 + 1);
            r0.saturating_sub(spare / 2)
                .max(1)
                .min(y_top.saturating_sub(rows - 1).max(1))
        };
        Window {
            first_column,
            columns,
            first_row,
            rows,
            whole: false,
        }
    }

    /// The window of `game`'s frame at most `most` in size around its
    /// winning run, its last counter and then all its counters.
    pub fn around(game: &Game, most: (u64, u64)) -> Window {
        let (x, y, _) = game.frame();
        Window::framing(x, y, &focus(game), most)
    }

    /// The column `k` places right of the first one shown.
    pub fn column(&self, k: u64) -> Nat {
        self.first_column.add_u64(k)
    }

    /// The last column shown.
    pub fn last_column(&self) -> Nat {
        self.column(self.columns - 1)
    }

    /// The last row shown.
    pub fn last_row(&self) -> u64 {
        self.first_row + self.rows - 1
    }

    /// The offset of `column` in the window, if shown.
    pub fn offset(&self, column: &Nat) -> Option<u64> {
        column
            .checked_sub(&self.first_column)
            .and_then(|d| d.to_u64())
            .filter(|&k| k < self.columns)
    }

    /// How many counters of `game` the window shows.
    pub fn counters(&self, game: &Game) -> u64 {
        let board = game.board();
        (0..self.columns)
            .map(|k| {
                let column = self.column(k);
                (self.first_row..=self.last_row())
                    .filter(|&row| board.owner(&column, row).is_some())
                    .count() as u64
            })
            .sum()
    }
}

/// The cells of `game` that matter to any drawing of it, most important
/// first: the winning run's two ends, the last counter, then the corners of
/// every counter (framed too when they lie close enough).
pub fn focus(game: &Game) -> Vec<Coordinates> {
    let mut cells = Vec::new();
    if let Some(run) = game.winning_run() {
        cells.push((run.column.clone(), run.row));
        if let Some(end) = run.cells().last() {
            cells.push(end);
        }
    }
    if let Some((c, r)) = game.last() {
        cells.push((c.clone(), r));
    }
    if let Some((first, last, top)) = game.board().occupied() {
        cells.push((first, 1));
        cells.push((last, top));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: u64) -> Nat {
        Nat::from(v)
    }

    #[test]
    fn a_frame_that_fits_is_shown_whole() {
        let w = Window::framing(&n(40), &n(20), &[(n(3), 2)], (40, 20));
        assert!(w.whole);
        assert_eq!((w.columns, w.rows), (40, 20));
        let w = Window::framing(&n(41), &n(20), &[(n(3), 2)], (40, 20));
        assert!(!w.whole);
    }

    #[test]
    fn a_window_frames_its_cells_inside_the_frame() {
        // Just below, at and above the frame's right edge and a machine word.
        for x in [n(1_000), Nat::from(u64::MAX), n(u64::MAX).add_u64(5)] {
            let right = x.checked_sub_u64(1).unwrap();
            let w = Window::framing(&x, &n(1_000), &[(right.clone(), 1)], (40, 20));
            assert!(w.offset(&right).is_some(), "{x}: {w:?}");
            assert!(w.last_column() <= x, "{x}: past the edge");
            assert_eq!((w.columns, w.rows, w.first_row), (12, 8, 1));
        }
    }

    #[test]
    fn cells_that_do_not_fit_together_give_way_to_the_first() {
        let far = n(1).add_u64(1 << 40);
        let w = Window::framing(
            &n(u64::MAX),
            &n(50),
            &[(n(10), 3), (far.clone(), 40)],
            (40, 20),
        );
        assert!(w.offset(&n(10)).is_some());
        assert!(w.offset(&far).is_none());
        // High in the air: the window leaves the ground.
        let w = Window::framing(&n(1_000), &n(1_000), &[(n(10), 500)], (40, 20));
        assert!(w.first_row > 1 && w.first_row <= 500 && w.last_row() >= 500);
    }
}
