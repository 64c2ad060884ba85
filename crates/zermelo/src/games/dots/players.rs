//! Dots and Boxes players: greedy, and a strong player that knows chains and control.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::{Dots, Lines, Position};
use crate::play::{best_at_random, Player};
use crate::solve::budget::Budget;
use crate::solve::margin::MarginSolver;
use crate::{Error, Game};

/// Bytes a position the strong player's exact search remembers takes, with the map's
/// overhead.
const EXACT_ENTRY_BYTES: u64 = 64;

/// Undrawn lines at or below which the strong player searches exactly.
pub const EXACT_LINES: usize = 26;

/// Random playouts per quiet move when the strong player estimates parity.
const PLAYOUTS: usize = 6;

/// A string of boxes offered for capture that a player may take or decline.
struct Offer {
    /// A line that captures a box of the offer.
    take: usize,
    /// The line that declines it, handing the last boxes over to keep control.
    decline: usize,
    /// How many boxes declining hands over (2 for a chain, 4 for an opened loop).
    cost: i32,
}

impl Dots {
    fn quiet_moves(&self, lines: &Lines) -> Vec<usize> {
        self.undrawn(lines)
            .iter()
            .filter(|&l| self.completes(lines, l) == 0 && !self.is_sacrifice(lines, l))
            .collect()
    }

    /// The strings on offer that a player could decline: chains of two and opened loops of
    /// four (longer strings are taken by [`Dots::safe_capture`] first).
    fn offers(&self, lines: &Lines) -> Vec<Offer> {
        let mut offers: Vec<Offer> = Vec::new();
        for (b, l) in self.capturable(lines) {
            let Some(n) = self.across(l, b).filter(|&n| self.sides(lines, n) == 2) else {
                continue;
            };
            let out = self.other_undrawn(lines, n, l);
            match self.across(out, n) {
                Some(m) if self.sides(lines, m) == 2 => {
                    let end = self.other_undrawn(lines, m, out);
                    if offers.iter().any(|o| o.decline == out && o.take == end) {
                        continue;
                    }
                    offers.push(Offer {
                        take: l,
                        decline: out,
                        cost: 4,
                    });
                }
                _ => offers.push(Offer {
                    take: l,
                    decline: out,
                    cost: 2,
                }),
            }
        }
        offers
    }

    fn other_undrawn(&self, lines: &Lines, b: usize, not: usize) -> usize {
        self.box_lines[b]
            .into_iter()
            .find(|&x| x != not && !lines.has(x))
            .expect("a box with two sides drawn has two undrawn")
    }

    /// What the player in control can expect from a position where every move gives boxes
    /// away: long chains bring their length less four, loops less eight, the last string
    /// is taken whole, and an odd number of short chains hands control over.
    fn control_value(&self, lines: &Lines) -> i32 {
        let (mut value, mut shorts, mut long_chains, mut loops) = (0, 0, 0, 0);
        for (size, is_loop) in self.strings(lines) {
            let size = size as i32;
            match (is_loop, size) {
                (true, _) => {
                    loops += 1;
                    value += size - 8;
                }
                (false, 1 | 2) => shorts += 1,
                _ => {
                    long_chains += 1;
                    value += size - 4;
                }
            }
        }
        value += if long_chains > 0 {
            4
        } else if loops > 0 {
            8
        } else {
            0
        };
        if shorts % 2 == 0 {
            value
        } else {
            -value
        }
    }

    /// A capture or a decline for the mover of `lines`, when boxes are on offer.
    fn answer_offers(&self, lines: &Lines) -> usize {
        let mut offers = self.offers(lines);
        let capturable = self.capturable(lines);
        if offers.is_empty() {
            return capturable[0].1;
        }
        // Take the dearer strings first and keep the cheapest to decline last.
        offers.sort_by_key(|o| -o.cost);
        if offers.len() > 1 {
            return offers[0].take;
        }
        let last = &offers[0];
        let (_, rest) = self.take_all(lines);
        if !self.quiet_moves(&rest).is_empty() || self.undrawn(&rest).is_empty() {
            return last.take;
        }
        if self.control_value(&rest) > last.cost {
            last.decline
        } else {
            last.take
        }
    }

    /// Boxes the opponent takes after the sacrifice `l`, by taking everything.
    fn given_by(&self, lines: &Lines, l: usize) -> i32 {
        let mut after = *lines;
        after.insert(l);
        self.take_all(&after).0
    }
}

/// Captures the most boxes it can; otherwise draws a line that gives no box away; otherwise
/// gives away as few boxes as it can.
pub struct DotsGreedy {
    rng: StdRng,
}

impl DotsGreedy {
    /// A greedy player breaking ties with `seed`.
    pub fn new(seed: u64) -> Self {
        DotsGreedy {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Player<Dots> for DotsGreedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &Dots, p: &Position) -> Result<u8, Error> {
        let undrawn: Vec<usize> = game.undrawn(&p.lines).iter().collect();
        let most = undrawn.iter().map(|&l| game.completes(&p.lines, l)).max();
        let choices: Vec<usize> = if most.is_some_and(|m| m > 0) {
            undrawn
                .iter()
                .copied()
                .filter(|&l| Some(game.completes(&p.lines, l)) == most)
                .collect()
        } else {
            let quiet = game.quiet_moves(&p.lines);
            if quiet.is_empty() {
                fewest_given(game, &p.lines, &undrawn)
            } else {
                quiet
            }
        };
        choices
            .choose(&mut self.rng)
            .map(|&l| l as u8)
            .ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}

/// The sacrifices among `candidates` that give the fewest boxes away.
fn fewest_given(game: &Dots, lines: &Lines, candidates: &[usize]) -> Vec<usize> {
    let given: Vec<i32> = candidates.iter().map(|&l| game.given_by(lines, l)).collect();
    let least = given.iter().copied().min().unwrap_or(0);
    candidates
        .iter()
        .zip(&given)
        .filter(|(_, &g)| g == least)
        .map(|(&l, _)| l)
        .collect()
}

/// Plays by chain and control theory: takes free boxes, declines the last two boxes of a
/// chain (or four of a loop) when keeping control is worth more, steers the number of
/// quiet moves left so that the opponent must open the first long chain, sacrifices as
/// little as possible (without leaving the opponent a decline), and searches exactly once
/// at most [`EXACT_LINES`] lines are left or every box left has two sides drawn or more.
pub struct Strong {
    rng: StdRng,
    budget: Budget,
}

impl Strong {
    /// A strong player breaking ties with `seed`, with no limit.
    pub fn new(seed: u64) -> Self {
        Strong {
            rng: StdRng::seed_from_u64(seed),
            budget: Budget::default(),
        }
    }

    /// The same player within `budget`: its exact search gives up at the budget's memory,
    /// deadline or cancel flag, and the move is then the budget's error.
    pub fn with_budget(self, budget: Budget) -> Self {
        Strong { budget, ..self }
    }

    /// The quiet moves whose random continuations most often leave an even number of
    /// quiet moves, so that the opponent runs out of them first and must open the first
    /// chain (the long-chain fight for control).
    fn parity_moves(&mut self, game: &Dots, lines: &Lines, quiet: &[usize]) -> Vec<usize> {
        let scores: Vec<usize> = quiet
            .iter()
            .map(|&l| {
                let mut after = *lines;
                after.insert(l);
                (0..PLAYOUTS)
                    .filter(|_| {
                        let mut q = after;
                        let mut left = 0;
                        while let Some(&m) = game.quiet_moves(&q).choose(&mut self.rng) {
                            q.insert(m);
                            left += 1;
                        }
                        left % 2 == 0
                    })
                    .count()
            })
            .collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        quiet
            .iter()
            .zip(&scores)
            .filter(|(_, &s)| s == best)
            .map(|(&l, _)| l)
            .collect()
    }

    fn exact(&mut self, game: &Dots, p: &Position) -> Result<u8, Error> {
        let mut search = super::solver(game).with_limit(self.budget.limit(EXACT_ENTRY_BYTES));
        let mut moves = Vec::new();
        game.search_moves(p, &mut moves);
        let mut scored: Vec<(u8, i32)> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let child = game.play(p, &m);
            let r = search.remaining(&child);
            if search.stopped() {
                return Err(self.budget.stopped("the strong player's exact search"));
            }
            let gained =
                (child.boxes[p.mover as usize].count_ones() - p.boxes[p.mover as usize].count_ones()) as i32;
            let value = if child.mover == p.mover {
                gained + r
            } else {
                gained - r
            };
            scored.push((m, value));
        }
        best_at_random(&scored, &mut self.rng)
    }
}

impl Player<Dots> for Strong {
    fn name(&self) -> String {
        "strong".into()
    }

    fn choose(&mut self, game: &Dots, p: &Position) -> Result<u8, Error> {
        let undrawn: Vec<usize> = game.undrawn(&p.lines).iter().collect();
        if undrawn.is_empty() {
            return Err(Error::bad_move("", "no legal move in this position"));
        }
        // Once every box left has two sides drawn or more, the position is made of chains
        // and loops that exact search resolves quickly, however many lines are left.
        let loony = (0..game.box_count()).all(|b| game.sides(&p.lines, b) >= 2);
        if undrawn.len() <= EXACT_LINES || loony {
            return self.exact(game, p);
        }
        if let Some(l) = game.safe_capture(&p.lines) {
            return Ok(l as u8);
        }
        if !game.capturable(&p.lines).is_empty() {
            return Ok(game.answer_offers(&p.lines) as u8);
        }
        let quiet = game.quiet_moves(&p.lines);
        let choices = if quiet.is_empty() {
            let fewest = fewest_given(game, &p.lines, &undrawn);
            let hard: Vec<usize> = fewest
                .iter()
                .copied()
                .filter(|&l| {
                    let mut after = p.lines;
                    after.insert(l);
                    game.offers(&after).is_empty()
                })
                .collect();
            if hard.is_empty() {
                fewest
            } else {
                hard
            }
        } else {
            self.parity_moves(game, &p.lines, &quiet)
        };
        Ok(*choices.choose(&mut self.rng).expect("a move") as u8)
    }
}
