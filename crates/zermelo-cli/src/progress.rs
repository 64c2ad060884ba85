//! Progress bars with an ETA on a terminal, hidden when output is piped or JSON.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use zermelo::solve::Progress;

/// A progress bar on stderr when it is a terminal and `show` is set; hidden otherwise.
pub fn bar(show: bool, len: u64, unit: &str) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{msg}} [{{bar:40}}] {{human_pos}}/{{human_len}} {unit} ({{elapsed}}, ETA {{eta}})"
        ))
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Library progress on an indicatif bar, shown from the first phase the library starts
/// and cleared when dropped.
pub struct BarProgress {
    show: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl BarProgress {
    /// Progress shown on a terminal when `show` is set.
    pub fn new(show: bool) -> Self {
        BarProgress {
            show,
            bar: Mutex::new(None),
        }
    }
}

impl Progress for BarProgress {
    fn start(&self, what: &str, len: u64) {
        let mut held = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        let bar = held.get_or_insert_with(|| bar(self.show, len, ""));
        bar.set_message(what.to_string());
        bar.set_length(len);
        bar.set_position(0);
    }

    fn advance(&self, steps: u64) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            bar.inc(steps);
        }
    }
}

impl Drop for BarProgress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}
