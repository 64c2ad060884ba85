//! Every game registered once: its name, keys and rules summary, its players, solvers and
//! studies, and how a spec of it opens a [`Session`]. Front ends know games only through
//! this list: the built-in games of [`CATALOG`], and the games registered while the
//! program runs ([`register`]).

use std::sync::RwLock;

use crate::games::{bigpoints, domineering, dots, impartial, mnk, pawns};
use crate::session::study::{Study, StudyInfo};
use crate::session::Session;
pub use crate::spec::COMMON_PLAYERS;
use crate::spec::{GameInfo, Key, PlayerInfo, Spec};
use crate::Error;

/// A game in the catalog.
pub struct Entry {
    /// Its name, keys and summary.
    pub info: &'static GameInfo,
    /// Opens a spec of the game (whose name is `info.name`).
    pub open: &'static Opener,
    /// Small specs of the game, quick to solve whole: for tests and examples.
    pub examples: &'static [&'static str],
    /// The solvers `--solver` picks from, the default first, as the game's default and
    /// example specs offer them; empty when the game is solved one way only.
    pub solvers: &'static [&'static str],
    /// The family's own studies (`zermelo grundy`, the Big Points sweep of `zermelo
    /// balance`), by name.
    pub studies: &'static [Study],
}

/// How a catalog entry opens a spec of its game.
pub type Opener = dyn Fn(&Spec) -> Result<Box<dyn Session>, Error> + Send + Sync;

/// What a front end lists of a game: its name, summary, how to play it, keys, players, solvers and examples.
#[derive(Clone, Debug, serde::Serialize)]
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

/// The solvers of an m,n,k-game of at most 40 cells (a larger board has no `nullwindow`).
const MNK_SOLVERS: &[&str] = &["nullwindow", "alphabeta", "memo", "retrograde"];

/// Every game, in the order `zermelo games` lists them.
pub static CATALOG: &[Entry] = &[
    Entry {
        info: &mnk::TICTACTOE_INFO,
        open: &mnk::open,
        examples: &["tictactoe"],
        solvers: MNK_SOLVERS,
        studies: &[],
    },
    Entry {
        info: &mnk::INFO,
        open: &mnk::open,
        examples: &["mnk:m=3,n=2,k=2", "mnk:m=4,n=3,k=3"],
        solvers: MNK_SOLVERS,
        studies: &[],
    },
    Entry {
        info: &impartial::nim::INFO,
        open: &impartial::open,
        examples: &["nim:heaps=1/2/3", "nim:heaps=2/3,misere=true"],
        solvers: &[],
        studies: &[],
    },
    Entry {
        info: &impartial::subtraction::INFO,
        open: &impartial::open,
        examples: &["subtraction:set=1/2/3,n=9"],
        solvers: &[],
        studies: &[impartial::study::GRUNDY],
    },
    Entry {
        info: &impartial::octal::INFO,
        open: &impartial::open,
        examples: &["octal:code=0.77,heaps=6"],
        solvers: &[],
        studies: &[impartial::study::GRUNDY],
    },
    Entry {
        info: &impartial::sum::INFO,
        open: &impartial::open,
        examples: &["sum:code=0.77,heaps=3,nim=2"],
        solvers: &[],
        studies: &[],
    },
    Entry {
        info: &bigpoints::INFO,
        open: &bigpoints::open,
        examples: &["bigpoints:board=1221"],
        solvers: &[],
        studies: &[bigpoints::study::SWEEP],
    },
    Entry {
        info: &pawns::INFO,
        open: &pawns::open,
        examples: &["pawns:cols=2,rows=4", "pawns:cols=3,rows=3"],
        solvers: &[],
        studies: &[],
    },
    Entry {
        info: &dots::INFO,
        open: &dots::open,
        examples: &["dots:size=2", "dots:rows=2,cols=3"],
        solvers: &["nullwindow", "alphabeta", "plain", "retrograde"],
        studies: &[],
    },
    Entry {
        info: &domineering::INFO,
        open: &domineering::open,
        examples: &["domineering:rows=3,cols=3"],
        solvers: &["alphabeta", "memo", "retrograde"],
        studies: &[],
    },
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

/// Opens the game a spec string names.
pub fn open(spec: &str) -> Result<Box<dyn Session>, Error> {
    let spec: Spec = spec.parse()?;
    (entry(&spec)?.open)(&spec)
}
