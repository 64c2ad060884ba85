//! The one implementation of [`Session`]: what every game shares (seats, players by name,
//! tournaments, games, bot moves, playouts, the game graph, and the life cycle of the
//! tables its answers read) written once over a [`Strategy`], which says only what differs
//! between ways of solving.

mod game_graph;
mod matches;
mod opening;
mod players;
mod report;
mod strategy;
mod tables;

pub use strategy::{Made, Strategy};
pub use tables::Tables;

use std::sync::{Arc, Mutex};

use crate::analysis::selfplay::{Estimate, Plan};
use crate::game::{Game, Notation};
use crate::session::common;
use crate::session::{
    BotMove, Cost, Counts, DesignReport, Found, GameRecord, Graph, MoveValue, Options, PlayIo, PlayerInfo,
    PositionView, Session, Solution, Standings, Verdict,
};
use crate::spec::{GameInfo, COMMON_PLAYERS};
use crate::table::db::Database;
use crate::Error;

/// A game opened from a spec, answering through its strategy.
pub struct GameSession<S: Strategy> {
    info: &'static GameInfo,
    spec: String,
    seats: usize,
    strategy: S,
    held: Mutex<Option<Arc<S::Table>>>,
    /// The opening book read last, kept while its file is the same.
    opening: Mutex<Option<Arc<crate::table::opening::Opening>>>,
}

impl<S: Strategy> GameSession<S> {
    /// The session of `spec`, a game of `info` with `seats` seats, answering by `strategy`.
    pub fn new(info: &'static GameInfo, spec: &str, seats: usize, strategy: S) -> Self {
        GameSession {
            info,
            spec: spec.to_string(),
            seats,
            strategy,
            held: Mutex::new(None),
            opening: Mutex::new(None),
        }
    }

    fn tables<'a>(&'a self, opts: &'a Options) -> Tables<'a, S> {
        Tables {
            held: &self.held,
            strategy: &self.strategy,
            spec: &self.spec,
            opts,
        }
    }

    /// Refuses a solver the game does not offer, or any solver for a game solved one way.
    fn check_solver(&self, solver: Option<&str>) -> Result<(), Error> {
        let offered = self.strategy.solvers();
        match solver {
            Some(s) if offered.is_empty() => Err(Error::Unsupported(format!(
                "{} is solved one way only; there is no solver '{s}'",
                self.spec()
            ))),
            Some(s) if !offered.contains(&s) => Err(Error::Unsupported(format!(
                "unknown solver '{s}' for {} (solvers: {})",
                self.spec(),
                offered.join(", ")
            ))),
            _ => Ok(()),
        }
    }

    /// `answer`; a table that failed to read is forgotten, so that the next answer finds
    /// it again (repaired or replaced).
    fn settled<T>(&self, answer: Result<T, Error>) -> Result<T, Error> {
        if matches!(answer, Err(Error::Database { .. } | Error::Io(_))) {
            *self.held.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
        answer
    }
}

impl<S: Strategy> Session for GameSession<S> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn solvers(&self) -> Vec<&'static str> {
        self.strategy.solvers()
    }

    fn splits(&self) -> bool {
        self.strategy.splits()
    }

    fn players(&self) -> Vec<PlayerInfo> {
        let own = self.info.players.iter();
        own.chain(COMMON_PLAYERS).cloned().collect()
    }

    fn default_players(&self) -> Vec<String> {
        self.strategy.default_players()
    }

    fn estimate(&self, opts: &Options) -> Result<Cost, Error> {
        let game = self.strategy.game("solve")?;
        let start = common::start(game, opts)?;
        self.settled(self.strategy.estimate(&start, opts, &self.tables(opts)))
    }

    fn setup_cost(&self, players: &[String], opts: &Options) -> Result<Cost, Error> {
        // A player `NAME:P` plays as `NAME`; programs of your own solve nothing here.
        let names: Vec<String> = players
            .iter()
            .filter(|n| !n.trim().starts_with("cmd:"))
            .map(|n| {
                let name = n.trim().to_ascii_lowercase();
                match name.split_once(':') {
                    // `soft:T` reads every move's exact value, as `perfect` does.
                    Some(("soft", _)) => "perfect".to_string(),
                    Some((inner, _)) => inner.to_string(),
                    None => name,
                }
            })
            .collect();
        self.settled(self.strategy.setup_cost(&names, opts, &self.tables(opts)))
    }

    fn solve(&self, opts: &Options) -> Result<Solution, Error> {
        self.check_solver(opts.solver.as_deref())?;
        let game = self.strategy.game("solve")?;
        let start = common::start(game, opts)?;
        let tables = self.tables(opts);
        if opts.force {
            tables.forget();
        }
        if let Some(depth) = opts.book {
            let details = self.make_opening(depth, opts)?;
            let found = self
                .booked_solve(&start, opts)?
                .map(|found| Found { details, ..found });
            let found =
                found.ok_or_else(|| Error::Unsupported("the opening book misses the start".into()))?;
            let to_move = game.player_name(game.to_move(&start));
            return Ok(Solution::new(self.spec(), None, to_move, found));
        }
        let booked = match (opts.force, &opts.solver) {
            (false, None) => self.booked_solve(&start, opts)?,
            _ => None,
        };
        let found = match booked {
            Some(found) => Ok(found),
            None => {
                let cost = self.settled(self.strategy.estimate(&start, opts, &tables))?;
                opts.budget.check(&format!("solving {}", self.spec()), cost)?;
                self.strategy.solve(&start, opts, &tables)
            }
        };
        let solution = found.map(|found| {
            let position = opts.position.as_ref().map(|_| game.format_position(&start));
            let to_move = game.player_name(game.to_move(&start));
            Solution::new(self.spec(), position, to_move, found)
        });
        self.settled(solution)
    }

    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        let game = self.strategy.game("position")?;
        let p = common::replay(game, common::start(game, opts)?, moves)?;
        self.settled(self.view_of(&p, opts))
    }

    fn unvalued(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        if !self.strategy.lists_unvalued() {
            return Err(Error::Unsupported(format!(
                "the moves of {} are not listed without their values",
                self.spec()
            )));
        }
        let game = self.strategy.game("position")?;
        let p = common::replay(game, common::start(game, opts)?, moves)?;
        let moves: Vec<MoveValue> = game
            .legal_moves(&p)
            .iter()
            .map(|m| MoveValue {
                notation: game.format_move(&p, m),
                verdict: Verdict::unknown(),
                best: false,
                note: None,
            })
            .collect();
        Ok(PositionView {
            points: self.strategy.points(game, &p),
            ..common::view(self.spec(), game, &p, Verdict::unknown(), moves)
        })
    }

    fn count(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        if opts.position.is_some() {
            return Err(Error::Unsupported(format!(
                "count counts the games of {} from its start, not from a position",
                self.spec()
            )));
        }
        self.strategy.count(symmetry, opts).unwrap_or_else(|| {
            Err(Error::Unsupported(format!(
                "count is not available for {}",
                self.spec()
            )))
        })
    }

    fn graph(&self, symmetry: bool, max_positions: u64, opts: &Options) -> Result<Graph, Error> {
        self.graph_of(symmetry, max_positions, opts)
    }

    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        self.settled(self.tournament_of(players, games, seed, opts, after))
    }

    fn selfplay(
        &self,
        players: &[String],
        plan: &Plan,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Estimate, Error> {
        self.settled(self.selfplay_of(players, plan, opts, after))
    }

    fn play(
        &self,
        seats: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        self.settled(self.play_one(seats, seed, opts, io))
    }

    fn bot_move(&self, moves: &[String], player: &str, seed: u64, opts: &Options) -> Result<String, Error> {
        self.settled(
            self.bot_move_of(moves, player, seed, opts, false)
                .map(|b| b.notation),
        )
    }

    fn bot_choice(
        &self,
        moves: &[String],
        player: &str,
        seed: u64,
        opts: &Options,
    ) -> Result<BotMove, Error> {
        self.settled(self.bot_move_of(moves, player, seed, opts, true))
    }

    fn report(&self, depth: u32, opts: &Options) -> Result<DesignReport, Error> {
        self.settled(self.report_of(depth, opts))
    }

    fn playout(&self, seed: u64) -> Result<usize, Error> {
        let game = self.strategy.game("a playout")?;
        common::playout(game, game.start(), seed)
    }

    fn check_opening(&self, path: &std::path::Path, sample: u64, seed: u64) -> Result<u64, Error> {
        self.opening_checked(path, sample, seed)
    }

    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        self.strategy.check_sample(db, sample, seed).unwrap_or_else(|| {
            Err(Error::Unsupported(format!(
                "{} saves no database to check",
                self.spec()
            )))
        })
    }

    /// What the held table takes; a table being found or made right now (its lock taken)
    /// counts once it is held, so that asking never waits for that work.
    fn held_bytes(&self) -> u64 {
        let held = match self.held.try_lock() {
            Ok(held) => held,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return 0,
        };
        held.as_deref().map_or(0, S::held_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::tables::tests::{quiet, Probe};
    use super::*;
    use crate::games::mnk::Mnk;
    use crate::solve::minimax;
    use crate::value::Value;

    #[test]
    fn solve_and_every_move_agree_with_plain_minimax() {
        let game = Mnk::new(3, 3, 3).unwrap();
        let session = crate::catalog::open("tictactoe").unwrap();
        let opts = quiet();
        let start = game.start();
        let solved = session.solve(&opts).unwrap();
        assert_eq!(solved.verdict.value, Some(minimax::value(&game, &start).class()));
        // One move in, every reply valued as minimax values it, for the mover.
        let first = game.legal_moves(&start)[4];
        let after = game.play(&start, &first);
        let view = session
            .position(&[game.format_move(&start, &first)], &opts)
            .unwrap();
        assert_eq!(view.moves.len(), game.legal_moves(&after).len());
        for m in &view.moves {
            let child = game.play(&after, &game.parse_move(&after, &m.notation).unwrap());
            let mover_kept = game.to_move(&child) == game.to_move(&after);
            let expected = Value::from_child(minimax::value(&game, &child), mover_kept);
            assert_eq!(m.verdict.value, Some(expected.class()), "{}", m.notation);
        }
    }

    #[test]
    fn unvalued_lists_every_legal_move_without_a_value() {
        let game = Mnk::tictactoe();
        let session = crate::catalog::open("tictactoe").unwrap();
        let view = session.unvalued(&[], &quiet()).unwrap();
        let legal: Vec<String> = game
            .legal_moves(&game.start())
            .iter()
            .map(|m| game.format_move(&game.start(), m))
            .collect();
        let listed: Vec<String> = view.moves.iter().map(|m| m.notation.clone()).collect();
        assert_eq!(listed, legal);
        assert!(view.moves.iter().all(|m| m.verdict.value.is_none()));
    }

    #[test]
    fn solvers_not_offered_and_counts_from_a_position_are_refused() {
        let probe = Probe::session(false);
        let asked = Options {
            solver: Some("retrograde".into()),
            ..quiet()
        };
        let refused = probe.solve(&asked).unwrap_err().to_string();
        assert!(refused.contains("solved one way only"), "{refused}");
        assert!(probe.count(false, &quiet()).is_err());
        let tictactoe = crate::catalog::open("tictactoe").unwrap();
        let from = Options {
            position: Some(tictactoe.unvalued(&[], &quiet()).unwrap().position),
            ..quiet()
        };
        let refused = tictactoe.count(false, &from).unwrap_err().to_string();
        assert!(refused.contains("not from a position"), "{refused}");
    }

    #[test]
    fn a_table_that_fails_to_read_is_forgotten() {
        let session = Probe::session(true);
        let opts = quiet();
        session.tables(&opts).keep(3);
        assert_eq!(session.held_bytes(), 300);
        let kept: Result<(), Error> = session.settled(Err(Error::Unsupported("not a read".into())));
        assert!(kept.is_err());
        assert_eq!(session.held_bytes(), 300);
        let failed: Result<(), Error> = session.settled(Err(Error::Io("gone".into())));
        assert!(failed.is_err());
        assert_eq!(session.held_bytes(), 0);
    }
}
