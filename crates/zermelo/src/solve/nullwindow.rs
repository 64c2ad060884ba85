//! Null-window search over margins with a fixed-size transposition table shared by every
//! core: the exact solver for game trees too big to keep whole (Dots and Boxes 4 × 4
//! boxes, m,n,k boards).
//!
//! A game hands the search a [`Tree`]: positions keyed by a 64-bit word (equal keys, equal
//! values), the children worth searching best first, each with what moving there gains
//! at once and whether the mover moves again, the exact value of the positions it can
//! tell directly, and bounds on every value. The value of a position is the margin its
//! mover can still force.
//!
//! The value is found by a series of null-window tests (MTD(f)): each asks whether the
//! value reaches a guess and leaves lower and upper bounds in the table, which later tests
//! reuse; before searching a position's children, the search reads their bounds and stops
//! when one of them already proves the test (enhanced transposition cutoff). The table
//! has a fixed number of two-entry buckets: one entry keeps the position with the most
//! work below it, the other the most recent one. Entries are
//! written without locks (a key word checked against its data word, so a torn write is
//! seen as a miss). Every core runs the same series of tests on the shared table, and
//! the cores split the work (ABDADA's deferral): a core that comes to a move other than a
//! position's first whose position another core is searching now leaves it for last, by
//! which time the other core's bounds are in the table. The first core to finish answers.
//!
//! What a search proved can be saved as a book ([`crate::table::book`]): a later search
//! of the same game reads the bounds of a position from it when its own table has none,
//! and single null-window tests ([`NullWindow::test`]) let a player keep a move proved
//! good without valuing every move.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use super::margin::{narrow, settle};
use super::{looks_now, prefetch, zeroed_words, Limit, Oracle, Progress, SearchOracle, Setup};
use crate::game::Game;
use crate::table::book::{self, Book, BookInfo};
use crate::{Error, Value};

/// Beyond every value.
const INFINITY: i32 = 1 << 14;

/// Nodes between two looks at the clock, the cancel flag and the other cores.
const CHECK_EVERY: u64 = 1 << 12;

/// Plies from the root where moves to the same position are searched once.
const SHALLOW_PLIES: usize = 4;

/// Work below a position (see [`Tree::work`]) from which a core defers it while another
/// searches it: below, searching it again costs less than looking.
const DEFER_FROM: u8 = 6;

/// Work below a position (see [`Tree::work`]) from which its children's entries are read
/// before any is searched, for a cutoff (below, a child's search is as cheap).
const CUTOFF_FROM: u8 = 6;

/// Positions that cores are searching now, remembered at once (a power of two).
const BUSY_SLOTS: usize = 1 << 15;

/// A child of a position as the search sees it.
#[derive(Clone, Copy, Debug)]
pub struct Child<N> {
    /// The position after the move.
    pub node: N,
    /// What the move gains the mover at once.
    pub gain: i32,
    /// Whether the mover moves again.
    pub keeps_turn: bool,
}

/// What the search needs of a game.
pub trait Tree: Sync {
    /// A position.
    type Node: Copy + Send + Sync;
    /// Its key: positions with equal keys have equal values.
    fn key(&self, n: &Self::Node) -> u64;
    /// The value of `n` when it is known without search (the end, simple endgames).
    fn exact(&self, n: &Self::Node) -> Option<i32>;
    /// The least and the greatest value `n` can have.
    fn bounds(&self, n: &Self::Node) -> (i32, i32);
    /// How much work lies below `n`, about (the moves left): deeper entries are kept.
    fn work(&self, n: &Self::Node) -> u8;
    /// The children worth searching, best first; they include a best move.
    fn children(&self, n: &Self::Node, out: &mut Vec<Child<Self::Node>>);
}

/// Leaves out the children that lead to the same position (the same key) as an earlier
/// one.
fn dedupe<T: Tree>(tree: &T, children: &mut Vec<Child<T::Node>>) {
    let mut keys: Vec<u64> = Vec::with_capacity(children.len());
    for i in 0..children.len() {
        let key = tree.key(&children[i].node);
        if !keys.contains(&key) {
            children.swap(keys.len(), i);
            keys.push(key);
        }
    }
    children.truncate(keys.len());
}

impl<N> Child<N> {
    /// The value of the parent through this child, whose own value is `v`.
    pub fn parent_value(&self, v: i32) -> i32 {
        if self.keeps_turn {
            self.gain + v
        } else {
            self.gain - v
        }
    }
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    lo: i8,
    hi: i8,
    /// The index of the best child found, to try first.
    best: u8,
    work: u8,
}

impl Entry {
    /// Packed with a bit that tells a written entry from an empty slot.
    fn pack(self) -> u64 {
        u64::from(self.lo as u8)
            | u64::from(self.hi as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.work) << 24
            | 1 << 32
    }

    fn unpack(data: u64) -> Option<Entry> {
        (data >> 32 & 1 == 1).then_some(Entry {
            lo: data as u8 as i8,
            hi: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            work: (data >> 24) as u8,
        })
    }
}

/// Bytes one table entry takes.
pub const ENTRY_BYTES: u64 = 16;

/// A fixed-size table of bounds, two entries a bucket, shared without locks.
pub struct BoundTable {
    /// Per entry: the key xor the data, then the data.
    words: Vec<AtomicU64>,
    /// Buckets less one (a power of two less one).
    mask: usize,
}

impl BoundTable {
    /// A table of at most `bytes` (at least one bucket).
    pub fn new(bytes: u64) -> BoundTable {
        let buckets = (bytes / (2 * ENTRY_BYTES)).max(1);
        let buckets = 1usize << (63 - buckets.leading_zeros());
        BoundTable {
            words: zeroed_words(buckets * 4),
            mask: buckets - 1,
        }
    }

    /// Entries in use (a scan of the whole table).
    pub fn used(&self) -> usize {
        self.words
            .chunks(2)
            .filter(|w| Entry::unpack(w[1].load(Relaxed)).is_some())
            .count()
    }

    /// The lower and upper bounds the table holds for `key`.
    pub fn bounds(&self, key: u64) -> Option<(i32, i32)> {
        self.get(key).map(|e| (i32::from(e.lo), i32::from(e.hi)))
    }

    /// Every entry in use: its key and packed data.
    fn entries(&self) -> impl Iterator<Item = (u64, Entry)> + '_ {
        self.words.chunks(2).filter_map(|w| {
            let data = w[1].load(Relaxed);
            Entry::unpack(data).map(|e| (w[0].load(Relaxed) ^ data, e))
        })
    }

    /// Saves the entries with the most work below them, at most `max_entries`, as the
    /// book of `spec` at `path`.
    pub fn save_book(&self, path: &Path, spec: &str, max_entries: u64) -> Result<BookInfo, Error> {
        let mut by_work = [0u64; 256];
        for (_, e) in self.entries() {
            by_work[e.work as usize] += 1;
        }
        let mut min_work = 256;
        let mut kept = 0;
        while min_work > 0 && kept + by_work[min_work - 1] <= max_entries {
            min_work -= 1;
            kept += by_work[min_work];
        }
        let entries = self
            .entries()
            .filter(|(_, e)| usize::from(e.work) >= min_work)
            .map(|(key, e)| (key, e.pack()));
        book::write(path, spec, min_work as u64, kept, entries)
    }

    fn bucket(&self, key: u64) -> usize {
        let mixed = (key ^ key >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        ((mixed ^ mixed >> 32) as usize & self.mask) * 4
    }

    fn slot(&self, at: usize, key: u64) -> Option<Entry> {
        let data = self.words[at + 1].load(Relaxed);
        if self.words[at].load(Relaxed) ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    /// Asks the processor for the bucket of `key`, to be looked at soon.
    fn fetch(&self, key: u64) {
        prefetch(&self.words[self.bucket(key)]);
    }

    fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slot(b, key).or_else(|| self.slot(b + 2, key))
    }

    fn write(&self, at: usize, key: u64, e: Entry) {
        let data = e.pack();
        self.words[at].store(key ^ data, Relaxed);
        self.words[at + 1].store(data, Relaxed);
    }

    /// Keeps `e` for `key`: over its own entry if there is one, else in the first entry
    /// when it has as much work below it, else in the second.
    fn put(&self, key: u64, e: Entry) {
        let b = self.bucket(key);
        if self.slot(b, key).is_some() {
            return self.write(b, key, e);
        }
        if self.slot(b + 2, key).is_some() {
            return self.write(b + 2, key, e);
        }
        let deep = Entry::unpack(self.words[b + 1].load(Relaxed)).map_or(0, |d| d.work);
        self.write(if e.work >= deep { b } else { b + 2 }, key, e);
    }
}

/// The keys of positions some core is searching now, one a slot, without locks: a key
/// lost to another in its slot only makes a core search a position another searches too.
struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    fn new(slots: usize) -> Busy {
        Busy {
            slots: zeroed_words(slots),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        let mixed = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.slots[(mixed >> 40) as usize & (self.slots.len() - 1)]
    }

    /// Whether another core searches `key` now; if not, marks it as searched by this one.
    fn claim(&self, key: u64) -> bool {
        let word = key | 1;
        let slot = self.slot(key);
        if slot.load(Relaxed) == word {
            return false;
        }
        slot.store(word, Relaxed);
        true
    }

    /// Marks `key` as no longer searched.
    fn release(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key | 1, 0, Relaxed, Relaxed);
    }
}

/// Settings of a search: its table, how many cores, when to give up, where to report.
pub struct NullWindow<T: Tree> {
    tree: T,
    table: BoundTable,
    threads: usize,
    /// Positions being searched, when several cores search.
    busy: Option<Busy>,
    limit: Limit,
    progress: Option<Arc<dyn Progress + Send>>,
    book: Option<Arc<Book>>,
    nodes: AtomicU64,
    stopped: bool,
}

impl<T: Tree> NullWindow<T> {
    /// A search of `tree` with a table of at most `bytes`, on one core.
    pub fn new(tree: T, bytes: u64) -> Self {
        NullWindow {
            tree,
            table: BoundTable::new(bytes),
            threads: 1,
            busy: None,
            limit: Limit::default(),
            progress: None,
            book: None,
            nodes: AtomicU64::new(0),
            stopped: false,
        }
    }

    /// The same search on `threads` cores.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        if self.threads == 1 {
            self.busy = None;
        } else if self.busy.is_none() {
            self.busy = Some(Busy::new(BUSY_SLOTS));
        }
        self
    }

    /// The same search, giving up at `setup`'s deadline or cancel flag and reporting each
    /// null-window test and its root moves to its progress (its bytes are the caller's
    /// to use).
    pub fn with_setup(mut self, setup: &Setup) -> Self {
        self.limit = setup.limit.clone();
        self.progress.clone_from(&setup.progress);
        self.book.clone_from(&setup.book);
        self
    }

    /// Whether a search gave up at its limit (its answer is then meaningless).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Positions visited by every core, counting revisits.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// The tree searched.
    pub fn tree(&self) -> &T {
        &self.tree
    }

    /// The table.
    pub fn table(&self) -> &BoundTable {
        &self.table
    }

    /// The value of `n`: the margin its mover can force.
    pub fn value(&mut self, n: &T::Node) -> i32 {
        if let Some(v) = self.tree.exact(n) {
            return v;
        }
        match self.run(None, |w| w.mtd(n)) {
            Some(v) => v,
            None => {
                self.stopped = true;
                0
            }
        }
    }

    /// A null-window test: whether the value of `n` reaches `beta`, giving up at
    /// `deadline`. The answer is a bound: at least `beta` when it reaches it, else an
    /// upper bound below `beta`; `None` when the search gave up.
    pub fn test(&mut self, n: &T::Node, beta: i32, deadline: Option<Instant>) -> Option<i32> {
        if let Some(v) = self.tree.exact(n) {
            return Some(v);
        }
        let answer = self.run(deadline, |mut w| {
            let v = w.search(n, None, beta - 1, beta, 0);
            w.finish(Some(v))
        });
        if answer.is_none() && self.limit.cancelled() {
            self.stopped = true;
        }
        answer
    }

    /// The bounds the table or the book holds for `n`, within the tree's own.
    pub fn known(&self, n: &T::Node) -> (i32, i32) {
        let (lo, hi) = self.tree.bounds(n);
        match self.lookup(self.tree.key(n), n) {
            Some(e) => (lo.max(e.lo.into()), hi.min(e.hi.into())),
            None => (lo, hi),
        }
    }

    /// The table's entry for `n`, else the book's when it keeps positions with as much
    /// work below them.
    fn lookup(&self, key: u64, n: &T::Node) -> Option<Entry> {
        self.table.get(key).or_else(|| {
            let book = self.book.as_ref()?;
            if u64::from(self.tree.work(n)) < book.info().min_work {
                return None;
            }
            book.data(key).and_then(Entry::unpack)
        })
    }

    /// Saves what the table proved as the book of `spec` at `path` (see
    /// [`BoundTable::save_book`]).
    pub fn save_book(&self, path: &Path, spec: &str, max_entries: u64) -> Result<BookInfo, Error> {
        self.table.save_book(path, spec, max_entries)
    }

    /// Runs `job` on every core, giving up at `deadline`: the first answer.
    fn run(
        &self,
        deadline: Option<Instant>,
        job: impl for<'w> Fn(Worker<'w, T>) -> Option<i32> + Sync,
    ) -> Option<i32> {
        let done = AtomicBool::new(false);
        let deadline = match (deadline, self.limit.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let answers: Vec<Option<i32>> = if self.threads == 1 {
            vec![job(self.worker(0, &done, deadline))]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..self.threads)
                    .map(|t| {
                        let (done, job) = (&done, &job);
                        s.spawn(move || job(self.worker(t, done, deadline)))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread does not panic"))
                    .collect()
            })
        };
        answers.into_iter().flatten().next()
    }

    fn worker<'s>(&'s self, id: usize, done: &'s AtomicBool, deadline: Option<Instant>) -> Worker<'s, T> {
        Worker {
            search: self,
            id,
            done,
            deadline,
            nodes: 0,
            buffers: Vec::new(),
            keys: Vec::new(),
        }
    }
}

/// One core's share of a search.
struct Worker<'s, T: Tree> {
    search: &'s NullWindow<T>,
    id: usize,
    /// Set by the first core to finish, or when the limit is reached.
    done: &'s AtomicBool,
    /// When to give up.
    deadline: Option<Instant>,
    nodes: u64,
    /// A buffer of children per ply.
    buffers: Vec<Vec<Child<T::Node>>>,
    /// A buffer of the children's keys per ply.
    keys: Vec<Vec<u64>>,
}

impl<T: Tree> Worker<'_, T> {
    /// The value by null-window tests, or `None` when another core finished first or the
    /// limit was reached.
    fn mtd(mut self, n: &T::Node) -> Option<i32> {
        let (mut lo, mut hi) = self.search.known(n);
        let mut guess = 0;
        let mut roots = Vec::new();
        self.search.tree.children(n, &mut roots);
        dedupe(&self.search.tree, &mut roots);
        while lo < hi {
            let beta = if guess <= lo { lo + 1 } else { guess.min(hi) };
            if self.id == 0 {
                if let Some(p) = &self.search.progress {
                    let what = format!("the margin is from {lo} to {hi}; trying {beta} or more");
                    p.start(&what, roots.len() as u64);
                }
            }
            guess = self.search(n, None, beta - 1, beta, 0);
            if self.done.load(Relaxed) {
                break;
            }
            if guess < beta {
                hi = guess;
            } else {
                lo = guess;
            }
        }
        self.finish((lo == hi).then_some(lo))
    }

    /// Counts this core's nodes; `answer` when it is the first core to finish (and stops
    /// the others).
    fn finish(self, answer: Option<i32>) -> Option<i32> {
        self.search.nodes.fetch_add(self.nodes, Relaxed);
        if self.done.load(Relaxed) {
            return None;
        }
        answer.filter(|_| !self.done.swap(true, Relaxed))
    }

    /// Whether to stop now: another core finished, or the limit is reached.
    fn halted(&mut self) -> bool {
        self.nodes += 1;
        if looks_now(self.nodes, CHECK_EVERY) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.search.limit.cancelled() {
                self.done.store(true, Relaxed);
            }
        }
        self.done.load(Relaxed)
    }

    /// The value of a position at `ply` through its child `child` (of table key `key`,
    /// when known), searched in the position's window.
    fn through(
        &mut self,
        child: &Child<T::Node>,
        key: Option<u64>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let g = child.gain;
        if child.keeps_turn {
            g + self.search(&child.node, key, alpha - g, beta - g, ply + 1)
        } else {
            g - self.search(&child.node, key, g - beta, g - alpha, ply + 1)
        }
    }

    /// Reports a root move done.
    fn root_move_done(&self, ply: usize) {
        if ply == 0 && self.id == 0 {
            if let Some(p) = &self.search.progress {
                p.advance(1);
            }
        }
    }

    /// The value of `n` (of table key `key`, when known) at `ply`, searched in the window
    /// `alpha..beta`.
    fn search(&mut self, n: &T::Node, key: Option<u64>, alpha: i32, beta: i32, ply: usize) -> i32 {
        let tree = &self.search.tree;
        if let Some(v) = tree.exact(n) {
            return v;
        }
        if self.halted() {
            return 0;
        }
        let key = key.unwrap_or_else(|| tree.key(n));
        let table = &self.search.table;
        let mut known = self.search.lookup(key, n).unwrap_or_else(|| {
            let (lo, hi) = tree.bounds(n);
            let clamp = |v: i32| v.clamp(-(i8::MAX as i32), i8::MAX as i32) as i8;
            Entry {
                lo: clamp(lo),
                hi: clamp(hi),
                best: 0,
                work: tree.work(n),
            }
        });
        let (mut alpha, beta) = match narrow(known.lo.into(), known.hi.into(), alpha, beta) {
            Ok(window) => window,
            Err(value) => return value,
        };
        let (alpha_in, beta_in) = (alpha, beta);
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[ply]);
        children.clear();
        tree.children(n, &mut children);
        if ply < SHALLOW_PLIES {
            dedupe(tree, &mut children);
        }
        let count = children.len();
        if self.keys.len() <= ply {
            self.keys.resize_with(ply + 1, Vec::new);
        }
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        if count > 1 && known.work >= CUTOFF_FROM {
            // Enhanced transposition cutoff: a child whose bounds in the table already
            // prove that the position reaches beta ends the search here. The children's
            // buckets are all asked for first, so that their reads overlap.
            for child in &children {
                let key = tree.key(&child.node);
                table.fetch(key);
                keys.push(key);
            }
            for (i, child) in children.iter().enumerate() {
                let Some(e) = table.get(keys[i]) else { continue };
                let v = if child.keeps_turn {
                    child.gain + i32::from(e.lo)
                } else {
                    child.gain - i32::from(e.hi)
                };
                if v >= beta {
                    known.lo = known.lo.max(v.min(i8::MAX.into()) as i8);
                    known.best = i as u8;
                    table.put(key, known);
                    self.buffers[ply] = children;
                    self.keys[ply] = keys;
                    return v;
                }
            }
        }
        let first = if (known.best as usize) < count {
            known.best as usize
        } else {
            0
        };
        let mut best = -INFINITY;
        let mut best_at = first;
        // Moves left for last because another core was searching them.
        let mut deferred = Vec::new();
        let mut order = (0..count)
            .map(|j| match j {
                0 => first,
                j if j == first => 0,
                j => j,
            })
            .peekable();
        // The key of the next child in order, its table bucket asked for while this child
        // is searched.
        let mut ahead: Option<u64> = None;
        let (mut taken, mut next_deferred) = (0, 0);
        loop {
            let (i, key, claimed) = if let Some(i) = order.next() {
                let child = &children[i];
                let key = if keys.is_empty() {
                    ahead.take()
                } else {
                    Some(keys[i])
                };
                match &self.search.busy {
                    Some(busy) if taken > 0 && tree.work(&child.node) >= DEFER_FROM => {
                        let key = key.unwrap_or_else(|| tree.key(&child.node));
                        if !busy.claim(key) {
                            deferred.push((i, key));
                            continue;
                        }
                        (i, Some(key), Some(busy))
                    }
                    _ => (i, key, None),
                }
            } else if let Some(&(i, key)) = deferred.get(next_deferred) {
                next_deferred += 1;
                (i, Some(key), None)
            } else {
                break;
            };
            taken += 1;
            // Past a first move that did not cut, every move is likely to be searched.
            if taken > 1 && keys.is_empty() {
                if let Some(&j) = order.peek() {
                    let key = tree.key(&children[j].node);
                    table.fetch(key);
                    ahead = Some(key);
                }
            }
            let v = self.through(&children[i], key, alpha, beta, ply);
            if let (Some(busy), Some(key)) = (claimed, key) {
                busy.release(key);
            }
            if v > best {
                best = v;
                best_at = i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
            self.root_move_done(ply);
        }
        self.buffers[ply] = children;
        self.keys[ply] = keys;
        if self.done.load(Relaxed) {
            return 0;
        }
        if count == 0 {
            best = 0;
        }
        let (lo, hi) = settle(known.lo.into(), known.hi.into(), best, alpha_in, beta_in);
        (known.lo, known.hi) = (lo as i8, hi as i8);
        known.best = best_at as u8;
        if count > 1 {
            // Another core may have narrowed the entry since it was read: keep both.
            if let Some(now) = table.get(key) {
                (known.lo, known.hi) = (known.lo.max(now.lo), known.hi.min(now.hi));
            }
            table.put(key, known);
        }
        best
    }
}

/// A tree whose values are the wins, losses and draws, with remoteness, of a game's
/// positions.
pub trait ValueTree<G: Game>: Tree + Clone {
    /// The game.
    fn game(&self) -> &G;
    /// The node of `p`, a position that has not ended.
    fn node(&self, p: &G::Position) -> Self::Node;
    /// The value of `p` for its mover, from the value of its node.
    fn value_of(&self, p: &G::Position, v: i32) -> Value;
    /// The bytes of table a search of `p` can use, about.
    fn table_bytes(&self, p: &G::Position) -> u64;
}

/// Work below a position (see [`Tree::work`]) from which a search runs on every core.
const PARALLEL_FROM: u8 = 16;

/// The exact value of positions by null-window searches sharing one table, made at the
/// first search to fit that position and the memory allowed.
pub struct TreeOracle<T: Tree> {
    tree: T,
    search: Option<NullWindow<T>>,
    setup: Setup,
}

impl<T: Tree> TreeOracle<T> {
    /// An oracle searching `tree` under `setup` (its table of at most `setup.bytes`).
    pub fn new(tree: T, setup: Setup) -> Self {
        TreeOracle {
            tree,
            search: None,
            setup,
        }
    }
}

impl<G: Game, T: ValueTree<G>> Oracle<G> for TreeOracle<T> {
    fn value(&mut self, p: &G::Position) -> Result<Value, crate::Error> {
        let game = self.tree.game();
        if let Some(outcome) = game.outcome(p) {
            return Ok(Value::terminal(outcome, game.to_move(p)));
        }
        let node = self.tree.node(p);
        let search = self.search.take().unwrap_or_else(|| {
            let bytes = self.tree.table_bytes(p).min(self.setup.bytes);
            NullWindow::new(self.tree.clone(), bytes).with_setup(&self.setup)
        });
        let threads = if self.tree.work(&node) >= PARALLEL_FROM {
            rayon::current_num_threads()
        } else {
            1
        };
        let search = self.search.insert(search.threads(threads));
        let v = search.value(&node);
        if search.stopped() {
            return Err(self.setup.limit.stop());
        }
        Ok(self.tree.value_of(p, v))
    }
}

impl<G: Game, T: ValueTree<G>> SearchOracle<G> for TreeOracle<T> {
    fn nodes(&self) -> u64 {
        self.search.as_ref().map_or(0, |s| s.nodes())
    }

    fn positions(&self) -> usize {
        self.search.as_ref().map_or(0, |s| s.table().used())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_and_unpack() {
        let e = Entry {
            lo: -16,
            hi: 9,
            best: 3,
            work: 40,
        };
        assert_eq!(Entry::unpack(e.pack()), Some(e));
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn the_table_keeps_the_deeper_entry_and_the_latest() {
        let t = BoundTable::new(2 * ENTRY_BYTES);
        let e = |work| Entry {
            lo: 0,
            hi: 1,
            best: 0,
            work,
        };
        t.put(1, e(10));
        t.put(2, e(3));
        t.put(3, e(4));
        assert_eq!(t.get(1), Some(e(10)));
        assert_eq!(t.get(2), None);
        assert_eq!(t.get(3), Some(e(4)));
        t.put(4, e(11));
        assert_eq!(t.get(4), Some(e(11)));
        assert_eq!(t.used(), 2);
    }
}
