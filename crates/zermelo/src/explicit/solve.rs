//! Retrograde analysis over a graph's arrays: predecessor lists in compressed rows, a
//! count of unresolved moves per node, and one queue in order of remoteness. A node from
//! which neither side can force an end (a loop, or only draws ahead) is a draw.

use super::{GameGraph, NodeId};
use crate::value::Value;
use crate::Error;

const WIN: u32 = 1;
const LOSE: u32 = 2;
const DRAW: u32 = 3;
/// The bit of a node's word set once its value is known.
const RESOLVED: u32 = 1 << 31;
/// Where a node's word keeps its mover (of two seats).
const MOVER_SHIFT: u32 = 30;
const MOVER: u32 = 1 << MOVER_SHIFT;
/// The bits of a node's word that count its unresolved moves, or hold its value's code.
const CODE: u32 = MOVER - 1;

/// The value of every node of a two-seat graph, 4 bytes a node: the win/lose/draw code in
/// the low two bits, the remoteness above them.
#[derive(Clone, Debug)]
pub struct Solved {
    codes: Vec<u32>,
}

impl Solved {
    /// The value of `node` for its mover.
    pub fn value(&self, node: NodeId) -> Value {
        let code = self.codes[node as usize];
        match code & 3 {
            WIN => Value::Win(code >> 2),
            LOSE => Value::Lose(code >> 2),
            _ => Value::Draw,
        }
    }

    /// How many nodes it values.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether it values no node.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Bytes it holds.
    pub fn held_bytes(&self) -> u64 {
        4 * self.codes.capacity() as u64
    }
}

fn code(v: Value) -> u32 {
    match v {
        Value::Win(r) => r << 2 | WIN,
        Value::Lose(r) => r << 2 | LOSE,
        Value::Draw => DRAW,
    }
}

/// Bytes the solve takes per node and per edge beyond the graph itself: a word of the
/// node's state (its count of moves, then its value), the queue and the predecessor rows'
/// starts; the predecessor of each edge.
pub const BYTES_PER_NODE: u64 = 12;
/// See [`BYTES_PER_NODE`].
pub const BYTES_PER_EDGE: u64 = 4;

/// Solves every node of a two-seat graph: its value for the player to move, with
/// remoteness (the winner hurries, the loser delays). A graph of more seats is refused.
pub fn solve(graph: &GameGraph) -> Result<Solved, Error> {
    use crate::game::Game;
    if graph.seats() != 2 {
        return Err(Error::Unsupported(format!(
            "{} has {} seats: values are solved for two seats only",
            graph.name(),
            graph.seats()
        )));
    }
    let n = graph.nodes();
    let first = &graph.d.first;
    let movers = &graph.d.movers;
    let (before, parents) = predecessors(graph);
    if let Some(node) = (0..n).find(|&i| first[i + 1] - first[i] >= MOVER) {
        return Err(Error::TooBig(format!("node {node} has more than {CODE} moves")));
    }
    // One word a node, so that a visit reads one place: the mover's bit, then the
    // moves still unresolved, or once resolved the value's code.
    let mut state: Vec<u32> = (0..n)
        .map(|i| u32::from(movers[i]) << MOVER_SHIFT | (first[i + 1] - first[i]))
        .collect();
    let mut queue: Vec<NodeId> = Vec::with_capacity(n);
    for node in 0..n as NodeId {
        if let Some(outcome) = graph.outcome(&node) {
            let c = code(Value::terminal(outcome, movers[node as usize]));
            state[node as usize] |= RESOLVED | c;
            if c != DRAW {
                queue.push(node);
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let child = queue[head] as usize;
        head += 1;
        let c = state[child];
        let next = ((c & CODE) >> 2) + 1;
        if next > CODE >> 2 {
            return Err(Error::TooBig(format!(
                "{} has games longer than {} moves under best play",
                graph.name(),
                CODE >> 2
            )));
        }
        // Whether a parent moving as the child's mover wins by this move.
        let wins_if_same = c & 3 == WIN;
        for &parent in &parents[before[child] as usize..before[child + 1] as usize] {
            let s = &mut state[parent as usize];
            if *s & RESOLVED != 0 {
                continue;
            }
            let same = (*s ^ c) & MOVER == 0;
            if wins_if_same == same {
                *s = *s & MOVER | RESOLVED | next << 2 | WIN;
                queue.push(parent);
            } else {
                *s -= 1;
                if *s & CODE == 0 {
                    *s = *s & MOVER | RESOLVED | next << 2 | LOSE;
                    queue.push(parent);
                }
            }
        }
    }
    drop(queue);
    let codes = state
        .into_iter()
        .map(|s| if s & RESOLVED == 0 { DRAW } else { s & CODE })
        .collect();
    Ok(Solved { codes })
}

/// The predecessors of every node in compressed rows by target: the rows' starts, and the
/// node each move comes from (a node's parents are `parents[before[i]..before[i + 1]]`).
fn predecessors(graph: &GameGraph) -> (Vec<u32>, Vec<NodeId>) {
    let n = graph.nodes();
    let (first, targets) = (&graph.d.first, &graph.d.targets);
    let mut before = vec![0u32; n + 1];
    for &t in targets {
        before[t as usize + 1] += 1;
    }
    for i in 0..n {
        before[i + 1] += before[i];
    }
    let mut parents = vec![0 as NodeId; targets.len()];
    let mut fill = before.clone();
    for source in 0..n {
        for &t in &targets[first[source] as usize..first[source + 1] as usize] {
            parents[fill[t as usize] as usize] = source as NodeId;
            fill[t as usize] += 1;
        }
    }
    (before, parents)
}

/// Every node, each after all the nodes its moves lead to; `None` when play can loop.
pub fn children_first(graph: &GameGraph) -> Option<Vec<NodeId>> {
    let n = graph.nodes();
    let (before, parents) = predecessors(graph);
    let mut left: Vec<u32> = (0..n as NodeId).map(|i| graph.moves_of(i).len() as u32).collect();
    let mut order: Vec<NodeId> = (0..n as NodeId).filter(|&i| left[i as usize] == 0).collect();
    let mut at = 0;
    while at < order.len() {
        let child = order[at] as usize;
        at += 1;
        for &parent in &parents[before[child] as usize..before[child + 1] as usize] {
            left[parent as usize] -= 1;
            if left[parent as usize] == 0 {
                order.push(parent);
            }
        }
    }
    (order.len() == n).then_some(order)
}

/// The final margin of every node of a two-seat graph for its mover (its points less the
/// other seat's) when both play for the largest margin; `None` unless every end has
/// points and play cannot loop.
pub fn margins(graph: &GameGraph) -> Option<Vec<i32>> {
    use crate::game::Game;
    if graph.seats() != 2 {
        return None;
    }
    let mut margins = vec![0i32; graph.nodes()];
    for node in children_first(graph)? {
        let mover = usize::from(graph.mover(node));
        margins[node as usize] = match graph.outcome(&node) {
            Some(_) => {
                let points = graph.points(node)?;
                points[mover] - points[1 - mover]
            }
            None => graph
                .moves_of(node)
                .map(|e| {
                    let child = graph.target(e);
                    let m = margins[child as usize];
                    if graph.mover(child) == graph.mover(node) {
                        m
                    } else {
                        -m
                    }
                })
                .max()
                .expect("a node that goes on has moves"),
        };
    }
    Some(margins)
}

/// The points of every seat under max-n play (each mover takes the first move that gives
/// it the most points), `seats` numbers a node; a win counts 1 for the winner, a draw 0
/// for all. `None` when play can loop.
pub fn max_n(graph: &GameGraph) -> Option<Vec<i32>> {
    let seats = graph.seats();
    let mut table = vec![0i32; graph.nodes() * seats];
    for node in children_first(graph)? {
        let at = node as usize * seats;
        match graph.end(node) {
            Some(super::End::Points(points)) => table[at..at + seats].copy_from_slice(&points),
            Some(super::End::Win(s)) => table[at + usize::from(s)] = 1,
            Some(super::End::Draw) => {}
            None => {
                let mover = usize::from(graph.mover(node));
                let best = graph
                    .moves_of(node)
                    .map(|e| graph.target(e) as usize * seats)
                    .reduce(|best, c| {
                        if table[c + mover] > table[best + mover] {
                            c
                        } else {
                            best
                        }
                    })
                    .expect("a node that goes on has moves");
                table.copy_within(best..best + seats, at);
            }
        }
    }
    Some(table)
}
