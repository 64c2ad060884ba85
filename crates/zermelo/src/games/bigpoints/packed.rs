//! Two-player Big Points without black discs played on one-word positions: the words of
//! [`BigPoints::pack64`], with moves worked out on the word itself from tables made once
//! per board. The same game as [`BigPoints`] (the same moves in the same order, the same
//! scores), only faster to solve: the balance sweep's inner loop.

use super::{BigPoints, Take, Ties, BLACK, COLOURS, MAX_OF_KIND, WHITE};
use super::{Layered, ENDS, KEY_BITS, TALLY_KINDS};
use crate::game::{Game, Outcome, PlayerId, Scored};

/// A reduced two-player board whose positions are [`BigPoints::pack64`] words: taken
/// discs, each pawn's place (its index among its colour's discs, or past them its stair
/// rank), the mover, and the first player's hand (the second's follows from the taken
/// discs). The move from a word is the word it leads to.
#[derive(Clone, Debug)]
pub struct Packed {
    colours: usize,
    ties: Ties,
    /// The path's bits.
    full: u64,
    /// Per colour, the path bits of its discs.
    kind_mask: [u64; COLOURS],
    /// The path bits of white discs.
    white_mask: u64,
    /// Per colour, the path index of its `j`-th disc.
    disc_at: [[u8; MAX_OF_KIND]; COLOURS],
    /// Per colour, how many of its discs the path has.
    of_colour: [u64; COLOURS],
    /// Per colour, where its place field starts and its mask (unshifted).
    place_shift: [u32; COLOURS],
    place_mask: [u64; COLOURS],
    mover_shift: u32,
    /// Per colour, where the first player's count of it starts.
    hand_shift: [u32; COLOURS],
    /// Where the first player's count of white discs starts (when the path has any).
    white_shift: u32,
    /// Per path disc, what taking it adds to the first player's hand.
    take_add: Vec<u64>,
    /// Per path disc, its digit in a shared key (its kind, plus one).
    digit: Vec<u64>,
    /// The base of those digits.
    base: u64,
    /// Per hand kind (colours, then white when the path has any), the bits of its count in
    /// a shared key.
    hand_bits: Vec<u32>,
    /// The bits a shared key takes.
    shared_bits: u32,
}

impl BigPoints {
    /// This game on one-word positions, when it has two players, no black discs and
    /// [`BigPoints::pack64_bits`] of at most [`KEY_BITS`] (the flat table's keys).
    pub fn packed(&self) -> Option<Packed> {
        if self.players != 2 || self.kind_mask[BLACK as usize] != 0 || self.pack64_bits() > KEY_BITS {
            return None;
        }
        let mut shift = self.path.len() as u32;
        let mut place_shift = [0; COLOURS];
        let mut place_mask = [0; COLOURS];
        for c in 0..self.colours {
            let bits = super::width(self.of_colour[c] as u64 + self.colours as u64);
            place_shift[c] = shift;
            place_mask[c] = (1 << bits) - 1;
            shift += bits;
        }
        let mover_shift = shift;
        shift += 1;
        let mut hand_shift = [0; COLOURS];
        for h in hand_shift.iter_mut().take(self.colours) {
            *h = shift;
            shift += 4;
        }
        let white_shift = shift;
        let add = |kind: u8| match kind {
            WHITE => 1 << white_shift,
            c => 1 << hand_shift[c as usize],
        };
        let kinds = self.colours + usize::from(self.kind_mask[WHITE as usize] != 0);
        let base = kinds as u64 + 1;
        let hand_bits: Vec<u32> = (0..self.colours)
            .map(|c| super::width(u64::from(self.of_colour[c]) + 1))
            .chain(
                (kinds > self.colours)
                    .then(|| super::width(self.kind_mask[WHITE as usize].count_ones().into())),
            )
            .collect();
        let sequence_bits = (base as u128)
            .checked_pow(self.path.len() as u32)
            .map_or(u32::MAX, |n| 128 - (n - 1).leading_zeros());
        let shared_bits = sequence_bits
            .saturating_add(place_mask.iter().map(|m: &u64| m.count_ones()).sum::<u32>() + 1)
            .saturating_add(hand_bits.iter().sum::<u32>());
        Some(Packed {
            colours: self.colours,
            ties: self.ties,
            full: self.full_mask(),
            kind_mask: std::array::from_fn(|c| self.kind_mask[c]),
            white_mask: self.kind_mask[WHITE as usize],
            disc_at: self.disc_at,
            of_colour: self.of_colour.map(u64::from),
            place_shift,
            place_mask,
            mover_shift,
            hand_shift,
            white_shift,
            take_add: self.path.iter().map(|&k| add(k)).collect(),
            digit: self
                .path
                .iter()
                .map(|&k| if k == WHITE { self.colours as u64 } else { u64::from(k) } + 1)
                .collect(),
            base,
            hand_bits,
            shared_bits,
        })
    }
}

impl Packed {
    /// Pawn `c`'s place: 0 before the path, `1..=n` on its colour's discs, `n + 1 + rank`
    /// on the stair.
    #[inline]
    fn place(&self, p: u64, c: usize) -> u64 {
        p >> self.place_shift[c] & self.place_mask[c]
    }

    #[inline]
    fn with_place(&self, p: u64, c: usize, place: u64) -> u64 {
        p & !(self.place_mask[c] << self.place_shift[c]) | place << self.place_shift[c]
    }

    /// Whether [`Packed::shared_key`] fits in [`KEY_BITS`] bits.
    pub fn shares_keys(&self) -> bool {
        self.shared_bits <= KEY_BITS
    }

    /// A key of `p` that boards with the same number of discs of each kind and the same
    /// tie order give positions only when they have the same future (moves and scores): the
    /// kinds of the discs still on the path in order (not where they lie), each pawn's
    /// place among its colour's discs still there (or on the stair), the mover and the
    /// first player's hand (the second's follows). Taken discs play no further part, so
    /// positions of one board that differ only in which of alike discs were taken share
    /// a key too. At most [`KEY_BITS`] bits when [`Packed::shares_keys`].
    pub fn shared_key(&self, p: &u64) -> u64 {
        let p = *p;
        let present = self.full & !p;
        let mut key = 0;
        let mut rest = present;
        while rest != 0 {
            let i = 63 - rest.leading_zeros();
            key = key * self.base + self.digit[i as usize];
            rest &= !(1 << i);
        }
        for c in 0..self.colours {
            let place = match self.place(p, c) {
                j if j >= 1 && j <= self.of_colour[c] => {
                    let at = self.disc_at[c][j as usize - 1] as u32;
                    u64::from((present & self.kind_mask[c] & super::below(at)).count_ones()) + 1
                }
                place => place,
            };
            key = key << self.place_mask[c].count_ones() | place;
        }
        key = key << 1 | p >> self.mover_shift & 1;
        // The hand's counts lie side by side, 4 bits each, colours then white.
        let hand = p >> self.hand_shift[0];
        for (k, &bits) in self.hand_bits.iter().enumerate() {
            key = key << bits | hand >> (4 * k) & 15;
        }
        key
    }

    /// How many discs of colour `c` (white for `c == None`) player `who` holds.
    fn held(&self, p: u64, who: usize, c: Option<usize>) -> i32 {
        let taken = p & self.full;
        let (shift, mask, stair) = match c {
            Some(c) => (
                self.hand_shift[c],
                self.kind_mask[c],
                self.place(p, c) > self.of_colour[c],
            ),
            None if self.white_mask == 0 => return 0,
            None => (self.white_shift, self.white_mask, false),
        };
        let first = (p >> shift & 15) as i32;
        if who == 0 {
            first
        } else {
            (taken & mask).count_ones() as i32 + i32::from(stair) - first
        }
    }

    /// Player `who`'s points: final at the end; before it, colours still out count at the
    /// mean value of the free steps, rounded down (as [`BigPoints::points`]).
    fn points(&self, p: u64, who: usize) -> i32 {
        let mut arrived = 0;
        let (mut points, mut pending, mut kinds) = (0, 0, 0);
        for c in 0..self.colours {
            let n = self.held(p, who, Some(c));
            kinds += i32::from(n > 0);
            let place = self.place(p, c);
            if place > self.of_colour[c] {
                arrived += 1;
                let rank = (place - self.of_colour[c] - 1) as i32;
                points += n * (self.colours as i32 - 1 - rank);
            } else {
                pending += n;
            }
        }
        let free_steps = self.colours as i32 - arrived;
        points + pending * (free_steps - 1).max(0) / 2 + self.held(p, who, None) * kinds
    }

    #[inline]
    fn finished(&self, p: u64) -> bool {
        (0..self.colours).all(|c| self.place(p, c) > self.of_colour[c])
    }

    /// Both players' points in a finished game, in one pass.
    #[inline]
    fn final_points(&self, p: u64) -> (i32, i32) {
        let taken = p & self.full;
        let (mut a, mut b, mut kinds_a, mut kinds_b) = (0, 0, 0, 0);
        for c in 0..self.colours {
            let first = (p >> self.hand_shift[c] & 15) as i32;
            let second = (taken & self.kind_mask[c]).count_ones() as i32 + 1 - first;
            let value = (self.of_colour[c] + self.colours as u64 - self.place(p, c)) as i32;
            a += first * value;
            b += second * value;
            kinds_a += i32::from(first > 0);
            kinds_b += i32::from(second > 0);
        }
        if self.white_mask != 0 {
            let first = (p >> self.white_shift & 15) as i32;
            let second = (taken & self.white_mask).count_ones() as i32 - first;
            a += first * kinds_a;
            b += second * kinds_b;
        }
        (a, b)
    }

    /// Pushes the words pawn moves lead to, in move order, with `ends` set in the one that
    /// ends the game (the last pawn onto the stair); `nothing` allows path moves that take
    /// nothing (and only those). Returns whether any was pushed.
    #[inline]
    fn steps(&self, p: u64, nothing: bool, ends: u64, out: &mut Vec<u64>) -> bool {
        let present = self.full & !p;
        let mut occupied = 0u64;
        let mut arrived = 0;
        for c in 0..self.colours {
            match self.place(p, c) {
                0 => {}
                j if j <= self.of_colour[c] => occupied |= 1 << self.disc_at[c][j as usize - 1],
                _ => arrived += 1,
            }
        }
        let mover = p >> self.mover_shift & 1;
        let flipped = p ^ 1 << self.mover_shift;
        let before = out.len();
        for c in 0..self.colours {
            let place = self.place(p, c);
            let n = self.of_colour[c];
            if place > n {
                continue;
            }
            let own = present & self.kind_mask[c];
            let (from, ahead_of) = match place {
                0 => (0, own),
                j => {
                    let at = self.disc_at[c][j as usize - 1] as u32;
                    (1u64 << at, own & !super::below(at + 1))
                }
            };
            if ahead_of == 0 {
                if !nothing {
                    let q = self.with_place(flipped, c, n + 1 + arrived);
                    let q = if mover == 0 {
                        q + (1 << self.hand_shift[c])
                    } else {
                        q
                    };
                    out.push(if arrived + 1 == self.colours as u64 {
                        q | ends
                    } else {
                        q
                    });
                }
                continue;
            }
            let to = ahead_of.trailing_zeros();
            let free = present & !(occupied & !from) & !(1 << to);
            let index = (self.kind_mask[c] & super::below(to)).count_ones() as u64 + 1;
            let q = self.with_place(flipped, c, index);
            if nothing {
                out.push(q);
                continue;
            }
            for take in self.ties.takes() {
                let t = match take {
                    Take::Behind => super::highest(free & super::below(to)),
                    _ => super::lowest(free & !super::below(to)),
                };
                if let Some(t) = t {
                    let took = q | 1 << t;
                    out.push(if mover == 0 {
                        took + self.take_add[t as usize]
                    } else {
                        took
                    });
                }
            }
        }
        out.len() > before
    }
}

impl Game for Packed {
    type Position = u64;
    type Move = u64;

    fn start(&self) -> u64 {
        0
    }

    fn to_move(&self, p: &u64) -> PlayerId {
        (p >> self.mover_shift & 1) as PlayerId
    }

    fn moves(&self, p: &u64, out: &mut Vec<u64>) {
        if !self.finished(*p) && !self.steps(*p, false, 0, out) {
            self.steps(*p, true, 0, out);
        }
    }

    fn play(&self, _p: &u64, m: &u64) -> u64 {
        *m
    }

    #[inline]
    fn outcome(&self, p: &u64) -> Option<Outcome> {
        if !self.finished(*p) {
            return None;
        }
        // At the end both hands hold every colour's discs; compare their points.
        let (a, b) = self.final_points(*p);
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }
}

impl Layered for Packed {
    fn children(&self, p: u64, out: &mut Vec<u64>) {
        if !self.steps(p, false, ENDS, out) {
            self.steps(p, true, ENDS, out);
        }
    }

    fn end_scores(&self, p: u64) -> [i32; 2] {
        let (a, b) = self.final_points(p);
        [a, b]
    }

    /// The tally is the first player's hand: a count per colour, then of white discs.
    fn tally_shift(&self) -> u32 {
        self.hand_shift[0]
    }

    /// The discs of each kind taken so far (a colour's stair disc once its pawn arrived).
    fn tally_limits(&self, s: u64) -> [u8; TALLY_KINDS] {
        let mut limits = [0; TALLY_KINDS];
        for (c, limit) in limits.iter_mut().enumerate().take(self.colours) {
            let stair = self.place(s, c) > self.of_colour[c];
            *limit = ((s & self.kind_mask[c]).count_ones() + u32::from(stair)) as u8;
        }
        limits[self.colours] = (s & self.white_mask).count_ones() as u8;
        limits
    }

    /// The discs of each colour (its stair disc included) and the white discs.
    fn tally_bounds(&self) -> [u8; TALLY_KINDS] {
        let mut bounds = [0; TALLY_KINDS];
        for (c, bound) in bounds.iter_mut().enumerate().take(self.colours) {
            *bound = self.of_colour[c] as u8 + 1;
        }
        bounds[self.colours] = self.white_mask.count_ones() as u8;
        bounds
    }
}

impl Scored for Packed {
    fn final_scores(&self, p: &u64) -> Option<[i32; 2]> {
        self.finished(*p).then(|| {
            let (a, b) = self.final_points(*p);
            [a, b]
        })
    }

    fn score(&self, p: &u64, player: PlayerId) -> i32 {
        if self.finished(*p) {
            let (a, b) = self.final_points(*p);
            return if player == 0 { a } else { b };
        }
        self.points(*p, player as usize)
    }
}
