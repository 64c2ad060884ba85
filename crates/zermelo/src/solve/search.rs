//! Alpha-beta negamax with a transposition table, for games too big to tabulate.
//!
//! Scores are [`Value::score`]s, so the search keeps remoteness exact: the winner
//! prefers the fastest win and the loser the slowest loss. Moves after which the same
//! player moves again are searched without negation.

use rustc_hash::FxHashMap;

use super::{equivalent_key, plain_key, KeyFn, Limit, Oracle};
use crate::game::{Game, Symmetric};
use crate::value::{Value, WIN_SCORE};
use crate::Error;

/// Beyond every score.
const INFINITY: i32 = WIN_SCORE + 1_000;

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// An exact alpha-beta solver that remembers bounds of the positions it has searched.
pub struct AlphaBeta<'g, G: Game> {
    game: &'g G,
    key: KeyFn<G>,
    table: FxHashMap<G::Position, (i32, Bound)>,
    limit: Limit,
    ticks: u32,
    stopped: bool,
}

/// One move nearer the end: a parent's score from its child's (already in the parent's view).
fn step(s: i32) -> i32 {
    s - s.signum()
}

/// The inverse of [`step`] on scores.
fn unstep(s: i32) -> i32 {
    s + s.signum()
}

impl<'g, G: Game> AlphaBeta<'g, G> {
    /// A solver keyed on plain positions.
    pub fn new(game: &'g G) -> Self {
        AlphaBeta {
            game,
            key: plain_key::<G>,
            table: FxHashMap::default(),
            limit: Limit::default(),
            ticks: 0,
            stopped: false,
        }
    }

    /// The same solver, giving up at `limit`.
    pub fn with_limit(mut self, limit: Limit) -> Self {
        self.limit = limit;
        self
    }

    /// The number of positions in the transposition table.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// The exact value of `p` for the player to move, or [`Limit::stop`]'s error when the
    /// search gave up at its limit.
    pub fn solve(&mut self, p: &G::Position) -> Result<Value, Error> {
        let score = self.negamax(p, -INFINITY, INFINITY);
        if self.stopped {
            return Err(self.limit.stop());
        }
        Ok(Value::from_score(score))
    }

    fn negamax(&mut self, p: &G::Position, mut alpha: i32, mut beta: i32) -> i32 {
        let game = self.game;
        let mover = game.to_move(p);
        if let Some(outcome) = game.outcome(p) {
            return Value::terminal(outcome, mover).score();
        }
        if self.stopped || self.limit.reached(self.table.len(), &mut self.ticks) {
            self.stopped = true;
            return 0;
        }
        let key = (self.key)(game, p);
        if let Some(&(score, bound)) = self.table.get(&key) {
            match bound {
                Bound::Exact => return score,
                Bound::Lower => alpha = alpha.max(score),
                Bound::Upper => beta = beta.min(score),
            }
            if alpha >= beta {
                return score;
            }
        }
        let alpha_in = alpha;
        let mut children: Vec<(i32, G::Position)> = game
            .legal_moves(p)
            .iter()
            .map(|m| {
                let child = game.play(p, m);
                let h = game.heuristic(&child);
                (if game.to_move(&child) == mover { -h } else { h }, child)
            })
            .collect();
        children.sort_by_key(|(h, _)| *h);
        let mut best = -INFINITY;
        for (_, child) in &children {
            let same = game.to_move(child) == mover;
            let v = if same {
                step(self.negamax(child, unstep(alpha), unstep(beta)))
            } else {
                step(-self.negamax(child, -unstep(beta), -unstep(alpha)))
            };
            best = best.max(v);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        if children.is_empty() {
            best = 0;
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(key, (best, bound));
        best
    }
}

impl<'g, G: Symmetric> AlphaBeta<'g, G> {
    /// A solver keyed on symmetry representatives, or the game's equivalents of them.
    pub fn symmetric(game: &'g G) -> Self {
        AlphaBeta {
            game,
            key: equivalent_key::<G>,
            table: FxHashMap::default(),
            limit: Limit::default(),
            ticks: 0,
            stopped: false,
        }
    }
}

impl<G: Game> Oracle<G> for AlphaBeta<'_, G> {
    fn value(&mut self, p: &G::Position) -> Result<Value, Error> {
        self.solve(p)
    }
}

/// Depth-limited negamax with alpha-beta and the game's heuristic at the horizon:
/// the score of `p` for its mover, exact wins and losses within reach; `None` when the
/// search reached the deadline or the cancel flag of `limit` (its clock is looked at every
/// few thousand positions, counted in `ticks`).
pub fn limited<G: Game>(
    game: &G,
    p: &G::Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    limit: &Limit,
    ticks: &mut u32,
) -> Option<i32> {
    if limit.reached(0, ticks) {
        return None;
    }
    let mover = game.to_move(p);
    if let Some(outcome) = game.outcome(p) {
        return Some(Value::terminal(outcome, mover).score());
    }
    if depth == 0 {
        return Some(game.heuristic(p).clamp(-WIN_SCORE / 2, WIN_SCORE / 2));
    }
    let mut best = -INFINITY;
    for m in game.legal_moves(p) {
        let child = game.play(p, &m);
        let v = if game.to_move(&child) == mover {
            step(limited(
                game,
                &child,
                depth - 1,
                unstep(alpha),
                unstep(beta),
                limit,
                ticks,
            )?)
        } else {
            step(-limited(
                game,
                &child,
                depth - 1,
                -unstep(beta),
                -unstep(alpha),
                limit,
                ticks,
            )?)
        };
        best = best.max(v);
        alpha = alpha.max(best);
        if alpha >= beta {
            break;
        }
    }
    Some(if best == -INFINITY { 0 } else { best })
}
