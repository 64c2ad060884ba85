//! Game graphs: every position reachable from a start as a node, every move as an edge,
//! perhaps up to symmetry (a node per class of positions), each node valued by retrograde
//! analysis over the graph itself (loops included: a position no side can force to an end
//! is a draw).
//!
//! The graph is explored breadth first, so the start is node 0 and node ids grow with the
//! distance from it. Up to symmetry, every reachable position is still visited (to count
//! the positions a class holds), and a class is shown by the first of its positions reached:
//! its edges are the moves of that position, one edge per class they lead to, counting the
//! moves it stands for.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::Game;
use crate::solve::{KeyFn, Limit, Progress};
use crate::value::Value;
use crate::Error;

/// The graph of a game's positions (or classes of positions) from a start.
#[derive(Clone, Debug)]
pub struct PositionGraph<G: Game> {
    /// The nodes, the start first, in the order they were reached.
    pub nodes: Vec<Node<G>>,
    /// The edges, grouped by source in the order of the nodes, each source's in the order
    /// of its moves.
    pub edges: Vec<Edge<G>>,
}

/// A position, or a class of positions up to symmetry.
#[derive(Clone, Debug)]
pub struct Node<G: Game> {
    /// The position (with symmetry: the first of the class reached).
    pub position: G::Position,
    /// How many reachable positions the node stands for (1 without symmetry).
    pub size: u64,
    /// The exact value for the player to move, by retrograde analysis over the graph (a
    /// position from which neither side can force an end is a draw); `None` in games of
    /// more than two players.
    pub value: Option<Value>,
}

/// The moves from a node's position to the positions of another node.
#[derive(Clone, Debug)]
pub struct Edge<G: Game> {
    /// The node moved from.
    pub source: usize,
    /// The node moved to.
    pub target: usize,
    /// The first of those moves (in the game's order of moves).
    pub first: G::Move,
    /// How many moves of the source's position lead to the target.
    pub count: u64,
    /// Whether the player who moves keeps the turn (a move that captures in Dots and Boxes).
    pub same_mover: bool,
}

impl<G: Game> PositionGraph<G> {
    /// How many positions the nodes stand for.
    pub fn positions(&self) -> u64 {
        self.nodes.iter().map(|n| n.size).sum()
    }
}

/// The graph of `game` from `start`: every position reachable, or with `symmetry` (a key
/// giving every position of a class the same representative) every class. `Ok(None)` when
/// it would have more than `max` nodes; an error when `limit` stops it first (its
/// positions count every position visited, [`Limit::stop`]). `progress` counts the nodes
/// made, out of the most there may be.
pub fn explore<G: Game>(
    game: &G,
    start: &G::Position,
    symmetry: Option<KeyFn<G>>,
    max: u64,
    limit: &Limit,
    progress: &dyn Progress,
) -> Result<Option<PositionGraph<G>>, Error> {
    if max == 0 {
        return Ok(None);
    }
    let most = limit.positions.map_or(max, |p| max.min(p as u64));
    progress.start("nodes", most);
    let key = |p: &G::Position| symmetry.map_or_else(|| p.clone(), |k| k(game, p));
    let mut nodes = vec![Node {
        position: start.clone(),
        size: 1,
        value: None,
    }];
    let mut edges: Vec<Edge<G>> = Vec::new();
    // Node of every key; with symmetry also every position visited.
    let mut ids: FxHashMap<G::Position, usize> = FxHashMap::default();
    ids.insert(key(start), 0);
    let mut seen: FxHashSet<G::Position> = FxHashSet::default();
    if symmetry.is_some() {
        seen.insert(start.clone());
    }
    // Positions to expand, their node, and whether each is the one its node shows.
    let mut queue = VecDeque::from([(start.clone(), 0, true)]);
    let mut moves = Vec::new();
    let mut targets: FxHashMap<usize, usize> = FxHashMap::default();
    let mut ticks = 0;
    while let Some((p, id, shown)) = queue.pop_front() {
        let visited = if symmetry.is_some() {
            seen.len()
        } else {
            nodes.len()
        };
        if limit.reached(visited, &mut ticks) {
            return Err(limit.stop());
        }
        if game.outcome(&p).is_some() {
            continue;
        }
        moves.clear();
        game.moves(&p, &mut moves);
        let mover = game.to_move(&p);
        targets.clear();
        for m in &moves {
            let child = game.play(&p, m);
            let k = key(&child);
            let target = match ids.get(&k) {
                Some(&t) => t,
                None => {
                    if nodes.len() as u64 >= max {
                        return Ok(None);
                    }
                    ids.insert(k, nodes.len());
                    if nodes.len() % 1024 == 0 {
                        progress.advance(1024);
                    }
                    nodes.push(Node {
                        position: child.clone(),
                        size: 0,
                        value: None,
                    });
                    nodes.len() - 1
                }
            };
            if shown {
                match targets.get(&target) {
                    Some(&e) => edges[e].count += 1,
                    None => {
                        targets.insert(target, edges.len());
                        edges.push(Edge {
                            source: id,
                            target,
                            first: m.clone(),
                            count: 1,
                            same_mover: game.to_move(&child) == mover,
                        });
                    }
                }
            }
            // Without symmetry a position is visited when its node is made.
            let new = match symmetry {
                Some(_) => seen.insert(child.clone()),
                None => nodes[target].size == 0,
            };
            if new {
                nodes[target].size += 1;
                let shows = nodes[target].size == 1;
                queue.push_back((child, target, shows));
            }
        }
    }
    let mut graph = PositionGraph { nodes, edges };
    if game.players() == 2 {
        value(game, &mut graph);
    }
    Ok(Some(graph))
}

/// Values every node by retrograde analysis over the graph, in order of remoteness: a
/// terminal position by its outcome; a position with a move that wins is won (by the
/// fastest such move), one whose every move loses is lost (by the slowest); a position
/// left over (on a loop neither side can force its way out of, or with only draws ahead)
/// is a draw, as [`crate::solve::retrograde`] values it. A position that goes on but has
/// no moves keeps `None`.
fn value<G: Game>(game: &G, graph: &mut PositionGraph<G>) {
    let n = graph.nodes.len();
    // Moves of every node not yet known to lose for its mover.
    let mut left = vec![0u32; n];
    // Parents of every node, as edge indices (compressed rows by target).
    let mut starts = vec![0usize; n + 1];
    for e in &graph.edges {
        left[e.source] += 1;
        starts[e.target + 1] += 1;
    }
    for i in 0..n {
        starts[i + 1] += starts[i];
    }
    let mut fill = starts.clone();
    let mut parents = vec![0usize; graph.edges.len()];
    for (i, e) in graph.edges.iter().enumerate() {
        parents[fill[e.target]] = i;
        fill[e.target] += 1;
    }
    drop(fill);
    // Nodes valued as won or lost, in order of remoteness: the ends first.
    let mut queue = Vec::new();
    for (i, node) in graph.nodes.iter_mut().enumerate() {
        let p = &node.position;
        if let Some(outcome) = game.outcome(p) {
            let v = Value::terminal(outcome, game.to_move(p));
            node.value = Some(v);
            if v != Value::Draw {
                queue.push(i);
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let child = queue[head];
        head += 1;
        let v = graph.nodes[child].value.expect("a node in the queue is valued");
        for &e in &parents[starts[child]..starts[child + 1]] {
            let edge = &graph.edges[e];
            let source = edge.source;
            if graph.nodes[source].value.is_some() {
                continue;
            }
            let by = Value::from_child(v, edge.same_mover);
            let settled = match by {
                Value::Win(_) => true,
                _ => {
                    left[source] -= 1;
                    left[source] == 0
                }
            };
            if settled {
                graph.nodes[source].value = Some(by);
                queue.push(source);
            }
        }
    }
    // A node left with moves not known to lose has no way to force an end: a draw.
    for (node, &left) in graph.nodes.iter_mut().zip(&left) {
        if node.value.is_none() && left > 0 {
            node.value = Some(Value::Draw);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::Mnk;
    use crate::solve::memo::MemoSolver;
    use crate::solve::{plain_key, symmetric_key};

    #[test]
    fn tictactoe_has_5478_positions_and_765_classes() {
        let g = Mnk::new(3, 3, 3).unwrap();
        let start = g.start();
        let plain = explore(&g, &start, None, u64::MAX, &Limit::default(), &())
            .unwrap()
            .unwrap();
        let classes = explore(
            &g,
            &start,
            Some(symmetric_key::<Mnk>),
            u64::MAX,
            &Limit::default(),
            &(),
        )
        .unwrap()
        .unwrap();
        let counted = crate::analysis::count::positions(&g, &start, plain_key::<Mnk>);
        assert_eq!(plain.nodes.len() as u64, counted.positions);
        assert_eq!(plain.nodes.len(), 5478);
        assert_eq!(classes.nodes.len(), 765);
        assert_eq!(classes.positions(), 5478);
        // Every edge of the classes stands for its moves: they add up to each shown
        // position's moves.
        for (i, node) in classes.nodes.iter().enumerate() {
            let counted: u64 = classes
                .edges
                .iter()
                .filter(|e| e.source == i)
                .map(|e| e.count)
                .sum();
            let moves = match g.outcome(&node.position) {
                Some(_) => 0,
                None => g.legal_moves(&node.position).len() as u64,
            };
            assert_eq!(counted, moves);
        }
        let mut memo = MemoSolver::new(&g);
        for graph in [&plain, &classes] {
            for node in &graph.nodes {
                assert_eq!(node.value, Some(memo.solve(&node.position)));
            }
        }
    }

    #[test]
    fn stops_past_the_most_nodes() {
        let g = Mnk::new(3, 3, 3).unwrap();
        let start = g.start();
        assert!(explore(&g, &start, None, 5477, &Limit::default(), &())
            .unwrap()
            .is_none());
        assert!(explore(&g, &start, None, 5478, &Limit::default(), &())
            .unwrap()
            .is_some());
        assert!(explore(&g, &start, None, 0, &Limit::default(), &())
            .unwrap()
            .is_none());
    }
}
