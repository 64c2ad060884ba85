//! The perfect player: the best move by exact value (fastest win, slowest loss),
//! choosing at random, reproducibly, among equally good moves.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, search_stopped, Player};
use crate::game::Game;
use crate::solve::Oracle;
use crate::value::Value;
use crate::Error;

/// Every legal move of `p` with its value for the player to move in `p`, best first.
pub fn rank_moves<G: Game, O: Oracle<G>>(game: &G, oracle: &mut O, p: &G::Position) -> Vec<(G::Move, Value)> {
    let mover = game.to_move(p);
    let mut ranked: Vec<(G::Move, Value)> = game
        .legal_moves(p)
        .into_iter()
        .map(|m| {
            let child = game.play(p, &m);
            let v = Value::from_child(oracle.value(&child), game.to_move(&child) == mover);
            (m, v)
        })
        .collect();
    ranked.sort_by_key(|(_, v)| std::cmp::Reverse(*v));
    ranked
}

/// Plays a best move according to an exact oracle.
pub struct Perfect<O> {
    oracle: O,
    rng: StdRng,
}

impl<O> Perfect<O> {
    /// A perfect player asking `oracle`, breaking ties with `seed`.
    pub fn new(oracle: O, seed: u64) -> Self {
        Perfect {
            oracle,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game, O: Oracle<G>> Player<G> for Perfect<O> {
    fn name(&self) -> String {
        "perfect".into()
    }

    /// The best move, or [`Error::TooBig`] when the oracle gave up at its limit.
    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let ranked = rank_moves(game, &mut self.oracle, p);
        if self.oracle.stopped() {
            return Err(search_stopped());
        }
        best_at_random(&ranked, &mut self.rng)
    }
}
