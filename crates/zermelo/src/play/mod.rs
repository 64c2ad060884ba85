//! Players, matches and tournaments, generic over games.

pub mod greedy;
pub mod human;
pub mod margin;
pub mod matches;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod scored;
pub mod search;

pub use matches::{play_match, tournament, MatchRecord, Standing, TournamentResult};

use crate::game::Game;
use crate::Error;

/// Something that chooses moves.
pub trait Player<G: Game> {
    /// A short name for tables and logs.
    fn name(&self) -> String;
    /// A legal move for the player to move in the non-terminal position `p`.
    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error>;
}
