//! Heap games through the catalog: solutions, move values, players and limits, checked
//! against the memoised search of the same games.

use zermelo::catalog;
use zermelo::games::impartial::HeapGame;
use zermelo::games::impartial::{grundy, sequence_db};
use zermelo::session::{Options, PositionView, Session, MOVES_LISTED};
use zermelo::solve::memo::MemoSolver;
use zermelo::Class;
use zermelo::{Error, Game, Notation, Spec, Value};

fn open(spec: &str) -> Box<dyn Session> {
    catalog::open(spec).unwrap()
}

fn game(spec: &str) -> HeapGame {
    HeapGame::from_spec(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn all_moves() -> Options {
    Options {
        all_moves: true,
        ..Options::default()
    }
}

/// "win" or "lose" for the player making each move of the start, by memoised search.
fn searched_moves(spec: &str) -> Vec<(String, &'static str)> {
    let g = game(spec);
    let start = g.start();
    let mut memo = MemoSolver::new(&g);
    let mut moves: Vec<(String, &'static str)> = g
        .legal_moves(&start)
        .iter()
        .map(|m| {
            let word = match memo.solve(&g.play(&start, m)) {
                Value::Lose(_) => "win",
                _ => "lose",
            };
            (g.format_move(&start, m), word)
        })
        .collect();
    moves.sort();
    moves
}

fn session_moves(view: &PositionView) -> Vec<(String, &'static str)> {
    let mut moves: Vec<(String, &'static str)> = view
        .moves
        .iter()
        .map(|m| (m.notation.clone(), m.verdict.value.unwrap().word()))
        .collect();
    moves.sort();
    moves
}

fn winning(view: &PositionView) -> Vec<&str> {
    view.moves
        .iter()
        .filter(|m| m.verdict.value == Some(Class::Win))
        .map(|m| m.notation.as_str())
        .collect()
}

#[test]
fn nim_six_nine_three_is_won_only_by_taking_four_from_the_nine() {
    let spec = "nim:heaps=6/9/3";
    let s = open(spec);
    let view = s.position(&[], &Options::default()).unwrap();
    assert_eq!(session_moves(&view), searched_moves(spec));
    assert_eq!(view.moves_total.0, 18);
    assert_eq!(winning(&view), ["2-4"]);
    let best: Vec<&str> = view
        .moves
        .iter()
        .filter(|m| m.best)
        .map(|m| m.notation.as_str())
        .collect();
    assert_eq!(best, ["2-4"]);
    assert_eq!(view.moves[0].note.as_deref(), Some("take 4 from heap 2 (9 -> 5)"));
    assert_eq!(view.verdict.value, Some(Class::Win));
    assert_eq!(view.verdict.remoteness, None);
    let nim_sum = view.details.iter().find(|f| f.key == "grundy").unwrap();
    assert_eq!(nim_sum.value.to_string(), "12");

    let solution = s.solve(&Options::default()).unwrap();
    assert_eq!(solution.verdict.value, Some(Class::Win));
    assert_eq!(s.bot_move(&[], "perfect", 1, &Options::default()).unwrap(), "2-4");
    let after = s.position(&["2-4".into()], &Options::default()).unwrap();
    assert_eq!(after.verdict.value, Some(Class::Lose));
    assert!(winning(&after).is_empty());
}

#[test]
fn twenty_one_stones_of_one_two_three_are_a_first_player_win() {
    let spec = "subtraction:set=1/2/3";
    let s = open(spec);
    let g = game(spec);
    let searched = MemoSolver::new(&g).solve(&g.start());
    assert!(matches!(searched, Value::Win(_)));
    let unsaved = Options {
        save: false,
        ..Options::default()
    };
    assert_eq!(s.solve(&unsaved).unwrap().verdict.value, Some(searched.class()));
    let view = s.position(&[], &Options::default()).unwrap();
    assert_eq!(session_moves(&view), searched_moves(spec));
    assert_eq!(winning(&view), ["1-1"]);
}

#[test]
fn misere_nim_agrees_with_search() {
    for spec in [
        "nim:heaps=1/1/5,misere=true",
        "nim:heaps=1/1/1,misere=true",
        "nim:heaps=2/3/4,misere=true",
    ] {
        let s = open(spec);
        let view = s.position(&[], &all_moves()).unwrap();
        assert_eq!(session_moves(&view), searched_moves(spec), "{spec}");
        let g = game(spec);
        let searched = MemoSolver::new(&g).solve(&g.start());
        assert_eq!(view.verdict.value, Some(searched.class()), "{spec}");
        assert!(view.details.iter().all(|f| f.key != "grundy"), "{spec}");
    }
}

#[test]
fn a_huge_kayles_heap_lists_a_few_moves_and_counts_them_all() {
    let spec = "octal:code=0.77,heaps=1000000";
    let s = open(spec);
    let cost = s.estimate(&Options::default()).unwrap();
    assert!(cost.positions < 10_000, "{cost:?}");
    let view = s.position(&[], &Options::default()).unwrap();
    assert!(view.moves.len() <= MOVES_LISTED);
    assert_eq!(view.moves_total.0, game(spec).move_count(&game(spec).start()));
    assert!(view.moves_total.0 > MOVES_LISTED as u128);
    // Winning moves come first, and each leaves a lost position.
    let first = &view.moves[0];
    assert_eq!(first.verdict.value, Some(Class::Win));
    let after = s
        .position(std::slice::from_ref(&first.notation), &Options::default())
        .unwrap();
    assert_eq!(after.verdict.value, Some(Class::Lose));
}

#[test]
fn every_move_is_listed_when_asked_for() {
    let s = open("octal:code=0.77,heaps=500");
    let some = s.position(&[], &Options::default()).unwrap();
    let every = s.position(&[], &all_moves()).unwrap();
    assert_eq!(some.moves.len(), MOVES_LISTED);
    assert_eq!(every.moves.len() as u128, every.moves_total.0);
    assert_eq!(winning(&some), winning(&every));
}

#[test]
fn octal_values_out_of_reach_are_too_big() {
    // Treblecross: its values keep growing, so few heaps are common under any split.
    let s = open("octal:code=0.007,heaps=1000000");
    assert!(matches!(s.estimate(&Options::default()), Err(Error::TooBig(_))));
    assert!(matches!(s.solve(&Options::default()), Err(Error::TooBig(_))));
}

#[test]
fn tournaments_take_one_program_per_seat() {
    let s = open("nim:heaps=3/4/5");
    let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let opts = Options::default();
    for bad in [
        &["perfect"][..],
        &["perfect", "random", "random"],
        &["perfect", "human"],
        &["perfect", "nobody"],
    ] {
        assert!(
            s.tournament(&names(bad), 2, 1, &opts, &|_| ()).is_err(),
            "{bad:?}"
        );
    }
    let standings = s
        .tournament(&names(&["perfect", "perfect"]), 10, 1, &opts, &|_| ())
        .unwrap();
    // The first player wins 3/4/5 (nim-sum 2), and each seat moves first equally often.
    assert_eq!(standings.players[0].wins, 5);
    assert_eq!(standings.players[1].wins, 5);
}

#[test]
fn play_refuses_starts_with_too_many_moves() {
    let s = open("nim:heaps=1000000000000");
    let opts = Options::default();
    assert!(matches!(
        s.tournament(&["random".into(), "perfect".into()], 1, 1, &opts, &|_| ()),
        Err(Error::TooBig(_))
    ));
    assert_eq!(s.bot_move(&[], "perfect", 1, &opts).unwrap(), "1-1000000000000");
    assert!(s.bot_move(&[], "random", 1, &opts).is_err());
}

#[test]
fn a_saved_sequence_serves_the_heaps_it_values_and_no_others() {
    let data = std::env::temp_dir().join(format!("zermelo-heaps-short-{}", std::process::id()));
    let opts = Options {
        data_dir: data.clone(),
        ..Options::default()
    };
    let unsaved = Options {
        data_dir: data.join("none"),
        ..Options::default()
    };
    // Kayles up to heap 12: too short for its period's proof, so it values heaps <= 12 only.
    let short = grundy::octal_grundy(&"0.77".parse().unwrap(), Some(12));
    assert!(short.shape.is_none());
    sequence_db::write(&data.join("octal-code-0-77.zdb"), "octal:code=0.77", &short).unwrap();
    let table = |view: &PositionView| view.details.iter().any(|f| f.key == "table");
    for (heaps, read) in [("12/5", true), ("13/5", false)] {
        let spec = format!("octal:code=0.77,heaps={heaps}");
        let from_data = open(&spec).position(&[], &opts).unwrap();
        let computed = open(&spec).position(&[], &unsaved).unwrap();
        assert_eq!(table(&from_data), read, "{spec}");
        assert_eq!(session_moves(&from_data), session_moves(&computed), "{spec}");
        assert_eq!(session_moves(&from_data), searched_moves(&spec), "{spec}");
    }
    std::fs::remove_dir_all(&data).unwrap();
}
