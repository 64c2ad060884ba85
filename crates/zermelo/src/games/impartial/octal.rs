//! Octal games, named by a code `d0.d1d2d3…`: digit `dj` says what removing `j` tokens
//! from one heap may leave: bit 1 no heap (only when `j` is the whole heap), bit 2 one
//! non-empty heap, bit 4 two non-empty heaps. `d0` is 0 or 4 (`4.` codes may split a heap
//! without removing anything). Kayles is 0.77, Dawson's Kayles 0.07.
//!
//! The Grundy sequence is computed with the rare-values method. A heap `a` of value `v` is
//! on one side or the other by the parity of `v`'s bits under a mask, flipped for odd `a`
//! when the split also uses heap parity; the mask and that choice are taken from the
//! values so far so that few heaps are "rare" (on the even side). The side of a split
//! `a + b = m` is the parity of its value's bits under the mask, flipped when the parity
//! rule is on and `m` is odd; a split's parts are on different sides exactly when that
//! is odd. So every value on the odd side for `m` comes from a loop over the rare heaps
//! only; a value on the even side below the mex is looked for among all splits, which
//! usually succeeds after a few steps. The result is exact for any mask and either rule.

use std::fmt;

use super::nim::heap_list;
use super::{HeapGame, Rule};
use crate::spec::{GameInfo, KeyInfo, Spec};
use crate::Error;

/// The largest heap accepted in a position.
pub const MAX_HEAP: u64 = 1_000_000;
/// The most digits accepted after the point.
pub const MAX_DIGITS: usize = 40;

/// The registry entry of octal games.
pub const INFO: GameInfo = GameInfo {
    name: "octal",
    summary: "octal game by its code (0.77 is Kayles); who cannot move loses",
    how_to_play: "Take tokens from one heap as the code allows (in Kayles, one or two neighbouring pins, perhaps splitting the row in two); whoever cannot move loses.",
    keys: &[
        KeyInfo {
            key: "code",
            default: "0.77",
            range: "0. or 4. then up to 40 digits 0-7",
            help: "the octal code",
        },
        KeyInfo {
            key: "heaps",
            default: "10",
            range: "1..=32 heaps of 0..=1000000",
            help: "heap sizes at the start",
        },
    ],
    players: super::PLAYERS,
};

/// The octal game a spec names.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    let code: Octal = spec.get("code").unwrap_or("0.77").parse()?;
    let heaps = heap_list(spec, "heaps", MAX_HEAP)?.unwrap_or_else(|| vec![10]);
    Ok(HeapGame::new(vec![(Rule::Octal(code), heaps)], false))
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

/// Below this heap size every split is tried; the mask is first chosen here.
const FIRST_REVIEW: usize = 256;
/// The mask search considers values below `1 << MASK_BITS` only.
const MASK_BITS: u32 = 12;

/// How the heaps of a sequence split into rare and common ones: heap `a` of value `v` is
/// rare when the parity of `v`'s bits under `mask`, flipped for odd `a` when `parity`, is
/// `side`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
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
    /// The split of the heaps of `values` (heap `n` of value `values[n]`, heap 0 left out)
    /// with the fewest rare heaps, when one leaves any heap common and the values are
    /// below `2^12`.
    pub fn best(values: &[u32]) -> Option<RareSplit> {
        let heaps = values.get(1..)?;
        let max = heaps.iter().copied().max().unwrap_or(0);
        if max >= 1 << MASK_BITS {
            return None;
        }
        // Heaps by value and by the parity of their size.
        let mut counts = vec![[0usize; 2]; max as usize + 1];
        for (a, &v) in (1..).zip(heaps) {
            counts[v as usize][a & 1] += 1;
        }
        // Heaps on the even side under `mask` and the rule; the rest are on the odd one.
        let even_under = |mask: u32, parity: bool| -> usize {
            counts
                .iter()
                .enumerate()
                .map(|(v, c)| {
                    let side = (v as u32 & mask).count_ones() as usize & 1;
                    (0..2)
                        .filter(|&odd| side ^ (parity as usize & odd) == 0)
                        .map(|odd| c[odd])
                        .sum::<usize>()
                })
                .sum()
        };
        let rare_under = |(mask, parity, side): (u32, bool, usize)| {
            let even = even_under(mask, parity);
            if side == 0 {
                even
            } else {
                heaps.len() - even
            }
        };
        let width = (max + 1).next_power_of_two();
        let choices = (1..width.max(2))
            .flat_map(|m| [(m, false), (m, true)])
            .flat_map(|(m, p)| [(m, p, 0), (m, p, 1)]);
        let (mask, parity, side) = choices.min_by_key(|&c| rare_under(c))?;
        if rare_under((mask, parity, side)) >= heaps.len() {
            return None;
        }
        let flip = |a: usize| parity as usize & a;
        let heaps = (1..values.len())
            .filter(|&a| (values[a] & mask).count_ones() as usize & 1 ^ flip(a) == side)
            .collect();
        Some(RareSplit {
            mask,
            parity,
            side,
            heaps,
        })
    }
}

/// The Grundy sequence of an octal game, extended on demand.
pub struct GrundySequence {
    whole: Vec<usize>,
    single: Vec<usize>,
    split: Vec<usize>,
    values: Vec<u32>,
    sparse: bool,
    /// Heaps whose value's bits under the mask have even parity are rare; 0: all are.
    mask: u32,
    /// Whether an odd heap's side is flipped (the split uses heap-size parity too).
    parity: bool,
    /// The side rare heaps are on: either may be the small one.
    rare_side: usize,
    /// A power of two above every value so far: no split's value reaches it.
    bound: u32,
    /// Heaps (from 1) whose value is rare, ascending.
    rare: Vec<usize>,
    /// `seen[v] == n + 1` when value `v` is an option of heap `n`.
    seen: Vec<u32>,
    review_at: usize,
}

impl GrundySequence {
    /// The sequence of `game`, with the rare-values method when `sparse` (else every
    /// split of every heap is tried: quadratic, for checking).
    pub fn new(game: &Octal, sparse: bool) -> Self {
        GrundySequence {
            whole: game.removals(1).into_iter().filter(|&j| j > 0).collect(),
            single: game.removals(2).into_iter().filter(|&j| j > 0).collect(),
            split: game.removals(4),
            values: Vec::new(),
            sparse,
            mask: 0,
            parity: false,
            rare_side: 0,
            bound: 1,
            rare: Vec::new(),
            seen: Vec::new(),
            review_at: FIRST_REVIEW,
        }
    }

    /// The values of heaps `0..len()`.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The mask that splits rare from common values (0 while every split is tried).
    pub fn mask(&self) -> u32 {
        self.mask
    }

    /// Whether the split of heaps into rare and common uses heap-size parity too.
    pub fn parity(&self) -> bool {
        self.parity
    }

    /// The heaps (from 1) that are rare, ascending.
    pub fn rare(&self) -> &[usize] {
        &self.rare
    }

    /// Computes the values of heaps up to `len - 1`.
    pub fn extend_to(&mut self, len: usize) {
        while self.values.len() < len {
            let n = self.values.len();
            if self.sparse && n == self.review_at {
                self.review_mask();
                self.review_at *= 2;
            }
            let g = self.next(n);
            self.values.push(g);
            if g >= self.bound {
                self.bound = (g + 1).next_power_of_two();
            }
            if n >= 1 && self.mask != 0 && self.is_rare(n, g) {
                self.rare.push(n);
            }
        }
    }

    /// The parity of `v`'s bits under the mask.
    fn side(&self, v: u32) -> usize {
        (v & self.mask).count_ones() as usize & 1
    }

    /// The flip of heap size `a`'s side: 1 for odd `a` under the parity rule.
    fn flip(&self, a: usize) -> usize {
        self.parity as usize & a
    }

    /// Whether heap `a`, of value `v`, is rare.
    fn is_rare(&self, a: usize, v: u32) -> bool {
        self.side(v) ^ self.flip(a) == self.rare_side
    }

    /// Whether splits of `m` into two heaps with value `v` may have both parts rare or
    /// both common, so that the loop over rare heaps does not find them all.
    fn hard(&self, m: usize, v: u32) -> bool {
        self.side(v) ^ self.flip(m) == 0
    }

    /// Picks the mask and rule that leave the fewest rare heaps so far, and lists them.
    fn review_mask(&mut self) {
        if let Some(split) = RareSplit::best(&self.values) {
            (self.mask, self.parity, self.rare_side) = (split.mask, split.parity, split.side);
            self.rare = split.heaps;
        }
    }

    /// The value of heap `n`, all smaller ones known.
    fn next(&mut self, n: usize) -> u32 {
        let stamp = n as u32 + 1;
        let g = &self.values;
        let seen = &mut self.seen;
        let mut mark = |v: u32| {
            if v as usize >= seen.len() {
                seen.resize(v as usize + 1, 0);
            }
            seen[v as usize] = stamp;
        };
        for &j in &self.whole {
            if n == j {
                mark(0);
            }
        }
        for &j in &self.single {
            if n > j {
                mark(g[n - j]);
            }
        }
        let complete = self.mask == 0;
        for &j in &self.split {
            if n < j + 2 {
                continue;
            }
            let m = n - j;
            if complete {
                for a in 1..=m / 2 {
                    mark(g[a] ^ g[m - a]);
                }
            } else {
                for &a in self.rare.iter().take_while(|&&a| a < m) {
                    mark(g[a] ^ g[m - a]);
                }
            }
        }
        // The first value not reached that no skipped split can reach either, and the
        // values below it that a skipped split might reach.
        let mut open = Vec::new();
        let mut v = 0u32;
        loop {
            let reached = (v as usize) < self.seen.len() && self.seen[v as usize] == stamp;
            if !reached {
                let skipped = v < self.bound && self.split.iter().any(|&j| n >= j + 2 && self.hard(n - j, v));
                if complete || !skipped {
                    break;
                }
                open.push(v);
            }
            v += 1;
        }
        self.first_unreached(n, open).unwrap_or(v)
    }

    /// The least of `open`, values the loop over rare heaps did not reach, that no split of
    /// heap `n` has; `None` when every one of them is some split's value. The splits the
    /// loop may have missed (those of the removals `j` for which a value of `open` is
    /// [`Self::hard`] for `n - j`) are tried side by side, smallest first part first, in one
    /// pass for all the values, which usually ends after a few steps.
    fn first_unreached(&self, n: usize, mut open: Vec<u32>) -> Option<u32> {
        if open.is_empty() {
            return None;
        }
        let g = &self.values;
        let hard: Vec<usize> = self
            .split
            .iter()
            .copied()
            .filter(|&j| n >= j + 2 && open.iter().any(|&v| self.hard(n - j, v)))
            .collect();
        let first = *hard.first()?;
        // `wanted[v]`: whether `v` is still open.
        let mut wanted = vec![false; *open.iter().max()? as usize + 1];
        for &v in &open {
            wanted[v as usize] = true;
        }
        let mut left = open.len();
        for a in 1..=(n - first) / 2 {
            for &j in hard.iter().take_while(|&&j| n >= j + 2 * a) {
                let w = (g[a] ^ g[n - j - a]) as usize;
                if w < wanted.len() && wanted[w] {
                    wanted[w] = false;
                    left -= 1;
                    if left == 0 {
                        return None;
                    }
                }
            }
        }
        open.retain(|&v| wanted[v as usize]);
        open.into_iter().min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(code: &str, len: usize, sparse: bool) -> Vec<u32> {
        let mut s = GrundySequence::new(&code.parse().unwrap(), sparse);
        s.extend_to(len);
        s.values().to_vec()
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
