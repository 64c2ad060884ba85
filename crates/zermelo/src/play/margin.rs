//! The perfect player of score games: the move that leaves the largest final score lead
//! (so a winning move when there is one, else a drawing one), choosing at random,
//! reproducibly, among equally good moves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{best_at_random, search_stopped, Player};
use crate::game::Scored;
use crate::solve::margin::{MarginSolver, Setup};
use crate::solve::margin_table::{MarginIndexed, MarginTable};
use crate::Error;

/// Builds the exact margin solver a player asks for each move.
pub type SolverFn<G> = for<'g> fn(&'g G, &Setup) -> Box<dyn MarginSolver<G> + 'g>;

/// Plays the move with the best exact margin.
pub struct BestMargin<G: Scored> {
    solver: SolverFn<G>,
    setup: Setup,
    rng: StdRng,
}

impl<G: Scored> BestMargin<G> {
    /// A player searching with `solver`, breaking ties with `seed`.
    pub fn new(solver: SolverFn<G>, seed: u64) -> Self {
        BestMargin {
            solver,
            setup: Setup::default(),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The same player, its searches set up by `setup` (giving up, with an error, at its
    /// limit).
    pub fn with_setup(mut self, setup: Setup) -> Self {
        self.setup = setup;
        self
    }
}

impl<G: Scored> Player<G> for BestMargin<G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mut search = (self.solver)(game, &self.setup);
        let ranked = search.rank_moves(p);
        if search.stopped() {
            return Err(search_stopped());
        }
        best_at_random(&ranked, &mut self.rng)
    }
}

/// Plays, on boards whose moves cost too much to value afresh, a move keeping the best
/// final lead its search proves: the search keeps its table from move to move, starts
/// from the bounds of an earlier solve (its book) and tries for more for up to `think`
/// a move.
pub struct ProvenMargin<G: Scored> {
    solver: Box<dyn MarginSolver<G>>,
    think: Duration,
}

impl<G: Scored> ProvenMargin<G> {
    /// A player asking `solver`, trying for a better lead for up to `think` a move.
    pub fn new(solver: Box<dyn MarginSolver<G>>, think: Duration) -> Self {
        ProvenMargin { solver, think }
    }
}

impl<G: Scored> Player<G> for ProvenMargin<G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, _game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let proven = self.solver.prove(p, Some(Instant::now() + self.think));
        if self.solver.stopped() {
            return Err(search_stopped());
        }
        Ok(proven.best)
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
