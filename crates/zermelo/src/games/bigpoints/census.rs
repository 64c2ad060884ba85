//! The census of Big Points boards of one-word positions ([`Layered`]): the positions
//! reachable from a start counted layer by layer, a class of positions at a time.

use super::layers::{
    class_key, counter_sum, offset, probe, refill, rehash, Entry, Layered, ENDS, MIN_LAYER_SLOTS, SUM_SHIFT,
    TALLY_KINDS,
};

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
