//! Score games ([`Scored`], two players): the margin the mover can force over what is
//! still to be played, by alpha-beta negamax with a transposition table.
//!
//! The searched quantity is the *remaining* margin: the mover's final score lead minus
//! the lead already held. In many score games (Dots and Boxes) it depends only on part of
//! the position (the lines drawn, not who holds which box), so the caller chooses the key
//! the table is indexed by, and may hand in a move generator that leaves out moves known
//! to be no better than another (and orders the rest best first).

use std::hash::Hash;
use std::path::Path;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::Limit;
pub use super::Setup;
use crate::game::{Game, PlayerId, Scored};
use crate::table::book::BookInfo;
use crate::Error;

/// An exact solver of remaining margins, whatever its method.
pub trait MarginSolver<G: Scored> {
    /// The game solved.
    fn game(&self) -> &G;
    /// The margin the mover of `p` can force over what is still to be played.
    fn remaining(&mut self, p: &G::Position) -> i32;
    /// Whether the search gave up at its limit (its answers are then meaningless).
    fn stopped(&self) -> bool;
    /// The number of positions in the table.
    fn positions(&self) -> usize;
    /// The number of positions visited, counting revisits.
    fn nodes(&self) -> u64;

    /// What a search proves of `p` (not ended) by `deadline`: here every move's exact
    /// value; a solver that can stop short keeps a move reaching the best lead it proved.
    fn prove(&mut self, p: &G::Position, _deadline: Option<Instant>) -> Proven<G::Move> {
        let ranked = self.rank_moves(p);
        let (best, v) = ranked[0].clone();
        Proven {
            best,
            lo: v,
            hi: v,
            moves: ranked.into_iter().map(|(m, v)| (m, v, v)).collect(),
        }
    }

    /// Saves the bounds the search proved, at most `max_entries`, as the book of `spec` at
    /// `path`; `None` when the solver keeps no table to save.
    fn save_book(&self, _path: &Path, _spec: &str, _max_entries: u64) -> Result<Option<BookInfo>, Error> {
        Ok(None)
    }

    /// The mover's final score lead under best play from `p`.
    fn margin(&mut self, p: &G::Position) -> i32 {
        let game = self.game();
        lead(game, p, game.to_move(p)) + self.remaining(p)
    }

    /// Every legal move of `p` with the final score lead it leaves the mover of `p`
    /// under best play, best first.
    fn rank_moves(&mut self, p: &G::Position) -> Vec<(G::Move, i32)> {
        let children: Vec<(G::Move, G::Position)> = {
            let game = self.game();
            game.legal_moves(p)
                .into_iter()
                .map(|m| {
                    let child = game.play(p, &m);
                    (m, child)
                })
                .collect()
        };
        let mut ranked: Vec<(G::Move, i32)> = children
            .into_iter()
            .map(|(m, child)| {
                let r = self.remaining(&child);
                let game = self.game();
                (m, lead(game, p, game.to_move(p)) + through(game, p, &child, r))
            })
            .collect();
        ranked.sort_by_key(|(_, v)| -v);
        ranked
    }
}

/// What a search proved of a position: the mover's final score lead under best play lies
/// in `lo..=hi` (exact when they meet), `best` keeps at least `lo`, and each legal move's
/// lead lies within the bounds listed with it.
#[derive(Clone, Debug)]
pub struct Proven<M> {
    /// A move keeping at least `lo`.
    pub best: M,
    /// The least final lead proved.
    pub lo: i32,
    /// The greatest final lead not ruled out.
    pub hi: i32,
    /// Every legal move with the bounds on the lead it leaves.
    pub moves: Vec<(M, i32, i32)>,
}

/// Beyond every margin.
const INFINITY: i32 = 1 << 14;

/// What the table knows of a position's remaining margin.
#[derive(Clone, Copy)]
struct Bounds {
    lo: i16,
    hi: i16,
    /// Where the best move stood in the move list last time, to try it first.
    first: u8,
}

/// Generates the moves a search looks at, best first.
pub type MovesFn<G> = fn(&G, &<G as Game>::Position, &mut Vec<<G as Game>::Move>);

/// Tells the exact remaining margin of the positions it knows.
pub type KnownFn<G> = fn(&G, &<G as Game>::Position) -> Option<i32>;

/// The mover's score lead in `p`.
pub(crate) fn lead<G: Scored>(game: &G, p: &G::Position, mover: PlayerId) -> i32 {
    game.score(p, mover) - game.score(p, 1 - mover)
}

/// What moving from `p` to `child` gains the mover of `p` at once.
fn gain<G: Scored>(game: &G, p: &G::Position, child: &G::Position) -> i32 {
    let mover = game.to_move(p);
    lead(game, child, mover) - lead(game, p, mover)
}

/// The remaining margin of `p` seen from the mover of `p`, from `child`'s margin.
pub(crate) fn through<G: Scored>(game: &G, p: &G::Position, child: &G::Position, child_margin: i32) -> i32 {
    let g = gain(game, p, child);
    if game.to_move(child) == game.to_move(p) {
        g + child_margin
    } else {
        g - child_margin
    }
}

/// Meets a table entry's bounds `lo..=hi` with the search window `(alpha, beta)`: the
/// value at once when the bounds decide the search, else the narrowed window.
pub(crate) fn narrow(lo: i32, hi: i32, alpha: i32, beta: i32) -> Result<(i32, i32), i32> {
    if lo == hi || lo >= beta {
        return Err(lo);
    }
    if hi <= alpha {
        return Err(hi);
    }
    Ok((alpha.max(lo), beta.min(hi)))
}

/// A table entry's bounds `lo..=hi` after a search of the window `(alpha, beta)` found
/// `best`: a new upper bound when it failed low, a new lower bound when it failed high,
/// else the exact value.
pub(crate) fn settle(lo: i32, hi: i32, best: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if best <= alpha {
        (lo, best)
    } else if best >= beta {
        (best, hi)
    } else {
        (best, best)
    }
}

/// The remaining margin of `p` by plain minimax over every legal move: no memory, no
/// pruning. Slow; the reference the other solvers are checked against.
pub fn plain<G: Scored>(game: &G, p: &G::Position) -> i32 {
    if game.outcome(p).is_some() {
        return 0;
    }
    game.legal_moves(p)
        .iter()
        .map(|m| {
            let child = game.play(p, m);
            through(game, p, &child, plain(game, &child))
        })
        .max()
        .unwrap_or(0)
}

/// Alpha-beta over remaining margins with a transposition table keyed by `K`.
pub struct MarginSearch<'g, G: Game, K> {
    game: &'g G,
    key: fn(&G, &G::Position) -> K,
    moves: MovesFn<G>,
    bound: Option<fn(&G, &G::Position) -> i32>,
    known: Option<KnownFn<G>>,
    capacity: usize,
    table: FxHashMap<K, Bounds>,
    nodes: u64,
    limit: Limit,
    ticks: u32,
    stopped: bool,
}

impl<'g, G: Scored> MarginSearch<'g, G, G::Position> {
    /// A search over every legal move, keyed by whole positions: correct for every
    /// two-player score game.
    pub fn new(game: &'g G) -> Self {
        MarginSearch::with(game, |_, p| p.clone(), |g, p, out| g.moves(p, out))
    }
}

impl<'g, G: Scored, K: Hash + Eq> MarginSearch<'g, G, K> {
    /// A search keyed by `key` and looking at the moves of `moves`. The caller promises
    /// that positions with equal keys have equal remaining margins, and that `moves`
    /// always includes a best move.
    pub fn with(game: &'g G, key: fn(&G, &G::Position) -> K, moves: MovesFn<G>) -> Self {
        MarginSearch {
            game,
            key,
            moves,
            bound: None,
            known: None,
            capacity: usize::MAX,
            table: FxHashMap::default(),
            nodes: 0,
            limit: Limit::default(),
            ticks: 0,
            stopped: false,
        }
    }

    /// The same search, told that no remaining margin exceeds `bound` in absolute value
    /// (in Dots and Boxes: the boxes left), which prunes more.
    pub fn bounded(mut self, bound: fn(&G, &G::Position) -> i32) -> Self {
        self.bound = Some(bound);
        self
    }

    /// The same search, told the exact remaining margin of some positions by `known`
    /// (in Dots and Boxes: endgames of independent chains and loops).
    pub fn with_known(mut self, known: KnownFn<G>) -> Self {
        self.known = Some(known);
        self
    }

    /// The same search, forgetting everything whenever its table reaches `positions`
    /// entries (slower, but within a memory budget).
    pub fn capacity(mut self, positions: usize) -> Self {
        self.capacity = positions;
        self
    }

    /// The same search, giving up at `limit`.
    pub fn with_limit(mut self, limit: Limit) -> Self {
        self.limit = limit;
        self
    }

    /// Forgets every position (to bound memory between unrelated searches).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Whether the remaining margin of `p` is at least `at_least` (a null-window test,
    /// cheaper than the exact margin).
    pub fn reaches(&mut self, p: &G::Position, at_least: i32) -> bool {
        self.search(p, at_least - 1, at_least) >= at_least
    }

    fn search(&mut self, p: &G::Position, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let game = self.game;
        if game.outcome(p).is_some() {
            return 0;
        }
        if let Some(v) = self.known.and_then(|known| known(game, p)) {
            return v;
        }
        if self.stopped || self.limit.reached(self.table.len(), &mut self.ticks) {
            self.stopped = true;
            return 0;
        }
        let key = (self.key)(game, p);
        let limit = self.bound.map_or(INFINITY, |b| b(game, p));
        let mut known = self.table.get(&key).copied().unwrap_or(Bounds {
            lo: -limit as i16,
            hi: limit as i16,
            first: 0,
        });
        let (mut alpha, beta) = match narrow(known.lo.into(), known.hi.into(), alpha, beta) {
            Ok(window) => window,
            Err(value) => return value,
        };
        let (alpha_in, beta_in) = (alpha, beta);
        let mut moves = Vec::new();
        (self.moves)(game, p, &mut moves);
        if (known.first as usize) < moves.len() {
            moves.swap(0, known.first as usize);
        }
        let mover = game.to_move(p);
        let mut best = -INFINITY;
        let mut best_at = 0;
        for (i, m) in moves.iter().enumerate() {
            let child = game.play(p, m);
            let g = gain(game, p, &child);
            let v = if game.to_move(&child) == mover {
                g + self.search(&child, alpha - g, beta - g)
            } else {
                g - self.search(&child, g - beta, g - alpha)
            };
            if v > best {
                best = v;
                best_at = i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if moves.is_empty() {
            best = 0;
        }
        let (lo, hi) = settle(known.lo.into(), known.hi.into(), best, alpha_in, beta_in);
        (known.lo, known.hi) = (lo as i16, hi as i16);
        // The move list was reordered: index 0 and the old first swapped places.
        known.first = match best_at {
            0 => known.first,
            i if i == known.first as usize => 0,
            i => i as u8,
        };
        // A position with one move to look at costs little to search again.
        if moves.len() > 1 {
            if self.table.len() >= self.capacity {
                self.table.clear();
            }
            self.table.insert(key, known);
        }
        best
    }
}

impl<G: Scored, K: Hash + Eq> MarginSolver<G> for MarginSearch<'_, G, K> {
    fn game(&self) -> &G {
        self.game
    }

    /// The margin the mover of `p` can force over what is still to be played.
    /// Found by a series of null-window tests converging on the value (MTD(f)), which
    /// prune far more than one full-window search.
    fn remaining(&mut self, p: &G::Position) -> i32 {
        let (mut lo, mut hi) = (-INFINITY, INFINITY);
        let mut guess = 0;
        while lo < hi {
            let beta = if guess == lo { guess + 1 } else { guess };
            guess = self.search(p, beta - 1, beta);
            if guess < beta {
                hi = guess;
            } else {
                lo = guess;
            }
        }
        lo
    }

    fn stopped(&self) -> bool {
        self.stopped
    }

    fn positions(&self) -> usize {
        self.table.len()
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
