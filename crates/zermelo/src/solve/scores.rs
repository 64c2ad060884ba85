//! Exact solving of two-player score games whose players need not play zero-sum: each
//! position's value is the pair of final scores reached when both players follow a
//! [`DecisionRule`], which ranks score pairs from the mover's point of view. Between
//! options the rule ranks equal, the first in the game's move order is kept.
//!
//! [`ScoreSolver`] memoises every non-terminal position (the game graph must be acyclic);
//! [`minimax`] is the plain reference without memory.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::prefetch;
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

fn final_scores<G: Scored>(game: &G, p: &G::Position) -> Scores {
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
        }
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

/// A table slot: a position's key tagged with the solve it belongs to, and its final scores.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The key in the low [`KEY_BITS`] bits, the solve's epoch above (0: never used).
    tag: u64,
    scores: Scores,
}

/// The bits a [`WordSolver`] key may use.
pub const KEY_BITS: u32 = 56;
/// The first score of a slot reserved for a position not solved yet.
const PENDING: i32 = i32::MIN;
/// The fewest slots a [`WordTable`] starts with (a power of two).
const MIN_SLOTS: usize = 1 << 16;

/// The table filled past three quarters: the solve starts again on a bigger table.
struct Full;

/// An open-addressing table (linear probing) of final scores keyed by one word, for one
/// solve at a time: one flat arena reused from solve to solve. Each solve tags its slots
/// with a new epoch, so starting one clears nothing (every 255th clears the arena once);
/// a solve that fills it past three quarters starts again on one twice as big.
pub struct WordTable {
    slots: Vec<Slot>,
    /// log2 of the number of slots.
    bits: u32,
    filled: usize,
    /// The current solve's tag, `1..=255`, in the bits above [`KEY_BITS`].
    epoch: u64,
}

impl Default for WordTable {
    fn default() -> Self {
        WordTable::with_slots(MIN_SLOTS)
    }
}

impl WordTable {
    /// An empty table of at least `slots` slots (rounded up to a power of two).
    pub fn with_slots(slots: usize) -> WordTable {
        let slots = slots.max(MIN_SLOTS).next_power_of_two();
        WordTable {
            slots: vec![Slot::default(); slots],
            bits: slots.trailing_zeros(),
            filled: 0,
            epoch: 0,
        }
    }

    /// The number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new solve: no slot is in use any more.
    fn clear(&mut self) {
        self.filled = 0;
        self.epoch += 1;
        if self.epoch >> (64 - KEY_BITS) != 0 {
            self.slots.fill(Slot::default());
            self.epoch = 1;
        }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        home(key, self.bits)
    }

    /// Asks the processor to bring `key`'s home slot into the cache.
    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    /// `key` tagged with the current solve.
    #[inline]
    fn tag(&self, key: u64) -> u64 {
        key | self.epoch << KEY_BITS
    }

    /// Whether `slot` holds a position of the current solve.
    #[inline]
    fn in_use(&self, slot: &Slot) -> bool {
        slot.tag >> KEY_BITS == self.epoch
    }

    /// The scores of `key` (pending or not), when it is in the table.
    #[inline]
    fn find(&self, key: u64) -> Option<Scores> {
        let tag = self.tag(key);
        let len = self.slots.len();
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot.tag == tag {
                return Some(slot.scores);
            }
            if !self.in_use(slot) {
                return None;
            }
            i = (i + 1) & (len - 1);
        }
    }

    /// The slot holding `key`, or a slot newly reserved for it (marked pending).
    #[inline]
    fn find_or_reserve(&mut self, key: u64) -> Result<usize, Full> {
        debug_assert!(key >> KEY_BITS == 0, "a key must fit in {KEY_BITS} bits");
        let tag = key | self.epoch << KEY_BITS;
        let len = self.slots.len();
        let mut i = self.home(key);
        loop {
            let slot = &mut self.slots[i];
            if slot.tag == tag {
                return Ok(i);
            }
            if slot.tag >> KEY_BITS != self.epoch {
                if 4 * (self.filled + 1) > 3 * len {
                    return Err(Full);
                }
                *slot = Slot {
                    tag,
                    scores: [PENDING, 0],
                };
                self.filled += 1;
                return Ok(i);
            }
            i = (i + 1) & (len - 1);
        }
    }
}

/// A child of the position being solved: its final scores when terminal, else its key.
enum Child<P> {
    Known(Scores),
    Key(u64, P),
}

/// A position's moves and children, kept by depth.
type Frame<G> = (Vec<<G as Game>::Move>, Vec<Child<<G as Game>::Position>>);

/// A memoising solver over a [`WordTable`], for games whose positions have keys of at most
/// [`KEY_BITS`] bits: the same results as [`ScoreSolver`], faster. Each position's children
/// are generated together and their slots prefetched before any is probed, and a slot is
/// reserved when a position is first met, so its scores are written without a second
/// search of the table.
pub struct WordSolver<'g, 'r, 't, G: Scored, R: DecisionRule + ?Sized = dyn DecisionRule> {
    game: &'g G,
    rule: &'r R,
    key: fn(&G, &G::Position) -> u64,
    table: &'t mut WordTable,
    /// Move and child lists by depth, reused to avoid allocating in the search.
    frames: Vec<Frame<G>>,
}

impl<'g, 'r, 't, G: Scored, R: DecisionRule + ?Sized> WordSolver<'g, 'r, 't, G, R> {
    /// A solver for `game` whose players follow `rule`, storing positions under `key`
    /// (distinct positions must get distinct keys of at most [`KEY_BITS`] bits) in `table`.
    pub fn new(game: &'g G, rule: &'r R, key: fn(&G, &G::Position) -> u64, table: &'t mut WordTable) -> Self {
        WordSolver {
            game,
            rule,
            key,
            table,
            frames: Vec::new(),
        }
    }

    /// The final scores reached from `p` when both players follow the rule, and the
    /// number of distinct non-terminal positions reachable from `p` (the table is emptied
    /// first).
    pub fn solve(&mut self, p: &G::Position) -> (Scores, usize) {
        if self.game.outcome(p).is_some() {
            return (final_scores(self.game, p), 0);
        }
        loop {
            self.table.clear();
            let root = (self.key)(self.game, p);
            let solved = self
                .table
                .find_or_reserve(root)
                .and_then(|slot| self.search(p, slot, 0));
            match solved {
                Ok(s) => return (s, self.table.filled),
                Err(Full) => *self.table = WordTable::with_slots(2 * self.table.capacity()),
            }
        }
    }

    /// Solves the non-terminal `p`, whose slot `slot` is reserved, and fills the slot.
    fn search(&mut self, p: &G::Position, slot: usize, depth: usize) -> Result<Scores, Full> {
        let game = self.game;
        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Default::default);
        }
        let (mut moves, mut children) = std::mem::take(&mut self.frames[depth]);
        moves.clear();
        children.clear();
        game.moves(p, &mut moves);
        for m in &moves {
            let q = game.play(p, m);
            children.push(match game.final_scores(&q) {
                Some(s) => Child::Known(s),
                None => {
                    let k = (self.key)(game, &q);
                    self.table.prefetch(k);
                    Child::Key(k, q)
                }
            });
        }
        // Look every child up while the prefetches are fresh (most are met again): the
        // home slots first, all at once, so that their loads overlap.
        let mut homes = [Slot::default(); 16];
        for (child, home) in children.iter().zip(homes.iter_mut()) {
            if let Child::Key(k, _) = child {
                *home = self.table.slots[self.table.home(*k)];
            }
        }
        for (n, child) in children.iter_mut().enumerate() {
            if let Child::Key(k, _) = child {
                let found = match homes.get(n) {
                    Some(home) if home.tag == self.table.tag(*k) => Some(home.scores),
                    Some(home) if !self.table.in_use(home) => None,
                    _ => self.table.find(*k),
                };
                if let Some(s) = found.filter(|s| s[0] != PENDING) {
                    *child = Child::Known(s);
                }
            }
        }
        let mover = game.to_move(p);
        let mut best: Option<Scores> = None;
        for child in &children {
            let s = match child {
                Child::Known(s) => *s,
                Child::Key(k, q) => {
                    // Not in the table a moment ago; perhaps solved by an earlier sibling's search.
                    let i = self.table.find_or_reserve(*k)?;
                    match self.table.slots[i].scores {
                        // Met for the first time: solve it now.
                        [PENDING, _] => self.search(q, i, depth + 1)?,
                        s => s,
                    }
                }
            };
            if best.is_none_or(|b| self.rule.prefers(mover, &s, &b)) {
                best = Some(s);
            }
        }
        self.frames[depth] = (moves, children);
        let s = best.expect("a non-terminal position has a move");
        self.table.slots[slot].scores = s;
        Ok(s)
    }
}

/// The home slot of `key` in an open-addressing table of `2^bits` slots: Fibonacci
/// hashing, the top bits of the key times 2^64 / golden ratio.
#[inline]
fn home(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

/// An edge of a [`LayerSolver`] that ends the game: its final scores are the next ones of
/// the layer's list.
const FINAL: u32 = u32::MAX;
/// The bit a [`Layered`] game sets in a child that ends the game.
pub const ENDS: u64 = 1 << 63;
/// Positions whose moves [`Layers::expand`] generates before it looks their children up.
const BLOCK: usize = 32;
/// How many moves ahead [`Layers::score`] asks for a child's scores.
const AHEAD: usize = 16;
/// The fewest slots a layer's table starts with.
const MIN_LAYER_SLOTS: usize = 1 << 10;
/// The flag of [`Layers::degrees`] that the second player moves.
const SECOND: u8 = 0x80;

/// The memory of a [`LayerSolver`]: flat arrays kept from solve to solve, so that a sweep
/// of many boards allocates only while its boards grow.
#[derive(Default)]
pub struct Layers {
    /// The positions of the layer being expanded, then those of the next one.
    this: Vec<u64>,
    next: Vec<u64>,
    /// Open addressing (linear probing) over `next`: its positions with their numbers.
    slots: Vec<Entry>,
    /// The children of a block of positions, in order, as [`Layered::children`] gives them.
    kids: Vec<u64>,
    /// Per position, in order: its number of moves, with [`SECOND`] when the second
    /// player moves.
    degrees: Vec<u8>,
    /// Per move, in order: the child's number in the next layer, or [`FINAL`].
    edges: Vec<u32>,
    /// The final scores of the moves that end the game, in order.
    finals: Vec<Pair>,
    /// Per layer, then past the last: where its positions, edges and finals start.
    starts: Vec<[usize; 3]>,
    /// The scores of every position, in order.
    scores: Vec<Pair>,
    /// The number of positions in each layer of the last solve: the expected sizes in the
    /// next (the boards of a sweep are alike), so that a table rarely grows.
    sizes: Vec<usize>,
}

impl Layers {
    /// Finds the layer after `this`, recording the moves of `this`'s positions, in a table
    /// sized for `expected` positions (or as many as `this`), grown when they are more. The
    /// children of a block of positions are generated first, their slots asked for, then
    /// looked up together, so that the loads overlap.
    fn expand<G: Layered>(&mut self, game: &G, expected: usize) {
        self.next.clear();
        let len = (2 * (self.this.len().max(expected) + 1))
            .next_power_of_two()
            .max(MIN_LAYER_SLOTS);
        refill(&mut self.slots, len, Entry::EMPTY);
        let this = std::mem::take(&mut self.this);
        for block in this.chunks(BLOCK) {
            self.kids.clear();
            for &p in block {
                let before = self.kids.len();
                game.children(p, &mut self.kids);
                let moves = self.kids.len() - before;
                assert!(moves < usize::from(SECOND), "too many moves for a layer solve");
                let second = if game.to_move(&p) == 0 { 0 } else { SECOND };
                self.degrees.push(moves as u8 | second);
                for &q in &self.kids[before..] {
                    if q & ENDS == 0 {
                        prefetch(&self.slots[self.home(q)]);
                    } else {
                        self.finals.push(Pair::new(game.end_scores(q & !ENDS)));
                    }
                }
            }
            for k in 0..self.kids.len() {
                let edge = match self.kids[k] {
                    q if q & ENDS != 0 => FINAL,
                    q => self.insert(q),
                };
                self.edges.push(edge);
            }
        }
        self.this = this;
    }

    /// Scores the positions of `layer`, whose children are scored.
    fn score<R: DecisionRule + ?Sized>(&mut self, rule: &R, layer: usize) {
        let [first, mut edge, mut last] = self.starts[layer];
        let children = self.starts[layer + 1][0];
        let (scored, later) = self.scores.split_at_mut(children);
        for (i, score) in scored.iter_mut().enumerate().skip(first) {
            let degree = self.degrees[i];
            let mover = PlayerId::from(degree & SECOND != 0);
            let moves = usize::from(degree & !SECOND);
            let mut best: Option<Scores> = None;
            for (j, &e) in self.edges[edge..edge + moves].iter().enumerate() {
                if let Some(s) = self
                    .edges
                    .get(edge + j + AHEAD)
                    .and_then(|&a| later.get(a as usize))
                {
                    prefetch(s);
                }
                let s = if e == FINAL {
                    last += 1;
                    self.finals[last - 1]
                } else {
                    later[e as usize]
                }
                .get();
                if best.is_none_or(|b| rule.prefers(mover, &s, &b)) {
                    best = Some(s);
                }
            }
            edge += moves;
            *score = Pair::new(best.expect("a non-terminal position has a move"));
        }
    }

    /// The number of `next`'s position `q`, adding it when it is new.
    #[inline]
    fn insert(&mut self, q: u64) -> u32 {
        if 2 * (self.next.len() + 1) > self.slots.len() {
            self.grow(2 * self.slots.len());
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(q);
        loop {
            let slot = self.slots[i];
            if slot.key == q {
                return slot.number;
            }
            if slot.key == FREE {
                let number = self.next.len() as u32;
                self.next.push(q);
                self.slots[i] = Entry { key: q, number };
                return number;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn home(&self, q: u64) -> usize {
        home(q, self.slots.len().trailing_zeros())
    }

    /// Empties the table into `len` slots (a power of two) and puts `next` back in.
    fn grow(&mut self, len: usize) {
        refill(&mut self.slots, len, Entry::EMPTY);
        for (number, &key) in self.next.iter().enumerate() {
            let mut i = home(key, len.trailing_zeros());
            while self.slots[i].key != FREE {
                i = (i + 1) & (len - 1);
            }
            self.slots[i] = Entry {
                key,
                number: number as u32,
            };
        }
    }
}

/// Final scores in one word, half each (a [`LayerSolver`] keeps many: half the memory of
/// [`Scores`] is half the cache misses).
#[derive(Clone, Copy)]
struct Pair(u32);

impl Pair {
    #[inline]
    fn new(s: Scores) -> Pair {
        let half = |x: i32| i16::try_from(x).expect("a layer solve's scores fit in 16 bits") as u16;
        Pair(u32::from(half(s[0])) | u32::from(half(s[1])) << 16)
    }

    #[inline]
    fn get(self) -> Scores {
        [
            i32::from(self.0 as u16 as i16),
            i32::from((self.0 >> 16) as u16 as i16),
        ]
    }
}

/// Makes `items` `len` copies of `value`; a new allocation (when `items` is too small) is
/// backed by huge pages, as the layer solver reads its tables all over.
fn refill<T: Copy>(items: &mut Vec<T>, len: usize, value: T) {
    items.clear();
    if items.capacity() < len {
        *items = Vec::with_capacity(len.next_power_of_two());
        super::advise_huge_pages(items);
    }
    items.resize(len, value);
}

/// The key of a free [`Entry`] (positions are below [`ENDS`]).
const FREE: u64 = u64::MAX;

/// A slot of a [`Layers`] table: a position and its number in its layer.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    number: u32,
}

impl Entry {
    const EMPTY: Entry = Entry { key: FREE, number: 0 };
}

/// A game of one-word positions (below [`ENDS`]) for [`LayerSolver`].
pub trait Layered: Scored<Position = u64> {
    /// Pushes the children of the non-terminal `p` in move order, those that end the game
    /// with [`ENDS`] set.
    fn children(&self, p: u64, out: &mut Vec<u64>);

    /// The final scores of `p`, a child [`Layered::children`] marked as ending the game
    /// (without the mark).
    fn end_scores(&self, p: u64) -> Scores;
}

/// A solver for [`Layered`] games whose positions lie in layers: every line of play from
/// the start reaches a position after the same number of moves (as in Big Points, where
/// each move takes one disc). It finds the positions layer by layer from the start,
/// numbering each layer's positions and recording every move as its child's number, then
/// scores the layers from the last back to the first. Each layer's table is small, and
/// the scoring reads its records in order: the same results as [`ScoreSolver`], without
/// the cache misses of one table for the whole game.
pub struct LayerSolver<'g, 'r, 'm, G: Layered, R: DecisionRule + ?Sized = dyn DecisionRule> {
    game: &'g G,
    rule: &'r R,
    memory: &'m mut Layers,
}

impl<'g, 'r, 'm, G: Layered, R: DecisionRule + ?Sized> LayerSolver<'g, 'r, 'm, G, R> {
    /// A solver for `game` whose players follow `rule`, working in `memory`.
    pub fn new(game: &'g G, rule: &'r R, memory: &'m mut Layers) -> Self {
        LayerSolver { game, rule, memory }
    }

    /// The final scores reached from `p` when both players follow the rule, and the
    /// number of distinct non-terminal positions reachable from `p`.
    pub fn solve(&mut self, p: u64) -> (Scores, usize) {
        if let Some(s) = self.game.final_scores(&p) {
            return (s, 0);
        }
        let m = &mut *self.memory;
        m.this.clear();
        m.this.push(p);
        m.degrees.clear();
        m.edges.clear();
        m.finals.clear();
        m.starts.clear();
        let mut positions = 0;
        while !m.this.is_empty() {
            let expected = m.sizes.get(m.starts.len() + 1).copied().unwrap_or(0);
            m.starts.push([positions, m.edges.len(), m.finals.len()]);
            positions += m.this.len();
            m.expand(self.game, expected);
            std::mem::swap(&mut m.this, &mut m.next);
        }
        m.starts.push([positions, m.edges.len(), m.finals.len()]);
        m.sizes.clear();
        m.sizes.extend(m.starts.windows(2).map(|w| w[1][0] - w[0][0]));
        refill(&mut m.scores, positions, Pair(0));
        for layer in (0..m.starts.len() - 1).rev() {
            m.score(self.rule, layer);
        }
        (m.scores[0].get(), positions)
    }
}
