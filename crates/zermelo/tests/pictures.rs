//! The pictures of positions, for every catalog entry's examples: at the start and along
//! a few seeded random games, every move on a picture is a legal move of the position, on
//! one shape only; for the games whose every move is one click, every legal move is on it.

use std::collections::HashSet;

use zermelo::catalog::{self, CATALOG};
use zermelo::session::{Options, PositionView, Session};

/// Random games walked per example.
const GAMES: u64 = 3;

/// Games whose every legal move is on the picture.
const WHOLE: &[&str] = &["tictactoe", "mnk", "pawns", "dots", "nim"];
/// Games drawn by their text alone (a graph file draws no picture): the page shows the
/// position's text and a button per move.
const TEXT_ONLY: &[&str] = &["graph"];

fn options() -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-pictures-{}", std::process::id())),
        all_moves: true,
        ..Options::default()
    }
}

/// Checks the picture of `view` against its moves.
fn check(spec: &str, whole: bool, view: &PositionView) {
    let picture = view
        .picture
        .as_ref()
        .unwrap_or_else(|| panic!("{spec}: no picture at {}", view.position));
    let legal: HashSet<&str> = view.moves.iter().map(|m| m.notation.as_str()).collect();
    let mut seen = HashSet::new();
    for play in picture.shapes.iter().filter_map(|s| s.play.as_deref()) {
        assert!(
            legal.contains(play),
            "{spec} at {}: {play} is not legal",
            view.position
        );
        assert!(
            seen.insert(play),
            "{spec} at {}: {play} is on two shapes",
            view.position
        );
    }
    if whole {
        assert_eq!(
            seen, legal,
            "{spec} at {}: moves missing from the picture",
            view.position
        );
    }
    for s in &picture.shapes {
        assert!(s.x >= 0.0 && s.y >= 0.0, "{spec}: {s:?} is off the picture");
        assert!(
            s.x + s.w <= picture.width && s.y + s.h <= picture.height,
            "{spec}: {s:?} is off the picture"
        );
    }
}

/// Walks a game of `spec` from the start picking moves by a seeded generator, checking
/// every position's picture.
fn walk(spec: &str, session: &dyn Session, seed: u64, whole: bool, text_only: bool) {
    let opts = options();
    let mut moves = Vec::new();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    loop {
        let view = session
            .position(&moves, &opts)
            .unwrap_or_else(|e| panic!("{spec} after {moves:?}: {e}"));
        if text_only {
            assert!(view.picture.is_none(), "{spec}: a picture at {}", view.position);
        } else {
            check(spec, whole, &view);
        }
        if view.moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = (state >> 33) as usize % view.moves.len();
        moves.push(view.moves[pick].notation.clone());
    }
}

#[test]
fn pictures_play_legal_moves_once() {
    for entry in CATALOG {
        let whole = WHOLE.contains(&entry.info.name);
        let text_only = TEXT_ONLY.contains(&entry.info.name);
        for spec in entry.examples {
            let session = catalog::open(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for seed in 0..GAMES {
                walk(spec, session.as_ref(), seed, whole, text_only);
            }
        }
    }
    let _ = std::fs::remove_dir_all(options().data_dir);
}

#[test]
fn a_big_heap_plays_only_the_tokens_drawn() {
    let spec = "nim:heaps=45/3";
    let session = catalog::open(spec).unwrap();
    let view = session.position(&[], &options()).unwrap();
    check(spec, false, &view);
    let plays = view
        .picture
        .unwrap()
        .shapes
        .iter()
        .filter(|s| s.play.is_some())
        .count();
    assert_eq!(plays, 40 + 3);
}

#[test]
fn full_big_points_is_pictured_along_whole_games() {
    for spec in [
        "bigpoints:players=2",
        "bigpoints:players=3",
        "bigpoints:players=5",
    ] {
        let session = catalog::open(spec).unwrap();
        walk(spec, session.as_ref(), 1, false, false);
    }
}
