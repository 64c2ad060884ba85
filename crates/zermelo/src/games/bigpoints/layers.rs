//! The layer solver of Big Points boards of one-word positions ([`Layered`]): every
//! position found layer by layer from the start, then scored from the last layer back;
//! and the open-addressing class tables it shares with [`Census`](super::Census).

use super::words::{home, KEY_BITS};
use crate::game::{PlayerId, Scored};
use crate::solve::prefetch;
use crate::solve::scores::{DecisionRule, Scores};

/// A link of a [`LayerSolver`] for a move that ends the game.
const FINAL: u32 = u32::MAX;
/// The bit a [`Layered`] game sets in a child that ends the game.
pub const ENDS: u64 = 1 << 63;
/// The most counters a [`Layered`] position's tally may have.
pub const TALLY_KINDS: usize = 6;
/// The bits of one tally counter.
const COUNTER_BITS: u32 = 4;
/// Where a [`Layers`] or [`Census`](super::Census) table key keeps the sum of its class's tallies.
pub(super) const SUM_SHIFT: u32 = KEY_BITS;
/// The fewest slots a layer's table starts with.
pub(super) const MIN_LAYER_SLOTS: usize = 1 << 10;

/// A game of one-word positions (below [`ENDS`]) for [`LayerSolver`] and [`Census`](super::Census). A
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
pub(super) fn offset(tally: u64, strides: &[u32]) -> usize {
    let mut sum = 0;
    for (k, &stride) in strides.iter().enumerate() {
        sum += (tally >> (COUNTER_BITS * k as u32) & 15) as usize * stride as usize;
    }
    sum
}

/// The sum of the counters of `tally`.
#[inline]
pub(super) fn counter_sum(tally: u64) -> u32 {
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
pub(super) fn refill<T: Copy>(items: &mut Vec<T>, len: usize, value: T) {
    items.clear();
    if items.capacity() < len {
        *items = Vec::with_capacity(len.next_power_of_two());
        crate::solve::advise_huge_pages(items);
    }
    items.resize(len, value);
}

/// The key of a free [`Entry`] (keys are below [`ENDS`]).
const FREE: u64 = u64::MAX;

/// A slot of a [`Layers`] or [`Census`](super::Census) table: a key and its number.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) number: u32,
}

impl Entry {
    pub(super) const EMPTY: Entry = Entry { key: FREE, number: 0 };
}

/// Empties `slots` into `len` slots (a power of two) and puts the numbered `keys` in.
pub(super) fn rehash(slots: &mut Vec<Entry>, len: usize, keys: impl Iterator<Item = (usize, u64)>) {
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
pub(super) fn probe(slots: &[Entry], key: u64) -> Result<u32, usize> {
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
/// [`Census`](super::Census) table.
#[inline]
pub(super) fn class_key(structure: u64, sum: u32) -> u64 {
    structure | u64::from(sum) << SUM_SHIFT
}

/// A solver for [`Layered`] games whose positions lie in layers: every line of play from
/// the start reaches a position after the same number of moves (as in Big Points, where
/// each move takes one disc). It finds the positions layer by layer from the start, then
/// scores the layers from the last back to the first. The positions of a layer that share
/// a structure form a class, whose moves are generated and looked up once; its positions
/// are cells of a dense array indexed by their tallies, and a move leads from a cell to a
/// cell of the child's class found by arithmetic. The same results as
/// [`ScoreSolver`](crate::solve::scores::ScoreSolver).
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
