//! Games whose rules are an explicit graph: every position a node (its text, the seat to
//! move, how the game ended there), every move an edge (its text, the node it leads to).
//! A program in any language can write one as a file ([`file`]), and a front end can
//! build one in memory ([`GraphBuilder`]) from a game it explored; either way it is a
//! [`Game`] with every tool a built-in game has (through the catalog's `graph` family:
//! `graph:file=G.json`, or `graph:name=NAME` for a graph installed with
//! `zermelo::catalog::install_graph`), solved by retrograde analysis over its arrays
//! ([`solve`]), loops included.
//!
//! ```
//! use zermelo::explicit::{End, GraphBuilder};
//! // A race to the end of a path of three cells, the mover stepping one or two.
//! let mut b = GraphBuilder::new("steps", 2).unwrap();
//! let start = b.node("0 A", 0, None).unwrap();
//! let one = b.node("1 B", 1, None).unwrap();
//! let end_a = b.node("2 B", 1, Some(End::Win(0))).unwrap();
//! let end_b = b.node("2 A", 0, Some(End::Win(1))).unwrap();
//! b.edge(start, one, "+1").unwrap();
//! b.edge(start, end_a, "+2").unwrap();
//! b.edge(one, end_b, "+1").unwrap();
//! let graph = b.build().unwrap();
//! assert_eq!((graph.nodes(), graph.edges()), (4, 3));
//! let spec = zermelo::catalog::install_graph(graph).unwrap();
//! assert_eq!(spec, "graph:name=steps");
//! let solved = zermelo::catalog::open(&spec).unwrap().solve(&Default::default()).unwrap();
//! assert_eq!(solved.verdict.value, Some(zermelo::Class::Win));
//! ```

pub mod file;
pub mod solve;

use std::hash::Hasher;
use std::sync::{Arc, OnceLock};

use rustc_hash::{FxHashMap, FxHasher};

use crate::game::{Game, Indexed, Notation, Outcome, PlayerId, Scored, Symmetric};
use crate::picture::Picture;
use crate::Error;

/// A node of a graph, by its dense id (the start is node 0).
pub type NodeId = u32;

/// How the game ended at a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// This seat won.
    Win(PlayerId),
    /// Nobody won.
    Draw,
    /// The points of every seat, in seat order: with two seats the one with more points
    /// wins (equal points draw); with more, the seats with the most points share the win.
    Points(Vec<i32>),
}

/// What a front end may give a graph's nodes besides their text: a board drawn in the
/// terminal, a picture on screen, a heuristic for depth-limited search. Every method has
/// a default (the node's text, no picture, 0).
pub trait NodeExtras: Send + Sync {
    /// A multi-line picture of `node` for the terminal; `None` draws its text.
    fn render(&self, graph: &GameGraph, node: NodeId) -> Option<String> {
        let _ = (graph, node);
        None
    }
    /// A picture of `node` for a board on screen, its moves on the shapes that play them.
    fn picture(&self, graph: &GameGraph, node: NodeId) -> Option<Picture> {
        let _ = (graph, node);
        None
    }
    /// A static evaluation of `node` for the seat to move (positive is good for it).
    fn heuristic(&self, graph: &GameGraph, node: NodeId) -> i32 {
        let _ = (graph, node);
        0
    }
}

/// The end code of a node that has not ended.
const GOING_ON: u32 = 0;
/// The end code of a draw.
const DRAW: u32 = 1;
/// The end code of a win for seat `s` is `WIN + s`.
const WIN: u32 = 2;
/// The bit of an end code that holds points: the rest is their index in `points`.
const POINTS: u32 = 1 << 31;
/// The most seats a graph may have (a shared win is a mask of seats).
pub const MAX_SEATS: usize = 32;

/// The most points a seat may have at an end, either way: two seats' points differ by
/// less than 2^31, so that every margin fits in 32 bits.
pub const MAX_POINTS: i32 = (1 << 30) - 1;

/// Texts kept end to end in one buffer, each found by its end offset.
#[derive(Clone, Debug, Default)]
struct Texts {
    bytes: String,
    /// `ends[i]` is where text `i` ends; it starts where text `i - 1` ends.
    ends: Vec<u32>,
}

impl Texts {
    fn push(&mut self, text: &str) -> Result<u32, Error> {
        self.bytes.push_str(text);
        let end = u32::try_from(self.bytes.len())
            .map_err(|_| Error::too_big("a graph's texts may take at most 4 GiB"))?;
        self.ends.push(end);
        Ok(self.ends.len() as u32 - 1)
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    fn bytes(&self) -> usize {
        self.bytes.capacity() + self.ends.capacity() * 4
    }
}

/// The move-text index of every edge, in as few bytes as the number of texts allows.
#[derive(Clone, Debug)]
enum Labels {
    /// At most 256 texts.
    Byte(Vec<u8>),
    /// At most 65,536 texts.
    Half(Vec<u16>),
    Word(Vec<u32>),
}

impl Labels {
    /// The labels of `edges` for `texts` distinct texts, each `label` below `texts`.
    fn new(labels: impl ExactSizeIterator<Item = u32>, texts: usize) -> Labels {
        if texts <= 1 << 8 {
            Labels::Byte(labels.map(|l| l as u8).collect())
        } else if texts <= 1 << 16 {
            Labels::Half(labels.map(|l| l as u16).collect())
        } else {
            Labels::Word(labels.collect())
        }
    }

    fn get(&self, edge: usize) -> u32 {
        match self {
            Labels::Byte(v) => u32::from(v[edge]),
            Labels::Half(v) => u32::from(v[edge]),
            Labels::Word(v) => v[edge],
        }
    }

    /// Bytes an edge's label takes.
    fn width(&self) -> usize {
        match self {
            Labels::Byte(_) => 1,
            Labels::Half(_) => 2,
            Labels::Word(_) => 4,
        }
    }

    fn len(&self) -> usize {
        match self {
            Labels::Byte(v) => v.len(),
            Labels::Half(v) => v.len(),
            Labels::Word(v) => v.len(),
        }
    }
}

/// A game given as its graph: nodes in dense ids (the start is 0) with their position
/// text, the seat to move and how the game ended there; the moves of every node in flat
/// arrays (compressed rows: the moves of node `i` are the edges `first[i]..first[i + 1]`).
/// Built by a [`GraphBuilder`] or read from a file ([`file::read`]); valid by construction.
#[derive(Clone)]
pub struct GameGraph {
    d: Arc<Data>,
}

/// What a [`GameGraph`] holds, shared by its clones.
struct Data {
    name: String,
    version: String,
    seat_names: Vec<String>,
    positions: Texts,
    movers: Vec<PlayerId>,
    ends: Vec<u32>,
    /// The points of every ended node with points, `seats` numbers each.
    points: Vec<i32>,
    first: Vec<u32>,
    targets: Vec<NodeId>,
    /// The text of every edge, as an index into `move_texts`.
    labels: Labels,
    move_texts: Texts,
    heuristics: Vec<i32>,
    extras: Option<Arc<dyn NodeExtras>>,
    hash: u64,
    /// The node ids sorted by their text, made when a position is first parsed.
    by_text: OnceLock<Vec<NodeId>>,
}

impl std::fmt::Debug for GameGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GameGraph({} v{}: {} nodes, {} edges, {} seats)",
            self.d.name,
            self.d.version,
            self.nodes(),
            self.edges(),
            self.seats()
        )
    }
}

impl GameGraph {
    /// The graph's name (letters, digits, `_` and `-`).
    pub fn name(&self) -> &str {
        &self.d.name
    }
    /// Its version: a new version makes the tables saved for an older one stale.
    pub fn version(&self) -> &str {
        &self.d.version
    }
    /// How many seats take part.
    pub fn seats(&self) -> usize {
        self.d.seat_names.len()
    }
    /// What the seats are called, in seat order.
    pub fn seat_names(&self) -> &[String] {
        &self.d.seat_names
    }
    /// How many nodes (positions) it has.
    pub fn nodes(&self) -> usize {
        self.d.movers.len()
    }
    /// How many edges (moves) it has.
    pub fn edges(&self) -> usize {
        self.d.targets.len()
    }
    /// A 64-bit hash of everything but the name and version: a changed graph has another.
    pub fn content_hash(&self) -> u64 {
        self.d.hash
    }
    /// The position text of `node`.
    pub fn text(&self, node: NodeId) -> &str {
        self.d.positions.get(node as usize)
    }
    /// The seat to move at `node`.
    pub fn mover(&self, node: NodeId) -> PlayerId {
        self.d.movers[node as usize]
    }
    /// How the game ended at `node`, `None` while it goes on.
    pub fn end(&self, node: NodeId) -> Option<End> {
        let code = self.d.ends[node as usize];
        match code {
            GOING_ON => None,
            DRAW => Some(End::Draw),
            _ if code & POINTS != 0 => Some(End::Points(self.points_of(code).to_vec())),
            _ => Some(End::Win((code - WIN) as PlayerId)),
        }
    }
    /// The edges leaving `node`, as a range of edge ids.
    pub fn moves_of(&self, node: NodeId) -> std::ops::Range<u32> {
        self.d.first[node as usize]..self.d.first[node as usize + 1]
    }
    /// The node edge `edge` leads to.
    pub fn target(&self, edge: u32) -> NodeId {
        self.d.targets[edge as usize]
    }
    /// The move text of edge `edge`.
    pub fn move_text(&self, edge: u32) -> &str {
        self.d.move_texts.get(self.d.labels.get(edge as usize) as usize)
    }
    /// Bytes the graph holds: its arrays and texts.
    pub fn held_bytes(&self) -> u64 {
        let arrays = self.d.movers.capacity()
            + self.edges() * self.d.labels.width()
            + 4 * (self.d.ends.capacity()
                + self.d.points.capacity()
                + self.d.first.capacity()
                + self.d.targets.capacity()
                + self.d.heuristics.capacity());
        (arrays + self.d.positions.bytes() + self.d.move_texts.bytes()) as u64
    }

    /// Bytes the graph holds per edge: its target (4) and its move text's index (1, 2 or
    /// 4, as the number of distinct move texts allows).
    pub fn edge_bytes(&self) -> u64 {
        4 + self.d.labels.width() as u64
    }

    /// Bytes the graph's texts hold (positions and moves), a part of [`GameGraph::held_bytes`].
    pub fn text_bytes(&self) -> u64 {
        (self.d.positions.bytes() + self.d.move_texts.bytes()) as u64
    }

    fn points_of(&self, code: u32) -> &[i32] {
        let at = (code & !POINTS) as usize * self.seats();
        &self.d.points[at..at + self.seats()]
    }

    /// The points of every seat at `node`, when it ended with points.
    pub fn points(&self, node: NodeId) -> Option<&[i32]> {
        let code = self.d.ends[node as usize];
        (code & POINTS != 0).then(|| self.points_of(code))
    }

    /// The node whose text is `text`, `#ID` naming a node by its id.
    pub fn find(&self, text: &str) -> Result<NodeId, Error> {
        let sorted = self.d.by_text.get_or_init(|| {
            let mut ids: Vec<NodeId> = (0..self.nodes() as NodeId).collect();
            ids.sort_by(|&a, &b| self.text(a).cmp(self.text(b)).then(a.cmp(&b)));
            ids
        });
        let at = sorted.partition_point(|&id| self.text(id) < text);
        let same: Vec<NodeId> = sorted[at..]
            .iter()
            .take_while(|&&id| self.text(id) == text)
            .copied()
            .collect();
        match same[..] {
            [id] => Ok(id),
            [] => text
                .strip_prefix('#')
                .and_then(|n| n.parse::<NodeId>().ok())
                .filter(|&id| (id as usize) < self.nodes())
                .ok_or_else(|| {
                    Error::bad_position(text, format!("no node of {} has this text (or #ID)", self.d.name))
                }),
            _ => Err(Error::bad_position(
                text,
                format!(
                    "nodes {} share this text: name one as #ID",
                    same.iter()
                        .map(|id| format!("#{id}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

impl Data {
    /// Hashes the graph's content (all but its name and version).
    fn content(&self) -> u64 {
        let mut h = FxHasher::default();
        let mut words = |xs: &[u32]| xs.iter().for_each(|&x| h.write_u32(x));
        words(&self.first);
        words(&self.targets);
        words(&self.ends);
        words(&self.positions.ends);
        words(&self.move_texts.ends);
        (0..self.labels.len()).for_each(|e| h.write_u32(self.labels.get(e)));
        h.write(&self.movers);
        h.write(self.positions.bytes.as_bytes());
        h.write(self.move_texts.bytes.as_bytes());
        self.points.iter().for_each(|&p| h.write_i32(p));
        self.heuristics.iter().for_each(|&p| h.write_i32(p));
        for name in &self.seat_names {
            h.write(name.as_bytes());
            h.write_u8(0);
        }
        h.finish()
    }

    fn nodes(&self) -> usize {
        self.movers.len()
    }

    fn seats(&self) -> usize {
        self.seat_names.len()
    }

    fn text(&self, node: NodeId) -> &str {
        self.positions.get(node as usize)
    }
}

/// Builds a [`GameGraph`] node by node and edge by edge: nodes get ids 0, 1, ... in the
/// order they are added (node 0 is the start); edges may come in any order, and may name
/// nodes added later. [`GraphBuilder::build`] checks the whole graph.
pub struct GraphBuilder {
    graph: Data,
    /// (source, target, label) of every edge, in the order added.
    edges: Vec<(NodeId, NodeId, u32)>,
    label_ids: FxHashMap<String, u32>,
}

/// Refuses a name that cannot stand in a spec.
pub fn check_name(name: &str) -> Result<(), Error> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(Error::Spec(format!(
            "'{name}' cannot name a graph: use letters, digits, '_' and '-'"
        )));
    }
    Ok(())
}

impl GraphBuilder {
    /// An empty graph called `name` (letters, digits, `_` and `-`) for `seats` seats
    /// (2 to [`MAX_SEATS`]), called `player 1`, `player 2`, ..., of version `1`.
    pub fn new(name: &str, seats: usize) -> Result<Self, Error> {
        check_name(name)?;
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(Error::Unsupported(format!(
                "a graph has 2 to {MAX_SEATS} seats, not {seats}"
            )));
        }
        Ok(GraphBuilder {
            graph: Data {
                name: name.to_string(),
                version: "1".into(),
                seat_names: (1..=seats).map(|s| format!("player {s}")).collect(),
                positions: Texts::default(),
                movers: Vec::new(),
                ends: Vec::new(),
                points: Vec::new(),
                first: Vec::new(),
                targets: Vec::new(),
                labels: Labels::Word(Vec::new()),
                move_texts: Texts::default(),
                heuristics: Vec::new(),
                extras: None,
                hash: 0,
                by_text: OnceLock::new(),
            },
            edges: Vec::new(),
            label_ids: FxHashMap::default(),
        })
    }

    /// Sets the version (`1` by default; any text without `,`, `=`, `:` or spaces at its
    /// ends, as it stands in a spec): tables saved for another version are not read.
    pub fn set_version(&mut self, version: &str) -> Result<(), Error> {
        if version.is_empty() || version.trim() != version || version.contains([',', '=', ':', '\n', '\r']) {
            return Err(Error::Spec(format!(
                "'{version}' cannot be a version: one line of text without ',', '=' or ':'"
            )));
        }
        self.graph.version = version.to_string();
        Ok(())
    }

    /// Names the seats, one name per seat in seat order.
    pub fn set_seat_names(&mut self, names: Vec<String>) -> Result<(), Error> {
        if names.len() != self.graph.seats() {
            return Err(Error::Spec(format!(
                "{} seat names for {} seats",
                names.len(),
                self.graph.seats()
            )));
        }
        self.graph.seat_names = names;
        Ok(())
    }

    /// Gives the nodes what their text does not tell: a board, a picture, a heuristic.
    pub fn set_extras(&mut self, extras: Arc<dyn NodeExtras>) {
        self.graph.extras = Some(extras);
    }

    /// How many nodes have been added.
    pub fn nodes(&self) -> usize {
        self.graph.nodes()
    }

    /// Makes room for `nodes` more nodes and `edges` more edges, so that a builder told
    /// the size of its graph grows its arrays once rather than doubling them.
    pub fn reserve(&mut self, nodes: usize, edges: usize) {
        let g = &mut self.graph;
        g.movers.reserve_exact(nodes);
        g.ends.reserve_exact(nodes);
        g.positions.ends.reserve_exact(nodes);
        self.edges.reserve_exact(edges);
    }

    /// Adds a node: its position text, the seat to move, and how the game ended there
    /// (`None` while it goes on); its id.
    pub fn node(&mut self, text: &str, seat: PlayerId, end: Option<End>) -> Result<NodeId, Error> {
        let g = &mut self.graph;
        let id = g.nodes();
        let seats = g.seats();
        let bad = |why: String| Error::Spec(format!("node {id} ('{text}'): {why}"));
        if usize::from(seat) >= seats {
            return Err(bad(format!(
                "seat {seat} to move, but the seats are 0..{}",
                seats - 1
            )));
        }
        if id >= u32::MAX as usize {
            return Err(Error::too_big(format!(
                "a graph has fewer than {} nodes",
                u32::MAX
            )));
        }
        let code = match end {
            None => GOING_ON,
            Some(End::Draw) => DRAW,
            Some(End::Win(s)) if usize::from(s) < seats => WIN + u32::from(s),
            Some(End::Win(s)) => {
                return Err(bad(format!("seat {s} wins, but the seats are 0..{}", seats - 1)))
            }
            Some(End::Points(points)) if points.len() == seats => {
                if let Some(p) = points.iter().find(|p| p.unsigned_abs() > MAX_POINTS as u32) {
                    return Err(bad(format!(
                        "{p} points: a seat's points lie within -{MAX_POINTS}..={MAX_POINTS}, \
                         so that every margin fits"
                    )));
                }
                let index = g.points.len() / seats;
                g.points.extend(points);
                POINTS | index as u32
            }
            Some(End::Points(points)) => {
                return Err(bad(format!("{} points for {seats} seats", points.len())))
            }
        };
        g.positions.push(text)?;
        g.movers.push(seat);
        g.ends.push(code);
        Ok(id as NodeId)
    }

    /// Adds a move from node `from` to node `to`, written `text`.
    pub fn edge(&mut self, from: NodeId, to: NodeId, text: &str) -> Result<(), Error> {
        if self.edges.len() >= u32::MAX as usize {
            return Err(Error::too_big(format!(
                "a graph has fewer than {} edges",
                u32::MAX
            )));
        }
        let label = match self.label_ids.get(text) {
            Some(&l) => l,
            None => {
                let l = self.graph.move_texts.push(text)?;
                self.label_ids.insert(text.to_string(), l);
                l
            }
        };
        self.edges.push((from, to, label));
        Ok(())
    }

    /// Bytes the builder holds now: its nodes, edges and texts.
    pub fn held_bytes(&self) -> u64 {
        let g = &self.graph;
        // The map's keys are copies of the move texts.
        let labels = g.move_texts.bytes.len() + 16 * self.label_ids.len();
        (g.positions.bytes()
            + g.move_texts.bytes()
            + g.movers.capacity()
            + 4 * (g.ends.capacity() + g.points.capacity() + g.heuristics.capacity())
            + 12 * self.edges.capacity()
            + self.label_ids.capacity() * (std::mem::size_of::<(String, u32)>() + 1)
            + labels) as u64
    }

    /// Bytes [`GraphBuilder::build`] takes besides what the builder holds: the arrays of
    /// the graph, and the room to sort its edges.
    pub fn build_bytes(&self) -> u64 {
        let (n, e) = (self.graph.nodes() as u64, self.edges.len() as u64);
        4 * (n + 1) + e * (6 + 4 + 4)
    }

    /// Sets the heuristic of `node` (0 where none is set): a static evaluation for the
    /// seat to move, for depth-limited search.
    pub fn set_heuristic(&mut self, node: NodeId, value: i32) -> Result<(), Error> {
        let n = self.graph.nodes();
        if node as usize >= n {
            return Err(Error::Spec(format!(
                "node {node} does not exist (the graph has {n} nodes)"
            )));
        }
        let h = &mut self.graph.heuristics;
        if h.len() < n {
            h.resize(n, 0);
        }
        h[node as usize] = value;
        Ok(())
    }

    /// The graph, checked: it has a node; every edge joins nodes that exist; a node that
    /// ended has no moves and one that goes on has some.
    pub fn build(self) -> Result<GameGraph, Error> {
        let GraphBuilder {
            mut graph, mut edges, ..
        } = self;
        let n = graph.nodes();
        if n == 0 {
            return Err(Error::Spec(format!("the graph {} has no nodes", graph.name)));
        }
        let mut first = vec![0u32; n + 1];
        for (i, &(from, to, _)) in edges.iter().enumerate() {
            if let Some(missing) = [from, to].into_iter().find(|&x| x as usize >= n) {
                return Err(Error::Spec(format!(
                    "edge {i} ({from} -> {to}): node {missing} does not exist (the graph has {n} nodes)"
                )));
            }
            first[from as usize + 1] += 1;
        }
        for id in 0..n {
            let moves = first[id + 1];
            let ended = graph.ends[id] != GOING_ON;
            if ended && moves > 0 {
                return Err(Error::Spec(format!(
                    "node {id} ('{}') has ended but has {moves} moves",
                    graph.text(id as NodeId)
                )));
            }
            if !ended && moves == 0 {
                return Err(Error::Spec(format!(
                    "node {id} ('{}') goes on but has no moves: give it an end",
                    graph.text(id as NodeId)
                )));
            }
            first[id + 1] += first[id];
        }
        // Edges grouped by source, each source's in the order they were added.
        edges.sort_by_key(|&(from, _, _)| from);
        // A move is named by its text: two moves of one node may not print alike.
        let mut labels: Vec<u32> = Vec::new();
        for id in 0..n {
            let of = &edges[first[id] as usize..first[id + 1] as usize];
            if of.len() < 2 {
                continue;
            }
            labels.clear();
            labels.extend(of.iter().map(|e| e.2));
            labels.sort_unstable();
            if let Some(twice) = labels.windows(2).find(|w| w[0] == w[1]) {
                return Err(Error::Spec(format!(
                    "two moves of node {id} ('{}') print the same: '{}'",
                    graph.text(id as NodeId),
                    graph.move_texts.get(twice[0] as usize)
                )));
            }
        }
        graph.targets = edges.iter().map(|e| e.1).collect();
        graph.labels = Labels::new(edges.iter().map(|e| e.2), graph.move_texts.ends.len());
        drop(edges);
        graph.first = first;
        for texts in [&mut graph.positions, &mut graph.move_texts] {
            texts.bytes.shrink_to_fit();
            texts.ends.shrink_to_fit();
        }
        graph.movers.shrink_to_fit();
        graph.ends.shrink_to_fit();
        if !graph.heuristics.is_empty() {
            graph.heuristics.resize(n, 0);
        }
        graph.hash = graph.content();
        Ok(GameGraph { d: Arc::new(graph) })
    }
}

impl Game for GameGraph {
    type Position = NodeId;
    type Move = u32;

    fn start(&self) -> NodeId {
        0
    }
    fn to_move(&self, p: &NodeId) -> PlayerId {
        self.mover(*p)
    }
    fn moves(&self, p: &NodeId, out: &mut Vec<u32>) {
        out.extend(self.moves_of(*p));
    }
    fn play(&self, _p: &NodeId, m: &u32) -> NodeId {
        self.target(*m)
    }
    fn outcome(&self, p: &NodeId) -> Option<Outcome> {
        Some(match self.d.ends[*p as usize] {
            GOING_ON => return None,
            DRAW => Outcome::Draw,
            code if code & POINTS != 0 => points_outcome(self.points_of(code)),
            code => Outcome::Win((code - WIN) as PlayerId),
        })
    }
    fn players(&self) -> usize {
        self.seats()
    }
    fn heuristic(&self, p: &NodeId) -> i32 {
        match &self.d.extras {
            Some(extras) => extras.heuristic(self, *p),
            None => self.d.heuristics.get(*p as usize).copied().unwrap_or(0),
        }
    }
}

/// The outcome of points: the seats with the most share the win, a draw when all do.
fn points_outcome(points: &[i32]) -> Outcome {
    let best = points.iter().copied().max().unwrap_or(0);
    let mask = points
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p == best)
        .fold(0u32, |m, (s, _)| m | 1 << s);
    match mask.count_ones() {
        1 => Outcome::Win(mask.trailing_zeros() as PlayerId),
        n if n as usize == points.len() => Outcome::Draw,
        _ => Outcome::Shared(mask),
    }
}

impl Scored for GameGraph {
    fn score(&self, p: &NodeId, player: PlayerId) -> i32 {
        self.points(*p).map_or(0, |points| points[usize::from(player)])
    }
}

impl Symmetric for GameGraph {
    fn canonical(&self, p: &NodeId) -> NodeId {
        *p
    }
}

impl Indexed for GameGraph {
    fn size(&self) -> u64 {
        self.nodes() as u64
    }
    fn rank(&self, p: &NodeId) -> u64 {
        u64::from(*p)
    }
    fn unrank(&self, r: u64) -> Option<NodeId> {
        (r < self.size()).then_some(r as NodeId)
    }
}

impl Notation for GameGraph {
    fn parse_move(&self, p: &NodeId, text: &str) -> Result<u32, Error> {
        self.moves_of(*p)
            .find(|&e| self.move_text(e) == text)
            .ok_or_else(|| {
                let legal: Vec<&str> = self.moves_of(*p).map(|e| self.move_text(e)).collect();
                Error::bad_move(
                    text,
                    match legal[..] {
                        [] => "the game is over".to_string(),
                        _ => format!("the moves here: {}", legal.join(", ")),
                    },
                )
            })
    }
    fn format_move(&self, _p: &NodeId, m: &u32) -> String {
        self.move_text(*m).to_string()
    }
    fn parse_position(&self, text: &str) -> Result<NodeId, Error> {
        self.find(text)
    }
    fn format_position(&self, p: &NodeId) -> String {
        self.text(*p).to_string()
    }
    fn render(&self, p: &NodeId) -> String {
        let drawn = self.d.extras.as_ref().and_then(|e| e.render(self, *p));
        let mut text = drawn.unwrap_or_else(|| self.text(*p).to_string());
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }
    fn player_name(&self, player: PlayerId) -> String {
        self.d
            .seat_names
            .get(usize::from(player))
            .cloned()
            .unwrap_or_else(|| format!("player {}", player + 1))
    }
    /// The front end's picture; `None` for a graph without one, whose front ends show the
    /// position's board as text and its moves as a list.
    fn picture(&self, p: &NodeId) -> Option<Picture> {
        self.d.extras.as_ref().and_then(|e| e.picture(self, *p))
    }
}
