//! The Dots and Boxes catalog entry.

use crate::games::Entry;

/// Dots and Boxes.
pub const ENTRY: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["dots:size=2", "dots:rows=2,cols=3"],
    solvers: &["nullwindow", "alphabeta", "plain", "retrograde"],
    studies: &[],
};
