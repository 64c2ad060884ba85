//! The course's tic-tac-toe facts and m,n,k results, computed by the program.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use zermelo::analysis::count;
use zermelo::games::mnk::{tree_oracle, Board, Mnk, MnkTree};
use zermelo::play::perfect::{rank_moves, Perfect};
use zermelo::play::random::Random;
use zermelo::play::{tournament, Player};
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::nullwindow::{Child, Tree};
use zermelo::solve::search::AlphaBeta;
use zermelo::solve::{plain_key, symmetric_key, Limit, Oracle, Setup};
use zermelo::{Error, Game, Notation, Symmetric, Value};

#[test]
fn tictactoe_game_tree_counts() {
    let g = Mnk::tictactoe();
    let plain = count::games(&g, &g.start(), plain_key::<Mnk>);
    assert_eq!(plain.games, 255_168);
    assert_eq!(
        (plain.first_wins, plain.second_wins, plain.draws),
        (131_184, 77_904, 46_080)
    );
    assert_eq!(count::games(&g, &g.start(), symmetric_key::<Mnk>), plain);
}

#[test]
fn tictactoe_position_counts() {
    let g = Mnk::tictactoe();
    let all = count::positions(&g, &g.start(), plain_key::<Mnk>);
    assert_eq!((all.positions, all.terminal), (5478, 958));
    assert_eq!(
        (
            all.terminal_first_wins,
            all.terminal_second_wins,
            all.terminal_draws
        ),
        (626, 316, 16)
    );
    let sym = count::positions(&g, &g.start(), symmetric_key::<Mnk>);
    assert_eq!((sym.positions, sym.terminal), (765, 138));
    assert_eq!(
        (
            sym.terminal_first_wins,
            sym.terminal_second_wins,
            sym.terminal_draws
        ),
        (91, 44, 3)
    );
}

#[test]
fn tictactoe_is_a_draw_and_best_moves_win_fastest() {
    let g = Mnk::tictactoe();
    assert_eq!(MemoSolver::new(&g).solve(&g.start()), Value::Draw);
    // X to move with two in a row at the bottom: completing it wins at once.
    let p = g.parse_position(".../oo./xx.").unwrap();
    let best = rank_moves(&g, &mut MemoSolver::new(&g), &p).unwrap();
    assert_eq!(g.format_move(&p, &best[0].0), "c1");
    assert_eq!(best[0].1, Value::Win(1));
    // O to move must block at c1 or lose; the loss is then as slow as possible.
    let p = g.parse_position(".../.o./xx.").unwrap();
    let best = rank_moves(&g, &mut MemoSolver::new(&g), &p).unwrap();
    assert_eq!(g.format_move(&p, &best[0].0), "c1");
}

#[test]
fn four_by_four() {
    let k3 = Mnk::new(4, 4, 3).unwrap();
    assert!(matches!(
        AlphaBeta::symmetric(&k3).solve(&k3.start()).unwrap(),
        Value::Win(_)
    ));
    let k4 = Mnk::new(4, 4, 4).unwrap();
    assert_eq!(AlphaBeta::symmetric(&k4).solve(&k4.start()).unwrap(), Value::Draw);
    assert_eq!(
        MemoSolver::symmetric(&k3).solve(&k3.start()),
        AlphaBeta::symmetric(&k3).solve(&k3.start()).unwrap()
    );
}

#[test]
fn perfect_never_loses_to_random_in_1000_games() {
    let g = Mnk::tictactoe();
    let mut players: Vec<Box<dyn Player<Mnk>>> = vec![
        Box::new(Perfect::new(MemoSolver::symmetric(&g), 1)),
        Box::new(Random::new(2)),
    ];
    let result = tournament(&mut players, 1000, |_| (g.clone(), g.start()), |_| Ok(())).unwrap();
    let (perfect, random) = (&result.standings[0], &result.standings[1]);
    assert_eq!(perfect.tally.losses, 0);
    assert_eq!(random.tally.wins, 0);
    assert_eq!(perfect.tally.wins + perfect.tally.draws, 1000);
    assert!(
        perfect.tally.wins > 700,
        "perfect should beat random most of the time: {perfect:?}"
    );
}

/// Tables small enough that searches overwrite each other's entries.
fn small_setup() -> Setup {
    Setup {
        bytes: 1 << 16,
        ..Setup::default()
    }
}

#[test]
fn the_null_window_search_values_every_move_as_alpha_beta_does() {
    let mut rng = StdRng::seed_from_u64(5);
    // Boards, positions drawn and the fewest random moves to each.
    for (m, n, k, samples, fewest) in [
        (3, 3, 3, 40, 1),
        (4, 3, 3, 40, 1),
        (4, 4, 3, 40, 1),
        (4, 4, 4, 20, 1),
        (5, 4, 4, 8, 6),
    ] {
        let g = Mnk::new(m, n, k).unwrap();
        // One oracle, and so one table, for every position of the board.
        let mut oracle = tree_oracle(&g, &small_setup());
        for sample in 0..samples {
            let mut p = g.start();
            for _ in 0..fewest + sample % (m * n / 2) {
                let moves = g.legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                p = g.play(&p, moves.choose(&mut rng).unwrap());
            }
            let mut alpha_beta = AlphaBeta::symmetric(&g);
            let what = format!("{m},{n},{k}: {}", g.format_position(&p));
            // An oracle that stopped answers an error, never a value.
            assert_eq!(oracle.value(&p).unwrap(), alpha_beta.value(&p).unwrap(), "{what}");
            assert_eq!(
                rank_moves(&g, &mut oracle, &p).unwrap(),
                rank_moves(&g, &mut alpha_beta, &p).unwrap(),
                "{what}"
            );
        }
        assert!(oracle.positions() > 0 && oracle.nodes() > 0);
    }
}

/// The value of `p` as the null-window tree counts it (a win or loss is worth the empty
/// cells left after its last move plus one), from the plain alpha-beta search.
fn margin(g: &Mnk, alpha_beta: &mut AlphaBeta<'_, Mnk>, p: &Board) -> i32 {
    let empties = (g.cells() - (p.x | p.o).count_ones() as usize) as i32;
    match alpha_beta.value(p).unwrap() {
        _ if g.outcome(p).is_some() => 0,
        Value::Win(plies) => empties - plies as i32 + 1,
        Value::Lose(plies) => -(empties - plies as i32 + 1),
        Value::Draw => 0,
    }
}

#[test]
fn every_bound_exact_value_and_pruned_move_list_of_the_tree_keeps_the_alpha_beta_value() {
    let mut rng = StdRng::seed_from_u64(11);
    // How often each rule decided: exact values, one-sided bounds (a player left without
    // a line it can complete), moves left out that were not forced.
    let (mut exact, mut one_sided, mut pruned) = (0, 0, 0);
    for (m, n, k, samples) in [
        (3, 3, 3, 300),
        (4, 3, 3, 300),
        (4, 4, 3, 300),
        (4, 4, 4, 300),
        (5, 4, 4, 300),
        (5, 5, 4, 120),
    ] {
        let g = Mnk::new(m, n, k).unwrap();
        let tree = MnkTree::new(&g);
        let mut alpha_beta = AlphaBeta::symmetric(&g);
        let cells = m * n;
        for sample in 0..samples {
            // From a third of the board filled to all of it but one cell.
            let depth = cells / 3 + sample % (cells - cells / 3);
            let mut p = g.start();
            for _ in 0..depth {
                let moves = g.legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                p = g.play(&p, moves.choose(&mut rng).unwrap());
            }
            let node = g.canonical(&p);
            let what = format!("{m},{n},{k}: {}", g.format_position(&node));
            let value = margin(&g, &mut alpha_beta, &node);
            assert_eq!(value, margin(&g, &mut alpha_beta, &p), "{what}");
            let (lo, hi) = tree.bounds(&node);
            assert!(lo <= value && value <= hi, "{what}: {value} in {lo}..={hi}");
            if g.outcome(&node).is_none() && (lo == 0 || hi == 0) {
                one_sided += 1;
            }
            if let Some(v) = tree.exact(&node) {
                assert_eq!(v, value, "{what}");
                exact += usize::from(g.outcome(&node).is_none());
                continue;
            }
            let mut children: Vec<Child<Board>> = Vec::new();
            tree.children(&node, &mut children);
            let best = children
                .iter()
                .map(|c| c.parent_value(margin(&g, &mut alpha_beta, &c.node)))
                .max();
            assert_eq!(best, Some(value), "{what}: the kept moves hold a best one");
            let legal = g.legal_moves(&node).len();
            if children.len() < legal && children.len() > 1 {
                pruned += 1;
            }
        }
    }
    assert!(
        exact > 100 && one_sided > 100 && pruned > 30,
        "exact {exact}, one-sided {one_sided}, pruned {pruned}"
    );
}

#[test]
fn the_null_window_perfect_player_never_loses_to_alpha_beta_or_random() {
    for (m, n, k, games) in [(3, 3, 3, 40), (4, 3, 3, 20), (4, 4, 3, 10)] {
        let g = Mnk::new(m, n, k).unwrap();
        let first_wins = matches!(AlphaBeta::symmetric(&g).solve(&g.start()).unwrap(), Value::Win(_));
        let opponents: [Box<dyn Player<Mnk>>; 2] = [
            Box::new(Perfect::new(AlphaBeta::symmetric(&g), 2)),
            Box::new(Random::new(3)),
        ];
        for (against_perfect, opponent) in [true, false].into_iter().zip(opponents) {
            let mut players = vec![
                Box::new(Perfect::new(tree_oracle(&g, &small_setup()), 1)) as Box<dyn Player<Mnk>>,
                opponent,
            ];
            let result = tournament(&mut players, games, |_| (g.clone(), g.start()), |_| Ok(())).unwrap();
            let s = &result.standings[0];
            let what = format!("{m},{n},{k}: {:?}", result.standings);
            // The seats alternate: it moves first in half of the games, and wins those
            // when the first player wins; it loses a game only when the opponent moves
            // first in such a game, and always then if the opponent is perfect.
            let lost_seats = if first_wins { games / 2 } else { 0 };
            assert!(
                s.tally.wins >= lost_seats && s.tally.losses <= lost_seats,
                "{what}"
            );
            if against_perfect {
                assert_eq!(s.tally.losses, lost_seats, "{what}");
            }
        }
    }
}

#[test]
fn a_null_window_search_past_its_deadline_says_it_stopped() {
    let g = Mnk::new(5, 5, 4).unwrap();
    let setup = Setup {
        limit: Limit {
            deadline: Some(std::time::Instant::now()),
            ..Limit::default()
        },
        ..small_setup()
    };
    let mut oracle = tree_oracle(&g, &setup);
    assert!(matches!(oracle.value(&g.start()), Err(Error::TooBig(_))));
    let mut perfect = Perfect::new(oracle, 1);
    assert!(matches!(
        perfect.choose(&g, &g.start()),
        Err(zermelo::Error::TooBig(_))
    ));
}
