//! How a game graph is solved and played: retrograde analysis over its arrays
//! ([`crate::explicit::solve`]), loops included, the values kept in memory and saved to the
//! data folder under the graph's name, version and content hash.

use std::sync::{Arc, OnceLock};

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::time::Instant;

use crate::explicit::solve::{self, Solved};
use crate::explicit::{GameGraph, NodeId};
use crate::game::{Game, Notation, PlayerId};
use crate::play::perfect::{rank_moves, Perfect};
use crate::play::{best_at_random, Player};
use crate::session::engine::{GameSession, Made, Strategy, Tables};
use crate::session::strategies::search::value_view;
use crate::session::{
    check_ranks, saved_table, table_fact, table_path, Big, Cost, Counts, Fact, FactValue, Found, MoveValue,
    Options, PositionView, Session, Tally, Verdict,
};
use crate::solve::budget::Budget;
use crate::solve::{symmetric_key, KeyFn, Limit, Oracle};
use crate::spec::GameInfo;
use crate::table::db::{self, Database};
use crate::Class;
use crate::{Error, Value};

/// Nodes solved per second on one core, about.
const NODES_PER_SECOND: f64 = 1e7;
/// Bytes counting takes per node: whether it is reached and the order found, its moves
/// left and its list of parents, its four counts of games.
const COUNT_BYTES_PER_NODE: u64 = 104;
/// Bytes counting takes per move: the move's place in its target's list of parents.
const COUNT_BYTES_PER_EDGE: u64 = 8;
/// The solver that saves tables, and the version of its output.
const SAVER: (&str, u32) = ("graph", 1);
/// The greatest remoteness a saved table holds exactly: a table of longer games is kept
/// in memory only, so that the perfect player never takes a slower win for a faster one.
const MAX_SAVED_REMOTENESS: u32 = u8::MAX as u32;

/// Whether a saved table holds every remoteness of `solved` exactly.
fn fits(solved: &Solved) -> bool {
    solved.max_remoteness() <= MAX_SAVED_REMOTENESS
}

/// The values of a graph's nodes: solved now, or read from the data folder.
pub enum Values {
    /// Solved in this process.
    Memory(Solved),
    /// A saved table.
    Saved(Box<Database>),
}

impl Values {
    fn value(&self, node: NodeId) -> Result<Value, Error> {
        match self {
            Values::Memory(solved) => Ok(solved.value(node)),
            Values::Saved(db) => db.position_value(u64::from(node)),
        }
    }
}

/// An oracle reading a graph's values.
struct Reader {
    values: Arc<Values>,
}

impl Oracle<GameGraph> for Reader {
    fn value(&mut self, p: &NodeId) -> Result<Value, Error> {
        self.values.value(*p)
    }
}

/// The strategy of a game graph.
pub struct GraphStrategy {
    spec: String,
    /// The spec its table is saved under: the graph's name, version and content hash.
    table_spec: String,
    game: GameGraph,
    /// With two seats, every node's final margin ([`solve::margins`]); with more, every
    /// node's max-n points ([`solve::max_n`]); `None` where play can loop (or, with two
    /// seats, where an end has no points). Made when first asked.
    tallies: OnceLock<Option<Vec<i32>>>,
}

/// A player of more than two seats taking the move of the most max-n points for itself.
struct MaxN<'s> {
    tallies: &'s [i32],
    rng: StdRng,
}

impl Player<GameGraph> for MaxN<'_> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &GameGraph, p: &NodeId) -> Result<u32, Error> {
        let (seats, mover) = (game.seats(), usize::from(game.mover(*p)));
        let scored: Vec<(u32, i32)> = game
            .moves_of(*p)
            .map(|e| (e, self.tallies[game.target(e) as usize * seats + mover]))
            .collect();
        best_at_random(&scored, &mut self.rng)
    }
}

/// The verdict of max-n points for `mover`: a win when it has more than every other seat,
/// a draw when as many as the best of them.
fn points_verdict(mover: PlayerId, points: &[i32]) -> Verdict {
    let mine = points[usize::from(mover)];
    let others = points
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(mover))
        .map(|(_, &p)| p)
        .max()
        .unwrap_or(mine);
    Verdict {
        value: Some(Class::of_lead(mine - others)),
        scores: Some(points.to_vec()),
        ..Verdict::default()
    }
}

/// The session of `spec`, the graph `game` of the family `info`, whose table is saved
/// under `table_spec`.
pub fn open(spec: &str, info: &'static GameInfo, game: GameGraph, table_spec: String) -> Box<dyn Session> {
    Box::new(GameSession::new(
        info,
        spec,
        game.seats(),
        GraphStrategy {
            spec: spec.to_string(),
            table_spec,
            game,
            tallies: OnceLock::new(),
        },
    ))
}

impl GraphStrategy {
    /// See [`GraphStrategy::tallies`]: made within `budget` when first asked (a refusal is
    /// not kept, so that a larger budget may make them later).
    fn tallies(&self, budget: &Budget) -> Result<Option<&[i32]>, Error> {
        if let Some(made) = self.tallies.get() {
            return Ok(made.as_deref());
        }
        let made = match self.game.seats() {
            2 => solve::margins(&self.game, budget)?,
            _ => solve::max_n(&self.game, budget)?,
        };
        Ok(self.tallies.get_or_init(|| made).as_deref())
    }

    /// The max-n points of a graph of more than two seats, or why there are none.
    fn max_n(&self, budget: &Budget) -> Result<&[i32], Error> {
        self.tallies(budget)?.ok_or_else(|| {
            Error::Unsupported(format!(
                "{} has {} seats and play can loop: more than two seats are solved (by max-n) \
                 only where play cannot loop",
                self.spec,
                self.game.seats()
            ))
        })
    }

    /// The max-n points of `node`.
    fn points_at<'t>(&self, tallies: &'t [i32], node: NodeId) -> &'t [i32] {
        let seats = self.game.seats();
        &tallies[node as usize * seats..(node as usize + 1) * seats]
    }

    /// The final margin of `node` for its mover, in a two-seat graph with points.
    fn margin(&self, node: NodeId, budget: &Budget) -> Result<Option<i32>, Error> {
        Ok(self.tallies(budget)?.map(|m| m[node as usize]))
    }

    /// The view of `p` in a graph of more than two seats: its moves valued by max-n where
    /// play cannot loop, else unvalued.
    fn max_n_view(&self, p: NodeId, budget: &Budget) -> Result<PositionView, Error> {
        let g = &self.game;
        let Some(tallies) = self.tallies(budget)? else {
            return Ok(self.unvalued_view(p));
        };
        let mover = g.mover(p);
        let best = g
            .moves_of(p)
            .map(|e| self.points_at(tallies, g.target(e))[usize::from(mover)])
            .max();
        let moves = g
            .moves_of(p)
            .map(|e| {
                let points = self.points_at(tallies, g.target(e));
                MoveValue {
                    notation: g.format_move(&p, &e),
                    verdict: points_verdict(mover, points),
                    best: Some(points[usize::from(mover)]) == best,
                    note: None,
                }
            })
            .collect();
        let view = crate::session::common::view(
            &self.spec,
            g,
            &p,
            points_verdict(mover, self.points_at(tallies, p)),
            moves,
        );
        Ok(PositionView {
            points: self.points(g, &p),
            ..view
        })
    }

    fn solve_cost(&self) -> Cost {
        let nodes = self.game.nodes() as u64;
        Cost {
            positions: nodes,
            bytes: solve::solve_bytes(&self.game),
            seconds: nodes as f64 / NODES_PER_SECOND,
        }
    }

    /// The values: the table held or saved, else solved now; saved when `save` says so
    /// (also a table solved before and held in memory), unless `opts.save` is off or its
    /// games are too long for a saved table. Whether they were solved now.
    fn values(
        &self,
        opts: &Options,
        tables: &Tables<'_, Self>,
        save: bool,
    ) -> Result<(Arc<Values>, bool), Error> {
        let save = save && opts.save;
        if !opts.force || !save {
            if let Some(values) = tables.get()? {
                return match &*values {
                    Values::Memory(solved) if save && fits(solved) => {
                        Ok((self.saved(solved, opts, tables)?, true))
                    }
                    _ => Ok((values, false)),
                };
            }
        }
        opts.budget
            .check(&format!("solving {}", self.spec), self.solve_cost())?;
        if save {
            crate::session::writable(&opts.data_dir)?;
            crate::session::check_room(&opts.data_dir, 3 * self.game.nodes() as u64)?;
        }
        let solved = solve::solve(&self.game, &opts.budget)?;
        if !save || !fits(&solved) {
            return Ok((tables.keep(Values::Memory(solved)), true));
        }
        Ok((self.saved(&solved, opts, tables)?, true))
    }

    /// Saves `solved` to the data folder, and holds the saved table.
    fn saved(
        &self,
        solved: &Solved,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<Arc<Values>, Error> {
        let path = table_path(opts, &self.table_spec);
        db::write_values(
            &path,
            &self.table_spec,
            SAVER,
            self.game.nodes() as u64,
            None,
            &|ranks, out| {
                out.extend(ranks.map(|r| Some(solved.value(r as NodeId))));
                Ok(())
            },
        )?;
        Ok(tables.keep(Values::Saved(Box::new(Database::open(&path)?))))
    }

    /// Every move of `p` with its value for the mover, best first.
    fn ranked(
        &self,
        p: NodeId,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Result<Vec<(u32, Value)>, Error> {
        let (values, _) = self.values(opts, tables, false)?;
        rank_moves(&self.game, &mut Reader { values }, &p)
    }

    /// The view of `p` in a graph of more than two seats: its moves, unvalued.
    fn unvalued_view(&self, p: NodeId) -> PositionView {
        let g = &self.game;
        let moves = g
            .moves_of(p)
            .map(|m| MoveValue {
                notation: g.format_move(&p, &m),
                verdict: Verdict::unknown(),
                best: false,
                note: None,
            })
            .collect();
        crate::session::common::view(&self.spec, g, &p, Verdict::unknown(), moves)
    }

    /// The nodes reachable from the start, in the order found.
    fn reachable(&self) -> Vec<NodeId> {
        let g = &self.game;
        let mut seen = vec![false; g.nodes()];
        let mut order = vec![g.start()];
        seen[0] = true;
        let mut at = 0;
        while at < order.len() {
            let node = order[at];
            at += 1;
            for e in g.moves_of(node) {
                let t = g.target(e);
                if !std::mem::replace(&mut seen[t as usize], true) {
                    order.push(t);
                }
            }
        }
        order
    }

    /// Counts the reachable positions, and the complete games when play cannot loop.
    fn counted(&self, opts: &Options) -> Result<Counts, Error> {
        let g = &self.game;
        let (nodes, edges) = (g.nodes() as u64, g.edges() as u64);
        let what = format!("counting {}", self.spec);
        opts.budget.check(
            &what,
            Cost {
                bytes: nodes
                    .saturating_mul(COUNT_BYTES_PER_NODE)
                    .saturating_add(edges.saturating_mul(COUNT_BYTES_PER_EDGE)),
                ..self.solve_cost()
            },
        )?;
        let started = Instant::now();
        let reachable = self.reachable();
        let ends = |node: NodeId| match g.outcome(&node) {
            Some(crate::Outcome::Win(0)) => [1, 1, 0, 0],
            Some(crate::Outcome::Win(1)) => [1, 0, 1, 0],
            Some(crate::Outcome::Draw) => [1, 0, 0, 1],
            Some(_) => [1, 0, 0, 0],
            None => [0; 4],
        };
        let tally = |total: u128, kinds: [u128; 4]| Tally {
            total: Big(total),
            terminal: Big(kinds[0]),
            first_wins: Big(kinds[1]),
            second_wins: Big(kinds[2]),
            draws: Big(kinds[3]),
        };
        let mut positions = [0u128; 4];
        for &node in &reachable {
            for (sum, k) in positions.iter_mut().zip(ends(node)) {
                *sum += k;
            }
        }
        Ok(Counts {
            game: self.spec.clone(),
            symmetry: false,
            games: self
                .games(&reachable, ends, &opts.budget.clock())
                .ok_or_else(|| opts.budget.stopped(&what))?
                .map(|kinds| tally(kinds[0], kinds)),
            positions: Some(tally(reachable.len() as u128, positions)),
            seconds: started.elapsed().as_secs_f64(),
            details: Vec::new(),
        })
    }

    /// The complete games from the start, by how they end (all, first seat wins, second
    /// seat wins, draws; saturated at [`Big::PAST`]), or `Some(None)` when play can loop
    /// (the games are endless); `None` when `limit`'s deadline or cancel flag stops it.
    fn games(
        &self,
        reachable: &[NodeId],
        ends: impl Fn(NodeId) -> [u128; 4],
        limit: &Limit,
    ) -> Option<Option<[u128; 4]>> {
        let g = &self.game;
        // Children before parents: a node is ready once all its children are counted.
        let mut left = vec![0u32; g.nodes()];
        let mut parents: Vec<Vec<NodeId>> = vec![Vec::new(); g.nodes()];
        let mut ready = Vec::new();
        for &node in reachable {
            left[node as usize] = g.moves_of(node).len() as u32;
            for e in g.moves_of(node) {
                parents[g.target(e) as usize].push(node);
            }
            if left[node as usize] == 0 {
                ready.push(node);
            }
        }
        let mut paths = vec![[0u128; 4]; g.nodes()];
        let mut done = 0;
        let mut ticks = 0;
        while let Some(node) = ready.pop() {
            if limit.reached(0, &mut ticks) {
                return None;
            }
            done += 1;
            paths[node as usize] = match g.outcome(&node) {
                Some(_) => ends(node),
                None => g.moves_of(node).fold([0; 4], |sum, e| {
                    let child = paths[g.target(e) as usize];
                    std::array::from_fn(|k| sum[k].saturating_add(child[k]))
                }),
            };
            for &parent in &parents[node as usize] {
                left[parent as usize] -= 1;
                if left[parent as usize] == 0 {
                    ready.push(parent);
                }
            }
        }
        Some((done == reachable.len()).then(|| paths[0]))
    }

    /// Re-solves `sample` random nodes of `db`, a saved table of this graph.
    fn sample_checked(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let g = &self.game;
        if db.header().spec != self.table_spec || db.header().ranks != g.nodes() as u64 {
            return Err(Error::Database {
                path: db.path().display().to_string(),
                why: format!("is not the table of {}", self.spec).into(),
            });
        }
        check_ranks(db, sample, seed, |rank| {
            let p = rank as NodeId;
            if let Some(outcome) = g.outcome(&p) {
                return Ok(Some(Value::terminal(outcome, g.mover(p))));
            }
            let mut best = None;
            for e in g.moves_of(p) {
                let child = g.target(e);
                let v = db.position_value(u64::from(child))?;
                best = best.max(Some(Value::from_child(v, g.mover(child) == g.mover(p))));
            }
            Ok(best)
        })
    }
}

impl Strategy for GraphStrategy {
    type Game = GameGraph;
    type Table = Values;

    fn game(&self, _command: &str) -> Result<&GameGraph, Error> {
        Ok(&self.game)
    }

    fn load(&self, opts: &Options) -> Result<Option<Values>, Error> {
        Ok(
            saved_table(opts, &self.table_spec, Some(self.game.nodes() as u64), SAVER)?
                .map(|db| Values::Saved(Box::new(db))),
        )
    }

    fn is_current(values: &Values) -> bool {
        match values {
            Values::Memory(_) => true,
            Values::Saved(db) => db.is_current(),
        }
    }

    fn held_bytes(values: &Values) -> u64 {
        match values {
            Values::Memory(solved) => solved.held_bytes(),
            Values::Saved(db) => db.held_bytes(),
        }
    }

    fn estimate(&self, _start: &NodeId, _opts: &Options, _tables: &Tables<'_, Self>) -> Result<Cost, Error> {
        Ok(self.solve_cost())
    }

    fn solve(&self, start: &NodeId, opts: &Options, tables: &Tables<'_, Self>) -> Result<Found, Error> {
        let started = Instant::now();
        if self.game.seats() != 2 {
            opts.budget
                .check(&format!("solving {}", self.spec), self.solve_cost())?;
            let tallies = self.max_n(&opts.budget)?;
            return Ok(Found {
                verdict: points_verdict(self.game.mover(*start), self.points_at(tallies, *start)),
                positions: Big(self.game.nodes() as u128),
                solver: "max-n".into(),
                seconds: started.elapsed().as_secs_f64(),
                details: Vec::new(),
            });
        }
        let (values, solved_now) = self.values(opts, tables, true)?;
        let mut details = Vec::new();
        match &*values {
            Values::Saved(db) => {
                let how = if solved_now {
                    "solved now"
                } else {
                    "read from the data folder"
                };
                details.push(table_fact(&table_path(opts, &self.table_spec), db, how));
            }
            Values::Memory(_) if solved_now && opts.save => details.push(Fact::new(
                "table",
                "table",
                FactValue::Text(format!(
                    "kept in memory, not saved: games of more than {MAX_SAVED_REMOTENESS} moves \
                     under best play do not fit a saved table"
                )),
            )),
            Values::Memory(_) => {}
        }
        Ok(Found {
            verdict: Verdict {
                margin: self.margin(*start, &opts.budget)?,
                ..Verdict::of(values.value(*start)?)
            },
            positions: Big(self.game.nodes() as u128),
            solver: "retrograde".into(),
            seconds: started.elapsed().as_secs_f64(),
            details,
        })
    }

    fn view(&self, p: &NodeId, opts: &Options, tables: &Tables<'_, Self>) -> Result<PositionView, Error> {
        let g = &self.game;
        if g.seats() != 2 {
            return self.max_n_view(*p, &opts.budget);
        }
        let ranked = self.ranked(*p, opts, tables)?;
        let mut view = value_view(&self.spec, g, p, &ranked, Vec::new());
        view.points = self.points(g, p);
        if let Some(margins) = self.tallies(&opts.budget)? {
            view.verdict.margin = Some(margins[*p as usize]);
            for ((e, _), shown) in ranked.iter().zip(&mut view.moves) {
                let child = g.target(*e);
                let m = margins[child as usize];
                shown.verdict.margin = Some(if g.mover(child) == g.mover(*p) { m } else { -m });
            }
        }
        Ok(view)
    }

    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, GameGraph>> {
        (name == "perfect").then(|| {
            if self.game.seats() != 2 {
                let tallies = self.max_n(&opts.budget)?;
                let rng = StdRng::seed_from_u64(seed);
                return Ok(Box::new(MaxN { tallies, rng }) as Box<dyn Player<GameGraph> + 's>);
            }
            let (values, _) = self.values(opts, tables, false)?;
            Ok(Box::new(Perfect::new(Reader { values }, seed)) as Box<dyn Player<GameGraph> + 's>)
        })
    }

    fn symmetry(&self) -> Option<KeyFn<GameGraph>> {
        Some(symmetric_key::<GameGraph>)
    }

    fn points(&self, game: &GameGraph, p: &NodeId) -> Option<Vec<i32>> {
        game.points(*p).map(<[i32]>::to_vec)
    }

    fn count(&self, _symmetry: bool, opts: &Options) -> Option<Result<Counts, Error>> {
        Some(self.counted(opts))
    }

    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        Some(self.sample_checked(db, sample, seed))
    }
}
