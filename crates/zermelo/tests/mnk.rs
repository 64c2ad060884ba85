//! The course's tic-tac-toe facts and m,n,k results, computed by the program.

use zermelo::analysis::count;
use zermelo::games::mnk::Mnk;
use zermelo::play::perfect::{rank_moves, Perfect};
use zermelo::play::random::Random;
use zermelo::play::{tournament, Player};
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::search::AlphaBeta;
use zermelo::solve::{plain_key, symmetric_key};
use zermelo::{Game, Notation, Value};

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
    let best = rank_moves(&g, &mut MemoSolver::new(&g), &p);
    assert_eq!(g.format_move(&p, &best[0].0), "c1");
    assert_eq!(best[0].1, Value::Win(1));
    // O to move must block at c1 or lose; the loss is then as slow as possible.
    let p = g.parse_position(".../.o./xx.").unwrap();
    let best = rank_moves(&g, &mut MemoSolver::new(&g), &p);
    assert_eq!(g.format_move(&p, &best[0].0), "c1");
}

#[test]
fn four_by_four() {
    let k3 = Mnk::new(4, 4, 3).unwrap();
    assert!(matches!(
        AlphaBeta::symmetric(&k3).solve(&k3.start()),
        Value::Win(_)
    ));
    let k4 = Mnk::new(4, 4, 4).unwrap();
    assert_eq!(AlphaBeta::symmetric(&k4).solve(&k4.start()), Value::Draw);
    assert_eq!(
        MemoSolver::symmetric(&k3).solve(&k3.start()),
        AlphaBeta::symmetric(&k3).solve(&k3.start())
    );
}

#[test]
fn perfect_never_loses_to_random_in_1000_games() {
    let g = Mnk::tictactoe();
    let mut players: Vec<Box<dyn Player<Mnk>>> = vec![
        Box::new(Perfect::new(MemoSolver::symmetric(&g), 1)),
        Box::new(Random::new(2)),
    ];
    let result = tournament(&mut players, 1000, |_| (g.clone(), g.start()), |_| {}).unwrap();
    let (perfect, random) = (&result.standings[0], &result.standings[1]);
    assert_eq!(perfect.losses, 0);
    assert_eq!(random.wins, 0);
    assert_eq!(perfect.wins + perfect.draws, 1000);
    assert!(
        perfect.wins > 700,
        "perfect should beat random most of the time: {perfect:?}"
    );
}

#[test]
fn the_null_window_search_agrees_with_alpha_beta_with_remoteness() {
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use zermelo::games::mnk::search_value;
    use zermelo::solve::Setup;

    let mut rng = StdRng::seed_from_u64(5);
    let setup = Setup {
        bytes: 1 << 16,
        ..Setup::default()
    };
    for (m, n, k, samples) in [
        (3, 3, 3, 40),
        (4, 3, 3, 40),
        (4, 4, 3, 40),
        (4, 4, 4, 20),
        (5, 4, 4, 3),
    ] {
        let g = Mnk::new(m, n, k).unwrap();
        for sample in 0..samples {
            let mut p = g.start();
            for _ in 0..sample % (m * n / 2) {
                let moves = g.legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                p = g.play(&p, moves.choose(&mut rng).unwrap());
            }
            if g.outcome(&p).is_some() {
                continue;
            }
            let expected = AlphaBeta::symmetric(&g).solve(&p);
            let (value, _, _) = search_value(&g, &p, &setup).unwrap();
            assert_eq!(value, expected, "{m},{n},{k}: {}", g.format_position(&p));
        }
    }
}
