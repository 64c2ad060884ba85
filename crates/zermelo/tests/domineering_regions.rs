//! Domineering on boards with blocked cells against CGSuite: every position of
//! `data/domineering_cgsuite.txt` (the MCGS solver's tests, 4×4, 6×6 and 7×7), solved with
//! each player to move, has the outcome class CGSuite gives it; and boards lacking cells
//! (`board=`) pass the conformance suite.

use std::time::Instant;

use zermelo::catalog;
use zermelo::session::{FactValue, Options, Solution};
use zermelo::Class;

/// The positions and their classes: (board, class letter).
fn positions() -> Vec<(String, String)> {
    include_str!("data/domineering_cgsuite.txt")
        .lines()
        .filter(|line| !line.starts_with("//") && !line.trim().is_empty())
        .map(|line| {
            let (board, class) = line.split_once(' ').expect("a board and a class");
            (board.to_string(), class.trim().to_string())
        })
        .collect()
}

fn solve(board: &str, mover: &str) -> Solution {
    let rows = board.split('/').count();
    let cols = board.split('/').next().unwrap().len();
    let session = catalog::open(&format!("domineering:rows={rows},cols={cols}")).unwrap();
    let opts = Options {
        position: Some(format!("{board} {mover}")),
        save: false,
        data_dir: std::env::temp_dir().join(format!("zermelo-regions-{}", std::process::id())),
        ..Options::default()
    };
    session.solve(&opts).unwrap()
}

/// The class letter of a solution's `class` fact.
fn class(solution: &Solution) -> String {
    let fact = solution
        .details
        .iter()
        .find(|f| f.key == "class")
        .expect("a class fact");
    let FactValue::Text(text) = &fact.value else {
        panic!("the class is text: {fact:?}")
    };
    text[..1].to_string()
}

#[test]
fn every_cgsuite_position_has_its_published_class() {
    let started = Instant::now();
    let all = positions();
    assert_eq!(all.len(), 520, "400 4×4, 100 6×6 and 20 7×7 positions");
    let mut wrong = Vec::new();
    for (board, expected) in &all {
        for mover in ["V", "H"] {
            let solution = solve(board, mover);
            let got = class(&solution);
            // The mover wins exactly where the class says.
            let mover_wins = matches!((got.as_str(), mover), ("N", _) | ("L", "V") | ("R", "H"));
            assert_eq!(
                solution.verdict.value == Some(Class::Win),
                mover_wins,
                "{board} {mover}: {solution:?}"
            );
            if got != *expected {
                wrong.push(format!("{board} {mover}: {got}, CGSuite {expected}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{} disagree: {wrong:#?}", wrong.len());
    eprintln!(
        "{} positions, each player to move, agree with CGSuite in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn boards_lacking_cells_pass_the_conformance_suite() {
    let domineering = catalog::entries()
        .into_iter()
        .find(|e| e.info.name == "domineering")
        .unwrap();
    let shaped = catalog::Entry {
        examples: &[
            "domineering:board=..#/.../...",
            "domineering:board=.#../..../..#.",
        ],
        ..*domineering
    };
    zermelo::conformance::check(&shaped).unwrap_or_else(|e| panic!("{e}"));
}
