//! Game-theoretic values with remoteness: win fastest, lose slowest.

use std::cmp::Ordering;
use std::fmt;

use crate::class::Class;
use crate::game::{Outcome, PlayerId};

/// The value of a position for the player to move, with its remoteness: the number of
/// moves to the end under best play (the winner hurries, the loser delays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The mover wins in this many moves.
    Win(u32),
    /// The mover loses in this many moves.
    Lose(u32),
    /// Neither side can force a win (the game ends level or never ends).
    Draw,
}

impl Value {
    /// The value of a parent whose move led to a child of value `child`;
    /// `same_mover` says whether the parent's mover is also the child's mover.
    pub fn from_child(child: Value, same_mover: bool) -> Value {
        match (child, same_mover) {
            (Value::Draw, _) => Value::Draw,
            (Value::Win(r), true) | (Value::Lose(r), false) => Value::Win(r + 1),
            (Value::Lose(r), true) | (Value::Win(r), false) => Value::Lose(r + 1),
        }
    }

    /// The value of a terminal position with `outcome` for `mover`.
    pub fn terminal(outcome: Outcome, mover: PlayerId) -> Value {
        match outcome {
            Outcome::Win(p) if p == mover => Value::Win(0),
            Outcome::Win(_) => Value::Lose(0),
            Outcome::Draw | Outcome::Shared(_) => Value::Draw,
        }
    }

    /// The remoteness, `None` for a draw.
    pub fn remoteness(self) -> Option<u32> {
        match self {
            Value::Win(r) | Value::Lose(r) => Some(r),
            Value::Draw => None,
        }
    }

    /// Who wins, without the distance.
    pub fn class(self) -> Class {
        match self {
            Value::Win(_) => Class::Win,
            Value::Lose(_) => Class::Lose,
            Value::Draw => Class::Draw,
        }
    }

    /// "win", "lose" or "draw".
    pub fn word(self) -> &'static str {
        self.class().word()
    }

    /// A single integer that orders values from the mover's point of view and that
    /// alpha-beta search can negate: wins are large positive, losses large negative.
    pub fn score(self) -> i32 {
        match self {
            Value::Win(r) => WIN_SCORE - r as i32,
            Value::Lose(r) => -(WIN_SCORE - r as i32),
            Value::Draw => 0,
        }
    }

    /// The inverse of [`Value::score`].
    pub fn from_score(s: i32) -> Value {
        match s.cmp(&0) {
            Ordering::Greater => Value::Win((WIN_SCORE - s) as u32),
            Ordering::Less => Value::Lose((WIN_SCORE + s) as u32),
            Ordering::Equal => Value::Draw,
        }
    }
}

/// The score of an immediate win; remoteness is subtracted from it.
pub const WIN_SCORE: i32 = 1 << 24;

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score().cmp(&other.score())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(r) => write!(f, "win in {r}"),
            Value::Lose(r) => write!(f, "lose in {r}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_and_slower_losses_are_better() {
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(9) > Value::Draw);
        assert!(Value::Draw > Value::Lose(9));
        assert!(Value::Lose(9) > Value::Lose(1));
    }

    #[test]
    fn score_round_trips() {
        for v in [
            Value::Win(0),
            Value::Win(7),
            Value::Lose(0),
            Value::Lose(12),
            Value::Draw,
        ] {
            assert_eq!(Value::from_score(v.score()), v);
        }
    }

    #[test]
    fn parent_of_losing_child_wins() {
        assert_eq!(Value::from_child(Value::Lose(2), false), Value::Win(3));
        assert_eq!(Value::from_child(Value::Win(0), false), Value::Lose(1));
        assert_eq!(Value::from_child(Value::Win(0), true), Value::Win(1));
        assert_eq!(Value::from_child(Value::Draw, false), Value::Draw);
    }
}
