//! The search player: depth-limited alpha-beta with the game's heuristic at the horizon.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::game::Game;
use crate::solve::search::limited;
use crate::value::WIN_SCORE;
use crate::Error;

/// Looks a fixed number of moves ahead.
pub struct Search {
    depth: u32,
    rng: StdRng,
}

impl Search {
    /// A player searching `depth` moves ahead, breaking ties with `seed`.
    pub fn new(depth: u32, seed: u64) -> Self {
        Search {
            depth: depth.max(1),
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Player<G> for Search {
    fn name(&self) -> String {
        format!("search{}", self.depth)
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mover = game.to_move(p);
        let bound = WIN_SCORE + 1_000;
        let scored: Vec<(G::Move, i32)> = game
            .legal_moves(p)
            .into_iter()
            .map(|m| {
                let child = game.play(p, &m);
                let s = limited(game, &child, self.depth - 1, -bound, bound);
                (m, if game.to_move(&child) == mover { s } else { -s })
            })
            .collect();
        best_at_random(&scored, &mut self.rng)
    }
}
