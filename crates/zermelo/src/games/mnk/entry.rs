//! The m,n,k-games' catalog entries: Tic-tac-toe, then the family.

use crate::games::Entry;

/// The solvers of an m,n,k-game of at most 40 cells (a larger board has no `nullwindow`).
const SOLVERS: &[&str] = &["nullwindow", "alphabeta", "memo", "retrograde"];

/// Tic-tac-toe, the 3,3,3-game under its own name.
pub const TICTACTOE: Entry = Entry {
    info: &super::TICTACTOE_INFO,
    open: &super::open,
    examples: &["tictactoe"],
    solvers: SOLVERS,
    studies: &[],
};

/// The m,n,k-games.
pub const MNK: Entry = Entry {
    info: &super::INFO,
    open: &super::open,
    examples: &["mnk:m=3,n=2,k=2", "mnk:m=4,n=3,k=3"],
    solvers: SOLVERS,
    studies: &[],
};
