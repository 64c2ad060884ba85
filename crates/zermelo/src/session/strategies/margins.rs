//! The margin strategy: two-player score games solved exactly by the final score lead the
//! mover can force (alpha-beta over margins, [`MarginSearch`]), such as Dots and Boxes.
//! Positions too big for the budget list their moves with the game's adviser's choice first.
//! Games small enough to tabulate ([`MarginIndexed`]) also solve by retrograde analysis
//! into a table saved to the data folder, which positions, moves and the perfect player
//! then read instead of searching.

use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::game::{Notation, Symmetric};
use crate::play::margin::{BestMargin, ProvenMargin, TableMargin};
use crate::play::Player;
use crate::session::common;
use crate::session::engine::{GameSession, Made, Strategy, Tables};
use crate::session::{
    Big, Budget, Cost, Fact, FactValue, Found, MoveValue, Options, PositionView, Session, Verdict,
};
use crate::solve::margin::{MarginSearch, MarginSolver, Setup};
use crate::solve::margin_table::{self, MarginIndexed, MarginTable};
use crate::solve::{symmetric_key, KeyFn};
use crate::spec::GameInfo;
use crate::table::book::{self, Book, BookInfo};
use crate::table::db::Database;
use crate::Error;

/// Bytes a margin-search table entry takes, with the map's overhead.
const ENTRY_BYTES: u64 = 64;
/// Ranks the retrograde solver handles per second on this machine, about.
const RETROGRADE_RATE: f64 = 3e7;
/// The solver that saves margin tables, and the version of its output.
const SAVER: (&str, u32) = ("retrograde-margin", 1);
/// How long the perfect player playing from a book tries for a better lead than it has
/// proved, a move.
pub const THINK: Duration = Duration::from_secs(10);
/// The most bytes a book takes on disk (the positions with the most lines left are kept).
const BOOK_BYTES: u64 = 2 << 30;

/// The name of the default solver: the game's fastest ([`MarginGame::solver`]).
pub const NULL_WINDOW: &str = "nullwindow";

/// What a score game solved by margins hands the strategy.
pub trait MarginGame: Notation + MarginIndexed + Symmetric + Clone + Send + Sync + 'static {
    /// The key of the exact search's table.
    type Key: Hash + Eq;
    /// The own player whose choice leads the moves of positions too big to search.
    const ADVISER: &'static str;

    /// The exact alpha-beta search, with the game's reductions.
    fn search(&self) -> MarginSearch<'_, Self, Self::Key>;
    /// The fastest exact solver under `setup` (the default one; see [`NULL_WINDOW`]).
    fn solver(&self, setup: &Setup) -> Box<dyn MarginSolver<Self> + '_>;
    /// What searching `p` exactly costs, about, when the table may take `bytes`.
    fn search_cost(&self, p: &Self::Position, bytes: u64) -> Cost;
    /// Why the perfect player cannot play this game by valuing every move afresh, when it
    /// cannot (it then plays from a book, when a solve saved one).
    fn perfect_refusal(&self) -> Option<String>;
    /// A search that keeps its table from move to move and reads `setup.book`, for the
    /// perfect player on boards it refuses to search afresh; `None` when the game has none.
    fn lasting_solver(&self, setup: &Setup) -> Option<Box<dyn MarginSolver<Self>>>;
    /// One of the game's own players by (lower-case) name, within `budget`; `None` for
    /// other names.
    fn own_player(name: &str, seed: u64, budget: &Budget) -> Option<Box<dyn Player<Self>>>;
    /// Facts about the game (its size).
    fn facts(&self) -> Vec<Fact>;
    /// Facts about a position (what each player holds).
    fn position_facts(&self, p: &Self::Position) -> Vec<Fact>;
}

/// Boards drawn at random, one per tournament game.
pub struct Draw<G> {
    /// Draws one board; `perfect` when a perfect player takes part (small boards only).
    pub board: fn(&mut StdRng, bool) -> G,
    /// What the boards are drawn from, for the standings (`perfect` as for `board`).
    pub fact: fn(bool) -> Fact,
}

/// The board of a session: one, or one drawn per tournament game.
enum Board<G> {
    One(G),
    Drawn(Draw<G>),
}

/// The tables a margin session reads: the saved table of every rank, the book of a solve.
pub struct MarginTables {
    table: Option<Arc<MarginTable>>,
    book: Option<Arc<Book>>,
}

/// The margin strategy of a score game.
pub struct Margins<G> {
    spec: String,
    board: Board<G>,
}

/// The session of `spec`, a game of `info` solved by margins.
pub fn open<G: MarginGame>(spec: &str, info: &'static GameInfo, game: G) -> Box<dyn Session> {
    let board = Board::One(game);
    Box::new(GameSession::new(
        info,
        spec,
        2,
        Margins {
            spec: spec.to_string(),
            board,
        },
    ))
}

/// The session of `spec`, a game of `info` on boards drawn by `draw`, for tournaments.
pub fn open_drawn<G: MarginGame>(spec: &str, info: &'static GameInfo, draw: Draw<G>) -> Box<dyn Session> {
    let board = Board::Drawn(draw);
    Box::new(GameSession::new(
        info,
        spec,
        2,
        Margins {
            spec: spec.to_string(),
            board,
        },
    ))
}

impl<G: MarginGame> Margins<G> {
    /// The one board, or why `command` needs one.
    fn one(&self, command: &str) -> Result<&G, Error> {
        match &self.board {
            Board::One(g) => Ok(g),
            Board::Drawn(_) => Err(Error::Unsupported(format!(
                "{} draws a board per game and only suits tournaments, not {command}",
                self.spec
            ))),
        }
    }

    /// The book of the one board in the data folder, when there is one.
    fn book(&self, opts: &Options) -> Result<Option<Arc<Book>>, Error> {
        let path = book_path(opts, &self.spec);
        if matches!(self.board, Board::Drawn(_)) || !path.exists() {
            return Ok(None);
        }
        Book::open(&path, &self.spec).map(|b| Some(Arc::new(b)))
    }

    /// What the board's book and a search of up to [`THINK`] prove of `p` (not ended): its
    /// verdict when exact, every move with its value or the bounds on it (a move keeping
    /// the best lead proved first), and a fact saying how it was found; `None` without a
    /// book.
    fn proved(
        &self,
        g: &G,
        p: &G::Position,
        book: Option<Arc<Book>>,
        opts: &Options,
    ) -> Result<Option<(Verdict, Vec<MoveValue>, Fact)>, Error> {
        let Some(book) = book else {
            return Ok(None);
        };
        let path = book.path().display().to_string();
        let Some(mut solver) = g.lasting_solver(&Setup {
            book: Some(book),
            ..opts.setup(ENTRY_BYTES)
        }) else {
            return Ok(None);
        };
        let started = Instant::now();
        let proven = solver.prove(p, Some(started + THINK));
        if solver.stopped() {
            return Err(opts.budget.stopped("valuing the moves from the book"));
        }
        let exact = |lo: i32, hi: i32| (lo == hi).then(|| Verdict::of_margin(lo));
        let mut moves = proven.moves.clone();
        moves.sort_by_key(|(m, lo, hi)| (*m != proven.best, -lo, -hi));
        let listed = moves
            .iter()
            .map(|(m, lo, hi)| MoveValue {
                notation: g.format_move(p, m),
                verdict: exact(*lo, *hi).unwrap_or_else(Verdict::unknown),
                best: *m == proven.best || (lo == hi && *lo == proven.lo && proven.lo == proven.hi),
                note: (lo != hi).then(|| format!("final lead between {lo} and {hi}")),
            })
            .collect();
        let verdict = exact(proven.lo, proven.hi);
        let how = match verdict {
            Some(_) => "exact".to_string(),
            None => format!("final lead between {} and {}", proven.lo, proven.hi),
        };
        let fact = Fact::new(
            "book",
            "book",
            FactValue::Text(format!(
                "{path}: {how}, proved in {:.1} s",
                started.elapsed().as_secs_f64()
            )),
        );
        Ok(Some((verdict.unwrap_or_else(Verdict::unknown), listed, fact)))
    }

    /// The saved margin table of the one board, when there is one.
    fn saved(&self, opts: &Options) -> Result<Option<Arc<MarginTable>>, Error> {
        let Board::One(g) = &self.board else {
            return Ok(None);
        };
        let Some(ranks) = g.margin_ranks() else {
            return Ok(None);
        };
        let db = crate::session::saved_table(opts, &self.spec, Some(ranks), SAVER)?;
        Ok(db.map(|db| Arc::new(MarginTable::Saved(Arc::new(db)))))
    }

    /// Solves every rank by retrograde analysis (or reads the saved table) and, unless
    /// `opts.save` is off, saves the table: the margin of `start`, the ranks and the saved
    /// file as a fact.
    fn retrograde(
        &self,
        g: &G,
        start: &G::Position,
        opts: &Options,
        held: Option<&MarginTable>,
    ) -> Result<(i32, u64, Option<Fact>), Error> {
        let ranks = g
            .margin_ranks()
            .ok_or_else(|| Error::Unsupported(format!("{} is too big for a table", self.spec)))?;
        let path = crate::session::table_path(opts, &self.spec);
        if let Some(table) = held.filter(|_| !opts.force) {
            let db = Database::open(&path)?;
            let fact = crate::session::table_fact(&path, &db, "read from the data folder");
            return Ok((table.margin(g, start)?, ranks, Some(fact)));
        }
        opts.budget.check(
            &format!("retrograde analysis of {}", self.spec),
            retrograde_cost(ranks),
        )?;
        if opts.save {
            crate::session::writable(&opts.data_dir)?;
            crate::session::check_room(&opts.data_dir, ranks)?;
        }
        let solved = margin_table::solve(g, opts.progress.as_ref()).expect("the table fits");
        let fact = if opts.save {
            margin_table::write(&path, &self.spec, SAVER, &solved)?;
            let db = Database::open(&path)?;
            Some(crate::session::table_fact(&path, &db, "solved now"))
        } else {
            None
        };
        Ok((MarginTable::Solved(solved).margin(g, start)?, ranks, fact))
    }

    /// The exact value of every move of `p`, best first (from `table` when there is
    /// one), or why the budget does not allow the search (or [`Error::Cancelled`]).
    fn rank(
        &self,
        g: &G,
        p: &G::Position,
        table: Option<&MarginTable>,
        opts: &Options,
    ) -> Result<Vec<(G::Move, i32)>, Error> {
        if let Some(table) = table {
            return table.rank_moves(g, p);
        }
        let what = format!("valuing the moves of this {} position", self.spec);
        opts.budget
            .check(&what, g.search_cost(p, opts.budget.table_bytes()))?;
        let mut search = g.solver(&opts.setup(ENTRY_BYTES));
        let ranked = search.rank_moves(p);
        if search.stopped() {
            return Err(opts.budget.stopped(&what));
        }
        Ok(ranked)
    }
}

/// Where the book of `spec` lies in the data folder.
fn book_path(opts: &Options, spec: &str) -> PathBuf {
    crate::session::table_path(opts, spec).with_extension("zbook")
}

/// The fact that names a book.
fn book_fact(path: &Path, info: &BookInfo, bytes: u64, source: &str) -> Fact {
    Fact::new(
        "book",
        "book",
        FactValue::Text(format!(
            "{} ({} positions with at least {} lines left, {bytes} bytes, {source})",
            path.display(),
            info.entries,
            info.min_work
        )),
    )
}

/// What tabulating `ranks` costs, about: one byte a rank.
fn retrograde_cost(ranks: u64) -> Cost {
    Cost {
        positions: ranks,
        bytes: ranks,
        seconds: ranks as f64 / RETROGRADE_RATE,
    }
}

fn is_perfect(name: &str) -> bool {
    name.trim().eq_ignore_ascii_case("perfect")
}

impl<G: MarginGame> Strategy for Margins<G> {
    type Game = G;
    type Table = MarginTables;

    fn game(&self, command: &str) -> Result<&G, Error> {
        self.one(command)
    }

    fn solvers(&self) -> Vec<&'static str> {
        let tabulated = matches!(&self.board, Board::One(g) if g.margin_ranks().is_some());
        let mut list = vec![NULL_WINDOW, "alphabeta", "plain"];
        if tabulated {
            list.push("retrograde");
        }
        list
    }

    /// Perfect against random where the perfect player can play the board; else the
    /// game's adviser against random.
    fn default_players(&self) -> Vec<String> {
        let perfect_refused = matches!(&self.board, Board::One(g) if g.perfect_refusal().is_some());
        let first = if perfect_refused { G::ADVISER } else { "perfect" };
        vec![first.into(), "random".into()]
    }

    /// The saved table and book, when either is in the data folder; while neither is,
    /// nothing is held and the next answer looks again (a solve elsewhere may save them).
    fn load(&self, opts: &Options) -> Result<Option<MarginTables>, Error> {
        let (table, book) = (self.saved(opts)?, self.book(opts)?);
        Ok((table.is_some() || book.is_some()).then_some(MarginTables { table, book }))
    }

    fn is_current(tables: &MarginTables) -> bool {
        let table = match tables.table.as_deref() {
            Some(MarginTable::Saved(db)) => db.is_current(),
            Some(MarginTable::Solved(_)) | None => true,
        };
        table && tables.book.as_ref().is_none_or(|b| b.is_current())
    }

    /// The blocks a saved table keeps decompressed (a book is mapped, not held).
    fn held_bytes(tables: &MarginTables) -> u64 {
        match tables.table.as_deref() {
            Some(MarginTable::Solved(t)) => t.len() as u64,
            Some(MarginTable::Saved(db)) => db.held_bytes(),
            None => 0,
        }
    }

    fn estimate(
        &self,
        start: &G::Position,
        opts: &Options,
        _tables: &Tables<'_, Self>,
    ) -> Result<Cost, Error> {
        let g = self.one("solve")?;
        Ok(match (opts.solver.as_deref(), g.margin_ranks()) {
            (Some("retrograde"), Some(ranks)) => retrograde_cost(ranks),
            _ => g.search_cost(start, opts.budget.table_bytes()),
        })
    }

    fn solve(&self, start: &G::Position, opts: &Options, tables: &Tables<'_, Self>) -> Result<Found, Error> {
        let g = self.one("solve")?;
        let what = format!("solving {}", self.spec);
        opts.budget.check(&what, self.estimate(start, opts, tables)?)?;
        let started = Instant::now();
        let solver = opts.solver.as_deref().unwrap_or(NULL_WINDOW);
        let limit = opts.budget.limit(ENTRY_BYTES);
        let mut details = g.facts();
        let tabulated = self.solvers().contains(&"retrograde");
        let held = tables.get()?;
        let (margin, positions, nodes) = if solver == "retrograde" && tabulated {
            let (margin, ranks, fact) =
                self.retrograde(g, start, opts, held.as_ref().and_then(|h| h.table.as_deref()))?;
            details.extend(fact);
            (margin, ranks as usize, ranks)
        } else {
            let book = match (solver, opts.force) {
                (NULL_WINDOW, false) => held.as_ref().and_then(|h| h.book.clone()),
                _ => None,
            };
            if let Some(b) = &book {
                details.push(book_fact(
                    b.path(),
                    b.info(),
                    b.file_bytes(),
                    "read from the data folder",
                ));
            }
            // Boards the perfect player cannot search move by move keep what a solve from
            // the start proved as a book (a solve from a later position proves too little
            // of the game for the perfect player to play from).
            let keep_book = solver == NULL_WINDOW
                && opts.save
                && book.is_none()
                && g.perfect_refusal().is_some()
                && *start == g.start();
            if keep_book {
                crate::session::writable(&opts.data_dir)?;
                crate::session::check_room(&opts.data_dir, BOOK_BYTES)?;
            }
            let mut s: Box<dyn MarginSolver<G>> = match solver {
                NULL_WINDOW => g.solver(&Setup {
                    book,
                    ..opts.setup(ENTRY_BYTES)
                }),
                "alphabeta" => Box::new(g.search().with_limit(limit)),
                "plain" => Box::new(MarginSearch::new(g).with_limit(limit)),
                other => {
                    return Err(Error::Unsupported(format!(
                        "unknown solver '{other}' (solvers: {})",
                        self.solvers().join(", ")
                    )))
                }
            };
            let margin = s.margin(start);
            if s.stopped() {
                return Err(opts.budget.stopped(&what));
            }
            if keep_book {
                let path = book_path(opts, &self.spec);
                if let Some(info) = s.save_book(&path, &self.spec, book::capacity(BOOK_BYTES))? {
                    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
                    details.push(book_fact(&path, &info, bytes, "solved now"));
                }
            }
            (margin, s.positions(), s.nodes())
        };
        // What the solve saved is read afresh by the next answer.
        tables.forget();
        details.push(Fact::new(
            "nodes",
            "nodes",
            FactValue::Big(Big(u128::from(nodes))),
        ));
        Ok(Found {
            verdict: Verdict::of_margin(margin),
            positions: Big(positions as u128),
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
        let g = self.one("position")?;
        let outcome = g.outcome(p);
        let mover = g.to_move(p);
        let mut details = g.position_facts(p);
        let held = tables.get()?;
        let table = held.as_ref().and_then(|h| h.table.clone());
        let book = held.as_ref().and_then(|h| h.book.clone());
        if table.is_some() {
            let path = crate::session::table_path(opts, &self.spec);
            details.push(Fact::new(
                "table",
                "table",
                FactValue::Text(format!("{} (read from the data folder)", path.display())),
            ));
        }
        let (verdict, listed) = match outcome {
            Some(_) => (
                Verdict::of_margin(g.score(p, mover) - g.score(p, 1 - mover)),
                Vec::new(),
            ),
            None => {
                // A position whose moves cost more to value afresh than the perfect
                // player thinks is valued from the book first, when there is one.
                let costly = g.search_cost(p, opts.budget.table_bytes()).seconds > THINK.as_secs_f64();
                let book_first = table.is_none() && costly;
                let proved = if book_first {
                    self.proved(g, p, book.clone(), opts)?
                } else {
                    None
                };
                let outcome = match proved {
                    Some(proved) => Ok(proved),
                    None => match self.rank(g, p, table.as_deref(), opts) {
                        Ok(ranked) => {
                            let best = ranked[0].1;
                            let listed = ranked
                                .iter()
                                .map(|(m, v)| MoveValue {
                                    notation: g.format_move(p, m),
                                    verdict: Verdict::of_margin(*v),
                                    best: *v == best,
                                    note: None,
                                })
                                .collect();
                            return Ok(view(&self.spec, g, p, details, Verdict::of_margin(best), listed));
                        }
                        Err(Error::Cancelled) => return Err(Error::Cancelled),
                        Err(e @ (Error::Database { .. } | Error::Io(_))) => return Err(e),
                        Err(why) if book_first => Err(why),
                        Err(why) => self.proved(g, p, book, opts)?.ok_or(why),
                    },
                };
                match outcome {
                    Ok((verdict, listed, fact)) => {
                        details.push(fact);
                        (verdict, listed)
                    }
                    Err(why) => {
                        details.push(Fact::new(
                            "unsearched",
                            "not searched",
                            FactValue::Text(why.to_string()),
                        ));
                        (Verdict::unknown(), advised(g, p, &opts.budget)?)
                    }
                }
            }
        };
        Ok(view(&self.spec, g, p, details, verdict, listed))
    }

    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, G>> {
        if name != "perfect" {
            return G::own_player(name, seed, &opts.budget).map(|p| Ok(p as Box<dyn Player<G> + 's>));
        }
        let perfect = || -> Result<Box<dyn Player<G> + 's>, Error> {
            let held = tables.get()?;
            if let Some(table) = held.as_ref().and_then(|h| h.table.clone()) {
                return Ok(Box::new(TableMargin::new(table, seed)));
            }
            let refusal = match &self.board {
                Board::One(g) => g.perfect_refusal().map(|why| (g, why)),
                Board::Drawn(_) => None,
            };
            let Some((g, why)) = refusal else {
                return Ok(Box::new(
                    BestMargin::new(G::solver, seed).with_setup(opts.budget.setup(ENTRY_BYTES)),
                ));
            };
            let book = held.as_ref().and_then(|h| h.book.clone());
            let setup = Setup {
                book,
                ..opts.budget.setup(ENTRY_BYTES)
            };
            match setup.book.is_some().then(|| g.lasting_solver(&setup)).flatten() {
                Some(solver) => Ok(Box::new(ProvenMargin::new(solver, THINK))),
                None => Err(Error::Unsupported(why)),
            }
        };
        Some(perfect())
    }

    fn dealer(&self, names: &[String], seed: u64) -> Result<Box<dyn FnMut(u64) -> G + '_>, Error> {
        let perfect = names.iter().any(|n| is_perfect(n));
        let mut rng = StdRng::seed_from_u64(seed);
        Ok(match &self.board {
            Board::One(g) => Box::new(move |_| g.clone()),
            Board::Drawn(draw) => Box::new(move |_| (draw.board)(&mut rng, perfect)),
        })
    }

    fn tournament_facts(&self, names: &[String]) -> Vec<Fact> {
        match &self.board {
            Board::One(_) => Vec::new(),
            Board::Drawn(draw) => vec![(draw.fact)(names.iter().any(|n| is_perfect(n)))],
        }
    }

    fn points(&self, g: &G, p: &G::Position) -> Option<Vec<i32>> {
        Some(vec![g.score(p, 0), g.score(p, 1)])
    }

    fn symmetry(&self) -> Option<KeyFn<G>> {
        Some(symmetric_key::<G>)
    }

    fn check_sample(&self, db: &Database, sample: u64, seed: u64) -> Option<Result<u64, Error>> {
        Some(self.sample_checked(db, sample, seed))
    }
}

/// The view of `p` in the game of `spec`, with its verdict, its moves listed and `details`.
fn view<G: MarginGame>(
    spec: &str,
    g: &G,
    p: &G::Position,
    details: Vec<Fact>,
    verdict: Verdict,
    listed: Vec<MoveValue>,
) -> PositionView {
    PositionView {
        points: Some(vec![g.score(p, 0), g.score(p, 1)]),
        details,
        ..common::view(spec, g, p, verdict, listed)
    }
}

/// The moves of `p` unvalued, the adviser's choice first and marked best.
fn advised<G: MarginGame>(g: &G, p: &G::Position, budget: &Budget) -> Result<Vec<MoveValue>, Error> {
    let mut adviser = G::own_player(G::ADVISER, 0, budget).expect("the adviser is one of the game's players");
    let suggested = adviser.choose(g, p)?;
    let mut moves = g.legal_moves(p);
    moves.sort_by_key(|m| *m != suggested);
    Ok(moves
        .iter()
        .map(|m| {
            let chosen = *m == suggested;
            MoveValue {
                notation: g.format_move(p, m),
                verdict: Verdict::unknown(),
                best: chosen,
                note: chosen.then(|| format!("suggested by the {} player", G::ADVISER)),
            }
        })
        .collect())
}

impl<G: MarginGame> Margins<G> {
    /// Re-solves `sample` random positions of `db`, a saved database of this game.
    fn sample_checked(&self, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
        let g = self.one("checking a database")?;
        if db.header().spec != self.spec {
            return Err(Error::Database {
                path: db.path().display().to_string(),
                why: format!("is not the table of {}", self.spec).into(),
            });
        }
        margin_table::check_sample(g, db, sample, seed)
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog;
    use crate::games::dots::Dots;
    use crate::session::{Budget, Options};
    use crate::solve::margin::{MarginSearch, MarginSolver};
    use crate::Game;

    fn quick() -> Options {
        Options::default()
    }

    #[test]
    fn solving_3x3_dots_agrees_with_the_plain_search() {
        let s = catalog::open("dots:size=3").unwrap();
        let fast = s.solve(&quick()).unwrap();
        let plain = s
            .solve(&Options {
                solver: Some("plain".into()),
                ..quick()
            })
            .unwrap();
        let g = Dots::square(3).unwrap();
        let reference = MarginSearch::new(&g).margin(&g.start());
        assert_eq!(fast.verdict.margin, Some(reference));
        assert_eq!(plain.verdict.margin, Some(reference));
        assert_eq!(fast.verdict.value, Some(crate::Class::of_lead(reference)));
        assert!(fast.details.iter().any(|f| f.key == "boxes"));
    }

    #[test]
    fn a_position_values_every_move_and_counts_boxes() {
        let s = catalog::open("dots:size=3").unwrap();
        let moves: Vec<String> = ["1ab", "12a", "12b", "2ab"].map(String::from).to_vec();
        let view = s.position(&moves, &quick()).unwrap();
        let g = Dots::square(3).unwrap();
        let p = g.after(&["1ab", "12a", "12b", "2ab"]).unwrap();
        assert_eq!(view.points, Some(vec![0, 1]));
        assert_eq!(view.to_move, "●");
        assert_eq!(view.moves.len(), g.legal_moves(&p).len());
        let best = MarginSearch::new(&g).margin(&p);
        assert_eq!(view.verdict.margin, Some(best));
        assert!(view.moves[0].best);
        assert_eq!(view.moves[0].verdict.margin, Some(best));
    }

    #[test]
    fn a_position_over_the_budget_lists_the_advisers_move_first() {
        let s = catalog::open("dots:size=6").unwrap();
        // A request's budget: a search of this board takes far longer than it allows.
        let tight = Options {
            budget: Budget {
                seconds: Some(5.0),
                ..Budget::default().with_memory(1 << 20)
            },
            ..quick()
        };
        let view = s.position(&[], &tight).unwrap();
        assert_eq!(view.verdict.value, None);
        assert!(view.moves[0].best && view.moves[0].note.is_some());
        assert_eq!(view.moves.iter().filter(|m| m.best).count(), 1);
        assert!(view.details.iter().any(|f| f.key == "unsearched"));
    }

    #[test]
    fn tournaments_need_one_player_a_seat_and_small_boards_for_perfect() {
        let s = catalog::open("dots:size=3").unwrap();
        let names = |v: &[&str]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert!(s
            .tournament(&names(&["greedy"]), 2, 1, &quick(), &|_| ())
            .is_err());
        assert!(s
            .tournament(&names(&["greedy", "strong", "random"]), 2, 1, &quick(), &|_| ())
            .is_err());
        let standings = s
            .tournament(&names(&["perfect", "greedy"]), 4, 1, &quick(), &|_| ())
            .unwrap();
        assert_eq!(standings.games, 4);
        let big = catalog::open("dots:size=5").unwrap();
        assert!(big
            .tournament(&names(&["perfect", "greedy"]), 2, 1, &quick(), &|_| ())
            .is_err());
        let random = catalog::open("dots:size=random").unwrap();
        let standings = random
            .tournament(&names(&["strong", "greedy"]), 4, 1, &quick(), &|_| ())
            .unwrap();
        assert!(standings.details.iter().any(|f| f.key == "random_sizes"));
        assert!(random.solve(&quick()).is_err());
    }

    #[test]
    fn a_solve_past_the_perfect_players_reach_saves_a_book_it_plays_and_values_from() {
        let dir = std::env::temp_dir().join(format!("zermelo-book-session-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = Options {
            data_dir: dir.clone(),
            ..quick()
        };
        // 1 x 8 boxes: 25 lines, one more than the perfect player searches afresh.
        let s = catalog::open("dots:rows=2,cols=9").unwrap();
        let names = |v: &[&str]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let refused = s
            .tournament(&names(&["perfect", "strong"]), 2, 1, &opts, &|_| ())
            .err()
            .unwrap()
            .to_string();
        assert!(refused.contains("unless the board was solved first"), "{refused}");
        // Another session of the board (a server's, say), asked before the solve.
        let other = catalog::open("dots:rows=2,cols=9").unwrap();
        assert!(other
            .tournament(&names(&["perfect", "strong"]), 2, 1, &opts, &|_| ())
            .is_err());

        let solved = s.solve(&opts).unwrap();
        assert!(solved.details.iter().any(|f| f.key == "book"));
        let margin = solved.verdict.margin.unwrap();
        let g = Dots::new(2, 9).unwrap();
        assert_eq!(margin, crate::games::dots::solver(&g).margin(&g.start()));

        // A tight memory budget sizes the search's table to it: the moves are still valued
        // exactly, from the book when the search is refused, else by a search in the table.
        let tight = Options {
            budget: Budget::default().with_memory(1 << 20),
            ..opts.clone()
        };
        let view = s.position(&[], &tight).unwrap();
        assert_eq!(view.verdict.margin, Some(margin));
        assert!(view.moves[0].best);
        assert_eq!(view.moves[0].verdict.margin, Some(margin));

        let standings = s
            .tournament(&names(&["perfect", "greedy"]), 2, 1, &opts, &|_| ())
            .unwrap();
        let perfect = &standings.players[0];
        assert_eq!((standings.games, perfect.player.as_str()), (2, "perfect"));
        if margin == 0 {
            assert_eq!(perfect.losses, 0);
        } else {
            // The winning seat is taken once.
            assert!(perfect.wins >= 1);
        }
        // It finds the book the solve saved, without being opened again.
        let standings = other
            .tournament(&names(&["perfect", "strong"]), 2, 1, &opts, &|_| ())
            .unwrap();
        assert_eq!(standings.games, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
