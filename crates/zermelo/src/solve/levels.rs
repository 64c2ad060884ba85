//! Backward induction level by level, for games whose positions form levels
//! ([`Levelled`]): the levels are solved from the highest down, each in parallel, every
//! position pulling its value from its already solved children. Positions whose moves
//! stay within their level (passes) are solved after the rest of their level.
//!
//! While solving, each rank holds one byte; the result is a [`CompactTable`]. Values
//! carry remoteness (the winner hurries, the loser delays) up to [`MAX_REMOTENESS`].

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::{Oracle, Progress};
use crate::game::{Indexed, Levelled};
use crate::table::CompactTable;
use crate::value::Value;

/// The greatest remoteness the solver can store.
pub const MAX_REMOTENESS: u32 = 126;

/// Ranks solved per parallel work unit.
const CHUNK: u64 = 1 << 12;

/// A rank not (yet) solved, or no valid position.
const UNKNOWN: u8 = 0;
/// A drawn position.
const DRAW: u8 = u8::MAX;

fn encode(v: Value) -> u8 {
    match v {
        Value::Draw => DRAW,
        Value::Win(r) | Value::Lose(r) => {
            assert!(
                r <= MAX_REMOTENESS,
                "remoteness {r} is beyond the level solver's limit of {MAX_REMOTENESS}"
            );
            (1 + 2 * r + u32::from(matches!(v, Value::Win(_)))) as u8
        }
    }
}

fn decode(code: u8) -> Option<Value> {
    match code {
        UNKNOWN => None,
        DRAW => Some(Value::Draw),
        c => {
            let r = u32::from(c - 1) / 2;
            Some(if (c - 1) & 1 == 1 {
                Value::Win(r)
            } else {
                Value::Lose(r)
            })
        }
    }
}

/// Solves every valid position of `game`, returning the table of values by rank.
///
/// Panics when the game breaks the [`Levelled`] promise (a move leading to an unsolved
/// position) or a remoteness exceeds [`MAX_REMOTENESS`].
pub fn solve<G: Levelled + Sync>(game: &G, progress: &dyn Progress) -> CompactTable {
    let size = game.size();
    let mut codes = vec![UNKNOWN; size as usize];
    {
        let cells = as_atomic(&mut codes);
        progress.start("solving levels", size);
        for level in (0..game.levels()).rev() {
            let ranks = game.level_ranks(level);
            let first_chunk = ranks.start / CHUNK;
            let deferred: Vec<u64> = (first_chunk..ranks.end.div_ceil(CHUNK))
                .into_par_iter()
                .flat_map_iter(|chunk| {
                    let lo = (chunk * CHUNK).max(ranks.start);
                    let hi = ((chunk + 1) * CHUNK).min(ranks.end);
                    let mut moves = Vec::new();
                    let mut deferred = Vec::new();
                    for rank in lo..hi {
                        match evaluate(game, cells, rank, &mut moves) {
                            Some(code) => cells[rank as usize].store(code, Relaxed),
                            None => deferred.push(rank),
                        }
                    }
                    progress.advance(hi - lo);
                    deferred
                })
                .collect();
            deferred.par_iter().for_each_init(Vec::new, |moves, &rank| {
                let code = evaluate(game, cells, rank, moves)
                    .expect("a move within a level leads to a position whose moves all lead higher");
                cells[rank as usize].store(code, Relaxed);
            });
        }
    }
    CompactTable::from_bytes(codes, decode)
}

/// The code of `rank` from its children's codes; `None` while a child is unsolved.
/// Ranks that are no valid position get [`UNKNOWN`].
fn evaluate<G: Indexed>(game: &G, cells: &[AtomicU8], rank: u64, moves: &mut Vec<G::Move>) -> Option<u8> {
    let Some(p) = game.unrank(rank) else {
        return Some(UNKNOWN);
    };
    let mover = game.to_move(&p);
    if let Some(outcome) = game.outcome(&p) {
        return Some(encode(Value::terminal(outcome, mover)));
    }
    moves.clear();
    game.moves(&p, moves);
    let mut best: Option<Value> = None;
    for m in moves.iter() {
        let child = game.play(&p, m);
        let v = decode(cells[game.rank(&child) as usize].load(Relaxed))?;
        let v = Value::from_child(v, game.to_move(&child) == mover);
        if best.is_none_or(|b| v > b) {
            best = Some(v);
        }
    }
    Some(encode(best.unwrap_or(Value::Draw)))
}

/// The bytes seen as atomics, so that parallel workers may write their own ranks while
/// reading others'.
fn as_atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size and alignment of `u8`, and the exclusive borrow
    // keeps every other access away while the atomic view lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// Answers values from a compact table of an indexed game.
pub struct CompactOracle<'a, G> {
    game: &'a G,
    table: &'a CompactTable,
}

impl<'a, G: Indexed> CompactOracle<'a, G> {
    /// Looks positions of `game` up in `table`.
    pub fn new(game: &'a G, table: &'a CompactTable) -> Self {
        CompactOracle { game, table }
    }
}

impl<G: Indexed> Oracle<G> for CompactOracle<'_, G> {
    fn value(&mut self, p: &G::Position) -> Value {
        self.table
            .get(self.game.rank(p))
            .expect("positions of the game have values")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in [
            Value::Win(0),
            Value::Win(126),
            Value::Lose(0),
            Value::Lose(126),
            Value::Draw,
        ] {
            assert_eq!(decode(encode(v)), Some(v));
        }
        assert_eq!(decode(UNKNOWN), None);
    }
}
