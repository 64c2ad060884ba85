//! `zermelo balance SPEC --players NAME`: how each seat fares, estimated by self-play, for
//! games too big to solve: the same player (or one named per seat) in every seat, game
//! `i` from the seed `--seed` + `i`, on every core and, under MPI, across the ranks. The
//! games are the library's ([`zermelo::session::Session::selfplay`]); this module parses
//! and renders.

use anyhow::Result;
use zermelo::analysis::selfplay::{Estimate, Plan};
use zermelo::analysis::stats::Share;
use zermelo::session::{quantity, Options};

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
    let session = zermelo::catalog::open(&args.spec)?;
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
        text: text(&estimate),
        json: document("estimate", &estimate),
    })
}

/// A share in percent with its interval: `52.3 [50.1, 54.5]`.
fn pct(s: &Share) -> String {
    format!(
        "{:.1} [{:.1}, {:.1}]",
        100.0 * s.share,
        100.0 * s.low,
        100.0 * s.high
    )
}

/// The estimate as a table, one row per seat, and its summary lines.
pub fn text(e: &Estimate) -> String {
    let every = e.players.iter().all(|p| *p == e.players[0]);
    let who = if every {
        format!("{} in every seat", e.players[0])
    } else {
        e.players.join(", ")
    };
    let last = e.seed.wrapping_add(e.games - 1);
    let mut text = format!(
        "{} of {}, {who} (seeds {} to {last})\n",
        quantity(e.games, "game"),
        e.game,
        e.seed
    );
    let width = e.players.iter().map(String::len).max().unwrap_or(0).max(6);
    let row = |cells: [&str; 6]| {
        let [seat, player, win, draw, shared, points] = cells;
        let line = format!("{seat:<4}  {player:<width$}  {win:<18}  {draw:<18}  {shared:<18}  {points}");
        line.trim_end().to_string() + "\n"
    };
    text += &row(["seat", "player", "win %", "draw %", "shared win %", "points %"]);
    for s in &e.seats {
        let cells = [pct(&s.win), pct(&s.draw), pct(&s.shared_win), pct(&s.points)];
        let [win, draw, shared, points] = cells.each_ref().map(String::as_str);
        text += &row([&(s.seat + 1).to_string(), &s.player, win, draw, shared, points]);
    }
    text += "(95 % intervals; points: 1 a win, 1/k a win shared by k, 1/seats a draw)\n";
    text += &format!("draws: {} %\n", pct(&e.draws));
    text += &format!("game length: {:.1} plies (sd {:.1})\n", e.plies.mean, e.plies.sd);
    if let Some(m) = &e.margin {
        text += &format!(
            "winner's margin: {:.2} points (sd {:.2}) over the next best\n",
            m.mean, m.sd
        );
    }
    if let Some(a) = &e.first_move_advantage {
        text += &format!(
            "first-move advantage: {:+.2} points [{:+.2}, {:+.2}] (sd {:.2}), seat 1's points minus the mean of the others'\n",
            a.mean, a.low, a.high, a.sd
        );
    }
    if let (Some(w), Some(reached)) = (e.until, e.reached) {
        let widest = e.seats.iter().map(|s| s.points.width()).fold(0.0, f64::max);
        text += &if reached {
            format!(
                "every seat's points interval is narrower than {:.1} % (widest {:.1} %)\n",
                100.0 * w,
                100.0 * widest
            )
        } else {
            format!(
                "stopped at --games {}: the widest points interval is {:.1} %, not narrower than {:.1} %\n",
                e.most_games,
                100.0 * widest,
                100.0 * w
            )
        };
    }
    text += &format!("{:.2} games/s ({:.1} s)\n", e.games_per_second, e.seconds);
    text
}
