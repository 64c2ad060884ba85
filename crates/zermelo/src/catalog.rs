//! Every game registered once: its name, keys and rules summary, and how a spec of it
//! opens a [`Session`]. Front ends know games only through this list.

use crate::games::{bigpoints, dots, impartial, mnk, pawns};
use crate::session::Session;
use crate::spec::{GameInfo, Spec};
use crate::Error;

/// A game in the catalog.
pub struct Entry {
    /// Its name, keys and summary.
    pub info: &'static GameInfo,
    /// Opens a spec of the game (whose name is `info.name`).
    pub open: fn(&Spec) -> Result<Box<dyn Session>, Error>,
}

/// Every game, in the order `zermelo games` lists them.
pub static CATALOG: &[Entry] = &[
    Entry {
        info: &mnk::TICTACTOE_INFO,
        open: mnk::open,
    },
    Entry {
        info: &mnk::INFO,
        open: mnk::open,
    },
    Entry {
        info: &impartial::nim::INFO,
        open: impartial::open,
    },
    Entry {
        info: &impartial::subtraction::INFO,
        open: impartial::open,
    },
    Entry {
        info: &impartial::octal::INFO,
        open: impartial::open,
    },
    Entry {
        info: &impartial::sum::INFO,
        open: impartial::open,
    },
    Entry {
        info: &bigpoints::INFO,
        open: bigpoints::open,
    },
    Entry {
        info: &pawns::INFO,
        open: pawns::open,
    },
    Entry {
        info: &dots::INFO,
        open: dots::open,
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
