//! How a session works: where tables live, which solver, how much it may spend.

use std::path::PathBuf;
use std::sync::Arc;

use super::Budget;
use crate::solve::levels::{Alone, Partition};
use crate::solve::{Progress, Setup};

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
    /// The position to start from, in the game's own position notation
    /// ([`crate::game::Notation::parse_position`]), instead of the game's start: positions
    /// and bot moves apply their moves after it, games and tournaments start there, and a
    /// solve values it. `None` starts from the game's start.
    pub position: Option<String>,
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
            position: None,
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
