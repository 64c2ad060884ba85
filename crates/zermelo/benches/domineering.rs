//! Who wins Domineering on empty boards, by the proof search: `cargo bench -p zermelo
//! --bench domineering [-- ROWSxCOLS... [--threads N] [--memory MIB]]` (by default 6x6,
//! 7x7 and 6x8, on every core, with a table of 1 GiB) prints each board's winner with
//! Vertical moving first, the seconds, the nodes searched and the positions kept.
//!
//! With `--sample N`, it proves nothing and instead tells how much the counting decides:
//! for each board, N positions at each of plies 8, 10 and 12 (Vertical to move), and the
//! share of them the counting decides. The positions are those of a proof that Vertical
//! wins: from the empty board, Vertical plays the move the search tries first and
//! Horizontal any move at random, through positions the counting leaves open.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use zermelo::games::domineering::proof::{Board, Free, Proof, ENTRY_BYTES};
use zermelo::solve::Limit;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let threads = value("--threads").unwrap_or_else(rayon::current_num_threads);
    let bytes = value("--memory").map_or(1 << 30, |mib| (mib as u64) << 20);
    let mut boards: Vec<(usize, usize)> = args
        .iter()
        .filter_map(|a| a.split_once('x'))
        .filter_map(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .collect();
    if boards.is_empty() {
        boards = vec![(6, 6), (7, 7), (6, 8)];
    }
    if let Some(count) = value("--sample") {
        for (rows, cols) in boards {
            sample(rows, cols, count);
        }
        return;
    }
    println!("board  winner       seconds        nodes   positions  (threads {threads}, table {} MiB, {ENTRY_BYTES} B an entry)", bytes >> 20);
    for (rows, cols) in boards {
        let board = Board::new(rows, cols);
        let all = board.all();
        let mut proof = Proof::new(board, bytes, Limit::default()).threads(threads);
        let started = Instant::now();
        let wins = proof.wins(all, 0).expect("no limit");
        let seconds = started.elapsed().as_secs_f64();
        let winner = if wins { "Vertical" } else { "Horizontal" };
        println!(
            "{rows}x{cols:<4} {winner:<10} {seconds:>9.3} {:>12} {:>11}",
            proof.nodes(),
            proof.positions()
        );
    }
}

/// Prints the share of `count` positions at each of plies 8, 10 and 12 of `rows` × `cols` that the
/// counting decides, reached through open ones by Vertical's first move and Horizontal's
/// random ones.
fn sample(rows: usize, cols: usize, count: usize) {
    let board = Board::new(rows, cols);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for ply in [8, 10, 12] {
        let (mut decided, mut found) = (0, 0);
        while found < count {
            let mut free: Free = board.all();
            let mut open = true;
            for p in 0..ply {
                let side = p % 2;
                if board.decided(free, side).is_some() {
                    open = false;
                    break;
                }
                let cell = if side == 0 {
                    board.ordered(free, side)[0]
                } else {
                    let places = board.places(free, side);
                    let at = rng.gen_range(0..places.count_ones());
                    (0..at).fold(places, |rest, _| rest & (rest - 1)).trailing_zeros()
                };
                free = board.play(free, side, cell);
            }
            if open {
                found += 1;
                decided += usize::from(board.decided(free, 0).is_some());
            }
        }
        println!(
            "{rows}x{cols} ply {ply:>2}: {decided} of {count} decided ({:.1} %)",
            100.0 * decided as f64 / count as f64
        );
    }
}
