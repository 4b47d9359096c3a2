use super::board::{base64, svg_size};
use super::clauses::markdown;

#[test]
fn base64_matches_the_standard() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
}

#[test]
fn markdown_makes_paragraphs_lists_and_code() {
    assert_eq!(
        markdown("A `x<y` b.\nmore\n\n- one\n- two `2`\n"),
        "<p>A <code>x&lt;y</code> b. more</p><ul><li>one</li><li>two <code>2</code></li></ul>"
    );
}

#[test]
fn svg_size_reads_the_root() {
    assert_eq!(
        svg_size("<svg xmlns=\"x\" width=\"575\" height=\"532.4\">"),
        (575, 532)
    );
}
