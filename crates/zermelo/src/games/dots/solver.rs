//! The exact Dots and Boxes solver: the generic margin search keyed on the drawn lines up
//! to symmetry, with the safe reductions of [`Dots::search_moves`], the exact values of
//! simple endgames ([`Dots::simple_endgame`]) and the boxes left as the bound on the margin.

use super::{Dots, Lines, Position};
use crate::solve::margin::MarginSearch;

/// The exact search for `game`.
pub fn solver(game: &Dots) -> MarginSearch<'_, Dots, Lines> {
    MarginSearch::with(game, Dots::search_key, Dots::search_moves)
        .bounded(search_bound)
        .with_known(|g, p| g.simple_endgame(&p.lines))
}

/// No more than the boxes left can still be won.
fn search_bound(game: &Dots, p: &Position) -> i32 {
    game.boxes_left(p) as i32
}
