//! Games with a chosen code on a chosen frame (and, for a win, a chosen
//! direction): a bounded search of random games.

use connectz::{Code, Direction, Game, Header, Player, winnable};
use connectz_rng::Rng;

use crate::play::{Ending, Open, continue_game, random_game};

/// A frame for [`game_with_code`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Columns.
    pub x: u64,
    /// Rows.
    pub y: u64,
    /// Length of a winning run.
    pub z: u64,
}

/// Frames above this many cells are too large to generate games on.
pub const MAX_GEN_CELLS: u64 = 10_000_000;

/// Attempts before a generator gives up on a frame: 200 on small frames,
/// fewer on large ones, so that all of them together play at most about
/// 50 million moves.
fn attempts(cells: u64) -> u64 {
    (50_000_000 / cells.max(1)).clamp(1, 200)
}

/// A valid file that judges to `code` on `frame`, chosen by `seed`.
///
/// # Errors
/// Why no such file can be made: code 9 has no file, code 7 needs a frame
/// that cannot be won and the others one that can, and some codes are
/// impossible on some frames (no draw when z = 1, player 2 never wins when
/// z = 1, ...); those fail after a bounded search.
pub fn game_with_code(code: Code, frame: Frame, seed: u64) -> Result<Vec<u8>, String> {
    game_with_run(code, frame, None, seed)
}

/// Like [`game_with_code`], and for a code whose game is won (1, 2 and 4),
/// with the winning run in `direction` when one is given: the winning move
/// completes a run in that direction and in no other, so a judge that
/// misses that direction misses the win.
///
/// # Errors
/// As [`game_with_code`]; and when no such win is found on the frame in a
/// bounded search (no diagonal fits a frame lower than z, ...).
pub fn game_with_run(
    code: Code,
    frame: Frame,
    direction: Option<Direction>,
    seed: u64,
) -> Result<Vec<u8>, String> {
    let Frame { x, y, z } = frame;
    if x == 0 || y == 0 || z == 0 {
        return Err("the frame's numbers must be positive".into());
    }
    let cells = x.checked_mul(y).filter(|&c| c <= MAX_GEN_CELLS);
    let header = Header {
        x: x.into(),
        y: y.into(),
        z: z.into(),
    };
    let can_win = winnable(&header.x, &header.y, &header.z);
    match code {
        Code::FileError => {
            return Err(
                "code 9 is for a path that cannot be read: no file content gives it".into(),
            );
        }
        Code::IllegalGame if can_win => {
            return Err(format!(
                "{x} {y} {z} can be won: code 7 needs a frame on which no winning run can be completed"
            ));
        }
        Code::IllegalGame => {}
        // A malformed file is 8 on any frame (8 outranks 7).
        Code::InvalidFile if !can_win => {}
        _ if !can_win => {
            return Err(format!(
                "{x} {y} {z} can never be won, so every file on it is code 7 or 8"
            ));
        }
        _ if cells.is_none() => {
            return Err(format!(
                "frames above {MAX_GEN_CELLS} cells are too large to generate on"
            ));
        }
        Code::Draw | Code::WinTwo if z == 1 => {
            return Err(
                "with runs of 1, player 1's first counter wins: no draw and no win for player 2"
                    .into(),
            );
        }
        _ => {}
    }
    let mut rng = Rng::new(seed);
    // A random game on a large frame all but never fills it without a run:
    // with runs of 3 or more, a draw is built instead (on small frames,
    // after the random tries fail).
    let built_draw = code == Code::Draw && z >= 3 && direction.is_none();
    if built_draw && x.saturating_mul(y) > RANDOM_DRAW_CELLS {
        return Ok(file(frame, &draw_by_pattern(x, y, &mut rng)));
    }
    let tries = attempts(x.saturating_mul(y));
    for _ in 0..tries {
        if let Some(moves) = attempt(code, &header, &mut rng, direction) {
            let mut out = format!("{x} {y} {z}\n").into_bytes();
            for m in &moves {
                out.extend_from_slice(m);
                out.push(b'\n');
            }
            return Ok(out);
        }
    }
    if built_draw {
        return Ok(file(frame, &draw_by_pattern(x, y, &mut rng)));
    }
    Err(format!(
        "found no game with code {code} on {x} {y} {z} in {tries} attempts"
    ))
}

/// Frames of at most this many cells get random draws first.
const RANDOM_DRAW_CELLS: u64 = 1_000;

/// A game file: the frame's line, then the columns.
fn file(frame: Frame, columns: &[u64]) -> Vec<u8> {
    let mut out = format!("{} {} {}\n", frame.x, frame.y, frame.z).into_bytes();
    for c in columns {
        out.extend_from_slice(c.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

/// A full frame with no run of 3 (so a draw for runs of 3 or more), its
/// columns (1-based) in an order of play. Cell (c, r), 0-based from the
/// bottom left, is player 1's when r + f(c) is even, with f in blocks of
/// two, 0 0 1 1 0 0 ... (0 1 1 0 0 1 ... when x is 2 more than a multiple
/// of 4, so that as many columns start with each player): a column
/// alternates, a row has at most two alike side by side, and along a
/// diagonal f is alike and unalike in turn, so at most two alike there
/// too. A column of f = 0 and one of f = 1 are filled together a row at a
/// time, the one whose cell is the mover's first; a last column of f = 0,
/// when x is odd, alone. Every position on the way holds a part of the
/// full frame, so no run is completed before it is full.
fn draw_by_pattern(x: u64, y: u64, rng: &mut Rng) -> Vec<u64> {
    let f = |c: u64| {
        if x % 4 == 2 {
            c.div_ceil(2) % 2
        } else {
            c / 2 % 2
        }
    };
    let (mut zeros, ones): (Vec<u64>, Vec<u64>) = (0..x).partition(|&c| f(c) == 0);
    let lone =
        (zeros.len() > ones.len()).then(|| zeros.remove(rng.below(zeros.len() as u64) as usize));
    let mut pairs: Vec<(u64, u64)> = zeros.into_iter().zip(ones).collect();
    // Any order of pairs gives a draw: a random one.
    for i in (1..pairs.len()).rev() {
        pairs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut columns = Vec::with_capacity((x * y) as usize);
    for (zero, one) in pairs {
        for r in 0..y {
            // Player 1 moves: the column whose cell at row r is player 1's.
            let (first, second) = if r % 2 == 0 { (zero, one) } else { (one, zero) };
            columns.extend([first + 1, second + 1]);
        }
    }
    if let Some(c) = lone {
        columns.extend(std::iter::repeat_n(c + 1, y as usize));
    }
    columns
}

/// One try at a game with `code`: its move lines, or `None` to try again.
fn attempt(
    code: Code,
    header: &Header,
    rng: &mut Rng,
    direction: Option<Direction>,
) -> Option<Vec<Vec<u8>>> {
    let (x, y) = (header.x.to_u64()?, header.y.to_u64()?);
    let lines = |moves: Vec<u64>| {
        moves
            .into_iter()
            .map(|m| m.to_string().into_bytes())
            .collect()
    };
    let cells = x * y;
    match code {
        Code::Draw => Some(lines(random_game(header, rng, Ending::Fill)?)),
        Code::WinOne => Some(lines(random_game(
            header,
            rng,
            Ending::Win(Player::One, direction),
        )?)),
        Code::WinTwo => Some(lines(random_game(
            header,
            rng,
            Ending::Win(Player::Two, direction),
        )?)),
        Code::Incomplete => {
            let length = rng.below(cells.min(400));
            Some(lines(random_game(header, rng, Ending::Length(length))?))
        }
        Code::IllegalContinue => {
            let winner = if rng.below(2) == 0 {
                Player::One
            } else {
                Player::Two
            };
            let game = Game::new(header);
            let (game, mut moves) = continue_game(game, rng, Ending::Win(winner, direction))?;
            let extra = Open::new(&game, x).random(rng)?;
            moves.push(extra);
            Some(lines(moves))
        }
        Code::IllegalRow => {
            let target = 1 + rng.below(x);
            let game = Game::new(header);
            // Filling the column without a run is not always possible
            // (runs of 1, a column of z): then the column is filled whatever
            // it completes, since a full column (5) outranks a move after a
            // win (4) and the result of play (r[decision.precedence]).
            let mut moves = continue_game(game, rng, Ending::Column(target))
                .map(|(_, moves)| moves)
                .unwrap_or_else(|| vec![target; y as usize]);
            moves.push(target);
            Some(lines(moves))
        }
        Code::IllegalColumn => {
            let length = rng.below(cells.min(400));
            let mut moves = random_game(header, rng, Ending::Length(length))?;
            let at = rng.below(moves.len() as u64 + 1) as usize;
            moves.insert(at, x.saturating_add(1 + rng.below(x)));
            Some(lines(moves))
        }
        Code::IllegalGame => {
            let length = rng.below(x.saturating_mul(y).min(40) + 1);
            Some(lines((0..length).map(|_| 1 + rng.below(x)).collect()))
        }
        Code::InvalidFile => {
            let base = if winnable(&header.x, &header.y, &header.z) {
                [Code::Draw, Code::WinOne, Code::Incomplete, Code::IllegalRow]
                    [rng.below(4) as usize]
            } else {
                Code::IllegalGame
            };
            let mut moves: Vec<Vec<u8>> = attempt(base, header, rng, None)?;
            let junk: &[&[u8]] = &[b"banana", b"x", b"1a", b"1 2", b"one", b"#", b"1,2"];
            let bad = junk[rng.below(junk.len() as u64) as usize].to_vec();
            let at = rng.below(moves.len() as u64 + 1) as usize;
            moves.insert(at, bad);
            Some(moves)
        }
        Code::FileError => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::DIRECTIONS;
    use connectz::judge_bytes;

    #[test]
    fn every_generated_file_has_the_asked_code() {
        let frames = [
            Frame { x: 7, y: 6, z: 4 },
            Frame { x: 3, y: 3, z: 3 },
            Frame { x: 9, y: 2, z: 3 },
            Frame { x: 5, y: 1, z: 3 },
            Frame { x: 12, y: 10, z: 5 },
        ];
        let mut made = 0;
        for code in Code::ALL
            .into_iter()
            .filter(|&c| c != Code::FileError && c != Code::IllegalGame)
        {
            for frame in frames {
                for seed in 0..40 {
                    if let Ok(bytes) = game_with_code(code, frame, seed) {
                        assert_eq!(judge_bytes(&bytes).code(), code, "{frame:?} seed {seed}");
                        made += 1;
                    }
                }
            }
            // The classic frame supports every code but 7 and 9.
            game_with_code(code, Frame { x: 7, y: 6, z: 4 }, 1).unwrap();
        }
        for seed in 0..40 {
            let bytes =
                game_with_code(Code::IllegalGame, Frame { x: 7, y: 6, z: 8 }, seed).unwrap();
            assert_eq!(judge_bytes(&bytes).code(), Code::IllegalGame);
        }
        assert!(made > 1000, "only {made} files made");
        // A full column on frames where every first counter wins (the spec's
        // `1 1 1 / 1 / 1` is 5), and a malformed file on frames that cannot
        // be won (8 outranks 7): always possible.
        for (x, y, z) in [
            (1, 1, 1),
            (1, 2, 1),
            (2, 1, 1),
            (5, 5, 1),
            (2, 4, 4),
            (7, 6, 4),
        ] {
            let bytes = game_with_code(Code::IllegalRow, Frame { x, y, z }, 3).unwrap();
            assert_eq!(judge_bytes(&bytes).code(), Code::IllegalRow, "{x} {y} {z}");
        }
        for (x, y, z) in [(7, 6, 8), (1, 1, 2), (4, 1, 3)] {
            for seed in 0..10 {
                let bytes = game_with_code(Code::InvalidFile, Frame { x, y, z }, seed).unwrap();
                assert_eq!(judge_bytes(&bytes).code(), Code::InvalidFile, "{x} {y} {z}");
            }
        }
        assert!(game_with_code(Code::IllegalGame, Frame { x: 7, y: 6, z: 4 }, 0).is_err());
        assert!(game_with_code(Code::FileError, Frame { x: 7, y: 6, z: 4 }, 0).is_err());
        assert!(game_with_code(Code::WinTwo, Frame { x: 7, y: 6, z: 1 }, 0).is_err());
    }

    /// A draw on every winnable frame with runs of 3 or more, small (random
    /// tries, then the pattern) and large (the pattern at once), every
    /// width modulo 4, as the judge sees it; and the pattern itself on its
    /// own: a full frame, no run of 3, moves alternating by construction.
    #[test]
    fn a_draw_is_made_on_every_frame_with_runs_of_3_or_more() {
        let mut made = 0;
        for x in 1..=14 {
            for y in 1..=8 {
                for z in 3..=5 {
                    let frame = Frame { x, y, z };
                    let header = Header {
                        x: x.into(),
                        y: y.into(),
                        z: z.into(),
                    };
                    if !winnable(&header.x, &header.y, &header.z) {
                        continue;
                    }
                    let bytes = game_with_code(Code::Draw, frame, x * y + z).unwrap();
                    assert_eq!(judge_bytes(&bytes).code(), Code::Draw, "{x} {y} {z}");
                    made += 1;
                }
            }
        }
        assert!(made > 200, "{made}");
        let mut rng = Rng::new(5);
        for (x, y) in [(4, 3), (5, 2), (6, 6), (7, 6), (1, 5), (10, 1)] {
            let header = Header {
                x: x.into(),
                y: y.into(),
                z: 3u64.into(),
            };
            let columns = draw_by_pattern(x, y, &mut rng);
            assert_eq!(columns.len() as u64, x * y);
            let bytes = file(Frame { x, y, z: 3 }, &columns);
            // On frames a run of 3 can be won on, a draw; on the others
            // (one row of 4, one column), the judge's 7, but full.
            let want = if winnable(&header.x, &header.y, &header.z) {
                Code::Draw
            } else {
                Code::IllegalGame
            };
            assert_eq!(judge_bytes(&bytes).code(), want, "{x} {y}");
        }
        // Large frames: at once (the docs' 2000 x 2000 is `cz gen`'s).
        for (x, y, z) in [(300, 300, 3), (301, 20, 4), (1000, 3, 3), (2, 500, 3)] {
            let bytes = game_with_code(Code::Draw, Frame { x, y, z }, 1).unwrap();
            assert_eq!(judge_bytes(&bytes).code(), Code::Draw, "{x} {y} {z}");
        }
        // Runs of 1 or 2 cannot be drawn this way: a bounded search, then why.
        assert!(game_with_code(Code::Draw, Frame { x: 40, y: 40, z: 2 }, 1).is_err());
    }

    /// A directed win is won in its direction: the judge's winning run
    /// runs that way, and so does every run through the winning counter.
    #[test]
    fn directed_wins_run_their_way() {
        let mut made = [0; 4];
        for (x, y, z) in [(7, 6, 4), (5, 5, 3), (9, 8, 5), (4, 4, 4), (8, 3, 3)] {
            let frame = Frame { x, y, z };
            for (i, d) in DIRECTIONS.into_iter().enumerate() {
                for code in [Code::WinOne, Code::WinTwo, Code::IllegalContinue] {
                    for seed in 0..8 {
                        let Ok(bytes) = game_with_run(code, frame, Some(d), seed) else {
                            continue;
                        };
                        let report = judge_bytes(&bytes);
                        assert_eq!(report.code(), code, "{frame:?} {d:?} seed {seed}");
                        let game = report.game.expect("played");
                        let run = game.winning_run().expect("won");
                        assert_eq!(run.direction, d, "{frame:?} seed {seed}");
                        made[i] += 1;
                    }
                }
            }
        }
        // Every direction fits each of these frames, and the search finds
        // every game asked for.
        assert_eq!(made, [120; 4]);
        // A diagonal needs z rows: none on a frame lower than z.
        assert!(
            game_with_run(
                Code::WinOne,
                Frame { x: 9, y: 2, z: 3 },
                Some(Direction::Diagonal),
                0
            )
            .is_err()
        );
    }
}
