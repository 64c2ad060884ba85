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

/// An open-addressing table (linear probing) of final scores keyed by one word: one flat
/// arena reused from solve to solve. A solve that starts afresh tags its slots with a new
/// epoch, so it clears nothing (every 255th clears the arena once); a solve that fills it
/// past three quarters starts again on one twice as big.
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
            epoch: 1,
        }
    }

    /// The number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Forgets every position: no slot is in use any more.
    pub fn clear(&mut self) {
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
        self.table.clear();
        let scores = self.solve_from(p, usize::MAX);
        (scores, self.table.filled)
    }

    /// The final scores reached from `p` when both players follow the rule, using what
    /// the table knows from earlier solves: the key must give positions of those solves'
    /// games the same key only when they have the same final scores. The table grows to
    /// at most `most_slots` slots; past that it forgets what it knew.
    pub fn solve_known(&mut self, p: &G::Position, most_slots: usize) -> Scores {
        self.solve_from(p, most_slots)
    }

    fn solve_from(&mut self, p: &G::Position, most_slots: usize) -> Scores {
        if self.game.outcome(p).is_some() {
            return final_scores(self.game, p);
        }
        loop {
            let root = (self.key)(self.game, p);
            let known = self.table.filled;
            let solved = self
                .table
                .find_or_reserve(root)
                .and_then(|slot| self.search(p, slot, 0));
            match solved {
                Ok(s) => return s,
                // Forget the earlier solves rather than grow past the limit (unless this
                // one alone needs more).
                Err(Full) if known > 0 && 2 * self.table.capacity() > most_slots => self.table.clear(),
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

/// A link of a [`LayerSolver`] for a move that ends the game.
const FINAL: u32 = u32::MAX;
/// The bit a [`Layered`] game sets in a child that ends the game.
pub const ENDS: u64 = 1 << 63;
/// The most counters a [`Layered`] position's tally may have.
pub const TALLY_KINDS: usize = 6;
/// The bits of one tally counter.
const COUNTER_BITS: u32 = 4;
/// Where a [`Layers`] or [`Census`] table key keeps the sum of its class's tallies.
const SUM_SHIFT: u32 = KEY_BITS;
/// The fewest slots a layer's table starts with.
const MIN_LAYER_SLOTS: usize = 1 << 10;

/// A game of one-word positions (below [`ENDS`]) for [`LayerSolver`] and [`Census`]. A
/// position is a *structure* (the bits below [`Layered::tally_shift`]) and a *tally* above
/// them: one 4-bit counter per kind, which moves may add to but which never changes what
/// the moves are. So the children of structure `s` with tally `t` are those of `s` alone,
/// `t` added: `children(s + t) = children(s) + t`.
pub trait Layered: Scored<Position = u64> {
    /// Pushes the children of the non-terminal `p` in move order, those that end the game
    /// with [`ENDS`] set.
    fn children(&self, p: u64, out: &mut Vec<u64>);

    /// The final scores of `p`, a child [`Layered::children`] marked as ending the game
    /// (without the mark).
    fn end_scores(&self, p: u64) -> Scores;

    /// Where the tally starts; its counters and the structure fit in [`KEY_BITS`] bits.
    fn tally_shift(&self) -> u32;

    /// The most each tally counter can hold in a position of structure `s` (its tally
    /// zero), one per kind (at most [`TALLY_KINDS`]), 0 for kinds the game has not.
    fn tally_limits(&self, s: u64) -> [u8; TALLY_KINDS];

    /// The most each tally counter can ever hold, one per kind, 0 for kinds the game has
    /// not.
    fn tally_bounds(&self) -> [u8; TALLY_KINDS];
}

/// The positions of one structure in a layer whose tallies have the same sum: a dense
/// array of cells, one per tally the structure's limits allow. One counter (`fixed`, of
/// the highest limit) follows from the sum and the others; tallies that differ only in
/// the `row` counter (of the next highest limit) and the fixed one have consecutive cells.
#[derive(Clone, Copy)]
struct Class {
    structure: u64,
    /// The sum of the counters of each of its tallies.
    sum: u32,
    fixed: usize,
    row: usize,
    limits: [u8; TALLY_KINDS],
    /// A tally's cell is `cell + Σ counter × stride` (the fixed counter's stride is 0).
    strides: [u32; TALLY_KINDS],
    /// The strides from this counter on are 0.
    span: usize,
    cell: usize,
    cells: usize,
    /// Where its positions start in [`Layers::cells`] (their links in turn), its number
    /// of moves and who makes them.
    position: usize,
    moves: usize,
    mover: PlayerId,
}

impl Class {
    fn new(structure: u64, sum: u32, limits: [u8; TALLY_KINDS], cell: usize) -> Class {
        // The counters of the highest limits, the first of them for ties.
        let (mut fixed, mut row) = (0, 1);
        if limits[row] > limits[fixed] {
            (fixed, row) = (row, fixed);
        }
        for k in 2..TALLY_KINDS {
            if limits[k] > limits[fixed] {
                (fixed, row) = (k, fixed);
            } else if limits[k] > limits[row] {
                row = k;
            }
        }
        let mut strides = [0; TALLY_KINDS];
        strides[row] = 1;
        let mut cells = usize::from(limits[row]) + 1;
        let mut span = row + 1;
        for k in (0..TALLY_KINDS).filter(|&k| k != fixed && k != row && limits[k] > 0) {
            strides[k] = cells as u32;
            cells *= usize::from(limits[k]) + 1;
            span = span.max(k + 1);
        }
        Class {
            structure,
            sum,
            fixed,
            row,
            limits,
            strides,
            span,
            cell,
            cells,
            position: 0,
            moves: 0,
            mover: 0,
        }
    }

    /// The cell of `tally`, one of the class's.
    #[inline]
    fn cell_of(&self, tally: u64) -> usize {
        self.cell + offset(tally, &self.strides[..self.span])
    }

    /// What the tally of a cell adds to the tally of the cell before it in a row: one to
    /// the row counter, minus one to the fixed counter.
    #[inline]
    fn step(&self) -> u64 {
        (1u64 << (COUNTER_BITS * self.row as u32)).wrapping_sub(1 << (COUNTER_BITS * self.fixed as u32))
    }

    /// Calls `f(cell, tally, len)` for each row of the class's tallies: cells `cell..cell +
    /// len`, the first of tally `tally`, each next one's [`Class::step`] further.
    #[inline]
    fn for_each_row(&self, mut f: impl FnMut(usize, u64, usize)) {
        let (fixed, row) = (self.fixed, self.row);
        let shift = |k: usize| COUNTER_BITS * k as u32;
        let (limit_fixed, limit_row) = (u32::from(self.limits[fixed]), u32::from(self.limits[row]));
        // The other counters, as an odometer.
        let (mut others, mut sum, mut cell) = (0u64, 0u32, self.cell);
        loop {
            if let Some(rest) = self.sum.checked_sub(sum) {
                let first = rest.saturating_sub(limit_fixed);
                let last = rest.min(limit_row);
                if first <= last {
                    let tally =
                        others | u64::from(first) << shift(row) | u64::from(rest - first) << shift(fixed);
                    f(cell + first as usize, tally, (last - first + 1) as usize);
                }
            }
            let mut k = 0;
            loop {
                if k == TALLY_KINDS {
                    return;
                }
                if k != fixed && k != row {
                    let counter = (others >> shift(k) & 15) as u32;
                    if counter < u32::from(self.limits[k]) {
                        others += 1 << shift(k);
                        sum += 1;
                        cell += self.strides[k] as usize;
                        break;
                    }
                    others &= !(15 << shift(k));
                    sum -= counter;
                    cell -= counter as usize * self.strides[k] as usize;
                }
                k += 1;
            }
        }
    }
}

/// A move of a [`Class`]: the child of its structure (tally zero), and where it leads:
/// for the position of tally `t`, to the cell `base + Σ counter of t × strides`, or to
/// the end of the game when `base` is [`ENDED`].
#[derive(Clone, Copy)]
struct Target {
    child: u64,
    base: usize,
    strides: [u32; TALLY_KINDS],
    span: usize,
}

/// The [`Target::base`] of a move that ends the game.
const ENDED: usize = usize::MAX;
/// How many moves ahead [`Layers::score`] asks for a child's scores.
const AHEAD: usize = 16;

/// The memory of a [`LayerSolver`]: flat arrays kept from solve to solve, so that a sweep
/// of many boards allocates only while its boards grow.
#[derive(Default)]
pub struct Layers {
    /// The classes of every layer, in order.
    classes: Vec<Class>,
    /// Per layer, then past the last: where its classes, links and finals start.
    starts: Vec<[usize; 3]>,
    /// Per cell: whether its position is reachable from the start.
    reached: Vec<bool>,
    /// Per position reached, in order (by layer, class and cell): its cell.
    cells: Vec<u32>,
    /// The tallies of a class's positions.
    tallies: Vec<u64>,
    /// Per move of a position, in order: its child's cell, or [`FINAL`].
    links: Vec<u32>,
    /// The final scores of the moves that end the game, in order.
    finals: Vec<Pair>,
    /// Per cell: its position's scores (when reached).
    scores: Vec<Pair>,
    /// Open addressing (linear probing) over the next layer's classes: a class's
    /// structure, with its sum at [`SUM_SHIFT`], and its number.
    slots: Vec<Entry>,
    /// The children of a structure.
    kids: Vec<u64>,
    /// The moves of a class.
    targets: Vec<Target>,
    /// The number of classes in each layer of the last solve: the expected sizes in the
    /// next (the boards of a sweep are alike), so that a table rarely grows.
    sizes: Vec<usize>,
}

impl Layers {
    /// Finds the classes of the layer after `layer` and its positions reached, recording
    /// the moves of `layer`'s positions, in a table sized for `expected` classes.
    fn expand<G: Layered>(&mut self, game: &G, layer: usize, expected: usize) {
        let (first, last) = (self.starts[layer][0], self.classes.len());
        let len = (2 * (last - first).max(expected) + 2)
            .next_power_of_two()
            .max(MIN_LAYER_SLOTS);
        refill(&mut self.slots, len, Entry::EMPTY);
        let shift = game.tally_shift();
        let structure = (1 << shift) - 1;
        for c in first..last {
            let class = self.classes[c];
            self.kids.clear();
            game.children(class.structure, &mut self.kids);
            self.classes[c].position = self.cells.len();
            self.classes[c].moves = self.kids.len();
            self.classes[c].mover = game.to_move(&class.structure);
            self.targets.clear();
            for k in 0..self.kids.len() {
                let child = self.kids[k];
                let target = if child & ENDS != 0 {
                    Target {
                        child: child & !ENDS,
                        base: ENDED,
                        strides: [0; TALLY_KINDS],
                        span: 0,
                    }
                } else {
                    let sum = class.sum + counter_sum(child >> shift);
                    let n = self.insert(game, child & structure, sum, last);
                    let to = &self.classes[n as usize];
                    Target {
                        child,
                        base: to.cell_of(child >> shift),
                        strides: to.strides,
                        span: to.span,
                    }
                };
                self.targets.push(target);
            }
            let step = class.step();
            let Layers {
                reached,
                cells,
                tallies,
                links,
                finals,
                targets,
                ..
            } = self;
            tallies.clear();
            class.for_each_row(|cell, mut tally, len| {
                for (j, &r) in reached[cell..cell + len].iter().enumerate() {
                    if r {
                        cells.push((cell + j) as u32);
                        tallies.push(tally);
                    }
                    tally = tally.wrapping_add(step);
                }
            });
            let start = links.len();
            links.resize(start + tallies.len() * targets.len(), FINAL);
            for (moves, &tally) in links[start..].chunks_exact_mut(targets.len()).zip(tallies.iter()) {
                for (link, t) in moves.iter_mut().zip(targets.iter()) {
                    if t.base == ENDED {
                        finals.push(Pair::new(game.end_scores(t.child + (tally << shift))));
                    } else {
                        let to = t.base + offset(tally, &t.strides[..t.span]);
                        reached[to] = true;
                        *link = to as u32;
                    }
                }
            }
        }
    }

    /// Scores the positions of `layer`, whose children are scored.
    fn score<R: DecisionRule + ?Sized>(&mut self, rule: &R, layer: usize) {
        let [first, mut link, mut last] = self.starts[layer];
        for c in first..self.starts[layer + 1][0] {
            let class = self.classes[c];
            let end = self.classes.get(c + 1).map_or(self.cells.len(), |n| n.position);
            for i in class.position..end {
                let mut best: Option<Scores> = None;
                for (j, &to) in self.links[link..link + class.moves].iter().enumerate() {
                    if let Some(&ahead) = self.links.get(link + j + AHEAD) {
                        if let Some(s) = self.scores.get(ahead as usize) {
                            prefetch(s);
                        }
                    }
                    let s = if to == FINAL {
                        last += 1;
                        self.finals[last - 1]
                    } else {
                        self.scores[to as usize]
                    }
                    .get();
                    if best.is_none_or(|b| rule.prefers(class.mover, &s, &b)) {
                        best = Some(s);
                    }
                }
                link += class.moves;
                self.scores[self.cells[i] as usize] =
                    Pair::new(best.expect("a non-terminal position has a move"));
            }
        }
    }

    /// The number of the next layer's class of `structure` with tallies summing to `sum`,
    /// adding it when it is new; the next layer's classes start at `first`.
    #[inline]
    fn insert<G: Layered>(&mut self, game: &G, structure: u64, sum: u32, first: usize) -> u32 {
        let key = class_key(structure, sum);
        if 2 * (self.classes.len() - first + 1) > self.slots.len() {
            self.grow(2 * self.slots.len(), first);
        }
        let free = match probe(&self.slots, key) {
            Ok(number) => return number,
            Err(free) => free,
        };
        let number = self.classes.len() as u32;
        let cell = self.reached.len();
        let class = Class::new(structure, sum, game.tally_limits(structure), cell);
        assert!(
            cell + class.cells < FINAL as usize,
            "too many cells for a layer solve"
        );
        self.reached.resize(cell + class.cells, false);
        self.classes.push(class);
        self.slots[free] = Entry { key, number };
        number
    }

    /// Empties the table into `len` slots (a power of two) and puts the classes from
    /// `first` on back in.
    fn grow(&mut self, len: usize, first: usize) {
        let keys = self.classes.iter().enumerate().skip(first);
        rehash(
            &mut self.slots,
            len,
            keys.map(|(n, c)| (n, class_key(c.structure, c.sum))),
        );
    }
}

/// The sum of `tally`'s counters times `strides`.
#[inline]
fn offset(tally: u64, strides: &[u32]) -> usize {
    let mut sum = 0;
    for (k, &stride) in strides.iter().enumerate() {
        sum += (tally >> (COUNTER_BITS * k as u32) & 15) as usize * stride as usize;
    }
    sum
}

/// The sum of the counters of `tally`.
#[inline]
fn counter_sum(tally: u64) -> u32 {
    // Pairs of counters summed into bytes, then the bytes summed in the top byte.
    const LOW: u64 = 0x0F0F_0F0F;
    let bytes = (tally & LOW) + (tally >> COUNTER_BITS & LOW);
    (bytes.wrapping_mul(0x0101_0101) >> 24) as u32 & 0xFF
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

/// The key of a free [`Entry`] (keys are below [`ENDS`]).
const FREE: u64 = u64::MAX;

/// A slot of a [`Layers`] or [`Census`] table: a key and its number.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    number: u32,
}

impl Entry {
    const EMPTY: Entry = Entry { key: FREE, number: 0 };
}

/// Empties `slots` into `len` slots (a power of two) and puts the numbered `keys` in.
fn rehash(slots: &mut Vec<Entry>, len: usize, keys: impl Iterator<Item = (usize, u64)>) {
    refill(slots, len, Entry::EMPTY);
    for (number, key) in keys {
        if let Err(free) = probe(slots, key) {
            slots[free] = Entry {
                key,
                number: number as u32,
            };
        }
    }
}

/// Where `key` is in the open-addressing table `slots` (a power of two of them, linear
/// probing): its number, or else the free slot to put it in.
#[inline]
fn probe(slots: &[Entry], key: u64) -> Result<u32, usize> {
    let mask = slots.len() - 1;
    let mut i = home(key, slots.len().trailing_zeros());
    loop {
        match slots[i] {
            slot if slot.key == key => return Ok(slot.number),
            slot if slot.key == FREE => return Err(i),
            _ => i = (i + 1) & mask,
        }
    }
}

/// The key of the class of `structure` whose tallies sum to `sum`, in a [`Layers`] or
/// [`Census`] table.
#[inline]
fn class_key(structure: u64, sum: u32) -> u64 {
    structure | u64::from(sum) << SUM_SHIFT
}

/// A solver for [`Layered`] games whose positions lie in layers: every line of play from
/// the start reaches a position after the same number of moves (as in Big Points, where
/// each move takes one disc). It finds the positions layer by layer from the start, then
/// scores the layers from the last back to the first. The positions of a layer that share
/// a structure form a class, whose moves are generated and looked up once; its positions
/// are cells of a dense array indexed by their tallies, and a move leads from a cell to a
/// cell of the child's class found by arithmetic. The same results as [`ScoreSolver`].
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
        let game = self.game;
        let m = &mut *self.memory;
        let shift = game.tally_shift();
        let (structure, tally) = (p & ((1 << shift) - 1), p >> shift);
        let root = Class::new(structure, counter_sum(tally), game.tally_limits(structure), 0);
        m.classes.clear();
        m.classes.push(root);
        m.reached.clear();
        m.reached.resize(root.cells, false);
        m.reached[root.cell_of(tally)] = true;
        m.cells.clear();
        m.links.clear();
        m.finals.clear();
        m.starts.clear();
        let mut first = 0;
        loop {
            m.starts.push([first, m.links.len(), m.finals.len()]);
            if first == m.classes.len() {
                break;
            }
            let layer = m.starts.len() - 1;
            let next = m.classes.len();
            m.expand(game, layer, m.sizes.get(layer + 1).copied().unwrap_or(0));
            first = next;
        }
        m.sizes.clear();
        m.sizes.extend(m.starts.windows(2).map(|w| w[1][0] - w[0][0]));
        refill(&mut m.scores, m.reached.len(), Pair(0));
        for layer in (0..m.starts.len() - 1).rev() {
            m.score(self.rule, layer);
        }
        let positions = m.cells.len();
        (m.scores[root.cell_of(tally)].get(), positions)
    }
}

/// Where a tally's bit lies in a [`Census`] class: one counter (`fixed`, of the highest
/// bound) follows from the class's sum and the others, which are the digits of the bit's
/// number, counter `k` of weight `strides[k]`.
struct Layout {
    strides: [u32; TALLY_KINDS],
    /// Words of 64 bits a class takes.
    words: usize,
}

impl Layout {
    fn new(bounds: [u8; TALLY_KINDS]) -> Layout {
        let fixed = (0..TALLY_KINDS).rev().max_by_key(|&k| bounds[k]).unwrap_or(0);
        let mut strides = [0; TALLY_KINDS];
        let mut bits = 1u32;
        for k in (0..TALLY_KINDS).filter(|&k| k != fixed) {
            strides[k] = bits;
            bits *= u32::from(bounds[k]) + 1;
        }
        Layout {
            strides,
            words: bits.div_ceil(64) as usize,
        }
    }

    /// The bit of `tally`.
    #[inline]
    fn bit(&self, tally: u64) -> usize {
        offset(tally, &self.strides)
    }
}

/// `to |= from << shift`, on bit sets of the same number of words, low word first.
#[inline]
fn or_shifted(to: &mut [u64], from: &[u64], shift: usize) {
    let (words, bits) = (shift / 64, (shift % 64) as u32);
    for j in (words..to.len()).rev() {
        let mut w = from[j - words] << bits;
        if bits > 0 && j > words {
            w |= from[j - words - 1] >> (64 - bits);
        }
        to[j] |= w;
    }
}

/// The classes of one layer: their keys (structure, with the sum of their tallies at
/// [`SUM_SHIFT`]) and, [`Layout::words`] words each, their bit sets of tallies.
#[derive(Default)]
struct Layer {
    keys: Vec<u64>,
    bits: Vec<u64>,
}

/// A counter of the positions of a [`Layered`] game reachable from a start, layer by
/// layer. The positions of a layer that share a structure and a tally sum form a class,
/// kept as a bit set of their tallies, so that a move is followed for all of them at once:
/// the child class's set gains the class's set shifted by what the move adds to the tally.
/// The memory is kept from count to count.
#[derive(Default)]
pub struct Census {
    layer: Layer,
    next: Layer,
    /// Open addressing (linear probing) over the next layer's classes.
    slots: Vec<Entry>,
    kids: Vec<u64>,
    /// The number of classes in each layer of the last count: the expected sizes in the
    /// next (the boards of a sweep are alike), so that a table rarely grows.
    sizes: Vec<usize>,
}

impl Census {
    /// The number of distinct non-terminal positions reachable from `p` (`p` included).
    pub fn count<G: Layered>(&mut self, game: &G, p: u64) -> usize {
        if game.final_scores(&p).is_some() {
            return 0;
        }
        let layout = Layout::new(game.tally_bounds());
        let shift = game.tally_shift();
        let (structure, tally) = (p & ((1 << shift) - 1), p >> shift);
        self.layer.keys.clear();
        self.layer.keys.push(class_key(structure, counter_sum(tally)));
        self.layer.bits.clear();
        self.layer.bits.resize(layout.words, 0);
        let bit = layout.bit(tally);
        self.layer.bits[bit / 64] |= 1 << (bit % 64);
        let mut positions = 0;
        let mut sizes = Vec::with_capacity(self.sizes.len());
        while !self.layer.keys.is_empty() {
            sizes.push(self.layer.keys.len());
            positions += self
                .layer
                .bits
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>();
            let expected = self.sizes.get(sizes.len()).copied().unwrap_or(0);
            self.expand(game, &layout, expected);
            std::mem::swap(&mut self.layer, &mut self.next);
        }
        self.sizes = sizes;
        positions
    }

    /// Finds the next layer's classes and their tallies from the current layer's, in a
    /// table sized for `expected` classes.
    fn expand<G: Layered>(&mut self, game: &G, layout: &Layout, expected: usize) {
        let len = (2 * self.layer.keys.len().max(expected) + 2)
            .next_power_of_two()
            .max(MIN_LAYER_SLOTS);
        refill(&mut self.slots, len, Entry::EMPTY);
        self.next.keys.clear();
        self.next.bits.clear();
        let shift = game.tally_shift();
        let structure = (1u64 << shift) - 1;
        let words = layout.words;
        for c in 0..self.layer.keys.len() {
            let key = self.layer.keys[c];
            self.kids.clear();
            game.children(key & structure, &mut self.kids);
            let sum = (key >> SUM_SHIFT) as u32;
            for k in 0..self.kids.len() {
                let child = self.kids[k];
                if child & ENDS != 0 {
                    continue;
                }
                let added = child >> shift;
                let n = self.insert(class_key(child & structure, sum + counter_sum(added)), words);
                let from = &self.layer.bits[c * words..(c + 1) * words];
                or_shifted(
                    &mut self.next.bits[n * words..(n + 1) * words],
                    from,
                    layout.bit(added),
                );
            }
        }
    }

    /// The number of the next layer's class of `key`, added (with no tallies) when new.
    #[inline]
    fn insert(&mut self, key: u64, words: usize) -> usize {
        if 2 * (self.next.keys.len() + 1) > self.slots.len() {
            self.grow(2 * self.slots.len());
        }
        let free = match probe(&self.slots, key) {
            Ok(number) => return number as usize,
            Err(free) => free,
        };
        let number = self.next.keys.len();
        self.next.keys.push(key);
        self.next.bits.resize(self.next.bits.len() + words, 0);
        self.slots[free] = Entry {
            key,
            number: number as u32,
        };
        number
    }

    /// Empties the table into `len` slots (a power of two) and puts the next layer's
    /// classes back in.
    fn grow(&mut self, len: usize) {
        rehash(&mut self.slots, len, self.next.keys.iter().copied().enumerate());
    }
}
