//! The search strategy: alpha-beta with a transposition table keyed by symmetry class,
//! memoised negamax and retrograde analysis to cross-check it, for games with win, lose
//! and draw outcomes (tic-tac-toe, m,n,k-games, Domineering); a game may offer its own
//! null-window search, which then also values moves and plays the perfect player. A game
//! without draws may offer a prover ([`Prover`]): then `solve`, the moves' values and the
//! perfect player answer who wins by proof, without how soon, unless
//! [`Options::remoteness`] asks for the exact distance. A retrograde solve saves its table
//! of every rank to the data folder; positions, moves and the perfect player then read it
//! instead of searching.

use std::sync::Arc;
use std::time::Instant;

use crate::analysis::count;
use crate::error::Part;
use crate::game::{Indexed, Notation, PlayerId, Symmetric};
use crate::play::perfect::{rank_moves, Perfect, Proving};
use crate::play::Player;
use crate::session::common;
use crate::session::engine::{GameSession, Made, Strategy, Tables};
use crate::session::{table_fact, table_name};
use crate::session::{
    Big, Cost, Counts, Fact, FactValue, Found, MoveValue, Options, PlayerInfo, PositionView, Session, Tally,
    Verdict,
};
use crate::solve::memo::MemoSolver;
use crate::solve::prove::{proved_moves, Prover, ProverFn};
use crate::solve::search::AlphaBeta;
use crate::solve::{plain_key, retrograde, symmetric_key, KeyFn, Oracle, SearchOracle, Setup, TableOracle};
use crate::spec::GameInfo;
use crate::table::db::{self, Database};
use crate::Class;
use crate::{Error, Value};

/// Bytes a transposition-table entry takes, with the map's overhead.
pub(crate) const ENTRY_BYTES: u64 = 64;
/// Bytes per rank the retrograde solver needs (values, counters, predecessor lists).
const RETROGRADE_BYTES: u64 = 24;
/// Ranks the retrograde solver handles per second on this machine, about.
const RETROGRADE_RATE: f64 = 5e6;
/// Bytes per position counting takes (a hash map of positions and their counts).
const COUNT_BYTES: u64 = 96;
/// The solver that saves tables, and the version of its output.
const SAVER: (&str, u32) = ("retrograde", 1);

/// An oracle probing a saved database.
struct Saved<'g, G> {
    game: &'g G,
    db: &'g Database,
}

impl<G: Indexed> Oracle<G> for Saved<'_, G> {
    fn value(&mut self, p: &G::Position) -> Result<Value, Error> {
        self.db.position_value(self.game.rank(p))
    }
}

/// An oracle probing a saved database it holds.
struct Owned<'g, G> {
    game: &'g G,
    db: Arc<Database>,
}

impl<G: Indexed> Oracle<G> for Owned<'_, G> {
    fn value(&mut self, p: &G::Position) -> Result<Value, Error> {
        self.db.position_value(self.game.rank(p))
    }
}

/// Makes a game's own null-window search under a setup, answering the exact values of
/// its positions with one table.
pub type TreeOracleFn<G> = for<'g> fn(&'g G, &Setup) -> Box<dyn SearchOracle<G> + 'g>;

/// The name of the null-window solver, when a game offers one.
pub(crate) const NULL_WINDOW: &str = "nullwindow";
/// The name of the proof solver, when a game offers a prover.
const PROOF: &str = "proof";

/// The search strategy of a game: its prover when it has one (who wins), its own
/// null-window search when it has one, else alpha-beta (how soon); memoised negamax and
/// retrograde analysis on demand.
pub struct Search<G> {
    spec: String,
    game: G,
    tree: Option<TreeOracleFn<G>>,
    prover: Option<ProverFn<G>>,
}

/// The players of a game solved by search.
pub const PLAYERS: &[PlayerInfo] = &[PlayerInfo {
    name: "perfect",
    help: "exact search: wins fastest, loses slowest",
}];

/// The players of a game solved by search that offers a prover.
pub const PROVING_PLAYERS: &[PlayerInfo] = &[PlayerInfo {
    name: "perfect",
    help: "proves who wins; loses with the move the proof ranks first",
}];

/// What a game solved by search must offer.
pub trait Searchable: Notation + Symmetric + Indexed + Clone + Send + Sync + 'static {}
impl<G: Notation + Symmetric + Indexed + Clone + Send + Sync + 'static> Searchable for G {}

/// The session of `spec`, a game of `info` solved by search: by `prover`, the game's
/// proof search, when it has one and the remoteness is not asked for, else by `tree`, the
/// game's own null-window search, when it has one.
pub fn open<G: Searchable>(
    spec: &str,
    info: &'static GameInfo,
    game: G,
    tree: Option<TreeOracleFn<G>>,
    prover: Option<ProverFn<G>>,
) -> Box<dyn Session> {
    let seats = game.players();
    Box::new(GameSession::new(
        info,
        spec,
        seats,
        Search {
            spec: spec.to_string(),
            game,
            tree,
            prover,
        },
    ))
}

impl<G: Searchable> Search<G> {
    /// The game's prover under `opts`, unless `opts` asks for the remoteness or the game
    /// has none.
    fn proving(&self, opts: &Options) -> Option<ProverFn<G>> {
        self.prover.filter(|_| !opts.remoteness)
    }

    /// Refuses `what`, work that needs a rank for every position, on a game too big to
    /// number.
    fn numbered(&self, what: &str) -> Result<(), Error> {
        if self.game.numbered() {
            return Ok(());
        }
        Err(Error::too_big(format!(
            "{what} of {} is refused: it has too many positions to number in 64 bits",
            self.spec
        )))
    }

    /// Whether the mover of `p` wins, by `prover` (a position that has ended by its
    /// outcome), under `opts`' budget.
    fn proved(&self, prover: &mut dyn Prover<G>, p: &G::Position, opts: &Options) -> Result<bool, Error> {
        let g = &self.game;
        match g.outcome(p) {
            Some(outcome) => Ok(outcome.is_win_for(g.to_move(p))),
            None => prover
                .wins(p)
                .map_err(|e| opts.budget.stopped_as(e, &format!("solving {}", self.spec))),
        }
    }

    /// How a solve by proof is set up under `opts`: unless `opts` saves nothing or the job
    /// must end by a set time (a server's request, a map's member), it keeps its checkpoint in the data folder (`NAME.proof`),
    /// going on from an earlier run's; `opts.force` starts over.
    fn proof_setup(&self, opts: &Options) -> Result<Setup, Error> {
        let mut setup = opts.setup(ENTRY_BYTES);
        if opts.save && opts.budget.ends.is_none() {
            let path = opts.data_dir.join(format!("{}.proof", table_name(&self.spec)));
            if opts.force {
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(Error::Io(format!("checkpoint {}: {e}", path.display())))
                    }
                    _ => {}
                }
            }
            setup.checkpoint = Some(path);
        }
        Ok(setup)
    }

    /// Solves `start` by proof: who wins, with no remoteness, the nodes searched and the
    /// outcome class.
    fn prove(&self, prover: ProverFn<G>, start: &G::Position, opts: &Options) -> Result<Found, Error> {
        let started = Instant::now();
        let g = &self.game;
        let setup = self.proof_setup(opts)?;
        let mut prover = prover(g, &setup);
        // A proof stopped at its limit says where it kept what it proved.
        let kept = |e: Error| match (e, &setup.checkpoint) {
            (Error::TooBig(mut why), Some(path)) if path.exists() => {
                why.0.push(Part::Text(format!(
                    "; what it proved is kept in {}, which the same command goes on from",
                    path.display()
                )));
                Error::TooBig(why)
            }
            (e, _) => e,
        };
        let wins = self.proved(prover.as_mut(), start, opts).map_err(kept)?;
        let class = match g.with_other_to_move(start).filter(|_| !opts.mover_only) {
            Some(other) => {
                let swapped = self.proved(prover.as_mut(), &other, opts).map_err(kept)?;
                self.class_fact(start, Some(wins), Some(swapped))
            }
            None => None,
        };
        prover.done()?;
        let nodes = Fact::new("nodes", "nodes", FactValue::Big(Big(u128::from(prover.nodes()))));
        let details = std::iter::once(nodes).chain(class).collect();
        Ok(Found {
            verdict: proved_verdict(wins),
            positions: Big(prover.positions() as u128),
            solver: PROOF.to_string(),
            seconds: started.elapsed().as_secs_f64(),
            details,
        })
    }

    /// The exact search under `setup`: the game's null-window search when it has one (one
    /// table for every position asked), else alpha-beta.
    fn oracle(&self, setup: &Setup) -> Box<dyn Oracle<G> + '_> {
        match self.tree {
            Some(tree) => tree(&self.game, setup),
            None => Box::new(AlphaBeta::symmetric(&self.game).with_limit(setup.limit.clone())),
        }
    }

    /// Solves every rank by retrograde analysis and, unless `opts.save` is off, saves the
    /// table: the value of `start`, the positions and the saved file's path and size.
    fn retrograde(
        &self,
        start: &G::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<(Value, u64, Option<Fact>), Error> {
        let g = &self.game;
        let spec = &self.spec;
        let path = crate::session::table_path(opts, spec);
        if !opts.force {
            if let Some(db) = tables.get()? {
                let v = Saved { game: g, db: &db }.value(start)?;
                let fact = table_fact(&path, &db, "read from the data folder");
                return Ok((v, db.header().count("positions"), Some(fact)));
            }
        }
        opts.budget
            .check(&format!("retrograde analysis of {spec}"), self.retrograde_cost()?)?;
        if opts.save {
            crate::session::writable(&opts.data_dir)?;
            crate::session::check_room(&opts.data_dir, g.size() / 2)?;
        }
        let table = retrograde::solve(g, opts.progress.as_ref());
        let (w, l, d) = table.summary();
        let v = TableOracle::new(g, &table).value(start)?;
        if !opts.save {
            return Ok((v, w + l + d, None));
        }
        db::write_values(&path, spec, SAVER, g.size(), None, &|ranks, out| {
            out.extend(ranks.map(|r| table.get(r)));
            Ok(())
        })?;
        let db = tables.keep(Database::open(&path)?);
        Ok((v, w + l + d, Some(table_fact(&path, &db, "solved now"))))
    }

    /// The value of `p` by `solver` and the positions it visited, with what it tells
    /// pushed on `details`.
    fn value(
        &self,
        solver: &str,
        start: &G::Position,
        opts: &Options,
        tables: &Tables<'_, Self>,
        details: &mut Vec<Fact>,
    ) -> Result<(Value, u64), Error> {
        let g = &self.game;
        let spec = &self.spec;
        let stopped = |e| opts.budget.stopped_as(e, &format!("solving {spec}"));
        Ok(match (solver, self.tree) {
            (NULL_WINDOW, Some(tree)) => {
                let mut s = tree(g, &opts.setup(ENTRY_BYTES));
                let v = s.value(start).map_err(stopped)?;
                details.push(Fact::new(
                    "nodes",
                    "nodes",
                    FactValue::Big(Big(u128::from(s.nodes()))),
                ));
                (v, s.positions() as u64)
            }
            ("alphabeta", _) => {
                let mut s = AlphaBeta::symmetric(g).with_limit(opts.budget.limit(ENTRY_BYTES));
                (s.solve(start).map_err(stopped)?, s.positions() as u64)
            }
            ("memo", _) => {
                let mut s = MemoSolver::symmetric(g);
                (s.solve(start), s.positions() as u64)
            }
            ("retrograde", _) => {
                let (v, positions, fact) = self.retrograde(start, opts, tables)?;
                details.extend(fact);
                (v, positions)
            }
            (other, _) => {
                return Err(Error::Unsupported(format!(
                    "unknown solver '{other}' (solvers: {})",
                    self.solvers().join(", ")
                )))
            }
        })
    }

    /// The outcome class of `p`, where its mover wins by `wins` and the other player,
    /// moving first, by `swapped` (`None`: a draw): who wins whoever starts (L for seat 0,
    /// R for seat 1), or the player to move (N) or the other (P); none where either start
    /// draws.
    fn class_fact(&self, p: &G::Position, wins: Option<bool>, swapped: Option<bool>) -> Option<Fact> {
        let g = &self.game;
        let mover = g.to_move(p);
        let winner = |wins: Option<bool>, first: PlayerId| wins.map(|w| if w { first } else { 1 - first });
        let (by_mover, by_other) = (winner(wins, mover)?, winner(swapped, 1 - mover)?);
        let text = if by_mover == by_other {
            let class = if by_mover == 0 { "L" } else { "R" };
            format!("{class} ({} wins whoever starts)", g.player_name(by_mover))
        } else if by_mover == mover {
            "N (the player to move wins)".to_string()
        } else {
            "P (the player to move loses)".to_string()
        };
        Some(Fact::new("class", "outcome class", FactValue::Text(text)))
    }

    fn retrograde_cost(&self) -> Result<Cost, Error> {
        self.numbered("retrograde analysis")?;
        let size = self.game.size();
        Ok(Cost {
            positions: size,
            bytes: size.saturating_mul(RETROGRADE_BYTES),
            seconds: size as f64 / RETROGRADE_RATE,
        })
    }
}

impl<G: Searchable> Strategy for Search<G> {
    type Game = G;
    type Table = Database;

    fn game(&self, _command: &str) -> Result<&G, Error> {
        Ok(&self.game)
    }

    fn solvers(&self) -> Vec<&'static str> {
        let proof = self.prover.map(|_| PROOF);
        let own = self.tree.map(|_| NULL_WINDOW);
        proof
            .into_iter()
            .chain(own)
            .chain(["alphabeta", "memo", "retrograde"])
            .collect()
    }

    /// The saved table; none on a game too big to number, which cannot have one.
    fn load(&self, opts: &Options) -> Result<Option<Database>, Error> {
        if !self.game.numbered() {
            return Ok(None);
        }
        crate::session::saved_table(opts, &self.spec, Some(self.game.size()), SAVER)
    }

    fn is_current(db: &Database) -> bool {
        db.is_current()
    }

    fn held_bytes(db: &Database) -> u64 {
        db.held_bytes()
    }

    fn database(db: &Database) -> Option<&Database> {
        Some(db)
    }

    fn estimate(
        &self,
        _start: &G::Position,
        opts: &Options,
        _tables: &Tables<'_, Self>,
    ) -> Result<Cost, Error> {
        Ok(match opts.solver.as_deref() {
            Some("retrograde") => self.retrograde_cost()?,
            // A search visits an unknown share of the positions: the index size bounds it.
            _ => Cost {
                positions: self.game.size(),
                bytes: 0,
                seconds: 0.0,
            },
        })
    }

    fn solve(&self, start: &G::Position, opts: &Options, tables: &Tables<'_, Self>) -> Result<Found, Error> {
        let started = Instant::now();
        let solvers = self.solvers();
        // With a prover, the exact solvers follow it: the first answers the remoteness.
        let exact = solvers[usize::from(self.prover.is_some())];
        let solver = match (opts.solver.as_deref(), self.proving(opts)) {
            (Some(PROOF), _) if opts.remoteness => {
                return Err(Error::bad_option(
                    "remoteness",
                    None,
                    format!(
                    "the proof solver finds who wins {}, not how soon: leave it out or pick another solver",
                    self.spec
                ),
                ))
            }
            (Some(solver), _) => solver,
            (None, Some(_)) => PROOF,
            (None, None) => exact,
        };
        if let (PROOF, Some(prover)) = (solver, self.prover) {
            return self.prove(prover, start, opts);
        }
        let mut details = Vec::new();
        let (value, positions) = self.value(solver, start, opts, tables, &mut details)?;
        if let Some(other) = self.game.with_other_to_move(start).filter(|_| !opts.mover_only) {
            let (swapped, _) = self.value(solver, &other, opts, tables, &mut Vec::new())?;
            details.extend(self.class_fact(start, winner(value), winner(swapped)));
        }
        Ok(Found {
            verdict: Verdict::of(value),
            positions: Big(u128::from(positions)),
            solver: solver.to_string(),
            seconds: started.elapsed().as_secs_f64(),
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
        let spec = &self.spec;
        let stopped = |e| {
            opts.budget
                .stopped_as(e, &format!("valuing the moves of this {spec} position"))
        };
        let ranked = match (g.outcome(p), tables.get()?, self.proving(opts)) {
            // By proof, no position tells its remoteness, not even one that has ended.
            (Some(outcome), None, Some(_)) => {
                let wins = outcome.is_win_for(g.to_move(p));
                return Ok(common::view(spec, g, p, proved_verdict(wins), Vec::new()));
            }
            (Some(_), _, _) => Vec::new(),
            (None, Some(db), _) => rank_moves(g, &mut Saved { game: g, db: &db }, p)?,
            (None, None, Some(prover)) => {
                let mut prover = prover(g, &opts.setup(ENTRY_BYTES));
                let proved = proved_moves(g, prover.as_mut(), p).map_err(stopped)?;
                return Ok(proved_view(spec, g, p, &proved));
            }
            (None, None, None) => {
                rank_moves(g, &mut self.oracle(&opts.setup(ENTRY_BYTES)), p).map_err(stopped)?
            }
        };
        Ok(value_view(spec, g, p, &ranked, Vec::new()))
    }

    /// By proof, the first moves proved so far by a stopped solve, read from its
    /// checkpoint: a move proved winning proves the position won.
    fn proved_so_far(&self, start: &G::Position, opts: &Options) -> Option<Result<PositionView, Error>> {
        let prover = self.proving(opts)?;
        let g = &self.game;
        let view = || -> Result<PositionView, Error> {
            let setup = self.proof_setup(&Options {
                force: false,
                ..opts.clone()
            })?;
            let mut prover = prover(g, &setup);
            let proved = prover.first_moves_proved(start)?;
            let wins = proved.iter().any(|&(_, w)| w);
            let mut moves: Vec<MoveValue> = prover
                .ordered(start)
                .into_iter()
                .map(|m| {
                    let verdict = proved
                        .iter()
                        .find(|(p, _)| *p == m)
                        .map_or_else(Verdict::unknown, |&(_, w)| proved_verdict(w));
                    MoveValue {
                        notation: g.format_move(start, &m),
                        best: wins && verdict.value == Some(Class::Win),
                        verdict,
                        note: None,
                    }
                })
                .collect();
            // The winning moves first, then those proved losing, then the others.
            moves.sort_by_key(|m| match m.verdict.value {
                Some(Class::Win) => 0,
                Some(_) => 1,
                None => 2,
            });
            let verdict = if wins {
                proved_verdict(true)
            } else {
                Verdict::unknown()
            };
            Ok(common::view(&self.spec, g, start, verdict, moves))
        };
        Some(view())
    }

    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, G>> {
        (name == "perfect").then(|| {
            let setup = opts.budget.setup(ENTRY_BYTES);
            Ok(match (tables.get()?, self.proving(opts)) {
                (Some(db), _) => {
                    Box::new(Perfect::new(Owned { game: &self.game, db }, seed)) as Box<dyn Player<G> + 's>
                }
                (None, Some(prover)) => {
                    Box::new(Proving::new(prover(&self.game, &setup), setup.limit.clone()))
                }
                (None, None) => Box::new(Perfect::new(self.oracle(&setup), seed)),
            })
        })
    }

    fn symmetry(&self) -> Option<KeyFn<G>> {
        Some(symmetric_key::<G>)
    }

    fn count(&self, symmetry: bool, opts: &Options) -> Option<Result<Counts, Error>> {
        Some(self.counted(symmetry, opts))
    }

    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        Some(self.sample_checked(db, sample, seed))
    }
}

/// The view of `p` with its moves ranked by exact value (best first).
pub fn value_view<G: Notation>(
    spec: &str,
    g: &G,
    p: &G::Position,
    ranked: &[(G::Move, Value)],
    details: Vec<Fact>,
) -> PositionView {
    let outcome = g.outcome(p);
    let best = ranked.first().map(|(_, v)| *v);
    let verdict = match (outcome, best) {
        (Some(o), _) => Verdict::of(Value::terminal(o, g.to_move(p))),
        (None, Some(v)) => Verdict::of(v),
        (None, None) => Verdict::unknown(),
    };
    let moves = ranked
        .iter()
        .map(|(m, v)| MoveValue {
            notation: g.format_move(p, m),
            verdict: Verdict::of(*v),
            best: Some(*v) == best,
            note: None,
        })
        .collect();
    PositionView {
        details,
        ..common::view(spec, g, p, verdict, moves)
    }
}

/// Who wins by `value`: the mover (`Some(true)`), the other (`Some(false)`), or no one.
fn winner(value: Value) -> Option<bool> {
    match value {
        Value::Win(_) => Some(true),
        Value::Lose(_) => Some(false),
        Value::Draw => None,
    }
}

/// The verdict of a proof: win or lose for the mover, without remoteness.
fn proved_verdict(wins: bool) -> Verdict {
    Verdict {
        value: Some(if wins { Class::Win } else { Class::Lose }),
        ..Verdict::default()
    }
}

/// The view of `p` with its moves valued by proof, the winning moves first.
fn proved_view<G: Notation>(spec: &str, g: &G, p: &G::Position, proved: &[(G::Move, bool)]) -> PositionView {
    let wins = proved.first().is_some_and(|&(_, w)| w);
    let moves = proved
        .iter()
        .map(|&(ref m, w)| MoveValue {
            notation: g.format_move(p, m),
            verdict: proved_verdict(w),
            best: w == wins,
            note: None,
        })
        .collect();
    common::view(spec, g, p, proved_verdict(wins), moves)
}

/// A fact from a whole number.
pub fn int_fact(key: &str, label: &str, n: i64) -> Fact {
    Fact::new(key, label, FactValue::Int(n))
}

impl<G: Searchable> Search<G> {
    /// Counts positions and complete games.
    fn counted(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        self.numbered("counting the positions")?;
        explored_counts(&self.game, &self.spec, symmetry, opts)
    }

    /// Re-solves `sample` random positions of `db`, a saved database of this game.
    fn sample_checked(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        self.numbered("checking a saved table")?;
        let g = &self.game;
        let spec = &self.spec;
        let fail = |why: String| Error::Database {
            path: db.path().display().to_string(),
            why: why.into(),
        };
        if db.header().spec != *spec || db.header().ranks != g.size() {
            return Err(fail(format!("is not the table of {spec}")));
        }
        crate::session::check_ranks(db, sample, seed, |rank| {
            let Some(p) = g.unrank(rank) else {
                return Ok(None);
            };
            let mover = g.to_move(&p);
            if let Some(outcome) = g.outcome(&p) {
                return Ok(Some(Value::terminal(outcome, mover)));
            }
            let mut best = None;
            for m in g.legal_moves(&p) {
                let child = g.play(&p, &m);
                let v = db.position_value(g.rank(&child))?;
                best = best.max(Some(Value::from_child(v, g.to_move(&child) == mover)));
            }
            best.map(Some).ok_or_else(|| {
                fail(format!(
                    "rank {rank}, a position that has not ended, has no moves"
                ))
            })
        })
    }
}

/// Counts the positions and complete games of `g` (the game of `spec`) by exploring every
/// position reachable from its start, within `opts`' budget.
pub(crate) fn explored_counts<G: Searchable>(
    g: &G,
    spec: &str,
    symmetry: bool,
    opts: &Options,
) -> Result<Counts, Error> {
    let size = g.size();
    opts.budget.check(
        &format!("counting {spec}"),
        Cost {
            positions: size,
            bytes: size.saturating_mul(COUNT_BYTES),
            seconds: size as f64 / RETROGRADE_RATE,
        },
    )?;
    let started = Instant::now();
    let tree = count::games(g, &g.start(), symmetric_key::<G>);
    let key = if symmetry {
        symmetric_key::<G>
    } else {
        plain_key::<G>
    };
    let pos = count::positions(g, &g.start(), key);
    let big = |n: u128| Big(n);
    Ok(Counts {
        game: spec.to_string(),
        symmetry,
        games: Some(Tally {
            total: big(tree.games),
            terminal: big(tree.games),
            first_wins: big(tree.first_wins),
            second_wins: big(tree.second_wins),
            draws: big(tree.draws),
        }),
        positions: Some(Tally {
            total: big(pos.positions.into()),
            terminal: big(pos.terminal.into()),
            first_wins: big(pos.terminal_first_wins.into()),
            second_wins: big(pos.terminal_second_wins.into()),
            draws: big(pos.terminal_draws.into()),
        }),
        seconds: started.elapsed().as_secs_f64(),
        details: Vec::new(),
    })
}
