//! r[rule.winnable] against brute force: on every frame with x*y <= 12 and
//! z <= 6, `winnable` holds exactly when some legal game ends in a win.

use std::collections::HashSet;

use connectz::winnable;

/// Does `p` own z in a row anywhere on the board? A full scan, on purpose.
fn has_run(cols: &[Vec<u8>], y: usize, z: usize, p: u8) -> bool {
    let x = cols.len();
    let at = |c: i64, r: i64| -> bool {
        c >= 0
            && r >= 0
            && (c as usize) < x
            && (r as usize) < y
            && cols[c as usize].get(r as usize) == Some(&p)
    };
    for c in 0..x as i64 {
        for r in 0..y as i64 {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if (0..z as i64).all(|k| at(c + k * dc, r + k * dr)) {
                    return true;
                }
            }
        }
    }
    false
}

/// Some legal game on the frame ends with a line (depth-first, positions memoised).
fn some_game_wins(x: usize, y: usize, z: usize) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![(vec![Vec::<u8>::new(); x], 1u8)];
    while let Some((cols, p)) = stack.pop() {
        for c in 0..x {
            if cols[c].len() == y {
                continue;
            }
            let mut next = cols.clone();
            next[c].push(p);
            if has_run(&next, y, z, p) {
                return true;
            }
            if seen.insert(next.clone()) {
                stack.push((next, 3 - p));
            }
        }
    }
    false
}

#[test]
fn winnable_matches_brute_force() {
    let mut checked = 0;
    for x in 1..=12usize {
        for y in 1..=12 / x {
            for z in 1..=6usize {
                let expected = some_game_wins(x, y, z);
                let got = winnable(&(x as u64).into(), &(y as u64).into(), &(z as u64).into());
                assert_eq!(got, expected, "frame {x} {y} {z}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}
