//! The opening book of a game: every position up to a number of plies from the start
//! valued once by the strategy's solver and saved ([`crate::table::opening`]), then read
//! before any search by the moves of a position, the perfect player, the soft player, the
//! designer's report and a solve from the start.
//!
//! A book to depth `d` is made from the views of the positions `d - 1` plies deep (every
//! move's value, which is the value of each position `d` plies deep); the positions above
//! take their values from their children's, by negamax. The book is saved after each view,
//! and making it again goes on from what is saved.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::{IteratorRandom, SliceRandom};
use rand::SeedableRng;

use crate::class::Class;
use crate::game::{Game, Notation};
use crate::play::Player;
use crate::session::strategies::search::value_view;
use crate::session::{Big, Fact, FactValue, Found, Options, PositionView, Verdict};
use crate::table::opening::Opening;
use crate::{Error, Value};

use super::{GameSession, Strategy};

/// The name of the solver a value read from the book is credited to.
pub const BOOK: &str = "book";

/// The most plies a book may cover.
pub const MAX_DEPTH: u32 = 64;

/// The exact value a verdict tells, when it tells the distance too.
fn exact(v: &Verdict) -> Option<Value> {
    match (v.value?, v.remoteness) {
        (Class::Draw, _) => Some(Value::Draw),
        (Class::Win, Some(r)) => Some(Value::Win(r)),
        (Class::Lose, Some(r)) => Some(Value::Lose(r)),
        _ => None,
    }
}

/// The value of a child whose move is worth `move_value` to its parent's mover
/// ([`Value::from_child`] the other way).
fn child_value(move_value: Value, same_mover: bool) -> Value {
    match (move_value, same_mover) {
        (Value::Draw, _) => Value::Draw,
        (Value::Win(r), true) | (Value::Lose(r), false) => Value::Win(r.saturating_sub(1)),
        (Value::Lose(r), true) | (Value::Win(r), false) => Value::Lose(r.saturating_sub(1)),
    }
}

type Position<S> = <<S as Strategy>::Game as Game>::Position;
type Move<S> = <<S as Strategy>::Game as Game>::Move;

impl<S: Strategy> GameSession<S> {
    /// Where the opening book of this session's game lies under `opts`.
    pub(super) fn opening_path(&self, opts: &Options) -> PathBuf {
        crate::session::table_path(opts, &self.book_spec()).with_extension("zob")
    }

    /// The spec the book is saved under and checked against.
    fn book_spec(&self) -> String {
        self.strategy
            .canonical_spec()
            .unwrap_or_else(|| self.spec.clone())
    }

    /// The book key of `p`: its symmetry representative's notation.
    fn book_key(&self, g: &S::Game, p: &Position<S>) -> String {
        match self.strategy.symmetry() {
            Some(key) => g.format_position(&key(g, p)),
            None => g.format_position(p),
        }
    }

    /// The opening book in the data folder, read once and kept while its file is the same;
    /// `None` where there is none (a damaged one is an error).
    pub(super) fn opening(&self, opts: &Options) -> Result<Option<Arc<Opening>>, Error> {
        let path = self.opening_path(opts);
        let mut held = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(book) = held.as_ref().filter(|b| b.path() == path && b.is_current()) {
            return Ok(Some(book.clone()));
        }
        *held = None;
        if !path.exists() {
            return Ok(None);
        }
        let book = Arc::new(Opening::open(&path, &self.book_spec())?);
        *held = Some(book.clone());
        Ok(Some(book))
    }

    /// Every legal move of `p` (not ended) with its value for `p`'s mover, best first, when
    /// `book` holds every child.
    fn booked_moves(&self, g: &S::Game, book: &Opening, p: &Position<S>) -> Option<Vec<(Move<S>, Value)>> {
        let mover = g.to_move(p);
        let mut ranked = Vec::new();
        for m in g.legal_moves(p) {
            let child = g.play(p, &m);
            let v = book.value(&self.book_key(g, &child))?;
            ranked.push((m, Value::from_child(v, g.to_move(&child) == mover)));
        }
        ranked.sort_by_key(|(_, v)| std::cmp::Reverse(*v));
        (!ranked.is_empty()).then_some(ranked)
    }

    /// The view of `p` from the opening book, when it holds every move's value.
    fn booked_view(&self, p: &Position<S>, opts: &Options) -> Result<Option<PositionView>, Error> {
        let g = self.strategy.game("position")?;
        let Some(book) = self.opening(opts)? else {
            return Ok(None);
        };
        if g.outcome(p).is_some() {
            return Ok(None);
        }
        Ok(self.booked_moves(g, &book, p).map(|ranked| {
            // The file's name alone: a page shows it, and the folder is the server's.
            let name = book.path().file_name().unwrap_or_default().to_string_lossy();
            let fact = Fact::new(
                "book",
                "values from the opening book",
                FactValue::Text(name.into()),
            );
            value_view(&self.spec, g, p, &ranked, vec![fact])
        }))
    }

    /// The view of `p`: from the opening book when it holds every move, else the
    /// strategy's.
    pub(super) fn view_of(&self, p: &Position<S>, opts: &Options) -> Result<PositionView, Error> {
        match self.booked_view(p, opts)? {
            Some(view) => Ok(view),
            None => self.strategy.view(p, opts, &self.tables(opts)),
        }
    }

    /// The value of `start` from the opening book, when it holds it.
    pub(super) fn booked_solve(&self, start: &Position<S>, opts: &Options) -> Result<Option<Found>, Error> {
        let started = Instant::now();
        let g = self.strategy.game("solve")?;
        let Some(book) = self.opening(opts)? else {
            return Ok(None);
        };
        Ok(book.value(&self.book_key(g, start)).map(|v| Found {
            verdict: Verdict::of(v),
            positions: Big(u128::from(book.info().entries)),
            solver: BOOK.into(),
            seconds: started.elapsed().as_secs_f64(),
            details: book_facts(&book),
        }))
    }

    /// The perfect player `inner`, playing from the opening book where it holds every move.
    pub(super) fn booked_player<'s>(
        &'s self,
        inner: Box<dyn Player<S::Game> + 's>,
        seed: u64,
        opts: &Options,
    ) -> Result<Box<dyn Player<S::Game> + 's>, Error> {
        Ok(match self.opening(opts)? {
            Some(book) => Box::new(BookPlayer {
                session: self,
                book,
                inner,
                rng: StdRng::seed_from_u64(seed),
            }),
            None => inner,
        })
    }

    /// Makes (or goes on making) the opening book to `depth` plies from the game's start
    /// with the strategy's solver, saving it as it grows: its facts.
    pub(super) fn make_opening(&self, depth: u32, opts: &Options) -> Result<Vec<Fact>, Error> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(Error::Unsupported(format!(
                "an opening book covers 1 to {MAX_DEPTH} plies, not {depth}"
            )));
        }
        if opts.position.is_some() {
            return Err(Error::Unsupported(
                "an opening book starts at the game's start, not at a position".into(),
            ));
        }
        let g = self.strategy.game("an opening book")?;
        crate::session::writable(&opts.data_dir)?;
        let path = self.opening_path(opts);
        let mut book = if opts.force || !path.exists() {
            Opening::new(&path, &self.book_spec(), depth)
        } else {
            let old = Opening::open(&path, &self.book_spec())?;
            if old.info().depth == depth {
                old
            } else {
                // A book of another depth: its values still hold.
                let mut book = Opening::new(&path, &self.book_spec(), depth);
                for (k, v) in old.entries() {
                    book.insert(k.to_string(), v);
                }
                book
            }
        };
        // The positions of each ply above the last, one per symmetry class.
        let mut plies = vec![vec![g.start()]];
        let mut seen = HashSet::from([self.book_key(g, &g.start())]);
        for _ in 1..depth {
            let mut next = Vec::new();
            for p in plies.last().expect("a ply") {
                for m in g.legal_moves(p) {
                    let child = g.play(p, &m);
                    if seen.insert(self.book_key(g, &child)) {
                        next.push(child);
                    }
                }
            }
            plies.push(next);
        }
        let started = Instant::now();
        let last = plies.last().expect("a ply");
        let todo: Vec<&Position<S>> = last
            .iter()
            .filter(|p| g.outcome(p).is_none())
            .filter(|p| {
                book.value(&self.book_key(g, p)).is_none() || self.booked_moves(g, &book, p).is_none()
            })
            .collect();
        opts.progress.start(
            &format!("valuing the moves of ply {}", depth - 1),
            todo.len() as u64,
        );
        for p in todo {
            if opts.budget.cancelled() {
                return Err(opts.budget.stopped("making the opening book"));
            }
            let view = self.strategy.view(p, opts, &self.tables(opts))?;
            let value = exact(&view.verdict).ok_or_else(|| no_distance(&self.spec))?;
            let mover = g.to_move(p);
            book.insert(self.book_key(g, p), value);
            for row in &view.moves {
                let m = g.parse_move(p, &row.notation)?;
                let child = g.play(p, &m);
                let v = exact(&row.verdict).ok_or_else(|| no_distance(&self.spec))?;
                book.insert(
                    self.book_key(g, &child),
                    child_value(v, g.to_move(&child) == mover),
                );
            }
            book.save()?;
            opts.progress.advance(1);
        }
        // Every position above from its children, the deepest first; ended ones as ended.
        for ply in plies.iter().rev() {
            for p in ply {
                let value = match g.outcome(p) {
                    Some(o) => Value::terminal(o, g.to_move(p)),
                    None => match self.booked_moves(g, &book, p) {
                        Some(ranked) => ranked[0].1,
                        None => {
                            return Err(Error::Unsupported(format!(
                                "the opening book misses a move of {}",
                                g.format_position(p)
                            )))
                        }
                    },
                };
                book.insert(self.book_key(g, p), value);
            }
        }
        book.set_complete();
        let bytes = book.save()?;
        let mut facts = book_facts(&book);
        facts.push(Fact::new(
            "book_bytes",
            "opening book bytes",
            FactValue::Int(bytes as i64),
        ));
        facts.push(Fact::new(
            "book_seconds",
            "seconds making the opening book",
            FactValue::Real(started.elapsed().as_secs_f64()),
        ));
        Ok(facts)
    }

    /// Re-values `sample` random entries of the opening book at `path` by the strategy's
    /// solver (with the tables of the book's folder): how many were checked, or the first
    /// entry that differs.
    pub(super) fn opening_checked(
        &self,
        path: &std::path::Path,
        sample: u64,
        seed: u64,
    ) -> Result<u64, Error> {
        let book = Opening::open(path, &self.book_spec())?;
        let g = self.strategy.game("checking an opening book")?;
        let opts = Options {
            data_dir: path.parent().map(PathBuf::from).unwrap_or_default(),
            ..Options::default()
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut picked = book.entries().choose_multiple(&mut rng, sample as usize);
        picked.shuffle(&mut rng);
        for &(key, value) in &picked {
            let p = g.parse_position(key)?;
            let solved = match g.outcome(&p) {
                Some(o) => Value::terminal(o, g.to_move(&p)),
                None => {
                    let view = self.strategy.view(&p, &opts, &self.tables(&opts))?;
                    exact(&view.verdict).ok_or_else(|| no_distance(&self.spec))?
                }
            };
            if solved != value {
                return Err(Error::Database {
                    path: path.display().to_string(),
                    why: format!("holds {value} for {key}, but the solver finds {solved}").into(),
                });
            }
        }
        Ok(picked.len() as u64)
    }
}

/// The error of a game whose solver values positions without their distance.
fn no_distance(spec: &str) -> Error {
    Error::Unsupported(format!(
        "an opening book keeps exact values with their distance, which {spec} does not give"
    ))
}

/// What a book is: where, how deep, how many entries.
fn book_facts(book: &Opening) -> Vec<Fact> {
    let info = book.info();
    vec![
        Fact::new(
            "book",
            "opening book",
            FactValue::Text(book.path().display().to_string()),
        ),
        Fact::new(
            "book_depth",
            "opening book plies",
            FactValue::Int(i64::from(info.depth)),
        ),
        Fact::new(
            "book_entries",
            "opening book positions",
            FactValue::Int(info.entries as i64),
        ),
    ]
}

/// The perfect player reading the opening book first: a best move of the book's, ties
/// broken at random, where the book holds every move; else the player it wraps.
struct BookPlayer<'s, S: Strategy> {
    session: &'s GameSession<S>,
    book: Arc<Opening>,
    inner: Box<dyn Player<S::Game> + 's>,
    rng: StdRng,
}

impl<S: Strategy> Player<S::Game> for BookPlayer<'_, S> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, game: &S::Game, p: &Position<S>) -> Result<Move<S>, Error> {
        match self.session.booked_moves(game, &self.book, p) {
            Some(ranked) => {
                let best = ranked[0].1;
                let ties: Vec<&Move<S>> = ranked
                    .iter()
                    .filter(|(_, v)| *v == best)
                    .map(|(m, _)| m)
                    .collect();
                Ok((*ties.choose(&mut self.rng).expect("a best move")).clone())
            }
            None => self.inner.choose(game, p),
        }
    }

    fn check(&self, game: &S::Game, p: &Position<S>) -> Result<(), Error> {
        match self.session.booked_moves(game, &self.book, p) {
            Some(_) => Ok(()),
            None => self.inner.check(game, p),
        }
    }

    fn fallback(&mut self, game: &S::Game, p: &Position<S>) -> Option<(Move<S>, String)> {
        self.inner.fallback(game, p)
    }
}
