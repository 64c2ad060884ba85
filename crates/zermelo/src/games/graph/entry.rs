//! The catalog entry of the games given as their graph (`graph:file=`, `graph:name=`).

use crate::games::Entry;

/// Games given as their graph.
pub const ENTRY: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["graph:name=race"],
    solvers: &[],
    studies: &[],
};
