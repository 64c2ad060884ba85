//! How a session works: where tables live, which solver, how much it may spend.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::Budget;
use crate::play::external::Guest;
use crate::solve::levels::{Alone, Partition};
use crate::solve::{Progress, Setup};

/// How long a player of your own may take over a move unless told otherwise.
pub const MOVE_TIME: Duration = Duration::from_secs(10);

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
    /// How work is split across processes (an MPI job): a level solve's levels,
    /// self-play's games; one process by default.
    pub partition: Arc<dyn Partition>,
    /// Players of your own, taken by name beside the game's.
    pub guests: Vec<Guest>,
    /// Whether a player may be a program started by a command line (`cmd:LINE`): true
    /// for a person's own command line, never for a server's requests.
    pub run_programs: bool,
    /// How long a player of your own may take over a move before it forfeits.
    pub move_time: Duration,
    /// The position to start from, in the game's own position notation
    /// ([`crate::game::Notation::parse_position`]), instead of the game's start: positions
    /// and bot moves apply their moves after it, games and tournaments start there, and a
    /// solve values it. `None` starts from the game's start.
    pub position: Option<String>,
    /// Ask for the exact distance to the end (remoteness) where a game would answer only
    /// who wins, by proof: its exact solver values the position and its moves instead.
    pub remoteness: bool,
    /// Answer a solve for the player to move only, leaving out the outcome class: the class
    /// asks the same question again with the other player moving first, which on a board
    /// of Domineering that is not square is a second proof.
    pub mover_only: bool,
    /// With a solve: also value every position up to this many plies from the start and
    /// save them as the game's opening book (going on from one saved part way).
    pub book: Option<u32>,
    /// The tables looked for in the data folder and not there, remembered for one command
    /// (or one server request: give each a new one) so that a folder is not asked again at
    /// every position; shared by the options' clones.
    pub absent: Absent,
}

/// Tables (a data folder and a game's spec) looked for and not found.
#[derive(Clone, Default)]
pub struct Absent(Arc<Mutex<HashSet<(PathBuf, String)>>>);

impl Absent {
    fn with<T>(&self, f: impl FnOnce(&mut HashSet<(PathBuf, String)>) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Whether the table of `spec` in `folder` was looked for and not found.
    pub(crate) fn has(&self, folder: &Path, spec: &str) -> bool {
        self.with(|absent| absent.contains(&(folder.to_path_buf(), spec.to_string())))
    }

    /// Remembers that the table of `spec` in `folder` is not there (`false`), or may be
    /// now (`true`: one was saved, or a table found failed).
    pub(crate) fn set(&self, folder: &Path, spec: &str, there: bool) {
        let key = (folder.to_path_buf(), spec.to_string());
        self.with(|absent| {
            if there {
                absent.remove(&key);
            } else {
                absent.insert(key);
            }
        });
    }
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
            guests: Vec::new(),
            run_programs: false,
            move_time: MOVE_TIME,
            position: None,
            remoteness: false,
            mover_only: false,
            book: None,
            absent: Absent::default(),
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
