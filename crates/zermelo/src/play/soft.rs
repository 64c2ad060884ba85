//! The soft player: a move drawn by a softmax over the exact values of the moves at a
//! temperature, a player good but not perfect whose strength is one number: at
//! temperature 0 it plays a best move (like the perfect player), and the higher the
//! temperature the more often it plays worse ones.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::Player;
use crate::game::Game;
use crate::Error;

/// The legal moves of a position, each with its exact worth to the player making it (the
/// margin in score games, else 1 for a win, 0 for a draw and -1 for a loss).
pub type MoveWorths<'a, G> =
    Box<dyn FnMut(&G, &<G as Game>::Position) -> Result<Vec<(<G as Game>::Move, f64)>, Error> + 'a>;

/// Plays move `m` with probability proportional to `exp(worth(m) / T)`.
pub struct Soft<'a, G: Game> {
    worths: MoveWorths<'a, G>,
    temperature: f64,
    rng: StdRng,
}

impl<'a, G: Game> Soft<'a, G> {
    /// The soft player at `temperature` (0 or more), valuing moves by `worths`, its
    /// choices following from `seed`.
    pub fn new(worths: MoveWorths<'a, G>, temperature: f64, seed: u64) -> Self {
        Soft {
            worths,
            temperature,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The temperature of `soft:T`'s `T`, or why it is none.
    pub fn temperature(text: &str) -> Result<f64, Error> {
        text.parse::<f64>()
            .ok()
            .filter(|t| t.is_finite() && *t >= 0.0)
            .ok_or_else(|| {
                Error::Unsupported(format!("soft:{text}: the temperature must be a number from 0 up"))
            })
    }
}

impl<G: Game> Player<G> for Soft<'_, G> {
    fn name(&self) -> String {
        format!("soft:{}", self.temperature)
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let moves = (self.worths)(game, p)?;
        let best = moves.iter().map(|(_, w)| *w).fold(f64::NEG_INFINITY, f64::max);
        // Weights relative to the best move, so that none overflows; at temperature 0
        // only the best moves weigh.
        let weights: Vec<f64> = moves
            .iter()
            .map(|(_, w)| match self.temperature {
                t if t > 0.0 => ((w - best) / t).exp(),
                _ => f64::from(u8::from(*w == best)),
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if moves.is_empty() || total <= 0.0 {
            return Err(Error::bad_move("", "no legal move in this position"));
        }
        let mut pick = self.rng.gen_range(0.0..total);
        for ((m, _), w) in moves.iter().zip(&weights) {
            if pick < *w {
                return Ok(m.clone());
            }
            pick -= w;
        }
        let (m, _) = moves.last().expect("a move");
        Ok(m.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::Mnk;

    #[test]
    fn at_temperature_zero_only_the_best_moves_are_played_and_hot_ones_spread() {
        let game = Mnk::tictactoe();
        let start = game.start();
        // The centre is worth most here; every other move less.
        let worths = || -> MoveWorths<'static, Mnk> {
            Box::new(|g: &Mnk, p| {
                Ok(g.legal_moves(p)
                    .into_iter()
                    .map(|m| (m, f64::from(u8::from(m == 4))))
                    .collect())
            })
        };
        let mut cold = Soft::new(worths(), 0.0, 1);
        for _ in 0..50 {
            assert_eq!(cold.choose(&game, &start).unwrap(), 4);
        }
        let mut hot = Soft::new(worths(), 100.0, 1);
        let others = (0..200)
            .filter(|_| hot.choose(&game, &start).unwrap() != 4)
            .count();
        assert!(others > 100, "{others}");
        assert!(Soft::<Mnk>::temperature("-1").is_err() && Soft::<Mnk>::temperature("x").is_err());
    }
}
