//! The graph of a game: every reachable position a node, every move an edge.

use crate::analysis::graph;
use crate::error::{Part, Said};
use crate::game::{Game, Notation, PlayerId};
use crate::session::common::outcome_words;
use crate::session::{bytes_text, Big, Graph, GraphEdge, GraphNode, Options, Session};
use crate::solve::Limit;
use crate::Error;

use super::{GameSession, Strategy};

/// Bytes a graph takes per position visited, about: the position kept two or three times,
/// its node and edges, their text.
pub(super) const GRAPH_BYTES: u64 = 512;

impl<S: Strategy> GameSession<S> {
    pub(super) fn graph_of(&self, symmetry: bool, max: u64, opts: &Options) -> Result<Graph, Error> {
        let game = self.strategy.game("a graph")?;
        let spec = self.spec();
        let key = if symmetry {
            Some(self.strategy.symmetry().ok_or_else(|| {
                Error::bad_option(
                    "symmetry",
                    None,
                    format!("{spec} has no symmetries known here to draw its graph up to; leave it out"),
                )
            })?)
        } else {
            None
        };
        let what = if symmetry { "classes" } else { "positions" };
        // Memory bounded as a search's table is: --memory, else at most a gigabyte.
        let bytes = opts.budget.table_bytes();
        let limit = Limit {
            positions: usize::try_from(bytes / GRAPH_BYTES).ok(),
            ..opts.budget.limit(GRAPH_BYTES)
        };
        let explored = graph::explore(game, &game.start(), key, max, &limit, opts.progress.as_ref())
            .map_err(|e| match e {
                Error::TooBig(_) if opts.budget.seconds.is_none() && !opts.budget.cancelled() => {
                    Error::too_big(format!(
                        "the graph of {spec} needs more than the {} of memory it may use: give it more memory",
                        bytes_text(bytes)
                    ))
                }
                e => opts.budget.stopped_as(e, &format!("drawing the graph of {spec}")),
            })?
            .ok_or_else(|| {
                Error::TooBig(Said(vec![
                    Part::Text(format!("the graph of {spec} has more than {max} {what} (the limit: ")),
                    Part::Option("max_positions"),
                    Part::Text(")".into()),
                ]))
            })?;
        let player = |seat| game.player_name(seat);
        let nodes = explored
            .nodes
            .iter()
            .enumerate()
            .map(|(id, n)| {
                let p = &n.position;
                let outcome = game.outcome(p);
                GraphNode {
                    id: id as u64,
                    position: game.format_position(p),
                    seat: game.to_move(p),
                    player: player(game.to_move(p)),
                    terminal: outcome.is_some(),
                    result: outcome.map(|o| outcome_words(game, o)),
                    points: outcome.and_then(|_| self.strategy.points(game, p)),
                    value: n.value.map(|v| v.class()),
                    remoteness: n.value.and_then(|v| v.remoteness()),
                    size: n.size,
                }
            })
            .collect();
        let edges = explored
            .edges
            .iter()
            .map(|e| {
                let from = &explored.nodes[e.source].position;
                let seat = game.to_move(from);
                GraphEdge {
                    source: e.source as u64,
                    target: e.target as u64,
                    notation: game.format_move(from, &e.first),
                    seat,
                    player: player(seat),
                    count: e.count,
                }
            })
            .collect();
        Ok(Graph {
            game: spec.to_string(),
            symmetry,
            directed: true,
            multigraph: false,
            positions: Big(explored.positions().into()),
            seats: self.seats,
            players: (0..self.seats).map(|s| player(s as PlayerId)).collect(),
            nodes,
            edges,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::tests::quiet;

    #[test]
    fn the_graph_has_a_node_for_every_position_counted() {
        let session = crate::catalog::open("tictactoe").unwrap();
        let opts = quiet();
        for symmetry in [false, true] {
            let graph = session.graph(symmetry, 1_000_000, &opts).unwrap();
            let counted = session.count(symmetry, &opts).unwrap().positions.unwrap();
            assert_eq!(graph.nodes.len() as u128, counted.total.0, "symmetry {symmetry}");
            let terminal = graph.nodes.iter().filter(|n| n.terminal).count() as u128;
            assert_eq!(terminal, counted.terminal.0, "symmetry {symmetry}");
            // Every move is made by the seat to move where it starts, and the start is
            // node 0, valued as a solve values it.
            for e in &graph.edges {
                assert_eq!(e.seat, graph.nodes[e.source as usize].seat);
            }
            assert_eq!(graph.nodes[0].value, session.solve(&opts).unwrap().verdict.value);
        }
    }

    #[test]
    fn a_graph_over_its_limit_is_refused() {
        let session = crate::catalog::open("tictactoe").unwrap();
        let refused = session.graph(false, 100, &quiet()).unwrap_err();
        assert!(
            refused.to_string().contains("more than 100 positions"),
            "{refused}"
        );
    }
}
