//! The budget every job runs under (memory, time, a cancel flag), and its one conversion
//! to what a search honours: [`Budget::limit`] and [`Budget::table_bytes`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Limit, Setup, TABLE_BYTES};
pub use crate::error::bytes_text;
use crate::error::{Limit as Named, Part, Said};
use crate::Error;

/// What a job may take: memory always, time only where a caller waits (a web request), and
/// a flag set from outside to stop it.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Bytes of memory, `None` for the machine's.
    pub memory: Option<u64>,
    /// Seconds of work, `None` for no limit.
    pub seconds: Option<f64>,
    /// Set from outside to stop the work (a client went away, Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
    /// When the whole job must have ended (a request's work, started at a known time),
    /// whatever its parts take: every part's deadline ([`Budget::limit`]) is the sooner of
    /// this and its `seconds` from when it starts. `None`: each part has its `seconds`.
    pub ends: Option<Instant>,
}

/// The whole machine, no time limit, no cancel flag.
impl Default for Budget {
    fn default() -> Self {
        Budget {
            memory: None,
            seconds: None,
            cancel: None,
            ends: None,
        }
    }
}

impl Budget {
    /// The same budget with `bytes` of memory.
    pub fn with_memory(self, bytes: u64) -> Self {
        Budget {
            memory: Some(bytes),
            ..self
        }
    }

    /// Bytes of memory a job may take.
    pub fn bytes(&self) -> u64 {
        self.memory.or_else(machine_memory).unwrap_or(u64::MAX)
    }

    /// Bytes a search's table may take: all of the memory when it was given, else at most
    /// [`TABLE_BYTES`].
    pub fn table_bytes(&self) -> u64 {
        self.memory.unwrap_or(TABLE_BYTES.min(self.bytes()))
    }

    /// The limit a search keeping `entry_bytes` a position runs under: the memory, the
    /// time from now (up to when the job [`ends`](Budget::ends)) and the cancel flag.
    pub fn limit(&self, entry_bytes: u64) -> Limit {
        // A time too long for the clock is no limit (front ends refuse it first:
        // [`crate::limits::Seconds`]).
        let from_now = self.seconds.and_then(|s| {
            let d = Duration::try_from_secs_f64(s).ok()?;
            Instant::now().checked_add(d)
        });
        Limit {
            positions: usize::try_from(self.bytes() / entry_bytes.max(1)).ok(),
            deadline: match (from_now, self.ends) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            cancel: self.cancel.clone(),
        }
    }

    /// The time from now and the cancel flag, with no bound on positions: for work that
    /// keeps nothing per position (a depth-limited search, playouts).
    pub fn clock(&self) -> Limit {
        Limit {
            positions: None,
            ..self.limit(1)
        }
    }

    /// How a search keeping `entry_bytes` a position in its map is set up: under
    /// [`Budget::limit`], its fixed-size table of [`Budget::table_bytes`], no progress.
    pub fn setup(&self, entry_bytes: u64) -> Setup {
        Setup {
            limit: self.limit(entry_bytes),
            bytes: self.table_bytes(),
            progress: None,
            book: None,
            checkpoint: None,
        }
    }

    /// Whether the cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Refuses `cost` when it is over the budget, saying what it needs and how to go on.
    pub fn check(&self, what: &str, cost: Cost) -> Result<(), Error> {
        let bytes = self.bytes();
        if cost.bytes > bytes {
            let (needs, _) = two_sizes(cost.bytes, bytes);
            return Err(over(
                format!("{what} needs about {needs} of memory, more than "),
                Named::Memory {
                    bytes,
                    given: self.memory.is_some(),
                },
            ));
        }
        if let Some(limit) = self.seconds.filter(|&s| cost.seconds > s) {
            return Err(over(
                format!(
                    "{what} would take about {:.0} s, more than ",
                    cost.seconds.max(1.0)
                ),
                Named::Seconds(limit),
            ));
        }
        Ok(())
    }

    /// The error for `what`, a search that stopped at [`Budget::limit`].
    pub fn stopped(&self, what: &str) -> Error {
        if self.cancelled() {
            return Error::Cancelled;
        }
        over(
            format!("{what} is more than "),
            Named::Budget {
                bytes: self.bytes(),
                given: self.memory.is_some(),
                seconds: self.seconds,
            },
        )
    }

    /// `e`, or when it says that a search stopped at its limit ([`Error::TooBig`],
    /// [`Error::Cancelled`]), the error of [`Budget::stopped`] for `what`.
    pub fn stopped_as(&self, e: Error, what: &str) -> Error {
        match e {
            Error::TooBig(_) | Error::Cancelled => self.stopped(what),
            e => e,
        }
    }
}

/// The refusal that says `text`, then `limit`, then how to go on elsewhere: the limit and
/// the way on named by each front end ([`crate::error::Words`]).
pub fn over(text: String, limit: Named) -> Error {
    Error::TooBig(Said(vec![Part::Text(text), Part::Limit(limit), Part::Elsewhere]))
}

/// Two sizes as text, in bytes where they would read alike (not "1 MiB, more than the
/// 1 MiB").
fn two_sizes(a: u64, b: u64) -> (String, String) {
    let (ta, tb) = (bytes_text(a), bytes_text(b));
    if ta == tb {
        (format!("{a} bytes"), format!("{b} bytes"))
    } else {
        (ta, tb)
    }
}

/// What solving something will cost, estimated before starting.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, schemars::JsonSchema)]
pub struct Cost {
    /// Positions to solve or visit (an estimate for searches).
    pub positions: u64,
    /// Memory in bytes.
    pub bytes: u64,
    /// Seconds on this machine (an estimate).
    pub seconds: f64,
}

/// The memory this machine has, from `/proc/meminfo`, read once a process.
pub fn machine_memory() -> Option<u64> {
    static MEMORY: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *MEMORY.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    })
}
