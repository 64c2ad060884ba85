//! Big Points' catalog entry.

use crate::games::Entry;

/// Big Points, with its sweep of boards.
pub const ENTRY: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["bigpoints:board=1221"],
    solvers: &[],
    studies: &[super::study::SWEEP],
};
