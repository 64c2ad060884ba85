//! The designer's report in one call ([`report`]), for a game of any number of seats, with
//! what it may add (compensation along a key, self-play between players good but not
//! perfect) and how it is shown (its page and charts). Every front end makes this one call
//! and renders what it returns.

pub mod chart;
pub mod compensation;
pub mod page;

use serde::Serialize;

use crate::session::strength::{seats_report, strengths, SeatsReport, SEATS_GAMES};
use crate::session::{DesignReport, Options, Session};
use crate::Error;

/// What a report is asked to hold beyond its core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    /// 1 for every first move's value, 2 for the replies to each too.
    pub depth: u32,
    /// The key to solve along, `KEY=A..B` or `KEY=a|b` (two seats).
    pub compensate: Option<String>,
    /// Games of self-play: for each strength in both seats (two seats), or of the player
    /// in every seat (more seats, [`SEATS_GAMES`] when not told).
    pub selfplay: Option<u64>,
    /// The player in every seat of the self-play of a game of more than two seats (the
    /// game's first player when not told).
    pub player: Option<String>,
}

impl Default for Ask {
    fn default() -> Self {
        Ask {
            depth: 1,
            compensate: None,
            selfplay: None,
            player: None,
        }
    }
}

/// A designer's report: from the strong solution of a game of two seats, or by self-play
/// (and the exact scores where it solves) of a game of more.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Report {
    /// A game of two seats.
    Two(Box<DesignReport>),
    /// A game of more than two seats.
    Seats(Box<SeatsReport>),
}

/// The report `ask` asks of `session`, within `opts`.
pub fn report(session: &dyn Session, ask: &Ask, opts: &Options) -> Result<Report, Error> {
    let spec = session.spec();
    let seats = session.seats();
    if seats > 2 {
        if let Some(along) = &ask.compensate {
            return Err(Error::bad_option(
                "compensate",
                Some(along),
                format!("is for games of two seats; {spec} has {seats}"),
            ));
        }
        let player = match &ask.player {
            Some(p) => p.clone(),
            None => session.default_players().swap_remove(0),
        };
        let games = ask.selfplay.unwrap_or(SEATS_GAMES);
        return Ok(Report::Seats(Box::new(seats_report(
            session, &player, games, opts,
        )?)));
    }
    if let Some(player) = &ask.player {
        return Err(Error::bad_option(
            "player",
            Some(player),
            format!("is for games of more than two seats; {spec} has two"),
        ));
    }
    let mut report = session.report(ask.depth, opts)?;
    if let Some(along) = &ask.compensate {
        report.compensation = Some(compensation::along(spec, along, opts)?);
    }
    if let Some(games) = ask.selfplay {
        report.strengths = Some(strengths(session, games, opts)?);
    }
    Ok(Report::Two(Box::new(report)))
}

impl Report {
    /// The chart of each seat's forgiveness by ply, where the report has one.
    pub fn forgiveness_svg(&self) -> Result<Option<String>, Error> {
        match self {
            Report::Two(r) => r
                .forgiveness
                .as_ref()
                .map(|f| chart::forgiveness_svg(&format!("{}: moves that keep the value", r.game), f))
                .transpose(),
            Report::Seats(_) => Ok(None),
        }
    }
}
