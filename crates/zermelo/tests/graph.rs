//! The game graph through the catalog: reachable positions and classes counted against the
//! known numbers and the library's counter, and every node's value checked against the
//! session's own answers (its solver) for the position the node shows.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use zermelo::analysis::count;
use zermelo::catalog;
use zermelo::games::mnk::Mnk;
use zermelo::games::pawns::Pawns;
use zermelo::session::{Fact, FactValue, Graph, Options, Session};
use zermelo::solve::{plain_key, symmetric_key};
use zermelo::Class;
use zermelo::{Error, Game, Notation, Symmetric};

/// The most nodes the tests draw.
const MAX: u64 = 100_000;

fn open(spec: &str) -> Box<dyn Session> {
    catalog::open(spec).unwrap()
}

/// Options with a data folder of this test's own, saving nothing.
fn options(test: &str) -> Options {
    Options {
        data_dir: std::env::temp_dir().join(format!("zermelo-graph-{test}-{}", std::process::id())),
        save: false,
        ..Options::default()
    }
}

fn graph(spec: &str, symmetry: bool) -> Graph {
    open(spec).graph(symmetry, MAX, &options("plain")).unwrap()
}

/// The moves from the start to every node along the graph's edges (breadth first): in a
/// graph without symmetry they reach each node's position.
fn paths(graph: &Graph) -> Vec<Vec<String>> {
    let mut out: Vec<Option<Vec<String>>> = vec![None; graph.nodes.len()];
    out[0] = Some(Vec::new());
    let mut edges: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, e) in graph.edges.iter().enumerate() {
        edges.entry(e.source).or_default().push(i);
    }
    let mut queue = VecDeque::from([0u64]);
    while let Some(n) = queue.pop_front() {
        for &i in edges.get(&n).into_iter().flatten() {
            let e = &graph.edges[i];
            if out[e.target as usize].is_none() {
                let mut path = out[n as usize].clone().unwrap();
                path.push(e.notation.clone());
                out[e.target as usize] = Some(path);
                queue.push_back(e.target);
            }
        }
    }
    out.into_iter()
        .map(|p| p.expect("every node is reached from the start"))
        .collect()
}

/// Checks `sample` of `graph`'s nodes (a graph without symmetry) against the session's
/// view of the position their path reaches: the same position, mover, end and value (and
/// remoteness where the session tells one); and that a node's edges stand for every legal
/// move.
fn check_against_views(spec: &str, graph: &Graph, sample: impl Iterator<Item = usize>, remoteness: bool) {
    let session = open(spec);
    let opts = options("views");
    let paths = paths(graph);
    let mut moves: HashMap<u64, u64> = HashMap::new();
    for e in &graph.edges {
        *moves.entry(e.source).or_default() += e.count;
    }
    let mut checked = 0;
    for i in sample {
        let node = &graph.nodes[i];
        let view = session.position(&paths[i], &opts).unwrap();
        assert_eq!(view.position, node.position, "{spec} node {i}");
        assert_eq!(view.to_move, node.player, "{spec} node {i}");
        assert_eq!(view.terminal, node.terminal, "{spec} node {i}");
        assert_eq!(view.result, node.result, "{spec} node {i}");
        assert_eq!(
            view.verdict.value, node.value,
            "{spec} node {i} ({})",
            node.position
        );
        if remoteness {
            assert_eq!(
                view.verdict.remoteness, node.remoteness,
                "{spec} node {i} ({})",
                node.position
            );
        }
        assert_eq!(
            view.moves_total.0,
            u128::from(moves.get(&node.id).copied().unwrap_or(0)),
            "{spec} node {i}"
        );
        checked += 1;
    }
    assert!(checked > 0);
}

fn big(f: &Fact) -> u64 {
    match &f.value {
        FactValue::Big(b) => b.0 as u64,
        FactValue::Int(n) => *n as u64,
        v => panic!("{v:?}"),
    }
}

#[test]
fn tictactoe_has_5478_positions_and_765_classes() {
    let session = open("tictactoe");
    let opts = options("tictactoe");
    let plain = session.graph(false, MAX, &opts).unwrap();
    let classes = session.graph(true, MAX, &opts).unwrap();
    // The known numbers.
    assert_eq!(plain.nodes.len(), 5478);
    assert_eq!(classes.nodes.len(), 765);
    assert!(plain.nodes.iter().all(|n| n.size == 1));
    assert_eq!(classes.nodes.iter().map(|n| n.size).sum::<u64>(), 5478);
    assert_eq!((plain.positions.0, classes.positions.0), (5478, 5478));
    // The same as `count`, terminal positions too.
    for (graph, symmetry) in [(&plain, false), (&classes, true)] {
        let counted = session.count(symmetry, &opts).unwrap().positions.unwrap();
        assert_eq!(graph.nodes.len() as u128, counted.total.0);
        let terminal = graph.nodes.iter().filter(|n| n.terminal).count();
        assert_eq!(terminal as u128, counted.terminal.0);
        assert_eq!(graph.nodes[0].id, 0);
        assert_eq!(graph.nodes[0].position, ".../.../...");
        assert!(graph.nodes.iter().enumerate().all(|(i, n)| n.id == i as u64));
    }
    // One edge per pair of nodes; every move of a position stands in its node's edges.
    let mut pairs: Vec<(u64, u64)> = classes.edges.iter().map(|e| (e.source, e.target)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(pairs.len(), classes.edges.len());
    let start_moves: u64 = classes
        .edges
        .iter()
        .filter(|e| e.source == 0)
        .map(|e| e.count)
        .sum();
    assert_eq!(start_moves, 9);
    assert_eq!(
        plain.edges.iter().map(|e| e.count).sum::<u64>(),
        plain.edges.len() as u64
    );
    // Arcs carry the mover: X from positions with X to move.
    for e in &plain.edges {
        let from = &plain.nodes[e.source as usize];
        assert_eq!((e.seat, &e.player), (from.seat, &from.player));
    }
}

#[test]
fn tictactoe_class_sizes_count_the_reachable_positions_of_each_class() {
    let g = Mnk::new(3, 3, 3).unwrap();
    let plain = graph("tictactoe", false);
    let classes = graph("tictactoe", true);
    let mut members: FxHashMap<_, u64> = FxHashMap::default();
    for n in &plain.nodes {
        *members
            .entry(g.canonical(&g.parse_position(&n.position).unwrap()))
            .or_default() += 1;
    }
    assert_eq!(members.len(), classes.nodes.len());
    for class in &classes.nodes {
        let p = g.parse_position(&class.position).unwrap();
        assert_eq!(class.size, members[&g.canonical(&p)], "{}", class.position);
    }
    check_classes(&plain, &classes);
}

/// Checks that every class shows a reachable position, with that position's value, mover
/// and end, and that the classes stand for every reachable position.
fn check_classes(plain: &Graph, classes: &Graph) {
    let by_position: HashMap<&str, usize> = plain
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.position.as_str(), i))
        .collect();
    for class in &classes.nodes {
        let same = &plain.nodes[by_position[class.position.as_str()]];
        assert_eq!(
            (class.value, class.remoteness),
            (same.value, same.remoteness),
            "{}",
            class.position
        );
        assert_eq!((&class.player, class.terminal), (&same.player, same.terminal));
        assert_eq!(class.result, same.result);
    }
    assert_eq!(classes.positions.0, plain.nodes.len() as u128);
    assert_eq!(
        classes.nodes.iter().map(|n| n.size).sum::<u64>(),
        plain.nodes.len() as u64
    );
}

#[test]
fn tictactoe_values_agree_with_the_solver() {
    let plain = graph("tictactoe", false);
    let n = plain.nodes.len();
    check_against_views("tictactoe", &plain, (0..n).step_by(23).chain(n - 5..n), true);
}

#[test]
fn pawns_three_by_five_agrees_with_count_and_solve() {
    let spec = "pawns:cols=3,rows=5";
    let session = open(spec);
    let opts = options("pawns");
    let plain = session.graph(false, MAX, &opts).unwrap();
    let classes = session.graph(true, MAX, &opts).unwrap();
    // `count` tells every position and class there is; the graph holds those reachable.
    let counted = session.count(false, &opts).unwrap();
    let fact = |key: &str| big(counted.details.iter().find(|f| f.key == key).unwrap());
    assert!(plain.nodes.len() as u64 <= fact("raw_positions"));
    assert!(classes.nodes.len() as u64 <= fact("classes"));
    check_classes(&plain, &classes);
    // The library's counter finds as many reachable positions and classes.
    let g = Pawns::new(3, 5, 0).unwrap();
    let start = g.start();
    assert_eq!(
        plain.nodes.len() as u64,
        count::positions(&g, &start, plain_key::<Pawns>).positions
    );
    assert_eq!(
        classes.nodes.len() as u64,
        count::positions(&g, &start, symmetric_key::<Pawns>).positions
    );
    // The start's value is the solve's.
    let solved = session.solve(&opts).unwrap();
    for graph in [&plain, &classes] {
        let start = &graph.nodes[0];
        assert_eq!(start.value, solved.verdict.value);
        assert_eq!(start.remoteness, solved.verdict.remoteness);
        assert_eq!(start.value, Some(Class::Win));
    }
    let n = plain.nodes.len();
    check_against_views(spec, &plain, (0..n).step_by(211), true);
    let _ = std::fs::remove_dir_all(&opts.data_dir);
}

#[test]
fn subtraction_positions_with_a_multiple_of_four_are_lost() {
    let spec = "subtraction:set=1/2/3,n=21";
    let plain = graph(spec, false);
    // The reachable (heap, seat) pairs, counted here from the rule.
    let mut seen = std::collections::BTreeSet::from([(21u64, 0u8)]);
    let mut queue = vec![(21u64, 0u8)];
    let mut moves = 0;
    while let Some((h, seat)) = queue.pop() {
        for take in [1, 2, 3].into_iter().filter(|&t| t <= h) {
            moves += 1;
            if seen.insert((h - take, 1 - seat)) {
                queue.push((h - take, 1 - seat));
            }
        }
    }
    assert_eq!(plain.nodes.len(), seen.len());
    assert_eq!(plain.edges.iter().map(|e| e.count).sum::<u64>(), moves);
    for node in &plain.nodes {
        let heap: u64 = node.position.rsplit(':').next().unwrap().parse().unwrap();
        let (word, remoteness) = if heap.is_multiple_of(4) {
            (Class::Lose, 2 * (heap / 4))
        } else {
            (Class::Win, 2 * (heap / 4) + 1)
        };
        assert_eq!(node.value, Some(word), "{}", node.position);
        assert_eq!(node.remoteness, Some(remoteness as u32), "{}", node.position);
        assert_eq!(node.terminal, heap == 0);
    }
    let n = plain.nodes.len();
    check_against_views(spec, &plain, 0..n, false);
}

#[test]
fn dots_values_agree_with_the_solver() {
    let plain = graph("dots:size=3", false);
    let classes = graph("dots:size=3", true);
    check_classes(&plain, &classes);
    assert!(classes.nodes.len() < plain.nodes.len());
    let n = plain.nodes.len();
    check_against_views("dots:size=3", &plain, (0..n).step_by(401), false);
}

#[test]
fn graphs_past_the_limit_are_refused() {
    let session = open("tictactoe");
    let opts = options("limit");
    for (symmetry, nodes) in [(false, 5478), (true, 765)] {
        let err = session.graph(symmetry, nodes - 1, &opts).unwrap_err();
        assert!(matches!(err, Error::TooBig(_)), "{err}");
        assert!(
            err.to_string().contains(&format!("more than {}", nodes - 1)),
            "{err}"
        );
        assert_eq!(
            session.graph(symmetry, nodes, &opts).unwrap().nodes.len() as u64,
            nodes
        );
    }
}

#[test]
fn the_budget_stops_a_graph() {
    let session = open("tictactoe");
    let mut cancelled = options("budget");
    cancelled.budget.cancel = Some(Arc::new(AtomicBool::new(true)));
    assert_eq!(
        session.graph(false, MAX, &cancelled).unwrap_err(),
        Error::Cancelled
    );
    let mut late = options("budget");
    late.budget.seconds = Some(0.0);
    let err = session.graph(false, MAX, &late).unwrap_err();
    assert!(matches!(err, Error::TooBig(_)), "{err}");
    assert!(
        err.to_string().contains("drawing the graph of tictactoe"),
        "{err}"
    );
    let mut small = options("budget");
    small.budget.memory = Some(1 << 20);
    assert!(matches!(session.graph(false, MAX, &small), Err(Error::TooBig(_))));
}

#[test]
fn symmetry_is_refused_where_none_is_known() {
    for spec in ["nim:heaps=1/2/3", "bigpoints:board=1221"] {
        let err = open(spec).graph(true, MAX, &options("none")).unwrap_err();
        // The option refused, held by its name for each front end to word.
        assert!(
            matches!(
                err,
                Error::BadOption {
                    option: "symmetry",
                    value: None,
                    ..
                }
            ),
            "{spec}: {err}"
        );
        assert!(err.to_string().starts_with("symmetry: "), "{err}");
        assert!(open(spec).graph(false, MAX, &options("none")).is_ok(), "{spec}");
    }
}

#[test]
fn games_of_three_players_have_no_values() {
    let g = graph("bigpoints:board=1221,players=3", false);
    assert!(g
        .nodes
        .iter()
        .all(|n| n.value.is_none() && n.remoteness.is_none()));
    let seats: std::collections::BTreeSet<u8> = g.edges.iter().map(|e| e.seat).collect();
    assert_eq!(seats.into_iter().collect::<Vec<_>>(), [0, 1, 2]);
    // Two players of the same board are valued.
    assert!(graph("bigpoints:board=1221", false)
        .nodes
        .iter()
        .all(|n| n.value.is_some()));
}
