//! The perfect player: the best move by exact value (fastest win, slowest loss),
//! choosing at random, reproducibly, among equally good moves.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::game::Game;
use crate::solve::Oracle;
use crate::value::Value;
use crate::Error;

/// Every legal move of `p` with its value for the player to move in `p`, best first; the
/// oracle's error when it cannot value a move.
pub fn rank_moves<G: Game, O: Oracle<G> + ?Sized>(
    game: &G,
    oracle: &mut O,
    p: &G::Position,
) -> Result<Vec<(G::Move, Value)>, Error> {
    let mover = game.to_move(p);
    let mut ranked = game
        .legal_moves(p)
        .into_iter()
        .map(|m| {
            let child = game.play(p, &m);
            let v = Value::from_child(oracle.value(&child)?, game.to_move(&child) == mover);
            Ok((m, v))
        })
        .collect::<Result<Vec<(G::Move, Value)>, Error>>()?;
    ranked.sort_by_key(|(_, v)| std::cmp::Reverse(*v));
    Ok(ranked)
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

    /// The best move, or the oracle's error (a search that gave up at its limit, a saved
    /// table that failed to read).
    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let ranked = rank_moves(game, &mut self.oracle, p)?;
        best_at_random(&ranked, &mut self.rng)
    }
}
