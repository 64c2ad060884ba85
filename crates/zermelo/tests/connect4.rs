//! Connect Four: position counts against the published numbers, strong level tables of
//! small boards against the null-window search, and the perfect player's fastest wins.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use zermelo::analysis::count;
use zermelo::catalog;
use zermelo::conformance::CHECKS;
use zermelo::games::connect4::{tree_oracle, Connect4};
use zermelo::session::saved::verify;
use zermelo::session::{Options, PositionView, Verdict};
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::{levels, plain_key, symmetric_key, KeyFn, Setup};
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

/// Counting level by level over the ranks finds the positions and classes that
/// exploring from the start finds, ended ones by result.
#[test]
fn counts_by_levels_equal_the_explored_counts() {
    for (cols, rows, k) in [(4, 4, 4), (5, 4, 4), (4, 5, 3), (3, 6, 4)] {
        let g = Connect4::new(cols, rows, k).unwrap();
        for (symmetric, key) in [
            (false, plain_key::<Connect4> as KeyFn<Connect4>),
            (true, symmetric_key),
        ] {
            let by_levels = count::positions_by_levels(&g, &g.start(), symmetric, &(), None).unwrap();
            assert_eq!(
                by_levels,
                count::positions(&g, &g.start(), key),
                "{cols}x{rows} k={k}"
            );
        }
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

/// Every check of the conformance suite passes on Connect Four, answered by its tables
/// and by its search.
#[test]
fn the_conformance_suite_passes() {
    let entry = catalog::entries()
        .into_iter()
        .find(|e| e.info.name == "connect4")
        .expect("connect4 in the catalog");
    for check in CHECKS {
        check.run(entry).unwrap_or_else(|e| panic!("{}: {e}", check.name));
    }
}

/// Options with a data folder of the test's own.
fn options(name: &str) -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-connect4-{name}-{}", std::process::id())),
        ..Options::default()
    }
}

/// `solve` saves the strong table of a small board; then `moves` and the perfect player
/// read it, and give every sampled position and move the value that the null-window
/// search (a session without the table) and plain memoised negamax give it.
#[test]
fn saved_tables_agree_with_the_search_and_negamax() {
    let mut rng = StdRng::seed_from_u64(146);
    for (cols, rows, k) in [(4, 4, 4), (5, 4, 4), (4, 5, 3)] {
        let spec = format!("connect4:cols={cols},rows={rows},k={k}");
        let tabled = options(&format!("tabled-{cols}x{rows}"));
        let searched = options(&format!("searched-{cols}x{rows}"));
        let session = catalog::open(&spec).unwrap();
        let solution = session.solve(&tabled).unwrap();
        assert_eq!(solution.solver, "levels", "{spec}");
        let name = if k == 4 {
            format!("connect4-{cols}x{rows}.zdb")
        } else {
            format!("connect4-{cols}x{rows}-k{k}.zdb")
        };
        let path = tabled.data_dir.join(name);
        assert!(path.exists(), "{spec}");
        // A fresh session finds the table; another, with an empty data folder, searches.
        let (reading, searching) = (catalog::open(&spec).unwrap(), catalog::open(&spec).unwrap());
        let search_only = Options {
            solver: Some("nullwindow".into()),
            ..searched.clone()
        };
        let searched_start = searching.solve(&search_only).unwrap();
        assert_eq!(
            (searched_start.solver.as_str(), &searched_start.verdict),
            ("nullwindow", &solution.verdict)
        );
        let g = Connect4::new(cols, rows, k).unwrap();
        let mut memo = MemoSolver::new(&g);
        for _ in 0..25 {
            let (mut p, mut moves) = (g.start(), Vec::new());
            for _ in 0..rng.gen_range(0..g.cells()) {
                let Some(m) = g.legal_moves(&p).choose(&mut rng).copied() else {
                    break;
                };
                moves.push(g.format_move(&p, &m));
                p = g.play(&p, &m);
            }
            let from_table = reading.position(&moves, &tabled).unwrap();
            let from_search = searching.position(&moves, &searched).unwrap();
            assert_eq!(
                from_table.verdict,
                Verdict::of(memo.solve(&p)),
                "{spec} {moves:?}"
            );
            assert_eq!(from_table.verdict, from_search.verdict, "{spec} {moves:?}");
            let values = |view: &PositionView| {
                let mut v: Vec<_> = view
                    .moves
                    .iter()
                    .map(|m| (m.notation.clone(), m.verdict.clone()))
                    .collect();
                v.sort_by(|a, b| a.0.cmp(&b.0));
                v
            };
            assert_eq!(values(&from_table), values(&from_search), "{spec} {moves:?}");
            if let Some(best) = from_table.moves.iter().find(|m| m.best) {
                let bot = reading.bot_move(&moves, "perfect", 1, &tabled).unwrap();
                let chosen = from_table.moves.iter().find(|m| m.notation == bot).unwrap();
                assert_eq!(chosen.verdict, best.verdict, "{spec} {moves:?}");
            }
        }
        let checked = verify(&path, 500, 3, &(), catalog::open).unwrap();
        assert_eq!(checked.sampled, 500, "{spec}");
        assert!(checked.certificate.is_some(), "{spec}");
        let report = reading.report(1, &tabled).unwrap();
        assert_eq!(report.verdict, solution.verdict);
        assert_eq!(report.first_moves.moves.len(), cols);
        assert!(report.certificate.is_some(), "{spec}");
        let _ = std::fs::remove_dir_all(&tabled.data_dir);
        let _ = std::fs::remove_dir_all(&searched.data_dir);
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
