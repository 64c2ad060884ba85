//! How the exact Dots and Boxes search scales with the lines left: solves the position
//! after each prefix of an opening, longest prefix first, until one solve takes longer
//! than a time limit.
//!
//! `cargo run --release -p zermelo --example dots_scaling -- 5 1ab,1cd,5bc,5de 120`
//! (dots a side, the opening, the limit in seconds; then `alphabeta` for the older
//! search instead of the null-window one, whose table takes up to 4 GiB).

use std::time::Instant;

use zermelo::games::dots::{best_solver, solver, Dots};
use zermelo::solve::margin::{MarginSolver, Setup};
use zermelo::Notation;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !(4..=5).contains(&args.len()) {
        eprintln!("usage: dots_scaling SIZE OPENING SECONDS [alphabeta]");
        std::process::exit(2);
    }
    let alphabeta = args.get(4).is_some_and(|a| a == "alphabeta");
    let setup = Setup {
        bytes: 4 << 30,
        ..Setup::default()
    };
    let g = Dots::square(args[1].parse().expect("a size")).expect("a board");
    let opening: Vec<&str> = args[2].split(',').collect();
    let limit: f64 = args[3].parse().expect("seconds");
    for k in (0..=opening.len()).rev() {
        let p = g.after(&opening[..k]).expect("a legal opening");
        let started = Instant::now();
        let mut search: Box<dyn MarginSolver<Dots>> = if alphabeta {
            Box::new(solver(&g))
        } else {
            best_solver(&g, &setup)
        };
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
