//! Memory does not grow with a line's length: move lines of megabytes are
//! judged exactly, fed in chunks, with the partial line kept small.

use connectz::FormatFault;
use connectz::{Code, Finding, Judge, judge_bytes};

const LONG_LINE: usize = 1 << 20;

fn chunked(bytes: &[u8]) -> (connectz::Report, usize) {
    let mut judge = Judge::new();
    let mut most = 0;
    for chunk in bytes.chunks(64 * 1024) {
        judge.feed(chunk);
        most = most.max(connectz::hooks::buffered(&judge));
    }
    (judge.finish(), most)
}

fn file(line: &[u8], after: &[u8]) -> Vec<u8> {
    let mut bytes = b"7 6 4\n1\n".to_vec();
    bytes.extend_from_slice(line);
    bytes.extend_from_slice(after);
    bytes
}

#[test]
fn long_lines_are_judged_exactly_in_bounded_memory() {
    let big = 3 * LONG_LINE;
    let mut zeros_then_seven = vec![b'0'; big];
    zeros_then_seven.push(b'7');
    let mut nines = vec![b'9'; big];
    nines.push(b'\n');
    let mut fault = vec![b'1'; 2 * LONG_LINE];
    fault.extend_from_slice(b"x123");
    let mut lone_cr = vec![b'0'; 2 * LONG_LINE];
    lone_cr.extend_from_slice(b"\r5");
    let all_zeros = vec![b'0'; big];
    let cases: [(&[u8], &[u8], Code); 6] = [
        (&zeros_then_seven, b"\n", Code::Incomplete),
        (&zeros_then_seven, b"\r\n2\n", Code::Incomplete),
        (&nines, b"", Code::IllegalColumn),
        (&fault, b"\n", Code::InvalidFile),
        (&lone_cr, b"\n", Code::InvalidFile),
        (&all_zeros, b"\n", Code::InvalidFile),
    ];
    for (i, (line, after, code)) in cases.into_iter().enumerate() {
        let bytes = file(line, after);
        let whole = judge_bytes(&bytes);
        let (streamed, most) = chunked(&bytes);
        assert_eq!(whole.code(), code, "case {i}");
        assert_eq!(streamed.code(), code, "case {i}");
        assert!(
            most <= 2 * LONG_LINE + 64 * 1024,
            "case {i}: {most} bytes held"
        );
        match (&whole.verdict, &streamed.verdict) {
            // A column that long is reported by its leading digits.
            (Finding::OffFrame { line: a, .. }, Finding::OffFrame { line: b, .. }) => {
                assert_eq!(a, b)
            }
            (a, b) => assert_eq!(a, b, "case {i}"),
        }
    }
    // The fault is placed exactly, dropped bytes counted.
    let (report, _) = chunked(&file(&fault, b"\n"));
    assert_eq!(
        report.verdict,
        Finding::Format {
            line: 3,
            fault: FormatFault::UnexpectedByte {
                byte: b'x',
                column: 2 * LONG_LINE + 1
            }
        }
    );
}
