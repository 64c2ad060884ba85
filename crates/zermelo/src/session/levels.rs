//! The level-table strategy: a strong solve level by level into a compact table of every
//! position's value, saved to the data folder and read back instead of solving again
//! (the pawns game at every size).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::common::{self, Roster, Special};
use super::search::value_view;
use super::{
    Big, Cost, Counts, Fact, FactValue, GameRecord, Options, PlayIo, PlayerInfo, PositionView, Session,
    Solution, Standings, Verdict,
};
use crate::game::{Levelled, Notation};
use crate::play::perfect::{rank_moves, Perfect};
use crate::play::Player;
use crate::solve::{levels, Oracle};
use crate::spec::GameInfo;
use crate::table::{db, CompactTable};
use crate::{Error, Value};

/// Bytes per rank while solving: the 2-bit layer, the remoteness byte and the solver's
/// working room.
const SOLVE_BYTES_PER_RANK: f64 = 1.3;
/// Ranks solved per second on this machine's two cores, about.
const RANKS_PER_SECOND: f64 = 4e6;
/// Random positions timed for the perfect player's move latency.
const LATENCY_SAMPLES: usize = 2_000;

/// What a game solved into a level table tells besides its moves.
pub trait Tabulated: Levelled + Notation + Clone + Send + Sync + 'static {
    /// The name of the table file, the same for every spec that gives the same table
    /// (e.g. `pawns-5x8`).
    fn table_name(&self) -> String;
    /// The spec stored in the table file, checked when it is read back.
    fn table_spec(&self) -> String;
    /// Facts about a position (e.g. its board id).
    fn position_facts(&self, p: &Self::Position) -> Vec<Fact>;
    /// A note on a move (e.g. the board id it leads to).
    fn move_note(&self, p: &Self::Position, m: &Self::Move) -> Option<String>;
    /// What `count` tells: the game's position counts.
    fn count_facts(&self) -> Vec<Fact>;
}

/// A game solved into a level table.
pub struct LevelSession<G> {
    spec: String,
    info: &'static GameInfo,
    game: G,
    table: Mutex<Option<Arc<CompactTable>>>,
}

/// An oracle reading a shared table.
struct Shared<'g, G> {
    game: &'g G,
    table: Arc<CompactTable>,
}

impl<G: Levelled> Oracle<G> for Shared<'_, G> {
    fn value(&mut self, p: &G::Position) -> Value {
        self.table
            .get(self.game.rank(p))
            .expect("positions of the game have values")
    }
}

impl<G: Tabulated> LevelSession<G> {
    /// A session for `game`, opened from `spec`.
    pub fn new(spec: &str, info: &'static GameInfo, game: G) -> Self {
        LevelSession {
            spec: spec.to_string(),
            info,
            game,
            table: Mutex::new(None),
        }
    }

    fn path(&self, opts: &Options) -> PathBuf {
        opts.data_dir.join(format!("{}.zdb", self.game.table_name()))
    }

    fn solve_cost(&self) -> Cost {
        let size = self.game.size();
        Cost {
            positions: size,
            bytes: (size as f64 * SOLVE_BYTES_PER_RANK) as u64,
            seconds: size as f64 / RANKS_PER_SECOND,
        }
    }

    /// The table: already loaded, read from the data folder, or solved now (within the
    /// budget) and saved. Says whether it was solved now.
    fn table(&self, opts: &Options, force: bool) -> Result<(Arc<CompactTable>, bool), Error> {
        let mut held = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = held.as_ref().filter(|_| !force) {
            return Ok((t.clone(), false));
        }
        let path = self.path(opts);
        let name = self.game.table_spec();
        if path.exists() && !force {
            let t = Arc::new(db::load(&path, &name, self.game.size())?);
            *held = Some(t.clone());
            return Ok((t, false));
        }
        opts.budget
            .check(&format!("solving {}", self.spec), self.solve_cost())?;
        writable(&opts.data_dir)?;
        // A temporary file left by a solve that was killed while saving.
        let stale = path.with_extension("tmp");
        if stale.exists() {
            std::fs::remove_file(&stale)?;
        }
        let table = levels::solve(&self.game, opts.progress.as_ref());
        if opts
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(Error::Cancelled);
        }
        db::save(&path, &name, &table)?;
        let t = Arc::new(table);
        *held = Some(t.clone());
        Ok((t, true))
    }

    /// The players of this game and the matches they play.
    fn roster(&self, opts: &Options) -> Roster<'_, G> {
        Roster {
            spec: &self.spec,
            seats: self.seats(),
            special: self.special(opts),
            known: self.players(),
        }
    }

    fn special<'g>(&'g self, opts: &Options) -> Box<Special<'g, G>> {
        let opts = opts.clone();
        Box::new(move |name: &str, seed: u64| {
            (name == "perfect").then(|| {
                let (table, _) = self.table(&opts, false)?;
                Ok(Box::new(Perfect::new(
                    Shared {
                        game: &self.game,
                        table,
                    },
                    seed,
                )) as Box<dyn Player<G> + 'g>)
            })
        })
    }

    /// The mean time in microseconds for the perfect player to choose a move in random
    /// live positions.
    fn move_latency(&self, table: &Arc<CompactTable>) -> f64 {
        let g = &self.game;
        let mut rng = StdRng::seed_from_u64(1);
        let positions: Vec<G::Position> = (0..LATENCY_SAMPLES * 4)
            .filter_map(|_| g.unrank(rng.gen_range(0..g.size())))
            .filter(|p| g.outcome(p).is_none())
            .take(LATENCY_SAMPLES)
            .collect();
        let mut bot = Perfect::new(
            Shared {
                game: g,
                table: table.clone(),
            },
            0,
        );
        let started = Instant::now();
        for p in &positions {
            bot.choose(g, p).expect("a move in a live position");
        }
        started.elapsed().as_secs_f64() * 1e6 / positions.len().max(1) as f64
    }
}

/// Refuses a data folder that is a file or cannot be written, before any work starts.
pub fn writable(dir: &Path) -> Result<(), Error> {
    let fail = |why: String| Error::Io(format!("data folder {}: {why}", dir.display()));
    if dir.as_os_str().is_empty() {
        return Err(fail("empty path (set ZERMELO_DATA or --data to a folder)".into()));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(fail("is not a folder".into()));
    }
    std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot be created: {e}")))?;
    let probe = dir.join(format!(".zermelo-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| fail(format!("is not writable: {e}")))?;
    std::fs::remove_file(&probe).map_err(|e| fail(e.to_string()))?;
    Ok(())
}

impl<G: Tabulated> Session for LevelSession<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn seats(&self) -> usize {
        self.game.players()
    }

    fn players(&self) -> Vec<PlayerInfo> {
        let mut list = vec![PlayerInfo {
            name: "perfect",
            help: "reads the solved table: wins fastest, loses slowest",
        }];
        list.extend(common::common_players());
        list
    }

    fn estimate(&self, opts: &Options) -> Result<Cost, Error> {
        if self.path(opts).exists() && !opts.force {
            return Ok(Cost {
                positions: self.game.size(),
                bytes: self.game.size() + self.game.size() / 4,
                seconds: 0.0,
            });
        }
        Ok(self.solve_cost())
    }

    fn solve(&self, opts: &Options) -> Result<Solution, Error> {
        let g = &self.game;
        let started = Instant::now();
        let (table, solved) = self.table(opts, opts.force)?;
        let seconds = started.elapsed().as_secs_f64();
        let path = self.path(opts);
        let file_bytes = std::fs::metadata(&path)?.len();
        let start = g.start();
        let value = Shared {
            game: g,
            table: table.clone(),
        }
        .value(&start);
        let (wins, losses, draws) = table.summary();
        let positions = wins + losses + draws;
        let fact = |key: &str, label: &str, v: FactValue| Fact::new(key, label, v);
        let int = |n: u64| FactValue::Big(Big(n.into()));
        let mut details = vec![
            fact(
                "table",
                "table",
                FactValue::Text(format!("{} ({file_bytes} bytes)", path.display())),
            ),
            fact(
                "source",
                "source",
                FactValue::Text(
                    if solved {
                        "solved now"
                    } else {
                        "read from the data folder"
                    }
                    .into(),
                ),
            ),
            fact("wins", "positions won by the mover", int(wins)),
            fact("losses", "positions lost by the mover", int(losses)),
            fact("draws", "positions drawn", int(draws)),
            fact(
                "max_remoteness",
                "longest game under best play (moves)",
                int(u64::from(table.max_remoteness())),
            ),
        ];
        details.extend(g.count_facts());
        details.push(fact(
            "move_micros",
            "microseconds for a perfect move",
            FactValue::Real(self.move_latency(&table)),
        ));
        Ok(Solution {
            game: self.spec.clone(),
            to_move: g.player_name(g.to_move(&start)),
            verdict: Verdict::of(value),
            positions: Big(positions.into()),
            solver: "levels".into(),
            seconds,
            details,
        })
    }

    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        let g = &self.game;
        let p = common::replay(g, g.start(), moves)?;
        let (table, _) = self.table(opts, false)?;
        let ranked = match g.outcome(&p) {
            Some(_) => Vec::new(),
            None => rank_moves(g, &mut Shared { game: g, table }, &p),
        };
        let mut view = value_view(&self.spec, g, &p, &ranked, g.position_facts(&p));
        for (row, (m, _)) in view.moves.iter_mut().zip(&ranked) {
            row.note = g.move_note(&p, m);
        }
        Ok(view)
    }

    fn count(&self, symmetry: bool, _opts: &Options) -> Result<Counts, Error> {
        if symmetry {
            return Err(Error::Unsupported(format!(
                "count of {} always gives both the raw positions and the classes up to symmetry; \
                 --symmetry does nothing here",
                self.spec
            )));
        }
        Ok(Counts {
            game: self.spec.clone(),
            symmetry: false,
            games: None,
            positions: None,
            seconds: 0.0,
            details: self.game.count_facts(),
        })
    }

    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        self.roster(opts).tournament(
            players,
            games,
            seed,
            |_| (self.game.clone(), self.game.start()),
            after,
        )
    }

    fn play(
        &self,
        seats: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        self.roster(opts).play(&self.game, seats, seed, |_| None, io)
    }

    fn playout(&self, seed: u64) -> Result<usize, Error> {
        common::playout(&self.game, self.game.start(), seed)
    }

    fn bot_move(&self, moves: &[String], player: &str, seed: u64, opts: &Options) -> Result<String, Error> {
        self.roster(opts).bot_move(&self.game, moves, player, seed)
    }

    fn held_bytes(&self) -> u64 {
        let held = self.table.lock().unwrap_or_else(|e| e.into_inner());
        held.as_ref().map_or(0, |t| t.len() + t.len() / 4)
    }
}
