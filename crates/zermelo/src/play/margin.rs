//! The perfect player of score games: the move that leaves the largest final score lead
//! (so a winning move when there is one, else a drawing one), choosing at random,
//! reproducibly, among equally good moves.

use std::hash::Hash;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::game::Scored;
use crate::solve::margin::MarginSearch;
use crate::Error;

/// Builds the exact margin search a player asks for each move.
pub type SearchFn<G, K> = for<'g> fn(&'g G) -> MarginSearch<'g, G, K>;

/// Plays the move with the best exact margin.
pub struct BestMargin<G: Scored, K> {
    search: SearchFn<G, K>,
    rng: StdRng,
}

impl<G: Scored, K> BestMargin<G, K> {
    /// A player searching with `search`, breaking ties with `seed`.
    pub fn new(search: SearchFn<G, K>, seed: u64) -> Self {
        BestMargin {
            search,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Scored, K: Hash + Eq> Player<G> for BestMargin<G, K> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let ranked = (self.search)(game).rank_moves(p);
        best_at_random(&ranked, &mut self.rng)
    }
}
