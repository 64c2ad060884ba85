//! A memoising score solver over a flat table keyed by one word: the solver of Big Points
//! boards whose positions pack into [`KEY_BITS`] bits, the same results as
//! [`ScoreSolver`](crate::solve::scores::ScoreSolver), faster; and a table of final
//! scores that the threads of a sweep share.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::game::{Game, Scored};
use crate::solve::scores::{final_scores, DecisionRule, Scores};
use crate::solve::{prefetch, zeroed_words};

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
/// [`KEY_BITS`] bits: the same results as
/// [`ScoreSolver`](crate::solve::scores::ScoreSolver), faster. Each position's children
/// are generated together and their slots prefetched before any is probed, and a slot is
/// reserved when a position is first met, so its scores are written without a second
/// search of the table. Solves on several threads may share what they solved
/// ([`WordSolver::sharing`]).
pub struct WordSolver<'g, 'r, 't, G: Scored, R: DecisionRule + ?Sized = dyn DecisionRule> {
    game: &'g G,
    rule: &'r R,
    key: fn(&G, &G::Position) -> u64,
    table: &'t mut WordTable,
    /// The table shared with other solves, and this solve's tag there (shifted).
    shared: Option<(&'t SharedScores, u64)>,
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
            shared: None,
            frames: Vec::new(),
        }
    }

    /// The same solver, reading the final scores of positions from `shared` when its own
    /// table lacks them and adding those it solves: its keys there are tagged with `tag`
    /// above [`KEY_BITS`] (`1..=255`). Positions of every solve that shares a tag must have
    /// equal final scores when their keys are equal.
    pub fn sharing(mut self, shared: &'t SharedScores, tag: u64) -> Self {
        debug_assert!((1..=255).contains(&tag), "a tag is 1..=255");
        self.shared = Some((shared, tag << KEY_BITS));
        self
    }

    /// The final scores reached from `p` when both players follow the rule, and the
    /// number of distinct non-terminal positions the solve stored in its table (emptied
    /// first): every one reachable from `p`, less those whose scores came from the shared
    /// table.
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
                .and_then(|slot| self.search(p, root, slot, 0));
            match solved {
                Ok(s) => return (s, self.table.filled),
                Err(Full) => *self.table = WordTable::with_slots(2 * self.table.capacity()),
            }
        }
    }

    /// Solves the non-terminal `p` of key `key`, whose slot `slot` is reserved, and fills
    /// the slot (and the shared table).
    fn search(&mut self, p: &G::Position, key: u64, slot: usize, depth: usize) -> Result<Scores, Full> {
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
                    if let Some((shared, tag)) = self.shared {
                        shared.prefetch(k | tag);
                    }
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
                let found = match (found, self.shared) {
                    (None, Some((shared, tag))) => shared.get(*k | tag),
                    _ => found,
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
                        [PENDING, _] => self.search(q, *k, i, depth + 1)?,
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
        if let Some((shared, tag)) = self.shared {
            shared.put(key | tag, s);
        }
        Ok(s)
    }
}

/// The home slot of `key` in an open-addressing table of `2^bits` slots: Fibonacci
/// hashing, the top bits of the key times 2^64 / golden ratio.
#[inline]
pub(super) fn home(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

/// Entries in a bucket of [`SharedScores`]: 32 bytes, within one cache line.
const BUCKET: usize = 4;
/// The bits of a [`SharedScores`] entry below its key's: the two scores, 8 bits each, and
/// a mark of use.
const DATA_BITS: u32 = 17;
/// The mark of an entry in use.
const USED: u64 = 1 << 16;

/// A fixed-size table of final scores keyed by one word, which threads read and fill at
/// once without locks. Lossy: a new entry pushes its bucket's oldest out. Exact: an entry
/// is one word, written and read whole, holding the scores and the bits of the key that
/// its bucket's number leaves out (keys are mixed by a bijection first), so an entry
/// found is the key's own. Scores outside `0..=255` are not kept.
pub struct SharedScores {
    words: Vec<AtomicU64>,
    /// The word where bucket 0 starts (buckets lie within cache lines).
    first: usize,
    /// log2 of the number of buckets, at least [`DATA_BITS`].
    bits: u32,
}

impl SharedScores {
    /// A table of at most `bytes` (a power of two; at least 4 MiB), taken from the system
    /// as its entries are first written.
    pub fn new(bytes: u64) -> SharedScores {
        let buckets = (bytes / (8 * BUCKET as u64)).max(1 << DATA_BITS);
        let bits = 63 - buckets.leading_zeros();
        let words = zeroed_words((BUCKET << bits) + BUCKET - 1);
        let first = words.as_ptr().align_offset(8 * BUCKET);
        SharedScores { words, first, bits }
    }

    /// `key`'s bucket, and the bits of `key` its entry keeps.
    #[inline]
    fn place(&self, key: u64) -> (&[AtomicU64], u64) {
        // splitmix64's finaliser: xor-shifts and odd multipliers, a bijection.
        let mut m = (key ^ key >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        m = (m ^ m >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
        m ^= m >> 31;
        let at = self.first + (m >> (64 - self.bits)) as usize * BUCKET;
        (&self.words[at..at + BUCKET], m & u64::MAX >> self.bits)
    }

    /// The entry of the key whose kept bits are `kept` in `bucket`, if any.
    #[inline]
    fn find(bucket: &[AtomicU64], kept: u64) -> Option<u64> {
        bucket
            .iter()
            .map(|w| w.load(Relaxed))
            .find(|e| e >> DATA_BITS == kept && e & USED != 0)
    }

    /// Asks the processor to bring `key`'s bucket into the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.place(key).0[0]);
    }

    /// The final scores kept for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Scores> {
        let (bucket, kept) = self.place(key);
        Self::find(bucket, kept).map(|e| [(e & 255) as i32, (e >> 8 & 255) as i32])
    }

    /// Keeps `scores` for `key` at the front of its bucket, unless the bucket has it.
    pub fn put(&self, key: u64, scores: Scores) {
        let [Ok(a), Ok(b)] = scores.map(u8::try_from) else {
            return;
        };
        let (bucket, kept) = self.place(key);
        if Self::find(bucket, kept).is_some() {
            return;
        }
        for i in (1..BUCKET).rev() {
            bucket[i].store(bucket[i - 1].load(Relaxed), Relaxed);
        }
        bucket[0].store(
            kept << DATA_BITS | USED | u64::from(b) << 8 | u64::from(a),
            Relaxed,
        );
    }
}
