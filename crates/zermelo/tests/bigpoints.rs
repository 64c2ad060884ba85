//! Big Points: the rules on hand-made positions, notation, the score solver against
//! plain minimax, and the colour-relabelling symmetry of the reduced games.

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use zermelo::games::bigpoints::{
    decision_rule, BigPoints, BoardFamily, Census, LayerSolver, Layered, Layers, Move, Packed, Position,
    Rule, SharedScores, SolveMemory, SweepMemory, Take, Ties, WordSolver, WordTable, ENDS, KEY_BITS,
};
use zermelo::solve::minimax;
use zermelo::solve::scores::{self, DecisionRule, MarginRule, ScoreSolver, Scores, StudyRule, Table};
use zermelo::{Game, Notation, Outcome, Scored, Spec, Value};

fn game(spec: &str) -> BigPoints {
    BigPoints::from_spec(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn legal(g: &BigPoints, p: &<BigPoints as Game>::Position) -> Vec<String> {
    g.legal_moves(p).iter().map(|m| g.format_move(p, m)).collect()
}

fn after(g: &BigPoints, position: &str, mv: &str) -> String {
    let p = g.parse_position(position).unwrap();
    let m = g.parse_move(&p, mv).unwrap();
    g.format_position(&g.play(&p, &m))
}

#[test]
fn a_pawn_takes_the_first_free_disc_ahead_or_behind() {
    let g = game("bigpoints:board=1212");
    let p = g.start();
    // Red has nothing behind it at the first disc; green can take either neighbour
    // (behind first: the study's tie order).
    assert_eq!(legal(&g, &p), ["r+", "g-", "g+"]);
    assert_eq!(after(&g, "1212/00/-/-/-/1", "g-"), ".212/01/-/r1/-/2");
    assert_eq!(after(&g, "1212/00/-/-/-/1", "g+"), "12.2/01/-/r1/-/2");
    assert_eq!(after(&g, "1212/00/-/-/-/1", "r+"), "1.12/10/-/g1/-/2");
}

#[test]
fn discs_under_pawns_are_skipped() {
    let g = game("bigpoints:board=12121");
    // Green stands on the second disc: red moving to the first disc takes the third.
    assert_eq!(after(&g, "12121/01/-/-/-/1", "r+"), "12.21/11/-/r1/-/2");
    // Green moving on to the fourth disc takes the fifth ahead, or behind it skips red
    // on the third and takes the second, which green has just left.
    assert_eq!(after(&g, "12121/21/-/-/-/1", "g+"), "1212./22/-/r1/-/2");
    assert_eq!(after(&g, "12121/21/-/-/-/1", "g-"), "1.121/22/-/g1/-/2");
}

#[test]
fn pawns_reach_the_stair_in_order_and_take_its_disc() {
    let g = game("bigpoints:board=12");
    let p = g.parse_position("12/10/-/-/-/1").unwrap();
    // Green's only disc would leave nothing free to take, so only red may move: onto the stair.
    assert_eq!(legal(&g, &p), ["r^"]);
    let p = g.parse_position(&after(&g, "12/10/-/-/-/1", "r^")).unwrap();
    assert_eq!(g.format_position(&p), "12/s0/r/r1/-/2");
    assert_eq!(legal(&g, &p), ["g-"]);
    let p = g.play(&p, &g.parse_move(&p, "g-").unwrap());
    let p = g.play(&p, &g.parse_move(&p, "g^").unwrap());
    // Green's disc stays on the path: only taken discs leave it.
    assert_eq!(g.format_position(&p), ".2/ss/rg/r1g1/r1/2");
    // Red arrived first: worth 1; green second: worth 0.
    assert_eq!((g.score(&p, 0), g.score(&p, 1)), (1, 1));
    assert_eq!(g.outcome(&p), Some(Outcome::Draw));
}

#[test]
fn when_nothing_can_be_taken_a_pawn_moves_without_taking() {
    let g = game("bigpoints:board=12");
    // Red is on the stair; green's move onto its disc finds nothing free.
    let p = g.parse_position(".2/s0/r/r1/r1/1").unwrap();
    assert_eq!(legal(&g, &p), ["g."]);
    assert_eq!(after(&g, ".2/s0/r/r1/r1/1", "g."), ".2/s1/r/r1/r1/2");
}

#[test]
fn a_black_disc_buys_an_extra_move_that_may_go_backward() {
    let g = game("bigpoints:board=1k2121");
    let start = "1.2121/20/-/k1/-/1";
    let p = g.parse_position(start).unwrap();
    let moves = legal(&g, &p);
    for m in ["r-", "g+", "g-", "g+/r~+", "g+/r-", "g+/g^", "g-/g+", "g-/r-"] {
        assert!(moves.contains(&m.to_string()), "{m} missing from {moves:?}");
    }
    // Back from the fourth disc red lands on the first: nothing is free behind it.
    for m in ["g+/r~-", "g+/r+", "g-/g~+"] {
        assert!(!moves.contains(&m.to_string()), "{m} is not legal");
    }
    assert_eq!(after(&g, start, "g+/r~+"), "1.2..1/11/-/r1g1/-/2");
    assert_eq!(
        after(&g, start, "g+/r~+").matches('k').count(),
        0,
        "the black disc leaves the game"
    );
    // A pawn before the path cannot move back.
    assert!(!moves.iter().any(|m| m.contains("g~")));
    // The opponent has no black disc, so no extra moves.
    let q = g.parse_position("1.2121/20/-/-/k1/1").unwrap();
    assert_eq!(legal(&g, &q), ["r-", "g-", "g+"]);
    let err = g.parse_move(&q, "g+/r~+").unwrap_err().to_string();
    assert!(err.contains("no black disc"), "{err}");
}

#[test]
fn a_black_disc_cannot_be_used_in_the_turn_it_is_taken() {
    let g = game("bigpoints:board=1k22");
    let p = g.start();
    assert!(legal(&g, &p).contains(&"r+".to_string()));
    assert!(g.legal_moves(&p).iter().all(|m| m.extra.is_none()));
    let q = g.play(&p, &g.parse_move(&p, "r+").unwrap());
    assert_eq!(g.format_position(&q), "1.22/10/-/k1/-/2");
}

#[test]
fn white_discs_count_the_colours_held_with_black_and_without_white() {
    let g = game("bigpoints:board=12wwk");
    // Red arrived first (worth 1), green second (worth 0). Player 1: red, green, black and
    // two whites: each white is worth 3 (red, green, black).
    let p = g.parse_position("...../ss/rg/r2g1w2k1/g1/1").unwrap();
    assert_eq!(g.score(&p, 0), 2 + 2 * 3);
    assert_eq!(g.score(&p, 1), 0);
    assert_eq!(g.outcome(&p), Some(Outcome::Win(0)));
}

#[test]
fn the_rules_example_scores_39() {
    let g = game("bigpoints:board=11222333455wk,players=2");
    let p = g
        .parse_position("............./sssss/rgbyp/r3g4b4y1p3w1k1/y1/2")
        .unwrap();
    assert_eq!(g.score(&p, 0), 39);
    assert_eq!(g.score(&p, 1), 1);
}

#[test]
fn bad_positions_and_moves_are_refused() {
    let g = game("bigpoints:board=1212");
    let p = g.start();
    for bad in ["x+", "r", "r+/", "r*", "q-"] {
        assert!(g.parse_move(&p, bad).is_err(), "{bad}");
    }
    let err = g.parse_move(&p, "r-").unwrap_err().to_string();
    assert!(err.contains("not legal"), "{err}");
    for bad in [
        "1212/00/-/-/1",
        "12.2/00/-/-/-/1",
        "1212/0s/-/-/-/1",
        "1212/00/-/-/-/3",
        "1x12/00/-/-/-/1",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad}");
    }
    for bad in [
        "bigpoints:board=1291",
        "bigpoints:players=6",
        "bigpoints:board=22",
        "bigpoints:colors=2,discs=2",
    ] {
        assert!(
            BigPoints::from_spec(&bad.parse::<Spec>().unwrap()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn random_full_games_end_and_notation_round_trips() {
    let mut rng = StdRng::seed_from_u64(5);
    for (players, seed) in [(2, 1), (3, 2), (4, 3), (5, 4)] {
        let g = game(&format!("bigpoints:players={players},seed={seed}"));
        assert_eq!(g.path().len(), 55);
        let mut p = g.start();
        let mut plies = 0;
        while g.outcome(&p).is_none() {
            assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
            let moves = g.legal_moves(&p);
            for m in &moves {
                assert_eq!(&g.parse_move(&p, &g.format_move(&p, m)).unwrap(), m);
            }
            p = g.play(&p, moves.choose(&mut rng).unwrap());
            plies += 1;
            assert!(plies < 200);
        }
        // Every disc's points are accounted for: common colours and stair discs, whites.
        assert!((0..players as u8).map(|w| g.score(&p, w)).sum::<i32>() > 0);
        assert!(g.render(&p).contains("stair"));
    }
}

fn reachable(g: &BigPoints) -> Vec<<BigPoints as Game>::Position> {
    let mut seen = HashSet::new();
    let mut stack = vec![g.start()];
    while let Some(p) = stack.pop() {
        if g.outcome(&p).is_some() || !seen.insert(p) {
            continue;
        }
        stack.extend(g.legal_moves(&p).iter().map(|m| g.play(&p, m)));
    }
    seen.into_iter().collect()
}

#[test]
fn the_score_solver_agrees_with_plain_minimax_everywhere() {
    let boards = ["1122", "1212", "1221", "123123", "1w2k12", "k1212", "12k1k2"];
    for board in boards {
        let g = game(&format!("bigpoints:board={board}"));
        let positions = reachable(&g);
        for rule in [&StudyRule as &dyn DecisionRule, &MarginRule] {
            let mut solver = ScoreSolver::new(&g, rule);
            solver.solve(&g.start());
            assert_eq!(solver.positions(), positions.len(), "{board}");
            // The compact keys the balance sweep uses tell the same positions apart.
            assert!(g.pack64_bits() <= 64);
            let mut packed = ScoreSolver::keyed(&g, rule, BigPoints::pack, Table::default());
            let mut word = ScoreSolver::keyed(&g, rule, BigPoints::pack64, Table::default());
            for p in &positions {
                let expected = scores::minimax(&g, rule, p);
                assert_eq!(solver.solve(p), expected, "{board}");
                assert_eq!(packed.solve(p), expected, "{board}");
                assert_eq!(word.solve(p), expected, "{board}");
            }
            assert_eq!(packed.positions(), positions.len(), "{board}");
            assert_eq!(word.positions(), positions.len(), "{board}");
        }
    }
}

#[test]
fn the_margin_rule_matches_the_win_loss_value() {
    for board in ["1122", "1221", "112233", "123321", "1w2k21"] {
        let g = game(&format!("bigpoints:board={board}"));
        let [a, b]: Scores = ScoreSolver::new(&g, &MarginRule).solve(&g.start());
        let expected = match minimax::value(&g, &g.start()) {
            Value::Win(_) => std::cmp::Ordering::Greater,
            Value::Lose(_) => std::cmp::Ordering::Less,
            Value::Draw => std::cmp::Ordering::Equal,
        };
        assert_eq!(a.cmp(&b), expected, "{board}");
    }
}

#[test]
fn families_enumerate_arrangements_and_classes() {
    let f = BoardFamily::new(2, 2, 0, 0, Rule::Study).unwrap();
    let all: Vec<String> = f.all().iter().map(|b| BoardFamily::format(b)).collect();
    assert_eq!(all, ["1122", "1212", "1221", "2112", "2121", "2211"]);
    let classes: Vec<String> = f.classes().iter().map(|b| BoardFamily::format(b)).collect();
    assert_eq!(classes, ["1122", "1212", "1221"]);
    assert_eq!(f.boards(), 6);
    let f = BoardFamily::new(3, 3, 1, 1, Rule::Study).unwrap();
    assert_eq!(f.boards(), 39_916_800 / 216);
    assert_eq!(f.classes().len() as u128 * f.class_size() as u128, f.boards());
    assert_eq!(
        BoardFamily::format(&BoardFamily::representative(&[2, 5, 0, 2, 1])),
        "1w213"
    );
}

/// Relabelling colours keeps the result, the winner's score and the position count.
#[test]
fn colour_relabelling_keeps_result_winner_score_and_positions() {
    let f = BoardFamily::new(3, 2, 0, 0, Rule::Study).unwrap();
    for rep in f.classes() {
        let g = f.game(&rep);
        let mut solver = ScoreSolver::new(&g, &StudyRule);
        let s = solver.solve(&g.start());
        let n = solver.positions();
        for board in f
            .all()
            .into_iter()
            .filter(|b| BoardFamily::representative(b) == rep)
        {
            let h = f.game(&board);
            let mut other = ScoreSolver::new(&h, &StudyRule);
            let t = other.solve(&h.start());
            assert_eq!(other.positions(), n);
            assert_eq!(s[0].cmp(&s[1]), t[0].cmp(&t[1]));
            assert_eq!(s[0].max(s[1]), t[0].max(t[1]));
        }
    }
}

/// Both rules rank a win above a draw above a loss first, so they agree on the result:
/// it is the win/draw/loss value of the game.
#[test]
fn the_study_and_margin_rules_agree_on_who_wins() {
    let f = BoardFamily::new(3, 2, 0, 1, Rule::Study).unwrap();
    for board in f.classes() {
        let g = f.game(&board);
        let study = ScoreSolver::new(&g, &StudyRule).solve(&g.start());
        let margin = ScoreSolver::new(&g, &MarginRule).solve(&g.start());
        assert_eq!(
            study[0].cmp(&study[1]),
            margin[0].cmp(&margin[1]),
            "{}",
            BoardFamily::format(&board)
        );
    }
}

/// The spec's tie order, written out independently of how the game lists its moves: pawns
/// in colour order, for each pawn the disc behind before the disc ahead (a plain move
/// before its black-disc extras, which these boards do not have).
fn spec_order(m: &Move) -> (u8, u8, bool) {
    let take = match m.step.take {
        Take::Behind => 0,
        Take::Ahead => 1,
        Take::Stair => 2,
        Take::Nothing => 3,
    };
    (m.step.pawn, take, m.extra.is_some())
}

/// Plain recursion under the study rule, keeping the first best option in the spec's order.
fn study_reference(g: &BigPoints, p: &<BigPoints as Game>::Position) -> Scores {
    if g.outcome(p).is_some() {
        return [g.score(p, 0), g.score(p, 1)];
    }
    let mut moves = g.legal_moves(p);
    moves.sort_by_key(spec_order);
    let mover = g.to_move(p);
    let mut best: Option<Scores> = None;
    for m in &moves {
        let s = study_reference(g, &g.play(p, m));
        if best.is_none_or(|b| StudyRule.prefers(mover, &s, &b)) {
            best = Some(s);
        }
    }
    best.expect("a non-terminal position has a move")
}

fn solve_start(g: &BigPoints) -> (Scores, usize) {
    let mut solver = ScoreSolver::new(g, &StudyRule);
    let s = solver.solve(&g.start());
    (s, solver.positions())
}

/// Boards on which keeping the disc behind first and keeping the disc ahead first end with
/// different second-player scores (found by solving the (2,3), (3,2) and (2,4) families
/// both ways): `rule=study` follows the spec's order, behind first, on every position.
#[test]
fn the_study_rule_keeps_the_disc_behind_first() {
    for board in ["112122", "112233", "113322", "122133", "11221122"] {
        let g = game(&format!("bigpoints:board={board}"));
        assert_eq!(g.ties(), Ties::Behind);
        let ahead = game(&format!("bigpoints:board={board},ties=ahead"));
        let (behind_scores, behind_positions) = solve_start(&g);
        let (ahead_scores, ahead_positions) = solve_start(&ahead);
        assert_ne!(
            behind_scores[1], ahead_scores[1],
            "{board}: the orders should differ here"
        );
        // The winner, the first player's score and the positions do not depend on the order.
        assert_eq!(behind_scores[0], ahead_scores[0], "{board}");
        assert_eq!(
            behind_scores[0] > behind_scores[1],
            ahead_scores[0] > ahead_scores[1]
        );
        assert_eq!(behind_positions, ahead_positions, "{board}");
        let mut solver = ScoreSolver::new(&g, &StudyRule);
        for p in reachable(&g) {
            assert_eq!(solver.solve(&p), study_reference(&g, &p), "{board}");
        }
    }
}

/// Over whole families the two orders agree on the result, the winner's score and the
/// positions, and differ on the loser's score on some boards.
#[test]
fn the_two_tie_orders_differ_only_in_the_second_score() {
    for (colours, discs) in [(2, 3), (3, 2)] {
        let f = BoardFamily::new(colours, discs, 0, 0, Rule::Study).unwrap();
        let f_ahead = BoardFamily {
            ties: Ties::Ahead,
            ..f
        };
        assert_eq!(
            f_ahead.spec(),
            format!("bigpoints:colors={colours},discs={discs},ties=ahead")
        );
        let mut differ = 0;
        for board in f.all() {
            let (a, n) = solve_start(&f.game(&board));
            let (b, m) = solve_start(&f_ahead.game(&board));
            assert_eq!(
                (a[0].max(a[1]), a[0].cmp(&a[1]), n),
                (b[0].max(b[1]), b[0].cmp(&b[1]), m)
            );
            differ += usize::from(a != b);
        }
        assert!(differ > 0, "({colours},{discs})");
    }
}

/// The one-word game has the same moves in the same order, the same ends and scores, and
/// its solve the same scores and positions as the solver on the full positions.
#[test]
fn the_one_word_game_is_the_same_game() {
    for spec in [
        "board=1221",
        "board=112122",
        "board=123123",
        "board=12w21w",
        "board=112233,ties=ahead",
        "board=1w2312,rule=margin",
    ] {
        let g = game(&format!("bigpoints:{spec}"));
        let packed = g.packed().expect("two players, no black discs");
        assert_eq!(packed.start(), g.pack64(&g.start()));
        for p in reachable(&g) {
            let w = g.pack64(&p);
            let children: Vec<u64> = g
                .legal_moves(&p)
                .iter()
                .map(|m| g.pack64(&g.play(&p, m)))
                .collect();
            assert_eq!(packed.legal_moves(&w), children, "{spec}");
            if !children.is_empty() {
                // The layered children: the same, those that end the game marked.
                let mut marked = Vec::new();
                packed.children(w, &mut marked);
                let expected: Vec<u64> = children
                    .iter()
                    .map(|&q| match packed.final_scores(&q) {
                        Some(_) => q | ENDS,
                        None => q,
                    })
                    .collect();
                assert_eq!(marked, expected, "{spec}");
                for &q in marked.iter().filter(|&&q| q & ENDS != 0) {
                    assert_eq!(
                        Some(packed.end_scores(q & !ENDS)),
                        packed.final_scores(&(q & !ENDS))
                    );
                }
            }
            assert_eq!(packed.to_move(&w), g.to_move(&p));
            for m in g.legal_moves(&p) {
                let q = g.play(&p, &m);
                let v = g.pack64(&q);
                assert_eq!(packed.outcome(&v), g.outcome(&q), "{spec}");
                assert_eq!(
                    [packed.score(&v, 0), packed.score(&v, 1)],
                    [g.score(&q, 0), g.score(&q, 1)]
                );
            }
        }
        let rule = zermelo::games::bigpoints::decision_rule(g.rule());
        let mut reference = ScoreSolver::new(&g, rule);
        let expected = (reference.solve(&g.start()), reference.positions());
        let mut memory = SolveMemory::default();
        assert_eq!(g.solve_scores(&g.start(), &mut memory), expected, "{spec}");
        // The memory is reused: a second solve counts the positions again.
        assert_eq!(g.solve_scores(&g.start(), &mut memory), expected, "{spec}");
    }
    assert!(game("bigpoints:board=1k212").packed().is_none());
}

/// The flat table grows when a solve outgrows it, and gives the same results.
#[test]
fn the_word_solver_grows_its_table() {
    let g = game("bigpoints:board=121323123123");
    let packed = g.packed().unwrap();
    let mut table = WordTable::with_slots(1);
    let capacity = table.capacity();
    let (scores, positions) =
        WordSolver::new(&packed, &StudyRule, |_, &w| w, &mut table).solve(&packed.start());
    assert!(positions > capacity);
    assert!(table.capacity() > capacity);
    let mut reference = ScoreSolver::new(&g, &StudyRule);
    assert_eq!(
        (scores, positions),
        (reference.solve(&g.start()), reference.positions())
    );
}

/// A shared table keeps what it can and forgets the rest, and what it gives is exact: a
/// key's own scores, never those of a key of another tag (family) or of another key in
/// its bucket, never scores it cannot hold; solves that read and fill a table too small
/// for their family find the scores of fresh solves and store fewer positions.
#[test]
fn a_shared_table_forgets_but_never_confuses() {
    let shared = SharedScores::new(0);
    let scores = |k: u64| [(k % 251) as i32, (k / 251 % 83) as i32];
    let keys = 1_000_000;
    for k in 0..keys {
        shared.put(k, scores(k));
    }
    let mut kept = 0;
    for k in 0..keys {
        if let Some(s) = shared.get(k) {
            assert_eq!(s, scores(k), "key {k}");
            kept += 1;
        }
        assert_eq!(shared.get(k | 1 << KEY_BITS), None, "key {k} of another tag");
    }
    // The least table has 2^19 entries: about half of the keys are kept, the latest.
    assert!((keys / 4..keys * 3 / 5).contains(&kept), "{kept} kept");
    assert!(shared.get(keys - 1).is_some());
    for (k, s) in [(keys, [256, 0]), (keys + 1, [0, -1])] {
        shared.put(k, s);
        assert_eq!(shared.get(k), None);
    }

    let family = |spec: &str| BoardFamily::from_spec(&spec.parse().unwrap()).unwrap();
    let shared = SharedScores::new(0);
    let (mut table, mut fresh) = (WordTable::default(), WordTable::default());
    let (mut stored, mut alone) = (0, 0);
    // The same boards under both rules, tagged apart: their keys are alike.
    for (tag, spec) in [(1, "colors=3,discs=4"), (2, "colors=3,discs=4,rule=margin")] {
        let f = family(&format!("bigpoints:{spec}"));
        for board in f.classes().iter().step_by(100) {
            let g = f.game(board);
            let packed = g.packed().unwrap();
            let (start, rule) = (packed.start(), decision_rule(g.rule()));
            let (expected, positions) =
                WordSolver::new(&packed, rule, Packed::shared_key, &mut fresh).solve(&start);
            let (scores, kept) = WordSolver::new(&packed, rule, Packed::shared_key, &mut table)
                .sharing(&shared, tag)
                .solve(&start);
            assert_eq!(scores, expected, "{spec} {}", g.board());
            (stored, alone) = (stored + kept, alone + positions);
        }
    }
    assert!(
        alone > 1 << 19 && 2 * stored < alone,
        "{stored} of {alone} stored"
    );
}

/// From every position reachable on a few boards (each one solved as a start of its own,
/// hands and all), the census counts the positions the word solver stores, the search
/// keyed by shared keys finds its scores, and the layer solver both.
#[test]
fn the_census_shared_keys_and_layers_agree_from_every_reachable_position() {
    let mut census = Census::default();
    let mut layers = Layers::default();
    let (mut table, mut shared) = (WordTable::default(), WordTable::default());
    let mut checked = 0;
    for (spec, boards) in [
        ("colors=3,discs=2", 3),
        ("colors=2,discs=3,white=1,rule=margin", 2),
        ("colors=3,discs=3,ties=ahead", 1),
        ("colors=4,discs=2,white=1", 1),
    ] {
        let f = BoardFamily::from_spec(&format!("bigpoints:{spec}").parse().unwrap()).unwrap();
        let all = f.all();
        for board in (0..boards).map(|i| &all[(2 * i + 1) * all.len() / (2 * boards)]) {
            let g = f.game(board);
            let packed = g.packed().unwrap();
            assert!(packed.shares_keys());
            let rule = decision_rule(g.rule());
            let mut seen = HashSet::from([packed.start()]);
            let mut todo = vec![packed.start()];
            while let Some(p) = todo.pop() {
                let (scores, positions) = WordSolver::new(&packed, rule, |_, &w| w, &mut table).solve(&p);
                assert_eq!(census.count(&packed, p), positions, "{} {p:#x}", g.board());
                let by_shared_key = WordSolver::new(&packed, rule, Packed::shared_key, &mut shared)
                    .solve(&p)
                    .0;
                assert_eq!(by_shared_key, scores, "{} {p:#x}", g.board());
                let layered = LayerSolver::new(&packed, rule, &mut layers).solve(p);
                assert_eq!(layered, (scores, positions), "{} {p:#x}", g.board());
                checked += 1;
                for m in packed.legal_moves(&p) {
                    let q = packed.play(&p, &m);
                    if packed.outcome(&q).is_none() && seen.insert(q) {
                        todo.push(q);
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked} positions");
}

/// Solves in one thread's memory, alone and sharing one sweep's memory with every other
/// family (each kept apart by its tag), and the layer solver find the scores and the
/// position counts of the word solver solving each board afresh: on every board of the
/// small families and on samples of bigger ones, under both rules and both tie orders,
/// with white discs, from the start and from positions later in the game (among them one
/// whose only move takes nothing).
#[test]
fn shared_and_layered_solves_agree_with_the_word_solver() {
    let mut memory = SolveMemory::default();
    let sweep = SweepMemory::new(0);
    let mut layers = Layers::default();
    let mut table = WordTable::default();
    let mut check = |g: &BigPoints, p: &Position| {
        let packed = g.packed().unwrap();
        let rule = decision_rule(g.rule());
        let expected = WordSolver::new(&packed, rule, |_, &w| w, &mut table).solve(&g.pack64(p));
        assert_eq!(g.solve_scores(p, &mut memory), expected, "{} {p:?}", g.board());
        let shared = g.solve_sharing(p, &mut memory, Some(&sweep));
        assert_eq!(shared, expected, "{} {p:?}, sharing", g.board());
        let layered = LayerSolver::new(&packed, rule, &mut layers).solve(g.pack64(p));
        assert_eq!(layered, expected, "{} {p:?}", g.board());
    };
    let g = game("bigpoints:board=12");
    check(&g, &g.parse_position(".2/s0/r/r1/r1/1").unwrap());
    let mut boards = 0;
    for (spec, sample) in [
        ("colors=2,discs=4", None),
        ("colors=3,discs=2", None),
        ("colors=3,discs=3", None),
        ("colors=4,discs=2", Some(300)),
        ("colors=3,discs=3,rule=margin", Some(300)),
        ("colors=3,discs=3,ties=ahead", Some(300)),
        ("colors=3,discs=2,white=1", None),
        ("colors=2,discs=3,white=2,rule=margin", None),
        ("colors=3,discs=4", Some(10)),
        ("colors=4,discs=3", Some(2)),
        ("colors=5,discs=2", Some(1)),
        ("colors=4,discs=2,white=1,rule=margin", Some(10)),
        // Past the paths solved on shared keys.
        ("colors=2,discs=7", Some(5)),
    ] {
        let f = BoardFamily::from_spec(&format!("bigpoints:{spec}").parse().unwrap()).unwrap();
        let all = f.all();
        let n = sample.unwrap_or(all.len());
        for (i, board) in (0..n).map(|i| &all[i * all.len() / n]).enumerate() {
            let g = f.game(board);
            check(&g, &g.start());
            if i % 10 == 0 {
                // Positions later in the game: the first move's children and theirs.
                let mut later = vec![g.start()];
                for _ in 0..2 {
                    let last = *later.last().unwrap();
                    later = g.legal_moves(&last).iter().map(|m| g.play(&last, m)).collect();
                    later.iter().for_each(|p| check(&g, p));
                }
            }
            boards += 1;
        }
    }
    assert!(boards > 2_500);
}
