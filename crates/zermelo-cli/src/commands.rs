//! What every game offers the command line, and the report each command prints.

use std::path::PathBuf;

use anyhow::{bail, Result};
use serde_json::Value as Json;

/// A command's result: text for people and one JSON document for programs.
pub struct Report {
    /// What a person reads.
    pub text: String,
    /// What `--json` prints.
    pub json: Json,
}

/// Options shared by the commands that solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Show progress bars.
    pub progress: bool,
    /// The solver to use, when the game offers a choice.
    pub solver: Option<String>,
    /// The folder where solved tables are saved and looked for.
    pub data_dir: PathBuf,
}

/// The commands a game answers. A game leaves out what it cannot do; the default
/// answers with a clear error.
pub trait GameCommands {
    /// The game's name in messages.
    fn name(&self) -> String;

    /// `zermelo solve`: the value of the start for the player to move.
    fn solve(&self, _opts: &SolveOptions) -> Result<Report> {
        bail!("solve is not available for {}", self.name())
    }

    /// `zermelo moves`: the position after `moves`, and every legal move with its value.
    fn moves(&self, _moves: &[String], _opts: &SolveOptions) -> Result<Report> {
        bail!("moves is not available for {}", self.name())
    }

    /// `zermelo count`: game-tree and position counts.
    fn count(&self, _symmetry: bool, _opts: &SolveOptions) -> Result<Report> {
        bail!("count is not available for {}", self.name())
    }

    /// `zermelo play`: a game in the terminal between the named players (one per seat).
    fn play(&self, _seats: &[String], _seed: u64, _opts: &SolveOptions) -> Result<Report> {
        bail!("play is not available for {}", self.name())
    }

    /// `zermelo tournament`: `games` games between the named players, each seat taken equally often.
    fn tournament(
        &self,
        _players: &[String],
        _games: u64,
        _seed: u64,
        _opts: &SolveOptions,
    ) -> Result<Report> {
        bail!("tournament is not available for {}", self.name())
    }
}
