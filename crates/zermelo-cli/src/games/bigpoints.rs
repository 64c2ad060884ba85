//! Big Points on the command line: exact solving of reduced two-player boards, move
//! tables, and play and tournaments for 2 to 5 players.

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use serde_json::json;
use zermelo::games::bigpoints::{BigPoints, Rule};
use zermelo::play::greedy::Greedy;
use zermelo::play::human::Human;
use zermelo::play::mcts::{Budget, Mcts};
use zermelo::play::random::Random;
use zermelo::play::scored::ScorePerfect;
use zermelo::play::Player;
use zermelo::solve::scores::{DecisionRule, MarginRule, ScoreSolver, Scores, StudyRule, Table};
use zermelo::{Game, Notation, Spec};

use crate::commands::{GameCommands, Report, SolveOptions};
use crate::generic;

/// The longest path the exact solver takes on (reduced games are far shorter).
pub const MAX_SOLVE_DISCS: usize = 24;

/// The decision rule a game's `rule=` names.
pub fn decision_rule(rule: Rule) -> &'static dyn DecisionRule {
    match rule {
        Rule::Study => &StudyRule,
        Rule::Margin => &MarginRule,
    }
}

/// "win", "draw" or "lose" for the player whose score is first in `s`.
pub fn result_word(s: Scores) -> &'static str {
    match s[0].cmp(&s[1]) {
        std::cmp::Ordering::Greater => "win",
        std::cmp::Ordering::Equal => "draw",
        std::cmp::Ordering::Less => "lose",
    }
}

pub struct BigPointsCommands {
    game: BigPoints,
    spec: Spec,
}

impl BigPointsCommands {
    pub fn new(spec: &Spec) -> Result<Self> {
        Ok(BigPointsCommands {
            game: BigPoints::from_spec(spec)?,
            spec: spec.clone(),
        })
    }

    /// Whether the exact solver can take this game on, with the reason when not.
    fn solvable(&self) -> Result<()> {
        let g = &self.game;
        if g.players() != 2 {
            bail!(
                "the exact solver is for two players; {} has {}",
                self.spec,
                g.players()
            );
        }
        if g.path().len() > MAX_SOLVE_DISCS {
            bail!(
                "a {}-disc path is far too big to solve exactly (at most {MAX_SOLVE_DISCS}); \
                 give a reduced board, e.g. bigpoints:board=1221",
                g.path().len()
            );
        }
        Ok(())
    }

    fn solver(&self) -> ScoreSolver<'_, 'static, BigPoints> {
        ScoreSolver::new(&self.game, decision_rule(self.game.rule()))
    }

    fn players(&self, names: &[String], seed: u64) -> Result<Vec<Box<dyn Player<BigPoints> + '_>>> {
        if names.len() != self.game.players() {
            bail!(
                "{} seats {} players, but {} were named",
                self.spec,
                self.game.players(),
                names.len()
            );
        }
        names
            .iter()
            .enumerate()
            .map(|(i, n)| self.player(n, seed.wrapping_add(i as u64)))
            .collect()
    }

    fn player(&self, name: &str, seed: u64) -> Result<Box<dyn Player<BigPoints> + '_>> {
        let name = name.trim().to_ascii_lowercase();
        Ok(match name.split_once(':') {
            None if name == "human" => Box::new(Human::new(std::io::stdin().lock(), std::io::stdout())),
            None if name == "random" => Box::new(Random::new(seed)),
            None if name == "greedy" => Box::new(Greedy::new(seed)),
            None if name == "mcts" => Box::new(Mcts::new(Budget::Playouts(DEFAULT_PLAYOUTS), seed)),
            Some(("mcts", budget)) => Box::new(Mcts::new(parse_budget(budget)?, seed)),
            None if name == "perfect" => {
                self.solvable()
                    .map_err(|e| anyhow!("the perfect player needs an exactly solvable game: {e}"))?;
                Box::new(ScorePerfect::new(self.solver()))
            }
            _ => bail!(
                "unknown player '{name}' for Big Points (players: human, random, greedy, \
                 mcts[:PLAYOUTS|:MSms|:Ss], perfect)"
            ),
        })
    }
}

/// Playouts per move of a plain `mcts` player.
const DEFAULT_PLAYOUTS: u32 = 2000;

/// `2000` playouts, `500ms` or `2s` per move.
fn parse_budget(text: &str) -> Result<Budget> {
    let bad = || anyhow!("mcts:{text}: expected playouts (2000), milliseconds (500ms) or seconds (2s)");
    let number = |t: &str| t.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
    Ok(if let Some(ms) = text.strip_suffix("ms") {
        Budget::Time(Duration::from_millis(number(ms)?))
    } else if let Some(s) = text.strip_suffix('s') {
        Budget::Time(Duration::from_secs(number(s)?))
    } else {
        Budget::Playouts(u32::try_from(number(text)?).map_err(|_| bad())?)
    })
}

impl GameCommands for BigPointsCommands {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn solve(&self, _opts: &SolveOptions) -> Result<Report> {
        self.solvable()?;
        let g = &self.game;
        let started = Instant::now();
        let rule = decision_rule(g.rule());
        let (scores, positions) = if g.pack64_bits() <= 64 {
            let mut solver = ScoreSolver::keyed(g, rule, BigPoints::pack64, Table::default());
            (solver.solve(&g.start()), solver.positions())
        } else {
            let mut solver = ScoreSolver::keyed(g, rule, BigPoints::pack, Table::default());
            (solver.solve(&g.start()), solver.positions())
        };
        let seconds = started.elapsed().as_secs_f64();
        let word = result_word(scores);
        let rule = g.rule().name();
        Ok(Report {
            text: format!(
                "{}: the first player {}, {} to {} under the {rule} rule ({positions} positions, {seconds:.3} s)\n",
                g.board(),
                match word {
                    "win" => "wins",
                    "draw" => "draws",
                    _ => "loses",
                },
                scores[0],
                scores[1]
            ),
            json: json!({
                "game": self.spec.to_string(), "board": g.board(), "rule": rule,
                "scores": scores, "value": word, "positions": positions, "seconds": seconds,
            }),
        })
    }

    fn moves(&self, moves: &[String], _opts: &SolveOptions) -> Result<Report> {
        let g = &self.game;
        let p = generic::replay(g, g.start(), moves)?;
        let mut text = g.render(&p);
        let outcome = g.outcome(&p);
        if let Some(o) = outcome {
            text += &format!("game over: {}\n", generic::outcome_words(g, o));
        }
        let mut rows = Vec::new();
        if outcome.is_none() {
            if self.solvable().is_ok() {
                let mut solver = self.solver();
                let best = solver.best(&p).map(|(m, _)| m);
                text += &format!(
                    "final scores (first, second) under the {} rule:\n",
                    g.rule().name()
                );
                for (m, s) in solver.options(&p) {
                    let name = g.format_move(&p, &m);
                    let chosen = Some(m) == best;
                    text += &format!(
                        "  {name:<10} {} to {}{}\n",
                        s[0],
                        s[1],
                        if chosen { "  (the rule's choice)" } else { "" }
                    );
                    // The value for the player to move, as in every game's move table.
                    let mine = if g.to_move(&p) == 0 { s } else { [s[1], s[0]] };
                    rows.push(json!({"move": name, "scores": s, "value": result_word(mine), "best": chosen}));
                }
            } else {
                let names: Vec<String> = g.legal_moves(&p).iter().map(|m| g.format_move(&p, m)).collect();
                text += &format!("moves: {}\n", names.join(" "));
                rows.extend(names.into_iter().map(|n| json!({"move": n})));
            }
        }
        let scores: Vec<i32> = (0..g.players() as u8).map(|w| g.points(&p, w as usize)).collect();
        Ok(Report {
            text,
            json: json!({
                "position": g.format_position(&p),
                "board": g.render(&p),
                "to_move": g.player_name(g.to_move(&p)),
                "terminal": outcome.is_some(),
                "result": outcome.map(|o| generic::outcome_words(g, o)),
                "points": scores,
                "moves": rows,
            }),
        })
    }

    fn play(&self, seats: &[String], seed: u64, _opts: &SolveOptions) -> Result<Report> {
        let mut players = self.players(seats, seed)?;
        generic::play_in_terminal(&self.game, &mut players)
    }

    fn tournament(&self, players: &[String], games: u64, seed: u64, opts: &SolveOptions) -> Result<Report> {
        let mut seats = self.players(players, seed)?;
        let explicit = self.spec.get("board").is_some();
        let first_seed = self.spec.int("seed", 0, 0, u64::MAX)?;
        let count = self.game.players();
        generic::tournament_report(&mut seats, games, opts.progress, |i| {
            // The full game gets a fresh path every round of seat rotations.
            let g = if explicit {
                self.game.clone()
            } else {
                BigPoints::full(count, first_seed.wrapping_add(i / count as u64))
                    .expect("the full game is valid")
            };
            let start = g.start();
            (g, start)
        })
    }
}
