//! Searches run to their bounds (slow tier): what `cz board` says of a
//! position its bounded search cannot settle, and of positions it must
//! search far to settle.

use connectz::judge_bytes;

use crate::support::run_cz;

fn cz(args: &[&str], stdin: Option<&[u8]>) -> String {
    let out = run_cz(args, stdin.unwrap_or(b""));
    assert!(out.status.success(), "cz {args:?} failed");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn board_search_is_exact_or_says_undecided() {
    // A 15 x 6 position: reachable (this game reaches it), once
    // called invalid after 4 million positions.
    let grid = b"..........o..../x....x....x..../x...xxxx..o..../ox..oooox.x..../ooxxxoxxxxoxxxx/oxooxoooooooooo\n";
    assert_eq!(
        cz(&["board", "--why", "--first", "x", "-z", "11"], Some(grid)),
        "first player moves\n"
    );
    let game = "15 6 11\n5\n15\n15\n14\n14\n13\n13\n12\n12\n10\n10\n9\n9\n8\n9\n7\n8\n8\n8\n6\n7\n7\n7\n6\n5\n6\n6\n5\n6\n4\n5\n3\n4\n1\n3\n1\n2\n2\n2\n1\n1\n11\n1\n11\n11\n11\n11\n11\n";
    assert_eq!(judge_bytes(game.as_bytes()).code().number(), 3);
    // A row of 40,000 counters: no recursion as deep as the input.
    let row = format!("{}\n", "xo".repeat(20_000));
    assert_eq!(cz(&["board"], Some(row.as_bytes())), "draw game\n");
    // A position the bounded search cannot settle says so, with exit status 3.
    let hard = b"x...../x...../o.x.../o.x.x./o.x.x./x.o.o./o.o.o./o.x.x./x.o.o./x.o.o./xxo.x./oox.o./xxx.o./xxx.x./xoo.o./ooo.o./oox.o./xxx.x./xxx.o./oxo.o./oox.o./xox.x./xox.x./xxo.o./oxx.o./ooo.o./oxx.x./xxoox./xxoxo./ooxox./xooxx./xxxxo./ooxxo./ooooo./oooxxx/xxoxxx/oxxxxx/oooooo/oxooox\n";
    let out = run_cz(&["board", "--first", "x", "-z", "100"], hard);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "undecided\n");
}
