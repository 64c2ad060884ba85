//! The null-window Dots and Boxes search checked against plain minimax: on every set of
//! drawn lines of 2 × 2 and 2 × 3 boxes, each reduction of the tree (canonical keys,
//! border-line interchange, safe captures, declines, left-out border lines, simple
//! endgames, the bound) and every bound left in the table; on random positions of 3 × 3
//! boxes, the same on two cores.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use zermelo::games::dots::{Dots, Lines, Lines64, Position};
use zermelo::solve::margin::{MarginSearch, MarginSolver};
use zermelo::solve::nullwindow::{Child, NullWindow, Tree};
use zermelo::Game;

/// The remaining margin of every set of drawn lines, by plain minimax over every undrawn
/// line (a set's value depends only on its lines; larger sets come first when read from
/// the top, as drawing a line only adds to the set).
fn every_value(g: &Dots) -> Vec<i8> {
    let lines = g.line_count();
    let mut value = vec![0i8; 1 << lines];
    for set in (0..(1u64 << lines) - 1).rev() {
        let drawn = Lines([set, 0, 0]);
        value[set as usize] = (0..lines)
            .filter(|&l| set >> l & 1 == 0)
            .map(|l| {
                let gain = g.completes(&drawn, l) as i32;
                let after = i32::from(value[(set | 1 << l) as usize]);
                if gain > 0 {
                    gain + after
                } else {
                    -after
                }
            })
            .max()
            .expect("an undrawn line") as i8;
    }
    value
}

fn position(lines: u64) -> Position {
    Position {
        lines: Lines([lines, 0, 0]),
        boxes: [0, 0],
        mover: 0,
    }
}

/// Checks every reduction of the tree at `set` against `value` (the remaining margin of
/// any line set): the children's values lead to the position's value, each child keeps
/// the value of the line set it stands for, and exact values and bounds hold.
fn check_node(tree: &Lines64, set: u64, value: &dyn Fn(u64) -> i32) {
    let expected = value(set);
    let node = tree.canonical(set);
    assert_eq!(value(node), expected, "canonical form of {set:#x}");
    let (lo, hi) = tree.bounds(&node);
    assert!((lo..=hi).contains(&expected), "bounds of {node:#x}");
    if let Some(v) = tree.exact(&node) {
        assert_eq!(v, expected, "exact value of {node:#x}");
    }
    if set == (1u64 << tree.game().line_count()) - 1 {
        return;
    }
    let mut children: Vec<Child<u64>> = Vec::new();
    tree.children(&node, &mut children);
    assert!(!children.is_empty());
    let best = children
        .iter()
        .map(|c| c.parent_value(value(c.node)))
        .max()
        .expect("a child");
    assert_eq!(best, expected, "the children of {node:#x} keep a best move");
}

/// Every line set of the board, each node's reductions, the search's value and the
/// table's bounds, on one core and on two.
fn check_every_position(rows: usize, cols: usize) {
    let g = Dots::new(rows, cols).unwrap();
    let values = every_value(&g);
    let value = |set: u64| i32::from(values[set as usize]);
    let tree = Lines64::new(&g).unwrap();
    for set in 0..values.len() as u64 {
        check_node(&tree, set, &value);
    }
    for threads in [1, 2] {
        let mut search = NullWindow::new(Lines64::new(&g).unwrap(), 1 << 20).threads(threads);
        for set in (0..values.len() as u64).rev().step_by(threads * 3 - 2) {
            let node = search.tree().canonical(set);
            assert_eq!(search.value(&node), value(set), "search of {set:#x}");
        }
        assert!(!search.stopped());
        for set in 0..values.len() as u64 {
            if let Some((lo, hi)) = search.table().bounds(set) {
                assert!(lo <= value(set) && value(set) <= hi, "bounds of {set:#x}");
            }
        }
        assert!(search.table().used() > 0);
    }
    // The margin search over every legal move agrees with the values on the start.
    assert_eq!(MarginSearch::new(&g).remaining(&g.start()), value(0));
}

#[test]
fn every_position_of_two_by_two_boxes() {
    check_every_position(3, 3);
}

#[test]
fn every_position_of_two_by_three_boxes() {
    check_every_position(3, 4);
    check_every_position(4, 3);
}

#[test]
fn random_positions_of_three_by_three_boxes() {
    let g = Dots::square(4).unwrap();
    let tree = Lines64::new(&g).unwrap();
    let mut rng = StdRng::seed_from_u64(11);
    let mut plain = MarginSearch::with(&g, |_, p| p.lines, |g, p, out| g.moves(p, out));
    let mut search = NullWindow::new(Lines64::new(&g).unwrap(), 1 << 20).threads(2);
    for k in 0..120 {
        let drawn = 8 + k % 9;
        let mut lines = Lines::default();
        let mut undrawn: Vec<usize> = (0..g.line_count()).collect();
        undrawn.shuffle(&mut rng);
        for &l in &undrawn[..drawn] {
            lines.insert(l);
        }
        let set = lines.0[0];
        let mut value = |s: u64| plain.remaining(&position(s));
        let expected = value(set);
        let node = tree.canonical(set);
        assert_eq!(search.value(&node), expected, "{set:#x}");
        let mut children = Vec::new();
        tree.children(&node, &mut children);
        let best = children.iter().map(|c| c.parent_value(value(c.node))).max();
        assert_eq!(best, Some(expected), "{set:#x}");
        assert_eq!(value(node), expected);
        if let Some(v) = tree.exact(&node) {
            assert_eq!(v, expected);
        }
        if let Some((lo, hi)) = search.table().bounds(node) {
            assert!(lo <= expected && expected <= hi);
        }
    }
    assert!(!search.stopped());
}

#[test]
fn a_table_too_small_for_the_tree_still_gives_exact_values() {
    let g = Dots::new(4, 4).unwrap();
    let p = g
        .after(&[
            "1ab", "12a", "23d", "4cd", "34a", "2bc", "23b", "3ab", "3cd", "1cd", "12c", "2cd",
        ])
        .unwrap();
    let expected = MarginSearch::new(&g).remaining(&p);
    let mut tiny = NullWindow::new(Lines64::new(&g).unwrap(), 64).threads(2);
    let node = tiny.tree().node(&p);
    assert_eq!(tiny.value(&node), expected);
    let mut solver = zermelo::games::dots::best_solver(&g, &Default::default());
    assert_eq!(solver.remaining(&p), expected);
}
