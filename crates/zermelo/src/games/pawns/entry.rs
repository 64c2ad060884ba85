//! The pawns game's catalog entry.

use crate::games::Entry;

/// The pawns game.
pub const ENTRY: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["pawns:cols=2,rows=4", "pawns:cols=3,rows=3"],
    solvers: &[],
    studies: &[],
};
