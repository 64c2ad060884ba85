//! Octal games, named by a code `d0.d1d2d3…`: digit `dj` says what removing `j` tokens
//! from one heap may leave: bit 1 no heap (only when `j` is the whole heap), bit 2 one
//! non-empty heap, bit 4 two non-empty heaps. `d0` is 0 or 4 (`4.` codes may split a heap
//! without removing anything). Kayles is 0.77, Dawson's Kayles 0.07.
//!
//! The Grundy sequence is computed with the rare-values method. A heap `a` of value `v` is
//! on one side or the other by the parity of `v`'s bits under a mask, flipped for odd `a`
//! when the split also uses heap parity (only when the removals of all splitting moves
//! share one parity); the mask and that choice are taken from the values so far so that
//! few heaps are "rare", and chosen again as rare heaps appear. A split's parts are on
//! different sides exactly when the masked bits of its value have odd parity (flipped for
//! an odd heap split under the parity rule), so those values come from a loop over the
//! rare heaps only; and the common side is taken so that common heaps' values are of that
//! kind. A value of the other kind below the mex is looked for among all splits, which
//! usually succeeds after a few steps. The result is exact for any mask and either rule.

use std::fmt;

use super::nim::heaps;
use super::values::GrundyValues;
use super::{HeapGame, Rule};
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;

/// The largest heap accepted in a position.
pub const MAX_HEAP: u64 = 1_000_000;
/// The most digits accepted after the point.
pub const MAX_DIGITS: usize = 40;

/// An octal code, `default` when not given.
pub const fn code(default: Preset<&'static str>) -> Values {
    Values::Text {
        form: "0. or 4. then up to 40 digits 0-7",
        default,
    }
}

const CODE: Key = Key {
    name: "code",
    values: code(Preset::Is("0.77")),
    also: None,
    help: "the octal code",
};
const HEAPS: Key = Key {
    name: "heaps",
    values: heaps(MAX_HEAP, Preset::Is(&[10])),
    also: None,
    help: "heap sizes at the start",
};

/// The registry entry of octal games.
pub const INFO: GameInfo = GameInfo {
    name: "octal",
    summary: "octal game by its code (0.77 is Kayles); who cannot move loses",
    how_to_play: "Take tokens from one heap as the code allows (in Kayles, one or two neighbouring pins, perhaps splitting the row in two); whoever cannot move loses.",
    keys: &[CODE, HEAPS],
    players: super::PLAYERS,
};

/// The octal game a spec names.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    let code: Octal = spec.text(&CODE)?.parse()?;
    Ok(HeapGame::new(
        vec![(Rule::Octal(code), spec.list(&HEAPS)?)],
        false,
    ))
}

/// An octal code: `digits[j]` is the digit of removing `j` tokens.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Octal {
    digits: Vec<u8>,
}

impl std::str::FromStr for Octal {
    type Err = Error;

    fn from_str(text: &str) -> Result<Octal, Error> {
        let bad = |why: &str| Error::Spec(format!("code={text}: {why}"));
        let (lead, rest) = text
            .trim()
            .split_once('.')
            .ok_or_else(|| bad("expected a code like 0.77 or 4.07 (0 or 4, a point, digits 0-7)"))?;
        let d0 = match lead {
            "0" => 0,
            "4" => 4,
            _ => return Err(bad("the digit before the point is 0 or 4")),
        };
        if rest.len() > MAX_DIGITS {
            return Err(bad(&format!("at most {MAX_DIGITS} digits after the point")));
        }
        let mut digits = vec![d0];
        for c in rest.chars() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return Err(bad(&format!("'{c}' is not an octal digit 0-7"))),
            }
        }
        while digits.len() > 1 && digits[digits.len() - 1] == 0 {
            digits.pop();
        }
        if digits == [0] {
            return Err(bad("a game with no moves at all"));
        }
        Ok(Octal { digits })
    }
}

impl fmt::Display for Octal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl Octal {
    /// The index of the last non-zero digit.
    pub fn last_digit(&self) -> usize {
        self.digits.len() - 1
    }

    /// The removals `j` whose digit has `bit`.
    fn removals(&self, bit: u8) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&j| self.digits[j] & bit != 0)
            .collect()
    }

    /// Whether some move splits a heap in two.
    pub fn splits(&self) -> bool {
        !self.removals(4).is_empty()
    }

    /// The parity that the removals of all splitting moves share, `None` when they differ
    /// or no move splits.
    pub fn split_parity(&self) -> Option<usize> {
        let removals = self.removals(4);
        let parity = removals.first()? & 1;
        removals.iter().all(|j| j & 1 == parity).then_some(parity)
    }

    /// The classical name of the game, if it has one.
    pub fn name(&self) -> Option<&'static str> {
        match self.to_string().as_str() {
            "0.77" => Some("Kayles"),
            "0.07" => Some("Dawson's Kayles"),
            "0.137" => Some("Dawson's chess"),
            "0.007" => Some("Treblecross"),
            "0.6" => Some("the Officers game"),
            _ => None,
        }
    }

    /// Appends the moves on a heap of `size` as `(take, left)` (see [`Rule::moves`]).
    pub fn moves(&self, size: u64, out: &mut Vec<(u64, u64)>) {
        for (j, &d) in self.digits.iter().enumerate() {
            let j = j as u64;
            if j > 0 && ((j == size && d & 1 != 0) || (j < size && d & 2 != 0)) {
                out.push((j, 0));
            }
            if d & 4 != 0 && size >= j + 2 {
                out.extend((1..=(size - j) / 2).map(|a| (j, a)));
            }
        }
    }

    /// The number of moves on a heap of `size`.
    pub fn move_count(&self, size: u64) -> u64 {
        self.digits
            .iter()
            .enumerate()
            .map(|(j, &d)| {
                let j = j as u64;
                let one = j > 0 && ((j == size && d & 1 != 0) || (j < size && d & 2 != 0));
                let splits = if d & 4 != 0 && size >= j + 2 {
                    (size - j) / 2
                } else {
                    0
                };
                u64::from(one) + splits
            })
            .sum()
    }

    /// Whether a heap of `size` has a move.
    pub fn can_move(&self, size: u64) -> bool {
        self.digits.iter().enumerate().any(|(j, &d)| {
            let j = j as u64;
            (j > 0 && ((j == size && d & 1 != 0) || (j < size && d & 2 != 0)))
                || (d & 4 != 0 && size >= j + 2)
        })
    }

    /// How long a computed sequence must be for a repetition over all of it to be proven.
    /// Guy–Smith: with `k` the last non-zero digit, `g(n + p) = g(n)` for
    /// `pre <= n < 2 pre + p + k` makes the sequence periodic from `pre` on. Without
    /// splitting moves the window of `k` values below a heap decides it, so
    /// `max(pre, 1) + p + k` entries suffice.
    pub fn proof_length(&self, preperiod: usize, period: usize) -> usize {
        let k = self.last_digit();
        if self.splits() {
            2 * preperiod + 2 * period + k
        } else {
            preperiod.max(1) + period + k
        }
    }
}

/// Below this heap size every split is tried; the split into rare and common heaps is
/// first chosen here.
const FIRST_REVIEW: usize = 256;
/// First parts of splits looked at for one removal before the next removal's.
const PASS_BLOCK: usize = 256;
/// The split is chosen again only while every value is below `1 << MASK_BITS`.
const MASK_BITS: u32 = 16;

/// A split of heaps into rare and common ones: heap `a` of value `v` is rare when the
/// parity of `v`'s bits under `mask`, flipped for odd `a` when `parity`, is `side`.
///
/// A split of `m` whose parts are on different sides has a value whose masked bits have
/// odd parity, flipped for odd `m` under the parity rule. The side of common heaps is
/// taken so that their values are of that kind for every splitting move: the rare side
/// is even (0) without the parity rule, and the parity of the removals of the splitting
/// moves with it (which is only used when they all share one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Split {
    mask: u32,
    parity: bool,
    side: usize,
}

impl Split {
    /// The split that leaves the fewest heaps rare, with how many, among those counted in
    /// `counts` (entry `2v + (a & 1)`: the heaps `a >= 1` of value `v`; a power of two
    /// long) for a game whose splitting removals all have parity `removal_parity` (`None`:
    /// they differ). `None` when every split leaves every heap rare.
    fn best(counts: &[u64], removal_parity: Option<usize>) -> Option<(Split, u64)> {
        let total: u64 = counts.iter().sum();
        // Entry `s = 2 mask + parity`: the heaps with an even side less those with an odd one.
        let mut balance: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
        walsh_hadamard(&mut balance);
        (2..balance.len())
            .filter_map(|s| {
                let parity = s & 1 == 1;
                let side = if parity { removal_parity? } else { 0 };
                let even = ((total as i64 + balance[s]) / 2) as u64;
                let rare = if side == 0 { even } else { total - even };
                let mask = (s >> 1) as u32;
                Some((Split { mask, parity, side }, rare))
            })
            .min_by_key(|&(_, rare)| rare)
            .filter(|&(_, rare)| rare < total)
    }

    /// Whether heap `a`, of value `v`, is rare.
    fn is_rare(self, a: usize, v: u32) -> bool {
        ((v & self.mask).count_ones() as usize ^ (self.parity as usize & a)) & 1 == self.side
    }

    /// Whether value `v` is one a split of heap `n`'s moves may reach with both parts on
    /// one side, unseen by the loop over rare heaps.
    fn hard(self, n: usize, v: u32) -> bool {
        let flip = self.parity as usize & (n ^ self.side) & 1;
        (v & self.mask).count_ones() as usize & 1 == flip
    }
}

/// The Walsh–Hadamard transform of `h` (a power of two long), in place.
fn walsh_hadamard(h: &mut [i64]) {
    let mut half = 1;
    while half < h.len() {
        for block in h.chunks_mut(2 * half) {
            let (low, high) = block.split_at_mut(half);
            for (x, y) in low.iter_mut().zip(high) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        half *= 2;
    }
}

/// How the heaps of a sequence split into rare and common ones: heap `a` of value `v` is
/// rare when the parity of `v`'s bits under `mask`, flipped for odd `a` when `parity`, is
/// `side`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct RareSplit {
    /// The mask on values.
    pub mask: u32,
    /// Whether odd heaps are flipped.
    pub parity: bool,
    /// The side rare heaps are on (0 or 1).
    pub side: usize,
    /// The rare heaps (from 1), ascending.
    #[serde(skip)]
    pub heaps: Vec<usize>,
}

impl RareSplit {
    /// The split of the first `len` heaps of `values` (heap 0 left out) by `game`'s rule
    /// with the fewest rare heaps, when one leaves any heap common, the
    /// game splits heaps and the values are below `2^16`.
    pub fn best(game: &Octal, values: &GrundyValues, len: usize) -> Option<RareSplit> {
        let values = || values.iter().take(len).enumerate().skip(1);
        let max = values().map(|(_, v)| v).max()?;
        if !game.splits() || max >= 1 << MASK_BITS {
            return None;
        }
        let mut counts = vec![0; 2 * (max as usize + 1).next_power_of_two()];
        for (a, v) in values() {
            counts[2 * v as usize + (a & 1)] += 1;
        }
        let (split, _) = Split::best(&counts, game.split_parity())?;
        Some(RareSplit {
            mask: split.mask,
            parity: split.parity,
            side: split.side,
            heaps: values()
                .filter(|&(a, v)| split.is_rare(a, v))
                .map(|(a, _)| a)
                .collect(),
        })
    }
}

/// The Grundy sequence of an octal game, extended on demand, its values kept compactly.
pub struct GrundySequence {
    values: GrundyValues,
    search: Search,
}

/// Everything but the values that finds the value of the next heap.
struct Search {
    whole: Vec<usize>,
    single: Vec<usize>,
    split: Vec<usize>,
    /// The parity all removals of splitting moves share, if they do.
    split_parity: Option<usize>,
    sparse: bool,
    /// How heaps split into rare and common ones; `None` while every split is tried.
    rule: Option<Split>,
    /// Heaps (from 1) that are rare, ascending...
    rare: Vec<usize>,
    /// ...and their values.
    rare_values: Vec<u32>,
    /// The heaps from 1 by value and size parity (entry `2v + (a & 1)`), while the values
    /// are below `1 << MASK_BITS`.
    counts: Vec<u64>,
    /// The heap count when the split was last reviewed.
    reviewed_at: usize,
    /// A power of two above every value so far: no option's value reaches it.
    bound: u32,
    /// `seen[v] == n + 1` when value `v` is an option of heap `n`.
    seen: Vec<u32>,
    /// The values the loop over rare heaps missed and a split may still reach...
    open: Vec<u32>,
    /// ...and, by value, whether it is one of them.
    is_open: Vec<bool>,
}

/// A value as the sequence keeps it: 8, 16 or 32 bits.
trait Stored: Copy + Into<u32> + std::ops::BitXor<Output = Self> {}

impl<T: Copy + Into<u32> + std::ops::BitXor<Output = T>> Stored for T {}

impl GrundySequence {
    /// The sequence of `game`, with the rare-values method when `sparse` (else every
    /// split of every heap is tried: quadratic, for checking).
    pub fn new(game: &Octal, sparse: bool) -> Self {
        GrundySequence {
            values: GrundyValues::default(),
            search: Search {
                whole: game.removals(1).into_iter().filter(|&j| j > 0).collect(),
                single: game.removals(2).into_iter().filter(|&j| j > 0).collect(),
                split: game.removals(4),
                split_parity: game.split_parity(),
                sparse,
                rule: None,
                rare: Vec::new(),
                rare_values: Vec::new(),
                counts: vec![0; 2],
                reviewed_at: 0,
                bound: 1,
                seen: vec![0],
                open: Vec::new(),
                is_open: vec![false],
            },
        }
    }

    /// The sequence of `game` by the rare-values method, going on from `values` (the
    /// values of heaps `0..values.len()`, from an earlier run).
    pub fn resume(game: &Octal, values: GrundyValues) -> Self {
        let mut seq = GrundySequence::new(game, true);
        let len = values.len();
        seq.values = values;
        for n in 0..len {
            seq.search.add(&seq.values, n, seq.values.at(n));
        }
        seq
    }

    /// The values of heaps `0..len()`.
    pub fn values(&self) -> &GrundyValues {
        &self.values
    }

    /// The values, the sequence done with.
    pub fn into_values(self) -> GrundyValues {
        self.values
    }

    /// The mask that splits rare from common values (0 while every split is tried).
    pub fn mask(&self) -> u32 {
        self.search.rule.map_or(0, |r| r.mask)
    }

    /// Whether the split of heaps into rare and common uses heap-size parity too.
    pub fn parity(&self) -> bool {
        self.search.rule.is_some_and(|r| r.parity)
    }

    /// The heaps (from 1) that are rare, ascending.
    pub fn rare(&self) -> &[usize] {
        &self.search.rare
    }

    /// Makes room for the values of heaps up to `len - 1`, and for no more.
    pub fn reserve(&mut self, len: usize) {
        self.values.reserve(len.saturating_sub(self.values.len()));
    }

    /// Computes the values of heaps up to `len - 1`.
    pub fn extend_to(&mut self, len: usize) {
        while self.values.len() < len {
            let n = self.values.len();
            let g = match &self.values {
                GrundyValues::Bits8(g) => self.search.next(g, n),
                GrundyValues::Bits16(g) => self.search.next(g, n),
                GrundyValues::Bits32(g) => self.search.next(g, n),
            };
            self.values.push(g);
            self.search.add(&self.values, n, g);
        }
    }
}

impl Search {
    /// Takes in heap `n` of value `g` (`values` holds those of heaps up to `n` at least).
    fn add(&mut self, values: &GrundyValues, n: usize, g: u32) {
        if g >= self.bound {
            self.bound = (g + 1).next_power_of_two();
            self.seen.resize(self.bound as usize, 0);
            self.is_open.resize(self.bound as usize, false);
            if self.bound <= 1 << MASK_BITS {
                self.counts.resize(2 * self.bound as usize, 0);
            }
        }
        if n >= 1 && self.bound <= 1 << MASK_BITS {
            self.counts[2 * g as usize + (n & 1)] += 1;
        }
        if self.sparse && n >= 1 {
            self.track(values, n, g);
        }
    }

    /// Lists heap `n` of value `g` when it is rare, and chooses the split again when it is
    /// due: first at [`FIRST_REVIEW`] heaps, then at a new rare heap once the heaps since
    /// the last review have cost the loop over rare heaps at least as much as a review.
    fn track(&mut self, values: &GrundyValues, n: usize, g: u32) {
        let rare = self.rule.is_none_or(|r| r.is_rare(n, g));
        if rare && self.rule.is_some() {
            self.rare.push(n);
            self.rare_values.push(g);
        }
        let len = self.counts.len();
        let review_cost = len * len.trailing_zeros() as usize;
        let due = n + 1 == FIRST_REVIEW
            || (n + 1 > FIRST_REVIEW
                && rare
                && self.bound <= 1 << MASK_BITS
                && (n - self.reviewed_at) * (self.rare.len() + 1) >= review_cost);
        if due {
            self.review(values, n);
        }
    }

    /// Takes the split that leaves the fewest heaps up to `n` rare when it is clearly
    /// better than the one in use (by a sixteenth), and lists its rare heaps.
    fn review(&mut self, values: &GrundyValues, n: usize) {
        self.reviewed_at = n;
        let Some((best, count)) = Split::best(&self.counts, self.split_parity) else {
            return;
        };
        if self.rule.is_none() || count + count / 16 < self.rare.len() as u64 {
            self.rule = Some(best);
            self.rare.clear();
            self.rare_values.clear();
            for (a, v) in values.iter().take(n + 1).enumerate().skip(1) {
                if best.is_rare(a, v) {
                    self.rare.push(a);
                    self.rare_values.push(v);
                }
            }
        }
    }

    /// The value of heap `n`, from the values `g` of all smaller ones.
    fn next<T: Stored>(&mut self, g: &[T], n: usize) -> u32 {
        let stamp = n as u32 + 1;
        let value = |a: usize| -> u32 { g[a].into() };
        let seen: &mut [u32] = &mut self.seen;
        for &j in &self.whole {
            if n == j {
                seen[0] = stamp;
            }
        }
        for &j in &self.single {
            if n > j {
                seen[value(n - j) as usize] = stamp;
            }
        }
        let rare = self.rare.iter().zip(&self.rare_values);
        for &j in &self.split {
            if n < j + 2 {
                continue;
            }
            let m = n - j;
            match self.rule {
                None => {
                    for a in 1..=m / 2 {
                        seen[(g[a] ^ g[m - a]).into() as usize] = stamp;
                    }
                }
                Some(_) => {
                    for (&a, &v) in rare.clone().take_while(|&(&a, _)| a < m) {
                        seen[(v ^ value(m - a)) as usize] = stamp;
                    }
                }
            }
        }
        // The first value not reached that no split the loop skipped can reach either; the
        // values below it that such a split might reach are open.
        let splits = self.split.first().is_some_and(|&j| n >= j + 2);
        let hard = self.rule.filter(|_| splits);
        let mut v = 0;
        let candidate = loop {
            if v == self.bound || seen[v as usize] != stamp {
                match hard {
                    Some(rule) if v < self.bound && rule.hard(n, v) => {
                        self.open.push(v);
                        self.is_open[v as usize] = true;
                    }
                    _ => break v,
                }
            }
            v += 1;
        };
        self.first_unreached(g, n, candidate)
    }

    /// The least open value that no split of heap `n` has, else `candidate`. The splits
    /// are tried side by side, smallest first part first, in one pass for all the open
    /// values, which usually ends after a few steps.
    fn first_unreached<T: Stored>(&mut self, g: &[T], n: usize, candidate: u32) -> u32 {
        if self.open.is_empty() {
            return candidate;
        }
        let is_open: &mut [bool] = &mut self.is_open;
        let mut left = self.open.len();
        // Blocks of first parts, for every removal in turn, so that small first parts come
        // first for all of them.
        let last = (n - self.split[0]) / 2;
        'pass: for start in (1..=last).step_by(PASS_BLOCK) {
            for &j in &self.split {
                let end = ((n - j) / 2).min(start + PASS_BLOCK - 1);
                if end < start {
                    break;
                }
                // Heap `a` from the start, `n - j - a` from the end.
                let firsts = &g[start..=end];
                let seconds = g[n - j - end..=n - j - start].iter().rev();
                for (&x, &y) in firsts.iter().zip(seconds) {
                    let w = (x ^ y).into() as usize;
                    if is_open[w] {
                        is_open[w] = false;
                        left -= 1;
                        if left == 0 {
                            break 'pass;
                        }
                    }
                }
            }
        }
        let unreached = self.open.iter().copied().find(|&v| is_open[v as usize]);
        for v in self.open.drain(..) {
            is_open[v as usize] = false;
        }
        unreached.unwrap_or(candidate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(code: &str, len: usize, sparse: bool) -> Vec<u32> {
        let mut s = GrundySequence::new(&code.parse().unwrap(), sparse);
        s.extend_to(len);
        s.values().head(len)
    }

    #[test]
    fn kayles_starts_as_known() {
        assert_eq!(
            values("0.77", 16, true),
            vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]
        );
    }

    #[test]
    fn dawsons_kayles_starts_as_known() {
        assert_eq!(values("0.07", 12, true), vec![0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
    }

    #[test]
    fn sparse_agrees_with_every_split() {
        for code in ["0.77", "0.137", "0.16", "4.07", "0.54", "0.72"] {
            assert_eq!(values(code, 2000, true), values(code, 2000, false), "{code}");
        }
    }

    #[test]
    fn move_count_counts_the_moves() {
        for code in ["0.77", "4.07", "0.137", "0.6"] {
            let o: Octal = code.parse().unwrap();
            for size in 0..12 {
                let mut moves = Vec::new();
                o.moves(size, &mut moves);
                assert_eq!(o.move_count(size), moves.len() as u64, "{code} {size}");
                assert_eq!(o.can_move(size), !moves.is_empty());
            }
        }
    }

    #[test]
    fn codes_parse_and_print() {
        assert_eq!("0.770".parse::<Octal>().unwrap().to_string(), "0.77");
        assert_eq!("4.".parse::<Octal>().unwrap().to_string(), "4.");
        for bad in ["0.78", "1.7", "077", "0.", "0.000", "x.7"] {
            assert!(bad.parse::<Octal>().is_err(), "{bad}");
        }
    }
}
