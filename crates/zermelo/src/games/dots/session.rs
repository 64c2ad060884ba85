//! What Dots and Boxes hands the margin strategy: its exact search, what a search costs,
//! its players, and boards drawn at random for tournaments (`size=random`).

use rand::rngs::StdRng;
use rand::Rng;

use super::players::{Greedy, Strong};
use super::{Dots, Lines, Position, INFO, MAX_DOTS};
use crate::play::Player;
use crate::session::strategies::margins::{self as margin, Draw, MarginGame};
use crate::session::{Budget, Cost, Fact, FactValue, Session};
use crate::solve::margin::{MarginSearch, MarginSolver, Setup};
use crate::spec::Spec;
use crate::{Error, Notation};

/// Most lines of a board the perfect player accepts (4 × 4 dots).
const PERFECT_MAX_LINES: usize = 24;

/// Largest board (dots a side) that `size=random` picks when a perfect player takes part.
const PERFECT_RANDOM_MAX: usize = 3;

/// Positions the exact search stores from a position with 24 undrawn lines, about (the
/// most measured on 4 × 4 and 4 × 5 dots).
const POSITIONS_AT_24: f64 = 2e5;

/// How many times more positions each further undrawn line costs, about.
const GROWTH_PER_LINE: f64 = 2.2;

/// Positions the exact search stores per second on this machine, about.
const POSITIONS_PER_SECOND: f64 = 1.5e5;

/// Bytes a table entry of the exact search takes, with the map's overhead.
const ENTRY_BYTES: f64 = 64.0;

impl MarginGame for Dots {
    type Key = Lines;
    const ADVISER: &'static str = "strong";

    fn search(&self) -> MarginSearch<'_, Dots, Lines> {
        super::solver(self)
    }

    fn solver(&self, setup: &Setup) -> Box<dyn MarginSolver<Dots> + '_> {
        super::best_solver(self, setup)
    }

    /// Grows geometrically with the undrawn lines (measured on random positions); the
    /// null-window search's table (boards of at most 64 lines) takes at most `bytes`.
    fn search_cost(&self, p: &Position, bytes: u64) -> Cost {
        let undrawn = self.line_count() as f64 - f64::from(p.lines.len());
        let positions = (POSITIONS_AT_24 * GROWTH_PER_LINE.powf(undrawn - 24.0)).max(1.0);
        let table = positions * ENTRY_BYTES;
        Cost {
            positions: positions as u64,
            bytes: if self.line_count() <= 64 {
                table.min(bytes as f64) as u64
            } else {
                table as u64
            },
            seconds: positions / POSITIONS_PER_SECOND,
        }
    }

    fn perfect_refusal(&self) -> Option<String> {
        (self.line_count() > PERFECT_MAX_LINES).then(|| {
            format!(
                "the perfect player searches exactly and is limited to boards of at most \
                 {PERFECT_MAX_LINES} lines (4 x 4 dots) unless the board was solved first \
                 (`zermelo solve` saves a book of what it proved); this board has {}; try strong",
                self.line_count()
            )
        })
    }

    fn lasting_solver(&self, setup: &Setup) -> Option<Box<dyn MarginSolver<Dots>>> {
        super::lines_search(self, setup).map(|s| Box::new(s) as Box<dyn MarginSolver<Dots>>)
    }

    fn own_player(name: &str, seed: u64, budget: &Budget) -> Option<Box<dyn Player<Dots>>> {
        match name {
            "greedy" => Some(Box::new(Greedy::new(seed))),
            "strong" => Some(Box::new(Strong::new(seed).with_budget(budget.clone()))),
            _ => None,
        }
    }

    fn facts(&self) -> Vec<Fact> {
        vec![Fact::new(
            "boxes",
            "boxes",
            FactValue::Int(self.box_count() as i64),
        )]
    }

    fn position_facts(&self, p: &Position) -> Vec<Fact> {
        (0..2u8)
            .map(|who| {
                let names = self.box_names(p.boxes[who as usize]);
                let shown = if names.is_empty() {
                    "-".to_string()
                } else {
                    names.join(" ")
                };
                let key = if who == 0 { "boxes_first" } else { "boxes_second" };
                Fact::new(
                    key,
                    &format!("{} boxes", self.player_name(who)),
                    FactValue::Text(shown),
                )
            })
            .collect()
    }
}

/// The largest board `size=random` draws, smaller when a perfect player takes part.
fn largest(perfect: bool) -> usize {
    if perfect {
        PERFECT_RANDOM_MAX
    } else {
        MAX_DOTS
    }
}

/// A square board of random size.
fn random_board(rng: &mut StdRng, perfect: bool) -> Dots {
    Dots::square(rng.gen_range(2..=largest(perfect))).expect("sizes in range")
}

/// The sizes `size=random` draws from.
fn random_sizes(perfect: bool) -> Fact {
    Fact::new(
        "random_sizes",
        "boards (dots a side), one at random per game",
        FactValue::List(vec![2, largest(perfect) as i64]),
    )
}

/// Opens a session of the game `spec` names.
pub fn open(spec: &Spec) -> Result<Box<dyn Session>, Error> {
    let random = spec.get("size").is_some_and(|s| s.eq_ignore_ascii_case("random"));
    if !random {
        return Ok(margin::open(&spec.to_string(), &INFO, Dots::from_spec(spec)?));
    }
    if spec.get("rows").is_some() || spec.get("cols").is_some() {
        return Err(Error::Spec(
            "size=random cannot be combined with rows or cols".into(),
        ));
    }
    spec.check_keys(&INFO)?;
    let draw = Draw {
        board: random_board,
        fact: random_sizes,
    };
    Ok(margin::open_drawn(&spec.to_string(), &INFO, draw))
}
