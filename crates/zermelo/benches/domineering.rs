//! Who wins Domineering on empty boards, by the proof search: `cargo bench -p zermelo
//! --bench domineering [-- ROWSxCOLS... [--threads N] [--memory MIB]]` (by default 6x6,
//! 7x7 and 6x8, on every core, with a table of 1 GiB) prints each board's winner with
//! Vertical moving first, the seconds, the nodes searched and the positions kept.

use std::time::Instant;

use zermelo::games::domineering::proof::{Board, Proof, ENTRY_BYTES};
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
