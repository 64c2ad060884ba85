//! Connect Four: position counts against the published numbers, strong level tables of
//! small boards against the null-window search, and the perfect player's fastest wins.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use zermelo::catalog;
use zermelo::games::connect4::{tree_oracle, Connect4};
use zermelo::session::Options;
use zermelo::solve::{levels, Setup};
use zermelo::{Game, Indexed, Notation, Value};

/// John Tromp's counts of the positions reachable in play (ended ones included), as
/// confirmed by Markus Böck's strong solver: the program's own counts must equal them.
#[test]
fn counts_equal_the_published_numbers() {
    for (spec, published) in [
        ("connect4:cols=4,rows=4", 161_029u128),
        ("connect4:cols=5,rows=4", 3_945_711),
    ] {
        let counts = catalog::open(spec)
            .unwrap()
            .count(false, &Options::default())
            .unwrap();
        assert_eq!(counts.positions.unwrap().total.0, published, "{spec}");
    }
}

/// A random position `plies` moves from the start, or the end reached before.
fn random_position(g: &Connect4, rng: &mut StdRng, plies: usize) -> zermelo::games::connect4::Board {
    let mut p = g.start();
    for _ in 0..plies {
        let moves = g.legal_moves(&p);
        let Some(m) = moves.choose(rng) else { break };
        p = g.play(&p, m);
    }
    p
}

/// The level solve (backwards by the number of discs, over the compact ranks) and the
/// null-window search give every sampled position the same value and distance.
#[test]
fn level_tables_agree_with_the_search() {
    let mut rng = StdRng::seed_from_u64(46);
    for (cols, rows) in [(4, 4), (5, 4), (4, 5)] {
        let g = Connect4::new(cols, rows, 4).unwrap();
        let table = levels::solve(&g, &());
        let mut search = tree_oracle(&g, &Setup::default());
        for _ in 0..60 {
            let plies = rng.gen_range(0..g.cells());
            let p = random_position(&g, &mut rng, plies);
            let want = search.value(&p).unwrap();
            assert_eq!(
                table.get(g.rank(&p)),
                Some(want),
                "{cols}x{rows} at {}",
                g.format_position(&p)
            );
        }
    }
}

/// The table of 4 x 5 (four columns, five rows) tells the fastest wins: from a won
/// position, the best move leads to a loss one move nearer for the opponent.
#[test]
fn won_positions_have_a_move_one_nearer() {
    let g = Connect4::new(4, 5, 4).unwrap();
    let table = levels::solve(&g, &());
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    while checked < 20 {
        let plies = rng.gen_range(2..12);
        let p = random_position(&g, &mut rng, plies);
        let Some(Value::Win(plies)) = table.get(g.rank(&p)) else {
            continue;
        };
        let best = g
            .legal_moves(&p)
            .iter()
            .filter_map(|m| table.get(g.rank(&g.play(&p, m))))
            .filter_map(|v| match v {
                Value::Lose(n) => Some(n + 1),
                _ => None,
            })
            .min()
            .unwrap_or(1);
        assert_eq!(best, plies, "{}", g.format_position(&p));
        checked += 1;
    }
}

/// Times the level solve of bigger boards (a benchmark row, not a check):
/// `cargo test --release -p zermelo --test connect4 -- --ignored --nocapture`.
#[test]
#[ignore]
fn level_solves_of_bigger_boards() {
    for (cols, rows) in [(6, 4), (5, 5)] {
        let g = Connect4::new(cols, rows, 4).unwrap();
        let started = std::time::Instant::now();
        let table = levels::solve(&g, &());
        let seconds = started.elapsed().as_secs_f64();
        let (wins, losses, draws) = table.summary();
        println!(
            "{cols}x{rows}: {} ranks, {wins} won, {losses} lost, {draws} drawn (valid ranks), start {:?}, \
             {seconds:.1} s, {:.2e} ranks/s",
            g.size(),
            table.get(g.rank(&g.start())),
            g.size() as f64 / seconds
        );
    }
}
