//! Progress a person can read: a live line on a terminal (what is being
//! graded, cases done of all, failures so far, elapsed, time left), and
//! nothing at all when standard error is not a terminal, but the summary
//! lines the caller prints.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Counts of a check or a grade in progress, shared by its runs, and the
/// live line that shows them.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    failures: AtomicUsize,
    candidates: usize,
    finished: AtomicUsize,
}

impl Progress {
    /// Progress over `cases` runs of `candidates` candidates; shown live
    /// when `live` and standard error is a terminal.
    pub fn new(cases: u64, candidates: usize, live: bool) -> Progress {
        let target = if live {
            ProgressDrawTarget::stderr_with_hz(4)
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(cases), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix} {elapsed_precise} [{bar:24}] {pos}/{len} cases, {msg}, about {eta} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_prefix("cz");
        if live {
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        let p = Progress {
            bar,
            failures: AtomicUsize::new(0),
            candidates,
            finished: AtomicUsize::new(0),
        };
        p.show();
        p
    }

    /// One case run (or skipped); `failed` when it did not pass.
    pub fn case_done(&self, failed: bool) {
        if failed {
            self.failures.fetch_add(1, Ordering::Relaxed);
            self.show();
        }
        self.bar.inc(1);
    }

    /// One candidate finished.
    pub fn candidate_done(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
        self.show();
    }

    /// A line above the live one (or on standard error alone).
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Removes the live line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn show(&self) {
        let failures = self.failures.load(Ordering::Relaxed);
        let message = if self.candidates > 1 {
            format!(
                "{} of {} candidates done, {failures} failures",
                self.finished.load(Ordering::Relaxed),
                self.candidates
            )
        } else {
            format!("{failures} failures")
        };
        self.bar.set_message(message);
    }
}
