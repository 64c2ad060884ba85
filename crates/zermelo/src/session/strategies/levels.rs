//! The level-table strategy: a strong solve level by level into a compact table of every
//! position's value, saved to the data folder and read back instead of solving again
//! (e.g. the pawns game at every size). A game with its own null-window search (Connect
//! Four) answers by search where no table is saved, and solves its table when `solve` asks
//! for one.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::search::{self as searching, value_view, TreeOracleFn, ENTRY_BYTES, NULL_WINDOW};
use crate::analysis::count;
use crate::analysis::report::{self as design, Forgiveness};
use crate::error::{Part, Said};
use crate::game::{Levelled, Notation, Symmetric};
use crate::play::perfect::{rank_moves, Perfect};
use crate::play::Player;
use crate::session::engine::{GameSession, Made, Strategy, Tables};
use crate::session::{
    Big, Cost, Counts, Fact, FactValue, Found, Options, PositionView, Session, Tally, Verdict,
};
use crate::solve::levels::{self, Checkpoints};
use crate::solve::{symmetric_key, KeyFn, Limit, Oracle};
use crate::spec::GameInfo;
use crate::table::checkpoint::LevelFile;
use crate::table::db::{self, Database, Layer};
use crate::table::CompactTable;
use crate::{Error, Value};

/// Bytes per rank while solving: the solver's byte, and the 2-bit layer when the table is
/// kept in memory.
const SOLVE_BYTES_PER_RANK: f64 = 1.3;
/// Bytes per rank the saved database and the checkpoints may take on disk, at most.
const DISK_BYTES_PER_RANK: f64 = 1.0;
/// Ranks solved per second on this machine's two cores, about.
const RANKS_PER_SECOND: f64 = 4e6;
/// Ranks a count by levels steps through per second on this machine's two cores, about.
const COUNT_RANKS_PER_SECOND: f64 = 2e7;
/// Random positions timed for the perfect player's move latency.
const LATENCY_SAMPLES: usize = 500;
/// The solver's name in the database header.
const SOLVER: &str = "levels";
/// The version of the level solver's output: a database of another version is refused.
const SOLVER_VERSION: u32 = 1;
/// A game with its own search solves its table by default when it has at most this many
/// ranks (seconds of work); a bigger one only when `--solver levels` asks.
const SMALL_TABLE_RANKS: u64 = 1 << 24;

/// Where a split solve saves part `number` of `count` of the table, next to the whole
/// table's `path`: `pawns-5x8.part2-of-3.zdb` beside `pawns-5x8.zdb`.
fn part_path(path: &Path, number: usize, count: usize) -> PathBuf {
    path.with_extension(format!("part{number}-of-{count}.zdb"))
}

/// What a game solved into a level table tells besides its moves.
pub trait Tabulated: Levelled + Notation + Symmetric + Clone + Send + Sync + 'static {
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

/// Where a level session's values come from.
pub enum LevelValues {
    /// Solved now and kept in memory, not saved (`--no-save`).
    Memory(CompactTable),
    /// A saved database, probed in place.
    Saved(Box<Database>),
    /// Solved now across processes, each keeping its part of the table (saved at the path
    /// unless `--no-save`): only what they told each other is known here.
    Split(Box<Split>),
}

/// What the processes of a split solve tell each other at the end.
pub struct Split {
    /// Where this process saved its part, if it did.
    part: Option<PathBuf>,
    /// The whole table's counts ([`db::VALUE_COUNTS`]).
    counts: [u64; 4],
    /// The rank of the start and its value.
    start: (u64, Option<Value>),
}

impl LevelValues {
    /// The value at `rank` (`None` for a rank that is no position), or why it could not
    /// be read.
    fn get(&self, rank: u64) -> Result<Option<Value>, Error> {
        Ok(match self {
            LevelValues::Memory(t) => t.get(rank),
            LevelValues::Split(split) => (rank == split.start.0).then_some(split.start.1).flatten(),
            LevelValues::Saved(db) => db.value(rank)?,
        })
    }

    /// Wins, losses, draws and the greatest remoteness ([`db::VALUE_COUNTS`]).
    fn counts(&self) -> [u64; 4] {
        match self {
            LevelValues::Memory(t) => {
                let (w, l, d) = t.summary();
                [w, l, d, t.max_remoteness().into()]
            }
            LevelValues::Saved(db) => db::VALUE_COUNTS.map(|name| db.header().count(name)),
            LevelValues::Split(split) => split.counts,
        }
    }

    fn held_bytes(&self) -> u64 {
        match self {
            LevelValues::Memory(t) => t.len() + t.len() / 4,
            LevelValues::Saved(db) => db.held_bytes(),
            LevelValues::Split(_) => 0,
        }
    }
}

/// The class of every rank of a saved table (1 a win, 0 a draw, -1 a loss for the mover;
/// `None`: no position), read block by block.
fn saved_classes(db: &Database) -> Result<Vec<Option<i8>>, Error> {
    let ranks = db.header().ranks;
    let step = Layer::Wdl.block_ranks().max(1 << 16);
    let mut classes = Vec::with_capacity(ranks as usize);
    for from in (0..ranks).step_by(step as usize) {
        let codes = db.entries(Layer::Wdl, from..(from + step).min(ranks))?;
        classes.extend(codes.into_iter().map(|code| match code {
            1 => Some(1),
            2 => Some(-1),
            3 => Some(0),
            _ => None,
        }));
    }
    Ok(classes)
}

/// The level-table strategy of a game.
pub struct Levels<G> {
    spec: String,
    game: G,
    /// The game's own null-window search, answering where no table is saved or held.
    search: Option<TreeOracleFn<G>>,
}

/// The session of `spec`, a game of `info` solved into a level table.
pub fn open<G: Tabulated>(spec: &str, info: &'static GameInfo, game: G) -> Box<dyn Session> {
    opened(spec, info, game, None)
}

/// The session of `spec`, a game of `info` that a saved level table answers when there is
/// one, and its own null-window search `tree` otherwise: `solve` makes the table when it
/// is small or `--solver levels` asks, and searches otherwise.
pub fn open_searched<G: Tabulated>(
    spec: &str,
    info: &'static GameInfo,
    game: G,
    tree: TreeOracleFn<G>,
) -> Box<dyn Session> {
    opened(spec, info, game, Some(tree))
}

/// The session of `spec` over a level table, with the game's own search if any.
fn opened<G: Tabulated>(
    spec: &str,
    info: &'static GameInfo,
    game: G,
    search: Option<TreeOracleFn<G>>,
) -> Box<dyn Session> {
    let seats = game.players();
    let levels = Levels {
        spec: spec.to_string(),
        game,
        search,
    };
    Box::new(GameSession::new(info, spec, seats, levels))
}

/// An oracle reading a session's values.
struct Shared<'g, G> {
    game: &'g G,
    values: Arc<LevelValues>,
}

impl<G: Levelled> Oracle<G> for Shared<'_, G> {
    fn value(&mut self, p: &G::Position) -> Result<Value, Error> {
        let rank = self.game.rank(p);
        self.values
            .get(rank)?
            .ok_or_else(|| Error::Unsupported(format!("rank {rank} of the table holds no value here")))
    }
}

/// How the values of a session came to be.
enum Source {
    Loaded,
    Solved { restored: usize },
}

impl<G: Tabulated> Levels<G> {
    fn path(&self, opts: &Options) -> PathBuf {
        opts.data_dir.join(format!("{}.zdb", self.game.table_name()))
    }

    /// The search `solve` runs under `opts` instead of solving the table: the game's own,
    /// when it has one, unless `--solver levels` asks for the table, or the table is saved
    /// or small and `--solver` names no solver.
    fn searching(&self, opts: &Options) -> Option<TreeOracleFn<G>> {
        let tree = self.search?;
        match opts.solver.as_deref() {
            Some(NULL_WINDOW) => Some(tree),
            Some(_) => None,
            None => {
                let tabled = self.game.numbered() && self.game.size() <= SMALL_TABLE_RANKS;
                (!tabled && !self.path(opts).exists()).then_some(tree)
            }
        }
    }

    /// The value of `start` by the game's search `tree`.
    fn searched(&self, tree: TreeOracleFn<G>, start: &G::Position, opts: &Options) -> Result<Found, Error> {
        let started = Instant::now();
        let mut search = tree(&self.game, &opts.setup(ENTRY_BYTES));
        let value = search
            .value(start)
            .map_err(|e| opts.budget.stopped_as(e, &format!("solving {}", self.spec)))?;
        let nodes = FactValue::Big(Big(u128::from(search.nodes())));
        Ok(Found {
            verdict: Verdict::of(value),
            positions: Big(search.positions() as u128),
            solver: NULL_WINDOW.into(),
            seconds: started.elapsed().as_secs_f64(),
            details: vec![Fact::new("nodes", "nodes", nodes)],
        })
    }

    /// The cost of solving on each of `count` processes (which keep their parts in files
    /// when they `save`).
    fn solve_cost(&self, count: usize, save: bool) -> Cost {
        let size = self.game.size();
        let held = if count > 1 {
            levels::held_ranks(&self.game, count, save)
        } else {
            size
        };
        Cost {
            positions: size,
            bytes: (held as f64 * SOLVE_BYTES_PER_RANK) as u64,
            seconds: size as f64 / RANKS_PER_SECOND,
        }
    }

    /// Opens the saved database at `path`, refusing one of another game or solver.
    fn open_saved(&self, path: &Path) -> Result<Database, Error> {
        let db = Database::open_for(path, &self.game.table_spec(), Some(self.game.size()))?;
        let h = db.header();
        if h.solver != SOLVER || h.solver_version != SOLVER_VERSION || h.layers.first() != Some(&Layer::Wdl) {
            return Err(Error::Database {
                path: path.display().to_string(),
                why: Said(vec![
                    Part::Text(format!(
                        "made by the {} solver, version {}, not by {SOLVER} version {SOLVER_VERSION}: \
                         solve again with ",
                        h.solver, h.solver_version
                    )),
                    Part::Switch("force"),
                ]),
            });
        }
        Ok(db)
    }

    /// The values: read from the data folder, or solved now (within the budget, going on
    /// from the checkpoints of a stopped solve) and saved unless `opts.save` is off. A
    /// solve split across processes tells them the value of `start` only.
    fn values(
        &self,
        start: &G::Position,
        opts: &Options,
        force: bool,
    ) -> Result<(LevelValues, Source), Error> {
        let path = self.path(opts);
        let leads = opts.partition.leads();
        // Only the leader of a split solve looks at the data folder; it tells the others.
        if opts.partition.agree(leads && path.exists() && !force)? {
            if !leads {
                return Err(Error::Cancelled);
            }
            return Ok((
                LevelValues::Saved(Box::new(self.open_saved(&path)?)),
                Source::Loaded,
            ));
        }
        // A split solve that saved its parts is not done again unless forced.
        let count = opts.partition.place().1;
        let first_part = part_path(&path, 1, count);
        if count > 1 && opts.partition.agree(leads && first_part.exists() && !force)? {
            if !leads {
                return Err(Error::Cancelled);
            }
            return Err(Error::Database {
                path: first_part.display().to_string(),
                why: Said(vec![
                    Part::Text(format!(
                        "{} is already solved in {count} parts (this and the others'): merge them with ",
                        self.spec
                    )),
                    Part::Merge(Some(path.display().to_string())),
                    Part::Text(", or solve again with ".into()),
                    Part::Switch("force"),
                ]),
            });
        }
        opts.budget.check(
            &format!("solving {}", self.spec),
            self.solve_cost(count, opts.save),
        )?;
        if count > 1 {
            // Every process holds its part alone: the values are not kept for later use.
            let (split, restored) = self.solve_in_parts(start, opts, opts.save.then_some(path.as_path()))?;
            return Ok((LevelValues::Split(Box::new(split)), Source::Solved { restored }));
        }
        let (values, restored) = if !opts.save {
            let codes = levels::solve_codes(
                &self.game,
                opts.progress.as_ref(),
                &mut (),
                opts.budget.cancel.as_deref(),
                opts.partition.as_ref(),
            )?;
            (
                LevelValues::Memory(CompactTable::from_bytes(codes, levels::decode)),
                0,
            )
        } else {
            // One solve of a table at a time; the ones that waited read what it saved.
            crate::session::writable(&opts.data_dir)?;
            let _lock = crate::session::lock_table(&path, &self.spec, opts)?;
            if path.exists() && !force {
                let saved = LevelValues::Saved(Box::new(self.open_saved(&path)?));
                return Ok((saved, Source::Loaded));
            }
            self.solve_and_save(opts, &path)?
        };
        Ok((values, Source::Solved { restored }))
    }

    /// Solves into the database at `path`, keeping a checkpoint after every level; the
    /// opened database and the number of levels restored from an earlier solve.
    fn solve_and_save(&self, opts: &Options, path: &Path) -> Result<(LevelValues, usize), Error> {
        let size = self.game.size();
        crate::session::writable(&opts.data_dir)?;
        crate::session::check_room(&opts.data_dir, (size as f64 * DISK_BYTES_PER_RANK) as u64)?;
        let mut checkpoints = self.checkpoints(path)?;
        let codes = levels::solve_codes(
            &self.game,
            opts.progress.as_ref(),
            &mut checkpoints as &mut (dyn Checkpoints + Send),
            opts.budget.cancel.as_deref(),
            opts.partition.as_ref(),
        )?;
        self.save_codes(path, None, &codes)?;
        drop(codes);
        let restored = checkpoints.restored();
        checkpoints.remove()?;
        Ok((LevelValues::Saved(Box::new(self.open_saved(path)?)), restored))
    }

    /// Solves split across processes, each holding its part of every level
    /// ([`levels::solve_share`]) and the levels the level being solved looks up. Saving
    /// to `path`, each process keeps its part in a file beside the part while it solves
    /// (so that it holds only those levels in memory), the leader keeps a checkpoint after
    /// every level, and every process saves its part of the table ([`part_path`]), which
    /// `db merge` puts together into the database at `path`. The processes tell each other
    /// the table's counts and the value of `start`; the number of levels restored comes
    /// with them.
    fn solve_in_parts(
        &self,
        start: &G::Position,
        opts: &Options,
        path: Option<&Path>,
    ) -> Result<(Split, usize), Error> {
        let partition = opts.partition.as_ref();
        let (index, count) = partition.place();
        let size = self.game.size();
        if path.is_some() {
            crate::session::writable(&opts.data_dir)?;
            let share = if partition.leads() {
                1.0
            } else {
                1.0 / count as f64
            };
            // The part, and this process's share of the table while it is solved.
            let room = size as f64 * (DISK_BYTES_PER_RANK * share + 1.0 / count as f64);
            crate::session::check_room(&opts.data_dir, room as u64)?;
        }
        let spill = path.map(|p| part_path(p, index + 1, count).with_extension("share"));
        let mut checkpoints = path
            .filter(|_| partition.leads())
            .map(|p| self.checkpoints(p))
            .transpose()?;
        let mut none = ();
        let share = levels::solve_share(
            &self.game,
            opts.progress.as_ref(),
            match &mut checkpoints {
                Some(c) => c as &mut (dyn Checkpoints + Send),
                None => &mut none,
            },
            opts.budget.cancel.as_deref(),
            partition,
            spill.as_deref(),
        )?;
        let mine = db::value_counts(&share.codes, levels::decode);
        let said = partition.collect(&mine.map(u64::to_le_bytes).concat())?;
        let mut counts = [0; 4];
        for told in said.chunks(32) {
            for (i, n) in told.chunks(8).enumerate() {
                let n = u64::from_le_bytes(n.try_into().expect("8 bytes"));
                counts[i] = if i == 3 { counts[i].max(n) } else { counts[i] + n };
            }
        }
        let start = self.game.rank(start);
        let codes = partition.collect(&[share.code(start)])?;
        let code = codes.into_iter().max().unwrap_or(0);
        let mut split = Split {
            part: None,
            counts,
            start: (start, levels::decode(code)),
        };
        let Some(path) = path else {
            return Ok((split, 0));
        };
        // The leader names the solve; its parts carry the name.
        let mut solve = rand::random::<u64>().to_le_bytes();
        partition.broadcast(&mut solve)?;
        let part = db::Part {
            number: index as u32 + 1,
            count: count as u32,
            solve: u64::from_le_bytes(solve),
            table_ranks: size,
            ranges: share.ranges,
        };
        let part_path = part_path(path, index + 1, count);
        let saved = self.save_codes(&part_path, Some(part), &share.codes);
        drop(share.codes);
        let said = partition.poll(saved.is_ok())?;
        split.part = Some(part_path);
        if !partition.leads() {
            // The leader names the processes that failed, and stops the job.
            return match saved {
                Ok(()) => Ok((split, 0)),
                Err(_) => Err(Error::Cancelled),
            };
        }
        saved?;
        let failed: Vec<String> = (0..count).filter(|&i| !said[i]).map(|i| i.to_string()).collect();
        if !failed.is_empty() {
            return Err(Error::Io(format!(
                "rank {} could not save its part of the table in its data folder; \
                 the same command goes on from the last checkpoint",
                failed.join(", rank ")
            )));
        }
        let restored = checkpoints.as_ref().map_or(0, LevelFile::restored);
        if let Some(c) = checkpoints {
            c.remove()?;
        }
        Ok((split, restored))
    }

    /// The checkpoints of a solve saving to `path`, after removing the temporary files a
    /// solve killed while saving left there.
    fn checkpoints(&self, path: &Path) -> Result<LevelFile, Error> {
        crate::table::remove_temps(path)?;
        LevelFile::open(
            &path.with_extension("levels"),
            &format!("{} {SOLVER}/{SOLVER_VERSION}", self.game.table_spec()),
            self.game.size(),
        )
    }

    /// Saves `codes` (the solver's, one a rank) at `path`: the whole table, or `part`.
    fn save_codes(&self, path: &Path, part: Option<db::Part>, codes: &[u8]) -> Result<(), Error> {
        let spec = self.game.table_spec();
        db::write_codes(path, &spec, (SOLVER, SOLVER_VERSION), part, codes, levels::decode)
    }

    /// The mean time in microseconds for the perfect player to choose a move in random
    /// live positions.
    fn move_latency(&self, values: &Arc<LevelValues>) -> Result<f64, Error> {
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
                values: values.clone(),
            },
            0,
        );
        let started = Instant::now();
        for p in &positions {
            bot.choose(g, p)?;
        }
        Ok(started.elapsed().as_secs_f64() * 1e6 / positions.len().max(1) as f64)
    }
}

impl<G: Tabulated> Strategy for Levels<G> {
    type Game = G;
    type Table = LevelValues;

    fn game(&self, _command: &str) -> Result<&G, Error> {
        Ok(&self.game)
    }

    fn canonical_spec(&self) -> Option<String> {
        Some(self.game.table_spec())
    }

    /// The level solver, then the game's own search when it has one (the default where
    /// the table is neither saved nor small).
    fn solvers(&self) -> Vec<&'static str> {
        match self.search {
            None => Vec::new(),
            Some(_) => vec![SOLVER, NULL_WINDOW],
        }
    }

    fn splits(&self) -> bool {
        true
    }

    /// The table: solved now when the game has no search of its own, else only the saved
    /// one.
    fn load(&self, opts: &Options) -> Result<Option<LevelValues>, Error> {
        if self.search.is_none() {
            return Ok(Some(self.values(&self.game.start(), opts, false)?.0));
        }
        let path = self.path(opts);
        if !self.game.numbered() || !path.exists() {
            return Ok(None);
        }
        Ok(Some(LevelValues::Saved(Box::new(self.open_saved(&path)?))))
    }

    fn is_current(values: &LevelValues) -> bool {
        match values {
            LevelValues::Saved(db) => db.is_current(),
            LevelValues::Memory(_) | LevelValues::Split(_) => true,
        }
    }

    fn held_bytes(values: &LevelValues) -> u64 {
        values.held_bytes()
    }

    fn forgiveness(
        &self,
        start: &G::Position,
        values: &LevelValues,
        limit: &Limit,
    ) -> Option<Result<Forgiveness, Error>> {
        let classes = match values {
            LevelValues::Split(_) => return None,
            LevelValues::Memory(t) => Ok((0..self.game.size())
                .map(|r| t.get(r).map(|v| v.class().sign()))
                .collect()),
            LevelValues::Saved(db) => saved_classes(db),
        };
        Some(classes.and_then(|classes: Vec<Option<i8>>| {
            design::forgiveness_by_levels(&self.game, start, |r| classes[r as usize], limit)
        }))
    }

    fn database(values: &LevelValues) -> Option<&Database> {
        match values {
            LevelValues::Saved(db) => Some(db),
            _ => None,
        }
    }

    fn estimate(
        &self,
        _start: &G::Position,
        opts: &Options,
        _tables: &Tables<'_, Self>,
    ) -> Result<Cost, Error> {
        if self.searching(opts).is_some() {
            // A search visits an unknown share of the positions: the index size bounds it.
            return Ok(Cost {
                positions: self.game.size(),
                bytes: 0,
                seconds: 0.0,
            });
        }
        if !self.game.numbered() {
            return Err(Error::too_big(format!(
                "the level table of {} is refused: it has too many positions to number in 64 bits",
                self.spec
            )));
        }
        if self.path(opts).exists() && !opts.force {
            return Ok(Cost {
                positions: self.game.size(),
                bytes: 0,
                seconds: 0.0,
            });
        }
        Ok(self.solve_cost(opts.partition.place().1, opts.save))
    }

    /// The perfect player reads the table of every position: solved first when it is
    /// neither held nor saved.
    fn setup_cost(&self, names: &[String], opts: &Options, tables: &Tables<'_, Self>) -> Result<Cost, Error> {
        if !names.iter().any(|n| n == "perfect") || tables.held().is_some() || self.search.is_some() {
            return Ok(Cost::default());
        }
        self.estimate(&self.game.start(), opts, tables)
    }

    /// The value of `start` from the table of every position (read, or solved now): a solve
    /// from a position tabulates the whole game, as from its start.
    fn solve(&self, start: &G::Position, opts: &Options, tables: &Tables<'_, Self>) -> Result<Found, Error> {
        if let Some(tree) = self.searching(opts) {
            return self.searched(tree, start, opts);
        }
        let g = &self.game;
        let started = Instant::now();
        let (values, source) = match tables.held().filter(|_| !opts.force) {
            Some(values) => (values, Source::Loaded),
            None => match self.values(start, opts, opts.force)? {
                // A split solve's processes each hold only their part: nothing to keep.
                (split @ LevelValues::Split(_), source) => (Arc::new(split), source),
                (values, source) => (tables.keep(values), source),
            },
        };
        let seconds = started.elapsed().as_secs_f64();
        let value = Shared {
            game: g,
            values: values.clone(),
        }
        .value(start)?;
        let [wins, losses, draws, max_remoteness] = values.counts();
        let positions = wins + losses + draws;
        let fact = |key: &str, label: &str, v: FactValue| Fact::new(key, label, v);
        let int = |n: u64| FactValue::Big(Big(n.into()));
        let path = self.path(opts);
        let table = match &*values {
            LevelValues::Saved(db) => format!("{} ({} bytes)", path.display(), db.file_bytes()),
            LevelValues::Split(split) => match &split.part {
                Some(part) => format!(
                    "saved in {} parts, one by each rank in its data folder (rank 0's: {}); \
                     merged, they make {}",
                    opts.partition.place().1,
                    part.display(),
                    path.display()
                ),
                None => "not saved (as asked)".into(),
            },
            LevelValues::Memory(_) => "not saved (as asked)".into(),
        };
        let source = match source {
            Source::Loaded => "read from the data folder".to_string(),
            Source::Solved { restored: 0 } => "solved now".to_string(),
            Source::Solved { restored } => format!(
                "solved now, going on from {restored} of {} levels kept by a stopped solve",
                g.levels()
            ),
        };
        let mut details = vec![
            fact("table", "table", FactValue::Text(table)),
            fact("source", "source", FactValue::Text(source)),
            fact("wins", "positions won by the mover", int(wins)),
            fact("losses", "positions lost by the mover", int(losses)),
            fact("draws", "positions drawn", int(draws)),
            fact(
                "max_remoteness",
                "longest game under best play (moves)",
                int(max_remoteness),
            ),
        ];
        details.extend(g.count_facts());
        // A split solve's processes hold no whole table to play from.
        if !matches!(*values, LevelValues::Split(_)) {
            details.push(fact(
                "move_micros",
                "microseconds for a perfect move",
                FactValue::Real(self.move_latency(&values)?),
            ));
        }
        Ok(Found {
            verdict: Verdict::of(value),
            positions: Big(positions.into()),
            solver: SOLVER.into(),
            seconds,
            details,
        })
    }

    fn view(
        &self,
        p: &G::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<PositionView, Error> {
        let g = &self.game;
        let ranked = match (g.outcome(p), tables.get()?, self.search) {
            (Some(_), _, _) => Vec::new(),
            (None, Some(values), _) => rank_moves(g, &mut Shared { game: g, values }, p)?,
            (None, None, Some(tree)) => {
                rank_moves(g, &mut tree(g, &opts.setup(ENTRY_BYTES)), p).map_err(|e| {
                    opts.budget
                        .stopped_as(e, &format!("valuing the moves of this {} position", self.spec))
                })?
            }
            (None, None, None) => return Err(Error::Unsupported(format!("{} has no table", self.spec))),
        };
        let mut view = value_view(&self.spec, g, p, &ranked, g.position_facts(p));
        for (row, (m, _)) in view.moves.iter_mut().zip(&ranked) {
            row.note = g.move_note(p, m);
        }
        Ok(view)
    }

    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, G>> {
        (name == "perfect").then(|| {
            let values = match (tables.get()?, self.search) {
                (Some(values), _) => values,
                (None, Some(tree)) => {
                    let setup = opts.budget.setup(ENTRY_BYTES);
                    return Ok(
                        Box::new(Perfect::new(tree(&self.game, &setup), seed)) as Box<dyn Player<G> + 's>
                    );
                }
                (None, None) => return Err(Error::Unsupported(format!("{} has no table", self.spec))),
            };
            Ok(Box::new(Perfect::new(
                Shared {
                    game: &self.game,
                    values,
                },
                seed,
            )) as Box<dyn Player<G> + 's>)
        })
    }

    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        Some(self.sample_checked(db, sample, seed))
    }

    fn symmetry(&self) -> Option<KeyFn<G>> {
        Some(symmetric_key::<G>)
    }

    fn count(&self, symmetry: bool, opts: &Options) -> Option<Result<Counts, Error>> {
        Some(self.counted(symmetry, opts))
    }
}

impl<G: Tabulated> Levels<G> {
    /// Counts the positions reachable from the start level by level
    /// ([`count::positions_by_levels`]), within `opts`' budget.
    fn counted_by_levels(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        let g = &self.game;
        opts.budget.check(
            &format!("counting {}", self.spec),
            Cost {
                positions: g.size(),
                bytes: count::level_count_bytes(g),
                seconds: g.size() as f64 / COUNT_RANKS_PER_SECOND,
            },
        )?;
        let started = Instant::now();
        let pos = count::positions_by_levels(
            g,
            &g.start(),
            symmetry,
            opts.progress.as_ref(),
            opts.budget.cancel.as_deref(),
        )?;
        Ok(Counts {
            game: self.spec.clone(),
            symmetry,
            games: None,
            positions: Some(Tally {
                total: Big(pos.positions.into()),
                terminal: Big(pos.terminal.into()),
                first_wins: Big(pos.terminal_first_wins.into()),
                second_wins: Big(pos.terminal_second_wins.into()),
                draws: Big(pos.terminal_draws.into()),
            }),
            seconds: started.elapsed().as_secs_f64(),
            details: g.count_facts(),
        })
    }

    /// Re-solves `sample` random positions of `db`, a saved database of this game.
    fn sample_checked(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let g = &self.game;
        let fail = |why: String| Error::Database {
            path: db.path().display().to_string(),
            why: why.into(),
        };
        if db.header().spec != g.table_spec() || db.header().ranks != g.size() {
            return Err(fail(format!("is not the table of {}", self.spec)));
        }
        let (mut moves, mut children) = (Vec::new(), Vec::new());
        crate::session::check_ranks(db, sample, seed, |rank| {
            let Some(p) = g.unrank(rank) else {
                return Ok(None);
            };
            if let Some(outcome) = g.outcome(&p) {
                return Ok(Some(Value::terminal(outcome, g.to_move(&p))));
            }
            children.clear();
            g.child_ranks(&p, &mut moves, &mut children);
            let mut best = None;
            for &(child, same_mover) in &children {
                let v = db.position_value(child)?;
                best = best.max(Some(Value::from_child(v, same_mover)));
            }
            Ok(Some(best.unwrap_or(Value::Draw)))
        })
    }

    /// Counts positions and complete games for a game with its own search, with the
    /// table's count facts: by exploring every position reachable from the start when the
    /// table is small, level by level over the ranks (the positions, not the games)
    /// otherwise.
    fn counted(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        if self.search.is_some() {
            let g = &self.game;
            if g.numbered() && g.size() > SMALL_TABLE_RANKS {
                return self.counted_by_levels(symmetry, opts);
            }
            let mut counts = searching::explored_counts(g, &self.spec, symmetry, opts)?;
            counts.details = g.count_facts();
            return Ok(counts);
        }
        if symmetry {
            return Err(Error::bad_option(
                "symmetry",
                None,
                format!(
                    "does nothing here: the count of {} always gives both the raw positions and \
                     the classes up to symmetry",
                    self.spec
                ),
            ));
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
}
