//! Dots and Boxes on the command line.

use std::time::Instant;

use anyhow::{bail, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value as Json};
use zermelo::games::dots::players::{Greedy, Strong};
use zermelo::games::dots::{self, Dots, Lines, Position, MAX_DOTS};
use zermelo::play::margin::BestMargin;
use zermelo::play::Player;
use zermelo::solve::margin::MarginSearch;
use zermelo::{Game, Notation, Scored, Spec};

use crate::commands::{GameCommands, Report, SolveOptions};
use crate::generic::{self, BoxedPlayer};

/// Most undrawn lines `moves` classifies exactly (beyond, the search takes too long).
const MAX_EXACT_LINES: usize = 30;

/// Largest board (dots a side) that `size=random` picks when a perfect player takes part.
const PERFECT_RANDOM_MAX: usize = 3;

/// Most lines of a board the perfect player accepts (4 × 4 dots).
const PERFECT_MAX_LINES: usize = 24;

pub struct DotsCommands {
    /// The board, or `None` for `size=random` (a board per tournament game).
    game: Option<Dots>,
    spec: String,
}

impl DotsCommands {
    pub fn new(spec: &Spec) -> Result<Self> {
        let random = spec.get("size").is_some_and(|s| s.eq_ignore_ascii_case("random"));
        if random && (spec.get("rows").is_some() || spec.get("cols").is_some()) {
            bail!("size=random cannot be combined with rows or cols");
        }
        spec.check_keys(&dots::INFO)?;
        Ok(DotsCommands {
            game: if random {
                None
            } else {
                Some(Dots::from_spec(spec)?)
            },
            spec: spec.to_string(),
        })
    }

    fn game(&self, command: &str) -> Result<&Dots> {
        self.game
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("size=random only suits tournaments, not {command}"))
    }

    /// The named players; `lines` is the board's line count (`None`: random boards).
    fn players(names: &[String], seed: u64, lines: Option<usize>) -> Result<Vec<BoxedPlayer<'static, Dots>>> {
        if lines.is_some_and(|l| l > PERFECT_MAX_LINES)
            && names.iter().any(|n| n.eq_ignore_ascii_case("perfect"))
        {
            bail!(
                "the perfect player searches exactly and is limited to boards of at most \
                 {PERFECT_MAX_LINES} lines (4 x 4 dots); try strong"
            );
        }
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let seed = seed.wrapping_add(i as u64);
                generic::player(n, seed, &mut |name, s| -> Option<BoxedPlayer<'static, Dots>> {
                    match name {
                        "greedy" => Some(Box::new(Greedy::new(s))),
                        "strong" => Some(Box::new(Strong::new(s))),
                        "perfect" => Some(Box::new(BestMargin::new(dots::solver, s))),
                        _ => None,
                    }
                })
                .map_err(|e| anyhow::anyhow!("{e} (dots also has greedy and strong)"))
            })
            .collect()
    }
}

/// "win", "lose" or "draw" for a final lead.
fn word(margin: i32) -> &'static str {
    match margin {
        m if m > 0 => "win",
        m if m < 0 => "lose",
        _ => "draw",
    }
}

/// How a move with this final lead for its player is classified.
fn class(margin: i32) -> &'static str {
    match margin {
        m if m > 0 => "winning",
        m if m < 0 => "losing",
        _ => "drawing",
    }
}

impl GameCommands for DotsCommands {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn solve(&self, opts: &SolveOptions) -> Result<Report> {
        let g = self.game("solve")?;
        let solver = opts.solver.as_deref().unwrap_or("alphabeta");
        let started = Instant::now();
        let start = g.start();
        let (margin, positions, nodes) = match solver {
            "alphabeta" => {
                let mut s = dots::solver(g);
                (s.margin(&start), s.positions(), s.nodes())
            }
            "plain" => {
                let mut s: MarginSearch<'_, Dots, Lines> =
                    MarginSearch::with(g, |_, p| p.lines, |g, p, out| g.moves(p, out));
                (s.margin(&start), s.positions(), s.nodes())
            }
            other => bail!("unknown solver '{other}' (solvers: alphabeta, plain)"),
        };
        let seconds = started.elapsed().as_secs_f64();
        let verdict = match margin {
            m if m > 0 => format!("the first player wins by {m}"),
            m if m < 0 => format!("the second player wins by {}", -m),
            _ => "a draw".to_string(),
        };
        Ok(Report {
            text: format!(
                "{}: {verdict} ({} boxes; {positions} positions, {nodes} nodes, {solver}, {seconds:.3} s)\n",
                self.spec,
                g.box_count()
            ),
            json: json!({
                "game": self.spec, "value": word(margin), "margin": margin,
                "boxes": g.box_count(), "positions": positions, "nodes": nodes,
                "solver": solver, "seconds": seconds,
            }),
        })
    }

    fn moves(&self, moves: &[String], _opts: &SolveOptions) -> Result<Report> {
        let g = self.game("moves")?;
        let p = generic::replay(g, g.start(), moves)?;
        Ok(position_report(g, &p))
    }

    fn play(&self, seats: &[String], seed: u64, _opts: &SolveOptions) -> Result<Report> {
        let g = self.game("play")?;
        let mut players = Self::players(seats, seed, Some(g.line_count()))?;
        generic::play_in_terminal(g, &mut players)
    }

    fn tournament(&self, players: &[String], games: u64, seed: u64, opts: &SolveOptions) -> Result<Report> {
        let mut seats = Self::players(players, seed, self.game.as_ref().map(Dots::line_count))?;
        let largest = if players.iter().any(|p| p.eq_ignore_ascii_case("perfect")) {
            PERFECT_RANDOM_MAX
        } else {
            MAX_DOTS
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let fixed = self.game.clone();
        let mut report = generic::tournament_report(&mut seats, games, opts.progress, |_| {
            let g = fixed
                .clone()
                .unwrap_or_else(|| Dots::square(rng.gen_range(2..=largest)).expect("sizes in range"));
            let start = g.start();
            (g, start)
        })?;
        report.json["game"] = json!(self.spec);
        if self.game.is_none() {
            report.text = format!(
                "boards of 2 to {largest} dots a side, one at random per game\n{}",
                report.text
            );
            report.json["random_sizes"] = json!([2, largest]);
        }
        Ok(report)
    }
}

/// The board, the boxes each player holds, whose turn it is or the result, and (when the
/// search is quick enough) every move with the final lead it leaves its player.
fn position_report(g: &Dots, p: &Position) -> Report {
    let mut text = g.render(p);
    let holds = |who: u8| g.box_names(p.boxes[who as usize]);
    let scores = json!({"○": g.score(p, 0), "●": g.score(p, 1)});
    let outcome = g.outcome(p);
    let listing = |who: u8| {
        let names = holds(who);
        let shown = if names.is_empty() {
            "-".to_string()
        } else {
            names.join(" ")
        };
        format!("{} {} ({shown})", g.player_name(who), names.len())
    };
    text += &format!("boxes: {}, {}\n", listing(0), listing(1));
    let undrawn = g.line_count() - p.lines.len() as usize;
    let mut listed: Json = Json::Null;
    let mut value: Json = Json::Null;
    let mut margin: Json = Json::Null;
    match outcome {
        Some(o) => text += &format!("game over: {}\n", generic::outcome_words(g, o)),
        None if undrawn > MAX_EXACT_LINES => {
            let suggested = Strong::new(0).choose(g, p).expect("a legal move");
            text += &format!(
                "{} to move ({undrawn} lines left: too many to classify the moves exactly, at most \
                 {MAX_EXACT_LINES}; the strong player suggests {})\n",
                g.player_name(p.mover),
                g.format_move(p, &suggested)
            );
            let mut moves = g.legal_moves(p);
            moves.sort_by_key(|m| *m != suggested);
            listed = moves
                .iter()
                .map(|m| json!({"move": g.format_move(p, m), "value": null, "margin": null}))
                .collect();
        }
        None => {
            let mut search = dots::solver(g);
            let ranked = search.rank_moves(p);
            let best = ranked[0].1;
            text += &format!(
                "{} to move: {} by {} with best play\n",
                g.player_name(p.mover),
                word(best),
                best.abs()
            );
            let mut rows = Vec::new();
            for (m, v) in &ranked {
                let name = g.format_move(p, m);
                text += &format!("  {name}  {:<8} {v:+}\n", class(*v));
                rows.push(json!({"move": name, "value": word(*v), "margin": v}));
            }
            listed = json!(rows);
            value = json!(word(best));
            margin = json!(best);
        }
    }
    let json = json!({
        "position": g.format_position(p),
        "board": g.render(p),
        "boxes": {"○": holds(0), "●": holds(1)},
        "scores": scores,
        "to_move": outcome.is_none().then(|| g.player_name(p.mover)),
        "terminal": outcome.is_some(),
        "result": outcome.map(|o| generic::outcome_words(g, o)),
        "value": value,
        "margin": margin,
        "moves": listed,
    });
    Report { text, json }
}
