//! Domineering's two answers, who wins (by proof: `solve`, the moves' values, the perfect
//! player) and in how many moves (`remoteness`), agree wherever both answer; boards of
//! more than 62 cells refuse, in one line, what needs a rank for every position.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use zermelo::catalog;
use zermelo::session::{Options, PositionView, Session, Solution};
use zermelo::Class;
use zermelo::Error;

/// Options that save nothing, by proof or, with `remoteness`, by the exact search.
fn opts(remoteness: bool) -> Options {
    Options {
        save: false,
        remoteness,
        data_dir: std::env::temp_dir().join(format!("zermelo-proof-{}", std::process::id())),
        ..Options::default()
    }
}

fn open(spec: &str) -> Box<dyn Session> {
    catalog::open(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The outcome class a solution tells.
fn class(solution: &Solution) -> String {
    let fact = solution.details.iter().find(|f| f.key == "class");
    format!("{:?}", fact.map(|f| &f.value))
}

/// Solves `position` of `session` by proof and by the exact search, and checks that both
/// say who wins, the proof without the remoteness.
fn both_agree(session: &dyn Session, position: Option<String>) {
    let at = |remoteness| Options {
        position: position.clone(),
        ..opts(remoteness)
    };
    let spec = session.spec();
    let proved = session
        .solve(&at(false))
        .unwrap_or_else(|e| panic!("{spec} {position:?}: {e}"));
    let exact = session
        .solve(&at(true))
        .unwrap_or_else(|e| panic!("{spec} {position:?}: {e}"));
    assert_eq!(proved.solver, "proof", "{spec}");
    assert_eq!(exact.solver, "alphabeta", "{spec}");
    assert_eq!(proved.verdict.remoteness, None, "{spec} {position:?}");
    assert!(exact.verdict.remoteness.is_some(), "{spec} {position:?}");
    assert_eq!(proved.verdict.value, exact.verdict.value, "{spec} {position:?}");
    assert_eq!(class(&proved), class(&exact), "{spec} {position:?}");
}

#[test]
fn proof_and_remoteness_agree_on_every_board_to_4_by_4_with_either_first() {
    for rows in 1..=4 {
        for cols in 1..=4 {
            for first in ["vertical", "horizontal"] {
                let session = open(&format!("domineering:rows={rows},cols={cols},first={first}"));
                both_agree(session.as_ref(), None);
            }
        }
    }
}

#[test]
fn proof_and_remoteness_agree_on_fifty_random_positions() {
    let mut rng = StdRng::seed_from_u64(38);
    for i in 0..50 {
        let (rows, cols) = *[(4, 5), (5, 4), (5, 5), (4, 6)].choose(&mut rng).unwrap();
        let session = open(&format!("domineering:rows={rows},cols={cols}"));
        let position = if i % 2 == 0 {
            // A position play reaches: random moves from the start.
            let mut moves = Vec::new();
            for _ in 0..rng.gen_range(0..8) {
                let view = session.position(&moves, &opts(false)).unwrap();
                let Some(m) = view.moves.choose(&mut rng) else {
                    break;
                };
                moves.push(m.notation.clone());
            }
            session.position(&moves, &opts(false)).unwrap().position
        } else {
            // Any pattern of covered cells, either player to move.
            let board: Vec<String> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| if rng.gen_bool(0.3) { '#' } else { '.' })
                        .collect()
                })
                .collect();
            format!("{} {}", board.join("/"), if rng.gen() { "V" } else { "H" })
        };
        both_agree(session.as_ref(), Some(position));
    }
}

/// Checks the moves of `view`, valued by proof, against `exact`, the same position valued
/// with remoteness: the winning moves first, each valued as the exact search values it.
fn check_moves(view: &PositionView, exact: &PositionView) {
    let at = &view.position;
    assert_eq!(view.verdict.value, exact.verdict.value, "{at}");
    assert_eq!(view.verdict.remoteness, None, "{at}");
    let values: Vec<_> = view.moves.iter().map(|m| m.verdict.value.unwrap()).collect();
    let wins = values.iter().take_while(|v| **v == Class::Win).count();
    assert!(
        values[wins..].iter().all(|v| *v == Class::Lose),
        "{at}: {values:?}"
    );
    assert_eq!(view.moves.len(), exact.moves.len(), "{at}");
    for m in &view.moves {
        assert_eq!(m.verdict.remoteness, None, "{at} {}", m.notation);
        let timed = exact.moves.iter().find(|e| e.notation == m.notation).unwrap();
        assert_eq!(m.verdict.value, timed.verdict.value, "{at} {}", m.notation);
        assert_eq!(
            m.best,
            m.verdict.value == view.verdict.value,
            "{at} {}",
            m.notation
        );
    }
}

#[test]
fn moves_by_proof_list_the_winning_first_each_valued_as_the_exact_search_does() {
    let mut rng = StdRng::seed_from_u64(5);
    for spec in [
        "domineering:rows=4,cols=4",
        "domineering:rows=5,cols=4",
        "domineering:rows=3,cols=6",
    ] {
        let session = open(spec);
        let mut moves = Vec::new();
        loop {
            let view = session.position(&moves, &opts(false)).unwrap();
            if view.terminal {
                break;
            }
            check_moves(&view, &session.position(&moves, &opts(true)).unwrap());
            moves.push(view.moves.choose(&mut rng).unwrap().notation.clone());
        }
    }
}

#[test]
fn the_perfect_player_never_loses_a_won_position_against_random() {
    for spec in ["domineering:rows=4,cols=4", "domineering:rows=5,cols=4"] {
        let session = open(spec);
        for seed in 0..3 {
            for perfect in 0..2 {
                let mut moves: Vec<String> = Vec::new();
                let mut won = false;
                let last = loop {
                    let view = session.position(&moves, &opts(false)).unwrap();
                    if view.terminal {
                        break view;
                    }
                    let m = if moves.len() % 2 == perfect {
                        let m = session.bot_move(&moves, "perfect", seed, &opts(false)).unwrap();
                        let after = [moves.clone(), vec![m.clone()]].concat();
                        if view.verdict.value == Some(Class::Win) {
                            won = true;
                            let next = session.position(&after, &opts(false)).unwrap();
                            assert_eq!(next.verdict.value, Some(Class::Lose), "{spec} {after:?}");
                        } else {
                            // Lost: the move the proof ranks first, listed first.
                            assert_eq!(m, view.moves[0].notation, "{spec} {moves:?}");
                        }
                        m
                    } else {
                        session
                            .bot_move(&moves, "random", seed * 100 + moves.len() as u64, &opts(false))
                            .unwrap()
                    };
                    moves.push(m);
                };
                // Who cannot move loses: once won, never the perfect player.
                let loser = moves.len() % 2;
                assert!(!won || loser != perfect, "{spec} {moves:?}: {:?}", last.result);
            }
        }
    }
}

/// Checks that `answer` is a one-line refusal saying `says`.
fn refused<T: std::fmt::Debug>(answer: Result<T, Error>, says: &str) -> String {
    let line = answer.expect_err(says).to_string();
    assert!(!line.contains('\n') && line.contains(says), "{line}");
    line
}

#[test]
fn boards_over_62_cells_refuse_in_one_line_what_needs_ranks_and_what_takes_too_long() {
    for spec in [
        "domineering:rows=7,cols=9",
        "domineering:rows=8,cols=8",
        "domineering:rows=9,cols=9",
        "domineering:rows=10,cols=10",
        "domineering:rows=11,cols=11",
    ] {
        let session = open(spec);
        let numbered = "too many positions to number";
        refused(session.count(false, &opts(false)), numbered);
        let retrograde = Options {
            solver: Some("retrograde".into()),
            ..opts(false)
        };
        refused(session.solve(&retrograde), numbered);
        // The exact search stops at the memory; the proof keeps its table within the
        // memory and stops at the time.
        let small = Options {
            budget: opts(false).budget.with_memory(1 << 20),
            ..opts(true)
        };
        refused(session.solve(&small), "allows");
        refused(session.position(&["a1".into()], &small), "allows");
        let mut brief = Options {
            remoteness: false,
            ..small.clone()
        };
        brief.budget.seconds = Some(0.2);
        refused(session.solve(&brief), "");
        refused(session.position(&["a1".into()], &brief), "");
        // Listed unvalued, played by random, and by the perfect player within a time.
        let unvalued = session.unvalued(&[], &opts(false)).unwrap();
        assert!(unvalued.moves.len() > 40, "{spec}");
        session
            .bot_move(&["a1".into()], "random", 1, &opts(false))
            .unwrap();
        let mut timed = opts(false);
        timed.budget.seconds = Some(0.2);
        refused(session.bot_move(&[], "perfect", 1, &timed), "");
        let choice = session.bot_choice(&[], "perfect", 1, &timed).unwrap();
        assert!(
            unvalued.moves.iter().any(|m| m.notation == choice.notation),
            "{spec}"
        );
        assert!(
            choice.note.unwrap().contains("no proof within the time"),
            "{spec}"
        );
    }
    // A board of 56 cells is numbered: what it refuses, it refuses for its size.
    let line = refused(open("domineering:rows=7,cols=8").count(false, &opts(false)), "");
    assert!(!line.contains("number"), "{line}");
}

#[test]
fn the_largest_board_reads_and_prints_positions_and_moves_of_every_cell() {
    let session = open("domineering:rows=11,cols=11");
    let view = session
        .unvalued(&["k10".into(), "j11".into()], &opts(false))
        .err();
    // k10 for Vertical covers k10 and k11; j11 for Horizontal covers j11 and k11, taken.
    assert!(view.is_some_and(|e| e.to_string().contains("covered")));
    let played: Vec<String> = ["k10", "a1", "a2", "i11"].map(String::from).into();
    let view = session.unvalued(&played, &opts(false)).unwrap();
    let rows: Vec<&str> = view.position.split('/').collect();
    assert_eq!(rows.len(), 11);
    assert_eq!(rows[0], "........###");
    assert_eq!(rows[10], "##.........");
    let again = Options {
        position: Some(view.position.clone()),
        ..opts(false)
    };
    assert_eq!(session.unvalued(&[], &again).unwrap().position, view.position);
}

/// The checkpoint a proof keeps in `dir`, if any.
fn checkpoint_in(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "proof"))
}

#[test]
fn a_solve_stopped_at_its_time_goes_on_from_its_checkpoint_to_the_same_answer() {
    // About a million nodes, a few seconds.
    let session = open("domineering:rows=6,cols=8");
    let whole = session.solve(&opts(false)).unwrap();
    let dir = std::env::temp_dir().join(format!("zermelo-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let unlimited = Options {
        data_dir: dir.clone(),
        save: true,
        ..opts(false)
    };
    // Every run stopped at its time, each going on from the last.
    let mut brief = unlimited.clone();
    brief.budget.seconds = Some(0.2);
    let (mut stops, mut reported) = (0, false);
    let resumed = loop {
        match session.solve(&brief) {
            Ok(solution) => break solution,
            Err(e) => {
                let line = e.to_string();
                assert!(line.contains("kept in") && line.contains(".proof"), "{line}");
                assert!(checkpoint_in(&dir).is_some());
                stops += 1;
                assert!(stops < 1000, "no end after {stops} runs");
            }
        }
        // A report within the time gives the first moves proved so far, once there are any.
        if let Ok(report) = session.report(1, &brief) {
            let moves = &report.first_moves.moves;
            let proved = moves.iter().filter(|m| m.verdict.value.is_some()).count();
            assert!(
                proved > 0
                    && report
                        .first_moves
                        .warning
                        .as_ref()
                        .unwrap()
                        .contains("proved so far")
            );
            // Vertical loses 6 x 8: each move proved is proved losing.
            assert!(moves.iter().all(|m| m.verdict.value != Some(Class::Win)));
            reported = true;
        }
    };
    assert!(stops > 1 && reported, "{stops} stops");
    assert_eq!(resumed.verdict.value, whole.verdict.value);
    assert_eq!(class(&resumed), class(&whole));
    assert_eq!(checkpoint_in(&dir), None, "a finished proof leaves no checkpoint");
    // A damaged checkpoint is refused in one line; forced, the solve starts over.
    brief.budget.seconds = Some(0.0);
    refused(session.solve(&brief), "kept in");
    let path = checkpoint_in(&dir).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    refused(session.solve(&unlimited), "remove it to start the proof over");
    let forced = Options {
        force: true,
        ..unlimited.clone()
    };
    assert_eq!(session.solve(&forced).unwrap().verdict.value, whole.verdict.value);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The nodes a proof searched, as its solution tells.
fn nodes(solution: &Solution) -> u128 {
    let fact = solution.details.iter().find(|f| f.key == "nodes").unwrap();
    match fact.value {
        zermelo::session::FactValue::Big(zermelo::session::Big(n)) => n,
        ref other => panic!("nodes: {other:?}"),
    }
}

#[test]
fn a_solve_for_the_mover_only_asks_one_question() {
    // Not square: the class asks a second proof, with Horizontal first.
    let session = open("domineering:rows=6,cols=7");
    let both = session.solve(&opts(false)).unwrap();
    let one = session
        .solve(&Options {
            mover_only: true,
            ..opts(false)
        })
        .unwrap();
    assert_eq!(one.verdict.value, both.verdict.value);
    assert_eq!(class(&one), "None");
    assert_ne!(class(&both), "None");
    assert!(nodes(&one) < nodes(&both), "{} {}", nodes(&one), nodes(&both));
    // The exact search too leaves the class out.
    let exact = open("domineering:rows=3,cols=4")
        .solve(&Options {
            mover_only: true,
            ..opts(true)
        })
        .unwrap();
    assert_eq!(class(&exact), "None");
}
