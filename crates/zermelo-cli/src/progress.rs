//! Progress bars with an ETA on a terminal, hidden when output is piped or JSON.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    /// What the spinner shows, before a search's own line.
    what: String,
    /// When a line of a search's progress was last printed without a terminal.
    printed: Mutex<Instant>,
}

/// How often a search's progress is printed without a terminal.
const LINE_EVERY: Duration = Duration::from_secs(60);

impl BarProgress {
    /// Progress shown on a terminal when `show` is set, from the library's first phase.
    pub fn new(show: bool) -> Self {
        BarProgress {
            show,
            bar: Mutex::new(None),
            what: String::new(),
            printed: Mutex::new(Instant::now()),
        }
    }

    /// Progress that shows `what` with the time taken at once, until the library starts a
    /// phase of known length (a search has none: its spinner runs to the end).
    pub fn spinning(show: bool, what: &str) -> Self {
        let spinner = if show && std::io::stderr().is_terminal() {
            let s = ProgressBar::new_spinner();
            s.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template"),
            );
            s.set_message(what.to_string());
            s.enable_steady_tick(Duration::from_millis(200));
            s
        } else {
            ProgressBar::hidden()
        };
        BarProgress {
            show,
            bar: Mutex::new(Some(spinner)),
            what: what.to_string(),
            printed: Mutex::new(Instant::now()),
        }
    }
}

impl BarProgress {
    /// Clears the bar or spinner shown, if any (a later phase shows a new one): before a
    /// prompt, so that no bar redraws over it.
    pub fn clear(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}

impl Progress for BarProgress {
    fn start(&self, what: &str, len: u64) {
        let mut held = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if held.as_ref().is_some_and(|b| b.length().is_none()) {
            // A spinner gives way to a bar.
            held.take().expect("a spinner").finish_and_clear();
        }
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

    /// On a terminal, the spinner's line; without one, a line on stderr every minute.
    fn note(&self, line: &str) {
        if !self.show {
            return;
        }
        let text = if self.what.is_empty() {
            line.to_string()
        } else {
            format!("{}: {line}", self.what)
        };
        if let Some(bar) = self
            .bar
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .filter(|bar| !bar.is_hidden())
        {
            bar.set_message(text);
            return;
        }
        if std::io::stderr().is_terminal() {
            return;
        }
        let mut printed = self.printed.lock().unwrap_or_else(|e| e.into_inner());
        if printed.elapsed() >= LINE_EVERY {
            *printed = Instant::now();
            eprintln!("{text}");
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
