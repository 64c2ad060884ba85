//! The registered game answers as worked out by hand (see the crate's doc), plays
//! perfectly, passes the conformance suite, and cannot take a built-in game's name.

use zermelo::catalog;
use zermelo::conformance;
use zermelo::session::{Options, Session};
use zermelo::spec::GameInfo;
use zermelo::Class;
use zermelo::Error;

fn options() -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-own-game-{}", std::process::id())),
        ..Options::default()
    }
}

fn open(spec: &str) -> Box<dyn Session> {
    own_game::register().unwrap();
    catalog::open(spec).unwrap()
}

/// (value, remoteness) of every move from the position after `moves`, in cell order.
fn moves_valued(session: &dyn Session, moves: &[&str]) -> Vec<(String, Option<Class>, Option<u32>)> {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let view = session.position(&moves, &options()).unwrap();
    let mut out: Vec<_> = view
        .moves
        .iter()
        .map(|m| (m.notation.clone(), m.verdict.value, m.verdict.remoteness))
        .collect();
    out.sort_by_key(|(m, ..)| m.parse::<usize>().unwrap());
    out
}

#[test]
fn every_strip_is_a_draw() {
    for cells in 1..=9 {
        let spec = format!("strip:cells={cells}");
        let solved = open(&spec).solve(&options()).unwrap();
        assert_eq!(solved.verdict.value, Some(Class::Draw), "{spec}");
        assert_eq!(solved.to_move, "X");
    }
    // The default strip, of 7 cells.
    let solved = open("strip").solve(&options()).unwrap();
    assert_eq!(solved.verdict.value, Some(Class::Draw));
}

#[test]
fn every_first_mark_draws() {
    let session = open("strip:cells=7");
    let values = moves_valued(session.as_ref(), &[]);
    let cells: Vec<String> = (1..=7).map(|c| c.to_string()).collect();
    assert_eq!(values.iter().map(|(m, ..)| m.clone()).collect::<Vec<_>>(), cells);
    assert!(
        values.iter().all(|(_, value, _)| *value == Some(Class::Draw)),
        "{values:?}"
    );
}

#[test]
fn two_threats_win_in_two() {
    // X 3, O 7, X 4: X threatens 2 and 5; O blocks one, X marks the other.
    let session = open("strip:cells=7");
    let view = session
        .position(&["3", "7", "4"].map(String::from), &options())
        .unwrap();
    assert_eq!(view.position, "..xx..o");
    assert_eq!(
        (view.to_move.as_str(), view.verdict.value, view.verdict.remoteness),
        ("O", Some(Class::Lose), Some(2))
    );
    let lost: Vec<_> = ["1", "2", "5", "6"]
        .iter()
        .map(|m| (m.to_string(), Some(Class::Lose), Some(2)))
        .collect();
    assert_eq!(moves_valued(session.as_ref(), &["3", "7", "4"]), lost);
    // After O blocks 5, only X's mark at 2 wins at once.
    let after = moves_valued(session.as_ref(), &["3", "7", "4", "5"]);
    let wins: Vec<&str> = after
        .iter()
        .filter(|(_, value, _)| *value == Some(Class::Win))
        .map(|(m, ..)| m.as_str())
        .collect();
    assert_eq!(wins, ["2"]);
    assert_eq!(after[1], ("2".to_string(), Some(Class::Win), Some(1)));
}

#[test]
fn perfect_never_loses_to_random() {
    let session = open("strip:cells=7");
    let players = ["perfect", "random"].map(String::from);
    let standings = session.tournament(&players, 40, 7, &options(), &|_| {}).unwrap();
    let perfect = &standings.players[0];
    assert_eq!(perfect.player, "perfect");
    assert_eq!(perfect.losses, 0, "{standings:?}");
    assert_eq!(perfect.wins + perfect.draws, 40);
}

#[test]
fn the_conformance_suite_passes() {
    let entry = own_game::register().unwrap();
    let checked = conformance::check(entry).unwrap_or_else(|e| panic!("{e}"));
    // The two examples and the default strip.
    assert_eq!(checked.specs, 3, "{checked:?}");
    assert!(checked.positions > 1_000 && checked.playouts > 0, "{checked:?}");
}

#[test]
fn the_game_is_listed_and_opens_like_a_built_in_one() {
    let entry = own_game::register().unwrap();
    assert!(catalog::entries().iter().any(|e| e.info.name == "strip"));
    assert_eq!(entry.solvers, ["alphabeta", "memo", "retrograde"]);
    assert_eq!(entry.describe().players[0].name, "perfect");
    let err = catalog::open("strip:cells=13").err().unwrap();
    assert!(matches!(err, Error::Spec(_)), "{err}");
    let err = catalog::open("strip:rows=2").err().unwrap();
    assert!(err.to_string().contains("no key 'rows'"), "{err}");
}

#[test]
fn a_built_in_name_is_refused() {
    let info = GameInfo {
        name: "nim",
        ..own_game::INFO
    };
    let refused = catalog::register_game(info, &["nim:cells=3"], |_| Ok(own_game::Strip::new(3)));
    let err = refused.err().expect("a built-in name is refused");
    assert!(matches!(err, Error::Spec(_)), "{err:?}");
    assert!(err.to_string().contains("built-in"), "{err}");
    // The catalog's nim is still the heap game.
    assert!(catalog::open("nim:heaps=1/2").is_ok());
}
