//! Sessions: a game opened from a spec, answering every question a front end asks
//! (solve, the value of every move, counts, players, matches) with typed results.
//!
//! A session is built by a solving strategy written once and chosen by the games that fit
//! it: [`search`] (alpha-beta over any game with symmetry), [`levels`] (level tables saved
//! to the data folder), [`margin`] (score margins), [`scores`] (score pairs under a
//! decision rule) and [`heaps`] (heap values by Sprague–Grundy). Front ends open
//! sessions through [`crate::catalog`].

pub mod engine;
pub mod report;
pub mod saved;
pub mod search;

pub mod common;

use std::path::PathBuf;
use std::sync::Arc;

pub use crate::solve::budget::{bytes_text, machine_memory, Budget, Cost};
pub use common::{replay, Roster};
pub use report::*;

use crate::solve::levels::{Alone, Partition};
use crate::solve::{Progress, Setup};
use crate::spec::GameInfo;
use crate::table::db::Database;
use crate::{Error, Value};

/// Refuses a data folder that is a file or cannot be written, before any work starts.
pub fn writable(dir: &std::path::Path) -> Result<(), Error> {
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

/// Where a game's saved table lies: its spec made a file name, in the data folder.
pub(crate) fn table_path(opts: &Options, spec: &str) -> PathBuf {
    let name: String = spec
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    opts.data_dir.join(format!("{name}.zdb"))
}

/// The table saved for `spec` (of `ranks` ranks, when given) in the data folder by
/// `saver` (a solver and the version of its output), when there is one; a table made by
/// another solver or version is refused.
pub(crate) fn saved_table(
    opts: &Options,
    spec: &str,
    ranks: Option<u64>,
    saver: (&str, u32),
) -> Result<Option<Database>, Error> {
    let path = table_path(opts, spec);
    if !path.exists() {
        return Ok(None);
    }
    let db = Database::open_for(&path, spec, ranks)?;
    let h = db.header();
    if (h.solver.as_str(), h.solver_version) != saver {
        return Err(Error::Database {
            path: path.display().to_string(),
            why: format!(
                "made by the {} solver, version {}, not by {} version {}: solve again with --force",
                h.solver, h.solver_version, saver.0, saver.1
            ),
        });
    }
    Ok(Some(db))
}

/// Re-solves up to `sample` random ranks of `db` (drawn from `seed`; at most 20 draws a
/// sample, as not every rank is a position) from their children's stored values:
/// `solve(rank)` gives the value of the position at `rank` from its children's, `None`
/// when the rank is no position. How many were checked, or the first that disagrees.
pub(crate) fn check_ranks(
    db: &Database,
    sample: u64,
    seed: u64,
    mut solve: impl FnMut(u64) -> Result<Option<Value>, Error>,
) -> Result<u64, Error> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..sample.saturating_mul(20) {
        if checked == sample {
            break;
        }
        let rank = rng.gen_range(0..db.header().ranks);
        let Some(solved) = solve(rank)? else { continue };
        let stored = db.value(rank)?;
        if stored != Some(solved) {
            return Err(Error::Database {
                path: db.path().display().to_string(),
                why: format!("rank {rank} holds {stored:?}, but its children's values give {solved:?}"),
            });
        }
        checked += 1;
    }
    Ok(checked)
}

/// The fact naming a saved table, its size and where its values came from.
pub(crate) fn table_fact(path: &std::path::Path, db: &Database, source: &str) -> Fact {
    Fact::new(
        "table",
        "table",
        FactValue::Text(format!(
            "{} ({} bytes, {source})",
            path.display(),
            db.file_bytes()
        )),
    )
}

/// Refuses to start a job that will write about `bytes` into `dir` when the disk holding
/// it has less room free.
pub fn check_room(dir: &std::path::Path, bytes: u64) -> Result<(), Error> {
    let Some(free) = free_space(dir) else {
        return Ok(());
    };
    if free < bytes {
        return Err(Error::TooBig(format!(
            "data folder {}: the solve writes up to {}, but only {} is free",
            dir.display(),
            bytes_text(bytes),
            bytes_text(free)
        )));
    }
    Ok(())
}

/// Bytes free for this user on the disk holding `dir`, when the system tells.
pub fn free_space(dir: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `stat` is written by the call on success.
    let stat = unsafe {
        if libc::statvfs(path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    #[allow(clippy::useless_conversion)] // the field types differ between systems
    Some(u64::from(stat.f_bavail).saturating_mul(u64::from(stat.f_frsize)))
}

/// How a session works: where tables live, which solver, how much it may spend.
#[derive(Clone)]
pub struct Options {
    /// The folder where solved tables are saved and looked for.
    pub data_dir: PathBuf,
    /// The solver, when the game offers several.
    pub solver: Option<String>,
    /// Where long work reports its progress.
    pub progress: Arc<dyn Progress + Send>,
    /// What a job may take, and the flag that stops it.
    pub budget: Budget,
    /// Solve again even when a saved table exists.
    pub force: bool,
    /// Save what a solve tables to the data folder.
    pub save: bool,
    /// List every legal move, however many.
    pub all_moves: bool,
    /// How a level solve is split across processes (an MPI job); one process by default.
    pub partition: Arc<dyn Partition>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            data_dir: PathBuf::from("zermelo-data"),
            solver: None,
            progress: Arc::new(()),
            budget: Budget::default(),
            force: false,
            save: true,
            all_moves: false,
            partition: Arc::new(Alone),
        }
    }
}

impl Options {
    /// How a search keeping `entry_bytes` a position in its map is set up for a solve or a
    /// position's moves: under the budget ([`Budget::setup`]), reporting its progress.
    pub fn setup(&self, entry_bytes: u64) -> Setup {
        Setup {
            progress: Some(self.progress.clone()),
            ..self.budget.setup(entry_bytes)
        }
    }
}

/// The most moves a position report lists unless every move is asked for.
pub const MOVES_LISTED: usize = 200;

/// One opened game: everything a front end asks of it.
pub trait Session: Send + Sync {
    /// The spec the session was opened with.
    fn spec(&self) -> &str;
    /// The catalog entry of its game.
    fn info(&self) -> &'static GameInfo;
    /// How many seats the game has.
    fn seats(&self) -> usize;
    /// The solvers `solve --solver` takes, the default first (empty: the game has one way).
    fn solvers(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Whether `solve` splits its work across processes by `Options::partition`.
    fn splits(&self) -> bool {
        false
    }
    /// The players a match takes, by name.
    fn players(&self) -> Vec<PlayerInfo>;
    /// The players of a tournament when none are named: one per seat.
    fn default_players(&self) -> Vec<String> {
        vec!["perfect".into(), "random".into()]
    }
    /// What solving the start will cost.
    fn estimate(&self, opts: &Options) -> Result<Cost, Error>;
    /// Solves the game from its start.
    fn solve(&self, opts: &Options) -> Result<Solution, Error>;
    /// The position after `moves` from the start, with every legal move's value.
    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error>;
    /// Counts positions and complete games.
    fn count(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        let _ = (symmetry, opts);
        Err(Error::Unsupported(format!(
            "count is not available for {}",
            self.spec()
        )))
    }
    /// Plays `games` games between the named players, each seat taken equally often;
    /// `after` is called after every game.
    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error>;
    /// Plays one game between the named players (one per seat); `show` sees a text line
    /// for every position and move, and humans answer through `human`.
    fn play(
        &self,
        seats: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error>;
    /// The move the named player makes after `moves`.
    fn bot_move(&self, moves: &[String], player: &str, seed: u64, opts: &Options) -> Result<String, Error>;
    /// Plays a random game from the start, checking that every move and position
    /// round-trips through the game's notation and that the game ends: the number of
    /// moves (the conformance suite's playouts, for games of any size).
    fn playout(&self, seed: u64) -> Result<usize, Error>;
    /// Re-solves `sample` random positions of `db`, a saved database of this game, from
    /// their children's stored values: how many were checked, or the first that disagrees.
    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let _ = (db, sample, seed);
        Err(Error::Unsupported(format!(
            "{} saves no database to check",
            self.spec()
        )))
    }
    /// Bytes of solved tables the session holds in memory.
    fn held_bytes(&self) -> u64 {
        0
    }
}

/// How a game in the terminal talks to people: a board and move lines out, moves in.
pub struct PlayIo<'a> {
    /// Where humans type their moves.
    pub input: &'a mut dyn std::io::BufRead,
    /// Where prompts go.
    pub prompts: &'a mut dyn std::io::Write,
    /// Sees the board after every move, and the move that led there.
    pub show: &'a mut dyn FnMut(&str),
}
