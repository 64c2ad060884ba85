//! The conformance suite ([`zermelo::conformance`]) over every game of the catalog, one
//! test per group of checks.

use zermelo::catalog;
use zermelo::conformance::CHECKS;
use zermelo::Error;

/// Runs the group of checks `name` on every game of the catalog.
fn on_every_game(name: &str) {
    let check = CHECKS
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check named {name}"));
    for entry in catalog::entries() {
        check.run(entry).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn every_position_value_is_the_minimax_of_its_moves() {
    on_every_game("minimax");
}

#[test]
fn random_playouts_round_trip_their_notation_and_end() {
    on_every_game("playouts");
}

#[test]
fn every_solver_agrees_and_solve_matches_the_start() {
    on_every_game("solvers");
}

#[test]
fn bad_moves_and_specs_give_one_line_errors() {
    on_every_game("errors");
    assert!(matches!(catalog::open("nosuchgame"), Err(Error::Spec(_))));
}

#[test]
fn the_bot_moves_legally_and_random_tournaments_add_up() {
    on_every_game("bot");
}

#[test]
fn the_catalog_lists_the_players_and_solvers_each_session_offers() {
    on_every_game("listing");
}

#[test]
fn a_position_given_by_its_notation_answers_as_the_moves_that_reach_it() {
    on_every_game("positions");
}

#[test]
fn malformed_and_impossible_positions_give_one_line_errors() {
    on_every_game("bad-positions");
}

#[test]
fn every_check_has_its_test() {
    let names: Vec<&str> = CHECKS.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "minimax",
            "playouts",
            "solvers",
            "errors",
            "bot",
            "listing",
            "positions",
            "bad-positions"
        ]
    );
}

#[test]
fn a_failure_names_its_check_spec_and_position() {
    // A game whose session lists solvers the catalog does not.
    let nim = catalog::entry_named("nim").unwrap();
    let entry = catalog::Entry {
        solvers: &["nosuchsolver"],
        ..*nim
    };
    let listing = CHECKS.iter().find(|c| c.name == "listing").unwrap();
    let err = listing.run(&entry).unwrap_err();
    let line = err.to_string();
    assert!(matches!(err, Error::Conformance(_)), "{err:?}");
    assert!(
        line.starts_with("the listing check fails")
            && line.contains("nim:heaps=1/2/3")
            && !line.contains('\n'),
        "{line}"
    );
}
