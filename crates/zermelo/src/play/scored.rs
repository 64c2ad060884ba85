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

    /// The rule's choice, or the solver's error when it gave up at its limit.
    fn choose(&mut self, _game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let best = self.solver.best(p);
        if self.solver.stopped() {
            return Err(self.solver.stop());
        }
        best.map(|(m, _)| m)
            .ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bigpoints::{BigPoints, Rule};
    use crate::solve::scores::{DecisionRule, StudyRule};
    use crate::solve::Limit;
    use crate::Game;

    #[test]
    fn a_solver_past_its_limit_gives_up_with_an_error() {
        let g = BigPoints::new(vec![0, 1, 2, 0, 1, 2, 3, 4, 3, 4], 2, Rule::Study).unwrap();
        let rule: &dyn DecisionRule = &StudyRule;
        let mut free = ScorePerfect::new(ScoreSolver::new(&g, rule));
        assert!(free.choose(&g, &g.start()).is_ok());
        let limit = Limit {
            positions: Some(5),
            ..Limit::default()
        };
        let mut tight = ScorePerfect::new(ScoreSolver::new(&g, rule).with_limit(limit));
        assert!(matches!(tight.choose(&g, &g.start()), Err(Error::TooBig(_))));
    }
}
