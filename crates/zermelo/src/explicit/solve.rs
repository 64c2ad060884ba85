//! Retrograde analysis over a graph's arrays: predecessor lists in compressed rows, a
//! count of unresolved moves per node, and one queue in order of remoteness. A node from
//! which neither side can force an end (a loop, or only draws ahead) is a draw.

use super::{GameGraph, NodeId};
use crate::solve::budget::{Budget, Cost};
use crate::solve::Limit;
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

    /// The greatest remoteness of any node.
    pub fn max_remoteness(&self) -> u32 {
        self.codes.iter().map(|c| c >> 2).max().unwrap_or(0)
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

/// Bytes the tallies of a graph ([`margins`], [`max_n`]) take per node besides their
/// number per seat: the predecessor rows' starts (twice while they are made), the moves
/// left and the order of the nodes; each edge takes [`BYTES_PER_EDGE`].
const TALLY_BYTES_PER_NODE: u64 = 20;

/// The budget's clock and cancel flag as a search honours them, and the refusal of `what`
/// once they stop it.
struct Clock<'b> {
    budget: &'b Budget,
    limit: Limit,
    ticks: u32,
    what: String,
}

impl<'b> Clock<'b> {
    /// The clock of `what` under `budget`, refusing `bytes` of working memory first when
    /// they are more than the budget allows.
    fn start(budget: &'b Budget, what: String, positions: u64, bytes: u64) -> Result<Self, Error> {
        budget.check(
            &what,
            Cost {
                positions,
                bytes,
                seconds: 0.0,
            },
        )?;
        let clock = Clock {
            budget,
            limit: budget.clock(),
            ticks: 0,
            what,
        };
        // A budget already spent or cancelled stops the work before it starts, however
        // small the graph.
        if clock.limit.passed() {
            return Err(budget.stopped(&clock.what));
        }
        Ok(clock)
    }

    /// Refuses to go on once the deadline has passed or the cancel flag is set (looked at
    /// every few thousand calls).
    fn tick(&mut self) -> Result<(), Error> {
        if self.limit.reached(0, &mut self.ticks) {
            return Err(self.budget.stopped(&self.what));
        }
        Ok(())
    }
}

/// The working bytes of a solve of `graph` ([`BYTES_PER_NODE`], [`BYTES_PER_EDGE`]).
pub fn solve_bytes(graph: &GameGraph) -> u64 {
    (graph.nodes() as u64)
        .saturating_mul(BYTES_PER_NODE)
        .saturating_add((graph.edges() as u64).saturating_mul(BYTES_PER_EDGE))
}

/// Solves every node of a two-seat graph: its value for the player to move, with
/// remoteness (the winner hurries, the loser delays). A graph of more seats is refused,
/// and so is a solve whose working memory is more than `budget`'s; it stops with an
/// error (never a value) at the budget's deadline or cancel flag.
pub fn solve(graph: &GameGraph, budget: &Budget) -> Result<Solved, Error> {
    use crate::game::Game;
    if graph.seats() != 2 {
        return Err(Error::Unsupported(format!(
            "{} has {} seats: values are solved for two seats only",
            graph.name(),
            graph.seats()
        )));
    }
    let n = graph.nodes();
    let what = format!("solving {}", graph.name());
    let mut clock = Clock::start(budget, what, n as u64, solve_bytes(graph))?;
    let first = &graph.d.first;
    let movers = &graph.d.movers;
    let (before, parents) = predecessors(graph, &mut clock)?;
    if let Some(node) = (0..n).find(|&i| first[i + 1] - first[i] >= MOVER) {
        return Err(Error::too_big(format!("node {node} has more than {CODE} moves")));
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
        clock.tick()?;
        let child = queue[head] as usize;
        head += 1;
        let c = state[child];
        let next = ((c & CODE) >> 2) + 1;
        if next > CODE >> 2 {
            return Err(Error::too_big(format!(
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
fn predecessors(graph: &GameGraph, clock: &mut Clock<'_>) -> Result<(Vec<u32>, Vec<NodeId>), Error> {
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
        clock.tick()?;
        for &t in &targets[first[source] as usize..first[source + 1] as usize] {
            parents[fill[t as usize] as usize] = source as NodeId;
            fill[t as usize] += 1;
        }
    }
    Ok((before, parents))
}

/// Every node, each after all the nodes its moves lead to; `None` when play can loop.
fn children_first(graph: &GameGraph, clock: &mut Clock<'_>) -> Result<Option<Vec<NodeId>>, Error> {
    let n = graph.nodes();
    let (before, parents) = predecessors(graph, clock)?;
    let mut left: Vec<u32> = (0..n as NodeId).map(|i| graph.moves_of(i).len() as u32).collect();
    let mut order: Vec<NodeId> = (0..n as NodeId).filter(|&i| left[i as usize] == 0).collect();
    let mut at = 0;
    while at < order.len() {
        clock.tick()?;
        let child = order[at] as usize;
        at += 1;
        for &parent in &parents[before[child] as usize..before[child + 1] as usize] {
            left[parent as usize] -= 1;
            if left[parent as usize] == 0 {
                order.push(parent);
            }
        }
    }
    Ok((order.len() == n).then_some(order))
}

/// The clock of the tallies of `graph` ([`margins`], [`max_n`]): `seats` numbers a node
/// kept besides the order of the nodes.
fn tally_clock<'b>(graph: &GameGraph, budget: &'b Budget, seats: usize) -> Result<Clock<'b>, Error> {
    let (nodes, edges) = (graph.nodes() as u64, graph.edges() as u64);
    let bytes = nodes
        .saturating_mul(TALLY_BYTES_PER_NODE + 4 * seats as u64)
        .saturating_add(edges.saturating_mul(BYTES_PER_EDGE));
    Clock::start(
        budget,
        format!("the final points of {}", graph.name()),
        nodes,
        bytes,
    )
}

/// The final margin of every node of a two-seat graph for its mover (its points less the
/// other seat's) when both play for the largest margin; `None` unless every end has
/// points and play cannot loop. Within `budget`, as [`solve`] is.
pub fn margins(graph: &GameGraph, budget: &Budget) -> Result<Option<Vec<i32>>, Error> {
    use crate::game::Game;
    if graph.seats() != 2 {
        return Ok(None);
    }
    let mut clock = tally_clock(graph, budget, 1)?;
    let Some(order) = children_first(graph, &mut clock)? else {
        return Ok(None);
    };
    let mut margins = vec![0i32; graph.nodes()];
    for node in order {
        let mover = usize::from(graph.mover(node));
        margins[node as usize] = match graph.outcome(&node) {
            Some(_) => {
                let Some(points) = graph.points(node) else {
                    return Ok(None);
                };
                // Points lie within ±MAX_POINTS, so that a margin fits.
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
    Ok(Some(margins))
}

/// The points of every seat under max-n play (each mover takes the first move that gives
/// it the most points), `seats` numbers a node; a win counts 1 for the winner, a draw 0
/// for all. `None` when play can loop. Within `budget`, as [`solve`] is.
pub fn max_n(graph: &GameGraph, budget: &Budget) -> Result<Option<Vec<i32>>, Error> {
    let seats = graph.seats();
    let mut clock = tally_clock(graph, budget, seats)?;
    let Some(order) = children_first(graph, &mut clock)? else {
        return Ok(None);
    };
    let mut table = vec![0i32; graph.nodes() * seats];
    for node in order {
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
    Ok(Some(table))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::*;
    use crate::explicit::{End, GraphBuilder, MAX_POINTS};

    /// `n` nodes in a ring of alternating seats, each moving on or back to the start; the
    /// last one ends, the first seat winning.
    fn ring(n: u32) -> GameGraph {
        let mut b = GraphBuilder::new("ring", 2).unwrap();
        for i in 0..n {
            let end = (i == n - 1).then_some(End::Win(0));
            b.node(&i.to_string(), (i % 2) as u8, end).unwrap();
        }
        for i in 0..n - 1 {
            b.edge(i, i + 1, "on").unwrap();
            b.edge(i, 0, "back").unwrap();
        }
        b.build().unwrap()
    }

    fn cancelled() -> Budget {
        Budget {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Budget::default()
        }
    }

    #[test]
    fn a_cancelled_or_spent_budget_gives_an_error_never_a_value() {
        for n in [3, 100_000] {
            let g = ring(n);
            assert!(solve(&g, &Budget::default()).is_ok());
            assert!(matches!(solve(&g, &cancelled()), Err(Error::Cancelled)));
            assert!(matches!(margins(&g, &cancelled()), Err(Error::Cancelled)));
            assert!(matches!(max_n(&g, &cancelled()), Err(Error::Cancelled)));
            let spent = [
                Budget {
                    seconds: Some(0.0),
                    ..Budget::default()
                },
                Budget {
                    ends: Some(std::time::Instant::now()),
                    ..Budget::default()
                },
            ];
            for budget in spent {
                let e = solve(&g, &budget).unwrap_err().to_string();
                assert!(e.contains("solving ring is more than"), "{e}");
            }
        }
    }

    #[test]
    fn a_cancel_flag_set_while_it_works_stops_it_within_a_few_thousand_steps() {
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget {
            cancel: Some(flag.clone()),
            ..Budget::default()
        };
        let mut clock = Clock::start(&budget, "solving ring".into(), 0, 0).unwrap();
        for _ in 0..10_000 {
            clock.tick().unwrap();
        }
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        let stopped = (0..5_000).find_map(|_| clock.tick().err());
        assert!(matches!(stopped, Some(Error::Cancelled)), "{stopped:?}");
    }

    #[test]
    fn too_little_memory_is_refused_before_it_starts() {
        let g = ring(1000);
        let bytes = solve_bytes(&g);
        assert_eq!(bytes, 1000 * BYTES_PER_NODE + 1998 * BYTES_PER_EDGE);
        let e = solve(&g, &Budget::default().with_memory(bytes - 1)).unwrap_err();
        assert!(matches!(e, Error::TooBig(_)), "{e}");
        assert!(e.to_string().contains("solving ring needs about"), "{e}");
        assert!(solve(&g, &Budget::default().with_memory(bytes)).is_ok());
        assert!(matches!(
            margins(&g, &Budget::default().with_memory(100)),
            Err(Error::TooBig(_))
        ));
    }

    #[test]
    fn points_past_the_most_are_refused_and_the_widest_margin_fits() {
        let mut b = GraphBuilder::new("wide", 2).unwrap();
        for p in [[MAX_POINTS + 1, 0], [i32::MAX, i32::MIN], [0, -MAX_POINTS - 1]] {
            let e = b
                .node("end", 0, Some(End::Points(p.to_vec())))
                .unwrap_err()
                .to_string();
            assert!(e.contains("so that every margin fits"), "{e}");
        }
        b.node("start", 0, None).unwrap();
        b.node("end", 1, Some(End::Points(vec![MAX_POINTS, -MAX_POINTS])))
            .unwrap();
        b.edge(0, 1, "go").unwrap();
        let g = b.build().unwrap();
        let m = margins(&g, &Budget::default()).unwrap().unwrap();
        assert_eq!(m, vec![2 * MAX_POINTS, -2 * MAX_POINTS]);
    }
}
