//! The search player: depth-limited alpha-beta with the game's heuristic at the horizon.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::error::{Limit, Part, Said};
use crate::game::Game;
use crate::solve::budget::Budget;
use crate::solve::search::limited;
use crate::value::WIN_SCORE;
use crate::Error;

/// Moves generated a second that [`Lookahead::check`] assumes: faster than any game
/// here searches, so that it refuses only searches that cannot end within the time they
/// have (a search it lets through still stops at the deadline).
pub const MOVES_PER_SECOND: f64 = 1e7;

/// Looks a fixed number of moves ahead, within a budget's time and cancel flag.
pub struct Lookahead {
    depth: u32,
    rng: StdRng,
    budget: Budget,
}

impl Lookahead {
    /// A player searching `depth` moves ahead, breaking ties with `seed`, with no limit.
    pub fn new(depth: u32, seed: u64) -> Self {
        Lookahead {
            depth: depth.max(1),
            rng: StdRng::seed_from_u64(seed),
            budget: Budget::default(),
        }
    }

    /// The same player, giving up a move at `budget`'s deadline or cancel flag, and
    /// refusing ([`Player::check`]) searches that cannot end within its seconds.
    pub fn with_budget(self, budget: Budget) -> Self {
        Lookahead { budget, ..self }
    }
}

/// The fewest moves a depth-limited alpha-beta search `depth` moves deep generates where
/// every position has `branching` moves: every inner position of the minimal tree
/// (`b^⌈i/2⌉ + b^⌊i/2⌋ − 1` positions at depth `i`, Knuth and Moore) generates all of its
/// moves.
pub fn least_moves(branching: f64, depth: u32) -> f64 {
    let b = branching.max(1.0);
    let inner: f64 = (0..depth)
        .map(|i| b.powi(i.div_ceil(2) as i32) + b.powi((i / 2) as i32) - 1.0)
        .sum();
    b * inner
}

impl<G: Game> Player<G> for Lookahead {
    fn name(&self) -> String {
        format!("search{}", self.depth)
    }

    /// Refuses a search that cannot end within the budget's seconds even at
    /// [`MOVES_PER_SECOND`]: the moves of `p`, then [`least_moves`] below each of them
    /// (every move is searched with a window of its own), as if every position had as many
    /// moves as `p`.
    fn check(&self, game: &G, p: &G::Position) -> Result<(), Error> {
        let Some(limit) = self.budget.seconds else {
            return Ok(());
        };
        let branching = game.legal_moves(p).len() as f64;
        let moves = branching * (1.0 + least_moves(branching, self.depth - 1));
        let seconds = moves / MOVES_PER_SECOND;
        if seconds > limit {
            return Err(Error::TooBig(Said(vec![
                Part::Text(format!(
                    "search:{} from this position ({branching} moves) generates at least {moves:.1e} \
                     moves, about {seconds:.0} s or more, over ",
                    self.depth
                )),
                Part::Limit(Limit::Seconds(limit)),
                Part::Text("; ask for a shallower search".into()),
            ])));
        }
        Ok(())
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mover = game.to_move(p);
        let bound = WIN_SCORE + 1_000;
        let limit = self.budget.clock();
        let mut ticks = 0;
        let mut scored = Vec::new();
        for m in game.legal_moves(p) {
            let child = game.play(p, &m);
            let s = limited(game, &child, self.depth - 1, -bound, bound, &limit, &mut ticks)
                .ok_or_else(|| self.budget.stopped(&format!("search:{}'s move", self.depth)))?;
            scored.push((m, if game.to_move(&child) == mover { s } else { -s }));
        }
        best_at_random(&scored, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::*;
    use crate::games::mnk::Mnk;

    #[test]
    fn the_least_moves_grow_with_half_the_depth() {
        assert_eq!(least_moves(10.0, 1), 10.0);
        assert_eq!(least_moves(10.0, 2), 10.0 * (1.0 + 10.0));
        assert_eq!(least_moves(10.0, 3), 10.0 * (1.0 + 10.0 + 19.0));
    }

    #[test]
    fn a_search_too_deep_for_the_budget_is_refused_before_it_starts() {
        let game = Mnk::new(8, 8, 5).unwrap();
        let budget = Budget {
            seconds: Some(2.0),
            ..Budget::default()
        };
        let deep = Lookahead::new(12, 0).with_budget(budget.clone());
        let err = Player::<Mnk>::check(&deep, &game, &game.start()).unwrap_err();
        assert!(matches!(err, Error::TooBig(_)), "{err}");
        assert!(err.to_string().contains("search:12"), "{err}");
        let shallow = Lookahead::new(2, 0).with_budget(budget);
        assert!(Player::<Mnk>::check(&shallow, &game, &game.start()).is_ok());
    }

    #[test]
    fn a_cancelled_search_stops() {
        let game = Mnk::new(8, 8, 5).unwrap();
        let budget = Budget {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Budget::default()
        };
        let mut deep = Lookahead::new(12, 0).with_budget(budget);
        let started = std::time::Instant::now();
        assert!(matches!(deep.choose(&game, &game.start()), Err(Error::Cancelled)));
        assert!(started.elapsed().as_secs_f64() < 1.0);
    }
}
