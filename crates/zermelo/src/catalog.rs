//! Every game registered once: its name, keys and rules summary, its players and solvers,
//! and how a spec of it opens a [`Session`]. Front ends know games only through this list.

use crate::games::{bigpoints, domineering, dots, impartial, mnk, pawns};
use crate::session::Session;
pub use crate::spec::COMMON_PLAYERS;
use crate::spec::{GameInfo, Key, PlayerInfo, Spec};
use crate::Error;

/// A game in the catalog.
pub struct Entry {
    /// Its name, keys and summary.
    pub info: &'static GameInfo,
    /// Opens a spec of the game (whose name is `info.name`).
    pub open: fn(&Spec) -> Result<Box<dyn Session>, Error>,
    /// Small specs of the game, quick to solve whole: for tests and examples.
    pub examples: &'static [&'static str],
    /// The solvers `--solver` picks from, the default first, as the game's default and
    /// example specs offer them; empty when the game is solved one way only.
    pub solvers: &'static [&'static str],
}

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
        }
    }
}

/// The solvers of an m,n,k-game of at most 40 cells (a larger board has no `nullwindow`).
const MNK_SOLVERS: &[&str] = &["nullwindow", "alphabeta", "memo", "retrograde"];

/// Every game, in the order `zermelo games` lists them.
pub static CATALOG: &[Entry] = &[
    Entry {
        info: &mnk::TICTACTOE_INFO,
        open: mnk::open,
        examples: &["tictactoe"],
        solvers: MNK_SOLVERS,
    },
    Entry {
        info: &mnk::INFO,
        open: mnk::open,
        examples: &["mnk:m=3,n=2,k=2", "mnk:m=4,n=3,k=3"],
        solvers: MNK_SOLVERS,
    },
    Entry {
        info: &impartial::nim::INFO,
        open: impartial::open,
        examples: &["nim:heaps=1/2/3", "nim:heaps=2/3,misere=true"],
        solvers: &[],
    },
    Entry {
        info: &impartial::subtraction::INFO,
        open: impartial::open,
        examples: &["subtraction:set=1/2/3,n=9"],
        solvers: &[],
    },
    Entry {
        info: &impartial::octal::INFO,
        open: impartial::open,
        examples: &["octal:code=0.77,heaps=6"],
        solvers: &[],
    },
    Entry {
        info: &impartial::sum::INFO,
        open: impartial::open,
        examples: &["sum:code=0.77,heaps=3,nim=2"],
        solvers: &[],
    },
    Entry {
        info: &bigpoints::INFO,
        open: bigpoints::open,
        examples: &["bigpoints:board=1221"],
        solvers: &[],
    },
    Entry {
        info: &pawns::INFO,
        open: pawns::open,
        examples: &["pawns:cols=2,rows=4", "pawns:cols=3,rows=3"],
        solvers: &[],
    },
    Entry {
        info: &dots::INFO,
        open: dots::open,
        examples: &["dots:size=2", "dots:rows=2,cols=3"],
        solvers: &["nullwindow", "alphabeta", "plain", "retrograde"],
    },
    Entry {
        info: &domineering::INFO,
        open: domineering::open,
        examples: &["domineering:rows=3,cols=3"],
        solvers: &["alphabeta", "memo", "retrograde"],
    },
];

/// The catalog entry of `spec`'s game, or a clear error naming the known games.
pub fn entry(spec: &Spec) -> Result<&'static Entry, Error> {
    CATALOG.iter().find(|e| e.info.name == spec.name).ok_or_else(|| {
        let names: Vec<&str> = CATALOG.iter().map(|e| e.info.name).collect();
        Error::Spec(format!(
            "unknown game '{}' (known: {})",
            spec.name,
            names.join(", ")
        ))
    })
}

/// Opens the game a spec string names.
pub fn open(spec: &str) -> Result<Box<dyn Session>, Error> {
    let spec: Spec = spec.parse()?;
    (entry(&spec)?.open)(&spec)
}
