//! zermelo: strongly solve, play and analyse two-player games of perfect information.
//!
//! Data flows one way: a game ([`games`]) is solved by a generic solver ([`solve`]) into
//! values or tables ([`table`]), which players ([`play`]) and analyses ([`analysis`]) use.

pub mod analysis;
pub mod balance;
pub mod catalog;
pub mod error;
pub mod game;
pub mod games;
pub mod picture;
pub mod play;
pub mod session;
pub mod solve;
pub mod spec;
pub mod table;
pub mod value;

pub use error::Error;
pub use game::{Game, Impartial, Indexed, Levelled, Notation, Outcome, PlayerId, Scored, Symmetric};
pub use spec::Spec;
pub use value::Value;
