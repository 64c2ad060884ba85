//! The pawns game on the command line: strong solves saved to the data folder, moves
//! with the course's board ids, and the perfect player answering from the table.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::json;
use zermelo::games::pawns::Pawns;
use zermelo::play::perfect::Perfect;
use zermelo::play::Player;
use zermelo::solve::levels;
use zermelo::solve::Oracle;
use zermelo::solve::TableOracle;
use zermelo::table::{db, CompactTable};
use zermelo::{Game, Indexed, Notation, Spec};

use crate::commands::{GameCommands, Report, SolveOptions};
use crate::generic::{self, BarProgress, BoxedPlayer};

/// Random positions timed for the perfect player's move latency.
const LATENCY_SAMPLES: usize = 2_000;

pub struct PawnsCommands {
    game: Pawns,
    spec: String,
}

impl PawnsCommands {
    pub fn new(spec: &Spec) -> Result<Self> {
        Ok(PawnsCommands {
            game: Pawns::from_spec(spec)?,
            spec: spec.to_string(),
        })
    }

    /// Where the table of this size lives in the data folder.
    fn table_path(&self, opts: &SolveOptions) -> PathBuf {
        opts.data_dir
            .join(format!("pawns-{}x{}.zdb", self.game.cols(), self.game.rows()))
    }

    fn solve_table(&self, opts: &SolveOptions) -> CompactTable {
        let bar = generic::bar(opts.progress, self.game.size(), "classes");
        let table = levels::solve(&self.game, &BarProgress(bar.clone()));
        bar.finish_and_clear();
        table
    }

    /// The solved table: from the data folder, or solved now and saved there.
    fn table(&self, opts: &SolveOptions) -> Result<CompactTable> {
        let path = self.table_path(opts);
        if path.exists() {
            return Ok(db::load(&path, &self.game.size_spec(), self.game.size())?);
        }
        let table = self.solve_table(opts);
        db::save(&path, &self.game.size_spec(), &table)?;
        Ok(table)
    }

    fn players<'g>(
        &'g self,
        names: &[String],
        seed: u64,
        opts: &SolveOptions,
        table: &'g mut Option<CompactTable>,
    ) -> Result<Vec<BoxedPlayer<'g, Pawns>>> {
        if names.iter().any(|n| n.trim().eq_ignore_ascii_case("perfect")) {
            *table = Some(self.table(opts)?);
        }
        let table: &'g Option<CompactTable> = table;
        let table = table.as_ref();
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                generic::player(n, seed.wrapping_add(i as u64), &mut |name, s| {
                    let table = table.filter(|_| name == "perfect")?;
                    Some(Box::new(Perfect::new(TableOracle::new(&self.game, table), s))
                        as BoxedPlayer<'g, Pawns>)
                })
            })
            .collect()
    }

    /// The mean time in microseconds for the perfect player to choose a move in random
    /// positions.
    fn move_latency(&self, table: &CompactTable) -> f64 {
        let g = &self.game;
        let mut rng = StdRng::seed_from_u64(1);
        let positions: Vec<_> = (0..LATENCY_SAMPLES)
            .filter_map(|_| {
                let ids: Vec<u8> = (0..g.cols())
                    .map(|_| {
                        *(0..g.column_ids() as u8)
                            .collect::<Vec<_>>()
                            .choose(&mut rng)
                            .expect("ids")
                    })
                    .collect();
                g.board(&ids, 0).filter(|p| g.outcome(p).is_none())
            })
            .collect();
        let mut bot = Perfect::new(TableOracle::new(g, table), 0);
        let started = Instant::now();
        for p in &positions {
            bot.choose(g, p).expect("a move in a live position");
        }
        started.elapsed().as_secs_f64() * 1e6 / positions.len().max(1) as f64
    }
}

impl GameCommands for PawnsCommands {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn solve(&self, opts: &SolveOptions) -> Result<Report> {
        if let Some(other) = opts.solver.as_deref().filter(|s| *s != "levels") {
            bail!("unknown solver '{other}' for pawns (solvers: levels)");
        }
        let g = &self.game;
        let started = Instant::now();
        let table = self.solve_table(opts);
        let seconds = started.elapsed().as_secs_f64();
        let path = self.table_path(opts);
        db::save(&path, &g.size_spec(), &table)?;
        let file_bytes = std::fs::metadata(&path)?.len();
        let start = g.start();
        let value = TableOracle::new(g, &table).value(&start);
        let (wins, losses, draws) = table.summary();
        let positions = wins + losses + draws;
        let raw = 2 * (g.raw_boards() - 1);
        let latency = self.move_latency(&table);
        let (word, remoteness) = generic::value_fields(value);
        let mover = g.player_name(g.to_move(&start));
        let text = format!(
            "{}: {value} for {mover}, who moves first\n\
             solved {positions} classes (of {raw} raw positions, {:.1}x fewer) in {seconds:.3} s\n\
             classes won by the mover: {wins}, lost: {losses}; longest game under best play: {} moves\n\
             table: {} ({file_bytes} bytes); a perfect move takes {latency:.2} us\n",
            self.spec,
            raw as f64 / positions as f64,
            table.max_remoteness(),
            path.display(),
        );
        Ok(Report {
            text,
            json: json!({
                "game": self.spec, "solver": "levels", "to_move": mover, "value": word, "remoteness": remoteness,
                "positions": positions, "classes": positions, "raw_positions": raw,
                "wins": wins, "losses": losses, "draws": draws,
                "max_remoteness": table.max_remoteness(), "seconds": seconds,
                "table": path.display().to_string(), "table_bytes": file_bytes,
                "move_micros": latency,
            }),
        })
    }

    fn moves(&self, moves: &[String], opts: &SolveOptions) -> Result<Report> {
        let g = &self.game;
        let p = generic::replay(g, g.start(), moves)?;
        let table = self.table(opts)?;
        let mut report = generic::moves_report(g, &mut TableOracle::new(g, &table), &p);
        report.text = format!("board id {}\n{}", g.board_id(&p), report.text);
        report.json["id"] = json!(g.board_id(&p));
        if let Some(list) = report.json["moves"].as_array_mut() {
            for entry in list {
                let name = entry["move"].as_str().unwrap_or_default().to_string();
                let m = g.parse_move(&p, &name)?;
                entry["id"] = json!(g.board_id(&g.play(&p, &m)));
            }
        }
        Ok(report)
    }

    fn count(&self, _symmetry: bool, _opts: &SolveOptions) -> Result<Report> {
        let g = &self.game;
        let raw = 2 * (g.raw_boards() - 1);
        let classes = g.size() - 1;
        Ok(Report {
            text: format!(
                "{}: {raw} raw positions ({} boards x 2 sides to move, less the impossible one), \
                 {classes} classes up to column order and colour mirror ({:.1}x fewer)\n",
                self.spec,
                g.raw_boards(),
                raw as f64 / classes as f64
            ),
            json: json!({
                "game": self.spec, "raw_boards": g.raw_boards(), "raw_positions": raw,
                "classes": classes, "column_ids": g.column_ids(),
            }),
        })
    }

    fn play(&self, seats: &[String], seed: u64, opts: &SolveOptions) -> Result<Report> {
        let mut table = None;
        let mut players = self.players(seats, seed, opts, &mut table)?;
        generic::play_in_terminal(&self.game, &mut players)
    }

    fn tournament(&self, players: &[String], games: u64, seed: u64, opts: &SolveOptions) -> Result<Report> {
        let mut table = None;
        let mut players = self.players(players, seed, opts, &mut table)?;
        generic::tournament_report(&mut players, games, opts.progress, |_| {
            (self.game.clone(), self.game.start())
        })
    }
}
