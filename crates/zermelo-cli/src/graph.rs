//! `zermelo graph`: the game graph the library draws, written as Graphviz DOT, GraphML or
//! the JSON document.

use std::fmt::Write as _;
use std::path::Path;

use clap::ValueEnum;
use serde::Serialize;
use serde_json::Value as Json;
use zermelo::picture::palette;
use zermelo::session::{quantity, Graph};
use zermelo::Class;

use crate::report::{document, Report};

/// How a graph is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Graphviz DOT: arcs coloured by the player moving, nodes by their value.
    Dot,
    /// GraphML, every attribute declared by a key.
    Graphml,
    /// The JSON document of `--json`.
    Json,
}

impl Format {
    /// The format of the word `--format` takes (one of its declared words).
    pub fn named(word: &str) -> Format {
        match word {
            "graphml" => Format::Graphml,
            "json" => Format::Json,
            _ => Format::Dot,
        }
    }

    /// The format a file's name asks for: `.graphml` or `.xml` GraphML, `.json` JSON, any
    /// other DOT.
    pub fn of_path(path: &Path) -> Format {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("graphml" | "xml") => Format::Graphml,
            Some("json") => Format::Json,
            _ => Format::Dot,
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Dot => "dot",
            Format::Graphml => "graphml",
            Format::Json => "json",
        }
    }

    /// `graph` written in this format.
    pub fn write(self, graph: &Graph) -> String {
        match self {
            Format::Dot => dot(graph),
            Format::Graphml => graphml(graph),
            Format::Json => {
                let mut text = serde_json::to_string_pretty(&Document {
                    command: "graph",
                    graph,
                })
                .expect("graphs serialise");
                text.push('\n');
                text
            }
        }
    }
}

/// The JSON document of a graph, written straight from it (a large graph is not built
/// again as a JSON value first).
#[derive(Serialize)]
struct Document<'a> {
    command: &'static str,
    #[serde(flatten)]
    graph: &'a Graph,
}

/// The colour of the arcs of seat `seat` (and of its name in the legend), from
/// [`palette`].
fn seat_colour(seat: u8) -> (&'static str, &'static str) {
    let i = usize::from(seat);
    (
        palette::seat(i),
        palette::SEAT_NAMES[i % palette::SEAT_NAMES.len()],
    )
}

/// The fill of a node by its value for the player to move, from [`palette`].
fn value_fill(value: Option<Class>) -> &'static str {
    palette::outcome(value).fill
}

/// `text` as a DOT string, quotes included.
fn dot_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What a node says: its position, then its value for the player to move (or how the game
/// ended), then how many positions it stands for.
fn node_label(graph: &Graph, i: usize) -> String {
    let n = &graph.nodes[i];
    let mut label = n.position.clone();
    match (&n.result, n.value) {
        (Some(result), _) => label += &format!("\n{result}"),
        (None, Some(value)) => {
            let r = n.remoteness.map_or(String::new(), |r| format!(" in {r}"));
            label += &format!("\n{} to move: {value}{r}", n.player);
        }
        (None, None) => label += &format!("\n{} to move", n.player),
    }
    if graph.symmetry {
        let s = if n.size == 1 { "" } else { "s" };
        label += &format!("\n{} position{s}", n.size);
    }
    label
}

/// The graph in Graphviz DOT: a digraph whose nodes are `n0`, `n1`, ... (the start first),
/// filled by their value for the player to move (win blue, lose vermillion, draw grey), and
/// whose arcs are coloured by the player moving.
pub fn dot(graph: &Graph) -> String {
    let mut seats: Vec<(u8, &str)> = graph.edges.iter().map(|e| (e.seat, e.player.as_str())).collect();
    seats.sort_unstable();
    seats.dedup();
    let legend: Vec<String> = seats
        .iter()
        .map(|&(seat, player)| format!("{player} {}", seat_colour(seat).1))
        .collect();
    let up_to = if graph.symmetry { " up to symmetry" } else { "" };
    let title = format!(
        "{}{up_to}: {}, {}; arcs: {}",
        graph.game,
        quantity(graph.nodes.len(), "node"),
        quantity(graph.edges.len(), "edge"),
        if legend.is_empty() {
            "none".into()
        } else {
            legend.join(", ")
        }
    );
    let mut out = format!("digraph {} {{\n", dot_string(&graph.game));
    let _ = writeln!(out, "  graph [label={}, labelloc=t];", dot_string(&title));
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\"];\n";
    for (i, n) in graph.nodes.iter().enumerate() {
        let pen = if n.terminal { ", penwidth=2" } else { "" };
        let _ = writeln!(
            out,
            "  n{} [label={}, fillcolor=\"{}\"{pen}];",
            n.id,
            dot_string(&node_label(graph, i)),
            value_fill(n.value)
        );
    }
    for e in &graph.edges {
        let label = if e.count > 1 {
            format!("{} ×{}", e.notation, e.count)
        } else {
            e.notation.clone()
        };
        let colour = seat_colour(e.seat).0;
        let _ = writeln!(
            out,
            "  n{} -> n{} [label={}, color=\"{colour}\", fontcolor=\"{colour}\"];",
            e.source,
            e.target,
            dot_string(&label)
        );
    }
    out += "}\n";
    out
}

/// `text` with XML's special characters escaped.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The keys of a GraphML graph: id, what it is for, its name and type.
const GRAPHML_KEYS: [(&str, &str, &str, &str); 18] = [
    ("game", "graph", "game", "string"),
    ("symmetry", "graph", "symmetry", "boolean"),
    ("positions", "graph", "positions", "long"),
    ("seats", "graph", "seats", "int"),
    ("players", "graph", "players", "string"),
    ("position", "node", "position", "string"),
    ("seat", "node", "seat", "int"),
    ("player", "node", "player", "string"),
    ("terminal", "node", "terminal", "boolean"),
    ("result", "node", "result", "string"),
    ("points", "node", "points", "string"),
    ("value", "node", "value", "string"),
    ("remoteness", "node", "remoteness", "int"),
    ("size", "node", "size", "long"),
    ("move", "edge", "move", "string"),
    ("mover_seat", "edge", "seat", "int"),
    ("mover", "edge", "player", "string"),
    ("count", "edge", "count", "long"),
];

/// `value` as JSON text, for a GraphML attribute that holds a list.
fn json_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("lists serialise")
}

/// The graph in GraphML: nodes `n0`, `n1`, ... (the start first) and edges `e0`, `e1`, ...,
/// with every attribute of the JSON document as data under a declared key (absent where
/// the JSON has `null`; lists as JSON text).
pub fn graphml(graph: &Graph) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out += "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
            xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
            xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns \
            http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n";
    for (id, what, name, kind) in GRAPHML_KEYS {
        let _ = writeln!(
            out,
            "  <key id=\"{id}\" for=\"{what}\" attr.name=\"{name}\" attr.type=\"{kind}\"/>"
        );
    }
    let data = |out: &mut String, indent: &str, key: &str, value: &str| {
        let _ = writeln!(out, "{indent}<data key=\"{key}\">{}</data>", xml(value));
    };
    out += "  <graph id=\"G\" edgedefault=\"directed\">\n";
    data(&mut out, "    ", "game", &graph.game);
    data(&mut out, "    ", "symmetry", &graph.symmetry.to_string());
    data(&mut out, "    ", "positions", &graph.positions.to_string());
    data(&mut out, "    ", "seats", &graph.seats.to_string());
    data(&mut out, "    ", "players", &json_text(&graph.players));
    for n in &graph.nodes {
        let _ = writeln!(out, "    <node id=\"n{}\">", n.id);
        let d = "      ";
        data(&mut out, d, "position", &n.position);
        data(&mut out, d, "seat", &n.seat.to_string());
        data(&mut out, d, "player", &n.player);
        data(&mut out, d, "terminal", &n.terminal.to_string());
        if let Some(result) = &n.result {
            data(&mut out, d, "result", result);
        }
        if let Some(points) = &n.points {
            data(&mut out, d, "points", &json_text(points));
        }
        if let Some(value) = n.value {
            data(&mut out, d, "value", value.word());
        }
        if let Some(r) = n.remoteness {
            data(&mut out, d, "remoteness", &r.to_string());
        }
        data(&mut out, d, "size", &n.size.to_string());
        out += "    </node>\n";
    }
    for (i, e) in graph.edges.iter().enumerate() {
        let _ = writeln!(
            out,
            "    <edge id=\"e{i}\" source=\"n{}\" target=\"n{}\">",
            e.source, e.target
        );
        let d = "      ";
        data(&mut out, d, "move", &e.notation);
        data(&mut out, d, "mover_seat", &e.seat.to_string());
        data(&mut out, d, "mover", &e.player);
        data(&mut out, d, "count", &e.count.to_string());
        out += "    </edge>\n";
    }
    out += "  </graph>\n</graphml>\n";
    out
}

/// What `graph --output` prints: the graph's size, the start's value and where it went.
pub fn summary(graph: &Graph, path: &Path, format: Format) -> String {
    let terminal = graph.nodes.iter().filter(|n| n.terminal).count();
    let moves: u64 = graph.edges.iter().map(|e| e.count).sum();
    let mut text = if graph.symmetry {
        format!(
            "{} up to symmetry: {} of {} ({terminal} terminal), {} for {}\n",
            graph.game,
            quantity(graph.nodes.len(), "class"),
            quantity(graph.positions, "position"),
            quantity(graph.edges.len(), "edge"),
            quantity(moves, "move"),
        )
    } else {
        format!(
            "{}: {} ({terminal} terminal), {}\n",
            graph.game,
            quantity(graph.nodes.len(), "position"),
            quantity(moves, "move"),
        )
    };
    if let Some(start) = graph.nodes.first() {
        text += &match (start.value, start.remoteness) {
            (Some(v), Some(r)) => format!("start: {v} in {r} for {}, who moves first\n", start.player),
            (Some(v), None) => format!("start: {v} for {}, who moves first\n", start.player),
            (None, _) => format!(
                "start: {} to move (not valued: more than two players)\n",
                start.player
            ),
        };
    }
    let count = |v| graph.nodes.iter().filter(|n| n.value == Some(v)).count();
    if graph.nodes.iter().any(|n| n.value.is_some()) {
        text += &format!(
            "nodes won by the player to move: {}, lost: {}, drawn: {}\n",
            count(Class::Win),
            count(Class::Lose),
            count(Class::Draw)
        );
    }
    text += &format!("written to {} ({})\n", path.display(), format.name());
    text
}

/// The report of `graph`: without a file, the graph itself in `format`; with one, the
/// summary. With `json`, the JSON document either way (made only then).
pub fn report(graph: &Graph, format: Format, output: Option<&Path>, json: bool) -> anyhow::Result<Report> {
    let text = match output {
        Some(path) => {
            std::fs::write(path, format.write(graph))
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            summary(graph, path, format)
        }
        None if json => String::new(),
        None => format.write(graph),
    };
    let json = if json {
        document("graph", graph)
    } else {
        Json::Null
    };
    Ok(Report { text, json })
}
