//! Players, matches and tournaments, generic over games.

pub mod command;
pub mod external;
pub mod greedy;
mod groups;
pub mod human;
pub mod margin;
pub mod matches;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod scored;
pub mod search;
pub mod soft;

pub use matches::{play_match, tournament, MatchRecord, Results, SeatRecord, Standing, TournamentResult};

use rand::seq::SliceRandom;
use rand::Rng;

use crate::game::Game;
use crate::Error;

/// A move of highest score, chosen uniformly among equals with `rng`; an error when
/// there is no move at all.
pub fn best_at_random<M: Clone, S: Ord + Copy>(scored: &[(M, S)], rng: &mut impl Rng) -> Result<M, Error> {
    let best = scored
        .iter()
        .map(|(_, s)| *s)
        .max()
        .ok_or_else(|| Error::bad_move("", "no legal move in this position"))?;
    let equal: Vec<&M> = scored
        .iter()
        .filter(|(_, s)| *s == best)
        .map(|(m, _)| m)
        .collect();
    Ok((*equal.choose(rng).expect("a best move")).clone())
}

/// The error of a perfect player whose search reached its limit.
fn search_stopped() -> Error {
    Error::too_big("the perfect player's search reached its limit")
}

/// Something that chooses moves.
pub trait Player<G: Game> {
    /// A short name for tables and logs.
    fn name(&self) -> String;
    /// A legal move for the player to move in the non-terminal position `p`.
    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error>;
    /// Refuses, before any work starts, a move in `p` that asks for more than the player's
    /// budget allows (a request's seconds): `mcts:60s` under a budget of 2 s, a search
    /// too deep to end in time. Players whose work is bounded by the position accept.
    fn check(&self, game: &G, p: &G::Position) -> Result<(), Error> {
        let _ = (game, p);
        Ok(())
    }
    /// A move in `p` after [`Player::choose`] stopped at its budget's limit, with a note
    /// saying how it was chosen, for a caller that must answer in time; `None` (the
    /// default) when the player has none and the stop stands.
    fn fallback(&mut self, game: &G, p: &G::Position) -> Option<(G::Move, String)> {
        let _ = (game, p);
        None
    }
}
