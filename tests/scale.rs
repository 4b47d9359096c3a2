//! The scale suite (r[resource.board]): games whose code is known by
//! construction, at the limits of every representation the judge uses
//! (run lanes of 8 and 16 bits, columns past 2^64), on every store, with the
//! memory they take asserted. Sizes here take seconds; the bench runs larger.

use connectz::hooks::{self, Storage};
use connectz::{Keep, judge_reader_with};
use connectz_testkit::scale::{Family, Scale, boundaries};

/// Board bytes allowed, in r[resource.board]'s words: an array of the frame
/// is used from the start when it takes at most 64 MiB, and the scale suite
/// asserts "at most 64 MiB and 128 bytes a counter". The spec's numbers,
/// not the code's constants.
const UP_FRONT_BYTES: usize = 64 << 20;
/// See [`UP_FRONT_BYTES`].
const PER_COUNTER: usize = 128;

fn judge(scale: Scale, storage: Storage) -> (connectz::Report, usize) {
    let report = judge_reader_with(scale.reader(), hooks::judge(Keep::default(), storage));
    let bytes = report
        .game
        .as_ref()
        .map_or(0, |g| hooks::heap_bytes(g.board()));
    (report, bytes)
}

fn check(scale: Scale) {
    for storage in [Storage::Auto, Storage::Sparse, Storage::Dense] {
        let (report, bytes) = judge(scale, storage);
        assert_eq!(
            report.code(),
            scale.expect(),
            "{scale} on {storage:?}: {}",
            report.verdict
        );
        let moves = scale.moves() as usize;
        assert!(
            bytes <= UP_FRONT_BYTES + PER_COUNTER * moves,
            "{scale} on {storage:?}: {bytes} bytes for {moves} moves"
        );
    }
}

#[test]
fn runs_at_the_limits_of_8_and_16_bit_lanes() {
    let mut checked = 0;
    for n in boundaries(70_000) {
        for family in [Family::Vertical, Family::Row, Family::FullAfterWin] {
            check(Scale::new(family, n));
            check(Scale::new(family, n).unwon());
            checked += 2;
        }
    }
    assert_eq!(checked, 8 * 3 * 2);
}

#[test]
fn diagonals_at_the_limit_of_8_bit_lanes() {
    for n in boundaries(300) {
        check(Scale::new(Family::Staircase, n));
        check(Scale::new(Family::Staircase, n).unwon());
    }
}

#[test]
fn lines_across_two_to_the_64() {
    for n in 1..=3 {
        check(Scale::new(Family::AcrossTwoToThe64, n));
        check(Scale::new(Family::AcrossTwoToThe64, n).unwon());
    }
}

/// The input that started this suite: 65,536 counters of
/// player 1 stacked in one column, whatever else the file holds.
#[test]
fn a_stack_of_65536_wins_however_long_the_file() {
    let mut bytes = Scale::new(Family::Vertical, 65536).bytes();
    assert_eq!(connectz::judge_bytes(&bytes).code().number(), 1);
    // Legal moves after the win make it 4, not 3, on a taller frame.
    let tall =
        String::from_utf8(bytes.clone())
            .unwrap()
            .replacen("2 65536 65536", "2 1000000 65536", 1);
    bytes = tall.into_bytes();
    for _ in 0..100_000 {
        bytes.extend_from_slice(b"2\n1\n");
    }
    assert_eq!(connectz::judge_bytes(&bytes).code().number(), 4);
}

/// 2 million random moves on a 65536 x 65536 frame with runs of 65536:
/// each occupied column a stack of its own, bounded bytes per counter.
#[test]
fn a_wide_tall_frame_costs_bytes_per_counter() {
    let mut rng = connectz_rng::Rng::new(3);
    let mut bytes = b"65536 65536 65536\n".to_vec();
    let moves = 2_000_000;
    for _ in 0..moves {
        bytes.extend_from_slice(format!("{}\n", 1 + rng.below(65536)).as_bytes());
    }
    let report = connectz::judge_bytes(&bytes);
    assert_eq!(report.code().number(), 3);
    let board = report.game.as_ref().unwrap().board();
    assert_eq!(hooks::store_kind(board), ("sparse", 16));
    let per = hooks::heap_bytes(board) / moves;
    assert!(per <= 32, "{per} bytes per counter");
}
