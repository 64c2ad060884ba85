//! The perfect player: the best move by exact value (fastest win, slowest loss),
//! choosing at random, reproducibly, among equally good moves; or, by a game's prover,
//! a winning move where there is one.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::game::Game;
use crate::solve::prove::{wins_by, Prover};
use crate::solve::{Limit, Oracle};
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

/// Plays by proof: in a won position the first move, in the prover's order, after which
/// the prover shows the opponent lost; in a lost position the move the proof ranks first.
pub struct Proving<'g, G: Game> {
    prover: Box<dyn Prover<G> + 'g>,
    limit: Limit,
}

impl<'g, G: Game> Proving<'g, G> {
    /// A player asking `prover`, which stops at `limit`.
    pub fn new(prover: Box<dyn Prover<G> + 'g>, limit: Limit) -> Self {
        Proving { prover, limit }
    }
}

impl<G: Game> Player<G> for Proving<'_, G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    /// The first winning move in the prover's order, else its first move; the prover's
    /// error when it stopped at its limit.
    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let ordered = self.prover.ordered(p);
        for m in &ordered {
            if wins_by(game, self.prover.as_mut(), p, m)? {
                return Ok(m.clone());
            }
        }
        ordered
            .into_iter()
            .next()
            .ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }

    /// The move the proof ranks first, unproved.
    fn fallback(&mut self, _game: &G, p: &G::Position) -> Option<(G::Move, String)> {
        let within = if self.limit.passed() { "time" } else { "memory" };
        let first = self.prover.ordered(p).into_iter().next()?;
        Some((
            first,
            format!("no proof within the {within}: played the move the search ranks first"),
        ))
    }
}
