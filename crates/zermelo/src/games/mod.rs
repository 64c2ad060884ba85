//! The games, one module each, and the [`Entry`] each gives the catalog;
//! [`crate::catalog`] lists them.
//!
//! # Floor plan
//!
//! Every family folder follows one plan, so that a reader finds the same thing in the same
//! file of every game:
//!
//! - `mod.rs`: the rules (the game type, its positions and moves, the [`crate::Game`]
//!   impl and its capability traits), the catalog's `INFO`, and `open`, which opens a
//!   session from a spec. A family solved by a generic strategy of
//!   [`crate::session::strategies`] implements that strategy's contract here, beside
//!   `open` (`Tabulated` for pawns, `MarginGame` for Dots and Boxes, `ScoreGame` for Big
//!   Points).
//! - `entry.rs`: the family's catalog [`Entry`] (one per game where the family holds
//!   several: `mnk/entry.rs` has Tic-tac-toe's and the m,n,k-games'), naming its `INFO`
//!   and `open`, small example specs, the solvers `--solver` picks from and its studies;
//!   [`crate::catalog`] only names it.
//! - `notation.rs`: reading and writing moves and positions, the board in text and its
//!   picture (the [`crate::Notation`] impl and its helpers), with their tests.
//! - `strategy.rs`: only for a strategy of the family's own, one no other game could pick
//!   (the heap values of the impartial games).
//! - then, as needed: `solver.rs`, the family's own solvers or search trees (with the
//!   files of their parts beside it when they are big: Big Points' `layers.rs`,
//!   `packed.rs`, `words.rs`); `players.rs`, its own players; `study.rs` (or a file per
//!   study), the analyses a family publishes (the heap games' Grundy sequences, the Big
//!   Points sweep); and a file per game where one family holds several (`nim.rs`,
//!   `octal.rs`, ...).
//!
//! A family small enough to read in one sitting (about 600 lines with its tests) stays a
//! single file, `<family>.rs`, in the same order: first what `mod.rs` holds, then its
//! entry, the notation and picture. A bigger one is a folder (`mnk/`: its notation and its
//! null-window tree each take a file; `domineering/`: its notation).

pub mod bigpoints;
pub mod connect4;
pub mod domineering;
pub mod dots;
pub mod graph;
pub mod impartial;
pub mod mnk;
pub mod pawns;

use crate::session::study::Study;
use crate::session::Session;
use crate::spec::{GameInfo, Spec};
use crate::Error;

/// A game in the catalog, declared in its family's `entry.rs`.
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
