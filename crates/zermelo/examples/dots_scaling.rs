//! How the exact Dots and Boxes search scales with the lines left: solves the position
//! after each prefix of an opening, longest prefix first, until one solve takes longer
//! than a time limit.
//!
//! `cargo run --release -p zermelo --example dots_scaling -- 5 1ab,1cd,5bc,5de 120`
//! (dots a side, the opening, the limit in seconds).

use std::time::Instant;

use zermelo::games::dots::{solver, Dots};
use zermelo::Notation;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: dots_scaling SIZE OPENING SECONDS");
        std::process::exit(2);
    }
    let g = Dots::square(args[1].parse().expect("a size")).expect("a board");
    let opening: Vec<&str> = args[2].split(',').collect();
    let limit: f64 = args[3].parse().expect("seconds");
    for k in (0..=opening.len()).rev() {
        let p = g.after(&opening[..k]).expect("a legal opening");
        let started = Instant::now();
        let mut search = solver(&g);
        let margin = search.margin(&p);
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{} lines left ({}): margin {margin:+} for {}, {} positions, {} nodes, {seconds:.2} s",
            g.line_count() - k,
            g.format_position(&p),
            g.player_name(p.mover),
            search.positions(),
            search.nodes(),
        );
        if seconds > limit {
            break;
        }
    }
}
