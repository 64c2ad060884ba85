//! The perfect player of score games: the move that leaves the largest final score lead
//! (so a winning move when there is one, else a drawing one), choosing at random,
//! reproducibly, among equally good moves.

use std::hash::Hash;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, Player};
use crate::game::Scored;
use crate::solve::margin::MarginSearch;
use crate::solve::margin_table::{MarginIndexed, MarginTable};
use crate::solve::Limit;
use crate::Error;

/// Builds the exact margin search a player asks for each move.
pub type SearchFn<G, K> = for<'g> fn(&'g G) -> MarginSearch<'g, G, K>;

/// Plays the move with the best exact margin.
pub struct BestMargin<G: Scored, K> {
    search: SearchFn<G, K>,
    limit: Limit,
    rng: StdRng,
}

impl<G: Scored, K> BestMargin<G, K> {
    /// A player searching with `search`, breaking ties with `seed`.
    pub fn new(search: SearchFn<G, K>, seed: u64) -> Self {
        BestMargin {
            search,
            limit: Limit::default(),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The same player, giving up (with an error) when a move's search reaches `limit`.
    pub fn with_limit(mut self, limit: Limit) -> Self {
        self.limit = limit;
        self
    }
}

impl<G: Scored, K: Hash + Eq> Player<G> for BestMargin<G, K> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mut search = (self.search)(game).with_limit(self.limit.clone());
        let ranked = search.rank_moves(p);
        if search.stopped() {
            return Err(Error::TooBig(
                "the perfect player's search reached its limit".into(),
            ));
        }
        best_at_random(&ranked, &mut self.rng)
    }
}

/// Plays the move with the best margin from a solved margin table.
pub struct TableMargin {
    table: Arc<MarginTable>,
    rng: StdRng,
}

impl TableMargin {
    /// A player reading `table`, breaking ties with `seed`.
    pub fn new(table: Arc<MarginTable>, seed: u64) -> Self {
        TableMargin {
            table,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: MarginIndexed> Player<G> for TableMargin {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let ranked = self.table.rank_moves(game, p)?;
        best_at_random(&ranked, &mut self.rng)
    }
}
