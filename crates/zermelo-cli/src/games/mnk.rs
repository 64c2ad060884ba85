//! Tic-tac-toe and m,n,k-games on the command line.

use std::time::Instant;

use anyhow::{bail, Result};
use serde_json::json;
use zermelo::analysis::count;
use zermelo::games::mnk::Mnk;
use zermelo::play::perfect::Perfect;
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::retrograde;
use zermelo::solve::search::AlphaBeta;
use zermelo::solve::TableOracle;
use zermelo::solve::{plain_key, symmetric_key, Oracle};
use zermelo::{Game, Indexed, Spec};

use crate::commands::{GameCommands, Report, SolveOptions};
use crate::generic::{self, BarProgress, BoxedPlayer};

/// Largest board the retrograde solver tabulates (3^cells ranks).
const RETROGRADE_MAX_CELLS: usize = 14;

pub struct MnkCommands {
    game: Mnk,
    spec: String,
}

impl MnkCommands {
    pub fn new(spec: &Spec) -> Result<Self> {
        Ok(MnkCommands {
            game: Mnk::from_spec(spec)?,
            spec: spec.to_string(),
        })
    }

    fn perfect_or_none<'g>(&'g self, name: &str, seed: u64) -> Option<BoxedPlayer<'g, Mnk>> {
        (name == "perfect")
            .then(|| Box::new(Perfect::new(AlphaBeta::symmetric(&self.game), seed)) as BoxedPlayer<'g, Mnk>)
    }

    fn players<'g>(&'g self, names: &[String], seed: u64) -> Result<Vec<BoxedPlayer<'g, Mnk>>> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                generic::player(n, seed.wrapping_add(i as u64), &mut |name, s| {
                    self.perfect_or_none(name, s)
                })
            })
            .collect()
    }
}

impl GameCommands for MnkCommands {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn solve(&self, opts: &SolveOptions) -> Result<Report> {
        let g = &self.game;
        let started = Instant::now();
        let solver = opts.solver.as_deref().unwrap_or("alphabeta");
        let (value, positions) = match solver {
            "alphabeta" => {
                let mut s = AlphaBeta::symmetric(g);
                (s.solve(&g.start()), s.positions() as u64)
            }
            "memo" => {
                let mut s = MemoSolver::symmetric(g);
                (s.solve(&g.start()), s.positions() as u64)
            }
            "retrograde" => {
                if g.cells() > RETROGRADE_MAX_CELLS {
                    bail!(
                        "retrograde tabulates at most {RETROGRADE_MAX_CELLS} cells; use --solver alphabeta"
                    );
                }
                let bar = generic::bar(opts.progress, g.size(), "");
                let table = retrograde::solve(g, &BarProgress(bar.clone()));
                bar.finish_and_clear();
                let (w, l, d) = table.summary();
                (TableOracle::new(g, &table).value(&g.start()), w + l + d)
            }
            other => bail!("unknown solver '{other}' (solvers: alphabeta, memo, retrograde)"),
        };
        let seconds = started.elapsed().as_secs_f64();
        let (word, remoteness) = generic::value_fields(value);
        Ok(Report {
            text: format!(
                "{}: {value} for the player to move ({positions} positions, {solver}, {seconds:.3} s)\n",
                self.spec
            ),
            json: json!({
                "game": self.spec, "value": word, "remoteness": remoteness,
                "positions": positions, "solver": solver, "seconds": seconds,
            }),
        })
    }

    fn moves(&self, moves: &[String], _opts: &SolveOptions) -> Result<Report> {
        let p = generic::replay(&self.game, self.game.start(), moves)?;
        Ok(generic::moves_report(
            &self.game,
            &mut AlphaBeta::symmetric(&self.game),
            &p,
        ))
    }

    fn count(&self, symmetry: bool, _opts: &SolveOptions) -> Result<Report> {
        let g = &self.game;
        let started = Instant::now();
        let tree = count::games(g, &g.start(), symmetric_key::<Mnk>);
        let key = if symmetry {
            symmetric_key::<Mnk>
        } else {
            plain_key::<Mnk>
        };
        let pos = count::positions(g, &g.start(), key);
        let seconds = started.elapsed().as_secs_f64();
        let up_to = if symmetry { " up to symmetry" } else { "" };
        let text = format!(
            "complete games: {} (first player wins {}, second player wins {}, draws {})\n\
             positions{up_to}: {} reachable, {} terminal (first player wins {}, second player wins {}, draws {})\n",
            tree.games,
            tree.first_wins,
            tree.second_wins,
            tree.draws,
            pos.positions,
            pos.terminal,
            pos.terminal_first_wins,
            pos.terminal_second_wins,
            pos.terminal_draws
        );
        Ok(Report {
            text,
            json: json!({
                "game": self.spec, "symmetry": symmetry,
                "games": generic::big(tree.games),
                "first_wins": generic::big(tree.first_wins),
                "second_wins": generic::big(tree.second_wins),
                "draws": generic::big(tree.draws),
                "positions": pos.positions, "terminal": pos.terminal,
                "terminal_first_wins": pos.terminal_first_wins,
                "terminal_second_wins": pos.terminal_second_wins,
                "terminal_draws": pos.terminal_draws, "seconds": seconds,
            }),
        })
    }

    fn play(&self, seats: &[String], seed: u64, _opts: &SolveOptions) -> Result<Report> {
        let mut players = self.players(seats, seed)?;
        generic::play_in_terminal(&self.game, &mut players)
    }

    fn tournament(&self, players: &[String], games: u64, seed: u64, opts: &SolveOptions) -> Result<Report> {
        let mut players = self.players(players, seed)?;
        generic::tournament_report(&mut players, games, opts.progress, |_| {
            (self.game.clone(), self.game.start())
        })
    }
}
