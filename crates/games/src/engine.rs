//! The game engine of `cz play`, on any frame. On frames whose bitboard fits
//! in 128 bits, the perfect level uses its opening plan and the solver: on
//! 7 x 6 (the plan's frame) for as long as the solver takes, never a
//! heuristic; on other frames within [`FALLBACK_NODES`], past which it says
//! that it falls back to the medium level's search. The medium level is a
//! depth-limited search; on larger frames the engine plays one-ply tactics:
//! win, block, never hand over a win, keep to the centre.

use std::time::{Duration, Instant};

use connectz::{Game, Header, Keep, Nat, step};

use crate::solver::{Position, Shape, Solver};

/// How strong the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Wins when it can, blocks when it must, otherwise random.
    Easy,
    /// Iterative deepening with a heuristic, about a quarter second a move.
    Medium,
    /// The opening plan, else the exact solver: every move keeps the
    /// position's value and has the best exact score (the soonest win, else
    /// a draw, else the longest resistance). On 7 x 6 for as long as the
    /// solver takes; on other frames, a position the solver cannot answer
    /// within [`FALLBACK_NODES`] gets the medium level's move, and its
    /// evaluation says that it is not proven.
    Perfect,
}

/// What the engine plays on.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The frame and the length of a winning run.
    pub shape: Shape,
    /// Engine strength.
    pub level: Level,
}

/// The engine's choice and what it thinks of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Column, 0-based.
    pub column: usize,
    /// The evaluation, in words.
    pub evaluation: String,
}

const WIN: i32 = 1000;

/// The widest and tallest frame `cz play` takes: an engine move costs time in
/// proportion to the width.
pub const MAX_SIDE: usize = 1_000_000;

/// Nodes the perfect engine spends on exact scores of every column before
/// it says it is thinking and goes on without a bound: about 0.15 s at the
/// solver's speed on 7 x 6. Public so that a caller of [`choose_with`]
/// knows when its `thinking` is called.
pub const EXACT_NODES: u64 = 2_000_000;

/// Nodes the perfect engine's exact search may spend, on a frame other than
/// 7 x 6, after [`EXACT_NODES`], before it gives up and plays the medium
/// level's move: about 1 to 2 s natively, a few seconds in the page. The
/// first replies on the empty 7 x 7 and 8 x 7 frames take minutes and more
/// to prove. Public, with [`EXACT_NODES`], as the bound a caller can tell a
/// user a reply off 7 x 6 is held to.
pub const FALLBACK_NODES: u64 = 10_000_000;

/// Time the medium level's search is given, and the fallback's.
const MEDIUM_TIME: Duration = Duration::from_millis(250);

/// What the engine is doing when it calls `thinking` (see
/// [`choose_with`]) on frame `shape`.
pub fn thinking_words(shape: Shape) -> &'static str {
    if shape == Shape::CLASSIC {
        "engine is thinking: no book entry and no proof within its budget; solving exactly, as long as it takes"
    } else {
        "engine is thinking: no proof within its first budget; solving exactly for a few seconds more, then the medium search plays"
    }
}

/// Picks a move for the side to move after `moves` (0-based columns).
/// `pick(n)` is a number below `n`, for the easy level's random choices.
pub fn choose(
    options: &Options,
    moves: &[usize],
    pick: &mut dyn FnMut(u64) -> u64,
    solver: &mut Solver,
) -> Choice {
    choose_with(options, moves, pick, solver, &mut || {})
}

/// [`choose`], calling `thinking` before the perfect engine solves a
/// position without a bound on its time (no plan entry, and no proof
/// within [`EXACT_NODES`]), so that a player can be told to wait.
pub fn choose_with(
    options: &Options,
    moves: &[usize],
    pick: &mut dyn FnMut(u64) -> u64,
    solver: &mut Solver,
    thinking: &mut dyn FnMut(),
) -> Choice {
    try_choose_with(options, moves, pick, solver, thinking)
        .expect("a search without a budget ends with a score unless cancelled")
}

/// [`choose_with`], or `None` when the solver was cancelled
/// ([`Solver::with_cancel`]) before the perfect engine had its move.
pub fn try_choose_with(
    options: &Options,
    moves: &[usize],
    pick: &mut dyn FnMut(u64) -> u64,
    solver: &mut Solver,
    thinking: &mut dyn FnMut(),
) -> Option<Choice> {
    let start = Instant::now();
    try_choose_timed(options, moves, pick, solver, thinking, &mut || {
        start.elapsed()
    })
}

/// [`try_choose_with`] on the caller's clock: `elapsed()` is the time since
/// the choice began, which the medium level reads to stop searching. For
/// platforms without the standard library's clock (WebAssembly in a
/// browser, where `Instant::now` panics).
pub fn try_choose_timed(
    options: &Options,
    moves: &[usize],
    pick: &mut dyn FnMut(u64) -> u64,
    solver: &mut Solver,
    thinking: &mut dyn FnMut(),
    elapsed: &mut dyn FnMut() -> Duration,
) -> Option<Choice> {
    let shape = options.shape;
    if !shape.fits() {
        return Some(tactics(options, moves));
    }
    let mut p = Position::new(shape);
    for &m in moves {
        p.play_column(m);
    }
    let cells = shape.cells();
    let playable: Vec<usize> = (0..shape.width).filter(|&c| p.can_play(c)).collect();
    if let Some(&c) = playable.iter().find(|&&c| p.is_winning_move(c)) {
        return Some(Choice {
            column: c,
            evaluation: "completes a run".into(),
        });
    }
    Some(match options.level {
        Level::Easy => {
            let options: Vec<usize> = p.safe_moves().into_iter().map(|(c, _)| c).collect();
            let pool = if options.is_empty() {
                &playable
            } else {
                &options
            };
            let column = pool[pick(pool.len() as u64) as usize];
            Choice {
                column,
                evaluation: "a safe move at random".into(),
            }
        }
        Level::Perfect => {
            // The plan (7 x 6: every position the engine can meet in the
            // first plies; read only there); else the solver.
            let planned = (p.shape() == Shape::CLASSIC)
                .then(|| crate::plan::classic().get(&p))
                .flatten();
            if let Some((column, score)) = planned {
                return Some(Choice {
                    column,
                    evaluation: format!("{} (opening plan)", exact_words(score, cells)),
                });
            }
            // The exact score and a column that keeps it, within a budget,
            // else (from what the first search stored: its bounds are
            // proved) for as long as they take on 7 x 6, and within
            // FALLBACK_NODES on other frames.
            solver.reset();
            let (score, column) = match solver.best_within(&p, false, EXACT_NODES) {
                Some(found) => found,
                None => {
                    thinking();
                    if shape == Shape::CLASSIC {
                        // Without a budget only a cancel stops the search.
                        solver.best_within(&p, false, u64::MAX)?
                    } else if let Some(found) = solver.best_within(&p, false, FALLBACK_NODES) {
                        found
                    } else {
                        if solver.is_cancelled() {
                            return None;
                        }
                        // The medium search's time starts now.
                        let begun = elapsed();
                        let heuristic =
                            deepening(&p, MEDIUM_TIME, &mut || elapsed().saturating_sub(begun));
                        return Some(Choice {
                            column: heuristic.column,
                            evaluation: format!(
                                "not proven: no exact answer within {} nodes, so the medium search chose it ({})",
                                thousands(EXACT_NODES + FALLBACK_NODES),
                                heuristic.evaluation
                            ),
                        });
                    }
                }
            };
            let column = column.unwrap_or(playable[0]);
            Choice {
                column,
                evaluation: exact_words(score, cells),
            }
        }
        Level::Medium => deepening(&p, MEDIUM_TIME, elapsed),
    })
}

/// `n` with commas between groups of three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

fn centre_first(columns: &[usize], shape: Shape) -> Vec<usize> {
    let mut out = columns.to_vec();
    out.sort_by_key(|&c| shape.centre_rank(c));
    out
}

/// A solver score in words, for the side that just chose.
fn exact_words(score: i32, cells: i32) -> String {
    match score {
        0 => "exact: draw with best play".into(),
        s if s > 0 => format!(
            "exact: wins with its {} counter at the latest (score {s})",
            ordinal((cells + 1) / 2 + 1 - s)
        ),
        s => format!("exact: loses against best play (score {s})"),
    }
}

fn ordinal(n: i32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Iterative deepening until `budget` is spent (by `elapsed`, the time
/// since the choice began); returns the deepest answer.
fn deepening(p: &Position, budget: Duration, elapsed: &mut dyn FnMut() -> Duration) -> Choice {
    let mut best = None;
    let mut depth = 1;
    let left = (p.shape().cells() - p.moves()) as u32;
    while depth <= left.max(1) {
        let (score, column) = alphabeta_root(p, depth);
        best = Some((score, column, depth));
        if score.abs() >= WIN || elapsed() * 6 > budget {
            break;
        }
        depth += 1;
    }
    let (score, column, depth) = best.unwrap_or((0, 0, 0));
    let evaluation = if score >= WIN {
        "wins by force (search)".to_string()
    } else if score <= -WIN {
        "loses against best play (search)".to_string()
    } else {
        format!("heuristic {score:+} at depth {depth}")
    };
    Choice { column, evaluation }
}

/// Safe columns, most threats first, centre first on ties.
fn ordered_moves(p: &Position) -> Vec<usize> {
    let shape = p.shape();
    let mut moves = p.safe_moves();
    moves.sort_by_key(|&(c, threats)| (std::cmp::Reverse(threats), shape.centre_rank(c)));
    moves.into_iter().map(|(c, _)| c).collect()
}

fn alphabeta_root(p: &Position, depth: u32) -> (i32, usize) {
    let moves = ordered_moves(p);
    if moves.is_empty() {
        // Every move loses: play the most central legal one.
        let any = centre_first(
            &(0..p.shape().width)
                .filter(|&c| p.can_play(c))
                .collect::<Vec<_>>(),
            p.shape(),
        );
        return (-WIN, any.first().copied().unwrap_or(0));
    }
    let (mut alpha, beta) = (-WIN * 2, WIN * 2);
    let mut best = moves[0];
    for c in moves {
        let mut child = *p;
        child.play_column(c);
        let score = -alphabeta(&child, depth - 1, -beta, -alpha);
        if score > alpha {
            alpha = score;
            best = c;
        }
    }
    (alpha, best)
}

fn alphabeta(p: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let cells = p.shape().cells();
    if p.can_win_next() {
        return WIN + p.shape().win_score(p.moves());
    }
    if p.moves() >= cells {
        return 0;
    }
    let moves = ordered_moves(p);
    if moves.is_empty() {
        return -(WIN + p.shape().win_score(p.moves() + 1));
    }
    if depth == 0 {
        // Threat cells count most; the centre a little.
        let (own, theirs) = p.threat_counts();
        return (own as i32 - theirs as i32) * 10;
    }
    for c in moves {
        let mut child = *p;
        child.play_column(c);
        let score = -alphabeta(&child, depth - 1, -beta, -alpha);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// One-ply tactics for frames too large for a bitboard.
fn tactics(options: &Options, moves: &[usize]) -> Choice {
    let game = replay(options.shape, moves);
    let width = options.shape.width;
    let open: Vec<usize> = (0..width)
        .filter(|&c| game.is_open(&Nat::from(c as u64 + 1)))
        .collect();
    if let Some(&c) = open
        .iter()
        .find(|&&c| game.would_complete(&Nat::from(c as u64 + 1)))
    {
        return Choice {
            column: c,
            evaluation: "completes a run".into(),
        };
    }
    let opponent = game.to_move().other();
    let threatens = |g: &Game, c: usize| g.would_complete_for(&Nat::from(c as u64 + 1), opponent);
    if let Some(&c) = open.iter().find(|&&c| threatens(&game, c)) {
        return Choice {
            column: c,
            evaluation: "blocks a run".into(),
        };
    }
    // A move is safe when the cell above it gives the opponent no run.
    let safe: Vec<usize> = open
        .iter()
        .copied()
        .filter(|&c| !game.would_complete_above(&Nat::from(c as u64 + 1), opponent))
        .collect();
    let pool = if safe.is_empty() { open } else { safe };
    let column = centre_first(&pool, options.shape)
        .first()
        .copied()
        .unwrap_or(0);
    Choice {
        column,
        evaluation: "one-ply tactics (frame too large to search)".into(),
    }
}

/// The game after `moves`, as the judge sees it, every counter kept (the
/// board is drawn after the game is won, too).
pub fn replay(shape: Shape, moves: &[usize]) -> Game {
    let header = Header {
        x: Nat::from(shape.width as u64),
        y: Nat::from(shape.height as u64),
        z: Nat::from(shape.z as u64),
    };
    let keep = Keep { board: true };
    let mut game = Game::keeping(&header, keep);
    for &m in moves {
        game = step(game, &Nat::from(m as u64 + 1)).0;
    }
    game
}

/// The moves as a ConnectZ file.
pub fn connectz_file(shape: Shape, moves: &[usize]) -> String {
    let mut text = format!("{} {} {}\n", shape.width, shape.height, shape.z);
    for m in moves {
        text.push_str(&format!("{}\n", m + 1));
    }
    text
}
