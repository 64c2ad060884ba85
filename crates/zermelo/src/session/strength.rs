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
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
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

/// Games of self-play a report of a game of more than two seats plays when not told.
pub const SEATS_GAMES: u64 = 100;

/// A report on a game of more than two seats, whose values are out of reach of the
/// two-seat analysis: each seat's share of the points by self-play, with its 95 %
/// interval, and each seat's exact score where the game solves exactly.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct SeatsReport {
    /// The game spec.
    pub game: String,
    /// How many seats play.
    pub seats: usize,
    /// Each seat's final score under best play, in seat order, where the game solves
    /// exactly; `None` otherwise (see `notes`).
    pub scores: Option<Vec<i32>>,
    /// The self-play estimate: the same player in every seat.
    pub selfplay: crate::analysis::selfplay::Estimate,
    /// Why parts of the report were left out.
    pub notes: Vec<String>,
}

/// The report of a game of more than two seats: `games` games of `player` in every seat
/// from the seed 0, and the solve's scores where the game solves.
pub fn seats_report(
    session: &dyn Session,
    player: &str,
    games: u64,
    opts: &Options,
) -> Result<SeatsReport, Error> {
    let mut notes = Vec::new();
    let scores = match session.solve(opts) {
        Ok(solution) => solution.verdict.scores,
        Err(e @ (Error::Unsupported(_) | Error::TooBig(_))) => {
            notes.push(format!("exact scores left out: {e}"));
            None
        }
        Err(e) => return Err(e),
    };
    let plan = Plan {
        games,
        until: None,
        seed: 0,
    };
    let selfplay = session.selfplay(&[player.to_string()], &plan, opts, &|_| {})?;
    Ok(SeatsReport {
        game: session.spec().to_string(),
        seats: session.seats(),
        scores,
        selfplay,
        notes,
    })
}
