//! Domineering's published winners, computed: every empty board that solves in seconds,
//! with Vertical moving first, has the winner the literature gives it (`shared/specs/
//! domineering.md`: the square boards, and the rectangles of Lachmann, Moore and Rapaport,
//! 2002, and Uiterwijk, 2013), and the solve by proof agrees with the exact search on the
//! small ones.

use zermelo::catalog;
use zermelo::session::{Options, Solution};
use zermelo::Class;

const VERTICAL: &str = "Vertical";
const HORIZONTAL: &str = "Horizontal";

/// Who wins `rows` × `cols` with Vertical moving first, where the literature says.
fn published(rows: usize, cols: usize) -> Option<&'static str> {
    // Square boards: 1 × 1 and 5 × 5 are P (the mover loses), the others N.
    if rows == cols {
        return Some(if rows == 1 || rows == 5 {
            HORIZONTAL
        } else {
            VERTICAL
        });
    }
    if cols == 3 && rows > 1 {
        return Some(VERTICAL);
    }
    if rows.is_multiple_of(2) && [3, 5, 7].contains(&cols) {
        return Some(VERTICAL);
    }
    if rows == 3 && cols > 3 {
        return Some(HORIZONTAL);
    }
    if rows == 5 && cols.is_multiple_of(2) {
        return Some(HORIZONTAL);
    }
    if (rows == 3 || rows == 7) && cols.is_multiple_of(4) {
        return Some(HORIZONTAL);
    }
    None
}

fn solve(rows: usize, cols: usize, solver: Option<&str>) -> Solution {
    let session = catalog::open(&format!("domineering:rows={rows},cols={cols}")).unwrap();
    let opts = Options {
        save: false,
        solver: solver.map(str::to_string),
        data_dir: std::env::temp_dir().join(format!("zermelo-literature-{}", std::process::id())),
        ..Options::default()
    };
    session.solve(&opts).unwrap()
}

/// The winner a solution gives, Vertical having moved first.
fn winner(solution: &Solution) -> &'static str {
    match solution.verdict.value {
        Some(Class::Win) => VERTICAL,
        Some(Class::Lose) => HORIZONTAL,
        other => panic!("a Domineering board is won or lost: {other:?}"),
    }
}

/// The boards the test solves: all those the literature gives up to 7 × 7 and longer
/// ones, each proved in under a second (7 × 8 and 8 × 7 take seconds: BENCHMARKS.md).
fn boards() -> Vec<(usize, usize)> {
    let mut boards: Vec<(usize, usize)> = (1..=7)
        .flat_map(|rows| (1..=7).map(move |cols| (rows, cols)))
        .collect();
    boards.extend([(3, 8), (3, 9), (3, 10), (3, 11), (8, 3), (9, 3), (10, 3), (11, 3)]);
    boards.extend([(8, 5), (10, 5), (5, 8), (5, 10), (4, 9), (4, 11)]);
    boards.retain(|&(rows, cols)| published(rows, cols).is_some());
    boards
}

#[test]
fn every_published_winner_in_reach_is_computed() {
    let boards = boards();
    assert!(boards.len() >= 35, "{} boards", boards.len());
    for (rows, cols) in boards {
        let solution = solve(rows, cols, None);
        assert_eq!(solution.solver, "proof", "{rows}x{cols}");
        assert_eq!(
            Some(winner(&solution)),
            published(rows, cols),
            "{rows} x {cols}, Vertical first"
        );
    }
}

#[test]
fn the_proof_agrees_with_the_exact_search_on_small_boards() {
    for rows in 1..=5 {
        for cols in 1..=5 {
            let proof = solve(rows, cols, None);
            let exact = solve(rows, cols, Some("alphabeta"));
            assert_eq!(winner(&proof), winner(&exact), "{rows}x{cols}");
            assert!(exact.verdict.remoteness.is_some() && proof.verdict.remoteness.is_none());
        }
    }
}
