//! Who wins, for the player a value is for: the class of a value, without its distance
//! or margin; what every front end, report and map compares.

use std::cmp::Ordering;
use std::fmt;

/// Who wins, for the player a value is for: a value without its distance or margin.
/// Ordered from the worst to the best for that player; written "win", "draw" or "lose".
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The other side wins.
    Lose,
    /// Neither side can force a win (or, in score games, the game ends level).
    Draw,
    /// That player wins.
    Win,
}

impl Class {
    /// "win", "draw" or "lose".
    pub fn word(self) -> &'static str {
        match self {
            Class::Win => "win",
            Class::Draw => "draw",
            Class::Lose => "lose",
        }
    }

    /// 1 for a win, 0 for a draw, -1 for a loss.
    pub fn sign(self) -> i8 {
        match self {
            Class::Win => 1,
            Class::Draw => 0,
            Class::Lose => -1,
        }
    }

    /// The class of a final lead: ahead wins, level draws, behind loses.
    pub fn of_lead(lead: i32) -> Class {
        match lead.cmp(&0) {
            Ordering::Greater => Class::Win,
            Ordering::Equal => Class::Draw,
            Ordering::Less => Class::Lose,
        }
    }

    /// The same outcome seen by the other player of two.
    pub fn for_other(self) -> Class {
        match self {
            Class::Win => Class::Lose,
            Class::Draw => Class::Draw,
            Class::Lose => Class::Win,
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
