//! Sprague–Grundy values: the mex recursion for any impartial game, and the eventual
//! periods of value sequences (of heap games, indexed by heap size).
//!
//! A position's Grundy value is the least non-negative integer that is not the value of
//! one of its options; under normal play the mover loses exactly when it is 0, and the
//! value of a sum of games is the XOR of the values of its parts.

use rustc_hash::FxHashMap;

use crate::game::Impartial;

/// The minimum excludant: the least non-negative integer not in `values`.
pub fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let values: Vec<u64> = values.into_iter().collect();
    // The mex is at most the number of values, so larger ones change nothing.
    let mut seen = vec![false; values.len() + 1];
    for v in values {
        if let Some(slot) = usize::try_from(v).ok().and_then(|v| seen.get_mut(v)) {
            *slot = true;
        }
    }
    seen.iter()
        .position(|&s| !s)
        .expect("one slot more than there are values") as u64
}

/// A memoising Grundy solver for any impartial game with an acyclic position graph.
pub struct GrundySolver<'g, G: Impartial> {
    game: &'g G,
    table: FxHashMap<G::Position, u64>,
}

impl<'g, G: Impartial> GrundySolver<'g, G> {
    /// A solver for `game` with an empty memory.
    pub fn new(game: &'g G) -> Self {
        GrundySolver {
            game,
            table: FxHashMap::default(),
        }
    }

    /// The number of positions whose value is remembered.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// The Grundy value of `p`: the mex of its options' values.
    pub fn grundy(&mut self, p: &G::Position) -> u64 {
        if let Some(&g) = self.table.get(p) {
            return g;
        }
        let options = self.game.options(p);
        let values: Vec<u64> = options.iter().map(|o| self.grundy(o)).collect();
        let g = mex(values);
        self.table.insert(p.clone(), g);
        g
    }
}

/// Where a sequence becomes periodic: `s[n + period] == s[n]` for every `n >= preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The length of the part before the repetition starts.
    pub preperiod: usize,
    /// The length of the repeating block.
    pub period: usize,
}

impl Periodicity {
    /// The index below `preperiod + period` whose value index `n` repeats.
    pub fn index(self, n: u64) -> usize {
        if n < self.preperiod as u64 {
            n as usize
        } else {
            self.preperiod + ((n - self.preperiod as u64) % self.period as u64) as usize
        }
    }
}

/// The shortest period, with its shortest preperiod, that the computed `seq` proves.
///
/// `needed(preperiod, period)` is the game's proof rule: how long the computed sequence
/// must be for a repetition over all of it to force the repetition forever (for a
/// subtraction game `pre + p + max move`, for an octal game Guy–Smith's `2 pre + 2 p + k`).
/// It must not decrease when either argument grows. `None` when no period is proven.
///
/// Runs in linear time: the Z-function of the reversed sequence gives, for every
/// candidate period at once, how far back from the end the repetition reaches. It keeps
/// 4 bytes for each period the rule could prove with no preperiod (half the sequence for
/// an octal game that splits heaps); `seq` is shorter than `2^32`.
pub fn find_period<T: Eq>(seq: &[T], needed: impl Fn(usize, usize) -> usize) -> Option<Periodicity> {
    let n = seq.len();
    // The longest period worth looking at: `needed(0, p) <= n`, found by halving.
    let (mut longest, mut over) = (0, n);
    while over - longest > 1 {
        let mid = (longest + over) / 2;
        if needed(0, mid) <= n {
            longest = mid;
        } else {
            over = mid;
        }
    }
    let at = |i: usize| &seq[n - 1 - i];
    // z[p]: the longest run from the end over which seq[i] == seq[i - p].
    let mut z = vec![0u32; longest + 1];
    let (mut left, mut right) = (0usize, 0usize);
    for p in 1..=longest {
        let mut len = if p < right {
            (z[p - left] as usize).min(right - p)
        } else {
            0
        };
        while p + len < n && at(len) == at(p + len) {
            len += 1;
        }
        z[p] = len as u32;
        if p + len > right {
            left = p;
            right = p + len;
        }
    }
    (1..=longest).find_map(|period| {
        let preperiod = n - period - z[period] as usize;
        (needed(preperiod, period) <= n).then_some(Periodicity { preperiod, period })
    })
}

/// An eventually periodic sequence: its values up to the end of the first period, from
/// which the value at any index follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Periodic<T> {
    /// The values before the repetition and one full period.
    pub head: Vec<T>,
    /// Where and how the sequence repeats.
    pub shape: Periodicity,
}

impl<T: Clone> Periodic<T> {
    /// The proven periodic extension of `seq`, keeping only what determines it.
    pub fn new(seq: &[T], shape: Periodicity) -> Self {
        Periodic {
            head: seq[..shape.preperiod + shape.period].to_vec(),
            shape,
        }
    }

    /// The value at index `n`, however large.
    pub fn at(&self, n: u64) -> &T {
        &self.head[self.shape.index(n)]
    }

    /// The repeating block.
    pub fn pattern(&self) -> &[T] {
        &self.head[self.shape.preperiod..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_is_the_least_missing_value() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 1, 3]), 2);
        assert_eq!(mex([2, 0, 1]), 3);
    }

    #[test]
    fn finds_shortest_period_and_preperiod() {
        let seq: Vec<u32> = [5, 6, 7].into_iter().chain([1, 2, 3].repeat(10)).collect();
        let found = find_period(&seq, |pre, p| pre + 2 * p).unwrap();
        assert_eq!(
            found,
            Periodicity {
                preperiod: 3,
                period: 3
            }
        );
        let periodic = Periodic::new(&seq, found);
        assert_eq!(periodic.pattern(), &[1, 2, 3]);
        assert_eq!(*periodic.at(1), 6);
        assert_eq!(*periodic.at(3 + 3 * 1_000_000_000_000 + 2), 3);
    }

    #[test]
    fn a_repetition_too_short_for_the_proof_rule_is_no_period() {
        let seq = [0, 1, 2, 0, 1, 2, 0];
        assert!(find_period(&seq, |pre, p| pre + 3 * p).is_none());
        assert_eq!(find_period(&seq, |pre, p| pre + 2 * p).map(|f| f.period), Some(3));
    }
}
