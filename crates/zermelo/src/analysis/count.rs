//! Counting: complete games (paths through the game tree) and distinct positions,
//! split by result, with or without symmetry.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::{Game, Levelled, Outcome, Symmetric};
use crate::solve::{KeyFn, Progress};
use crate::Error;

/// Ranks a worker of [`positions_by_levels`] takes at a time (a multiple of 64).
const LEVEL_CHUNK: u64 = 1 << 12;

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
        let outcome = game.outcome(&p);
        counts.add(outcome);
        if outcome.is_some() {
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

impl PositionCounts {
    /// Counts one more position, whose outcome is `outcome`.
    fn add(&mut self, outcome: Option<Outcome>) {
        self.positions += 1;
        if let Some(outcome) = outcome {
            self.terminal += 1;
            match outcome {
                Outcome::Win(0) => self.terminal_first_wins += 1,
                Outcome::Win(1) => self.terminal_second_wins += 1,
                _ => self.terminal_draws += 1,
            }
        }
    }

    fn sum(mut self, o: PositionCounts) -> PositionCounts {
        self.positions += o.positions;
        self.terminal += o.terminal;
        self.terminal_first_wins += o.terminal_first_wins;
        self.terminal_second_wins += o.terminal_second_wins;
        self.terminal_draws += o.terminal_draws;
        self
    }
}

/// The bytes [`positions_by_levels`] holds for `game`: a bit per rank of the two largest
/// neighbouring levels.
pub fn level_count_bytes<G: Levelled>(game: &G) -> u64 {
    let len = |level: usize| {
        let r = game.level_ranks(level);
        r.end - r.start
    };
    (0..game.levels())
        .map(|level| {
            len(level)
                + if level + 1 < game.levels() {
                    len(level + 1)
                } else {
                    0
                }
        })
        .max()
        .unwrap_or(0)
        / 8
}

/// Counts the distinct positions reachable from `start` (or, `symmetric`, their classes
/// under the game's symmetries, which must map reachable positions to reachable ones) of
/// a game whose every move leads to the next level, level by level: a bit per rank of the
/// level counted and of the next, set for every child of a position reached. Refuses
/// another game; stops with [`Error::Cancelled`] once `cancel` is set.
pub fn positions_by_levels<G: Levelled + Symmetric + Sync>(
    game: &G,
    start: &G::Position,
    symmetric: bool,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
) -> Result<PositionCounts, Error> {
    let unsupported =
        || Error::Unsupported("counting by levels needs every move to lead to the next level".into());
    if game.reach() != 1 {
        return Err(unsupported());
    }
    let first = game.rank(start);
    let levels = game.levels();
    let Some(start_level) = (0..levels).find(|&l| game.level_ranks(l).contains(&first)) else {
        return Err(unsupported());
    };
    let bits = |level: usize| -> Vec<AtomicU64> {
        let r = game.level_ranks(level);
        (0..(r.end - r.start).div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect()
    };
    let stray = AtomicBool::new(false);
    let stopped = || cancel.is_some_and(|c| c.load(Relaxed));
    progress.start(
        "positions reached, level by level",
        game.size() - game.level_ranks(start_level).start,
    );
    let mut reached = bits(start_level);
    let offset = first - game.level_ranks(start_level).start;
    reached[(offset / 64) as usize].store(1 << (offset % 64), Relaxed);
    let mut counts = PositionCounts::default();
    for level in start_level..levels {
        let ranks = game.level_ranks(level);
        let next_ranks = game.level_ranks((level + 1).min(levels - 1));
        let next = if level + 1 < levels {
            bits(level + 1)
        } else {
            Vec::new()
        };
        let chunks = (ranks.end - ranks.start).div_ceil(LEVEL_CHUNK);
        let found = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let mut counts = PositionCounts::default();
                let lo = ranks.start + chunk * LEVEL_CHUNK;
                let hi = (lo + LEVEL_CHUNK).min(ranks.end);
                let words =
                    &reached[(chunk * LEVEL_CHUNK / 64) as usize..(hi - ranks.start).div_ceil(64) as usize];
                if stopped() || words.iter().all(|w| w.load(Relaxed) == 0) {
                    progress.advance(hi - lo);
                    return counts;
                }
                let (mut moves, mut children) = (Vec::new(), Vec::new());
                game.for_each_position(lo..hi, |rank, p| {
                    let at = rank - ranks.start;
                    if reached[(at / 64) as usize].load(Relaxed) >> (at % 64) & 1 == 0 {
                        return;
                    }
                    let Some(p) = p else {
                        stray.store(true, Relaxed);
                        return;
                    };
                    let outcome = game.outcome(&p);
                    if !symmetric || game.canonical(&p) == p {
                        counts.add(outcome);
                    }
                    if outcome.is_some() {
                        return;
                    }
                    children.clear();
                    game.child_ranks(&p, &mut moves, &mut children);
                    for &(child, _) in &children {
                        if !next_ranks.contains(&child) || level + 1 == levels {
                            stray.store(true, Relaxed);
                            continue;
                        }
                        let at = child - next_ranks.start;
                        next[(at / 64) as usize].fetch_or(1 << (at % 64), Relaxed);
                    }
                });
                progress.advance(hi - lo);
                counts
            })
            .reduce(PositionCounts::default, PositionCounts::sum);
        if stopped() {
            return Err(Error::Cancelled);
        }
        if stray.load(Relaxed) {
            return Err(unsupported());
        }
        counts = counts.sum(found);
        reached = next;
    }
    Ok(counts)
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
