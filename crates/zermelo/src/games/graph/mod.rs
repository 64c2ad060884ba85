//! Games given as an explicit graph ([`crate::explicit`]): read from a file written by
//! any program (`graph:file=G.json`, or GraphML), or installed while the program runs by
//! a front end that explored a game of its own (`graph:name=NAME`).

pub mod entry;
pub mod strategy;

use std::path::Path;
use std::sync::RwLock;

use rustc_hash::FxHashMap;

use crate::explicit::{check_name, file, End, GameGraph, GraphBuilder};
use crate::session::strategies::search;
use crate::session::Session;
use crate::solve::budget::Budget;
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;

const FILE: Key = Key {
    name: "file",
    values: Values::Text {
        form: "the path of a node-link JSON or GraphML file (no commas)",
        default: Preset::Else("none"),
    },
    also: None,
    help: "the graph file to read",
};
const NAME: Key = Key {
    name: "name",
    values: Values::Text {
        form: "the name a graph was installed under",
        default: Preset::Else("none"),
    },
    also: None,
    help: "a graph installed by the program (from Python)",
};

const VERSION: Key = Key {
    name: "version",
    values: Values::Text {
        form: "the graph's version",
        default: Preset::Else("none"),
    },
    also: None,
    help: "refuse the graph unless it is of this version",
};
const HASH: Key = Key {
    name: "hash",
    values: Values::Text {
        form: "16 hexadecimal digits",
        default: Preset::Else("none"),
    },
    also: None,
    help: "refuse the graph unless its content has this hash (a saved table's spec names it)",
};

/// The catalog entry.
pub const INFO: GameInfo = GameInfo {
    name: "graph",
    summary: "A game given as its graph: positions as nodes, moves as edges, read from a file or built in a program",
    how_to_play: "Play one of the moves listed from the current node; the game ends at a node that says who won.",
    keys: &[FILE, NAME, VERSION, HASH],
    players: search::PLAYERS,
};

/// The graphs installed by name.
static INSTALLED: RwLock<Option<FxHashMap<String, GameGraph>>> = RwLock::new(None);

/// Installs `graph` under its name, replacing a graph installed before under the same
/// name: the spec that opens it (`graph:name=NAME`).
pub fn install(graph: GameGraph) -> String {
    let name = graph.name().to_string();
    let mut installed = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
    installed
        .get_or_insert_with(FxHashMap::default)
        .insert(name.clone(), graph);
    format!("graph:name={name}")
}

/// The graph installed under `name`, else the built-in example of that name.
fn installed(name: &str) -> Result<GameGraph, Error> {
    let installed = INSTALLED.read().unwrap_or_else(|e| e.into_inner());
    if let Some(graph) = installed.as_ref().and_then(|all| all.get(name)) {
        return Ok(graph.clone());
    }
    match name {
        RACE => race(),
        _ => Err(Error::Spec(format!(
            "no graph is installed under the name '{name}' (built in: {RACE})"
        ))),
    }
}

/// The built-in example graph: a heap of five counters, each move taking one or two;
/// whoever takes the last one wins.
const RACE: &str = "race";

/// The graph of [`RACE`]: node `h/s` holds `h` counters with seat `s` to move.
fn race() -> Result<GameGraph, Error> {
    const HEAP: u32 = 5;
    let mut b = GraphBuilder::new(RACE, 2)?;
    // Node 2 * (HEAP - h) + s is `h/s`: the start first.
    for h in (0..=HEAP).rev() {
        for seat in 0..2 {
            let end = (h == 0).then_some(End::Win(1 - seat));
            b.node(&format!("{h}/{seat}"), seat, end)?;
        }
    }
    let id = |h: u32, seat: u32| 2 * (HEAP - h) + seat;
    for h in 1..=HEAP {
        for seat in 0..2 {
            for take in (1..=2).filter(|&t| t <= h) {
                b.edge(id(h, seat), id(h - take, 1 - seat), &take.to_string())?;
            }
        }
    }
    b.build()
}

/// Whether `spec` names a file to read (`graph:file=PATH`).
pub fn reads_file(spec: &Spec) -> bool {
    spec.name == INFO.name && spec.has(&FILE)
}

/// The graph a spec names: `graph:file=PATH` or `graph:name=NAME`, checked against the
/// spec's `version` and `hash` when it gives them.
pub fn graph_of(spec: &Spec) -> Result<GameGraph, Error> {
    graph_within(spec, &Budget::default())
}

/// The graph a spec names, as [`graph_of`], a file read within `budget`.
pub fn graph_within(spec: &Spec, budget: &Budget) -> Result<GameGraph, Error> {
    spec.check_keys(&INFO)?;
    let graph = named(spec, budget)?;
    if spec.has(&VERSION) && spec.text(&VERSION)? != graph.version() {
        return Err(Error::Spec(format!(
            "{} is version {} now, not {}",
            graph.name(),
            graph.version(),
            spec.text(&VERSION)?
        )));
    }
    let hash = format!("{:016x}", graph.content_hash());
    if spec.has(&HASH) && !spec.text(&HASH)?.eq_ignore_ascii_case(&hash) {
        return Err(Error::Spec(format!(
            "{} has changed: its content hash is {hash} now, not {}",
            graph.name(),
            spec.text(&HASH)?
        )));
    }
    Ok(graph)
}

/// The spec a graph's table is saved under: the spec naming the graph, with its version
/// and content hash, so that a changed graph never reads a stale table.
fn table_spec(spec: &Spec, graph: &GameGraph) -> Result<String, Error> {
    let source = match spec.has(&FILE) {
        true => format!("file={}", spec.text(&FILE)?),
        false => format!("name={}", spec.text(&NAME)?),
    };
    Ok(format!(
        "{}:{source},version={},hash={:016x}",
        INFO.name,
        graph.version(),
        graph.content_hash()
    ))
}

/// The graph a spec names by its file (read within `budget`) or its name.
fn named(spec: &Spec, budget: &Budget) -> Result<GameGraph, Error> {
    match (spec.has(&FILE), spec.has(&NAME)) {
        (true, false) => {
            let path = Path::new(spec.text(&FILE)?);
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let name: String = stem
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let name = if name.is_empty() {
                "graph".to_string()
            } else {
                name
            };
            file::read_within(path, &name, budget)
        }
        (false, true) => {
            let name = spec.text(&NAME)?;
            check_name(name)?;
            installed(name)
        }
        _ => Err(Error::Spec(
            "name a graph by file=PATH (a JSON or GraphML file) or name=NAME (an installed graph)".into(),
        )),
    }
}

/// Opens a spec of the family.
pub fn open(spec: &Spec) -> Result<Box<dyn Session>, Error> {
    open_within(spec, &Budget::default())
}

/// Opens a spec of the family, reading its file (if it names one) within `budget`.
pub fn open_within(spec: &Spec, budget: &Budget) -> Result<Box<dyn Session>, Error> {
    let graph = graph_within(spec, budget)?;
    let table = table_spec(spec, &graph)?;
    Ok(strategy::open(&spec.to_string(), &INFO, graph, table))
}
