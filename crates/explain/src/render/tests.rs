use super::excerpt::EXCERPT_SIDE;
use super::*;
use connectz::judge_bytes_with;

fn judge(bytes: &[u8]) -> Report {
    judge_bytes_with(bytes, crate::account::keeping_board())
}

#[test]
fn long_numbers_are_elided_short_ones_kept() {
    let long = "9".repeat(100_000);
    assert_eq!(
        elide_numbers(&format!("frame: {long} columns, 6 rows")),
        "frame: 99999999…99999999 (100000 digits) columns, 6 rows"
    );
    let edge = "1".repeat(LONGEST_NUMBER);
    assert_eq!(elide_numbers(&format!("at {edge}")), format!("at {edge}"));
    let past = format!("1{edge}2");
    assert_eq!(
        elide_numbers(&past),
        format!("11111111…11111112 ({} digits)", LONGEST_NUMBER + 2)
    );
    assert_eq!(elide_numbers("a1b22c"), "a1b22c");
    let column = Nat::from_digits(past.as_bytes()).unwrap();
    assert_eq!(axis_label(&column), format!("…{}2", "1".repeat(11)));
    assert_eq!(axis_label(&Nat::from(42)), "42");
    let label = "9".repeat(LONGEST_LABEL);
    let sixteen = Nat::from_digits(label.as_bytes()).unwrap();
    assert_eq!(axis_label(&sixteen), label);
    // The judge keeps SHOWN_DIGITS + 1 digits of a longer column.
    let kept = Nat::from_digits(format!("7{}", "0".repeat(SHOWN_DIGITS)).as_bytes()).unwrap();
    assert_eq!(
        past_label(&kept),
        format!("column 70000000… (more than {SHOWN_DIGITS} digits)")
    );
    assert_eq!(past_label(&Nat::from(9)), "column 9");
}

#[test]
fn draws_counters_and_rings_the_run() {
    let report = judge(b"3 3 3\n1\n2\n1\n2\n1\n");
    let picture = svg(&report, "sample");
    assert!(picture.starts_with("<svg"));
    assert_eq!(picture.matches(r#"<circle class="one""#).count(), 3);
    assert_eq!(picture.matches(r#"<circle class="two""#).count(), 2);
    assert_eq!(picture.matches(r#"<circle class="run""#).count(), 3);
    assert!(picture.contains("code 1 (win for player 1)"));
    assert!(picture.contains("<desc id=\"desc\">"));
}

#[test]
fn a_huge_frame_is_framed_around_its_counters() {
    let report = judge(b"1000000000 1000000000 4\n1\n2\n");
    let picture = svg(&report, "huge");
    // The window holds the counters and says where it is, both ends.
    assert!(
        picture.contains("showing columns 1..12 and rows 1..8"),
        "{picture}"
    );
    assert_eq!(
        picture.matches("<circle class=\"hole\"").count(),
        12 * 8 - 2
    );
    let report = judge(b"1000 1000 4\n500\n501\n500\n501\n500\n501\n500\n");
    let picture = svg(&report, "big");
    assert!(
        picture.contains("showing columns 495..506 and rows 1..10"),
        "{picture}"
    );
}

#[test]
fn the_deciding_move_is_drawn() {
    // 4: the first move after the win is boxed.
    let svg4 = svg(&judge(b"2 3 1\n1\n2\n"), "4");
    assert!(svg4.contains(r#"<rect class="alert""#), "{svg4}");
    // 5: a ghost above the full column.
    let svg5 = svg(&judge(b"3 3 3\n1\n1\n1\n1\n"), "5");
    assert!(svg5.contains(r#"<circle class="ghost""#), "{svg5}");
    // 6: an arrow past the edge with the column.
    let svg6 = svg(&judge(b"3 3 3\n1\n9\n"), "6");
    assert!(svg6.contains(r#"<path class="alert""#) && svg6.contains("column 9"));
    // 7: why.
    let svg7 = svg(&judge(b"2 4 6\n"), "7");
    assert!(svg7.contains("why: no run of 6 fits"), "{svg7}");
    // 8: the line quoted, the byte marked.
    let bytes = b"3 3 3\n1\n2x\n";
    let report = judge(bytes);
    let excerpt = Excerpt::of(&report, &bytes[..]).unwrap();
    assert_eq!((excerpt.bytes.as_slice(), excerpt.marked), (&b"2x"[..], 1));
    let svg8 = draw(&Picture {
        report: &report,
        title: "8",
        excerpt: Some(&excerpt),
    });
    assert!(
        svg8.contains(r#">2<tspan class="fault">x</tspan></text>"#),
        "{svg8}"
    );
    assert!(svg8.contains("line 3 as written"));
}

#[test]
fn long_lines_are_excerpted() {
    let mut bytes = b"3 3 3\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'1', 100_000));
    bytes.extend_from_slice(b"x\n");
    let report = judge(&bytes);
    let e = Excerpt::of(&report, &bytes[..]).unwrap();
    assert_eq!(e.bytes[e.marked], b'x');
    assert_eq!(e.cut.0, 100_000 - EXCERPT_SIDE as u64);
    assert!(e.bytes.len() <= 2 * EXCERPT_SIDE + 1);
}
