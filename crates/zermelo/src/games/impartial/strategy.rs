//! The heap-values strategy: impartial heap games (Nim, subtraction and octal games, and
//! sums of them) valued by Sprague–Grundy under normal play, or by the misère rules of
//! Nim and subtraction games. Values come from a proven period when there is one, so a
//! heap of any size costs no more than the period. A rule's sequence is read from the
//! data folder when a saved one values the start's heaps, and `solve` saves the one it
//! computes ([`sequence_db`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::error::Part;
use crate::games::impartial::grundy::{self, Column, GrundyReport, OctalStore, Sequence};
use crate::games::impartial::sequence_db::{self, Stored};
use crate::games::impartial::values::GrundyValues;
use crate::games::impartial::{nim, part_sizes, HeapGame, HeapMove, Heaps, Octal, Rule};
use crate::play::Player;
use crate::session::common;
use crate::session::engine::{GameSession, Made, Strategy, Tables};
use crate::session::{
    Big, Budget, Cost, Fact, FactValue, Found, MoveValue, Options, PositionView, Session, Verdict,
    MOVES_LISTED,
};
use crate::solve::grundy::Periodicity;
use crate::spec::{GameInfo, Spec};
use crate::table::db::Database;
use crate::{Class, Error, Game, Notation};

/// The most legal moves a position may have for players that list them (all but
/// `perfect`): `play` and `tournament` check the start, `bot_move` the position.
const MAX_PLAYED: u128 = 1_000_000;
/// Bytes a heap value takes in a table.
const VALUE_BYTES: u64 = 4;
/// Bytes a listed move takes in a position report, about.
const LISTED_BYTES: u64 = 256;

/// Where a sequence's values came from.
enum Source {
    /// The data folder.
    Read,
    /// Computed by this process.
    Computed,
}

/// Values by heap size: a sequence with a proven period, or long enough for the game's
/// heaps; read from the data folder or computed.
struct Lookup<T: Stored> {
    seq: Sequence<T>,
    /// The spec it is saved under.
    spec: String,
    source: Source,
}

impl<T: Stored> Lookup<T> {
    /// The values of `rule` (under the misère rule when `misere`) for heaps up to `max`:
    /// the saved sequence when it values them (unless `opts.force`), else `compute()`;
    /// refused when a heap of `max` is beyond what is computed.
    fn new(
        rule: &Rule,
        misere: bool,
        max: u64,
        opts: &Options,
        compute: impl FnOnce() -> Result<Sequence<T>, Error>,
    ) -> Result<Self, Error> {
        let spec = rule
            .sequence_spec(misere)
            .expect("a rule with values by heap size");
        if !opts.force {
            if let Some(db) = crate::session::saved_table(opts, &spec, None, sequence_db::SAVER)? {
                if let Some(len) = sequence_db::needed(&db, max) {
                    return Ok(Lookup {
                        seq: sequence_db::load(&db, len)?,
                        spec,
                        source: Source::Read,
                    });
                }
            }
        }
        let seq = compute()?;
        if seq.shape.is_none() && max >= seq.values.len() as u64 {
            return Err(Error::too_big(format!(
                "{}: no period proven within {} values, so a heap of {max} is out of reach",
                rule.describe(),
                seq.values.len()
            )));
        }
        Ok(Lookup {
            seq,
            spec,
            source: Source::Computed,
        })
    }

    fn at(&self, n: u64) -> T {
        self.seq.at(n).expect("the lookup values every heap of the game")
    }
}

/// A sequence's file in the data folder.
trait Saved {
    /// The fact naming its file when it was read from the data folder; when `solving`,
    /// also when computed, saving it first unless `opts.save` is off.
    fn table(&self, opts: &Options, solving: bool) -> Result<Option<Fact>, Error>;
    /// Whether it was read from the data folder.
    fn read(&self) -> bool;
}

impl<T: Stored> Saved for Lookup<T> {
    fn table(&self, opts: &Options, solving: bool) -> Result<Option<Fact>, Error> {
        let path = crate::session::table_path(opts, &self.spec);
        let source = match self.source {
            Source::Read => "read from the data folder",
            Source::Computed if !solving => return Ok(None),
            Source::Computed if !opts.save => {
                return Ok(Some(Fact::new(
                    "table",
                    "table",
                    FactValue::Text("not saved (as asked)".into()),
                )))
            }
            Source::Computed => {
                crate::session::writable(&opts.data_dir)?;
                sequence_db::write(&path, &self.spec, &self.seq)?;
                "solved now"
            }
        };
        Ok(Some(crate::session::table_fact(
            &path,
            &Database::open(&path)?,
            source,
        )))
    }

    fn read(&self) -> bool {
        matches!(self.source, Source::Read)
    }
}

/// The values of one part's heaps by size.
enum PartValues {
    Nim,
    Table(Lookup<u32>),
}

/// What decides who wins: Grundy values under normal play, or a misère rule.
enum Judge {
    Normal(Vec<PartValues>),
    MisereNim,
    MisereSubtraction(Lookup<bool>),
}

impl Judge {
    /// The judge of `game` for heaps up to those of its start, and what computing (or
    /// reading) it took; `thorough` (for a solve, which saves them) computes octal values
    /// as far as `zermelo grundy` does when the start needs fewer.
    fn new(game: &HeapGame, opts: &Options, thorough: bool) -> Result<(Judge, Cost), Error> {
        let started = Instant::now();
        let start = game.start();
        let largest = |part: usize| part_sizes(&start.heaps, part).into_iter().max().unwrap_or(0);
        // One value per heap of the start, and every value of a part's table.
        let mut computed = start.heaps.len() as u64;
        let judge = match (game.misere(), game.parts()) {
            (true, [Rule::Nim]) => Judge::MisereNim,
            (true, [rule @ Rule::Subtraction(set)]) => {
                let lookup = Lookup::new(rule, true, largest(0), opts, || {
                    grundy::subtraction_outcomes_within(set, true, &opts.budget)
                })?;
                computed += lookup.seq.values.len() as u64;
                Judge::MisereSubtraction(lookup)
            }
            (true, _) => {
                return Err(Error::Unsupported(
                    "the misère rule is offered for nim and subtraction only".into(),
                ))
            }
            (false, parts) => {
                let mut values = Vec::new();
                for (i, rule) in parts.iter().enumerate() {
                    let max = largest(i);
                    let lookup = match rule {
                        Rule::Nim => {
                            values.push(PartValues::Nim);
                            continue;
                        }
                        Rule::Subtraction(set) => Lookup::new(rule, false, max, opts, || {
                            grundy::subtraction_grundy_within(set, &opts.budget)
                        })?,
                        Rule::Octal(code) => Lookup::new(rule, false, max, opts, || {
                            grundy::octal_grundy_for(code, max, thorough, &opts.budget)
                        })?,
                    };
                    computed += lookup.seq.values.len() as u64;
                    values.push(PartValues::Table(lookup));
                }
                Judge::Normal(values)
            }
        };
        let cost = Cost {
            positions: computed,
            bytes: computed.saturating_mul(VALUE_BYTES),
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok((judge, cost))
    }

    /// The sequences the judge reads, one per part with values by heap size.
    fn sequences(&self) -> Vec<&dyn Saved> {
        match self {
            Judge::Normal(parts) => parts
                .iter()
                .filter_map(|p| match p {
                    PartValues::Table(t) => Some(t as &dyn Saved),
                    PartValues::Nim => None,
                })
                .collect(),
            Judge::MisereNim => Vec::new(),
            Judge::MisereSubtraction(t) => vec![t],
        }
    }

    /// The facts naming the judge's files (see [`Saved::table`]) and, when solving, where
    /// its values came from.
    fn tables(&self, opts: &Options, solving: bool) -> Result<Vec<Fact>, Error> {
        let sequences = self.sequences();
        let mut facts = Vec::new();
        for s in &sequences {
            facts.extend(s.table(opts, solving)?);
        }
        if solving && !sequences.is_empty() {
            let source = if sequences.iter().all(|s| s.read()) {
                "read from the data folder"
            } else {
                "solved now"
            };
            facts.push(Fact::new("source", "source", FactValue::Text(source.into())));
        }
        Ok(facts)
    }

    /// Bytes its sequences hold in memory.
    fn bytes(&self) -> u64 {
        match self {
            Judge::Normal(parts) => parts
                .iter()
                .map(|p| match p {
                    PartValues::Table(t) => t.seq.values.bytes(),
                    PartValues::Nim => 0,
                })
                .sum(),
            Judge::MisereNim => 0,
            Judge::MisereSubtraction(t) => t.seq.values.bytes(),
        }
    }

    /// How the judge decides, for [`Solution::solver`].
    fn method(&self) -> &'static str {
        match self {
            Judge::Normal(_) => "grundy",
            Judge::MisereNim => "misere-nim",
            Judge::MisereSubtraction(_) => "misere-table",
        }
    }

    /// The Grundy value of each heap of `p` (normal play only).
    fn heap_values(&self, p: &Heaps) -> Option<Vec<u64>> {
        let Judge::Normal(parts) = self else {
            return None;
        };
        Some(
            p.heaps
                .iter()
                .map(|h| match &parts[h.part as usize] {
                    PartValues::Nim => h.size,
                    PartValues::Table(t) => u64::from(t.at(h.size)),
                })
                .collect(),
        )
    }

    /// Whether the mover loses `p`.
    fn lost(&self, p: &Heaps) -> bool {
        match self {
            Judge::Normal(_) => self.heap_values(p).is_some_and(|g| nim::nim_sum(&g) == 0),
            Judge::MisereNim => nim::misere_lost(&p.heaps.iter().map(|h| h.size).collect::<Vec<_>>()),
            Judge::MisereSubtraction(t) => !t.at(p.heaps[0].size),
        }
    }

    /// Every winning move of `p` (none when the mover loses), found within `within`.
    fn winning(&self, game: &HeapGame, p: &Heaps, within: &Budget) -> Result<Vec<HeapMove>, Error> {
        if self.lost(p) {
            return Ok(Vec::new());
        }
        // Misère Nim's winning targets come from the plain nim-sum of the sizes too.
        let sizes: Vec<u64> = p.heaps.iter().map(|h| h.size).collect();
        let nim_sum = self
            .heap_values(p)
            .map_or_else(|| nim::nim_sum(&sizes), |v| nim::nim_sum(&v));
        game.winning_moves_within(
            p,
            |size| nim::targets(size, nim_sum),
            |child| self.lost(child),
            within,
        )
    }
}

/// The `grundy` report of `spec`, with an octal game's values read from the data folder
/// when its saved sequence gives the report computing would: with a proven period, when
/// `to` (if given) reaches past the values stored; without one, when they reach `to`.
/// Else, with `to`, the values go on from those saved; with `save_every`, they are saved
/// that often while computing, when stopped and at the end (unless `opts.save` is off).
/// `opts.force` computes from heap 0 whatever is saved.
pub fn grundy_report(
    spec: &Spec,
    to: Option<u64>,
    save_every: Option<Duration>,
    opts: &Options,
) -> Result<GrundyReport, Error> {
    let store = DataFolder {
        opts,
        every: save_every.filter(|_| opts.save),
    };
    grundy::report(spec, to, &opts.budget, &store)
}

/// The data folder as the store of octal reports' values.
struct DataFolder<'a> {
    opts: &'a Options,
    /// How often values are saved while computing; `None`: never saved.
    every: Option<Duration>,
}

impl DataFolder<'_> {
    /// The spec a sequence of `code` is saved under.
    fn spec(code: &Octal) -> String {
        Rule::Octal(code.clone())
            .sequence_spec(false)
            .expect("an octal rule has values by heap size")
    }

    /// The saved sequence of `code`, unless `--force`.
    fn saved(&self, code: &Octal) -> Result<Option<Database>, Error> {
        if self.opts.force {
            return Ok(None);
        }
        crate::session::saved_table(self.opts, &DataFolder::spec(code), None, sequence_db::SAVER)
    }
}

/// `e`, and when it is about a database (a damaged file), how to go on.
fn damaged(e: Error) -> Error {
    match e {
        Error::Database { path, mut why } => {
            why.0.extend([
                Part::Text(" (remove it, or run with ".into()),
                Part::Switch("force"),
                Part::Text(", to compute the values again)".into()),
            ]);
            Error::Database { path, why }
        }
        e => e,
    }
}

impl OctalStore for DataFolder<'_> {
    fn read(&self, code: &Octal, to: Option<usize>) -> Result<Option<Sequence<u32>>, Error> {
        let read = || {
            let Some(db) = self.saved(code)? else {
                return Ok(None);
            };
            let stored = db.header().ranks;
            let asked = to.map(|t| t as u64 + 1);
            let len = match (sequence_db::shape(&db), asked) {
                (Some(_), None) => stored,
                (Some(_), Some(n)) if n >= stored => stored,
                (None, Some(n)) if n <= stored => n,
                _ => return Ok(None),
            };
            sequence_db::load(&db, len).map(Some)
        };
        read().map_err(damaged)
    }

    fn start(&self, code: &Octal) -> Result<GrundyValues, Error> {
        // A sequence with a proven period is read whole or not at all (a report of fewer
        // heaps than it holds computes them).
        let values = match self.saved(code).map_err(damaged)? {
            Some(db) if sequence_db::shape(&db).is_none() => {
                sequence_db::load::<u32>(&db, db.header().ranks)
                    .map_err(damaged)?
                    .values
            }
            _ => GrundyValues::default(),
        };
        Ok(values)
    }

    fn save(
        &self,
        code: &Octal,
        values: &GrundyValues,
        shape: Option<Periodicity>,
    ) -> Result<Option<String>, Error> {
        if self.every.is_none() {
            return Ok(None);
        }
        let spec = DataFolder::spec(code);
        let path = crate::session::table_path(self.opts, &spec);
        // What is saved already, when it can be read, is kept when it goes as far: a
        // proven period first, then more values.
        let saved = crate::session::saved_table(self.opts, &spec, None, sequence_db::SAVER);
        if let Ok(Some(db)) = saved {
            let have = (sequence_db::shape(&db).is_some(), db.header().ranks);
            if have >= (shape.is_some(), values.len() as u64) {
                return Ok(None);
            }
        }
        crate::session::writable(&self.opts.data_dir)?;
        sequence_db::write_values::<u32>(&path, &spec, values, values.len(), shape)?;
        Ok(Some(path.display().to_string()))
    }

    fn every(&self) -> Option<Duration> {
        self.every
    }
}

/// The move that makes a lost game last: the fewest tokens from the first heap with a move.
fn stall(game: &HeapGame, p: &Heaps) -> Option<HeapMove> {
    (0..p.heaps.len()).find_map(|i| {
        let one_less = p.heaps[i].size.saturating_sub(1);
        game.heap_moves(p, i, &[one_less])
            .into_iter()
            .min_by_key(|m| m.take)
    })
}

/// "take 4 from heap 2 (9 -> 5)", "take 1 from heap 1 (5 -> 1 + 3)".
fn describe(p: &Heaps, m: &HeapMove) -> String {
    let size = p.heaps[m.heap].size;
    let rest = size - m.take;
    let after = if m.left == 0 {
        rest.to_string()
    } else {
        format!("{} + {}", m.left, rest - m.left)
    };
    format!("take {} from heap {} ({size} -> {after})", m.take, m.heap + 1)
}

/// "win" or "lose" for the mover, with no remoteness.
fn verdict(win: bool) -> Verdict {
    Verdict {
        value: Some(if win { Class::Win } else { Class::Lose }),
        ..Verdict::default()
    }
}

/// Plays a winning move, at random among them; in a lost position takes the fewest
/// tokens it can from the first heap with a move, to make the game last.
struct Perfect {
    judge: Arc<Solved>,
    rng: StdRng,
    budget: Budget,
}

impl Player<HeapGame> for Perfect {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &HeapGame, p: &Heaps) -> Result<HeapMove, Error> {
        if let Some(m) = self.judge.0.winning(game, p, &self.budget)?.choose(&mut self.rng) {
            return Ok(*m);
        }
        stall(game, p).ok_or_else(|| Error::bad_move("", "no legal move in this position"))
    }
}

/// The values of a game's heaps, and what computing (or reading) them took.
pub struct Solved(Judge, Cost);

/// The heap-values strategy of a heap game.
pub struct HeapValues {
    spec: String,
    game: HeapGame,
}

/// The session of `spec`, a heap game of `info`; the values are read or computed when
/// first needed.
pub fn open(spec: &str, info: &'static GameInfo, game: HeapGame) -> Box<dyn Session> {
    let seats = game.players();
    Box::new(GameSession::new(
        info,
        spec,
        seats,
        HeapValues {
            spec: spec.to_string(),
            game,
        },
    ))
}

impl HeapValues {
    /// The values, held or made now: `thorough` for a solve (see [`Judge::new`]).
    fn solved(
        &self,
        opts: &Options,
        thorough: bool,
        tables: &Tables<'_, Self>,
    ) -> Result<Arc<Solved>, Error> {
        if let Some(held) = tables.held() {
            return Ok(held);
        }
        let (judge, cost) = Judge::new(&self.game, opts, thorough)?;
        Ok(tables.keep(Solved(judge, cost)))
    }

    /// Game facts about `p`: the rule, and under normal play the heap values and nim-sum.
    fn facts(&self, judge: &Judge, p: &Heaps) -> Vec<Fact> {
        let rule = if self.game.misere() { "misère" } else { "normal" };
        let mut facts = vec![Fact::new("rule", "play", FactValue::Text(rule.into()))];
        if let Some(values) = judge.heap_values(p) {
            let label = if values.len() > 1 {
                "nim-sum"
            } else {
                "Grundy value"
            };
            // Heap sizes are at most 10^18, so values and their nim-sum fit in an i64.
            facts.push(Fact::new(
                "heap_values",
                "heap Grundy values",
                FactValue::List(values.iter().map(|&v| v as i64).collect()),
            ));
            facts.push(Fact::new(
                "grundy",
                label,
                FactValue::Int(nim::nim_sum(&values) as i64),
            ));
        }
        facts
    }

    /// The moves of `p` with their values for the mover, winning ones first: every legal
    /// move when there are at most [`MOVES_LISTED`] or every move is asked for, else the
    /// winning moves, the perfect player's move and others, [`MOVES_LISTED`] in all.
    fn listed(&self, judge: &Judge, p: &Heaps, total: u128, opts: &Options) -> Result<Vec<MoveValue>, Error> {
        let g = &self.game;
        let winning = judge.winning(g, p, &opts.budget)?;
        let stalling = if winning.is_empty() { stall(g, p) } else { None };
        let every = opts.all_moves || total <= MOVES_LISTED as u128;
        let moves = if every {
            let count = u64::try_from(total).unwrap_or(u64::MAX);
            opts.budget.check(
                &format!("listing the {total} moves of this position"),
                Cost {
                    positions: count,
                    bytes: count.saturating_mul(LISTED_BYTES),
                    seconds: 0.0,
                },
            )?;
            g.legal_moves(p)
        } else {
            let mut some: Vec<HeapMove> = winning.iter().copied().chain(stalling).collect();
            for i in 0..p.heaps.len() {
                // On a Nim heap taking one token, two, ... as many as are listed; on the
                // others every move.
                let size = p.heaps[i].size;
                let targets: Vec<u64> = (size.saturating_sub(MOVES_LISTED as u64)..size).collect();
                for m in g.heap_moves(p, i, &targets) {
                    if some.len() >= MOVES_LISTED {
                        break;
                    }
                    if !some.contains(&m) {
                        some.push(m);
                    }
                }
            }
            some.truncate(MOVES_LISTED);
            some
        };
        let mut rows: Vec<MoveValue> = moves
            .iter()
            .map(|m| {
                let wins = judge.lost(&g.play(p, m));
                MoveValue {
                    notation: g.format_move(p, m),
                    verdict: verdict(wins),
                    best: wins || (winning.is_empty() && stalling == Some(*m)),
                    note: Some(describe(p, m)),
                }
            })
            .collect();
        rows.sort_by_key(|row| row.verdict.value != Some(Class::Win));
        Ok(rows)
    }
}

impl Strategy for HeapValues {
    type Game = HeapGame;
    type Table = Solved;

    fn game(&self, _command: &str) -> Result<&HeapGame, Error> {
        Ok(&self.game)
    }

    /// A heap of 10^18 tokens has as many moves.
    fn lists_unvalued(&self) -> bool {
        false
    }

    fn load(&self, opts: &Options) -> Result<Option<Solved>, Error> {
        let (judge, cost) = Judge::new(&self.game, opts, false)?;
        Ok(Some(Solved(judge, cost)))
    }

    fn held_bytes(table: &Solved) -> u64 {
        table.0.bytes()
    }

    fn estimate(&self, _start: &Heaps, opts: &Options, tables: &Tables<'_, Self>) -> Result<Cost, Error> {
        Ok(self.solved(opts, true, tables)?.1)
    }

    /// The values of every heap the game's start can come to (a position's heaps are no
    /// larger: [`HeapGame::parse_position`] refuses any that are), and the value of `start`.
    fn solve(&self, start: &Heaps, opts: &Options, tables: &Tables<'_, Self>) -> Result<Found, Error> {
        let started = Instant::now();
        let solved = self.solved(opts, true, tables)?;
        let Solved(judge, cost) = &*solved;
        let mut details = self.facts(judge, start);
        details.extend(judge.tables(opts, true)?);
        Ok(Found {
            verdict: verdict(!judge.lost(start)),
            positions: Big(u128::from(cost.positions)),
            solver: judge.method().to_string(),
            // The values may have been computed before, for an estimate.
            seconds: started.elapsed().as_secs_f64().max(cost.seconds),
            details,
        })
    }

    fn view(&self, p: &Heaps, opts: &Options, tables: &Tables<'_, Self>) -> Result<PositionView, Error> {
        let g = &self.game;
        let solved = self.solved(opts, false, tables)?;
        let judge = &solved.0;
        let total = g.move_count(p);
        let mut details = self.facts(judge, p);
        details.extend(judge.tables(opts, false)?);
        let listed = self.listed(judge, p, total, opts)?;
        Ok(PositionView {
            moves_total: Big(total),
            details,
            ..common::view(&self.spec, g, p, verdict(!judge.lost(p)), listed)
        })
    }

    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, HeapGame>> {
        (name == "perfect").then(|| {
            Ok(Box::new(Perfect {
                judge: self.solved(opts, false, tables)?,
                rng: StdRng::seed_from_u64(seed),
                budget: opts.budget.clone(),
            }) as Box<dyn Player<HeapGame>>)
        })
    }

    fn check_start(&self, start: &Heaps) -> Result<(), Error> {
        let moves = self.game.move_count(start);
        if moves > MAX_PLAYED {
            return Err(Error::too_big(format!(
                "the start has {moves} legal moves; play and tournament take at most {MAX_PLAYED}"
            )));
        }
        Ok(())
    }

    fn check_bot(&self, p: &Heaps, player: &str, _opts: &Options) -> Result<(), Error> {
        if !player.trim().eq_ignore_ascii_case("perfect") {
            let count = self.game.move_count(p);
            if count > MAX_PLAYED {
                return Err(Error::too_big(format!(
                    "this position has {count} legal moves; players other than perfect take at most {MAX_PLAYED}"
                )));
            }
        }
        Ok(())
    }

    /// Checks the saved sequence of this game's one rule: its period proven again and
    /// `sample` heaps valued again from their options' stored values.
    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        Some(self.sample_checked(db, sample, seed))
    }
}

impl HeapValues {
    /// Re-solves `sample` random positions of `db`, a saved database of this game.
    fn sample_checked(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let misere = self.game.misere();
        let rule = match self.game.parts() {
            [rule] if rule.sequence_spec(misere).as_deref() == Some(&db.header().spec) => rule,
            _ => {
                return Err(Error::Database {
                    path: db.path().display().to_string(),
                    why: format!("is not a sequence of values by heap size ({})", db.header().spec).into(),
                })
            }
        };
        if misere {
            sequence_db::check_sample::<bool>(db, rule, sample, seed)
        } else {
            sequence_db::check_sample::<u32>(db, rule, sample, seed)
        }
    }
}
