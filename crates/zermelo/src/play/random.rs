//! The random player: a uniformly random legal move, reproducible from a seed.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::Player;
use crate::game::Game;
use crate::Error;

/// Plays a uniformly random legal move.
pub struct Random {
    rng: StdRng,
}

impl Random {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> Self {
        Random {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Player<G> for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        game.legal_moves(p)
            .choose(&mut self.rng)
            .cloned()
            .ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}
