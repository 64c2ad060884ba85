//! Games of the perfect player reading a book against the strong player, each taking
//! each seat in turn: for every move of the perfect player, the lines left, the bounds it
//! proved on its final lead and the time it took; for every game, the final margin.
//!
//! `cargo run --release -p zermelo --example dots_book_games -- 5 DATA 6 1`
//! (dots a side, the data folder holding the board's book from `zermelo solve`, games,
//! seed).

use std::time::Instant;

use zermelo::games::dots::players::Strong;
use zermelo::games::dots::{lines_search, Dots};
use zermelo::play::Player;
use zermelo::session::strategies::margins::THINK;
use zermelo::solve::margin::{MarginSolver, Setup};
use zermelo::table::book::Book;
use zermelo::{Game, Notation, Scored};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: dots_book_games SIZE DATA GAMES SEED");
        std::process::exit(2);
    }
    let size: usize = args[1].parse().expect("a size");
    let spec = format!("dots:size={size}");
    let path = std::path::Path::new(&args[2]).join(format!("dots-size-{size}.zbook"));
    let book = Book::open(&path, &spec).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let games: u64 = args[3].parse().expect("a number of games");
    let seed: u64 = args[4].parse().expect("a seed");
    let g = Dots::square(size).expect("a board");
    let setup = Setup {
        book: Some(std::sync::Arc::new(book)),
        ..Setup::default()
    };
    let mut perfect = lines_search(&g, &setup).expect("at most 64 lines");
    let (mut moves, mut exact, mut slowest) = (0, 0, 0.0f64);
    for game in 0..games {
        let seat = (game % 2) as u8;
        let mut strong = Strong::new(seed + game);
        let mut p = g.start();
        while g.outcome(&p).is_none() {
            let m = if g.to_move(&p) == seat {
                let started = Instant::now();
                let proven = perfect.prove(&p, Some(started + THINK));
                let took = started.elapsed().as_secs_f64();
                let left = g.line_count() - p.lines.len() as usize;
                println!(
                    "game {game} seat {seat} lines left {left:2}: {} lead {}..={} {took:.2} s",
                    g.format_move(&p, &proven.best),
                    proven.lo,
                    proven.hi
                );
                (moves, slowest) = (moves + 1, slowest.max(took));
                exact += usize::from(proven.lo == proven.hi);
                proven.best
            } else {
                strong.choose(&g, &p).expect("a move")
            };
            p = g.play(&p, &m);
        }
        let margin = g.score(&p, seat) - g.score(&p, 1 - seat);
        println!("game {game}: perfect in seat {seat} ends with margin {margin}");
    }
    println!("{moves} moves of the perfect player, {exact} exact, slowest {slowest:.2} s");
}
