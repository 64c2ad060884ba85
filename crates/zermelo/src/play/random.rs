//! The random player: a uniformly random legal move, reproducible from a seed; and a
//! player that plays another's move only some of the time, a random move otherwise.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

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

/// Plays `inner`'s move with probability `p` and a uniformly random legal move
/// otherwise: a weaker player for every strength between random (0) and `inner` (1).
pub struct Sometimes<'g, G: Game> {
    inner: Box<dyn Player<G> + 'g>,
    p: f64,
    random: Random,
}

impl<'g, G: Game> Sometimes<'g, G> {
    /// `inner` with probability `p` (from 0 to 1), random choices following from `seed`.
    pub fn new(inner: Box<dyn Player<G> + 'g>, p: f64, seed: u64) -> Self {
        Sometimes {
            inner,
            p,
            random: Random::new(seed ^ 0x5eed),
        }
    }
}

impl<G: Game> Player<G> for Sometimes<'_, G> {
    fn name(&self) -> String {
        format!("{}:{}", self.inner.name(), self.p)
    }

    /// The inner player's refusal: it may be asked for any move.
    fn check(&self, game: &G, p: &G::Position) -> Result<(), Error> {
        self.inner.check(game, p)
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        if self.random.rng.gen_bool(self.p) {
            self.inner.choose(game, p)
        } else {
            self.random.choose(game, p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::mnk::Mnk;
    use crate::play::perfect::{rank_moves, Perfect};
    use crate::solve::search::AlphaBeta;

    /// How many of 200 moves from a tic-tac-toe position with one winning reply are best
    /// when the perfect player is asked with probability `p`.
    fn best_moves(p: f64) -> usize {
        let game = Mnk::new(3, 3, 3).unwrap();
        let position = ["a1", "b2", "c3", "a3"].iter().fold(game.start(), |q, m| {
            game.play(&q, &game.parse_move(&q, m).unwrap())
        });
        let ranked = rank_moves(&game, &mut AlphaBeta::symmetric(&game), &position).unwrap();
        let best = ranked[0].1;
        let inner = Box::new(Perfect::new(AlphaBeta::symmetric(&game), 2));
        let mut player = Sometimes::new(inner, p, 7);
        (0..200)
            .filter(|_| {
                let m = player.choose(&game, &position).unwrap();
                ranked.iter().any(|(n, v)| *n == m && *v == best)
            })
            .count()
    }

    #[test]
    fn the_probability_sets_how_often_the_inner_move_is_played() {
        assert_eq!(best_moves(1.0), 200);
        let half = best_moves(0.5);
        assert!((100..190).contains(&half), "{half} best moves of 200");
        assert!(best_moves(0.0) < 60);
    }
}
