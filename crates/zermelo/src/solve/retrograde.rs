//! Retrograde analysis: backward induction over a dense index.
//!
//! Every valid rank is expanded once; predecessor lists are built; then values flow
//! backwards from the terminal positions in order of remoteness, a parent being
//! lost once its last child is known to win for the opponent. Positions never
//! resolved (cycles, or only draws ahead) are draws.

use std::collections::VecDeque;

use rayon::prelude::*;

use super::Progress;
use crate::game::Indexed;
use crate::table::ValueTable;
use crate::value::Value;

/// Ranks expanded per parallel work unit.
const CHUNK: u64 = 1 << 14;

/// The bit of a predecessor entry that marks a move after which the same player moves again.
const SAME_MOVER: u64 = 1 << 63;

/// What one chunk of ranks contributes: terminal values, move counts and edges.
#[derive(Default)]
struct Expansion {
    terminals: Vec<(u64, Value)>,
    counts: Vec<(u64, u32)>,
    /// (child, parent | SAME_MOVER flag)
    edges: Vec<(u64, u64)>,
    invalid: Vec<u64>,
}

/// Solves every valid position of `game`, returning the table of values.
pub fn solve<G: Indexed + Sync>(game: &G, progress: &dyn Progress) -> ValueTable
where
    G::Position: Send,
{
    let size = game.size();
    progress.start("expanding positions", size);
    let chunks: Vec<Expansion> = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut out = Expansion::default();
            let mut moves = Vec::new();
            for rank in chunk * CHUNK..((chunk + 1) * CHUNK).min(size) {
                let Some(p) = game.unrank(rank) else {
                    out.invalid.push(rank);
                    continue;
                };
                let mover = game.to_move(&p);
                if let Some(outcome) = game.outcome(&p) {
                    out.terminals.push((rank, Value::terminal(outcome, mover)));
                    continue;
                }
                moves.clear();
                game.moves(&p, &mut moves);
                out.counts.push((rank, moves.len() as u32));
                for m in &moves {
                    let child = game.play(&p, m);
                    let flag = if game.to_move(&child) == mover {
                        SAME_MOVER
                    } else {
                        0
                    };
                    out.edges.push((game.rank(&child), rank | flag));
                }
            }
            progress.advance(CHUNK.min(size - chunk * CHUNK));
            out
        })
        .collect();

    let mut table = ValueTable::new(size);
    let mut remaining = vec![0u32; size as usize];
    let mut first = vec![0u64; size as usize + 1];
    let mut queue = VecDeque::new();
    for c in &chunks {
        for &(child, _) in &c.edges {
            first[child as usize + 1] += 1;
        }
        for &(rank, n) in &c.counts {
            remaining[rank as usize] = n;
        }
        for &(rank, v) in &c.terminals {
            table.set(rank, v);
            if v != Value::Draw {
                queue.push_back(rank);
            }
        }
    }
    for i in 0..size as usize {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut parents = vec![0u64; first[size as usize] as usize];
    for c in chunks {
        for (child, parent) in c.edges {
            parents[fill[child as usize] as usize] = parent;
            fill[child as usize] += 1;
        }
    }
    drop(fill);

    progress.start("propagating values", queue.len() as u64);
    while let Some(child) = queue.pop_front() {
        progress.advance(1);
        let v = table.get(child).expect("queued ranks hold values");
        for &entry in &parents[first[child as usize] as usize..first[child as usize + 1] as usize] {
            let parent = entry & !SAME_MOVER;
            if table.is_set(parent) {
                continue;
            }
            match Value::from_child(v, entry & SAME_MOVER != 0) {
                win @ Value::Win(_) => {
                    table.set(parent, win);
                    queue.push_back(parent);
                }
                lose => {
                    remaining[parent as usize] -= 1;
                    if remaining[parent as usize] == 0 {
                        table.set(parent, lose);
                        queue.push_back(parent);
                    }
                }
            }
        }
    }
    for (rank, &left) in remaining.iter().enumerate() {
        if left > 0 && !table.is_set(rank as u64) {
            table.set(rank as u64, Value::Draw);
        }
    }
    table
}
