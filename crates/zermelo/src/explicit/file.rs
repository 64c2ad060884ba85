//! Graph files: the node-link JSON that `zermelo graph --format json` writes, and its
//! GraphML, read into a [`GameGraph`]. The first node is the start. A node needs its
//! `seat` (the seat to move, from 0) unless the game has ended there; it ends where it
//! has a `result` (`"draw"`, `"NAME wins"`, a winning seat's number, or a list of points
//! per seat), a `winner` (a seat) or `points` (one number per seat). Everything else is
//! optional: `id` (by default the node's place in the list), `position` (by default the
//! id), a node's `board` (drawn in the terminal), `picture` (for a board on screen) and
//! `heuristic`, an edge's `move` (by default the text of the node it leads to); the
//! graph's `seats`, `players` (the seats' names) and `version`, and for a graph saved by
//! a program ([`write`], read back by [`read_saved`]) its `name` and `source` (what it was
//! made from). A file may be zstd-compressed (as [`write`] writes it), checksummed, so
//! that a damaged one is refused.
//!
//! A file is read within a memory budget ([`read_within`]): only a regular file, no
//! larger than the budget, is read, and what its nodes and edges take is counted as they
//! are read, so that a file too large for the budget is refused in one line before it
//! takes the machine's memory. A list one number or name per seat is refused past
//! [`MAX_SEATS`] as it is read, before anything is sized by it.

use std::cell::RefCell;
use std::io::Read as _;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use super::{End, GameGraph, GraphBuilder, NodeExtras, NodeId, MAX_SEATS};
use crate::game::PlayerId;
use crate::picture::Picture;
use crate::solve::budget::{bytes_text, Budget};
use crate::Error;

/// A node or edge's reference to a node: a number or a text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Id {
    Number(u64),
    Text(String),
}

impl Id {
    fn text(&self) -> String {
        match self {
            Id::Number(n) => n.to_string(),
            Id::Text(t) => t.clone(),
        }
    }

    /// Bytes it holds besides itself.
    fn heap(&self) -> u64 {
        match self {
            Id::Number(_) => 0,
            Id::Text(t) => heap(t),
        }
    }
}

/// Bytes a text holds on the heap, with the allocator's own.
fn heap(text: &str) -> u64 {
    match text.len() {
        0 => 0,
        n => n as u64 + 16,
    }
}

/// An id: a number or a text, read as it stands (never a list or a map held whole).
impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Id;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a node's id: a whole number or a text")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id, E> {
                Ok(Id::Number(n))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
                Ok(Id::Text(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Id, E> {
                Ok(Id::Text(s))
            }
        }
        d.deserialize_any(V)
    }
}

/// A text, a number or a truth value, as text (a graph's version).
struct Text(String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a text or a number")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text, E> {
                Ok(Text(s.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Text, E> {
                Ok(Text(n.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Text, E> {
                Ok(Text(n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Text, E> {
                // As JSON writes it (`1.0`, not `1`).
                let number = serde_json::Number::from_f64(n).map(|n| n.to_string());
                Ok(Text(number.unwrap_or_else(|| n.to_string())))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Text, E> {
                Ok(Text(b.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A list of one item per seat, refused as it is read past [`MAX_SEATS`] items.
struct PerSeat<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PerSeat<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PerSeat<T>, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = PerSeat<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "a list of one item per seat (at most {MAX_SEATS})")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PerSeat<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(x) = seq.next_element()? {
                    if out.len() == MAX_SEATS {
                        return Err(de::Error::custom(format!(
                            "a list of more than {MAX_SEATS} items, one per seat: a graph has at most {MAX_SEATS} seats"
                        )));
                    }
                    out.push(x);
                }
                Ok(PerSeat(out))
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// A node's `result`: a winning seat, words (`"draw"`, `"NAME wins"`) or points.
enum FileResult {
    Seat(u64),
    Words(String),
    Points(Vec<i32>),
    /// Anything else, refused with its text.
    Other(String),
}

impl<'de> Deserialize<'de> for FileResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FileResult, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FileResult;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a result: \"draw\", \"NAME wins\", a seat or a list of points")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<FileResult, E> {
                Ok(FileResult::Seat(n))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<FileResult, E> {
                Ok(FileResult::Other(n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<FileResult, E> {
                Ok(FileResult::Other(n.to_string()))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<FileResult, E> {
                Ok(FileResult::Other(b.to_string()))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<FileResult, E> {
                Ok(FileResult::Words(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<FileResult, A::Error> {
                let points = PerSeat::<i64>::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
                points
                    .0
                    .iter()
                    .map(|&p| i32::try_from(p).ok())
                    .collect::<Option<Vec<i32>>>()
                    .map(FileResult::Points)
                    .ok_or_else(|| de::Error::custom("result: points are whole numbers of 32 bits"))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Default)]
struct FileGraph {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    version: Option<Text>,
    #[serde(default)]
    seats: Option<u64>,
    #[serde(default)]
    players: Option<PerSeat<String>>,
    #[serde(deserialize_with = "metered")]
    nodes: Vec<FileNode>,
    #[serde(default, alias = "links", deserialize_with = "metered")]
    edges: Vec<FileEdge>,
}

#[derive(Deserialize, Default)]
struct FileNode {
    #[serde(default)]
    id: Option<Id>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    seat: Option<u64>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    terminal: Option<bool>,
    #[serde(default)]
    result: Option<FileResult>,
    #[serde(default)]
    winner: Option<u64>,
    #[serde(default)]
    points: Option<PerSeat<i32>>,
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    heuristic: Option<i32>,
    #[serde(default)]
    picture: Option<Picture>,
}

#[derive(Deserialize)]
struct FileEdge {
    source: Id,
    target: Id,
    #[serde(default, rename = "move")]
    notation: Option<String>,
}

/// What a node or an edge read from a file holds: its size, and what it holds on the
/// heap; the slot of the [`Meter`] that counts its list.
trait Weigh {
    const SLOT: usize;
    fn heap(&self) -> u64;
}

impl Weigh for FileNode {
    const SLOT: usize = NODES;
    fn heap(&self) -> u64 {
        let text = |t: &Option<String>| t.as_deref().map_or(0, heap);
        let result = match &self.result {
            Some(FileResult::Words(w) | FileResult::Other(w)) => heap(w),
            Some(FileResult::Points(p)) => 16 + 4 * p.capacity() as u64,
            _ => 0,
        };
        let shapes = self.picture.as_ref().map_or(0, |p| {
            p.shapes.capacity() as u64 * std::mem::size_of::<crate::picture::Shape>() as u64 + 64
        });
        self.id.as_ref().map_or(0, Id::heap)
            + text(&self.position)
            + text(&self.player)
            + text(&self.board)
            + shapes
            + result
            + self.points.as_ref().map_or(0, |p| 16 + 4 * p.0.capacity() as u64)
    }
}

impl Weigh for FileEdge {
    const SLOT: usize = EDGES;
    fn heap(&self) -> u64 {
        self.source.heap() + self.target.heap() + self.notation.as_deref().map_or(0, heap)
    }
}

/// The slots of a [`Meter`]: the file's text, its nodes, its edges, and the graph built.
const TEXT: usize = 0;
const NODES: usize = 1;
const EDGES: usize = 2;
const BUILT: usize = 3;

/// Counts the memory that reading a file takes as it reads, against a budget: refuses
/// once it is over the budget's memory, or the budget's time is up or its work stopped.
struct Meter {
    budget: Budget,
    limit: u64,
    deadline: Option<Instant>,
    /// What is read, for the refusal: `reading graph file PATH (SIZE)`.
    what: String,
    held: [u64; 4],
    ticks: u32,
    /// Whether it refused: the refusal is then the reading's error.
    refused: bool,
}

impl Meter {
    fn new(budget: &Budget, what: String) -> Meter {
        Meter {
            budget: budget.clone(),
            limit: budget.bytes(),
            deadline: budget.clock().deadline,
            what,
            held: [0; 4],
            ticks: 0,
            refused: false,
        }
    }

    /// Counts `bytes` held in `slot` now, refusing when the whole is over the budget.
    fn hold(&mut self, slot: usize, bytes: u64) -> Result<(), Error> {
        self.held[slot] = bytes;
        self.ticks = self.ticks.wrapping_add(1);
        let total = self.held.iter().fold(0u64, |a, &b| a.saturating_add(b));
        let late = self.ticks.is_multiple_of(1024)
            && (self.budget.cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d));
        if total > self.limit || late {
            return Err(self.refusal());
        }
        Ok(())
    }

    fn refusal(&mut self) -> Error {
        self.refused = true;
        self.budget.stopped(&self.what)
    }
}

thread_local! {
    /// The meter of the JSON file this thread is reading, if any.
    static METER: RefCell<Option<Meter>> = const { RefCell::new(None) };
}

/// A list of nodes or edges, counted on the thread's [`METER`] as it is read.
fn metered<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Weigh,
{
    struct V<T>(PhantomData<T>);
    impl<'de, T: Deserialize<'de> + Weigh> Visitor<'de> for V<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out: Vec<T> = Vec::new();
            let mut heap = 0u64;
            while let Some(x) = seq.next_element::<T>()? {
                heap += x.heap();
                out.push(x);
                let bytes = (out.capacity() * std::mem::size_of::<T>()) as u64 + heap;
                METER
                    .with_borrow_mut(|m| m.as_mut().map_or(Ok(()), |m| m.hold(T::SLOT, bytes)))
                    .map_err(|e| de::Error::custom(e.to_string()))?;
            }
            Ok(out)
        }
    }
    d.deserialize_seq(V(PhantomData))
}

/// Reads the graph file at `path` (GraphML when its name ends in `.graphml` or `.xml`,
/// else node-link JSON), naming the graph `name`, within the machine's memory.
pub fn read(path: &Path, name: &str) -> Result<GameGraph, Error> {
    read_within(path, name, &Budget::default())
}

/// Reads the graph file at `path` as [`read`] does, within `budget`: a file that is not
/// a regular file is refused, one larger than the budget's memory is refused before it is
/// read, and what reading it takes (its text, then its nodes and edges, then the graph
/// built) is counted as it reads and refused past the budget, as is reading past the
/// budget's time.
pub fn read_within(path: &Path, name: &str, budget: &Budget) -> Result<GameGraph, Error> {
    let (file, mut meter) = parse(path, budget)?;
    built(path, file, name, &mut meter, None)
}

/// What a saved graph must be to be read back by [`read_saved`]: its version and what it
/// was made from, and the extras its nodes get where the file gives none.
pub struct Saved<'a> {
    pub version: &'a str,
    pub source: &'a str,
    pub extras: Option<Arc<dyn NodeExtras>>,
}

/// Reads back a graph [`write`] saved at `path`, within `budget`, named as it was saved:
/// refused (as [`read_within`] refuses a file) when it is damaged, and when it was saved
/// for another version or from another source than `saved` says.
pub fn read_saved(path: &Path, budget: &Budget, saved: Saved<'_>) -> Result<GameGraph, Error> {
    let (file, mut meter) = parse(path, budget)?;
    let shown = path.display();
    let version = file.version.as_ref().map(|Text(v)| v.as_str());
    if file.source.as_deref() != Some(saved.source) {
        return Err(Error::Spec(format!(
            "graph file {shown} was saved for another game"
        )));
    }
    if version != Some(saved.version) {
        return Err(Error::Spec(format!(
            "graph file {shown} is version {}, not {}",
            version.unwrap_or("none"),
            saved.version
        )));
    }
    let name = file.name.clone().unwrap_or_else(|| "graph".into());
    built(path, file, &name, &mut meter, saved.extras)
}

/// The start of a zstd frame: a compressed file.
const ZSTD: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// The graph file at `path` parsed within `budget`, and the meter counting it.
fn parse(path: &Path, budget: &Budget) -> Result<(FileGraph, Meter), Error> {
    let shown = path.display();
    let io = |why: String| Error::Io(format!("graph file {shown}: {why}"));
    let file = crate::table::open_regular(path, std::fs::OpenOptions::new().read(true))
        .map_err(|e| io(e.to_string()))?;
    let size = file.metadata().map_err(|e| io(e.to_string()))?.len();
    let mut meter = Meter::new(
        budget,
        format!("reading graph file {shown} ({})", bytes_text(size)),
    );
    // The file's text is held whole while it is parsed: a file larger than the budget is
    // refused before it is read, and one that grows while it is read once it passes it.
    meter.hold(TEXT, size)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(size as usize)
        .map_err(|_| meter.refusal())?;
    file.take(meter.limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    meter.hold(TEXT, bytes.capacity() as u64)?;
    let spec = |why: String| Error::Spec(format!("graph file {shown}: {why}"));
    if bytes.starts_with(&ZSTD) {
        let mut text = Vec::new();
        let decoder = zstd::stream::read::Decoder::new(&bytes[..]).map_err(|e| spec(e.to_string()))?;
        let left = meter.limit.saturating_sub(bytes.len() as u64);
        decoder
            .take(left.saturating_add(1))
            .read_to_end(&mut text)
            .map_err(|e| spec(format!("it is damaged ({e})")))?;
        meter.hold(TEXT, (bytes.capacity() + text.capacity()) as u64)?;
        bytes = text;
    }
    let graphml = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("graphml") || e.eq_ignore_ascii_case("xml"));
    let parsed = if graphml {
        match std::str::from_utf8(&bytes) {
            Ok(text) => graphml::parse(text, &mut meter),
            Err(_) => Err(spec("it is not UTF-8 text".into())),
        }
    } else {
        METER.set(Some(meter));
        let parsed = serde_json::from_slice::<FileGraph>(&bytes);
        meter = METER.take().expect("the meter is set");
        match parsed {
            Ok(file) => Ok(file),
            Err(_) if meter.refused => Err(meter.refusal()),
            Err(e) => Err(spec(e.to_string())),
        }
    };
    let file = parsed.map_err(|e| match e {
        Error::Spec(why) if !why.starts_with("graph file ") => spec(why),
        e => e,
    })?;
    drop(bytes);
    meter.hold(TEXT, 0)?;
    Ok((file, meter))
}

/// The graph a parsed file describes, named `name`; its errors name the file.
fn built(
    path: &Path,
    file: FileGraph,
    name: &str,
    meter: &mut Meter,
    extras: Option<Arc<dyn NodeExtras>>,
) -> Result<GameGraph, Error> {
    build(file, name, meter, extras).map_err(|e| match e {
        Error::Spec(why) => Error::Spec(format!("graph file {}: {why}", path.display())),
        e => e,
    })
}

/// Saves `graph` at `path` as zstd-compressed node-link JSON (checksummed), in one step:
/// a reader finds the whole file or none. It holds the graph's name, version, seats and
/// `source` (what it was made from, for [`read_saved`] to check), every node's position,
/// seat to move, end, heuristic and picture, with `boards` its board, and every move.
pub fn write(graph: &GameGraph, path: &Path, source: &str, boards: bool) -> Result<(), Error> {
    use std::io::Write as _;
    let io = |e: std::io::Error| Error::Io(format!("graph file {}: {e}", path.display()));
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(io)?;
    }
    let part = path.with_extension(format!("{}.part", std::process::id()));
    let file = std::fs::File::create(&part).map_err(io)?;
    let mut zip = zstd::stream::write::Encoder::new(std::io::BufWriter::new(file), 3).map_err(io)?;
    zip.include_checksum(true).map_err(io)?;
    let mut out = std::io::BufWriter::new(zip);
    let d = &graph.d;
    write!(
        out,
        "{{\"name\":{},\"source\":{},\"version\":{},\"seats\":{},\"players\":{},\"nodes\":[",
        json(&d.name),
        json(source),
        json(&d.version),
        graph.seats(),
        json(&d.seat_names)
    )
    .map_err(io)?;
    for node in 0..graph.nodes() as NodeId {
        let sep = if node == 0 { "" } else { "," };
        write!(
            out,
            "{sep}{{\"position\":{},\"seat\":{}",
            json(graph.text(node)),
            graph.mover(node)
        )
        .map_err(io)?;
        match graph.end(node) {
            None => {}
            Some(End::Draw) => write!(out, ",\"result\":\"draw\"").map_err(io)?,
            Some(End::Win(seat)) => write!(out, ",\"winner\":{seat}").map_err(io)?,
            Some(End::Points(points)) => write!(out, ",\"points\":{}", json(&points)).map_err(io)?,
        }
        if let Some(&h) = d.heuristics.get(node as usize).filter(|&&h| h != 0) {
            write!(out, ",\"heuristic\":{h}").map_err(io)?;
        }
        if let Some(extras) = &d.extras {
            if let Some(board) = extras.render(graph, node).filter(|_| boards) {
                write!(out, ",\"board\":{}", json(&board)).map_err(io)?;
            }
            if let Some(picture) = extras.picture(graph, node) {
                write!(out, ",\"picture\":{}", json(&picture)).map_err(io)?;
            }
        }
        write!(out, "}}").map_err(io)?;
    }
    write!(out, "],\"edges\":[").map_err(io)?;
    for node in 0..graph.nodes() as NodeId {
        for e in graph.moves_of(node) {
            let sep = if e == 0 { "" } else { "," };
            write!(
                out,
                "{sep}{{\"source\":{node},\"target\":{},\"move\":{}}}",
                graph.target(e),
                json(graph.move_text(e))
            )
            .map_err(io)?;
        }
    }
    write!(out, "]}}").map_err(io)?;
    let zip = out.into_inner().map_err(|e| io(e.into_error()))?;
    let mut file = zip.finish().map_err(io)?;
    file.flush().map_err(io)?;
    drop(file);
    std::fs::rename(&part, path).map_err(io)
}

/// A value as JSON text.
fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("texts, numbers and pictures are JSON")
}

/// The boards and pictures a file gives its nodes.
struct FileExtras {
    boards: Vec<Option<String>>,
    pictures: Vec<Option<Picture>>,
}

impl NodeExtras for FileExtras {
    fn render(&self, _: &GameGraph, node: NodeId) -> Option<String> {
        self.boards.get(node as usize).cloned().flatten()
    }

    fn picture(&self, _: &GameGraph, node: NodeId) -> Option<Picture> {
        self.pictures.get(node as usize).cloned().flatten()
    }
}

/// A seat number from a file, checked.
fn seat_of(n: u64, what: &str) -> Result<PlayerId, Error> {
    u8::try_from(n)
        .ok()
        .filter(|&s| usize::from(s) < MAX_SEATS)
        .ok_or_else(|| Error::Spec(format!("{what}: seat {n} is out of range 0..{MAX_SEATS}")))
}

/// The graph a parsed file describes, counting on `meter` what building it holds.
fn build(
    file: FileGraph,
    name: &str,
    meter: &mut Meter,
    extras: Option<Arc<dyn NodeExtras>>,
) -> Result<GameGraph, Error> {
    let FileGraph {
        version,
        seats: given_seats,
        players,
        nodes,
        edges,
        ..
    } = file;
    // The seats are checked before anything is sized by them.
    if let Some(s) = given_seats.filter(|&s| !(2..=MAX_SEATS as u64).contains(&s)) {
        return Err(Error::Spec(format!(
            "\"seats\" is {s}: a graph has 2 to {MAX_SEATS} seats"
        )));
    }
    // The seats' names: listed, else as the nodes name their movers.
    let mut names: Vec<Option<String>> = players
        .map(|p| p.0)
        .unwrap_or_default()
        .into_iter()
        .map(Some)
        .collect();
    let mut seats = (given_seats.unwrap_or(0) as usize).max(names.len()).max(2);
    for (i, node) in nodes.iter().enumerate() {
        if let Some(seat) = node.seat {
            let seat = usize::from(seat_of(seat, &format!("node {i}"))?);
            seats = seats.max(seat + 1);
            if names.len() <= seat {
                names.resize(seat + 1, None);
            }
            if names[seat].is_none() {
                names[seat].clone_from(&node.player);
            }
        }
        seats = seats.max(node.points.as_ref().map_or(0, |p| p.0.len()));
    }
    if given_seats.is_some_and(|s| (s as usize) < seats) {
        return Err(Error::Spec(format!(
            "\"seats\" is {}, but the nodes use {seats}",
            given_seats.unwrap_or(0)
        )));
    }
    names.resize(seats, None);
    let names: Vec<String> = names
        .into_iter()
        .enumerate()
        .map(|(s, n)| n.unwrap_or_else(|| format!("player {}", s + 1)))
        .collect();
    let mut b = GraphBuilder::new(name, seats)?;
    if let Some(Text(version)) = &version {
        b.set_version(version)?;
    }
    b.set_seat_names(names.clone())?;
    let mut ids: FxHashMap<Id, u32> = FxHashMap::default();
    let mut texts: Vec<String> = Vec::with_capacity(nodes.len());
    let drawn = nodes.iter().any(|n| n.board.is_some() || n.picture.is_some());
    let (mut boards, mut pictures) = (Vec::new(), Vec::new());
    // What the ids, the texts and the builder hold, counted every so many nodes and edges.
    let built = |ids: &FxHashMap<Id, u32>, texts: &Vec<String>, b: &GraphBuilder| {
        (ids.capacity() * (std::mem::size_of::<(Id, u32)>() + 1) + texts.capacity() * 24) as u64
            + b.held_bytes()
    };
    for (i, node) in nodes.into_iter().enumerate() {
        let id = node.id.clone().unwrap_or(Id::Number(i as u64));
        let what = format!("node {}", id.text());
        let end = end_of(&node, &names, &what)?;
        let seat = match (node.seat, &end) {
            (Some(s), _) => seat_of(s, &what)?,
            (None, Some(_)) => 0,
            (None, None) => return Err(Error::Spec(format!("{what} has no \"seat\" (the seat to move)"))),
        };
        let text = node.position.unwrap_or_else(|| id.text());
        let n = b.node(&text, seat, end)?;
        if let Some(h) = node.heuristic {
            b.set_heuristic(n, h)?;
        }
        if drawn {
            boards.push(node.board);
            pictures.push(node.picture);
        }
        texts.push(text);
        if ids.insert(id, n).is_some() {
            return Err(Error::Spec(format!("{what} is listed twice")));
        }
        if i % 4096 == 4095 {
            meter.hold(BUILT, built(&ids, &texts, &b))?;
        }
    }
    for (i, edge) in edges.iter().enumerate() {
        let find = |id: &Id| {
            ids.get(id).copied().ok_or_else(|| {
                Error::Spec(format!(
                    "edge {i} ({} -> {}): node {} does not exist",
                    edge.source.text(),
                    edge.target.text(),
                    id.text()
                ))
            })
        };
        let (from, to) = (find(&edge.source)?, find(&edge.target)?);
        let text = edge.notation.as_deref().unwrap_or(&texts[to as usize]);
        b.edge(from, to, text)?;
        if i % 4096 == 4095 {
            meter.hold(BUILT, built(&ids, &texts, &b))?;
        }
    }
    if drawn {
        b.set_extras(Arc::new(FileExtras { boards, pictures }));
    } else if let Some(extras) = extras {
        b.set_extras(extras);
    }
    // What the file held is let go; building takes the builder and its arrays.
    drop((ids, texts, edges));
    meter.hold(NODES, 0)?;
    meter.hold(EDGES, 0)?;
    meter.hold(BUILT, b.held_bytes() + b.build_bytes())?;
    b.build()
}

/// How the game ended at `node`, by its `result`, `winner` or `points`, checked against
/// its `terminal`.
fn end_of(node: &FileNode, names: &[String], what: &str) -> Result<Option<End>, Error> {
    let bad = |why: String| Error::Spec(format!("{what}: {why}"));
    let by_result = match &node.result {
        None => None,
        Some(FileResult::Seat(n)) => Some(End::Win(seat_of(*n, what)?)),
        Some(FileResult::Points(points)) => Some(End::Points(points.clone())),
        Some(FileResult::Words(text)) => Some(result_words(text, names).ok_or_else(|| {
            bad(format!(
                "result '{text}' is none of \"draw\", \"NAME wins\" (names: {})",
                names.join(", ")
            ))
        })?),
        Some(FileResult::Other(other)) => return Err(bad(format!("result {other} is no result"))),
    };
    // Points tell more than a result in words.
    let end = match (&node.points, node.winner) {
        (Some(points), _) => Some(End::Points(points.0.clone())),
        (None, Some(w)) => Some(End::Win(seat_of(w, what)?)),
        (None, None) => by_result,
    };
    match (node.terminal, &end) {
        (Some(true), None) => Err(bad("terminal, but it has no result, winner or points".into())),
        (Some(false), Some(_)) => Err(bad("not terminal, but it has a result".into())),
        _ => Ok(end),
    }
}

/// The end that words of `zermelo graph` tell: `draw`, `NAME wins`, `A and B share the win`.
fn result_words(text: &str, names: &[String]) -> Option<End> {
    let text = text.trim();
    let seat = |name: &str| {
        names.iter().position(|n| n == name).or_else(|| {
            let n: usize = name.strip_prefix("player ")?.parse().ok()?;
            (1..=names.len()).contains(&n).then(|| n - 1)
        })
    };
    if text.eq_ignore_ascii_case("draw") {
        return Some(End::Draw);
    }
    if let Some(name) = text.strip_suffix(" wins") {
        return seat(name).map(|s| End::Win(s as PlayerId));
    }
    let sharing = text.strip_suffix(" share the win")?;
    let mut points = vec![0; names.len()];
    for name in sharing.split(" and ") {
        points[seat(name)?] = 1;
    }
    Some(End::Points(points))
}

/// GraphML as `zermelo graph --format graphml` writes it: the attributes of the JSON
/// document as `data` under declared keys (lists as JSON text). Its tags are read one at
/// a time, each node and edge counted on the meter as it is added.
mod graphml {
    use super::{FileEdge, FileGraph, FileNode, FileResult, Id, Meter, PerSeat, Text, Weigh};
    use crate::Error;
    use rustc_hash::FxHashMap;

    /// One tag: its name (with `/` first for a closing tag), its attributes, whether it
    /// closes itself (`<node .../>`), and the text after it up to the next tag.
    struct Tag<'a> {
        name: &'a str,
        attrs: Vec<(&'a str, String)>,
        closed: bool,
        text: &'a str,
    }

    impl Tag<'_> {
        fn attr(&self, key: &str) -> Option<&str> {
            self.attrs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.as_str())
        }
    }

    fn unescape(text: &str) -> String {
        if !text.contains('&') {
            return text.to_string();
        }
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&")
    }

    /// The tags of an XML text one by one, with comments, declarations and processing
    /// instructions left out.
    struct Tags<'a> {
        rest: &'a str,
    }

    impl<'a> Tags<'a> {
        fn next_tag(&mut self) -> Result<Option<Tag<'a>>, String> {
            loop {
                let Some(open) = self.rest.find('<') else {
                    return Ok(None);
                };
                let rest = &self.rest[open + 1..];
                if let Some(comment) = rest.strip_prefix("!--") {
                    let end = comment.find("-->").ok_or("a comment does not end")?;
                    self.rest = &comment[end + 3..];
                    continue;
                }
                let end = rest.find('>').ok_or("a tag does not end")?;
                let inside = &rest[..end];
                let rest = &rest[end + 1..];
                self.rest = rest;
                if inside.starts_with(['?', '!']) {
                    continue;
                }
                let closed = inside.ends_with('/');
                let inside = inside.strip_suffix('/').unwrap_or(inside);
                let name_end = inside.find(char::is_whitespace).unwrap_or(inside.len());
                let name = &inside[..name_end];
                let mut attrs = Vec::new();
                let mut a = inside[name_end..].trim_start();
                while let Some(eq) = a.find('=') {
                    let key = a[..eq].trim();
                    let value = a[eq + 1..].trim_start();
                    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'');
                    let quote = quote.ok_or_else(|| format!("attribute {key} of <{name}> is not quoted"))?;
                    let close = value[1..]
                        .find(quote)
                        .ok_or_else(|| format!("attribute {key} of <{name}> does not end"))?;
                    attrs.push((key, unescape(&value[1..1 + close])));
                    a = value[close + 2..].trim_start();
                }
                let text = &rest[..rest.find('<').unwrap_or(rest.len())];
                return Ok(Some(Tag {
                    name,
                    attrs,
                    closed,
                    text,
                }));
            }
        }
    }

    /// Adds `item` to `list`, counting the list on `meter`.
    fn push<T: Weigh>(list: &mut Vec<T>, heap: &mut u64, item: T, meter: &mut Meter) -> Result<(), Error> {
        *heap += item.heap();
        list.push(item);
        meter.hold(
            T::SLOT,
            (list.capacity() * std::mem::size_of::<T>()) as u64 + *heap,
        )
    }

    /// The node-link graph a GraphML text holds.
    pub(super) fn parse(xml: &str, meter: &mut Meter) -> Result<FileGraph, Error> {
        let spec = Error::Spec;
        let mut tags = Tags { rest: xml };
        // Key id -> attribute name.
        let mut keys: FxHashMap<String, String> = FxHashMap::default();
        let mut graph = FileGraph::default();
        let (mut node_heap, mut edge_heap) = (0, 0);
        // Attributes of the element open now: graph, node or edge.
        let mut node: Option<FileNode> = None;
        let mut edge: Option<FileEdge> = None;
        while let Some(tag) = tags.next_tag().map_err(spec)? {
            let mut node_done = false;
            let mut edge_done = false;
            match tag.name {
                "key" => {
                    let id = tag.attr("id").ok_or(spec("a <key> has no id".into()))?;
                    let name = tag.attr("attr.name").unwrap_or(id);
                    if keys.len() >= 1024 && !keys.contains_key(id) {
                        return Err(spec("more than 1024 <key>s".into()));
                    }
                    keys.insert(id.to_string(), name.to_string());
                }
                "node" => {
                    let id = tag.attr("id").ok_or(spec("a <node> has no id".into()))?;
                    node = Some(FileNode {
                        id: Some(Id::Text(id.to_string())),
                        ..FileNode::default()
                    });
                    node_done = tag.closed;
                }
                "/node" => node_done = true,
                "edge" => {
                    let end = |k: &str| {
                        tag.attr(k)
                            .map(|v| Id::Text(v.to_string()))
                            .ok_or_else(|| spec(format!("an <edge> has no {k}")))
                    };
                    edge = Some(FileEdge {
                        source: end("source")?,
                        target: end("target")?,
                        notation: None,
                    });
                    edge_done = tag.closed;
                }
                "/edge" => edge_done = true,
                "data" => {
                    let key = tag.attr("key").ok_or(spec("a <data> has no key".into()))?;
                    let name = keys.get(key).map_or(key, String::as_str);
                    let value = unescape(tag.text);
                    let bad = || spec(format!("<data key=\"{key}\"> holds '{value}'"));
                    let number = || value.trim().parse::<u64>().map_err(|_| bad());
                    let points = || {
                        serde_json::from_str::<PerSeat<i32>>(&value).map_err(|e| match e.is_data() {
                            true => spec(format!("<data key=\"{key}\">: {e}")),
                            false => bad(),
                        })
                    };
                    if let Some(e) = edge.as_mut() {
                        if name == "move" {
                            e.notation = Some(value);
                        }
                    } else if let Some(n) = node.as_mut() {
                        match name {
                            "position" => n.position = Some(value),
                            "seat" => n.seat = Some(number()?),
                            "player" => n.player = Some(value),
                            "terminal" => n.terminal = Some(value.trim() == "true"),
                            "result" => n.result = Some(FileResult::Words(value)),
                            "winner" => n.winner = Some(number()?),
                            "points" => n.points = Some(points()?),
                            _ => {}
                        }
                    } else {
                        match name {
                            "seats" => graph.seats = Some(number()?),
                            "players" => {
                                let names = serde_json::from_str::<PerSeat<String>>(&value);
                                graph.players = Some(names.map_err(|e| match e.is_data() {
                                    true => spec(format!("<data key=\"{key}\">: {e}")),
                                    false => bad(),
                                })?);
                            }
                            "version" => graph.version = Some(Text(value)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            if node_done {
                if let Some(n) = node.take() {
                    push(&mut graph.nodes, &mut node_heap, n, meter)?;
                }
            }
            if edge_done {
                if let Some(e) = edge.take() {
                    push(&mut graph.edges, &mut edge_heap, e, meter)?;
                }
            }
        }
        if graph.nodes.is_empty() {
            return Err(spec("no <node> found".into()));
        }
        Ok(graph)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` written to a file of this test's own named `name`, read within `memory`.
    fn read_text(name: &str, text: &str, memory: Option<u64>) -> Result<GameGraph, Error> {
        let dir = std::env::temp_dir().join(format!("zermelo-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let budget = Budget {
            memory,
            ..Budget::default()
        };
        let read = read_within(&path, "g", &budget);
        let _ = std::fs::remove_file(&path);
        read
    }

    const TWO: &str = r#""nodes": [{"seat": 0}, {"points": [1, 0]}], "edges": [{"source": 0, "target": 1}]"#;

    #[test]
    fn versions_read_as_json_writes_them() {
        for (version, text) in [("\"a-1\"", "a-1"), ("1.0", "1.0"), ("2", "2"), ("true", "true")] {
            let graph = read_text("v.json", &format!("{{\"version\": {version}, {TWO}}}"), None).unwrap();
            assert_eq!(graph.version(), text);
        }
        let e = read_text("v.json", &format!("{{\"version\": [1, 2], {TWO}}}"), None).unwrap_err();
        assert!(e.to_string().contains("a text or a number"), "{e}");
    }

    #[test]
    fn results_read_as_a_seat_words_or_points() {
        let node = |result: &str| {
            format!(
                r#"{{"nodes": [{{"seat": 0}}, {{"result": {result}}}], "edges": [{{"source": 0, "target": 1}}]}}"#
            )
        };
        let end = |result: &str| read_text("r.json", &node(result), None).map(|g| g.end(1));
        assert_eq!(end("1").unwrap(), Some(End::Win(1)));
        assert_eq!(end("\"draw\"").unwrap(), Some(End::Draw));
        assert_eq!(end("[3, 4]").unwrap(), Some(End::Points(vec![3, 4])));
        for bad in ["-1", "1.5", "true", "[1.5, 2]", "{}"] {
            let e = end(bad).unwrap_err().to_string();
            assert!(e.contains("r.json") && !e.contains('\n'), "{bad}: {e}");
        }
    }

    /// A graph with every kind of end, heuristics and pictures, saved by `write`.
    fn saved_graph(dir: &Path) -> (GameGraph, std::path::PathBuf) {
        struct Drawn;
        impl NodeExtras for Drawn {
            fn render(&self, _: &GameGraph, node: NodeId) -> Option<String> {
                Some(format!("board {node}\n"))
            }
            fn picture(&self, _: &GameGraph, node: NodeId) -> Option<Picture> {
                let shape = crate::picture::Shape::new(crate::picture::Kind::Cell, 0.0, 0.0, 1.0, 1.0);
                (node == 1).then(|| Picture {
                    width: 1.0,
                    height: 1.0,
                    shapes: vec![shape.label("x").plays("b")],
                    notes: vec![],
                })
            }
        }
        let mut b = GraphBuilder::new("saved-1", 3).unwrap();
        b.set_version("7").unwrap();
        b.set_seat_names(vec!["a".into(), "b \"quoted\"".into(), "c".into()])
            .unwrap();
        let start = b.node("start é", 0, None).unwrap();
        let two = b.node("two", 2, None).unwrap();
        let won = b.node("won", 1, Some(End::Win(1))).unwrap();
        let drawn = b.node("drawn", 0, Some(End::Draw)).unwrap();
        let points = b.node("points", 0, Some(End::Points(vec![3, -1, 2]))).unwrap();
        b.set_heuristic(two, -5).unwrap();
        b.set_extras(Arc::new(Drawn));
        b.edge(start, two, "a").unwrap();
        b.edge(start, won, "b").unwrap();
        b.edge(two, start, "back").unwrap();
        b.edge(two, drawn, "d").unwrap();
        b.edge(two, points, "p").unwrap();
        let graph = b.build().unwrap();
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join("saved.json.zst");
        write(&graph, &path, "made-from", true).unwrap();
        (graph, path)
    }

    fn expected(version: &str, source: &str) -> Saved<'static> {
        let (version, source) = (version.to_string().leak(), source.to_string().leak());
        Saved {
            version,
            source,
            extras: None,
        }
    }

    #[test]
    fn a_saved_graph_reads_back_the_same() {
        let dir = std::env::temp_dir().join(format!("zermelo-saved-{}", std::process::id()));
        let (graph, path) = saved_graph(&dir);
        let read = read_saved(&path, &Budget::default(), expected("7", "made-from")).unwrap();
        assert_eq!(read.name(), "saved-1");
        assert_eq!(read.version(), "7");
        assert_eq!(read.seat_names(), graph.seat_names());
        assert_eq!(read.content_hash(), graph.content_hash());
        for node in 0..graph.nodes() as NodeId {
            assert_eq!(read.text(node), graph.text(node));
            assert_eq!(read.mover(node), graph.mover(node));
            assert_eq!(read.end(node), graph.end(node));
            use crate::game::{Game, Notation};
            assert_eq!(Game::heuristic(&read, &node), Game::heuristic(&graph, &node));
            assert_eq!(Notation::render(&read, &node), Notation::render(&graph, &node));
            assert_eq!(Notation::picture(&read, &node), Notation::picture(&graph, &node));
            let moves = |g: &GameGraph| {
                g.moves_of(node)
                    .map(|e| (g.target(e), g.move_text(e).to_string()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(moves(&read), moves(&graph));
        }
        // The library's own reader takes it too.
        assert_eq!(read_within(&path, "g", &Budget::default()).unwrap().nodes(), 5);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_saved_graph_of_another_game_version_or_damaged_is_refused() {
        let dir = std::env::temp_dir().join(format!("zermelo-refused-{}", std::process::id()));
        let (_, path) = saved_graph(&dir);
        let refused = |version: &str, source: &str| {
            read_saved(&path, &Budget::default(), expected(version, source))
                .unwrap_err()
                .to_string()
        };
        assert!(refused("7", "another").contains("was saved for another game"));
        assert!(refused("8", "made-from").contains("is version 7, not 8"));
        let bytes = std::fs::read(&path).unwrap();
        let mut damaged = bytes.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 0x55;
        for broken in [
            damaged,
            bytes[..bytes.len() - 3].to_vec(),
            b"{\"nodes\": [".to_vec(),
        ] {
            std::fs::write(&path, broken).unwrap();
            let e = refused("7", "made-from");
            assert!(e.contains("graph file ") && !e.contains('\n'), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_over_the_budget_is_refused_as_it_is_read() {
        let nodes: Vec<String> = (0..10_000)
            .map(|i| format!("{{\"id\": {i}, \"seat\": 0}}"))
            .collect();
        let text = format!("{{\"nodes\": [{}]}}", nodes.join(","));
        for memory in [1000, text.len() as u64 + 1000] {
            let e = read_text("big.json", &text, Some(memory)).unwrap_err();
            assert!(matches!(e, Error::TooBig(_)), "{e}");
            assert!(
                e.to_string().contains("reading graph file") && e.to_string().contains("big.json"),
                "{e}"
            );
        }
    }
}
