//! The neighbouring problems: board snapshots and "Rotate", on the public
//! data in crates/games/tests/data (see its README for sources).

use std::fs;

use connectz::{Finding, Player, judge_bytes};
use connectz_games::snapshot::{Answer, Side, judge_grid};

use crate::support::{FRAME_5X4_3, Scratch, fixtures, root, run_cz};

fn cz(args: &[&str], stdin: Option<&[u8]>) -> String {
    let out = run_cz(args, stdin.unwrap_or(b""));
    assert!(out.status.success(), "cz {args:?} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// Data rows of a TSV: comment lines skipped, fields split on tabs.
fn rows(name: &str) -> Vec<Vec<String>> {
    let text =
        fs::read_to_string(root().join("crates/games/tests/data/snapshot").join(name)).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    assert!(rows.len() >= 3, "{name}: only {} rows", rows.len());
    rows
}

#[test]
fn rotate_matches_the_published_answers_byte_for_byte() {
    for set in ["sample", "practice-small", "practice-large"] {
        let input = format!("crates/games/tests/data/rotate/{set}.in");
        let expected =
            fs::read_to_string(root().join(format!("crates/games/tests/data/rotate/{set}.ans")))
                .unwrap();
        assert_eq!(cz(&["rotate", &input], None), expected, "{set}");
    }
    // Standard input works too.
    let sample = fs::read(root().join("crates/games/tests/data/rotate/sample.in")).unwrap();
    assert!(cz(&["rotate"], Some(&sample)).starts_with("Case #1: Neither\n"));
}

#[test]
fn codegolf_validator_boards() {
    // 'O' is empty; cases 5 and 6 have floating counters, so they are
    // judged without gravity, and with gravity they are invalid.
    for row in rows("codegolf_117180_connect_four_validator.tsv") {
        let (case, grid, winner) = (&row[0], row[1].as_bytes(), row[2].chars().next().unwrap());
        let floating = case == "5" || case == "6";
        let (position, judgement) = judge_grid(grid, 4, None, Some('O'), !floating).unwrap();
        let side = match judgement.answer {
            Answer::FirstWins => Side::First,
            Answer::SecondWins => Side::Second,
            other => panic!("case {case}: {other} ({:?})", judgement.why),
        };
        assert_eq!(
            position.symbols[usize::from(side == Side::Second)],
            winner,
            "case {case}"
        );
        if floating {
            let (_, strict) = judge_grid(grid, 4, None, Some('O'), true).unwrap();
            assert_eq!(strict.answer, Answer::Invalid, "case {case}");
            assert!(strict.why.unwrap().starts_with("floating counter"));
        }
    }
}

#[test]
fn cody_win_checker_boards() {
    // Matrices of 0/1/2 with rows joined by ';', no gravity, K = 4; the
    // answer is the player with a line, 0 for nobody.
    for row in rows("cody_90_c4winner.tsv") {
        let (case, grid, expected) = (&row[0], row[1].as_bytes(), row[2].trim());
        let (position, judgement) = judge_grid(grid, 4, Some('1'), None, false).unwrap();
        let got = match judgement.answer {
            Answer::FirstWins => position.symbols[0].to_string(),
            Answer::SecondWins => position.symbols[1].to_string(),
            _ => "0".to_string(),
        };
        assert_eq!(got, expected, "case {case}");
    }
    // The same through the command line, with the lines listed.
    let out = cz(
        &["board", "--no-gravity", "--first", "1", "--runs", "-"],
        Some(b"0 0 0 0;1 1 1 1;0 0 0 0;0 0 0 2"),
    );
    assert_eq!(
        out,
        "first player wins\n1: 4 in a row: (2,1) (2,2) (2,3) (2,4)\n"
    );
}

/// A move list as a ConnectZ file on 7x6 with lines of 4.
fn connectz_file(columns: &[u8]) -> Vec<u8> {
    let mut text = String::from("7 6 4\n");
    for c in columns {
        text.push_str(&format!("{c}\n"));
    }
    text.into_bytes()
}

#[test]
fn codewars_who_is_winner() {
    // "COL_Color" moves; the first to connect four wins, later moves are
    // ignored. Whoever moves first is player 1 of the ConnectZ file.
    for row in rows("codewars_56882731_who_is_winner.tsv") {
        let moves: Vec<(u8, &str)> = row[1]
            .split(',')
            .map(|m| {
                let (col, colour) = m.split_once('_').unwrap();
                (col.as_bytes()[0] - b'A' + 1, colour)
            })
            .collect();
        let report = judge_bytes(&connectz_file(
            &moves.iter().map(|m| m.0).collect::<Vec<_>>(),
        ));
        let got = match &report.result {
            Some(Finding::Won { run, .. }) => match run.player {
                Player::One => moves[0].1,
                Player::Two => moves[1].1,
            },
            _ => "Draw",
        };
        assert_eq!(got, row[2].trim(), "case {}", row[0]);
    }
}

#[test]
fn dwite_winner_and_chip_count() {
    // Digit strings, Red first; the answer names the winner and the number
    // of chips on the board when the line was completed.
    for row in rows("dwite_2006feb_p4.tsv") {
        let columns: Vec<u8> = row[1].bytes().map(|b| b - b'0').collect();
        let report = judge_bytes(&connectz_file(&columns));
        let Some(Finding::Won { line, run }) = &report.result else {
            panic!("case {}: no line", row[0]);
        };
        let colour = if run.player == Player::One {
            "RED"
        } else {
            "BLUE"
        };
        assert_eq!(
            format!("{colour}-{}", line - 1),
            row[2].trim(),
            "case {}",
            row[0]
        );
    }
}

#[test]
fn board_command_answers_and_explains() {
    let position = b".......\n.......\n.......\n...x...\n...o...\n..xox..\n";
    assert_eq!(cz(&["board"], Some(position)), "second player moves\n");
    let floating = b"....\n.x..\n....\n.o..\n";
    assert_eq!(
        cz(&["board", "--why"], Some(floating)),
        "invalid\nwhy: floating counter at row 2 column 2 (rows from the top)\n"
    );
    let counts = b"....\n....\nxx..\nxxo.\n";
    assert!(cz(&["board", "--why"], Some(counts)).contains("x has 4 counters and o 1"));
    let won = b"x...\nx...\nx.o.\nxooo\n";
    assert!(
        cz(&["board", "--why", "--first", "x"], Some(won))
            .starts_with("invalid\nwhy: x has a winning run but did not move last")
    );
    let draw = b"xox\noxo\nxox\n";
    assert_eq!(cz(&["board", "-z", "3"], Some(draw)), "invalid\n");
}

#[test]
fn solve_takes_the_empty_frame_letters_and_both_job_modes() {
    let out = cz(&["solve", "--width", "4", "--height", "4"], Some(b".\n"));
    assert_eq!(out, ". 0\n", "4 x 4 is a draw");
    // One invalid position: its line says why, and the exit status is 1.
    let out = run_cz(
        &["solve", "--width", "10", "--height", "6"],
        b"9a9a9a\n9a9a9b\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("9a9a9a 27\n9a9a9b invalid"), "{text}");
    assert_eq!(out.status.code(), Some(1));
    // A file of the public Middle-Easy positions: one thread and two give
    // the same lines in the same order.
    let text =
        fs::read_to_string(root().join("crates/games/tests/data/solver/Test_L2_R1")).unwrap();
    let sample: String = text.lines().take(200).map(|l| format!("{l}\n")).collect();
    let one = cz(&["solve", "--jobs", "1"], Some(sample.as_bytes()));
    let two = cz(
        &["solve", "--jobs", "2", "--table-mb", "2"],
        Some(sample.as_bytes()),
    );
    assert_eq!(one, sample);
    assert_eq!(two, sample);
}

#[test]
fn solve_best_gives_a_column_of_the_best_exact_score() {
    // Every column's exact score, by Pascal Pons' solver's analysis
    // (`c4solver -a`): 4343: -2 0 0 5 0 -1 0 (column 4 scores 5);
    // 3455: -6 -5 -3 -5 -3 -5 -6 (3 and 5 tie at -3: the one nearer the
    // centre on the left, as centre_rank orders them); a position with a
    // win at once; a lost one, where --weak names the most central column.
    let out = cz(&["solve", "--best"], Some(b"4343\n3455\n121212\n"));
    assert_eq!(out, "4343 5 4\n3455 -3 3\n121212 18 1\n");
    let out = cz(&["solve", "--best", "--weak"], Some(b"4343\n3455\n"));
    assert_eq!(out, "4343 1 4\n3455 -1 4\n");
    // A full frame has no best column.
    let out = cz(
        &[
            "solve",
            "--best",
            "--width",
            "2",
            "--height",
            "1",
            "--connect",
            "2",
        ],
        Some(b"12\n"),
    );
    assert_eq!(out, "12 0 -\n");
}

#[test]
fn book_is_made_resumed_and_read_back() {
    let scratch = Scratch::new("book");
    let path = scratch.path("5x4.book");
    let path_text = path.to_str().unwrap();
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = vec!["book".into(), path_text.into()];
        v.extend(
            FRAME_5X4_3
                .iter()
                .chain(&["--depth", "4"])
                .chain(extra)
                .map(|s| s.to_string()),
        );
        v
    };
    let run = |extra: &[&'static str]| {
        let a = args(extra);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        cz(&refs, None)
    };
    let log = run(&["--jobs", "2"]);
    assert!(log.contains("entries"), "{log}");
    let whole = fs::read_to_string(&path).unwrap();
    assert!(whole.starts_with("# connectz book: width 5 height 4 connect 3 depth 4 weak\n"));
    // Every entry is the solver's score of its position.
    let entries: String = whole.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let positions: String = entries
        .lines()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let solved = cz(
        &[&["solve", "--weak"], &FRAME_5X4_3[..]].concat(),
        Some(positions.as_bytes()),
    );
    assert_eq!(solved, entries);
    // Interrupted anywhere (even inside a line), a run completes the same
    // book.
    for cut in [60, 61, whole.len() / 2, whole.len() - 1] {
        fs::write(&path, &whole[..cut]).unwrap();
        run(&["--jobs", "1"]);
        assert_eq!(fs::read_to_string(&path).unwrap(), whole, "cut at {cut}");
    }
    // A book of another frame is refused, and left alone.
    let out = run_cz(&["book", path_text, "--width", "6", "--depth", "1"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_to_string(&path).unwrap(), whole);
}

/// r[solve.book]: `cz solve` reads the shipped book only for a 7 x 6
/// position it can answer (at most its depth, 10 moves) or bound (one move
/// more), and `--stats` says when it did (counted, not timed: reading it
/// is the first such position's wait).
#[test]
fn the_shipped_book_is_read_only_where_it_can_help() {
    const READ: &str = "# the shipped book was read: 988231 positions";
    for (moves, args, read) in [
        ("44", &[][..], true),
        ("1411224244", &[], true),
        ("14112242444", &[], true),
        ("141122424445", &[], false),
        ("2252576253462244111563365343671351441", &[], false),
        ("1411224244", &["--no-book"], false),
        ("4444", &["--width", "5", "--height", "4"], false),
    ] {
        let out = run_cz(
            &[
                &["solve", "--stats", "--jobs", "1", "--table-mb", "2"][..],
                args,
            ]
            .concat(),
            format!("{moves}\n").as_bytes(),
        );
        assert!(out.status.success(), "{moves} {args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.contains(READ), read, "{moves} {args:?}: {text}");
    }
}

/// r[solve.book]: `cz book --pack` writes a book `cz solve --book` consults
/// (the same scores as searching, with no node searched); one altered, or
/// of another frame, is refused with why.
#[test]
fn a_packed_book_is_consulted_and_a_bad_one_refused() {
    let scratch = Scratch::new("packed");
    let text = scratch.path("5x4.book");
    let packed = scratch.path("5x4.czb");
    let (text_arg, packed_arg) = (text.to_str().unwrap(), packed.to_str().unwrap());
    let log = cz(
        &[
            &["book", text_arg, "--exact", "--depth", "4", "--jobs", "2"][..],
            &["--pack", packed_arg],
            &FRAME_5X4_3[..],
        ]
        .concat(),
        None,
    );
    // Only the deepest positions were solved.
    assert!(
        log.contains("depth 3: ") && log.contains("(0 solved"),
        "{log}"
    );
    let positions: String = fs::read_to_string(&text)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let solve = |extra: &[&str]| {
        cz(
            &[
                &["solve", "--scores", "--stats", "--jobs", "1"][..],
                extra,
                &FRAME_5X4_3[..],
            ]
            .concat(),
            Some(positions.as_bytes()),
        )
    };
    let strip = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.rsplit_once(" nodes=").unwrap().0.to_string())
            .collect()
    };
    let looked_up = solve(&["--book", packed_arg]);
    let searched = solve(&["--no-book"]);
    assert_eq!(strip(&looked_up), strip(&searched));
    // Each position's columns lead to positions of the book (or past it
    // for the deepest): those of fewer moves are looked up.
    let shallow_nodes: u64 = looked_up
        .lines()
        .filter(|l| !l.starts_with('#') && l.split(' ').next().unwrap().len() < 4)
        .map(|l| l.rsplit_once("nodes=").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(shallow_nodes, 0, "{looked_up}");
    let searched_nodes: u64 = searched
        .lines()
        .filter(|l| !l.starts_with('#') && l.split(' ').next().unwrap().len() < 4)
        .map(|l| l.rsplit_once("nodes=").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert!(searched_nodes > 1000, "{searched}");
    // Altered: refused, with the reason; of another frame: refused.
    let mut bytes = fs::read(&packed).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 4;
    let bad = scratch.path("bad.czb");
    fs::write(&bad, &bytes).unwrap();
    let out = run_cz(
        &[
            &["solve", "--book", bad.to_str().unwrap()][..],
            &FRAME_5X4_3[..],
        ]
        .concat(),
        b"1\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"));
    let out = run_cz(&["solve", "--book", packed_arg], b"1\n");
    assert_eq!(out.status.code(), Some(2));
    let why = String::from_utf8_lossy(&out.stderr);
    assert!(
        why.contains("a book for 5 x 4 with runs of 3, not 7 x 6"),
        "{why}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_plan_is_made_resumed_and_is_what_solve_best_says() {
    let scratch = Scratch::new("plan");
    let path = scratch.path("5x4.plan");
    let path_text = path.to_str().unwrap();
    let run = |jobs: &'static str| {
        let args: Vec<&str> = [
            &["book", path_text, "--plan", "--depth", "6", "--jobs", jobs][..],
            &FRAME_5X4_3[..],
        ]
        .concat();
        cz(&args, None)
    };
    let log = run("2");
    assert!(log.contains("ply 6:"), "{log}");
    let whole = fs::read_to_string(&path).unwrap();
    assert!(whole.starts_with("# connectz plan: width 5 height 4 connect 3 plies 6\n. "));
    // Every entry is `cz solve --best`'s score and column.
    let entries: String = whole.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let positions: String = entries
        .lines()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let solved = cz(
        &[&["solve", "--best"], &FRAME_5X4_3[..]].concat(),
        Some(positions.as_bytes()),
    );
    assert_eq!(solved, entries);
    assert!(entries.lines().count() > 50);
    // Interrupted anywhere, even inside a line or before a later ply's
    // positions are known, a run completes the same plan.
    for cut in [60, 61, whole.len() / 3, whole.len() - 1] {
        fs::write(&path, &whole[..cut]).unwrap();
        run("1");
        assert_eq!(fs::read_to_string(&path).unwrap(), whole, "cut at {cut}");
    }
    // Packed: the header and two bytes an entry, read back to the same plan.
    let packed = scratch.path("5x4.czp");
    let log = cz(
        &[
            &["book", path_text, "--plan", "--depth", "6", "--pack"][..],
            &[packed.to_str().unwrap()][..],
            &FRAME_5X4_3[..],
        ]
        .concat(),
        None,
    );
    let bytes = fs::read(&packed).unwrap();
    assert!(log.contains(&format!("{} bytes", bytes.len())), "{log}");
    assert_eq!(bytes.len(), 36 + 2 * entries.lines().count());
    let plan = connectz_games::plan::Plan::from_packed(&bytes).unwrap();
    assert_eq!(
        plan.to_text(),
        connectz_games::plan::Plan::parse(&whole).unwrap().to_text()
    );
    // A plan of another frame is refused, and left alone.
    let out = run_cz(&["book", path_text, "--plan", "--width", "6"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_to_string(&path).unwrap(), whole);
}

#[test]
fn solve_frame_and_table_limits_just_below_at_and_above() {
    // Width: 35 is the last column a character names (z); 36 is refused.
    // (Lines of 36 fit nowhere: every position a draw, known at once.)
    let out = run_cz(
        &["solve", "--width", "35", "--height", "2", "--connect", "36"],
        b"zz\n",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "zz 0\n");
    assert_eq!(out.status.code(), Some(0));
    let out = run_cz(&["solve", "--width", "36", "--height", "2"], b"1\n");
    assert_eq!(out.status.code(), Some(2));
    let why = String::from_utf8_lossy(&out.stderr);
    assert!(why.contains("the width is at most 35"), "{why}");
    assert!(!why.contains("128"), "36 x 2 has 108 bits: {why}");
    // Bits: 16 x 7 (128 bits) is solved, 16 x 8 (144) refused, 9 x 6 (63) in
    // 64-bit words.
    for (width, height, code) in [("16", "7", 0), ("16", "8", 2), ("9", "6", 0)] {
        let out = run_cz(
            &[
                "solve",
                "--width",
                width,
                "--height",
                height,
                "--connect",
                "20",
            ],
            b"1\n",
        );
        assert_eq!(out.status.code(), Some(code), "{width} x {height}");
        let why = String::from_utf8_lossy(&out.stderr);
        assert_eq!(why.contains("must be at most 128"), code == 2, "{why}");
    }
    // Table: 1 MB (the floor) and 16384 MB are accepted, 0 and 16385 refused.
    for (mb, code) in [("0", 2), ("1", 0), ("16385", 2)] {
        let out = run_cz(
            &["solve", "--width", "4", "--height", "4", "--table-mb", mb],
            b".\n",
        );
        assert_eq!(out.status.code(), Some(code), "--table-mb {mb}");
    }
}

#[test]
fn solve_reports_bad_lines_and_frames_and_goes_on() {
    // r[solve.position]: a line that is not UTF-8 is reported, the next
    // solved; the score of 2 1 3 on 3 x 3 is 2 (r[solve.score]).
    let out = run_cz(
        &["solve", "--width", "3", "--height", "3", "--connect", "3"],
        b"213\n\xff\xfe\n2\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "213 2\n\u{fffd}\u{fffd} invalid: not UTF-8 text\n2 0\n"
    );
    assert_eq!(out.status.code(), Some(1));
    // A frame of nothing says so, not "too large".
    for flag in ["--width", "--height", "--connect"] {
        let out = run_cz(&["solve", flag, "0"], b"1\n");
        assert_eq!(out.status.code(), Some(2), "{flag} 0");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("must be at least 1"), "{flag} 0: {err}");
    }
}

#[test]
fn solve_refuses_a_line_longer_than_the_frame_without_holding_it() {
    // r[solve.position]: a position of 10^8 moves, under 250 MB of address
    // space (where holding the line whole would abort on a 200 MB
    // allocation): cut, its length said, and the next line solved.
    use std::io::Write;
    let scratch = Scratch::new("solve-long-line");
    let path = scratch.path("positions.txt");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let chunk = vec![b'1'; 1 << 20];
    let mut left = 100_000_000usize;
    while left > 0 {
        let n = left.min(chunk.len());
        file.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    // The next line: the first position of the public End-Easy set, whose
    // score the set gives (a deep one, solved at once).
    file.write_all(b" and a comment\n2252576253462244111563365343671351441\n")
        .unwrap();
    drop(file);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 250000; exec \"$0\" solve --jobs 1 --table-mb 8 \"$1\"")
        .arg(env!("CARGO_BIN_EXE_cz"))
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1111111111... (100000000 bytes) invalid: longer than the frame's 42 cells\n2252576253462244111563365343671351441 -1\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));
    // One move more than the cells is too long; as many is read and solved
    // (or refused for what the moves do), the rest of the line ignored.
    let out = run_cz(
        &["solve", "--width", "2", "--height", "2", "--connect", "3"],
        b"12121\n  1212 x\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1212... (5 bytes) invalid: longer than the frame's 4 cells\n1212 0\n"
    );
}

#[test]
fn solve_says_when_the_table_cannot_be_had() {
    // Under 300 MB of address space, a 2 GB table is refused in words.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 300000; exec \"$0\" solve --table-mb 2048")
        .arg(env!("CARGO_BIN_EXE_cz"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    // The far part asked for, and the few megabytes of the smaller parts.
    let megabytes: usize = err
        .split_once("cannot have ")
        .and_then(|(_, rest)| rest.split_once(" MB of memory"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((2048..2048 + 16).contains(&megabytes), "{err}");
    assert!(err.contains("ask for less with --table-mb"), "{err}");
}

#[test]
fn solve_on_two_jobs_answers_as_one_in_order() {
    // Many positions, each solved in a few nodes: the same lines in the same
    // order with one worker or two (each worker keeps one table).
    let text =
        fs::read_to_string(root().join("crates/games/tests/data/solver/Test_L1_R1")).unwrap();
    let mut lines = String::new();
    for line in text.lines() {
        lines.push_str(line.split_whitespace().next().unwrap());
        lines.push('\n');
    }
    let one = run_cz(
        &["solve", "--jobs", "1", "--table-mb", "2"],
        lines.as_bytes(),
    );
    let two = run_cz(
        &["solve", "--jobs", "2", "--table-mb", "2"],
        lines.as_bytes(),
    );
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(
        String::from_utf8_lossy(&one.stdout).lines().count(),
        text.lines().count()
    );
}

#[test]
fn board_memory_is_bounded_a_cell_and_says_when_it_runs_out() {
    // r[board.memory]: a row of a million cells, where an allocation per
    // column would not fit in 150 MB of address space, is judged within
    // its cells times the bytes a cell said, plus a floor for the program
    // itself (about 15 MB of address space on this machine); with less
    // than it needs, an error in words, not an abort.
    let scratch = Scratch::new("board-memory");
    let path = scratch.path("row.txt");
    let cells = 1_000_000usize;
    fs::write(&path, "xo".repeat(cells / 2) + "\n").unwrap();
    let floor_kb = 32_000;
    let under = |limit_kb: usize| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {limit_kb}; exec \"$0\" board \"$1\""))
            .arg(env!("CARGO_BIN_EXE_cz"))
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let enough = floor_kb + cells * connectz_games::snapshot::BYTES_PER_CELL / 1024;
    let out = under(enough);
    assert_eq!(
        (
            String::from_utf8_lossy(&out.stdout).as_ref(),
            out.status.code()
        ),
        ("draw game\n", Some(0)),
        "under {enough} KB: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = under(floor_kb + 8_000);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "cz: the grid needs more memory than can be had\n"
    );
}

#[test]
fn board_flags_and_layouts_get_clear_answers() {
    let xo = b"xo.\nxo.\n";
    // --first names neither symbol, or no counter at all: an error, not a
    // reading with a player of 0 counters.
    for (first, says) in [
        ("q", "neither of the board's symbols"),
        (".", "cannot be a counter"),
    ] {
        let out = run_cz(&["board", "--first", first], xo);
        assert_eq!(out.status.code(), Some(2), "--first {first}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "--first {first}: {err}");
    }
    // Either symbol is fine; so is a new one on a board of one symbol.
    let out = run_cz(&["board", "--first", "o"], xo);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "first player moves\n");
    let out = run_cz(&["board", "--first", "o", "--why"], b"x.\n");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("invalid\n"));
    // -z 0: an error, not a bare "invalid".
    let out = run_cz(&["board", "-z", "0"], xo);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 1"));
    // A final separator and then the file's line feed (or CRLF): two rows.
    for layout in [&b"..;xo;\n"[..], b"..;xo;\r\n", b"../xo/", b"..\nxo\n"] {
        let out = run_cz(&["board"], layout);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "first player moves\n",
            "{:?}",
            String::from_utf8_lossy(layout)
        );
    }
    // Two line feeds after a separator is an empty row: still refused.
    let out = run_cz(&["board"], b"..;xo;\n\n");
    assert_eq!(out.status.code(), Some(2));
}

/// r[solve.scores]: every column's score is what Pascal Pons' solver's
/// analysis prints (`c4solver -a`), on positions of the three public sets
/// held for this: its output kept as it printed it, in
/// fixtures/analysis/ (its -1000 is a full column, `-` here); with
/// `--weak`, the sign of each.
#[test]
fn solve_scores_are_the_reference_analysis() {
    let text = fs::read_to_string(fixtures().join("analysis/c4solver-a.txt")).unwrap();
    let strong: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.replace("-1000", "-"))
        .collect();
    assert!(strong.len() >= 30, "{} positions", strong.len());
    let weak: Vec<String> = strong
        .iter()
        .map(|l| {
            l.split(' ')
                .enumerate()
                .map(|(i, w)| match w.parse::<i32>() {
                    Ok(score) if i > 0 => score.signum().to_string(),
                    _ => w.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let positions: String = strong
        .iter()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let lines = |args: &[&str]| -> Vec<String> {
        let args: Vec<&str> = ["solve", "--scores"].iter().chain(args).copied().collect();
        cz(&args, Some(positions.as_bytes()))
            .lines()
            .map(String::from)
            .collect()
    };
    assert_eq!(lines(&[]), strong);
    assert_eq!(lines(&["--weak"]), weak);
    assert_eq!(lines(&["--jobs", "2"]), strong);
}
