//! The greedy player for score games: the move with the best immediate gain in its own
//! score, choosing at random, reproducibly, among equal gains.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::game::Scored;
use crate::Error;

/// Plays the move that raises its own score the most.
pub struct Greedy {
    rng: StdRng,
}

impl Greedy {
    /// A greedy player breaking ties with `seed`.
    pub fn new(seed: u64) -> Self {
        Greedy {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Scored> Player<G> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mover = game.to_move(p);
        let scored: Vec<(G::Move, i32)> = game
            .legal_moves(p)
            .into_iter()
            .map(|m| {
                let s = game.score(&game.play(p, &m), mover);
                (m, s)
            })
            .collect();
        best_at_random(&scored, &mut self.rng)
    }
}
