//! The exact Dots and Boxes solvers: the generic margin search keyed on the drawn lines up
//! to symmetry, with the safe reductions of [`Dots::search_moves`], the exact values of
//! simple endgames ([`Dots::simple_endgame`]) and the boxes left as the bound on the
//! margin; and, for boards of at most 24 lines, the table of every set of drawn lines.

use super::{Dots, Lines, Position};
use crate::solve::margin::MarginSearch;
use crate::solve::margin_table::{MarginIndexed, Step, MAX_RANKS};

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

/// A set of drawn lines is its own rank: drawing a line sets one more bit, so every move
/// leads to a higher rank, and the remaining margin depends on the lines alone.
impl MarginIndexed for Dots {
    fn margin_ranks(&self) -> Option<u64> {
        let ranks = 1u64.checked_shl(self.line_count() as u32)?;
        (ranks <= MAX_RANKS).then_some(ranks)
    }

    fn margin_rank(&self, p: &Position) -> u64 {
        p.lines.0[0]
    }

    fn margin_steps(&self, rank: u64, out: &mut Vec<Step>) {
        out.clear();
        // At most 24 lines: a set of lines is one word.
        let undrawn = self.undrawn(&Lines([rank, 0, 0]));
        out.extend(undrawn.iter().map(|l| {
            let to = rank | 1 << l;
            let gain = self.line_boxes[l]
                .iter()
                .filter(|&&b| to & self.box_masks[b].0[0] == self.box_masks[b].0[0])
                .count() as i32;
            Step {
                to,
                gain,
                again: gain > 0,
            }
        }));
    }
}
