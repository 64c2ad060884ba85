//! The search strategy: alpha-beta with a transposition table keyed by symmetry class,
//! memoised negamax and retrograde analysis to cross-check it, for games with win, lose
//! and draw outcomes (tic-tac-toe, m,n,k-games, Domineering); a game may offer its own
//! null-window search, which then also values moves and plays the perfect player. A
//! retrograde solve saves its table of every rank to the data folder; positions, moves
//! and the perfect player then read it instead of searching.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use super::common::{self, Roster, Special};
use super::table_fact;
use super::{
    Cost, Counts, Fact, FactValue, GameRecord, MoveValue, Options, PlayIo, PlayerInfo, PositionView, Session,
    Solution, Standings, Tally, Verdict,
};
use crate::analysis::count;
use crate::game::Game;
use crate::game::{Indexed, Notation, Symmetric};
use crate::play::perfect::{rank_moves, Perfect};
use crate::play::Player;
use crate::solve::memo::MemoSolver;
use crate::solve::search::AlphaBeta;
use crate::solve::{plain_key, retrograde, symmetric_key, Limit, Oracle, SearchOracle, Setup, TableOracle};
use crate::spec::GameInfo;
use crate::table::db::{self, Database};
use crate::{Error, Value};

/// Bytes a transposition-table entry takes, with the map's overhead.
const ENTRY_BYTES: u64 = 64;
/// Bytes per rank the retrograde solver needs (values, counters, predecessor lists).
const RETROGRADE_BYTES: u64 = 24;
/// Ranks the retrograde solver handles per second on this machine, about.
const RETROGRADE_RATE: f64 = 5e6;
/// Bytes per position counting takes (a hash map of positions and their counts).
const COUNT_BYTES: u64 = 96;
/// The solver that saves tables, and the version of its output.
const SAVER: (&str, u32) = ("retrograde", 1);

/// An oracle probing a saved database; a failed probe is recorded in the database.
struct Saved<'g, G> {
    game: &'g G,
    db: Arc<Database>,
}

impl<G: Indexed> crate::solve::Oracle<G> for Saved<'_, G> {
    fn value(&mut self, p: &G::Position) -> Value {
        self.db.position_value(self.game.rank(p)).unwrap_or_else(|e| {
            self.db.record_fault(e);
            Value::Draw
        })
    }
}

/// `answer`, unless a probe of `db` failed on the way.
fn checked<T>(db: Option<&Arc<Database>>, answer: T) -> Result<T, Error> {
    match db.and_then(|d| d.fault()) {
        Some(e) => Err(e),
        None => Ok(answer),
    }
}

/// Makes a game's own null-window search under a setup, answering the exact values of
/// its positions with one table.
pub type TreeOracleFn<G> = for<'g> fn(&'g G, &Setup) -> Box<dyn SearchOracle<G> + 'g>;

/// The name of the null-window solver, when a game offers one.
const NULL_WINDOW: &str = "nullwindow";

/// A game solved by search.
pub struct SearchSession<G: Game> {
    spec: String,
    info: &'static GameInfo,
    game: G,
    tree: Option<TreeOracleFn<G>>,
}

/// What a game solved by search must offer.
pub trait Searchable: Notation + Symmetric + Indexed + Clone + Send + Sync + 'static {}
impl<G: Notation + Symmetric + Indexed + Clone + Send + Sync + 'static> Searchable for G {}

impl<G: Searchable> SearchSession<G> {
    /// A session for `game`, opened from `spec`.
    pub fn new(spec: &str, info: &'static GameInfo, game: G) -> Self {
        SearchSession {
            spec: spec.to_string(),
            info,
            game,
            tree: None,
        }
    }

    /// The same session, solving with the game's null-window search by default.
    pub fn with_tree(mut self, tree: TreeOracleFn<G>) -> Self {
        self.tree = Some(tree);
        self
    }

    /// The players of this game and the matches they play; the perfect player reads `db`
    /// when there is one, else searches under `setup`.
    fn roster(&self, setup: Setup, db: Option<Arc<Database>>) -> Roster<'_, G> {
        Roster {
            spec: &self.spec,
            seats: self.seats(),
            special: self.special(setup, db),
            known: self.players(),
        }
    }

    /// The exact search under `setup`: the game's null-window search when it has one (one
    /// table for every position asked), else alpha-beta.
    fn oracle(&self, setup: &Setup) -> Box<dyn Oracle<G> + '_> {
        match self.tree {
            Some(tree) => tree(&self.game, setup),
            None => Box::new(AlphaBeta::symmetric(&self.game).with_limit(setup.limit.clone())),
        }
    }

    /// Where a retrograde solve saves the table: the spec, made a file name.
    fn path(&self, opts: &Options) -> PathBuf {
        super::table_path(opts, &self.spec)
    }

    /// The saved table of this game, when there is one.
    fn saved(&self, opts: &Options) -> Result<Option<Arc<Database>>, Error> {
        Ok(super::saved_table(opts, &self.spec, Some(self.game.size()), SAVER)?.map(Arc::new))
    }

    /// Solves every rank by retrograde analysis and, unless `opts.save` is off, saves the
    /// table: the value of the start, the positions and the saved file's path and size.
    fn retrograde(&self, opts: &Options) -> Result<(Value, u64, Option<Fact>), Error> {
        let g = &self.game;
        let path = self.path(opts);
        if !opts.force {
            if let Some(db) = self.saved(opts)? {
                let v = Saved {
                    game: g,
                    db: db.clone(),
                }
                .value(&g.start());
                let fact = table_fact(&path, &db, "read from the data folder");
                return checked(Some(&db), (v, db.header().count("positions"), Some(fact)));
            }
        }
        opts.budget.check(
            &format!("retrograde analysis of {}", self.spec),
            self.retrograde_cost(),
        )?;
        if opts.save {
            super::writable(&opts.data_dir)?;
            super::check_room(&opts.data_dir, g.size() / 2)?;
        }
        let table = retrograde::solve(g, opts.progress.as_ref());
        let (w, l, d) = table.summary();
        let v = TableOracle::new(g, &table).value(&g.start());
        if !opts.save {
            return Ok((v, w + l + d, None));
        }
        db::write_values(&path, &self.spec, SAVER, g.size(), None, &|ranks, out| {
            out.extend(ranks.map(|r| table.get(r)));
            Ok(())
        })?;
        let db = Database::open(&path)?;
        Ok((v, w + l + d, Some(table_fact(&path, &db, "solved now"))))
    }

    fn special<'g>(&'g self, setup: Setup, db: Option<Arc<Database>>) -> Box<Special<'g, G>> {
        Box::new(move |name: &str, seed: u64| {
            (name == "perfect").then(|| {
                Ok(match &db {
                    Some(db) => Box::new(Perfect::new(
                        Saved {
                            game: &self.game,
                            db: db.clone(),
                        },
                        seed,
                    )) as Box<dyn Player<G> + 'g>,
                    None => Box::new(Perfect::new(self.oracle(&setup), seed)),
                })
            })
        })
    }

    fn retrograde_cost(&self) -> Cost {
        let size = self.game.size();
        Cost {
            positions: size,
            bytes: size.saturating_mul(RETROGRADE_BYTES),
            seconds: size as f64 / RETROGRADE_RATE,
        }
    }
}

impl<G: Searchable> Session for SearchSession<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn seats(&self) -> usize {
        self.game.players()
    }

    fn solvers(&self) -> Vec<&'static str> {
        let own = self.tree.map(|_| NULL_WINDOW);
        own.into_iter()
            .chain(["alphabeta", "memo", "retrograde"])
            .collect()
    }

    fn players(&self) -> Vec<PlayerInfo> {
        let mut list = vec![PlayerInfo {
            name: "perfect",
            help: "exact search: wins fastest, loses slowest",
        }];
        list.extend(common::common_players());
        list
    }

    fn estimate(&self, opts: &Options) -> Result<Cost, Error> {
        Ok(match opts.solver.as_deref() {
            Some("retrograde") => self.retrograde_cost(),
            // A search visits an unknown share of the positions: the index size bounds it.
            _ => Cost {
                positions: self.game.size(),
                bytes: 0,
                seconds: 0.0,
            },
        })
    }

    fn solve(&self, opts: &Options) -> Result<Solution, Error> {
        let g = &self.game;
        let started = Instant::now();
        let solvers = self.solvers();
        let solver = opts.solver.as_deref().unwrap_or(solvers[0]);
        let start = g.start();
        let mut details = Vec::new();
        let (value, positions) = match (solver, self.tree) {
            (NULL_WINDOW, Some(tree)) => {
                let mut s = tree(g, &shown_setup(opts));
                let v = s.value(&start);
                if s.stopped() {
                    return Err(opts.stopped(&format!("solving {}", self.spec)));
                }
                details.push(Fact::new(
                    "nodes",
                    "nodes",
                    FactValue::Big(super::Big(u128::from(s.nodes()))),
                ));
                (v, s.positions() as u64)
            }
            ("alphabeta", _) => {
                let mut s = AlphaBeta::symmetric(g).with_limit(opts.limit(ENTRY_BYTES));
                let v = s.solve(&start);
                if s.stopped() {
                    return Err(opts.stopped(&format!("solving {}", self.spec)));
                }
                (v, s.positions() as u64)
            }
            ("memo", _) => {
                let mut s = MemoSolver::symmetric(g);
                (s.solve(&start), s.positions() as u64)
            }
            ("retrograde", _) => {
                let (v, positions, fact) = self.retrograde(opts)?;
                details.extend(fact);
                (v, positions)
            }
            (other, _) => {
                return Err(Error::Unsupported(format!(
                    "unknown solver '{other}' (solvers: {})",
                    self.solvers().join(", ")
                )))
            }
        };
        Ok(Solution {
            game: self.spec.clone(),
            to_move: g.player_name(g.to_move(&start)),
            verdict: Verdict::of(value),
            positions: super::Big(u128::from(positions)),
            solver: solver.to_string(),
            seconds: started.elapsed().as_secs_f64(),
            details,
        })
    }

    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        let g = &self.game;
        let p = common::replay(g, g.start(), moves)?;
        if let Some(db) = self.saved(opts)? {
            let ranked = match g.outcome(&p) {
                Some(_) => Vec::new(),
                None => rank_moves(
                    g,
                    &mut Saved {
                        game: g,
                        db: db.clone(),
                    },
                    &p,
                ),
            };
            let ranked = checked(Some(&db), ranked)?;
            return Ok(value_view(&self.spec, g, &p, &ranked, Vec::new()));
        }
        let mut oracle = self.oracle(&shown_setup(opts));
        let ranked: Vec<(G::Move, Value)> = match g.outcome(&p) {
            Some(_) => Vec::new(),
            None => rank_moves(g, &mut oracle, &p),
        };
        if oracle.stopped() {
            return Err(opts.stopped(&format!("valuing the moves of this {} position", self.spec)));
        }
        Ok(value_view(&self.spec, g, &p, &ranked, Vec::new()))
    }

    fn count(&self, symmetry: bool, opts: &Options) -> Result<Counts, Error> {
        let g = &self.game;
        let size = g.size();
        opts.budget.check(
            &format!("counting {}", self.spec),
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
        let big = |n: u128| super::Big(n);
        Ok(Counts {
            game: self.spec.clone(),
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

    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        let db = self.saved(opts)?;
        let roster = self.roster(setup(opts, Limit::default()), db.clone());
        let start = |_| (self.game.clone(), self.game.start());
        let standings = roster.tournament(players, games, seed, start, after)?;
        checked(db.as_ref(), standings)
    }

    fn play(
        &self,
        seats: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        let db = self.saved(opts)?;
        let roster = self.roster(setup(opts, Limit::default()), db.clone());
        let record = roster.play(&self.game, seats, seed, |_| None, io)?;
        checked(db.as_ref(), record)
    }

    fn playout(&self, seed: u64) -> Result<usize, Error> {
        common::playout(&self.game, self.game.start(), seed)
    }

    fn bot_move(&self, moves: &[String], player: &str, seed: u64, opts: &Options) -> Result<String, Error> {
        let db = self.saved(opts)?;
        let chosen = self
            .roster(setup(opts, opts.limit(ENTRY_BYTES)), db.clone())
            .bot_move(&self.game, moves, player, seed)
            .map_err(|e| match e {
                Error::Move { .. } | Error::Position { .. } | Error::Unsupported(_) => e,
                _ => opts.stopped("the bot's move"),
            })?;
        checked(db.as_ref(), chosen)
    }

    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let g = &self.game;
        let fail = |why: String| Error::Database {
            path: db.path().display().to_string(),
            why,
        };
        if db.header().spec != self.spec || db.header().ranks != g.size() {
            return Err(fail(format!("is not the table of {}", self.spec)));
        }
        super::check_ranks(db, sample, seed, |rank| {
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

/// How a session's options set a player's search up under `limit`: its table within the
/// request's memory, no progress shown.
fn setup(opts: &Options, limit: Limit) -> Setup {
    Setup {
        limit,
        bytes: opts.table_bytes.min(opts.budget.bytes),
        progress: None,
        book: None,
    }
}

/// How a session's options set up the search of a solve or of a position's moves: under
/// their limit, reporting to their progress.
fn shown_setup(opts: &Options) -> Setup {
    Setup {
        progress: Some(opts.progress.clone()),
        ..setup(opts, opts.limit(ENTRY_BYTES))
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
    PositionView {
        game: spec.to_string(),
        position: g.format_position(p),
        board: g.render(p),
        picture: g.picture(p),
        to_move: g.player_name(g.to_move(p)),
        terminal: outcome.is_some(),
        result: outcome.map(|o| common::outcome_words(g, o)),
        verdict,
        points: None,
        moves: ranked
            .iter()
            .map(|(m, v)| MoveValue {
                notation: g.format_move(p, m),
                verdict: Verdict::of(*v),
                best: Some(*v) == best,
                note: None,
            })
            .collect(),
        moves_total: super::Big(ranked.len() as u128),
        details,
    }
}

/// A fact from a whole number.
pub fn int_fact(key: &str, label: &str, n: i64) -> Fact {
    Fact::new(key, label, FactValue::Int(n))
}
