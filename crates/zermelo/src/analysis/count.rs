//! Counting: complete games (paths through the game tree) and distinct positions,
//! split by result, with or without symmetry.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::{Game, Outcome};
use crate::solve::KeyFn;

/// Counts of complete games from a position: every sequence of moves to the end. A count
/// past 128 bits stops at `u128::MAX` (`session::Big::PAST`, written as more than
/// 3.4 × 10^38), never wraps.
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
        self.games = self.games.saturating_add(o.games);
        self.first_wins = self.first_wins.saturating_add(o.first_wins);
        self.second_wins = self.second_wins.saturating_add(o.second_wins);
        self.draws = self.draws.saturating_add(o.draws);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayerId;
    use crate::solve::plain_key;

    /// `layers` rows of two positions each, every position moving to both of the next
    /// row: 2^layers complete games, the first player winning every one.
    struct Doubling {
        layers: u32,
    }

    impl Game for Doubling {
        type Position = (u32, bool);
        type Move = bool;
        fn start(&self) -> (u32, bool) {
            (0, false)
        }
        fn to_move(&self, p: &(u32, bool)) -> PlayerId {
            (p.0 % 2) as PlayerId
        }
        fn moves(&self, _p: &(u32, bool), out: &mut Vec<bool>) {
            out.extend([false, true]);
        }
        fn play(&self, p: &(u32, bool), m: &bool) -> (u32, bool) {
            (p.0 + 1, *m)
        }
        fn outcome(&self, p: &(u32, bool)) -> Option<Outcome> {
            (p.0 == self.layers).then_some(Outcome::Win(0))
        }
    }

    #[test]
    fn counts_past_128_bits_stop_at_the_most_never_wrap() {
        let count = |layers| games(&Doubling { layers }, &(0, false), plain_key::<Doubling>);
        assert_eq!(count(127).games, 1 << 127);
        assert_eq!(count(127).first_wins, 1 << 127);
        // 2^128 and 2^200 games do not fit: the count stops at the most 128 bits hold
        // (which `Big` writes as more than 3.4 x 10^38), where a wrapped sum would be 0.
        for layers in [128, 200] {
            let c = count(layers);
            assert_eq!((c.games, c.first_wins, c.draws), (u128::MAX, u128::MAX, 0));
        }
    }
}
