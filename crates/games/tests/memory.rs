//! r[board.memory]: judging a grid asks for at most
//! `BYTES_PER_CELL` bytes a cell, counted by the allocator itself (each
//! thread counts its own, so tests running beside this one do not add to
//! it); reading an opening book, a bounded number of bytes an entry.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use connectz_games::snapshot::{Answer, BYTES_PER_CELL, judge_grid};

struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add(bytes: isize) {
    let _ = HELD.try_with(|held| {
        held.set(held.get() + bytes);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(held.get())));
    });
}

// SAFETY: every call is passed to the system allocator unchanged; the
// counting touches only const-initialised thread locals, which allocate
// nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The most bytes held at once while judging `grid`, beyond those held
/// before.
fn peak_while_judging(grid: &[u8], z: usize) -> (usize, Answer) {
    let before = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let (_, judgement) = judge_grid(grid, z, None, None, true).unwrap();
    let peak = PEAK.with(Cell::get) - before;
    (peak as usize, judgement.answer)
}

#[test]
fn judging_holds_at_most_the_bytes_a_cell_said() {
    let n = 1_000_000;
    let column: String = (0..n)
        .map(|k| if k % 2 == 0 { "o\n" } else { "x\n" })
        .collect();
    let square: String = (0..1000)
        .map(|r| if r % 2 == 0 { "xo".repeat(500) } else { "ox".repeat(500) } + "\n")
        .collect();
    let cases = [
        // One row, equal counts: both readings are judged.
        ("a row", "xo".repeat(n / 2) + "\n", 4, Answer::Draw),
        // A run: the search before its last counter.
        (
            "a row with a run",
            "xxxxooo".to_string() + &"xo".repeat((n - 7) / 2) + "\n",
            4,
            Answer::FirstWins,
        ),
        ("a column", column, 4, Answer::Draw),
        ("a square", square, 1001, Answer::Draw),
    ];
    for (name, grid, z, answer) in cases {
        let cells = grid.bytes().filter(u8::is_ascii_alphanumeric).count();
        let (peak, got) = peak_while_judging(grid.as_bytes(), z);
        assert_eq!(got, answer, "{name}");
        // A few kilobytes of fixed cost beside the cells.
        let bound = cells * BYTES_PER_CELL + (64 << 10);
        assert!(
            peak <= bound,
            "{name}: {peak} bytes for {cells} cells, {:.1} a cell, over {BYTES_PER_CELL}",
            peak as f64 / cells as f64
        );
        eprintln!(
            "{name}: {cells} cells, peak {peak} bytes, {:.1} a cell",
            peak as f64 / cells as f64
        );
    }
}

/// Reading a packed book (the shipped one, and the check of every score
/// against its children) holds at most `PEAK_PER_ENTRY` bytes an entry at
/// once: the walk of the positions (24 bytes a position it meets, on 7 x
/// 6's 64-bit words), one level's set of keys seen and the scores; and
/// keeps `KEPT_PER_ENTRY`: the scores, sorted, each its key and its score
/// in 8 bytes. Before, each position of the walk held its frame's masks and
/// every key took 32 bytes: the depth-9 book's reading peaked at 434 bytes
/// an entry and kept 49; with 48-byte nodes and a map of scores, the
/// depth-10 book's peaked at 142 and kept 36.
#[test]
fn reading_a_book_holds_a_bounded_number_of_bytes_an_entry() {
    const PEAK_PER_ENTRY: usize = 80;
    const KEPT_PER_ENTRY: usize = 8;
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/book/7x6.czb")).unwrap();
    let before = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let book = connectz_games::book::Book::from_packed(&bytes).unwrap();
    let peak = (PEAK.with(Cell::get) - before) as usize;
    let kept = (HELD.with(Cell::get) - before) as usize;
    let entries = book.len();
    assert_eq!(entries, 988_231);
    eprintln!(
        "the shipped book: {entries} entries, peak {peak} bytes ({:.1} an entry), kept {kept} ({:.1} an entry)",
        peak as f64 / entries as f64,
        kept as f64 / entries as f64
    );
    assert!(
        peak <= entries * PEAK_PER_ENTRY,
        "{peak} bytes at once for {entries} entries, {:.1} an entry",
        peak as f64 / entries as f64
    );
    assert!(
        kept <= entries * KEPT_PER_ENTRY,
        "{kept} bytes kept for {entries} entries, {:.1} an entry",
        kept as f64 / entries as f64
    );
}
