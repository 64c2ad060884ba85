//! How the seats fare between players good but not perfect: both seats played by
//! `soft:T` (a softmax over the exact values of the moves) and by `perfect:P` (the best
//! move with probability P, else a random one), by self-play on every core.

use serde::Serialize;

use super::{Options, Session};
use crate::analysis::selfplay::Plan;
use crate::analysis::stats::Share;
use crate::Error;

/// The players of a report's self-play, weakest last in each kind.
pub const STRENGTHS: &[&str] = &[
    "soft:0",
    "soft:0.25",
    "soft:0.5",
    "soft:1",
    "soft:2",
    "perfect:0.9",
    "perfect:0.75",
    "perfect:0.5",
];

/// How the seats fared with one player in both.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Strength {
    /// The player in both seats.
    pub player: String,
    /// Games played.
    pub games: u64,
    /// The first seat's share of the points, with its 95 % interval.
    pub first: Share,
    /// The second seat's share of the points.
    pub second: Share,
    /// The share of games drawn.
    pub draws: Share,
}

/// `games` games of self-play of `session` for each of [`STRENGTHS`], from the seed 0.
pub fn strengths(session: &dyn Session, games: u64, opts: &Options) -> Result<Vec<Strength>, Error> {
    let plan = Plan {
        games,
        until: None,
        seed: 0,
    };
    STRENGTHS
        .iter()
        .map(|name| {
            let e = session.selfplay(&[name.to_string()], &plan, opts, &|_| {})?;
            let points = |seat: usize| e.seats.get(seat).map_or(Share::wilson(0.0, 0), |s| s.points);
            Ok(Strength {
                player: name.to_string(),
                games: e.games,
                first: points(0),
                second: points(1),
                draws: e.draws,
            })
        })
        .collect()
}
