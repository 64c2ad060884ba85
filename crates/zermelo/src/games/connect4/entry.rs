//! Connect Four's catalog entry.

use crate::games::Entry;

/// Connect Four.
pub const ENTRY: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["connect4:cols=4,rows=4", "connect4:cols=5,rows=4,k=3"],
    solvers: &["levels", "nullwindow"],
    studies: &[],
};
