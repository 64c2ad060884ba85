//! Sessions: a game opened from a spec, answering every question a front end asks
//! (solve, the value of every move, counts, the game graph, players, matches) with typed
//! results.
//!
//! [`Session`] is implemented once, by [`engine::GameSession`], over a small
//! [`engine::Strategy`] trait for what differs between ways of solving: the generic
//! [`strategies`] any game may pick (search, level tables, margins, score pairs), and the
//! strategies a family keeps for itself (the heap values of the impartial games). Front
//! ends open sessions through the catalog.

pub mod common;
mod data;
pub mod engine;
mod options;
pub mod report;
pub mod saved;
pub mod strategies;
pub mod strength;
pub mod study;

pub use crate::solve::budget::{bytes_text, machine_memory, Budget, Cost};
pub use common::replay;
pub(crate) use data::{check_ranks, lock_table, saved_table, table_fact, table_name, table_path};
pub use data::{check_room, data_folder, free_space, writable};
pub use options::{Absent, Options};
pub use report::*;

use crate::analysis::selfplay::{Estimate, Plan};
use crate::spec::GameInfo;
use crate::table::db::Database;
use crate::Error;

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
    /// What solving from the start (or from [`Options::position`]) will cost.
    fn estimate(&self, opts: &Options) -> Result<Cost, Error>;
    /// What a game or tournament between `players` (by name, as [`Session::play`] takes
    /// them) must solve before its first move: the table a player reads, when it is not
    /// saved yet. Nothing for most games, whose players search as they go.
    fn setup_cost(&self, players: &[String], opts: &Options) -> Result<Cost, Error> {
        let _ = (players, opts);
        Ok(Cost::default())
    }
    /// Solves the game from its start, or from [`Options::position`]: the exact value of
    /// that position. A solver the game does not offer ([`Options::solver`]), or a solve
    /// whose estimate is over the budget, is refused before any work.
    fn solve(&self, opts: &Options) -> Result<Solution, Error>;
    /// The position after `moves` from the start (or from [`Options::position`]), with
    /// every legal move's value.
    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error>;
    /// The position after `moves`, as [`Session::position`] shows it, with its legal
    /// moves listed but not valued: for a position too large to value within a budget.
    fn unvalued(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error>;
    /// Counts positions and complete games from the start (a position in `opts` is
    /// refused).
    fn count(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        let _ = (symmetry, opts);
        Err(Error::Unsupported(format!(
            "count is not available for {}",
            self.spec()
        )))
    }
    /// The graph of the game from its start: every reachable position a node (with
    /// `symmetry`, every class of positions under the game's symmetries), every move an
    /// edge, each node valued by retrograde analysis over the graph (loops are draws, as
    /// `solve` values them). Refused when it would
    /// have more than `max_positions` nodes, or past `opts`' budget.
    fn graph(&self, symmetry: bool, max_positions: u64, opts: &Options) -> Result<Graph, Error>;
    /// Plays `games` games between the named players, each seat taken equally often, from
    /// the start (or every one from [`Options::position`], on the session's own board);
    /// `after` is called after every game.
    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error>;
    /// Estimates how each seat fares by self-play: `plan`'s games with `players` (one
    /// name for every seat, or one per seat) seated, game `i` from the seed `plan.seed + i`
    /// (its players' seeds and, where the game deals a board per game, its board), from the
    /// start or from [`Options::position`]; played on every core, and split across
    /// processes by [`Options::partition`] (every process gets the same estimate).
    /// `after` is called after every game this process plays. Every game honours
    /// `opts.budget`: a cancelled or late run stops with an error.
    fn selfplay(
        &self,
        players: &[String],
        plan: &Plan,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Estimate, Error>;
    /// Plays one game between the named players (one per seat), from the start or from
    /// [`Options::position`]; `show` sees a text line for every position and move, and
    /// humans answer through `human`.
    fn play(
        &self,
        seats: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error>;
    /// The move the named player makes after `moves` (from the start, or from
    /// [`Options::position`]).
    fn bot_move(&self, moves: &[String], player: &str, seed: u64, opts: &Options) -> Result<String, Error>;
    /// The move as [`Session::bot_move`] makes it, or, where the player's search stops at
    /// the budget's limit and the player has a move to fall back on (the perfect player of
    /// a game with a prover: the move its search ranks first), that move with a note
    /// saying so: for a caller that must answer within its time (the server's bot).
    fn bot_choice(&self, moves: &[String], player: &str, seed: u64, opts: &Options)
        -> Result<BotMove, Error>;
    /// Plays a random game from the start, checking that every move and position
    /// round-trips through the game's notation and that the game ends: the number of
    /// moves (the conformance suite's playouts, for games of any size).
    fn playout(&self, seed: u64) -> Result<usize, Error>;
    /// Re-values `sample` random entries of the opening book at `path`, a book of this
    /// game, by its solver: how many were checked, or the first that differs.
    fn check_opening(&self, path: &std::path::Path, sample: u64, seed: u64) -> Result<u64, Error> {
        let _ = (path, sample, seed);
        Err(Error::Unsupported(format!(
            "{} keeps no opening book",
            self.spec()
        )))
    }
    /// Re-solves `sample` random positions of `db`, a saved database of this game, from
    /// their children's stored values: how many were checked, or the first that disagrees.
    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let _ = (db, sample, seed);
        Err(Error::Unsupported(format!(
            "{} saves no database to check",
            self.spec()
        )))
    }
    /// A designer's report on the game from its strong solution (solved first when needed,
    /// within `opts`' budget): the value, every first move's value (at `depth` 2 the
    /// replies to each too), the swap rule, each seat's forgiveness along perfect play and
    /// a certificate of the solved values. Games of two seats only.
    fn report(&self, depth: u32, opts: &Options) -> Result<DesignReport, Error> {
        let _ = (depth, opts);
        Err(Error::Unsupported(format!("no report for {}", self.spec())))
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
