//! Counting: complete games (paths through the game tree) and distinct positions,
//! split by result, with or without symmetry.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::{Game, Outcome};
use crate::solve::KeyFn;

/// Counts of complete games from a position: every sequence of moves to the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeCounts {
    /// All complete games.
    pub games: u128,
    /// Games won by the first player (seat 0).
    pub first_wins: u128,
    /// Games won by the second player (seat 1).
    pub second_wins: u128,
    /// Games without a sole winner.
    pub draws: u128,
}

impl TreeCounts {
    fn add(&mut self, o: &TreeCounts) {
        self.games += o.games;
        self.first_wins += o.first_wins;
        self.second_wins += o.second_wins;
        self.draws += o.draws;
    }

    fn of_outcome(outcome: Outcome) -> TreeCounts {
        let mut c = TreeCounts {
            games: 1,
            ..TreeCounts::default()
        };
        match outcome {
            Outcome::Win(0) => c.first_wins = 1,
            Outcome::Win(1) => c.second_wins = 1,
            _ => c.draws = 1,
        }
        c
    }
}

/// Counts the complete games from `start`. Positions are memoised by `key`, which
/// may be a symmetry representative: symmetric positions root equal subtrees.
pub fn games<G: Game>(game: &G, start: &G::Position, key: KeyFn<G>) -> TreeCounts {
    fn walk<G: Game>(
        game: &G,
        p: &G::Position,
        key: KeyFn<G>,
        memo: &mut FxHashMap<G::Position, TreeCounts>,
    ) -> TreeCounts {
        if let Some(outcome) = game.outcome(p) {
            return TreeCounts::of_outcome(outcome);
        }
        let k = key(game, p);
        if let Some(c) = memo.get(&k) {
            return *c;
        }
        let mut total = TreeCounts::default();
        for m in game.legal_moves(p) {
            total.add(&walk(game, &game.play(p, &m), key, memo));
        }
        memo.insert(k, total);
        total
    }
    walk(game, start, key, &mut FxHashMap::default())
}

/// Counts of distinct positions reachable from a start, the start included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionCounts {
    /// Distinct positions (or classes, with symmetry).
    pub positions: u64,
    /// Of them, terminal.
    pub terminal: u64,
    /// Terminal positions won by the first player.
    pub terminal_first_wins: u64,
    /// Terminal positions won by the second player.
    pub terminal_second_wins: u64,
    /// Terminal positions without a sole winner.
    pub terminal_draws: u64,
}

/// Counts the distinct positions reachable from `start`, identified by `key`
/// (pass a symmetry key to count classes).
pub fn positions<G: Game>(game: &G, start: &G::Position, key: KeyFn<G>) -> PositionCounts {
    let mut seen: FxHashSet<G::Position> = FxHashSet::default();
    let mut stack = vec![start.clone()];
    seen.insert(key(game, start));
    let mut counts = PositionCounts::default();
    let mut moves = Vec::new();
    while let Some(p) = stack.pop() {
        counts.positions += 1;
        if let Some(outcome) = game.outcome(&p) {
            counts.terminal += 1;
            match outcome {
                Outcome::Win(0) => counts.terminal_first_wins += 1,
                Outcome::Win(1) => counts.terminal_second_wins += 1,
                _ => counts.terminal_draws += 1,
            }
            continue;
        }
        moves.clear();
        game.moves(&p, &mut moves);
        for m in &moves {
            let child = game.play(&p, m);
            if seen.insert(key(game, &child)) {
                stack.push(child);
            }
        }
    }
    counts
}
