//! The one implementation of [`Session`]: what every game shares (seats, players by name,
//! tournaments, games, bot moves, playouts, the game graph, and the life cycle of the
//! tables its answers read) written once over a [`Strategy`], which says only what differs
//! between ways of solving.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::common::{self, check_seats, outcome_words, program, Special, MAX_PLIES};
use super::{
    bytes_text, Big, BotMove, Budget, Cost, Counts, DesignReport, Fact, FirstMove, FirstMoves, ForfeitReason,
    Found, GameRecord, Graph, GraphEdge, GraphNode, MoveTally, MoveValue, Options, PlayIo, PlayerInfo,
    PositionView, RatingRow, Replies, SeatPlayer, SeatResults, SeatRow, Session, Solution, StandingRow,
    Standings, SwapRule, Verdict,
};
use crate::analysis::report::{self as design, Certificate, Forgiveness};
use crate::analysis::selfplay::{self, Estimate, GameResult, Plan};
use crate::analysis::stats::Share;
use crate::analysis::{graph, rating};
use crate::error::{Part, Said};
use crate::game::{Game, Notation, PlayerId};
use crate::play::command::Program;
use crate::play::external::{External, Mover};
use crate::play::human::Human;
use crate::play::soft::{MoveWorths, Soft};
use crate::play::{play_match, tournament, Player};
use crate::solve::{KeyFn, Limit};
use crate::spec::{GameInfo, COMMON_PLAYERS};
use crate::table::db::Database;
use crate::{Class, Error};

/// Bytes a graph takes per position visited, about: the position kept two or three times,
/// its node and edges, their text.
const GRAPH_BYTES: u64 = 512;
/// The most positions a report walks along perfect play position by position (a level
/// table is walked whole, in one pass).
const REPORT_SUBGRAPH: u64 = 1_000_000;
/// The most seconds a report's walk along perfect play, or its certificate, takes when
/// the budget sets none.
const REPORT_PART_SECONDS: f64 = 60.0;
/// Bytes a report keeps per position of the perfect-play subgraph, about.
const SUBGRAPH_BYTES: u64 = 128;
/// The most positions a certificate explores when no saved table holds the values.
const CERTIFIED_POSITIONS: u64 = 2_000_000;

/// A player made by name, or why it cannot play.
pub type Made<'s, G> = Result<Box<dyn Player<G> + 's>, Error>;

/// The game of each tournament game, and where it starts, by its number.
type Games<'a, G> = Box<dyn FnMut(u64) -> (G, <G as Game>::Position) + 'a>;
/// A fixed start for every game of a run: the game and the position; `None` when each
/// game starts from its own start.
type FixedStart<'a, G> = Option<(&'a G, <G as Game>::Position)>;

/// What differs between the ways of solving a game: how it solves, values positions, makes
/// its own players and finds its tables. [`GameSession`] does everything else, and owns
/// what every strategy would restate (the spec, the seats, the solver check, the budget
/// check before a solve). A strategy implements five methods; the others are hooks with
/// defaults, grouped by role.
pub trait Strategy: Send + Sync + Sized + 'static {
    /// The game played.
    type Game: Notation + Clone + Send + Sync + 'static;
    /// What answers read and a session keeps between them (a saved table, a book, values
    /// computed once); `()` for strategies that keep nothing.
    type Table: Send + Sync + 'static;

    // Required: the game, and how the strategy solves, values and plays it.
    /// The game played from its start, or why this session has none for `command` (it
    /// deals a game per tournament game).
    fn game(&self, command: &str) -> Result<&Self::Game, Error>;
    /// What solving from `start` will cost: the game's start, or the position of
    /// [`Options::position`].
    fn estimate(
        &self,
        start: &<Self::Game as Game>::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<Cost, Error>;
    /// Solves the game from `start` (the game's start, or the position of
    /// [`Options::position`]): the exact value of `start` for its mover. The session fills
    /// the position and who moves there.
    fn solve(
        &self,
        start: &<Self::Game as Game>::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<Found, Error>;
    /// The view of `p`, a position of [`Strategy::game`], with its moves valued.
    fn view(
        &self,
        p: &<Self::Game as Game>::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<PositionView, Error>;
    /// The first moves of `start` that a solve stopped before the end proved, kept where
    /// the same solve goes on from (a proof's checkpoint): the view of `start` with those
    /// moves valued and the others unknown; `None` where the strategy keeps none.
    fn proved_so_far(
        &self,
        _start: &<Self::Game as Game>::Position,
        _opts: &Options,
    ) -> Option<Result<PositionView, Error>> {
        None
    }
    /// The strategy's own player `name` (lower case), honouring `opts`' budget; `None` when
    /// the name is not one of its players.
    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, Self::Game>>;
    // What the game offers besides: solvers, default players, symmetry, points.
    /// The solvers `solve --solver` takes, the default first (empty: the game has one way).
    fn solvers(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Whether `solve` splits its work across processes by `Options::partition`.
    fn splits(&self) -> bool {
        false
    }
    /// The players of a tournament when none are named: one per seat.
    fn default_players(&self) -> Vec<String> {
        vec!["perfect".into(), "random".into()]
    }
    /// The representative of a position's class under the game's symmetries, for the graph
    /// up to symmetry; `None` when the strategy knows no symmetries of its game.
    fn symmetry(&self) -> Option<KeyFn<Self::Game>> {
        None
    }
    /// The points of every seat in `p`, in score games.
    fn points(&self, game: &Self::Game, p: &<Self::Game as Game>::Position) -> Option<Vec<i32>> {
        let _ = (game, p);
        None
    }
    // The table answers read: found, kept while current, measured.
    /// The table answers read, found now (or, for strategies that solve before they
    /// answer, made now); `None` when there is none.
    fn load(&self, opts: &Options) -> Result<Option<Self::Table>, Error> {
        let _ = opts;
        Ok(None)
    }
    /// Whether `table` still reads the files it was found in (a file replaced or rewritten
    /// since, say repaired, is found again).
    fn is_current(table: &Self::Table) -> bool {
        let _ = table;
        true
    }
    /// Bytes `table` holds in memory.
    fn held_bytes(table: &Self::Table) -> u64 {
        let _ = table;
        0
    }
    /// Forgiveness along perfect play from `start` in one pass over `table`, where the
    /// table allows it; `None` to walk position by position through [`Strategy::view`].
    fn forgiveness(
        &self,
        start: &<Self::Game as Game>::Position,
        table: &Self::Table,
        limit: &Limit,
    ) -> Option<Result<Forgiveness, Error>> {
        let _ = (start, table, limit);
        None
    }
    /// The saved database `table` reads, when it reads one.
    fn database(table: &Self::Table) -> Option<&Database> {
        let _ = table;
        None
    }
    /// Whether a position's legal moves may be listed without their values
    /// ([`Session::unvalued`]); not where a position may have more moves than memory holds.
    fn lists_unvalued(&self) -> bool {
        true
    }
    // Games, tournaments and self-play: what they need, refuse and deal.
    /// What a game between `names` (lower case, as [`Strategy::player`] takes them) must
    /// solve before its first move; see [`Session::setup_cost`]. Nothing by default.
    fn setup_cost(&self, names: &[String], opts: &Options, tables: &Tables<'_, Self>) -> Result<Cost, Error> {
        let _ = (names, opts, tables);
        Ok(Cost::default())
    }
    /// Refuses a game or tournament from `start` (the game's start, or the position of
    /// [`Options::position`]) when it cannot be played here (players that cannot play
    /// refuse when they are made, see [`Strategy::player`]).
    fn check_start(&self, start: &<Self::Game as Game>::Position) -> Result<(), Error> {
        let _ = start;
        Ok(())
    }
    /// Refuses the move of `player` in `p` when it cannot be made within `opts`' budget.
    fn check_bot(
        &self,
        p: &<Self::Game as Game>::Position,
        player: &str,
        opts: &Options,
    ) -> Result<(), Error> {
        let _ = (p, player, opts);
        Ok(())
    }
    /// The game of each tournament game between `names` from `seed`, by its number: the
    /// session's game unless the strategy deals others. A tournament from a position
    /// ([`Options::position`]) deals nothing: the position fixes the board, so every game
    /// is played on [`Strategy::game`] from it.
    fn dealer(&self, names: &[String], seed: u64) -> Result<Box<dyn FnMut(u64) -> Self::Game + '_>, Error> {
        let _ = (names, seed);
        let g = self.game("a tournament")?;
        Ok(Box::new(move |_| g.clone()))
    }
    /// The game of a self-play game between `names` from its own `seed` alone (games are
    /// played in any order, on any thread): the first game [`Strategy::dealer`] deals from
    /// `seed`, which is the session's game unless the strategy deals others.
    fn selfplay_game(&self, names: &[String], seed: u64) -> Result<Self::Game, Error> {
        Ok(self.dealer(names, seed)?(0))
    }
    /// What the standings of a tournament between `names` tell besides the tallies.
    fn tournament_facts(&self, names: &[String]) -> Vec<Fact> {
        let _ = names;
        Vec::new()
    }
    // Counting and checking saved tables.
    /// Counts positions and complete games; `None` when the strategy does not count.
    fn count(&self, symmetry: bool, opts: &Options) -> Option<Result<Counts, Error>> {
        let _ = (symmetry, opts);
        None
    }
    /// Re-solves `sample` random positions of `db`, a saved database of this game; `None`
    /// when the strategy saves no database.
    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        let _ = (db, sample, seed);
        None
    }
}

/// The table a session holds, and how to find it: a strategy asks for it when it needs it,
/// and it is found once, kept, and forgotten when it fails.
pub struct Tables<'a, S: Strategy> {
    held: &'a Mutex<Option<Arc<S::Table>>>,
    strategy: &'a S,
    spec: &'a str,
    opts: &'a Options,
}

impl<S: Strategy> Tables<'_, S> {
    /// The held table, if any and still current, without looking for one.
    pub fn held(&self) -> Option<Arc<S::Table>> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.clone().filter(|t| S::is_current(t))
    }

    /// The held table, or the one [`Strategy::load`] finds now (then held); a table
    /// not found is looked for once in a command or request ([`Options::absent`]).
    pub fn get(&self) -> Result<Option<Arc<S::Table>>, Error> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = held.as_ref().filter(|t| S::is_current(t)) {
            return Ok(Some(t.clone()));
        }
        let absent = &self.opts.absent;
        if absent.has(&self.opts.data_dir, self.spec) {
            *held = None;
            return Ok(None);
        }
        let loaded = self.strategy.load(self.opts)?.map(Arc::new);
        absent.set(&self.opts.data_dir, self.spec, loaded.is_some());
        held.clone_from(&loaded);
        Ok(loaded)
    }

    /// Keeps `table` for later answers, instead of the one held.
    pub fn keep(&self, table: S::Table) -> Arc<S::Table> {
        let table = Arc::new(table);
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(table.clone());
        self.opts.absent.set(&self.opts.data_dir, self.spec, true);
        table
    }

    /// Drops the held table: the next answer looks for it again.
    pub fn forget(&self) {
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.opts.absent.set(&self.opts.data_dir, self.spec, true);
    }
}

/// A game opened from a spec, answering through its strategy.
pub struct GameSession<S: Strategy> {
    info: &'static GameInfo,
    spec: String,
    seats: usize,
    strategy: S,
    held: Mutex<Option<Arc<S::Table>>>,
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

    /// How the players of your own and the strategy's players are made by name.
    fn special<'s>(&'s self, opts: &'s Options) -> Box<Special<'s, S::Game>> {
        Box::new(move |name: &str, seed: u64| {
            let spec = self.spec();
            if let Some(made) = guest(spec, name, seed, opts) {
                return Some(made.map(|m| Box::new(External::new(spec, m)) as Box<dyn Player<S::Game>>));
            }
            let name = name.to_ascii_lowercase();
            if let Some(t) = name.strip_prefix("soft:") {
                return Some(self.soft(t, seed, opts));
            }
            self.strategy.player(&name, seed, opts, &self.tables(opts))
        })
    }

    /// The player `soft:T`, valuing every move as [`Session::position`] does.
    fn soft<'s>(&'s self, t: &str, seed: u64, opts: &'s Options) -> Made<'s, S::Game> {
        let temperature = Soft::<S::Game>::temperature(t)?;
        // A strategy that deals a board per game values the moves of its own game only.
        self.strategy.game("the soft player")?;
        // It values every move exactly, as the perfect player does: refused at once where
        // that player is, in the same words, rather than left to search without end.
        if let Some(Err(e)) = self.strategy.player("perfect", seed, opts, &self.tables(opts)) {
            return Err(e);
        }
        let all = Options {
            all_moves: true,
            ..opts.clone()
        };
        let worths: MoveWorths<'s, S::Game> = Box::new(move |g: &S::Game, p| {
            let view = self.strategy.view(p, &all, &self.tables(opts))?;
            view.moves
                .iter()
                .map(|m| {
                    let worth = match m.verdict.margin {
                        Some(margin) => f64::from(margin),
                        None => f64::from(class_of(&m.verdict)?.sign()),
                    };
                    Ok((g.parse_move(p, &m.notation)?, worth))
                })
                .collect()
        });
        Ok(Box::new(Soft::new(worths, temperature, seed)))
    }

    /// The start of every game of `what` (a tournament, self-play) between the programs
    /// `names`: the session's game and `opts`' position when one is given (it fixes the
    /// board, so nothing is dealt), else `None` (each game starts where the game or its
    /// dealt board does); humans are refused, and the start is checked.
    fn programs_start(
        &self,
        names: &[String],
        what: &str,
        opts: &Options,
    ) -> Result<FixedStart<'_, S::Game>, Error> {
        if names.iter().any(|n| n.trim().eq_ignore_ascii_case("human")) {
            return Err(Error::Unsupported(format!(
                "{what} is between programs; play against one with `zermelo play`"
            )));
        }
        let from = match opts.position {
            Some(_) => {
                let game = self.strategy.game(&format!("{what} from a position"))?;
                Some((game, common::start(game, opts)?))
            }
            None => None,
        };
        match (&from, self.strategy.game(what)) {
            (Some((_, start)), _) => self.strategy.check_start(start)?,
            (None, Ok(game)) => self.strategy.check_start(&game.start())?,
            // A strategy without one game deals each.
            (None, Err(_)) => {}
        }
        Ok(from)
    }

    fn tournament_of(
        &self,
        names: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        check_seats(self.spec(), self.seats(), names, "a tournament")?;
        if games == 0 {
            return Err(Error::Unsupported("a tournament needs at least one game".into()));
        }
        let from = self.programs_start(names, "a tournament", opts)?;
        let from_text = from.as_ref().map(|(g, p)| g.format_position(p));
        let special = self.special(opts);
        let known = self.players();
        let mut players = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                program(
                    n,
                    seed.wrapping_add(i as u64),
                    special.as_ref(),
                    &known,
                    &opts.budget,
                )
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let mut deal: Games<'_, S::Game> = match from {
            Some((game, start)) => Box::new(move |_| (game.clone(), start.clone())),
            None => {
                let mut dealt = self.strategy.dealer(names, seed)?;
                Box::new(move |i| {
                    let g = dealt(i);
                    let start = g.start();
                    (g, start)
                })
            }
        };
        // What the game calls each seat's player, from the first game dealt.
        let mut seat_names = Vec::new();
        let named = |i: u64| {
            let (g, start) = deal(i);
            if seat_names.is_empty() {
                seat_names = (0..names.len()).map(|s| g.player_name(s as PlayerId)).collect();
            }
            (g, start)
        };
        let result = tournament(&mut players, games, named, |i| {
            after(i);
            match opts.budget.cancelled() {
                true => Err(Error::Cancelled),
                false => Ok(()),
            }
        })?;
        let pct = |n: u64| 100.0 * n as f64 / result.games as f64;
        let player_names: Vec<String> = result.standings.iter().map(|s| s.name.clone()).collect();
        let ratings = (names.len() > 2)
            .then(|| rating::bradley_terry(&result.beat))
            .flatten();
        Ok(Standings {
            game: self.spec().to_string(),
            position: from_text,
            games: result.games,
            players: result
                .standings
                .iter()
                .map(|s| StandingRow {
                    player: s.name.clone(),
                    wins: s.tally.wins,
                    shared: s.tally.shared,
                    draws: s.tally.draws,
                    losses: s.tally.losses,
                    forfeits: s.forfeits,
                    forfeit_reasons: s
                        .forfeit_reasons
                        .iter()
                        .map(|(why, games)| ForfeitReason {
                            why: why.clone(),
                            games: *games,
                        })
                        .collect(),
                    win_pct: pct(s.tally.wins),
                    shared_pct: pct(s.tally.shared),
                    draw_pct: pct(s.tally.draws),
                    loss_pct: pct(s.tally.losses),
                    points: s.tally.points,
                    points_share: Share::wilson(s.tally.points, s.tally.games),
                })
                .collect(),
            seats: result
                .seats
                .iter()
                .zip(seat_names)
                .enumerate()
                .map(|(seat, (r, name))| SeatRow {
                    seat: seat as u8,
                    name,
                    results: SeatResults::from(&r.tally),
                    players: player_names
                        .iter()
                        .zip(&r.players)
                        .map(|(player, t)| SeatPlayer {
                            player: player.clone(),
                            results: SeatResults::from(t),
                        })
                        .collect(),
                })
                .collect(),
            ratings: ratings.map(|r| {
                player_names
                    .iter()
                    .zip(r)
                    .map(|(player, r)| RatingRow {
                        player: player.clone(),
                        elo: r.elo,
                        error: r.error,
                    })
                    .collect()
            }),
            details: self.strategy.tournament_facts(names),
        })
    }

    fn selfplay_of(
        &self,
        names: &[String],
        plan: &Plan,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Estimate, Error> {
        let started = Instant::now();
        let seats = self.seats();
        let names = match names {
            [one] => vec![one.clone(); seats],
            _ => names.to_vec(),
        };
        check_seats(self.spec(), seats, &names, "self-play")?;
        plan.check()?;
        let from = self.programs_start(&names, "self-play", opts)?;
        // Every part of the run ends when the run must: at the budget's seconds from now.
        let ends = opts.budget.limit(1).deadline;
        let opts = Options {
            budget: Budget {
                ends,
                ..opts.budget.clone()
            },
            ..opts.clone()
        };
        let budget = &opts.budget;
        let known = self.players();
        let what = format!("self-play of {}", self.spec());
        let deal = |seed: u64| -> Result<(S::Game, <S::Game as Game>::Position), Error> {
            Ok(match &from {
                Some((game, start)) => ((*game).clone(), start.clone()),
                None => {
                    let game = self.strategy.selfplay_game(&names, seed)?;
                    let start = game.start();
                    (game, start)
                }
            })
        };
        // Unknown names, and players asking for more than the budget, are refused before
        // any game starts; a player's label names it.
        let special = self.special(&opts);
        let (game, start) = deal(plan.seed)?;
        let labels = names
            .iter()
            .map(|n| {
                let player = program(n, 0, special.as_ref(), &known, budget)?;
                player.check(&game, &start)?;
                Ok(player.name())
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let totals = selfplay::run(plan, seats, opts.partition.as_ref(), |i| {
            if budget.cancelled() || ends.is_some_and(|t| Instant::now() >= t) {
                return Err(budget.stopped(&what));
            }
            let seed = plan.game_seed(i);
            let (game, start) = deal(seed)?;
            let special = self.special(&opts);
            let mut players = names
                .iter()
                .enumerate()
                .map(|(s, n)| program(n, selfplay::seat_seed(seed, s), special.as_ref(), &known, budget))
                .collect::<Result<Vec<_>, Error>>()?;
            let mut refs: Vec<&mut dyn Player<S::Game>> = players
                .iter_mut()
                .map(|p| p.as_mut() as &mut dyn Player<S::Game>)
                .collect();
            let record = play_match(&game, start, &mut refs, MAX_PLIES, |_, _| {})
                .map_err(|e| budget.stopped_as(e, &what))?;
            after(i);
            Ok(GameResult {
                outcome: record.outcome,
                plies: record.moves.len() as u32,
                points: self.strategy.points(&game, &record.last),
            })
        })?;
        let seconds = started.elapsed().max(Duration::from_nanos(1)).as_secs_f64();
        Ok(totals.estimate(self.spec(), labels, plan, seconds))
    }

    fn play_one(
        &self,
        names: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        let game = self.strategy.game("play")?;
        let start = common::start(game, opts)?;
        check_seats(self.spec(), self.seats(), names, "a game")?;
        self.strategy.check_start(&start)?;
        let special = self.special(opts);
        let known = self.players();
        let shared = RefCell::new(io);
        let mut seats: Vec<Box<dyn Player<S::Game> + '_>> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            if name.trim().eq_ignore_ascii_case("human") {
                seats.push(Box::new(Seat { io: &shared }));
            } else {
                seats.push(program(
                    name,
                    seed.wrapping_add(i as u64),
                    special.as_ref(),
                    &known,
                    &opts.budget,
                )?);
            }
        }
        let labels: Vec<String> = seats.iter().map(|p| p.name()).collect();
        let mut refs: Vec<&mut dyn Player<S::Game>> = seats
            .iter_mut()
            .map(|p| p.as_mut() as &mut dyn Player<S::Game>)
            .collect();
        let mut before = None;
        let mut moves = Vec::new();
        let position = opts.position.as_ref().map(|_| game.format_position(&start));
        let record = play_match(game, start, &mut refs, MAX_PLIES, |p, m| {
            let mut line = String::new();
            if let (Some(m), Some(b)) = (m, &before) {
                let text = game.format_move(b, m);
                line += &format!("{} played {text}\n", game.player_name(game.to_move(b)));
                moves.push(text);
            }
            line += &game.render(p);
            let mut io = shared.borrow_mut();
            (io.show)(&line);
            before = Some(p.clone());
        })?;
        Ok(GameRecord {
            game: self.spec().to_string(),
            position,
            players: labels,
            moves,
            result: outcome_words(game, record.outcome),
            forfeit: record
                .forfeit
                .map(|(seat, why)| format!("{} forfeits: {why}", names[seat as usize])),
            points: self.strategy.points(game, &record.last),
        })
    }

    fn graph_of(&self, symmetry: bool, max: u64, opts: &Options) -> Result<Graph, Error> {
        let game = self.strategy.game("a graph")?;
        let spec = self.spec();
        let key = if symmetry {
            Some(self.strategy.symmetry().ok_or_else(|| {
                Error::bad_option(
                    "symmetry",
                    None,
                    format!("{spec} has no symmetries known here to draw its graph up to; leave it out"),
                )
            })?)
        } else {
            None
        };
        let what = if symmetry { "classes" } else { "positions" };
        // Memory bounded as a search's table is: --memory, else at most a gigabyte.
        let bytes = opts.budget.table_bytes();
        let limit = Limit {
            positions: usize::try_from(bytes / GRAPH_BYTES).ok(),
            ..opts.budget.limit(GRAPH_BYTES)
        };
        let explored = graph::explore(game, &game.start(), key, max, &limit, opts.progress.as_ref())
            .map_err(|e| match e {
                Error::TooBig(_) if opts.budget.seconds.is_none() && !opts.budget.cancelled() => {
                    Error::too_big(format!(
                        "the graph of {spec} needs more than the {} of memory it may use: give it more memory",
                        bytes_text(bytes)
                    ))
                }
                e => opts.budget.stopped_as(e, &format!("drawing the graph of {spec}")),
            })?
            .ok_or_else(|| {
                Error::TooBig(Said(vec![
                    Part::Text(format!("the graph of {spec} has more than {max} {what} (the limit: ")),
                    Part::Option("max_positions"),
                    Part::Text(")".into()),
                ]))
            })?;
        let player = |seat| game.player_name(seat);
        let nodes = explored
            .nodes
            .iter()
            .enumerate()
            .map(|(id, n)| {
                let p = &n.position;
                let outcome = game.outcome(p);
                GraphNode {
                    id: id as u64,
                    position: game.format_position(p),
                    seat: game.to_move(p),
                    player: player(game.to_move(p)),
                    terminal: outcome.is_some(),
                    result: outcome.map(|o| outcome_words(game, o)),
                    points: outcome.and_then(|_| self.strategy.points(game, p)),
                    value: n.value.map(|v| v.class()),
                    remoteness: n.value.and_then(|v| v.remoteness()),
                    size: n.size,
                }
            })
            .collect();
        let edges = explored
            .edges
            .iter()
            .map(|e| {
                let from = &explored.nodes[e.source].position;
                let seat = game.to_move(from);
                GraphEdge {
                    source: e.source as u64,
                    target: e.target as u64,
                    notation: game.format_move(from, &e.first),
                    seat,
                    player: player(seat),
                    count: e.count,
                }
            })
            .collect();
        Ok(Graph {
            game: spec.to_string(),
            symmetry,
            directed: true,
            multigraph: false,
            positions: Big(explored.positions().into()),
            seats: self.seats,
            players: (0..self.seats).map(|s| player(s as PlayerId)).collect(),
            nodes,
            edges,
        })
    }

    fn report_of(&self, depth: u32, opts: &Options) -> Result<DesignReport, Error> {
        let started = Instant::now();
        let spec = self.spec();
        if self.seats != 2 {
            return Err(Error::Unsupported(format!(
                "a report needs a game of two seats; {spec} has {}",
                self.seats
            )));
        }
        if !(1..=2).contains(&depth) {
            return Err(Error::bad_option(
                "depth",
                Some(&depth.to_string()),
                "give 1 or 2",
            ));
        }
        let game = self.strategy.game("a report")?;
        let solution = match self.solve(opts) {
            Err(Error::TooBig(why)) => return self.stopped_report(game, why, opts, started),
            solution => solution?,
        };
        let opts = Options {
            all_moves: true,
            ..opts.clone()
        };
        let tables = self.tables(&opts);
        let view = |p: &<S::Game as Game>::Position| self.strategy.view(p, &opts, &tables);
        let start = common::start(game, &opts)?;
        let first = view(&start)?;
        let class = class_of(&first.verdict)?;
        let moves = first
            .moves
            .iter()
            .map(|m| {
                let replies = match depth {
                    2 => {
                        let child = common::replay(game, start.clone(), std::slice::from_ref(&m.notation))?;
                        let reply = view(&child)?;
                        (!reply.terminal).then(|| Replies {
                            to_move: reply.to_move.clone(),
                            tally: MoveTally::of(&reply.moves),
                            moves: reply.moves,
                        })
                    }
                    _ => None,
                };
                Ok(FirstMove {
                    notation: m.notation.clone(),
                    verdict: m.verdict.clone(),
                    replies,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let keeping = first
            .moves
            .iter()
            .filter(|m| class_of(&m.verdict).ok() == Some(class))
            .count() as u64;
        let total = first.moves.len() as u64;
        let warning = (keeping < total).then(|| {
            format!(
                "only {keeping} of {total} first moves keep the {}",
                solution.verdict.value.map_or("value", Class::word)
            )
        });
        let mut notes = Vec::new();
        let forgiveness = self.forgiveness_of(game, &start, &opts, &mut notes)?;
        let certificate = left_out(self.certificate_of(&opts), "certificate", &mut notes)?;
        Ok(DesignReport {
            game: spec.to_string(),
            to_move: first.to_move.clone(),
            verdict: solution.verdict,
            solver: solution.solver,
            first_moves: FirstMoves {
                tally: MoveTally::of(&first.moves),
                keeping,
                warning,
                moves,
            },
            swap: swap_rule(&first.moves)?,
            forgiveness,
            certificate,
            compensation: None,
            strengths: None,
            notes,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// The report of a game whose solve stopped at the budget (`why`): the first moves
    /// proved so far, where the strategy keeps them and proved any ([`Strategy::proved_so_far`]);
    /// else the refusal.
    fn stopped_report(
        &self,
        game: &S::Game,
        why: crate::error::Said,
        opts: &Options,
        started: Instant,
    ) -> Result<DesignReport, Error> {
        let start = common::start(game, opts)?;
        let Some(view) = self.strategy.proved_so_far(&start, opts) else {
            return Err(Error::TooBig(why));
        };
        let view = view?;
        let proved = view.moves.iter().filter(|m| m.verdict.value.is_some()).count();
        if proved == 0 {
            return Err(Error::TooBig(why));
        }
        let keeping = view
            .moves
            .iter()
            .filter(|m| view.verdict.value.is_some() && m.verdict.value == view.verdict.value)
            .count() as u64;
        Ok(DesignReport {
            game: self.spec().to_string(),
            to_move: view.to_move.clone(),
            verdict: view.verdict.clone(),
            solver: "stopped before the end".into(),
            first_moves: FirstMoves {
                tally: MoveTally::of(&view.moves),
                keeping,
                warning: Some(format!(
                    "{why}: {proved} of {} first moves proved so far",
                    view.moves.len()
                )),
                moves: view
                    .moves
                    .iter()
                    .map(|m| FirstMove {
                        notation: m.notation.clone(),
                        verdict: m.verdict.clone(),
                        replies: None,
                    })
                    .collect(),
            },
            swap: SwapRule {
                fairest: Vec::new(),
                exact_draw: false,
                value: Verdict::unknown(),
            },
            forgiveness: None,
            certificate: None,
            compensation: None,
            strengths: None,
            notes: vec![
                "the swap rule, forgiveness and certificate are left out: the solve stopped before the end"
                    .into(),
            ],
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Forgiveness along perfect play from `start`, every position's moves valued as
    /// [`Session::position`] values them; left out (with a note) when too big.
    fn forgiveness_of(
        &self,
        game: &S::Game,
        start: &<S::Game as Game>::Position,
        opts: &Options,
        notes: &mut Vec<String>,
    ) -> Result<Option<Forgiveness>, Error> {
        let tables = self.tables(opts);
        let limit = part_limit(opts, SUBGRAPH_BYTES);
        let stopped = |e| match e {
            Error::TooBig(_) => Error::TooBig(Said(vec![
                Part::Text(format!(
                    "the perfect-play subgraph of {} takes more than the time or memory a report \
                     may give it ({REPORT_PART_SECONDS} s unless ",
                    self.spec()
                )),
                Part::Option("seconds"),
                Part::Text(" says)".into()),
            ])),
            e => e,
        };
        if let Some(table) = tables.get()? {
            if let Some(walked) = self.strategy.forgiveness(start, &table, &limit) {
                return left_out(walked.map_err(stopped), "forgiveness", notes);
            }
        }
        let moves_of = |p: &<S::Game as Game>::Position| {
            let view = self.strategy.view(p, opts, &tables)?;
            view.moves
                .iter()
                .map(|m| Ok((game.parse_move(p, &m.notation)?, class_of(&m.verdict)?.sign())))
                .collect::<Result<Vec<_>, Error>>()
        };
        let walked = design::forgiveness(game, start, moves_of, REPORT_SUBGRAPH, &limit).map_err(stopped);
        left_out(walked, "forgiveness", notes)
    }

    /// The certificate of the solved values: over the saved table by rank when the session
    /// reads one, else over every position reachable from the start.
    fn certificate_of(&self, opts: &Options) -> Result<Certificate, Error> {
        if let Some(table) = self.tables(opts).get()? {
            if let Some(db) = S::database(&table).filter(|db| Certificate::certifies(db)) {
                return Certificate::of_database(db);
            }
        }
        let game = self.strategy.game("a certificate")?;
        let explored = graph::explore(
            game,
            &game.start(),
            None,
            CERTIFIED_POSITIONS,
            &part_limit(opts, GRAPH_BYTES),
            opts.progress.as_ref(),
        )
        .map_err(|e| match e {
            Error::TooBig(_) => Error::too_big(format!(
                "valuing every position of {} takes more than the time or memory a report may give it",
                self.spec()
            )),
            e => e,
        })?
        .ok_or_else(|| {
            Error::too_big(format!(
                "{} has more than {CERTIFIED_POSITIONS} positions and no saved table to certify",
                self.spec()
            ))
        })?;
        Ok(Certificate::of_positions(
            explored
                .nodes
                .iter()
                .map(|n| {
                    let p = &n.position;
                    (game.format_position(p), game.outcome(p).is_some(), n.value)
                })
                .collect(),
        ))
    }

    /// The move of the player `name` after `moves`; with `fallback`, the move the player
    /// falls back on where its search stops at the budget's limit.
    fn bot_move_of(
        &self,
        moves: &[String],
        name: &str,
        seed: u64,
        opts: &Options,
        fallback: bool,
    ) -> Result<BotMove, Error> {
        let game = self.strategy.game("a bot's move")?;
        let p = common::replay(game, common::start(game, opts)?, moves)?;
        if game.outcome(&p).is_some() {
            return Err(Error::bad_position(game.format_position(&p), "the game is over"));
        }
        // `soft:T` reads every move's exact value: it is checked as `perfect` is.
        let soft = name.trim().to_ascii_lowercase().starts_with("soft:");
        let checked = if soft { "perfect" } else { name };
        self.strategy.check_bot(&p, checked, opts)?;
        let special = self.special(opts);
        let mut player = program(name, seed, special.as_ref(), &self.players(), &opts.budget)?;
        // What the player asks for is refused before any work starts when it is over the
        // budget (`mcts:60s` under a budget of 2 s, a search too deep to end in time).
        player.check(game, &p)?;
        let (m, note) = match player.choose(game, &p) {
            Ok(m) => (m, None),
            Err(e @ Error::TooBig(_)) => match fallback.then(|| player.fallback(game, &p)).flatten() {
                Some((m, note)) => (m, Some(note)),
                None => return Err(opts.budget.stopped_as(e, "the bot's move")),
            },
            Err(e) => return Err(opts.budget.stopped_as(e, "the bot's move")),
        };
        Ok(BotMove {
            notation: game.format_move(&p, &m),
            note,
        })
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
        let cost = self.settled(self.strategy.estimate(&start, opts, &tables))?;
        opts.budget.check(&format!("solving {}", self.spec()), cost)?;
        let solution = self.strategy.solve(&start, opts, &tables).map(|found| {
            let position = opts.position.as_ref().map(|_| game.format_position(&start));
            let to_move = game.player_name(game.to_move(&start));
            Solution::new(self.spec(), position, to_move, found)
        });
        self.settled(solution)
    }

    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        let game = self.strategy.game("position")?;
        let p = common::replay(game, common::start(game, opts)?, moves)?;
        self.settled(self.strategy.view(&p, opts, &self.tables(opts)))
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

/// The limit of one part of a report: `opts`' budget, and [`REPORT_PART_SECONDS`] when it
/// sets no time.
fn part_limit(opts: &Options, entry_bytes: u64) -> Limit {
    let limit = opts.budget.limit(entry_bytes);
    Limit {
        deadline: limit
            .deadline
            .or_else(|| Some(Instant::now() + Duration::from_secs_f64(REPORT_PART_SECONDS))),
        ..limit
    }
}

/// Who wins by a move; an error for a value not known.
fn class_of(v: &Verdict) -> Result<Class, Error> {
    v.value
        .ok_or_else(|| Error::Unsupported("a report needs the exact value of every move".into()))
}

/// `part` of a report, or `None` with a note on why it was left out when it is too big.
fn left_out<T>(part: Result<T, Error>, name: &str, notes: &mut Vec<String>) -> Result<Option<T>, Error> {
    match part {
        Ok(t) => Ok(Some(t)),
        Err(Error::TooBig(why)) => {
            notes.push(format!("{name} left out: {why}"));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The game under the swap rule, from the first moves and their values.
fn swap_rule(moves: &[MoveValue]) -> Result<SwapRule, Error> {
    // First moves are the first seat's.
    let lead = |v: &Verdict| v.lead(0);
    let keys = moves
        .iter()
        .map(|m| {
            Ok(design::pie_key(
                class_of(&m.verdict)?,
                lead(&m.verdict),
                m.verdict.remoteness,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let fairest = design::pie_order(&keys);
    let exact_draw = fairest.first().is_some_and(|&i| !keys[i].0);
    // The second player takes whichever side is better: the first player is left the worse.
    let value = match fairest.first() {
        None => Verdict::unknown(),
        Some(_) if exact_draw => Verdict {
            value: Some(Class::Draw),
            margin: lead(&moves[fairest[0]].verdict).map(|_| 0),
            ..Verdict::default()
        },
        Some(&i) => Verdict {
            value: Some(Class::Lose),
            remoteness: moves[i].verdict.remoteness,
            margin: lead(&moves[i].verdict).map(|m| -m.abs()),
            scores: None,
        },
    };
    Ok(SwapRule {
        fairest: fairest.iter().map(|&i| moves[i].notation.clone()).collect(),
        exact_draw,
        value,
    })
}

/// The player of your own called `name`: one registered in `opts`, or a program
/// (`cmd:LINE`) where `opts` lets programs run; `None` when `name` is neither.
fn guest(spec: &str, name: &str, seed: u64, opts: &Options) -> Option<Result<Box<dyn Mover>, Error>> {
    if let Some(g) = opts.guests.iter().find(|g| g.name == name) {
        return Some((g.make)(seed));
    }
    let line = name.strip_prefix("cmd:")?;
    if !opts.run_programs {
        return Some(Err(Error::Unsupported(format!(
            "{spec}: programs (cmd:...) play from the command line and Python only"
        ))));
    }
    Some(
        Program::new(line, seed, opts.move_time, opts.budget.cancel.clone())
            .map(|c| Box::new(c) as Box<dyn Mover>),
    )
}

/// A human at a seat, reading from the shared terminal of a game.
struct Seat<'a, 'io> {
    io: &'a RefCell<&'a mut PlayIo<'io>>,
}

impl<G: Notation> Player<G> for Seat<'_, '_> {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mut io = self.io.borrow_mut();
        let io = &mut **io;
        Human::new(&mut *io.input, &mut *io.prompts).choose(game, p)
    }
}
