//! The pawns game: the course's checks, the symmetric level solve against an unreduced
//! brute-force solve, symmetry properties, and the perfect player against random.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use zermelo::games::pawns::{Board, Pawns};
use zermelo::play::perfect::{rank_moves, Perfect};
use zermelo::play::random::Random;
use zermelo::play::{play_match, Player};
use zermelo::solve::levels;
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::retrograde;
use zermelo::solve::TableOracle;
use zermelo::table::CompactTable;
use zermelo::{Game, Indexed, Notation, Outcome, Spec, Value};

fn game(cols: usize, rows: usize) -> Pawns {
    Pawns::new(cols, rows, 0).unwrap()
}

fn value(g: &Pawns, table: &CompactTable, p: &Board) -> Value {
    table.get(g.rank(p)).expect("a valid position")
}

#[test]
fn course_checks_on_three_by_five() {
    let g = game(3, 5);
    let table = levels::solve(&g, &());
    let start = g.start();
    assert_eq!(g.board_id(&start), 1263);
    assert!(matches!(value(&g, &table, &start), Value::Win(_)));
    let black_first = Pawns::from_spec(&"pawns:cols=3,rows=5,first=black".parse::<Spec>().unwrap()).unwrap();
    assert!(matches!(value(&g, &table, &black_first.start()), Value::Win(_)));

    let mut winning = Vec::new();
    let mut losing = Vec::new();
    for (m, v) in rank_moves(&g, &mut TableOracle::new(&g, &table), &start).unwrap() {
        let id = g.board_id(&g.play(&start, &m));
        match v {
            Value::Win(_) => winning.push(id),
            _ => losing.push(id),
        }
    }
    winning.sort_unstable();
    losing.sort_unstable();
    assert_eq!(winning, [1271, 1275, 1423, 1503, 4463, 6063]);
    assert_eq!(losing, [1267, 1343, 2863]);
}

/// Every raw board of the size with either side to move.
fn all_positions(g: &Pawns) -> impl Iterator<Item = Board> + '_ {
    (0..g.raw_boards()).flat_map(move |id| (0..2).filter_map(move |side| g.from_board_id(id, side)))
}

#[test]
fn symmetric_solve_equals_unreduced_brute_force() {
    let sizes = (1..=3)
        .flat_map(|c| (3..=6).map(move |r| (c, r)))
        .chain((3..=5).map(|r| (4, r)));
    for (cols, rows) in sizes {
        let g = game(cols, rows);
        let table = levels::solve(&g, &());
        let mut brute = MemoSolver::new(&g);
        let mut checked = 0u64;
        for p in all_positions(&g) {
            assert_eq!(
                value(&g, &table, &p),
                brute.solve(&p),
                "{cols}x{rows} {}",
                g.format_position(&p)
            );
            checked += 1;
        }
        assert_eq!(checked, 2 * (g.raw_boards() - 1), "{cols}x{rows}");
    }
}

#[test]
fn level_solve_equals_retrograde_solve_on_classes() {
    for (cols, rows) in [(2, 4), (3, 5), (4, 4)] {
        let g = game(cols, rows);
        let by_levels = levels::solve(&g, &());
        let by_retrograde = retrograde::solve(&g, &());
        for r in 0..g.size() {
            assert_eq!(by_levels.get(r), by_retrograde.get(r), "{cols}x{rows} rank {r}");
        }
    }
}

#[test]
fn board_ids_round_trip_along_random_games() {
    let g = game(4, 6);
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let mut p = g.start();
        while g.outcome(&p).is_none() {
            assert_eq!(g.from_board_id(g.board_id(&p), g.to_move(&p)), Some(p));
            let moves = g.legal_moves(&p);
            p = g.play(&p, moves.choose(&mut rng).unwrap());
        }
    }
}

/// A position reached by a few random plies from the start.
fn random_position(g: &Pawns, rng: &mut StdRng) -> Board {
    let mut p = g.start();
    for _ in 0..rng.gen_range(0..12) {
        if g.outcome(&p).is_some() {
            break;
        }
        let moves = g.legal_moves(&p);
        let next = g.play(&p, moves.choose(rng).unwrap());
        if g.outcome(&next).is_some() {
            break;
        }
        p = next;
    }
    p
}

#[test]
fn perfect_beats_random_whenever_it_can() {
    for (cols, rows) in [(3, 5), (4, 5), (3, 6), (5, 5)] {
        let g = game(cols, rows);
        let table = levels::solve(&g, &());
        let mut rng = StdRng::seed_from_u64(cols as u64 * 10 + rows as u64);
        for i in 0..100u64 {
            let start = random_position(&g, &mut rng);
            let bot_seat = (i % 2) as u8;
            let start_value = value(&g, &table, &start);
            let bot_wins = (g.to_move(&start) == bot_seat) == matches!(start_value, Value::Win(_));
            let mut bot = Perfect::new(TableOracle::new(&g, &table), i);
            let mut random = Random::new(i);
            let mut seats: [&mut dyn Player<Pawns>; 2] = if bot_seat == 0 {
                [&mut bot, &mut random]
            } else {
                [&mut random, &mut bot]
            };
            let record = play_match(&g, start, &mut seats, 1000, |_, _| {}).unwrap();
            if bot_wins {
                assert_eq!(
                    record.outcome,
                    Outcome::Win(bot_seat),
                    "{}",
                    g.format_position(&start)
                );
                let r = start_value.remoteness().unwrap() as usize;
                assert!(record.moves.len() <= r, "the bot wins within the remoteness");
            }
        }
    }
}

#[test]
fn bad_specs_and_moves_are_refused() {
    let err = |s: &str| {
        Pawns::from_spec(&s.parse::<Spec>().unwrap())
            .unwrap_err()
            .to_string()
    };
    assert!(err("pawns:cols=9").contains("out of range"));
    assert!(err("pawns:cols=0").contains("out of range"));
    assert!(err("pawns:rows=2").contains("out of range"));
    assert!(err("pawns:rows=9").contains("out of range"));
    assert!(err("pawns:first=red").contains("white or black"));
    assert!(err("pawns:cols=3,rows=5,board=B...P/B...P").contains("columns"));
    assert!(err("pawns:size=3").contains("no key"));
    let g = Pawns::from_spec(&"pawns:board=B...P/B.P../BP...".parse::<Spec>().unwrap()).unwrap();
    assert_eq!((g.cols(), g.rows()), (3, 5));
    let p = g.start();
    for (text, why) in [
        ("b3", "cannot move"),
        ("d2", "off the"),
        ("a9", "off the"),
        ("pass", "not allowed"),
        ("x", "expected"),
    ] {
        let e = g.parse_move(&p, text).unwrap_err().to_string();
        assert!(e.contains(why), "{text}: {e}");
    }
    assert!(g.parse_move(&p, "c3").is_ok(), "a jump over the adjacent pawn");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn permutations_and_mirror_keep_the_value(
        cols in 1usize..=4,
        rows in 3usize..=5,
        seed in any::<u64>(),
        side in 0u8..2,
    ) {
        let g = game(cols, rows);
        let mut rng = StdRng::seed_from_u64(seed);
        let ids = loop {
            let ids: Vec<u8> = (0..cols).map(|_| rng.gen_range(0..g.column_ids()) as u8).collect();
            if g.board(&ids, side).is_some() {
                break ids;
            }
        };
        let p = g.board(&ids, side).unwrap();
        let mut shuffled = ids.clone();
        shuffled.shuffle(&mut rng);
        let q = g.board(&shuffled, side).unwrap();
        let mut brute = MemoSolver::new(&g);
        let v = brute.solve(&p);
        prop_assert_eq!(brute.solve(&q), v);
        prop_assert_eq!(brute.solve(&g.mirror(&p)), v);
        prop_assert_eq!(brute.solve(&g.mirror(&q)), v);
    }
}
