//! Domineering's catalog entry.

use crate::games::Entry;

/// Domineering.
pub const ENTRY: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["domineering:rows=3,cols=3"],
    solvers: &["proof", "alphabeta", "memo", "retrograde"],
    studies: &[],
};
