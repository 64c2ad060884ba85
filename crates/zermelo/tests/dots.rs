//! Dots and Boxes: the spec's example game, random playouts, and the exact solver with its
//! reductions cross-checked against the plain solver.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use zermelo::games::dots::players::{DotsGreedy, Strong};
use zermelo::games::dots::{CaptureRule, Dots, Lines, Position};
use zermelo::play::margin::BestMargin;
use zermelo::play::random::Random;
use zermelo::play::{play_match, Player};
use zermelo::solve::margin::{self, MarginSearch, MarginSolver, Setup};
use zermelo::solve::memo::MemoSolver;
use zermelo::{Game, Notation, Outcome, Scored, Value};

/// The exact search the program uses: the null-window search, keyed on the drawn lines up
/// to symmetry, with the dots reductions.
fn fast(g: &Dots) -> Box<dyn MarginSolver<Dots> + '_> {
    zermelo::games::dots::best_solver(g, &Setup::default())
}

/// The alpha-beta search with the same reductions, kept to cross-check.
fn alphabeta(g: &Dots) -> MarginSearch<'_, Dots, Lines> {
    zermelo::games::dots::solver(g)
}

/// Plain search with memory: every legal move, keyed on the drawn lines (which
/// `memo_search_agrees_with_plain_minimax` checks against whole positions).
fn plain(g: &Dots) -> MarginSearch<'_, Dots, Lines> {
    MarginSearch::with(g, |_, p| p.lines, |g, p, out| g.moves(p, out))
}

/// A position after `k` random moves from the start.
fn random_position(g: &Dots, k: usize, rng: &mut StdRng) -> Position {
    let mut p = g.start();
    for _ in 0..k {
        if g.outcome(&p).is_some() {
            break;
        }
        let m = *g.legal_moves(&p).choose(rng).unwrap();
        p = g.play(&p, &m);
    }
    p
}

#[test]
fn the_example_game_is_a_two_two_draw() {
    let g = Dots::square(3).unwrap();
    let moves = [
        "1ab", "23a", "12a", "12c", "1bc", "12b", "2ab", "2bc", "3ab", "23c", "3bc", "23b",
    ];
    let mut p = g.start();
    let mut captures = Vec::new();
    for text in moves {
        let mover = g.to_move(&p);
        let m = g.parse_move(&p, text).unwrap();
        let before = p.boxes[mover as usize];
        p = g.play(&p, &m);
        let new = p.boxes[mover as usize] & !before;
        if new != 0 {
            assert_eq!(g.to_move(&p), mover, "a capture gives another move");
            captures.push((text, g.box_names(new)));
        } else {
            assert_ne!(g.to_move(&p), mover);
        }
    }
    assert_eq!(
        captures,
        vec![
            ("2ab", vec!["1b".to_string()]),
            ("2bc", vec!["1c".to_string()]),
            ("23b", vec!["2b".to_string(), "2c".to_string()]),
        ]
    );
    assert_eq!(g.box_names(p.boxes[0]), ["1b", "1c"]);
    assert_eq!(g.box_names(p.boxes[1]), ["2b", "2c"]);
    assert_eq!(g.outcome(&p), Some(Outcome::Draw));
    assert_eq!((g.score(&p, 0), g.score(&p, 1)), (2, 2));
}

#[test]
fn memo_search_agrees_with_plain_minimax() {
    let mut rng = StdRng::seed_from_u64(1);
    for (rows, cols, drawn) in [(2, 2, 0), (2, 3, 0), (3, 3, 4), (3, 4, 9)] {
        let g = Dots::new(rows, cols).unwrap();
        for _ in 0..6 {
            let p = random_position(&g, drawn, &mut rng);
            let expected = margin::plain(&g, &p);
            assert_eq!(MarginSearch::new(&g).remaining(&p), expected);
            assert_eq!(plain(&g).remaining(&p), expected);
            assert_eq!(fast(&g).remaining(&p), expected);
            assert_eq!(alphabeta(&g).remaining(&p), expected);
        }
    }
}

#[test]
fn fast_search_agrees_with_the_plain_solver() {
    let mut rng = StdRng::seed_from_u64(2);
    for (rows, cols, drawn, samples) in [
        (3, 3, 0, 1),
        (3, 4, 3, 20),
        (4, 4, 10, 40),
        (4, 5, 17, 30),
        (5, 5, 25, 20),
    ] {
        let g = Dots::new(rows, cols).unwrap();
        for _ in 0..samples {
            let p = random_position(&g, drawn, &mut rng);
            let mut reference = plain(&g);
            let mut quick = fast(&g);
            assert_eq!(
                quick.remaining(&p),
                reference.remaining(&p),
                "{}",
                g.format_position(&p)
            );
            assert_eq!(quick.margin(&p), reference.margin(&p));
            let ranked = quick.rank_moves(&p);
            assert_eq!(ranked.len(), g.legal_moves(&p).len());
            assert_eq!(ranked[0].1, reference.margin(&p));
        }
    }
}

#[test]
fn every_capture_rule_picks_a_best_move() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut fired = [0usize; 5];
    let mut positions = Vec::new();
    for (rows, cols, drawn, samples) in [(3, 3, 4, 300), (3, 4, 6, 300), (4, 4, 11, 300), (2, 5, 5, 300)] {
        let g = Dots::new(rows, cols).unwrap();
        for _ in 0..samples {
            positions.push((g.clone(), random_position(&g, drawn, &mut rng)));
        }
    }
    // Closed strings: the bottom row of boxes walled in on all outer sides, and a few
    // random lines above it.
    for cols in 4..=7 {
        let g = Dots::new(3, cols).unwrap();
        let letter = |c: usize| (b'a' + c as u8) as char;
        let mut walls: Vec<String> = (0..cols - 1)
            .flat_map(|c| {
                [
                    format!("1{}{}", letter(c), letter(c + 1)),
                    format!("2{}{}", letter(c), letter(c + 1)),
                ]
            })
            .collect();
        walls.push("12a".into());
        walls.push(format!("12{}", letter(cols - 1)));
        for extra in 0..6 {
            let mut p = g
                .after(&walls.iter().map(String::as_str).collect::<Vec<_>>())
                .unwrap();
            for _ in 0..extra {
                let upper: Vec<u8> = g
                    .legal_moves(&p)
                    .into_iter()
                    .filter(|&m| !g.line_name(m as usize).starts_with("12"))
                    .collect();
                p = g.play(&p, upper.choose(&mut rng).unwrap());
            }
            positions.push((g.clone(), p));
        }
    }
    for (g, p) in &positions {
        let Some((l, rule)) = g.safe_capture_rule(&p.lines) else {
            continue;
        };
        fired[rule as usize] += 1;
        let mut plain = plain(g);
        let best = plain.remaining(p);
        let child = g.play(p, &(l as u8));
        assert_eq!(g.to_move(&child), g.to_move(p));
        let gained = g.score(&child, p.mover) - g.score(p, p.mover);
        assert_eq!(
            gained + plain.remaining(&child),
            best,
            "{rule:?} in {}",
            g.format_position(p)
        );
    }
    for rule in [
        CaptureRule::Border,
        CaptureRule::Double,
        CaptureRule::Isolated,
        CaptureRule::ChainEnd,
        CaptureRule::Closed,
    ] {
        assert!(
            fired[rule as usize] >= 3,
            "{rule:?} fired only {} times",
            fired[rule as usize]
        );
    }
}

#[test]
fn declines_and_simple_endgames_are_exact() {
    let mut rng = StdRng::seed_from_u64(4);
    let (mut declines, mut endgames) = (0, 0);
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (2, 6), (3, 5)] {
        let g = Dots::new(rows, cols).unwrap();
        for _ in 0..60 {
            // Random play until a position where one of the two reductions applies.
            let mut p = g.start();
            while g.outcome(&p).is_none() {
                let restricted = g.safe_capture(&p.lines).is_none() && !g.capturable(&p.lines).is_empty();
                let simple = g.simple_endgame(&p.lines);
                if restricted || simple.is_some() {
                    let expected = plain(&g).remaining(&p);
                    if let Some(v) = simple {
                        assert_eq!(v, expected, "{}", g.format_position(&p));
                        endgames += 1;
                    } else {
                        let mut moves = Vec::new();
                        g.search_moves(&p, &mut moves);
                        let mut search = plain(&g);
                        let best = moves
                            .iter()
                            .map(|m| {
                                let child = g.play(&p, m);
                                let gained = g.score(&child, p.mover) - g.score(&p, p.mover);
                                let r = search.remaining(&child);
                                if child.mover == p.mover {
                                    gained + r
                                } else {
                                    gained - r
                                }
                            })
                            .max()
                            .unwrap();
                        assert_eq!(best, expected, "{}", g.format_position(&p));
                        declines += 1;
                    }
                }
                let m = *g.legal_moves(&p).choose(&mut rng).unwrap();
                p = g.play(&p, &m);
            }
        }
    }
    assert!(
        declines >= 50 && endgames >= 50,
        "{declines} declines, {endgames} endgames"
    );
}

#[test]
fn three_by_three_dots_is_won_by_the_first_player_three_to_one() {
    // Plain search (every legal move, no reductions, no symmetry) and the fast search agree.
    let g = Dots::square(3).unwrap();
    let reference = plain(&g).margin(&g.start());
    assert_eq!(fast(&g).margin(&g.start()), reference);
    assert_eq!(alphabeta(&g).margin(&g.start()), reference);
    assert_eq!(reference, 2);
}

#[test]
fn win_lose_draw_solvers_agree_with_margin_signs() {
    // The generic memo solver plays the spec's definition of winning and losing moves
    // (a capture keeps the mover); its values must match the signs of the margins.
    let mut rng = StdRng::seed_from_u64(6);
    for (rows, cols, drawn) in [(3, 3, 0), (3, 3, 3), (2, 5, 0), (3, 4, 2), (3, 4, 5)] {
        let g = Dots::new(rows, cols).unwrap();
        let mut memo = MemoSolver::symmetric(&g);
        let mut margins = fast(&g);
        for _ in 0..5 {
            let p = random_position(&g, drawn, &mut rng);
            if g.outcome(&p).is_some() {
                continue;
            }
            let expected = match margins.margin(&p) {
                m if m > 0 => "win",
                m if m < 0 => "lose",
                _ => "draw",
            };
            assert_eq!(memo.solve(&p).word(), expected, "{}", g.format_position(&p));
            for (m, margin) in margins.rank_moves(&p) {
                let child = g.play(&p, &m);
                let v = Value::from_child(memo.solve(&child), child.mover == p.mover);
                assert_eq!(v.word(), ["lose", "draw", "win"][margin.signum() as usize + 1]);
            }
        }
    }
}

#[test]
fn perfect_never_loses_three_by_three_dots_from_the_first_seat() {
    let g = Dots::square(3).unwrap();
    for seed in 0..60 {
        let mut perfect = BestMargin::new(zermelo::games::dots::best_solver, seed);
        let mut greedy = DotsGreedy::new(seed);
        let mut random = Random::new(seed);
        let opponent: &mut dyn Player<Dots> = if seed % 2 == 0 { &mut greedy } else { &mut random };
        let mut seats: Vec<&mut dyn Player<Dots>> = vec![&mut perfect, opponent];
        let record = play_match(&g, g.start(), &mut seats, 100, |_, _| {}).unwrap();
        assert_eq!(record.outcome, Outcome::Win(0));
        // The first player's value is a 3-1 win: perfect play keeps at least that.
        assert!(g.difference(&record.last) >= 2);
    }
}

#[test]
fn players_finish_games() {
    let g = Dots::square(4).unwrap();
    let mut greedy = DotsGreedy::new(1);
    let mut strong = Strong::new(2);
    let mut seats: Vec<&mut dyn Player<Dots>> = vec![&mut greedy, &mut strong];
    let record = play_match(&g, g.start(), &mut seats, 1000, |_, _| {}).unwrap();
    assert_eq!(record.moves.len(), g.line_count());
}
