//! `cz play`, driven through standard input as a script, and the engine's
//! choices in positions with a known answer.

use connectz::judge_bytes;

use crate::support::{FRAME_5X4_3, Scratch, run_cz};

fn play(args: &[&str], script: &str) -> (String, Option<Vec<u8>>) {
    let scratch = Scratch::new(&format!("play-{}", args.join("_").len() + script.len()));
    let save = scratch.path("game.txt");
    let mut full = vec!["play"];
    full.extend_from_slice(args);
    full.extend(["--save", save.to_str().unwrap()]);
    let out = run_cz(&full, script.as_bytes());
    assert!(out.status.success());
    let saved = std::fs::read(&save).ok();
    (String::from_utf8(out.stdout).unwrap(), saved)
}

#[test]
fn a_quit_game_saves_an_incomplete_connectz_file() {
    let (out, saved) = play(&["--level", "easy"], "4\n3\nq\n");
    let saved = saved.unwrap();
    assert!(
        saved.starts_with(b"7 6 4\n4\n"),
        "{}",
        String::from_utf8_lossy(&saved)
    );
    assert_eq!(saved.iter().filter(|&&b| b == b'\n').count(), 1 + 4);
    assert_eq!(judge_bytes(&saved).code().number(), 3);
    assert_eq!(out.matches("engine plays").count(), 2);
    assert!(out.contains("saved 4 moves"));
}

#[test]
fn undo_takes_back_your_move_and_the_reply() {
    let (out, saved) = play(&["--level", "easy"], "4\nu\n5\nq\n");
    let saved = String::from_utf8(saved.unwrap()).unwrap();
    let moves: Vec<&str> = saved.lines().skip(1).collect();
    assert_eq!(moves.len(), 2, "{saved}");
    assert_eq!(moves[0], "5");
    assert!(out.contains("engine plays"));
}

#[test]
fn bad_input_is_refused_politely() {
    let (out, _) = play(
        &["--width", "3", "--height", "2", "--connect", "3"],
        "9\nx\n1\n1\n1\nq\n",
    );
    assert!(out.contains("type a column from 1 to 3, u or q"));
    assert!(out.contains("column 1 is full"));
}

#[test]
fn a_line_that_is_not_text_is_asked_again() {
    // Not UTF-8, then a line longer than any command: neither ends the
    // game; the move after them is played.
    let long = "4".repeat(100_000);
    let scratch = Scratch::new("play-not-text");
    let save = scratch.path("game.txt");
    let mut script = b"\xff\n".to_vec();
    script.extend_from_slice(format!("{long}\n3\nq\n").as_bytes());
    let out = run_cz(
        &["play", "--level", "easy", "--save", save.to_str().unwrap()],
        &script,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("type a column from 1 to 7, u or q").count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("engine plays").count(), 1, "{text}");
    let saved = std::fs::read_to_string(&save).unwrap();
    assert_eq!(saved.lines().nth(1), Some("3"), "{saved}");
}

#[test]
fn the_perfect_engine_beats_a_careless_human_and_the_file_agrees() {
    // On 5 x 4 with lines of 3 the side to move first wins; the engine
    // moves first and the human keeps playing column 1.
    let (out, saved) = play(
        &[
            &["--level", "perfect", "--first", "engine"],
            &FRAME_5X4_3[..],
        ]
        .concat(),
        &"1\n".repeat(20),
    );
    assert!(out.contains("game over: the engine wins"), "{out}");
    // The final board is drawn with its counters, the winning run in capitals.
    let last_board = &out[out.rfind("engine plays").unwrap()..];
    assert_eq!(last_board.matches('X').count(), 3, "{out}");
    assert!(out.contains("engine plays 3 (exact: wins"), "{out}");
    assert_eq!(judge_bytes(&saved.unwrap()).code().number(), 1);
}

#[test]
fn the_perfect_engine_on_a_frame_without_a_plan_says_when_its_move_is_not_proven() {
    // The empty 8 x 7 frame takes minutes to prove: the engine thinks within
    // its budget, then plays the medium search's move and says so.
    let (out, saved) = play(
        &[
            "--level", "perfect", "--first", "engine", "--width", "8", "--height", "7",
        ],
        "q\n",
    );
    assert!(
        out.contains(connectz_games::engine::thinking_words(
            connectz_games::solver::Shape {
                width: 8,
                height: 7,
                z: 4
            }
        )),
        "{out}"
    );
    assert!(
        out.contains(
            "(not proven: no exact answer within 12,000,000 nodes, so the medium search chose it"
        ),
        "{out}"
    );
    assert!(saved.unwrap().starts_with(b"8 7 4\n"));
}
