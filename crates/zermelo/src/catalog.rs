//! Every game registered once: its name, keys and rules summary, its players, solvers and
//! studies, and how a spec of it opens a [`Session`]. Front ends know games only through
//! this list: the built-in games of [`CATALOG`], and the games registered while the
//! program runs ([`register`]).

use std::sync::RwLock;

use crate::explicit::GameGraph;
use crate::game::{Indexed, Notation, Symmetric};
use crate::games::{bigpoints, connect4, domineering, dots, graph, impartial, mnk, pawns};
pub use crate::games::{Entry, Opener};
use crate::session::strategies::search;
use crate::session::study::{Study, StudyInfo};
use crate::session::Session;
use crate::solve::budget::Budget;
pub use crate::spec::COMMON_PLAYERS;
use crate::spec::{GameInfo, Key, PlayerInfo, Spec};
use crate::Error;

/// What a front end lists of a game: its name, summary, how to play it, keys, players, solvers and examples.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Description {
    /// The name used in specs.
    pub name: &'static str,
    /// One line saying what the game is.
    pub summary: &'static str,
    /// One line saying how to play it.
    pub how_to_play: &'static str,
    /// The keys it accepts.
    pub keys: &'static [Key],
    /// Every player it takes.
    pub players: Vec<&'static PlayerInfo>,
    /// The solvers `--solver` picks from, the default first.
    pub solvers: &'static [&'static str],
    /// Small specs of the game.
    pub examples: &'static [&'static str],
    /// The family's own studies.
    pub studies: Vec<StudyInfo>,
}

impl Entry {
    /// Every player the game takes: its own, then [`COMMON_PLAYERS`].
    pub fn all_players(&self) -> impl Iterator<Item = &'static PlayerInfo> {
        self.info.players.iter().chain(COMMON_PLAYERS)
    }

    /// What a front end lists of the game.
    pub fn describe(&self) -> Description {
        Description {
            name: self.info.name,
            summary: self.info.summary,
            how_to_play: self.info.how_to_play,
            keys: self.info.keys,
            players: self.all_players().collect(),
            solvers: self.solvers,
            examples: self.examples,
            studies: self.studies.iter().map(Study::describe).collect(),
        }
    }

    /// The study `name` of the game, or a clear error naming the games that offer it.
    pub fn study(&self, name: &str) -> Result<&'static Study, Error> {
        if let Some(study) = self.studies.iter().find(|s| s.name == name) {
            return Ok(study);
        }
        let offer: Vec<&str> = entries()
            .iter()
            .filter(|e| e.studies.iter().any(|s| s.name == name))
            .map(|e| e.info.name)
            .collect();
        Err(Error::Unsupported(match offer[..] {
            [] => format!("no game offers a study named '{name}'"),
            _ => format!(
                "{} has no {name} study; the games with one: {}",
                self.info.name,
                offer.join(", ")
            ),
        }))
    }
}

/// Every game, in the order `zermelo games` lists them; each entry is declared in its
/// family's folder.
pub static CATALOG: &[Entry] = &[
    mnk::entry::TICTACTOE,
    mnk::entry::MNK,
    impartial::entry::NIM,
    impartial::entry::SUBTRACTION,
    impartial::entry::OCTAL,
    impartial::entry::SUM,
    bigpoints::entry::ENTRY,
    pawns::entry::ENTRY,
    connect4::entry::ENTRY,
    dots::entry::ENTRY,
    domineering::entry::ENTRY,
    graph::entry::ENTRY,
];

/// The games registered while the program runs, after the built-in ones.
static REGISTERED: RwLock<Vec<&'static Entry>> = RwLock::new(Vec::new());

/// Every game: the built-in ones of [`CATALOG`], then those registered.
pub fn entries() -> Vec<&'static Entry> {
    let registered = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    CATALOG.iter().chain(registered.iter().copied()).collect()
}

/// Adds a game to the catalog while the program runs (a game of a library user's, or one
/// written outside Rust), with every tool a built-in game has; an entry registered before
/// under the same name is replaced (a new version of the game). A built-in game's name is
/// refused.
pub fn register(entry: Entry) -> Result<&'static Entry, Error> {
    let name = entry.info.name;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(Error::Spec(format!(
            "'{name}' cannot name a game: use letters, digits, '_' and '-'"
        )));
    }
    if CATALOG.iter().any(|e| e.info.name == name) {
        return Err(Error::Spec(format!(
            "'{name}' is a built-in game: choose another name"
        )));
    }
    let entry: &'static Entry = Box::leak(Box::new(entry));
    let mut registered = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    registered.retain(|e| e.info.name != name);
    registered.push(entry);
    Ok(entry)
}

/// Registers a game of your own, a Rust type solved by search like the built-in
/// m,n,k-games, in one call: `make` builds the game of a spec (whose keys `info.keys`
/// lists: other keys are refused before `make` sees the spec), `examples` are small
/// specs of it, quick to solve whole. The game then has every tool a built-in game has
/// (solve, positions and moves, players, tournaments, the [`crate::conformance`]
/// checks), through [`open`] and [`entries`] like any other. Its players are the search
/// strategy's (`info.players` is not read); every example must open, and a built-in
/// game's name is refused, as [`register`] does.
///
/// ```
/// use zermelo::spec::GameInfo;
/// # use zermelo::game::{Game, Indexed, Notation, Outcome, PlayerId, Symmetric};
/// # use zermelo::Error;
/// /// A heap of `n` counters; a move takes one or two, and who takes the last wins.
/// #[derive(Clone)]
/// struct Heap(u64);
/// // `impl Game`, `Notation`, `Symmetric` and `Indexed` for `Heap`, as for any game.
/// # impl Game for Heap {
/// #     type Position = (u64, PlayerId);
/// #     type Move = u64;
/// #     fn start(&self) -> (u64, PlayerId) { (self.0, 0) }
/// #     fn to_move(&self, p: &(u64, PlayerId)) -> PlayerId { p.1 }
/// #     fn moves(&self, p: &(u64, PlayerId), out: &mut Vec<u64>) { out.extend((1..=2).filter(|&t| t <= p.0)) }
/// #     fn play(&self, p: &(u64, PlayerId), m: &u64) -> (u64, PlayerId) { (p.0 - m, 1 - p.1) }
/// #     fn outcome(&self, p: &(u64, PlayerId)) -> Option<Outcome> { (p.0 == 0).then(|| Outcome::Win(1 - p.1)) }
/// # }
/// # impl Symmetric for Heap { fn canonical(&self, p: &(u64, PlayerId)) -> (u64, PlayerId) { *p } }
/// # impl Indexed for Heap {
/// #     fn size(&self) -> u64 { 2 * (self.0 + 1) }
/// #     fn rank(&self, p: &(u64, PlayerId)) -> u64 { 2 * p.0 + u64::from(p.1) }
/// #     fn unrank(&self, r: u64) -> Option<(u64, PlayerId)> { (r < self.size()).then(|| (r / 2, (r % 2) as PlayerId)) }
/// # }
/// # impl Notation for Heap {
/// #     fn parse_move(&self, p: &(u64, PlayerId), text: &str) -> Result<u64, Error> {
/// #         text.parse().ok().filter(|t| self.legal_moves(p).contains(t)).ok_or_else(|| Error::bad_move(text, "take 1 or 2"))
/// #     }
/// #     fn format_move(&self, _: &(u64, PlayerId), m: &u64) -> String { m.to_string() }
/// #     fn parse_position(&self, text: &str) -> Result<(u64, PlayerId), Error> {
/// #         let bad = || Error::bad_position(text, "expected COUNTERS:MOVER");
/// #         let (n, mover) = text.split_once(':').ok_or_else(bad)?;
/// #         let p = (n.parse().map_err(|_| bad())?, mover.parse().map_err(|_| bad())?);
/// #         (p.0 <= self.0 && p.1 < 2 && self.format_position(&p) == text).then_some(p).ok_or_else(bad)
/// #     }
/// #     fn format_position(&self, p: &(u64, PlayerId)) -> String { format!("{}:{}", p.0, p.1) }
/// #     fn render(&self, p: &(u64, PlayerId)) -> String { format!("{} counters\n", p.0) }
/// # }
///
/// const INFO: GameInfo = GameInfo {
///     name: "heap",
///     summary: "Heap: take one or two counters; who takes the last wins",
///     how_to_play: "Take one or two counters from the heap; whoever takes the last one wins.",
///     keys: &[],
///     players: &[],
/// };
/// let entry = zermelo::catalog::register_game(INFO, &["heap"], |_| Ok(Heap(7))).unwrap();
/// assert_eq!(entry.info.name, "heap");
/// let session = zermelo::catalog::open("heap").unwrap();
/// let solved = session.solve(&Default::default()).unwrap();
/// assert_eq!(solved.verdict.value, Some(zermelo::Class::Win)); // 7 is no multiple of 3
/// zermelo::conformance::check(entry).unwrap();
/// ```
pub fn register_game<G>(
    info: GameInfo,
    examples: &[&str],
    make: impl Fn(&Spec) -> Result<G, Error> + Send + Sync + 'static,
) -> Result<&'static Entry, Error>
where
    G: Notation + Symmetric + Indexed + Clone + Send + Sync + 'static,
{
    let info: &'static GameInfo = Box::leak(Box::new(GameInfo {
        players: search::PLAYERS,
        ..info
    }));
    let open: &'static Opener = Box::leak(Box::new(move |spec: &Spec| {
        spec.check_keys(info)?;
        let game = make(spec)?;
        Ok(search::open(&spec.to_string(), info, game, None, None))
    }));
    // Every example opens; the first says which solvers the game offers.
    let mut solvers = None;
    for example in examples {
        let spec: Spec = example.parse()?;
        if spec.name != info.name {
            return Err(Error::Spec(format!("{example} is no spec of {}", info.name)));
        }
        let session = open(&spec)?;
        solvers.get_or_insert_with(|| session.solvers());
    }
    let Some(solvers) = solvers else {
        return Err(Error::Spec(format!("{} needs an example spec", info.name)));
    };
    let examples: Vec<&'static str> = examples.iter().map(|e| &*String::leak(e.to_string())).collect();
    register(Entry {
        info,
        open,
        examples: examples.leak(),
        solvers: solvers.leak(),
        studies: &[],
    })
}

/// Installs a game given as its graph (built by a [`crate::explicit::GraphBuilder`]) under
/// its name, replacing a graph installed before under the same name: the spec that opens
/// it, `graph:name=NAME`, with every tool of the `graph` family. Tables saved for it are
/// found by its name, version and content, so a changed graph never reads a stale one.
pub fn install_graph(graph: GameGraph) -> Result<String, Error> {
    Ok(graph::install(graph))
}

/// The graph installed under `name` (see [`install_graph`]).
pub fn installed_graph(name: &str) -> Result<GameGraph, Error> {
    graph::graph_of(&format!("graph:name={name}").parse::<Spec>()?)
}

/// Whether opening `spec` reads a file named in it (`graph:file=PATH`): a server opening
/// the specs its clients send refuses those it was not told to offer.
pub fn reads_files(spec: &str) -> bool {
    spec.parse::<Spec>().is_ok_and(|s| graph::reads_file(&s))
}

/// The catalog entry of the game named `name`, or a clear error naming the known games.
pub fn entry_named(name: &str) -> Result<&'static Entry, Error> {
    let all = entries();
    all.iter().find(|e| e.info.name == name).copied().ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|e| e.info.name).collect();
        Error::Spec(format!("unknown game '{name}' (known: {})", names.join(", ")))
    })
}

/// The catalog entry of `spec`'s game, or a clear error naming the known games.
pub fn entry(spec: &Spec) -> Result<&'static Entry, Error> {
    entry_named(&spec.name)
}

/// The study `name` of the game a spec (or a family's spec, with ranges) names, and
/// whether it takes that spec: [`Study::takes`].
pub fn study(spec: &str, name: &str) -> Result<&'static Study, Error> {
    let game = spec.split(':').next().unwrap_or_default().trim();
    let study = entry_named(game)?.study(name)?;
    match (study.takes)(spec) {
        true => Ok(study),
        false => Err(Error::Unsupported(format!(
            "the {name} study does not take {spec}"
        ))),
    }
}

/// Opens the game a spec string names (a graph file read within the machine's memory).
pub fn open(spec: &str) -> Result<Box<dyn Session>, Error> {
    open_within(spec, &Budget::default())
}

/// Opens the game a spec string names, the work of opening it within `budget`: a graph
/// file (`graph:file=PATH`) is read within its memory and time, or refused in one line.
pub fn open_within(spec: &str, budget: &Budget) -> Result<Box<dyn Session>, Error> {
    let text = spec;
    let spec: Spec =
        spec.parse().map_err(
            |e| match crate::spec::python_game(text, |name| entry_named(name).is_ok()) {
                Some(kind) => crate::spec::python_refusal(text, kind),
                None => e,
            },
        )?;
    if graph::reads_file(&spec) {
        return graph::open_within(&spec, budget);
    }
    (entry(&spec)?.open)(&spec)
}
