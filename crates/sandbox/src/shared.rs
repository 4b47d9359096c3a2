//! What a box may take of what the whole machine shares: its file table.
//!
//! Every open file (a descriptor, and a file a mapping keeps open after its
//! descriptor is closed) takes an entry of the kernel's file table, which
//! every process of the machine shares: once it is full, every ordinary
//! process gets `ENFILE`, a classmate's run and the grader included. A box
//! holds at most `processes` processes (each thread counts), each with at
//! most [`OPEN_FILES`](crate::OPEN_FILES) descriptors and
//! `vm.max_map_count` mappings, so at most [`files_per_box`] entries; the
//! grader runs no more boxes at once than keep them all to three quarters
//! of the table's free entries ([`boxes_at_once`]), leaving a quarter to
//! every other process of the machine. The memory group of a box (as root) charges these
//! entries too, but a box's memory is far larger than the table's share.

use std::fs;

/// Mappings one process may make (`vm.max_map_count`), and the kernel's
/// default when it cannot be read.
fn max_map_count() -> u64 {
    read_number("/proc/sys/vm/max_map_count").unwrap_or(65_530)
}

/// The size of the machine's file table (`fs.file-max`), and the entries
/// in use now (`fs.file-nr`'s first field); `None` when unreadable.
fn file_table() -> Option<(u64, u64)> {
    let text = fs::read_to_string("/proc/sys/fs/file-nr").ok()?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().ok());
    let used = fields.next()??;
    let max = fields.nth(1)??;
    Some((max, used))
}

fn read_number(path: &str) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The most entries of the machine's file table a box of `processes`
/// processes can hold: each process's descriptors and mappings.
pub fn files_per_box(processes: u64) -> u64 {
    processes.saturating_mul(crate::OPEN_FILES.saturating_add(max_map_count()))
}

/// The share of the file table's free entries that all boxes together may
/// hold.
fn boxes_share(free: u64) -> u64 {
    free / 4 * 3
}

/// How many boxes of `processes` processes may run at once so that all of
/// them together hold at most three quarters of the file table's free
/// entries (at least one). `None` when the table cannot be read.
pub fn boxes_at_once(processes: u64) -> Option<usize> {
    let (max, used) = file_table()?;
    let free = max.saturating_sub(used);
    let boxes = boxes_share(free) / files_per_box(processes).max(1);
    Some(usize::try_from(boxes).unwrap_or(usize::MAX).max(1))
}

/// True when one box of `processes` processes could take more than three
/// quarters of the file table's free entries: the table is then not
/// bounded by these limits, and the isolation line says so.
pub fn one_box_exceeds(processes: u64) -> bool {
    file_table()
        .is_some_and(|(max, used)| files_per_box(processes) > boxes_share(max.saturating_sub(used)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound grows with each process, and the machine's own numbers
    /// are read.
    #[test]
    fn a_box_holds_its_processes_descriptors_and_mappings() {
        let one = files_per_box(1);
        assert_eq!(one, crate::OPEN_FILES + max_map_count());
        assert_eq!(files_per_box(8), 8 * one);
        assert!(max_map_count() > 0);
        if let Some((max, used)) = file_table() {
            assert!(max > used, "{max} {used}");
            let boxes = boxes_at_once(8).unwrap();
            assert!(boxes >= 1);
            let free = max - used;
            assert!(boxes as u64 * files_per_box(8) <= boxes_share(free) || boxes == 1);
        }
    }
}
