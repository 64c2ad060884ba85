//! zermelo: strongly solve, play and analyse two-player games of perfect information.
//!
//! Data flows one way: a game ([`games`]) is solved by a generic solver ([`solve`]) into
//! values or tables ([`table`]), which players ([`play`]) and analyses ([`analysis`]) use.

pub mod analysis;
pub mod balance_map;
pub mod catalog;
pub mod chart;
pub mod class;
pub mod command;
pub mod conformance;
pub mod design;
pub mod error;
pub mod explicit;
pub mod game;
pub mod games;
pub mod limits;
pub mod picture;
pub mod play;
pub mod schema;
pub mod session;
pub mod solve;
pub mod spec;
pub mod table;
pub mod value;

pub use class::Class;
pub use error::Error;
pub use game::{Game, Impartial, Indexed, Levelled, Notation, Outcome, PlayerId, Scored, Symmetric};
pub use spec::Spec;
pub use value::Value;

/// Runs solves, searches, sweeps and self-play on `threads` threads from now on (the
/// default is one per core, or `RAYON_NUM_THREADS`). Values, tables and estimates do not
/// depend on it. It can be set once, before the first work that runs on several threads.
/// More than [`limits::MAX_THREADS`] are refused.
pub fn set_threads(threads: usize) -> Result<(), Error> {
    let threads = limits::threads(threads as u64)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|_| {
            Error::Unsupported(format!(
                "the threads are set once, before the first solve; they are {} now",
                rayon::current_num_threads()
            ))
        })
}
