//! Plain minimax over the full game tree: no memory, no pruning. Slow, and therefore
//! the trusted reference the other solvers are cross-checked against.

use crate::game::Game;
use crate::value::Value;

/// The value of `p` for the player to move, by exhaustive search (acyclic games only).
pub fn value<G: Game>(game: &G, p: &G::Position) -> Value {
    let mover = game.to_move(p);
    if let Some(outcome) = game.outcome(p) {
        return Value::terminal(outcome, mover);
    }
    game.legal_moves(p)
        .iter()
        .map(|m| {
            let child = game.play(p, m);
            Value::from_child(value(game, &child), game.to_move(&child) == mover)
        })
        .max()
        .unwrap_or(Value::Draw)
}
