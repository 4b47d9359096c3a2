//! Deterministic generators of game files: games with a chosen code on a
//! chosen frame (`cz gen --code`, the generated cases of `cz check`), and
//! the benchmark workloads (`cz gen --workload`, `cz grade --perf`, the
//! benches). A seed names a file for good.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::io::{self, Write};

use connectz::{Code, Direction, Game, Header, Keep, Nat, Player, step, winnable};

use connectz_rng::Rng;

/// The benchmark workloads: files shaped to stress one part of a judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// A 7x6 game won at move 7, then `moves` more moves.
    Tail,
    /// A `side` x `side` frame, z = 30, filled completely in random column order.
    Dense,
    /// `n 2 n`: player 1's bottom row grows to n and wins on the last move.
    Ladder,
    /// A 10^12 x 10^12 frame, z = 5, `moves` moves in random columns.
    Sparse,
}

/// Buffered writer of one number per line.
struct Lines<W: Write> {
    out: io::BufWriter<W>,
    buf: itoa_buf::Buf,
}

mod itoa_buf {
    /// Formats u64s without allocating.
    pub struct Buf([u8; 21]);
    impl Buf {
        pub fn new() -> Buf {
            Buf([0; 21])
        }
        pub fn line(&mut self, mut v: u64) -> &[u8] {
            let mut i = 20;
            self.0[20] = b'\n';
            loop {
                i -= 1;
                self.0[i] = b'0' + (v % 10) as u8;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            &self.0[i..]
        }
    }
}

impl<W: Write> Lines<W> {
    fn new(out: W, header: &str) -> io::Result<Lines<W>> {
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        writeln!(out, "{header}")?;
        Ok(Lines {
            out,
            buf: itoa_buf::Buf::new(),
        })
    }
    fn push(&mut self, column: u64) -> io::Result<()> {
        self.out.write_all(self.buf.line(column))
    }
    fn done(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The largest side of a `Dense` workload: its frame then holds 10^10
/// counters, and the generator keeps two numbers per column.
pub const MAX_DENSE_SIDE: u64 = 100_000;

/// Writes a workload. `size` scales it: moves after the win for `Tail`, the
/// side of the frame for `Dense` (at most [`MAX_DENSE_SIDE`]), the row length
/// for `Ladder`, moves for `Sparse`. Every shape but `Dense` is written as
/// it is generated, in constant memory, so any size works.
///
/// # Errors
/// Any error of `out`; a `Dense` side above [`MAX_DENSE_SIDE`] (invalid input).
pub fn workload(kind: Workload, size: u64, seed: u64, out: impl Write) -> io::Result<()> {
    let mut rng = Rng::new(seed);
    if kind == Workload::Dense && size > MAX_DENSE_SIDE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the dense workload's side is at most {MAX_DENSE_SIDE} (its frame then holds 10^10 counters)"
            ),
        ));
    }
    match kind {
        Workload::Tail => {
            let mut lines = Lines::new(out, "7 6 4")?;
            for column in [1, 2, 1, 2, 1, 2, 1] {
                lines.push(column)?;
            }
            for i in 0..size {
                lines.push(i % 7 + 1)?;
            }
            lines.done()
        }
        Workload::Dense => {
            let side = size.max(1);
            let mut lines = Lines::new(out, &format!("{side} {side} 30"))?;
            // Every column exactly `side` times, in random order.
            let mut left: Vec<u64> = vec![side; side as usize];
            let mut open: Vec<u64> = (1..=side).collect();
            while !open.is_empty() {
                let i = rng.below(open.len() as u64) as usize;
                let column = open[i];
                lines.push(column)?;
                let slot = &mut left[column as usize - 1];
                *slot -= 1;
                if *slot == 0 {
                    open.swap_remove(i);
                }
            }
            lines.done()
        }
        Workload::Ladder => {
            let n = size.max(1);
            let mut lines = Lines::new(out, &format!("{n} 2 {n}"))?;
            for column in 1..=n {
                lines.push(column)?;
                if column < n {
                    lines.push(column)?;
                }
            }
            lines.done()
        }
        Workload::Sparse => {
            let side: u64 = 1_000_000_000_000;
            let mut lines = Lines::new(out, &format!("{side} {side} 5"))?;
            for _ in 0..size {
                lines.push(rng.below(side) + 1)?;
            }
            lines.done()
        }
    }
}

/// A frame for [`game_with_code`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Columns.
    pub x: u64,
    /// Rows.
    pub y: u64,
    /// Line length.
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
                "{x} {y} {z} can be won: code 7 needs a frame on which no line can be completed"
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
                "with lines of 1, player 1's first counter wins: no draw and no win for player 2"
                    .into(),
            );
        }
        _ => {}
    }
    let mut rng = Rng::new(seed);
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
    Err(format!(
        "found no game with code {code} on {x} {y} {z} in {tries} attempts"
    ))
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
        Code::Draw => Some(lines(random_game(header, rng, Goal::Fill)?)),
        Code::WinOne => Some(lines(random_game(
            header,
            rng,
            Goal::Win(Player::One, direction),
        )?)),
        Code::WinTwo => Some(lines(random_game(
            header,
            rng,
            Goal::Win(Player::Two, direction),
        )?)),
        Code::Incomplete => {
            let length = rng.below(cells.min(400));
            Some(lines(random_game(header, rng, Goal::Length(length))?))
        }
        Code::IllegalContinue => {
            let winner = if rng.below(2) == 0 {
                Player::One
            } else {
                Player::Two
            };
            let game = Game::new(header, Keep::default());
            let (game, mut moves) = continue_game(game, rng, Goal::Win(winner, direction))?;
            let extra = Open::new(&game, x).random(rng)?;
            moves.push(extra);
            Some(lines(moves))
        }
        Code::IllegalRow => {
            let target = 1 + rng.below(x);
            let game = Game::new(header, Keep::default());
            // Filling the column without a line is not always possible
            // (lines of 1, a column of z): then the column is filled whatever
            // it completes, since a full column (5) outranks a move after a
            // win (4) and the result of play (r[decision.precedence]).
            let mut moves = continue_game(game, rng, Goal::Column(target))
                .map(|(_, moves)| moves)
                .unwrap_or_else(|| vec![target; y as usize]);
            moves.push(target);
            Some(lines(moves))
        }
        Code::IllegalColumn => {
            let length = rng.below(cells.min(400));
            let mut moves = random_game(header, rng, Goal::Length(length))?;
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

/// What a generated game plays towards; no move completes a run unless
/// the goal asks for it.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// Fill the frame.
    Fill,
    /// Fill this column (1-based), then stop.
    Column(u64),
    /// Complete a run for this player: in this direction only, if given.
    Win(Player, Option<Direction>),
    /// Stop after this many moves.
    Length(u64),
}

fn random_game(header: &Header, rng: &mut Rng, goal: Goal) -> Option<Vec<u64>> {
    let game = Game::new(header, Keep::default());
    continue_game(game, rng, goal).map(|(_, moves)| moves)
}

/// The columns with room, kept as a list with each column's place in it, so
/// that a random one is drawn and a full one dropped in O(1).
struct Open {
    columns: Vec<u64>,
    /// `at[c]`: where column c is in `columns` (`usize::MAX`: full).
    at: Vec<usize>,
}

impl Open {
    fn new(game: &Game, x: u64) -> Open {
        let mut at = vec![usize::MAX; x as usize + 1];
        let mut columns = Vec::new();
        for c in 1..=x {
            if game.is_open(&Nat::from(c)) {
                at[c as usize] = columns.len();
                columns.push(c);
            }
        }
        Open { columns, at }
    }

    fn random(&self, rng: &mut Rng) -> Option<u64> {
        (!self.columns.is_empty())
            .then(|| self.columns[rng.below(self.columns.len() as u64) as usize])
    }

    /// Drops `column` from the list once it is full.
    fn update(&mut self, game: &Game, column: u64) {
        let i = self.at[column as usize];
        if i != usize::MAX && !game.is_open(&Nat::from(column)) {
            let last = *self.columns.last().expect("column is listed");
            self.columns.swap_remove(i);
            self.at[last as usize] = i;
            self.at[column as usize] = usize::MAX;
        }
    }
}

/// Random probes before a full scan of the open columns: most moves find
/// what they look for at once, so a game costs O(1) per move, expected.
const PROBES: usize = 8;

/// An open column, other than `avoid`, that does not complete a line for
/// the player to move; `None` when there is none.
fn safe_column(game: &Game, open: &Open, rng: &mut Rng, avoid: Option<u64>) -> Option<u64> {
    let safe = |c: u64| Some(c) != avoid && !game.would_complete(&Nat::from(c));
    for _ in 0..PROBES {
        let c = open.random(rng)?;
        if safe(c) {
            return Some(c);
        }
    }
    let candidates: Vec<u64> = open.columns.iter().copied().filter(|&c| safe(c)).collect();
    candidates
        .get(rng.below(candidates.len().max(1) as u64) as usize)
        .copied()
}

/// Plays random moves towards `goal`; `None` when it cannot be reached.
/// A win is built as a column: after a random opening, the winner stacks
/// counters in a column with room for a line while the other player plays
/// elsewhere, until some line of the winner's is complete.
fn continue_game(mut game: Game, rng: &mut Rng, goal: Goal) -> Option<(Game, Vec<u64>)> {
    let x = game.frame().0.to_u64()?;
    let y = game.frame().1.to_u64()?;
    let z = game.frame().2.to_u64().unwrap_or(u64::MAX);
    let mut open = Open::new(&game, x);
    let mut moves = Vec::new();
    let opening = match goal {
        Goal::Win(..) => rng.below((x * y / 3).min(400) + 1),
        _ => u64::MAX,
    };
    let mut target: Option<u64> = None;
    loop {
        match goal {
            Goal::Length(n) if moves.len() as u64 >= n => return Some((game, moves)),
            Goal::Fill if game.is_full() => return Some((game, moves)),
            Goal::Column(c) if !game.is_open(&Nat::from(c)) => return Some((game, moves)),
            _ => {}
        }
        let column =
            match goal {
                Goal::Win(p, Some(d)) if game.to_move() == p => {
                    match directed(&game, &open, rng, d, x, y, z) {
                        Ok(c) => {
                            game = step(game, &Nat::from(c)).0;
                            moves.push(c);
                            return Some((game, moves));
                        }
                        Err(Some(c)) => c,
                        Err(None) => safe_column(&game, &open, rng, None)?,
                    }
                }
                Goal::Win(p, None) if game.to_move() == p => {
                    // Take a win when a probe finds one.
                    let probes = (0..PROBES).filter_map(|_| open.random(rng));
                    if let Some(c) = target.into_iter().chain(probes).find(|&c| {
                        game.is_open(&Nat::from(c)) && game.would_complete(&Nat::from(c))
                    }) {
                        game = step(game, &Nat::from(c)).0;
                        moves.push(c);
                        return Some((game, moves));
                    }
                    if moves.len() as u64 >= opening && target.is_none() {
                        // A column with room for z counters of the winner's.
                        target = (0..PROBES)
                            .filter_map(|_| open.random(rng))
                            .find(|&c| game.board().height(&Nat::from(c)).saturating_add(z) <= y);
                    }
                    match target.filter(|&c| game.is_open(&Nat::from(c))) {
                        Some(c) => c,
                        None => safe_column(&game, &open, rng, None)?,
                    }
                }
                // Lean on the column to fill, when that is safe.
                Goal::Column(c)
                    if rng.below(2) == 0
                        && game.is_open(&Nat::from(c))
                        && !game.would_complete(&Nat::from(c)) =>
                {
                    c
                }
                _ => safe_column(&game, &open, rng, target)?,
            };
        game = step(game, &Nat::from(column)).0;
        open.update(&game, column);
        moves.push(column);
    }
}

/// The winner's move towards a win in direction `d` only: `Ok` a column
/// that completes a run in `d` and in no other direction, else `Err` of a
/// safe column that lengthens the longest run in `d` (taken half the time,
/// to steer the game), or `Err(None)` for a random safe move.
fn directed(
    game: &Game,
    open: &Open,
    rng: &mut Rng,
    d: Direction,
    x: u64,
    y: u64,
    z: u64,
) -> Result<u64, Option<u64>> {
    let player = game.to_move();
    // Small frames are scanned whole, larger ones probed.
    let columns: Vec<u64> = if open.columns.len() <= 64 {
        open.columns.clone()
    } else {
        (0..PROBES).filter_map(|_| open.random(rng)).collect()
    };
    let mut best: Option<(u64, u64)> = None;
    for c in columns {
        let row = game.board().height(&Nat::from(c)) + 1;
        let runs = DIRECTIONS.map(|dir| run_through(game, player, c, row, dir, x, y));
        let wins = runs.iter().filter(|&&n| n >= z).count();
        let along = runs[DIRECTIONS.iter().position(|&dir| dir == d).unwrap_or(0)];
        if wins == 1 && along >= z {
            return Ok(c);
        }
        if wins == 0 && best.is_none_or(|(n, _)| along > n) {
            best = Some((along, c));
        }
    }
    Err(best.filter(|_| rng.below(2) == 0).map(|(_, c)| c))
}

/// The four directions, in the order [`run_through`] is asked about them.
const DIRECTIONS: [Direction; 4] = [
    Direction::Horizontal,
    Direction::Vertical,
    Direction::Diagonal,
    Direction::AntiDiagonal,
];

/// The length of `player`'s run in direction `d` through a counter of
/// theirs at `column`, `row` (1-based), counted cell by cell on the board.
fn run_through(
    game: &Game,
    player: Player,
    column: u64,
    row: u64,
    d: Direction,
    x: u64,
    y: u64,
) -> u64 {
    let (dc, dr): (i64, i64) = match d {
        Direction::Horizontal => (1, 0),
        Direction::Vertical => (0, 1),
        Direction::Diagonal => (1, 1),
        Direction::AntiDiagonal => (1, -1),
    };
    let mut n = 1;
    for sign in [1, -1] {
        let (mut c, mut r) = (column as i64, row as i64);
        loop {
            c += sign * dc;
            r += sign * dr;
            if c < 1 || r < 1 || c as u64 > x || r as u64 > y {
                break;
            }
            if game.board().owner(&Nat::from(c as u64), r as u64) != Some(player) {
                break;
            }
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn workloads_have_their_shape() {
        let mut out = Vec::new();
        workload(Workload::Ladder, 5, 0, &mut out).unwrap();
        assert_eq!(out, b"5 2 5\n1\n1\n2\n2\n3\n3\n4\n4\n5\n");
        assert_eq!(judge_bytes(&out).code(), Code::WinOne);
        out.clear();
        workload(Workload::Dense, 40, 3, &mut out).unwrap();
        let report = judge_bytes(&out);
        assert!(report.game.as_ref().is_some_and(|g| g.placed() == 1600));
        out.clear();
        workload(Workload::Tail, 100, 0, &mut out).unwrap();
        assert_eq!(judge_bytes(&out).code(), Code::IllegalRow);
    }
}
