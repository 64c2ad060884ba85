//! Graph files: the node-link JSON that `zermelo graph --format json` writes, and its
//! GraphML, read into a [`GameGraph`]. The first node is the start. A node needs its
//! `seat` (the seat to move, from 0) unless the game has ended there; it ends where it
//! has a `result` (`"draw"`, `"NAME wins"`, a winning seat's number, or a list of points
//! per seat), a `winner` (a seat) or `points` (one number per seat). Everything else is
//! optional: `id` (by default the node's place in the list), `position` (by default the
//! id), an edge's `move` (by default the text of the node it leads to); the graph's
//! `seats`, `players` (the seats' names) and `version`.

use std::path::Path;

use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::Value as Json;

use super::{End, GameGraph, GraphBuilder, MAX_SEATS};
use crate::game::PlayerId;
use crate::Error;

/// A node or edge's reference to a node: a number or a text.
#[derive(Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(untagged)]
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
}

#[derive(Deserialize, Default)]
struct FileGraph {
    #[serde(default)]
    version: Option<Json>,
    #[serde(default)]
    seats: Option<usize>,
    #[serde(default)]
    players: Option<Vec<String>>,
    nodes: Vec<FileNode>,
    #[serde(default, alias = "links")]
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
    result: Option<Json>,
    #[serde(default)]
    winner: Option<u64>,
    #[serde(default)]
    points: Option<Vec<i32>>,
}

#[derive(Deserialize)]
struct FileEdge {
    source: Id,
    target: Id,
    #[serde(default, rename = "move")]
    notation: Option<String>,
}

/// Reads the graph file at `path` (GraphML when its name ends in `.graphml` or `.xml`,
/// else node-link JSON), naming the graph `name`.
pub fn read(path: &Path, name: &str) -> Result<GameGraph, Error> {
    let shown = path.display();
    let io = |why: String| Error::Io(format!("graph file {shown}: {why}"));
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io("is not a file".into()));
    }
    let bytes = std::fs::read(path).map_err(|e| io(e.to_string()))?;
    let graphml = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("graphml") || e.eq_ignore_ascii_case("xml"));
    let parsed = if graphml {
        let text = std::str::from_utf8(&bytes).map_err(|_| "it is not UTF-8 text".to_string());
        text.and_then(graphml::parse)
    } else {
        serde_json::from_slice::<FileGraph>(&bytes).map_err(|e| e.to_string())
    };
    let file = parsed.map_err(|why| Error::Spec(format!("graph file {shown}: {why}")))?;
    build(file, name).map_err(|e| match e {
        Error::Spec(why) => Error::Spec(format!("graph file {shown}: {why}")),
        e => e,
    })
}

/// A seat number from a file, checked.
fn seat_of(n: u64, what: &str) -> Result<PlayerId, Error> {
    u8::try_from(n)
        .ok()
        .filter(|&s| usize::from(s) < MAX_SEATS)
        .ok_or_else(|| Error::Spec(format!("{what}: seat {n} is out of range 0..{MAX_SEATS}")))
}

/// The graph a parsed file describes.
fn build(file: FileGraph, name: &str) -> Result<GameGraph, Error> {
    // The seats' names: listed, else as the nodes name their movers.
    let mut names: Vec<Option<String>> = file.players.iter().flatten().cloned().map(Some).collect();
    let mut seats = file.seats.unwrap_or(0).max(names.len()).max(2);
    for (i, node) in file.nodes.iter().enumerate() {
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
        seats = seats.max(node.points.as_ref().map_or(0, Vec::len));
    }
    if file.seats.is_some_and(|s| s < seats) {
        return Err(Error::Spec(format!(
            "\"seats\" is {}, but the nodes use {seats}",
            file.seats.unwrap_or(0)
        )));
    }
    names.resize(seats, None);
    let names: Vec<String> = names
        .into_iter()
        .enumerate()
        .map(|(s, n)| n.unwrap_or_else(|| format!("player {}", s + 1)))
        .collect();
    let mut b = GraphBuilder::new(name, seats)?;
    if let Some(version) = &file.version {
        b.set_version(&match version {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        })?;
    }
    b.set_seat_names(names.clone())?;
    let mut ids: FxHashMap<Id, u32> = FxHashMap::default();
    let mut texts: Vec<String> = Vec::with_capacity(file.nodes.len());
    for (i, node) in file.nodes.into_iter().enumerate() {
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
        texts.push(text);
        if ids.insert(id, n).is_some() {
            return Err(Error::Spec(format!("{what} is listed twice")));
        }
    }
    for (i, edge) in file.edges.iter().enumerate() {
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
    }
    b.build()
}

/// How the game ended at `node`, by its `result`, `winner` or `points`, checked against
/// its `terminal`.
fn end_of(node: &FileNode, names: &[String], what: &str) -> Result<Option<End>, Error> {
    let bad = |why: String| Error::Spec(format!("{what}: {why}"));
    let by_result = match &node.result {
        None | Some(Json::Null) => None,
        Some(Json::Number(n)) => Some(End::Win(seat_of(
            n.as_u64().ok_or_else(|| bad(format!("result {n} is no seat")))?,
            what,
        )?)),
        Some(Json::Array(points)) => Some(End::Points(
            points
                .iter()
                .map(|p| p.as_i64().and_then(|p| i32::try_from(p).ok()))
                .collect::<Option<Vec<i32>>>()
                .ok_or_else(|| bad("result: points are whole numbers".into()))?,
        )),
        Some(Json::String(text)) => Some(result_words(text, names).ok_or_else(|| {
            bad(format!(
                "result '{text}' is none of \"draw\", \"NAME wins\" (names: {})",
                names.join(", ")
            ))
        })?),
        Some(other) => return Err(bad(format!("result {other} is no result"))),
    };
    // Points tell more than a result in words.
    let end = match (&node.points, node.winner) {
        (Some(points), _) => Some(End::Points(points.clone())),
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
/// document as `data` under declared keys (lists as JSON text).
mod graphml {
    use super::{FileEdge, FileGraph, FileNode, Id, Json};
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
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&")
    }

    /// The tags of `xml`, with comments, declarations and processing instructions left out.
    fn tags(xml: &str) -> Result<Vec<Tag<'_>>, String> {
        let mut out = Vec::new();
        let mut rest = xml;
        while let Some(open) = rest.find('<') {
            rest = &rest[open + 1..];
            if let Some(comment) = rest.strip_prefix("!--") {
                let end = comment.find("-->").ok_or("a comment does not end")?;
                rest = &comment[end + 3..];
                continue;
            }
            let end = rest.find('>').ok_or("a tag does not end")?;
            let inside = &rest[..end];
            rest = &rest[end + 1..];
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
            out.push(Tag {
                name,
                attrs,
                closed,
                text,
            });
        }
        Ok(out)
    }

    /// The node-link graph a GraphML text holds.
    pub(super) fn parse(xml: &str) -> Result<FileGraph, String> {
        let tags = tags(xml)?;
        // Key id -> attribute name.
        let mut keys: FxHashMap<String, String> = FxHashMap::default();
        let mut graph = FileGraph::default();
        // Attributes of the element open now: graph, node or edge.
        let mut node: Option<FileNode> = None;
        let mut edge: Option<FileEdge> = None;
        for tag in &tags {
            match tag.name {
                "key" => {
                    let id = tag.attr("id").ok_or("a <key> has no id")?;
                    let name = tag.attr("attr.name").unwrap_or(id);
                    keys.insert(id.to_string(), name.to_string());
                }
                "node" => {
                    let id = tag.attr("id").ok_or("a <node> has no id")?;
                    node = Some(FileNode {
                        id: Some(Id::Text(id.to_string())),
                        ..FileNode::default()
                    });
                    if tag.closed {
                        graph.nodes.extend(node.take());
                    }
                }
                "/node" => graph.nodes.extend(node.take()),
                "edge" => {
                    let end = |k: &str| {
                        tag.attr(k)
                            .map(|v| Id::Text(v.to_string()))
                            .ok_or_else(|| format!("an <edge> has no {k}"))
                    };
                    edge = Some(FileEdge {
                        source: end("source")?,
                        target: end("target")?,
                        notation: None,
                    });
                    if tag.closed {
                        graph.edges.extend(edge.take());
                    }
                }
                "/edge" => graph.edges.extend(edge.take()),
                "data" => {
                    let key = tag.attr("key").ok_or("a <data> has no key")?;
                    let name = keys.get(key).map_or(key, String::as_str);
                    let value = unescape(tag.text);
                    let bad = || format!("<data key=\"{key}\"> holds '{value}'");
                    let number = || value.trim().parse::<u64>().map_err(|_| bad());
                    let list = || serde_json::from_str::<Json>(&value).map_err(|_| bad());
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
                            "result" => n.result = Some(Json::String(value)),
                            "winner" => n.winner = Some(number()?),
                            "points" => n.points = Some(serde_json::from_value(list()?).map_err(|_| bad())?),
                            _ => {}
                        }
                    } else {
                        match name {
                            "seats" => graph.seats = Some(number()? as usize),
                            "players" => {
                                graph.players = Some(serde_json::from_value(list()?).map_err(|_| bad())?)
                            }
                            "version" => graph.version = Some(Json::String(value)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        if graph.nodes.is_empty() {
            return Err("no <node> found".into());
        }
        Ok(graph)
    }
}
