//! Depth-first negamax with memoisation, for games whose position graph is acyclic.
//! Values carry remoteness: the winner wins fastest, the loser loses slowest.

use rustc_hash::FxHashMap;

use super::{plain_key, symmetric_key, KeyFn, Oracle};
use crate::game::{Game, Symmetric};
use crate::value::Value;

/// A memoising solver; it remembers every non-terminal position it has solved.
pub struct MemoSolver<'g, G: Game> {
    game: &'g G,
    key: KeyFn<G>,
    table: FxHashMap<G::Position, Value>,
}

impl<'g, G: Game> MemoSolver<'g, G> {
    /// A solver that keys positions by themselves.
    pub fn new(game: &'g G) -> Self {
        MemoSolver {
            game,
            key: plain_key::<G>,
            table: FxHashMap::default(),
        }
    }

    /// The number of distinct (non-terminal) positions solved so far.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// The value of `p` for the player to move.
    pub fn solve(&mut self, p: &G::Position) -> Value {
        let game = self.game;
        let mover = game.to_move(p);
        if let Some(outcome) = game.outcome(p) {
            return Value::terminal(outcome, mover);
        }
        let key = (self.key)(game, p);
        if let Some(&v) = self.table.get(&key) {
            return v;
        }
        let mut best: Option<Value> = None;
        for m in game.legal_moves(p) {
            let child = game.play(p, &m);
            let v = Value::from_child(self.solve(&child), game.to_move(&child) == mover);
            if best.is_none_or(|b| v > b) {
                best = Some(v);
            }
            if v == Value::Win(1) {
                break;
            }
        }
        let v = best.unwrap_or(Value::Draw);
        self.table.insert(key, v);
        v
    }
}

impl<'g, G: Symmetric> MemoSolver<'g, G> {
    /// A solver that keys positions by their symmetry representative.
    pub fn symmetric(game: &'g G) -> Self {
        MemoSolver {
            game,
            key: symmetric_key::<G>,
            table: FxHashMap::default(),
        }
    }
}

impl<G: Game> Oracle<G> for MemoSolver<'_, G> {
    fn value(&mut self, p: &G::Position) -> Result<Value, crate::Error> {
        Ok(self.solve(p))
    }
}
