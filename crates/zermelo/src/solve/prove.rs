//! Proof search: who wins a position of a game without draws, without finding how many
//! moves the game lasts. A game may offer a prover beside its exact solvers; the search
//! strategy then answers win or lose by it, and the exact distance on demand.

use super::Setup;
use crate::game::Game;
use crate::Error;

/// A search that proves who wins a position of a game without draws, without finding
/// how many moves the game lasts.
pub trait Prover<G: Game>: Send {
    /// Whether the mover of `p`, a position that has not ended, wins; the limit's error
    /// (`Setup`'s limit) when stopped by memory, deadline or cancel flag.
    fn wins(&mut self, p: &G::Position) -> Result<bool, Error>;
    /// The moves of `p`, most promising first: the order the proof tries them.
    fn ordered(&mut self, p: &G::Position) -> Vec<G::Move>;
    /// Nodes searched so far.
    fn nodes(&self) -> u64;
    /// Positions held in its table now.
    fn positions(&self) -> usize;
    /// The first moves of `p` proved so far, by this prover or by an earlier run whose
    /// checkpoint it reads (`Setup`'s checkpoint), each with whether the mover wins by it.
    fn first_moves_proved(&mut self, _p: &G::Position) -> Result<Vec<(G::Move, bool)>, Error> {
        Ok(Vec::new())
    }
    /// The questions of this work are answered: the checkpoint kept to go on after a stop
    /// is removed.
    fn done(&mut self) -> Result<(), Error> {
        Ok(())
    }
}

/// Makes a game's prover under a setup.
pub type ProverFn<G> = for<'g> fn(&'g G, &Setup) -> Box<dyn Prover<G> + 'g>;

/// Whether the mover of `p` wins after playing `m` in `p`, by `prover` (a child that has
/// ended by its outcome).
pub fn wins_by<G: Game, P: Prover<G> + ?Sized>(
    game: &G,
    prover: &mut P,
    p: &G::Position,
    m: &G::Move,
) -> Result<bool, Error> {
    let mover = game.to_move(p);
    let child = game.play(p, m);
    if let Some(outcome) = game.outcome(&child) {
        return Ok(outcome.is_win_for(mover));
    }
    let wins = prover.wins(&child)?;
    Ok(wins == (game.to_move(&child) == mover))
}

/// Every legal move of `p`, a position that has not ended, with whether its mover wins
/// after it: the winning moves first, each side in the prover's order.
pub fn proved_moves<G: Game, P: Prover<G> + ?Sized>(
    game: &G,
    prover: &mut P,
    p: &G::Position,
) -> Result<Vec<(G::Move, bool)>, Error> {
    let mut proved = Vec::new();
    for m in prover.ordered(p) {
        let wins = wins_by(game, prover, p, &m)?;
        proved.push((m, wins));
    }
    // A stable sort keeps the prover's order within the winning and the losing moves.
    proved.sort_by_key(|&(_, wins)| !wins);
    Ok(proved)
}
