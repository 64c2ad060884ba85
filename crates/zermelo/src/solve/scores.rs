//! Exact solving of two-player score games whose players need not play zero-sum: each
//! position's value is the pair of final scores reached when both players follow a
//! [`DecisionRule`], which ranks score pairs from the mover's point of view. Between
//! options the rule ranks equal, the first in the game's move order is kept.
//!
//! [`ScoreSolver`] memoises every non-terminal position (the game graph must be acyclic);
//! [`minimax`] is the plain reference without memory.
//!
//! Solvers made for one family's positions live with it: Big Points' one-word solvers
//! (`WordSolver`, `LayerSolver`, `Census`) in [`crate::games::bigpoints`].

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::Limit;
use crate::game::{Game, PlayerId, Scored};

/// Final scores: the first player's, then the second's.
pub type Scores = [i32; 2];

/// How the player to move ranks final score pairs.
pub trait DecisionRule: Sync {
    /// Whether `a` is strictly better than `b` for `mover`.
    fn prefers(&self, mover: PlayerId, a: &Scores, b: &Scores) -> bool;
}

/// The rule of the published Big Points study: a win (own score above the opponent's)
/// beats a draw, which beats a loss; among wins and among draws the higher own score is
/// better; among losses the lower opponent score is better.
#[derive(Clone, Copy, Debug, Default)]
pub struct StudyRule;

impl StudyRule {
    /// A key that orders pairs as the rule does, larger is better.
    #[inline]
    fn key(mover: PlayerId, s: &Scores) -> (i8, i32) {
        let (own, other) = (s[mover as usize], s[1 - mover as usize]);
        match own.cmp(&other) {
            std::cmp::Ordering::Greater => (2, own),
            std::cmp::Ordering::Equal => (1, own),
            std::cmp::Ordering::Less => (0, -other),
        }
    }
}

impl DecisionRule for StudyRule {
    #[inline]
    fn prefers(&self, mover: PlayerId, a: &Scores, b: &Scores) -> bool {
        Self::key(mover, a) > Self::key(mover, b)
    }
}

/// The zero-sum rule: maximise own score minus the opponent's.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarginRule;

impl DecisionRule for MarginRule {
    #[inline]
    fn prefers(&self, mover: PlayerId, a: &Scores, b: &Scores) -> bool {
        let margin = |s: &Scores| s[mover as usize] - s[1 - mover as usize];
        margin(a) > margin(b)
    }
}

/// The final scores of the terminal `p`: the first player's, then the second's.
pub(crate) fn final_scores<G: Scored>(game: &G, p: &G::Position) -> Scores {
    [game.score(p, 0), game.score(p, 1)]
}

/// The option `rule` picks for `mover` among `options` in order: the first best one.
fn pick<M, R: DecisionRule + ?Sized>(
    rule: &R,
    mover: PlayerId,
    options: impl Iterator<Item = (M, Scores)>,
) -> Option<(M, Scores)> {
    options.fold(None, |best, (m, s)| match best {
        Some((_, b)) if !rule.prefers(mover, &s, &b) => best,
        _ => Some((m, s)),
    })
}

/// The final scores from `p` by plain recursion over the whole game tree (the reference).
pub fn minimax<G: Scored, R: DecisionRule + ?Sized>(game: &G, rule: &R, p: &G::Position) -> Scores {
    if game.outcome(p).is_some() {
        return final_scores(game, p);
    }
    let options = game
        .legal_moves(p)
        .into_iter()
        .map(|m| ((), minimax(game, rule, &game.play(p, &m))));
    pick(rule, game.to_move(p), options)
        .expect("a non-terminal position has a move")
        .1
}

/// The memory of a [`ScoreSolver`]: final scores by position key. A table can be handed
/// from one solve to the next to keep its capacity.
pub type Table<K> = FxHashMap<K, Scores>;

/// A memoising solver: remembers the final scores of every non-terminal position it
/// solved, keyed by the position itself or by a compact key the game offers.
pub struct ScoreSolver<
    'g,
    'r,
    G: Scored,
    R: DecisionRule + ?Sized = dyn DecisionRule,
    K = <G as Game>::Position,
> {
    game: &'g G,
    rule: &'r R,
    key: fn(&G, &G::Position) -> K,
    table: Table<K>,
    /// Move lists by depth, reused to avoid allocating in the search.
    buffers: Vec<Vec<G::Move>>,
    /// When to give up: past a number of positions, a deadline, a cancel flag.
    limit: Limit,
    ticks: u32,
    stopped: bool,
}

impl<'g, 'r, G: Scored, R: DecisionRule + ?Sized> ScoreSolver<'g, 'r, G, R> {
    /// A solver for `game` whose players follow `rule`.
    pub fn new(game: &'g G, rule: &'r R) -> Self {
        ScoreSolver::keyed(game, rule, |_, p| p.clone(), Table::default())
    }
}

impl<'g, 'r, G: Scored, R: DecisionRule + ?Sized, K: Hash + Eq> ScoreSolver<'g, 'r, G, R, K> {
    /// A solver that stores positions under `key`, which must tell distinct positions
    /// apart, in `table` (emptied first; pass `Table::default()` or a table to reuse).
    pub fn keyed(game: &'g G, rule: &'r R, key: fn(&G, &G::Position) -> K, mut table: Table<K>) -> Self {
        table.clear();
        ScoreSolver {
            game,
            rule,
            key,
            table,
            buffers: Vec::new(),
            limit: Limit::default(),
            ticks: 0,
            stopped: false,
        }
    }

    /// The same solver, giving up at `limit`: its answers are then meaningless, and
    /// [`ScoreSolver::stopped`] says so.
    pub fn with_limit(mut self, limit: Limit) -> Self {
        self.limit = limit;
        self
    }

    /// Whether the solver gave up at its limit.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The error of a solver that gave up at its limit ([`Limit::stop`]).
    pub fn stop(&self) -> crate::Error {
        self.limit.stop()
    }

    /// The solver's table, to reuse in another solver.
    pub fn into_table(self) -> Table<K> {
        self.table
    }

    /// The number of distinct non-terminal positions solved so far.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// The final scores reached from `p` when both players follow the rule.
    pub fn solve(&mut self, p: &G::Position) -> Scores {
        self.search(p, 0)
    }

    fn search(&mut self, p: &G::Position, depth: usize) -> Scores {
        let game = self.game;
        if game.outcome(p).is_some() {
            return final_scores(game, p);
        }
        let key = (self.key)(game, p);
        if let Some(s) = self.table.get(&key) {
            return *s;
        }
        if self.stopped || self.limit.reached(self.table.len(), &mut self.ticks) {
            self.stopped = true;
            return [0, 0];
        }
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        game.moves(p, &mut moves);
        let mut best: Option<Scores> = None;
        let mover = game.to_move(p);
        for m in &moves {
            let s = self.search(&game.play(p, m), depth + 1);
            if best.is_none_or(|b| self.rule.prefers(mover, &s, &b)) {
                best = Some(s);
            }
        }
        self.buffers[depth] = moves;
        let s = best.expect("a non-terminal position has a move");
        self.table.insert(key, s);
        s
    }

    /// Every legal move of `p` with the final scores it leads to, in move order; the
    /// rule's choice is the first best one (see [`ScoreSolver::best`]).
    pub fn options(&mut self, p: &G::Position) -> Vec<(G::Move, Scores)> {
        let game = self.game;
        game.legal_moves(p)
            .into_iter()
            .map(|m| {
                let s = self.solve(&game.play(p, &m));
                (m, s)
            })
            .collect()
    }

    /// The move the rule picks in the non-terminal `p`, with the final scores it leads to.
    pub fn best(&mut self, p: &G::Position) -> Option<(G::Move, Scores)> {
        let options = self.options(p);
        pick(self.rule, self.game.to_move(p), options.into_iter())
    }
}
