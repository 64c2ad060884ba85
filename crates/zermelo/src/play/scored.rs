//! The perfect player for score games: the move a [`ScoreSolver`] picks under its
//! decision rule (the first best in move order, as the solver itself plays).

use super::Player;
use crate::game::Scored;
use crate::solve::scores::ScoreSolver;
use crate::Error;

/// Plays as the exact score solver does.
pub struct ScorePerfect<'g, 'r, G: Scored> {
    solver: ScoreSolver<'g, 'r, G>,
}

impl<'g, 'r, G: Scored> ScorePerfect<'g, 'r, G> {
    /// A player following `solver`'s choices.
    pub fn new(solver: ScoreSolver<'g, 'r, G>) -> Self {
        ScorePerfect { solver }
    }
}

impl<G: Scored> Player<G> for ScorePerfect<'_, '_, G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, _game: &G, p: &G::Position) -> Result<G::Move, Error> {
        self.solver
            .best(p)
            .map(|(m, _)| m)
            .ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}
