//! `zermelo balance SPEC --players NAME`: how each seat fares, estimated by self-play, for
//! games too big to solve: the same player (or one named per seat) in every seat, game
//! `i` from the seed `--seed` + `i`, on every core and, under MPI, across the ranks. The
//! games are the library's ([`zermelo::session::Session::selfplay`]); this module parses
//! and renders.

use anyhow::Result;
use zermelo::analysis::selfplay::Plan;
use zermelo::session::Options;

use crate::commands::{cancel_on_ctrl_c, confirm_setup, PERFECT};
use crate::progress::bar;
use crate::report::{document, Report};

/// What `zermelo balance --players` was asked.
pub struct EstimateArgs {
    /// The game spec.
    pub spec: String,
    /// One player for every seat, or one per seat.
    pub players: Vec<String>,
    /// The most games.
    pub games: u64,
    /// Stop once every seat's points-share interval is narrower than this.
    pub until: Option<f64>,
    /// Game `i` is played from the seed `seed + i`.
    pub seed: u64,
    /// Show a progress bar.
    pub progress: bool,
}

/// Plays the games, split across processes by `opts.partition` (every process gets the
/// same estimate; the leader reports).
pub fn run(args: &EstimateArgs, mut opts: Options) -> Result<Report> {
    let session = crate::commands::open(&args.spec, &opts)?;
    confirm_setup(session.as_ref(), &args.players, PERFECT, &opts)?;
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    let (_, processes) = opts.partition.place();
    let leads = opts.partition.leads();
    // Under MPI the bar counts this rank's games, about an equal share.
    let games_bar = bar(
        args.progress && leads,
        args.games.div_ceil(processes as u64),
        "games",
    );
    games_bar.set_message(format!("{} self-play", session.spec()));
    let plan = Plan {
        games: args.games,
        until: args.until,
        seed: args.seed,
    };
    let estimate = session.selfplay(&args.players, &plan, &opts, &|_| games_bar.inc(1));
    games_bar.finish_and_clear();
    let estimate = estimate?;
    Ok(Report {
        text: crate::render::estimate_text(&estimate),
        json: document("estimate", &estimate),
    })
}
