use super::*;

fn game(x: u64, y: u64, z: u64) -> Game {
    let header = Header {
        x: x.into(),
        y: y.into(),
        z: z.into(),
    };
    Game::new(&header)
}

/// Plays `columns` in turn, each expected to place its counter.
fn play(g: &mut Game, columns: &[u64]) {
    for &c in columns {
        let effect = g.play(&Nat::from(c));
        assert!(
            matches!(effect, Effect::Placed { .. } | Effect::Won { .. }),
            "column {c}: {effect:?}"
        );
    }
}

/// r[rule.frame], r[rule.column-range]: column 0 and columns past X are
/// off the frame, and place nothing; the same player is still to move.
#[test]
fn columns_outside_the_frame_place_nothing() {
    let mut g = game(7, 6, 4);
    for column in [Nat::ZERO, Nat::from(8), Nat::from(u64::MAX).add_u64(1)] {
        assert_eq!(g.play(&column), Effect::OffFrame, "{column}");
    }
    assert_eq!((g.placed(), g.to_move()), (0, Player::One));
    assert_eq!(
        g.play(&Nat::from(7)),
        Effect::Placed {
            row: 1,
            after_win: false
        }
    );
}

/// r[rule.gravity], r[rule.column-full], r[rule.turns]: counters stack from
/// row 1, a column of Y counters takes no more, and the players alternate
/// only when a counter is placed.
#[test]
fn counters_fall_and_full_columns_refuse() {
    let mut g = game(3, 2, 3);
    let placed = |row| Effect::Placed {
        row,
        after_win: false,
    };
    assert_eq!(g.play(&Nat::from(2)), placed(1));
    assert_eq!(g.to_move(), Player::Two);
    assert_eq!(g.play(&Nat::from(2)), placed(2));
    assert_eq!(g.play(&Nat::from(2)), Effect::ColumnFull);
    assert_eq!((g.placed(), g.to_move()), (2, Player::One));
    assert_eq!(g.board().owner(&Nat::from(2), 1), Some(Player::One));
    assert_eq!(g.board().owner(&Nat::from(2), 2), Some(Player::Two));
    assert_eq!(g.last(), Some((&Nat::from(2), 2)));
}

/// r[rule.line]: the run a winning counter completes, from its start, in
/// each direction, and the longest of two it completes at once.
#[test]
fn the_winning_run_is_given_from_its_start() {
    let run = |player, column: u64, row, direction, length| WinningRun {
        player,
        column: Nat::from(column),
        row,
        direction,
        length,
    };
    let won = |g: &mut Game, column: u64| match g.play(&Nat::from(column)) {
        Effect::Won { run, .. } => run,
        other => panic!("{other:?}"),
    };
    // Vertical: three in column 1, the last on row 3.
    let mut g = game(4, 4, 3);
    play(&mut g, &[1, 2, 1, 2]);
    assert_eq!(
        won(&mut g, 1),
        run(Player::One, 1, 1, Direction::Vertical, 3)
    );
    // Horizontal, completed in the middle: 1 and 3, then 2.
    let mut g = game(4, 4, 3);
    play(&mut g, &[1, 1, 3, 3]);
    assert_eq!(
        won(&mut g, 2),
        run(Player::One, 1, 1, Direction::Horizontal, 3)
    );
    // Diagonal, rising to the right, completed at its foot.
    let mut g = game(4, 4, 3);
    play(&mut g, &[4, 2, 2, 3, 4, 3, 3, 2]);
    assert_eq!(
        won(&mut g, 1),
        run(Player::One, 1, 1, Direction::Diagonal, 3)
    );
    // Anti-diagonal, falling to the right, completed at its top: its start.
    let mut g = game(4, 4, 3);
    play(&mut g, &[4, 3, 3, 2, 1, 2]);
    assert_eq!(
        won(&mut g, 2),
        run(Player::One, 2, 3, Direction::AntiDiagonal, 3)
    );
    // A run longer than Z: two runs of 2 joined by the counter between.
    let mut g = game(5, 2, 3);
    play(&mut g, &[1, 1, 2, 2, 4, 4, 5, 5]);
    assert_eq!(
        won(&mut g, 3),
        run(Player::One, 1, 1, Direction::Horizontal, 5)
    );
}

/// r[rule.line]: of equal runs a counter would complete at once, the first
/// in the order vertical, horizontal, diagonal, anti-diagonal is given; a
/// longer one beats an earlier direction.
#[test]
fn of_equal_runs_the_first_direction_is_given() {
    const ONE: Player = Player::One;
    const TWO: Player = Player::Two;
    let n = |v: u64| Nat::from(v);
    // Player 1 holds column 3's rows 1 and 2 and row 3's columns 1 and 2:
    // a counter on 3,3 makes a column and a row of 3.
    let stacks: [(Nat, &[Player]); 3] = [
        (n(1), &[TWO, TWO, ONE]),
        (n(2), &[TWO, TWO, ONE]),
        (n(3), &[ONE, ONE]),
    ];
    let (board, _) = Board::from_stacks(&n(3), &n(3), &n(3), stacks).unwrap();
    let through = longest_through(&board, &n(3), 3, ONE).unwrap();
    assert_eq!(
        (through.direction, through.length),
        (Direction::Vertical, 3)
    );
    // For player 2 there: a diagonal of 3 (1,1, 2,2, 3,3) beats the rest.
    let through = longest_through(&board, &n(3), 3, TWO).unwrap();
    assert_eq!(
        (through.direction, through.length),
        (Direction::Diagonal, 3)
    );
    // Player 1 on 2,1 of a row 1 . 1 with 1 on 1,2 and 3,2: a row of 3 beats
    // both diagonals of 2.
    let stacks: [(Nat, &[Player]); 2] = [(n(1), &[ONE, ONE]), (n(3), &[ONE, ONE])];
    let (board, _) = Board::from_stacks(&n(3), &n(3), &n(4), stacks).unwrap();
    let through = longest_through(&board, &n(2), 1, ONE).unwrap();
    assert_eq!(
        (through.direction, through.length),
        (Direction::Horizontal, 3)
    );
}

/// r[rule.after-win], r[decision.placed-after-win]: moves after the win
/// place their counters, reported as such; the first is remembered, and
/// no run is looked for again.
#[test]
fn counters_after_the_win_are_placed() {
    let mut g = game(3, 3, 2);
    for (column, after) in [
        (1, None),
        (3, None),
        (1, None),
        (2, Some((2, 1))),
        (3, Some((2, 1))),
    ] {
        let effect = g.play(&Nat::from(column));
        let after_win = g.placed() > 3;
        if g.placed() == 3 {
            assert!(matches!(effect, Effect::Won { .. }), "{effect:?}");
        } else {
            assert_eq!(
                effect,
                Effect::Placed {
                    row: g.board().height(&Nat::from(column)),
                    after_win
                }
            );
        }
        assert_eq!(
            g.first_after_win().map(|(c, r)| (c.to_u64().unwrap(), r)),
            after,
            "after column {column}"
        );
    }
    // Player 2's 2,1 made a row of 2 with its 3,1 after the win: not a win.
    assert_eq!(
        g.winning_run().map(|r| r.direction),
        Some(Direction::Vertical)
    );
}

/// r[rule.end]: a frame is full when every cell holds a counter.
#[test]
fn a_frame_is_full_when_every_cell_is_taken() {
    let mut g = game(2, 1, 2);
    play(&mut g, &[1]);
    assert!(!g.is_full());
    play(&mut g, &[2]);
    assert!(g.is_full());
    let wide = Game::new(&Header {
        x: Nat::from(u64::MAX),
        y: Nat::from(3),
        z: Nat::from(2),
    });
    assert!(!wide.is_full());
}
