//! The native part of the `zermelo` Python package: the catalog and sessions of the
//! library, answering in the JSON documents of `docs/schema.json`. The Python package
//! (`python/zermelo/`) turns them into objects; this module only parses, calls the library
//! and serialises.

mod cli;
mod explore;
mod search;
mod spill;

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;
use zermelo::analysis::selfplay::Plan;
use zermelo::command::{self, Command, Given, Kind as CommandKind, Opt, Value};
use zermelo::error::Words;
use zermelo::explicit::{End, GameGraph, GraphBuilder, NodeExtras, NodeId};
use zermelo::limits::Seconds;
use zermelo::picture::{Grid, Kind, Picture};
use zermelo::play::external::{Guest, Mover, Turn};
use zermelo::session::{Budget, Options, Session};
use zermelo::solve::Progress;
use zermelo::{Error, PlayerId};
use zermelo_cli::shown;

create_exception!(
    zermelo,
    ZermeloError,
    PyException,
    "A job zermelo could not finish: too big for its budget, a damaged table, a failed read."
);

/// The Python exception of a library error, in Python's words: bad input is a `ValueError`.
fn py_error(e: Error) -> PyErr {
    let text = e.worded(&Keywords);
    match e {
        Error::Spec(_)
        | Error::Move { .. }
        | Error::Position { .. }
        | Error::BadOption { .. }
        | Error::Unsupported(_)
        | Error::Forfeit { .. } => PyValueError::new_err(text),
        _ => ZermeloError::new_err(text),
    }
}

/// Python's words for what a user can change: a keyword argument, `depth=3`.
struct Keywords;

impl Words for Keywords {
    fn option(&self, option: &str, value: Option<&str>) -> String {
        format!("{option}={}", value.unwrap_or_default())
    }

    fn memory(&self, bytes: &str, given: bool) -> String {
        if given {
            self.option("memory", Some(bytes))
        } else {
            format!("the {bytes} of this machine's memory")
        }
    }

    fn seconds(&self, seconds: f64) -> String {
        self.option("seconds", Some(&seconds.to_string()))
    }

    fn switch(&self, option: &str) -> String {
        self.option(option, Some("True"))
    }

    /// Python merges no parts: the command line's words.
    fn merge(&self, into: Option<&str>) -> String {
        format!("{} on the command line", zermelo_cli::merge_command(into))
    }
}

/// A whole number from Python, from 0 to 2**64 - 1: a negative or larger one is a
/// `ValueError` like every other refused value (Python's own conversion raises
/// `OverflowError`).
struct Whole(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<u64>() {
            Ok(n) => Ok(Whole(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyValueError::new_err(format!(
                "{} is not a whole number from 0 to {}",
                obj.to_owned(),
                u64::MAX
            ))),
            Err(e) => Err(e),
        }
    }
}

/// `value` as JSON text.
fn json(value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| ZermeloError::new_err(e.to_string()))
}

/// Offers the game of your own that `spec` opens on the page of `zermelo.serve`, under
/// its `name` and with `how_to_play` (its docstring) as its rules.
#[pyfunction]
fn offer_own(spec: String, name: String, how_to_play: String) {
    zermelo_cli::offer_own(zermelo_cli::OwnGame {
        spec,
        name,
        how_to_play,
    });
}

/// The colours every front end draws with, as JSON (see `zermelo::picture::palette`).
#[pyfunction]
fn palette() -> String {
    zermelo::picture::palette::json().to_string()
}

/// Every game of the catalog, as `zermelo games --json` lists them.
#[pyfunction]
fn games() -> PyResult<String> {
    let list: Vec<_> = zermelo::catalog::entries().iter().map(|e| e.describe()).collect();
    json(&list)
}

/// Where long work reports: read by the waiting Python thread.
#[derive(Default)]
struct Watch {
    what: Mutex<String>,
    len: AtomicU64,
    done: AtomicU64,
}

impl Progress for Watch {
    fn start(&self, what: &str, len: u64) {
        *self.what.lock().unwrap_or_else(|e| e.into_inner()) = what.to_string();
        self.len.store(len, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
    }

    fn advance(&self, steps: u64) {
        self.done.fetch_add(steps, Ordering::Relaxed);
    }
}

/// What one call shares with the players it runs: the first exception a Python player
/// raised (raised again when the call stops), and the flag that stops the call (Ctrl-C).
#[derive(Clone, Default)]
struct Call {
    raised: Arc<Mutex<Option<PyErr>>>,
    cancel: Arc<AtomicBool>,
}

thread_local!(
    /// How deep calls nest through player functions that call zermelo with player
    /// functions: none on a thread of Python's own.
    static DEPTH: Cell<u32> = const { Cell::new(0) });

/// The most calls that may nest through player functions.
const MAX_DEPTH: u32 = 8;

/// How often a wait for a player function's move looks whether the call was stopped.
const TICK: Duration = Duration::from_millis(50);

/// A Python function as a player: `f(position, moves, turn) -> move`, called on a thread
/// of its own so that it forfeits past its move time (and the game goes on, the function
/// left running) and Ctrl-C stops the call while it thinks.
struct Function {
    name: String,
    f: Arc<Py<PyAny>>,
    call: Call,
    move_time: Duration,
    /// Set while a call of this player runs: one still running past its move time
    /// forfeits the player's next move at once rather than run twice (each game of
    /// self-play, run in parallel, has a player of its own).
    busy: Arc<AtomicBool>,
    depth: u32,
}

/// What a player function answered: text, or something else (shown as Python shows it).
enum Answer {
    Text(String),
    Other(String),
}

impl Function {
    /// Calls the function on a thread of its own: its answer comes on the channel.
    fn start(&self, turn: &Turn<'_>) -> std::sync::mpsc::Receiver<PyResult<Answer>> {
        let (send, answer) = channel();
        let (f, busy, depth) = (self.f.clone(), self.busy.clone(), self.depth);
        let (game, seat, to_move, board) = (
            turn.game.to_string(),
            turn.seat,
            turn.to_move.clone(),
            turn.board.clone(),
        );
        let (position, moves) = (turn.position.clone(), turn.moves.clone());
        busy.store(true, Ordering::SeqCst);
        std::thread::spawn(move || {
            DEPTH.with(|d| d.set(depth));
            let result = Python::attach(|py| -> PyResult<Answer> {
                let info = PyDict::new(py);
                info.set_item("game", game)?;
                info.set_item("seat", seat)?;
                info.set_item("to_move", to_move)?;
                info.set_item("board", board)?;
                let answer = f.call1(py, (position, moves, info))?;
                Ok(match answer.extract::<String>(py) {
                    Ok(text) => Answer::Text(text),
                    Err(_) => Answer::Other(answer.bind(py).repr()?.to_string()),
                })
            });
            busy.store(false, Ordering::SeqCst);
            let _ = send.send(result);
        });
        answer
    }
}

impl Mover for Function {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<String, Error> {
        if self.busy.load(Ordering::SeqCst) {
            return Err(Error::forfeit(&self.name, "still busy with an earlier move"));
        }
        let answer = self.start(turn);
        let until = Instant::now() + self.move_time;
        loop {
            if self.call.cancel.load(Ordering::Relaxed) {
                return Err(Error::Cancelled);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let why = format!("no move within {} s", self.move_time.as_secs_f64());
                return Err(Error::forfeit(&self.name, why));
            }
            match answer.recv_timeout(left.min(TICK)) {
                Ok(Ok(Answer::Text(text))) => return Ok(text),
                Ok(Ok(Answer::Other(shown))) => {
                    return Err(Error::forfeit(
                        &self.name,
                        format!("answered {shown}, not a move"),
                    ))
                }
                Ok(Err(e)) => {
                    let text = format!("{} raised {e}", self.name);
                    self.call
                        .raised
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                    return Err(Error::Unsupported(text));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::Io(format!("{} stopped without an answer", self.name)))
                }
            }
        }
    }
}

/// One opened game.
#[pyclass(frozen, module = "zermelo._native")]
struct Game {
    session: Box<dyn Session>,
    data: PathBuf,
}

/// A value named `name` refused by the library's check: a `ValueError` that names it.
fn refused(name: &str) -> impl FnOnce(Error) -> PyErr + '_ {
    move |e| PyValueError::new_err(format!("{name}: {e}"))
}

/// Options for one call: the data folder, memory and time.
fn options(data: &std::path::Path, memory: Option<Whole>, seconds: Option<f64>) -> PyResult<Options> {
    let memory = memory
        .map(|Whole(b)| zermelo::limits::memory(b, &format!("{b} bytes")))
        .transpose()
        .map_err(refused("memory"))?;
    let seconds = seconds
        .map(|s| Seconds::WORK.check(s))
        .transpose()
        .map_err(refused("seconds"))?;
    Ok(Options {
        data_dir: data.to_path_buf(),
        budget: Budget {
            memory,
            seconds,
            ..Budget::default()
        },
        run_programs: true,
        ..Options::default()
    })
}

/// Runs `work` with the GIL released on a thread of its own, while this thread calls
/// `progress(what, done, total)` as it goes and stops the work on Ctrl-C (the
/// `KeyboardInterrupt` is raised once the work has stopped). An exception a Python player
/// raised is raised again in place of the error it caused.
fn run<T: Send>(
    py: Python<'_>,
    mut opts: Options,
    progress: Option<&Bound<'_, PyAny>>,
    call: &Call,
    work: impl FnOnce(&Options) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let cancel = call.cancel.clone();
    opts.budget.cancel = Some(cancel.clone());
    let watch = Arc::new(Watch::default());
    opts.progress = watch.clone();
    let (done, finished) = channel();
    // Read only by this thread; the lock lets the wait run with the GIL released.
    let finished = Mutex::new(finished);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = done.send(work(&opts));
        });
        let mut interrupted = None;
        let mut shown = (String::new(), u64::MAX, u64::MAX);
        loop {
            let answer = py.detach(|| {
                let finished = finished.lock().unwrap_or_else(|e| e.into_inner());
                finished.recv_timeout(Duration::from_millis(100))
            });
            let result = match answer {
                Ok(result) => Some(result),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => {
                    Some(Err(Error::Io("the work stopped unexpectedly".into())))
                }
            };
            if let Some(f) = progress {
                let now = (
                    watch.what.lock().unwrap_or_else(|e| e.into_inner()).clone(),
                    watch.done.load(Ordering::Relaxed),
                    watch.len.load(Ordering::Relaxed),
                );
                if now != shown && !now.0.is_empty() {
                    f.call1((&now.0, now.1, now.2))?;
                    shown = now;
                }
            }
            if let Some(result) = result {
                if let Some(e) = interrupted {
                    return Err(e);
                }
                if let Some(e) = call.raised.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    return Err(e);
                }
                return result.map_err(py_error);
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        }
    })
}

/// The players named by `players` in a game of `session`: names stay, Python functions
/// become guests named after them (`name#2` where the name is taken by a player of the
/// game or another one named), each allowed `move_time` a move.
fn seats(
    session: &dyn Session,
    players: &[Bound<'_, PyAny>],
    call: &Call,
    move_time: Duration,
) -> PyResult<(Vec<String>, Vec<Guest>)> {
    let depth = DEPTH.with(Cell::get) + 1;
    let mut names = Vec::new();
    let mut guests: Vec<Guest> = Vec::new();
    let given: Vec<String> = players
        .iter()
        .filter_map(|p| p.extract::<String>().ok())
        .collect();
    let own: Vec<String> = session
        .players()
        .iter()
        .map(|p| p.name.split(['[', ':']).next().unwrap_or(p.name).to_string())
        .collect();
    let taken = |name: &str, guests: &[Guest]| {
        let lower = name.to_ascii_lowercase();
        given.iter().any(|g| g.eq_ignore_ascii_case(name))
            || own.contains(&lower)
            || lower.starts_with("cmd:")
            || guests.iter().any(|g| g.name == name)
    };
    for p in players {
        if let Ok(name) = p.extract::<String>() {
            names.push(name);
            continue;
        }
        if !p.is_callable() {
            return Err(PyValueError::new_err(format!(
                "a player is a name or a function f(position, moves), not {}",
                p.get_type().name()?
            )));
        }
        if depth > MAX_DEPTH {
            return Err(PyValueError::new_err(format!(
                "player functions calling zermelo with player functions nest more than {MAX_DEPTH} deep: \
                 a player function must not play through itself"
            )));
        }
        let base: String = p
            .getattr("__name__")
            .and_then(|n| n.extract())
            .unwrap_or_else(|_| "player".into());
        let mut name = base.clone();
        let mut n = 1;
        while taken(&name, &guests) {
            n += 1;
            name = format!("{base}#{n}");
        }
        let f = Arc::new(p.clone().unbind());
        let (label, call) = (name.clone(), call.clone());
        guests.push(Guest {
            name: name.clone(),
            make: Arc::new(move |_seed| {
                Ok(Box::new(Function {
                    name: label.clone(),
                    f: f.clone(),
                    call: call.clone(),
                    move_time,
                    busy: Arc::default(),
                    depth,
                }) as Box<dyn Mover>)
            }),
        });
        names.push(name);
    }
    Ok((names, guests))
}

#[pymethods]
impl Game {
    /// Opens the game of `spec`, reading and saving tables in `data`.
    #[new]
    fn new(spec: &str, data: PathBuf) -> PyResult<Self> {
        let session = zermelo::catalog::open(spec).map_err(py_error)?;
        Ok(Game { session, data })
    }

    /// The spec as opened.
    #[getter]
    fn spec(&self) -> String {
        self.session.spec().to_string()
    }

    /// How many seats the game has.
    #[getter]
    fn seats(&self) -> usize {
        self.session.seats()
    }

    /// The game's catalog entry, as `zermelo games --json` lists it.
    fn describe(&self) -> PyResult<String> {
        let name = self.session.info().name;
        json(&zermelo::catalog::entry_named(name).ok().map(|e| e.describe()))
    }

    /// The solvers `solve` takes, the default first.
    fn solvers(&self) -> Vec<&'static str> {
        self.session.solvers()
    }

    /// The players of a tournament when none are named.
    fn default_players(&self) -> Vec<String> {
        self.session.default_players()
    }

    /// Solves the game from its start, or from `position`: the `solve` document and its
    /// text; the keywords are `command::SOLVE`'s.
    #[pyo3(signature = (progress=None, **kw))]
    fn solve(
        &self,
        py: Python<'_>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, String)> {
        let (_, opts) = self.asked(&command::SOLVE, kw)?;
        let session = self.session.as_ref();
        let solution = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
            session.solve(opts)
        })?;
        Ok((json(&solution)?, shown::solution(&solution)))
    }

    /// The position after `moves` from the start (or from `position`), with every legal
    /// move's value: the `moves` document, the picture as SVG (`None` for games without
    /// one) and the text `zermelo moves` prints; the keywords are `command::MOVES`'.
    #[pyo3(signature = (progress=None, **kw))]
    fn position(
        &self,
        py: Python<'_>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, Option<String>, String)> {
        let (given, opts) = self.asked(&command::MOVES, kw)?;
        let (session, moves) = (self.session.as_ref(), given.texts("moves"));
        let view = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
            session.position(&moves, opts)
        })?;
        Ok((json(&view)?, view.svg(360), shown::position(&view)))
    }

    /// The position after `moves` from the start (or from `position`) from the rules
    /// alone, its legal moves listed without values: the `moves` document, the picture
    /// as SVG and its text. `None` for a game whose positions may have more moves than memory holds.
    #[pyo3(signature = (**kw))]
    fn rules(
        &self,
        py: Python<'_>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<(String, Option<String>, String)>> {
        let (given, opts) = self.asked(&command::RULES, kw)?;
        let (session, moves) = (self.session.as_ref(), given.texts("moves"));
        match py.detach(|| session.unvalued(&moves, &opts)) {
            Ok(view) => Ok(Some((json(&view)?, view.svg(360), shown::position(&view)))),
            Err(Error::Unsupported(_)) => Ok(None),
            Err(e) => Err(py_error(e)),
        }
    }

    /// A designer's report, as `zermelo report` makes it (one library call, any number of
    /// seats): the `report` document as `--json` prints it, its plot of forgiveness by ply
    /// as SVG (`None` when left out), the text `zermelo report` prints and the page of
    /// `--html` as HTML to place in another (`None` past two seats).
    #[pyo3(signature = (progress=None, **kw))]
    fn report(
        &self,
        py: Python<'_>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, Option<String>, String, Option<String>)> {
        let (given, opts) = self.asked(&command::REPORT, kw)?;
        let (session, ask) = (self.session.as_ref(), given.ask());
        let report = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
            zermelo::design::report(session, &ask, opts)
        })?;
        let svg = report.forgiveness_svg().map_err(py_error)?;
        let page = match &report {
            zermelo::design::Report::Two(r) => {
                Some(zermelo::design::page::fragment(r, "report(depth=2)").map_err(py_error)?)
            }
            zermelo::design::Report::Seats(_) => None,
        };
        let (text, document) = shown::report(&report);
        Ok((document, svg, text, page))
    }

    /// The game graph: every position reachable from the start a node (with `symmetry`,
    /// every class), every move an edge: the `graph` document and its DOT text.
    #[pyo3(signature = (progress=None, **kw))]
    fn graph(
        &self,
        py: Python<'_>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, String)> {
        let (given, opts) = self.asked(&command::GRAPH, kw)?;
        let symmetry = given.flag("symmetry");
        let max_positions = given.whole("max_positions").unwrap_or_default();
        let session = self.session.as_ref();
        let graph = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
            session.graph(symmetry, max_positions, opts)
        })?;
        Ok((json(&graph)?, shown::graph(&graph)))
    }

    /// Counts positions and complete games: the `count` document and its text.
    #[pyo3(signature = (progress=None, **kw))]
    fn count(
        &self,
        py: Python<'_>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, String)> {
        let (given, opts) = self.asked(&command::COUNT, kw)?;
        let (session, symmetry) = (self.session.as_ref(), given.flag("symmetry"));
        let counts = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
            session.count(symmetry, opts)
        })?;
        Ok((json(&counts)?, shown::counts(&counts)))
    }

    /// The move `player` (a name or a function) makes after `moves` from the start (or
    /// from `position`).
    #[pyo3(signature = (moves, player, **kw))]
    fn bot_move(
        &self,
        py: Python<'_>,
        moves: Vec<String>,
        player: Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let (given, mut opts) = self.asked(&command::BOT_MOVE, kw)?;
        let call = Call::default();
        let (names, guests) = seats(
            self.session.as_ref(),
            &[player],
            &call,
            Options::default().move_time,
        )?;
        opts.guests = guests;
        let (session, seed) = (self.session.as_ref(), given.whole("seed").unwrap_or_default());
        run(py, opts, None, &call, |opts| {
            session.bot_move(&moves, &names[0], seed, opts)
        })
    }

    /// Plays one game between `players` (names or functions, one per seat), from the start
    /// or from `position`: the `play` document and how it ended, as text.
    #[pyo3(signature = (players, **kw))]
    fn play(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, String)> {
        let (given, mut opts) = self.asked(&command::PLAY, kw)?;
        let call = Call::default();
        let (names, guests) = seats(self.session.as_ref(), &players, &call, opts.move_time)?;
        if names.iter().any(|n| n.trim().eq_ignore_ascii_case("human")) {
            return Err(PyValueError::new_err(
                "a human plays in the terminal (`zermelo play`); here a player is a name or a function",
            ));
        }
        opts.guests = guests;
        let (session, seed) = (self.session.as_ref(), given.whole("seed").unwrap_or_default());
        let record = run(py, opts, None, &call, |opts| {
            let mut nothing = std::io::empty();
            let mut sink = std::io::sink();
            let mut show = |_: &str| {};
            let mut io = zermelo::session::PlayIo {
                input: &mut nothing,
                prompts: &mut sink,
                show: &mut show,
            };
            session.play(&names, seed, opts, &mut io)
        })?;
        Ok((json(&record)?, shown::record(&record)))
    }

    /// Plays `games` games between `players` (names or functions), each taking every seat
    /// equally often, every game from the start or from `position`: the `tournament`
    /// document and its text.
    #[pyo3(signature = (players, progress=None, **kw))]
    fn tournament(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, String)> {
        let (given, mut opts) = self.asked(&command::TOURNAMENT, kw)?;
        let (games, seed) = (
            given.whole("games").unwrap_or_default(),
            given.whole("seed").unwrap_or_default(),
        );
        let call = Call::default();
        let (names, guests) = seats(self.session.as_ref(), &players, &call, opts.move_time)?;
        let names = if names.is_empty() {
            self.session.default_players()
        } else {
            names
        };
        opts.guests = guests;
        let session = self.session.as_ref();
        let standings = run(py, opts, progress.as_ref(), &call, |opts| {
            opts.progress.start("games", games);
            session.tournament(&names, games, seed, opts, &|_| opts.progress.advance(1))
        })?;
        Ok((json(&standings)?, shown::standings(&standings)))
    }

    /// Self-play: `games` games (the most, with `until`) with `players` (one name or
    /// function for every seat, or one per seat) seated, game `i` from the seed `seed + i`,
    /// on every core, stopping once every seat's points-share interval is narrower than
    /// `until`: the `estimate` document and its text.
    #[pyo3(signature = (players, progress=None, **kw))]
    fn selfplay(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        progress: Option<Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(String, String)> {
        let (given, mut opts) = self.asked(&command::SELFPLAY, kw)?;
        let plan = Plan {
            games: given.whole("games").unwrap_or_default(),
            until: given.number("until"),
            seed: given.whole("seed").unwrap_or_default(),
        };
        let call = Call::default();
        let (names, guests) = seats(self.session.as_ref(), &players, &call, opts.move_time)?;
        opts.guests = guests;
        let session = self.session.as_ref();
        let estimate = run(py, opts, progress.as_ref(), &call, |opts| {
            opts.progress.start("games", plan.games);
            session.selfplay(&names, &plan, opts, &|_| opts.progress.advance(1))
        })?;
        Ok((json(&estimate)?, shown::estimate(&estimate)))
    }
}

impl Game {
    /// The keywords `kw` of `command`, checked against its declaration, and the options
    /// of one call that they set.
    fn asked(&self, command: &Command, kw: Option<&Bound<'_, PyDict>>) -> PyResult<(Given, Options)> {
        let given = keywords(command, kw)?;
        let mut opts = options(&self.data, None, None)?;
        given.apply(&mut opts);
        Ok((given, opts))
    }
}

/// The keywords `kw` of `command`, checked against its declaration: one it does not take is
/// a `TypeError`, a value of the wrong type or out of range a `ValueError` naming it;
/// `None` stands for the default.
fn keywords(command: &Command, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Given> {
    let mut given = Given::defaults(command, Opt::in_python);
    for (key, value) in kw.into_iter().flat_map(|kw| kw.iter()) {
        let name: String = key.extract()?;
        let Some(opt) = command.option(&name).filter(|o| o.in_python()) else {
            return Err(PyTypeError::new_err(format!(
                "{}() got an unexpected keyword argument '{name}'",
                command.name
            )));
        };
        if value.is_none() {
            continue;
        }
        let wrong = |what: &str| {
            PyValueError::new_err(format!(
                "{name}={}: give {what}",
                value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        };
        let read = match opt.kind {
            CommandKind::Flag(_) => Value::Flag(value.extract().map_err(|_| wrong("True or False"))?),
            CommandKind::Whole { .. } => Value::Whole(whole(&value, || wrong("a whole number"))?),
            CommandKind::Seconds(..) | CommandKind::Number => {
                Value::Number(value.extract().map_err(|_| wrong("a number"))?)
            }
            CommandKind::Memory => match value.extract::<String>() {
                Ok(text) => Value::Whole(zermelo::limits::parse_memory(&text).map_err(refused("memory"))?),
                Err(_) => Value::Whole(whole(&value, || wrong("bytes, or a size like \"8G\""))?),
            },
            CommandKind::Text { .. } | CommandKind::Word(_) => {
                Value::Text(value.extract().map_err(|_| wrong("text"))?)
            }
            CommandKind::Texts | CommandKind::Moves => {
                Value::Texts(value.extract().map_err(|_| wrong("a list of texts"))?)
            }
            CommandKind::Path => Value::Path(value.extract().map_err(|_| wrong("a path"))?),
        };
        let checked = opt.check(read).map_err(|e| match e {
            e @ Error::BadOption { .. } => py_error(e),
            e => refused(opt.name)(e),
        })?;
        given.set(opt.name, checked);
    }
    Ok(given)
}

/// A whole number from Python: one out of range is the `ValueError` that says so, any
/// other value the error `wrong` makes.
fn whole(value: &Bound<'_, PyAny>, wrong: impl FnOnce() -> PyErr) -> PyResult<u64> {
    match value.extract::<Whole>() {
        Ok(Whole(n)) => Ok(n),
        Err(e) if e.is_instance_of::<PyValueError>(value.py()) => Err(e),
        Err(_) => Err(wrong()),
    }
}

/// Every command's options as JSON, as `docs/options.json` holds them.
#[pyfunction]
fn declared() -> String {
    command::document().to_string()
}

/// A study's text, JSON document, CSV rows, SVG chart and plotted series.
type StudyAnswer = (String, String, Option<String>, Option<String>, Option<String>);

/// The study `name` of the game (or family) `spec`, with `args` (the study's keys, listed
/// in `games()`, checked against its declaration: a key it does not take is a `TypeError`,
/// a value of the wrong kind or out of range a `ValueError`): its text, its JSON document,
/// its CSV rows, its SVG chart (when `args` has `plot`) and the series the chart plots, the
/// last three `None` when it has none; `force`: tables it would read are computed again.
#[pyfunction]
#[pyo3(signature = (spec, name, args, data, memory=None, progress=None, force=false))]
#[allow(clippy::too_many_arguments)]
fn study(
    py: Python<'_>,
    spec: &str,
    name: &str,
    args: std::collections::BTreeMap<String, String>,
    data: PathBuf,
    memory: Option<Whole>,
    progress: Option<Bound<'_, PyAny>>,
    force: bool,
) -> PyResult<StudyAnswer> {
    let study = zermelo::catalog::study(spec, name).map_err(py_error)?;
    let checked = study
        .args(&args)
        .map_err(|e| match args.keys().any(|k| study.key(k).is_none()) {
            true => PyTypeError::new_err(e.worded(&Keywords)),
            false => py_error(e),
        })?;
    let mut opts = options(&data, memory, None)?;
    opts.force = force;
    let report = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
        (study.run)(spec, &checked, opts)
    })?;
    let series = report.series.as_ref().map(json).transpose()?;
    Ok((report.text, json(&report.json)?, report.csv, report.svg, series))
}

/// Whether the game (or family) `spec` names has the study `name`, and it takes `spec`.
#[pyfunction]
fn has_study(spec: &str, name: &str) -> bool {
    zermelo::catalog::study(spec, name).is_ok()
}

/// Every member of the family `spec` solved within `seconds` and `memory` each, tables in
/// `data`: the `balance` document of a map and its text.
#[pyfunction]
#[pyo3(signature = (spec, seconds, data, memory=None, progress=None))]
fn balance_map(
    py: Python<'_>,
    spec: &str,
    seconds: f64,
    data: PathBuf,
    memory: Option<Whole>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let opts = options(&data, memory, None)?;
    let result = run(py, opts, progress.as_ref(), &Call::default(), |opts| {
        // A member's own progress would flash by: the bar counts members.
        let quiet = Options {
            progress: Arc::new(()),
            ..opts.clone()
        };
        zermelo::balance_map::map(spec, &quiet, seconds, &mut |i, n, _| {
            if i == 0 {
                opts.progress.start("members", n as u64);
            }
            opts.progress.advance(1);
        })
    })?;
    let document = json(&serde_json::json!({"command": "balance", "map": &result}))?;
    Ok((document, shown::balance_map(&result)))
}

/// The folder of solved tables: `data`, else `ZERMELO_DATA`, else `./zermelo-data`, as
/// for the command line; an empty one is refused.
#[pyfunction]
#[pyo3(signature = (data=None))]
fn data_folder(data: Option<PathBuf>) -> PyResult<PathBuf> {
    zermelo::session::data_folder(data, "data").map_err(py_error)
}

/// Runs solves, searches, sweeps and self-play on `threads` threads (once, before the
/// first solve; 1 to 1024).
#[pyfunction]
fn set_threads(threads: Whole) -> PyResult<()> {
    let threads = zermelo::limits::threads(threads.0).map_err(refused("threads"))?;
    zermelo::set_threads(threads).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// What a game of your own drew of each node: its board as text, shown in place of the
/// node's text, and its picture.
struct Drawn {
    boards: Option<Vec<String>>,
    pictures: Option<Vec<Picture>>,
    /// Whether a node's board is its text after the first `:` (an OpenSpiel key).
    board_from_key: bool,
}

impl NodeExtras for Drawn {
    fn render(&self, graph: &GameGraph, node: NodeId) -> Option<String> {
        if self.board_from_key {
            let text = graph.text(node);
            return Some(text.split_once(':').map_or(text, |(_, board)| board).to_string());
        }
        self.boards.as_ref()?.get(node as usize).cloned()
    }

    fn picture(&self, _: &GameGraph, node: NodeId) -> Option<Picture> {
        self.pictures.as_ref()?.get(node as usize).cloned()
    }
}

/// A cell of a grid a game of your own drew: its text, its colour and the move a click
/// on it plays.
type GridCell = (Option<String>, Option<String>, Option<String>);

/// The picture of a grid of cells, its rows from the top.
fn grid_picture(rows: Vec<Vec<GridCell>>) -> Picture {
    let grid = Grid {
        cols: rows.iter().map(Vec::len).max().unwrap_or(0),
        rows: rows.len(),
    };
    let mut shapes = Vec::new();
    for (from_top, row) in rows.into_iter().enumerate() {
        for (col, (label, color, play)) in row.into_iter().enumerate() {
            let mut cell = grid.square(Kind::Cell, col, grid.rows - 1 - from_top);
            cell.label = label;
            cell.color = color;
            cell.play = play;
            shapes.push(cell);
        }
    }
    grid.picture(shapes)
}

/// How a node of a game of your own ended: `None` while it goes on, else the winning
/// seat, `"draw"` or the points of every seat.
fn end_of(end: Option<&Bound<'_, PyAny>>) -> PyResult<Option<End>> {
    let Some(end) = end else { return Ok(None) };
    if let Ok(seat) = end.extract::<PlayerId>() {
        return Ok(Some(End::Win(seat)));
    }
    if end.extract::<String>().is_ok_and(|t| t == "draw") {
        return Ok(Some(End::Draw));
    }
    end.extract::<Vec<i32>>()
        .map(|p| Some(End::Points(p)))
        .map_err(|_| {
            PyValueError::new_err(format!(
                "an outcome is a seat, \"draw\" or a list of points, not {end}"
            ))
        })
}

/// Installs a game graph given in flat lists under `name` (replacing one of that name):
/// node `i` has the position text `texts[i]`, the seat `movers[i]` to move, the outcome
/// `ends[i]` (`None` while the game goes on) and the moves `firsts[i]..firsts[i + 1]`,
/// edge `e` leading to node `targets[e]` by the move `labels[e]`; node 0 is the start.
/// `boards`, `pictures` and `heuristics`, when given, hold each node's board as text, its
/// picture (a grid of cells, rows from the top, each cell its text, colour and the move a
/// click plays) and its static value; with `board_from_key`, a node's board is its text
/// after the first `:`. Returns the spec that opens it.
#[pyfunction]
#[pyo3(signature = (name, texts, movers, ends, firsts, targets, labels, seat_names=None, version=None, boards=None, heuristics=None, pictures=None, board_from_key=false))]
#[allow(clippy::too_many_arguments)]
fn install_graph(
    py: Python<'_>,
    name: &str,
    texts: Vec<String>,
    movers: Vec<PlayerId>,
    ends: Vec<Option<Bound<'_, PyAny>>>,
    firsts: Vec<u32>,
    targets: Vec<NodeId>,
    labels: Vec<String>,
    seat_names: Option<Vec<String>>,
    version: Option<String>,
    boards: Option<Vec<String>>,
    heuristics: Option<Vec<i32>>,
    pictures: Option<Vec<Vec<Vec<GridCell>>>>,
    board_from_key: bool,
) -> PyResult<String> {
    let nodes = texts.len();
    let rows = firsts.first() == Some(&0)
        && firsts.last() == Some(&(targets.len() as u32))
        && firsts.windows(2).all(|w| w[0] <= w[1]);
    let extras = Extras {
        seat_names,
        version,
        boards,
        heuristics,
        pictures,
        board_from_key,
    };
    if movers.len() != nodes
        || ends.len() != nodes
        || firsts.len() != nodes + 1
        || labels.len() != targets.len()
        || !rows
        || !extras.fits(nodes)
    {
        return Err(PyValueError::new_err(
            "a graph's lists disagree: texts, movers, ends, boards, heuristics and pictures one per node, firsts rising from 0 to the edges one more, labels one per target",
        ));
    }
    let ends = ends
        .iter()
        .map(|e| end_of(e.as_ref()))
        .collect::<PyResult<Vec<_>>>()?;
    py.detach(|| {
        build_graph(
            name,
            extras,
            &movers,
            ends,
            |node| &texts[node],
            &firsts,
            |e| (targets[e], &labels[e]),
        )
    })
    .map_err(py_error)
}

/// What a graph from Python may hold besides its positions and moves.
struct Extras {
    seat_names: Option<Vec<String>>,
    version: Option<String>,
    boards: Option<Vec<String>>,
    heuristics: Option<Vec<i32>>,
    pictures: Option<Vec<Vec<Vec<GridCell>>>>,
    board_from_key: bool,
}

impl Extras {
    /// Whether the boards, heuristics and pictures given are one per node of `nodes`.
    fn fits(&self, nodes: usize) -> bool {
        let per_node = |list: Option<usize>| list.is_none_or(|n| n == nodes);
        per_node(self.boards.as_ref().map(Vec::len))
            && per_node(self.heuristics.as_ref().map(Vec::len))
            && per_node(self.pictures.as_ref().map(Vec::len))
    }
}

/// Builds and installs the graph `name`: node `n` with the text `text(n)`, `movers[n]` to
/// move and the end `ends[n]`; its moves the edges `firsts[n]..firsts[n + 1]`, edge `e`
/// going to `edge(e).0` by the move printed `edge(e).1`. Two moves of a node that print
/// the same are refused.
fn build_graph<'a>(
    name: &str,
    extras: Extras,
    movers: &[PlayerId],
    ends: impl IntoIterator<Item = Option<End>>,
    text: impl Fn(usize) -> &'a str,
    firsts: &[u32],
    edge: impl Fn(usize) -> (NodeId, &'a str),
) -> Result<String, Error> {
    let seats = extras.seat_names.as_ref().map_or_else(
        || movers.iter().map(|&m| m as usize + 1).max().unwrap_or(2).max(2),
        Vec::len,
    );
    let mut b = GraphBuilder::new(name, seats)?;
    b.reserve(movers.len(), firsts.last().map_or(0, |&e| e as usize));
    if let Some(version) = extras.version {
        b.set_version(&version)?;
    }
    if let Some(names) = extras.seat_names {
        b.set_seat_names(names)?;
    }
    let Extras {
        boards,
        pictures,
        board_from_key,
        ..
    } = extras;
    if boards.is_some() || pictures.is_some() || board_from_key {
        let pictures = pictures.map(|all| all.into_iter().map(grid_picture).collect());
        b.set_extras(Arc::new(Drawn {
            boards,
            pictures,
            board_from_key,
        }));
    }
    for (node, (&mover, end)) in movers.iter().zip(ends).enumerate() {
        b.node(text(node), mover, end)?;
    }
    for (node, &value) in extras.heuristics.iter().flatten().enumerate() {
        b.set_heuristic(node as NodeId, value)?;
    }
    let mut texts: Vec<&str> = Vec::new();
    for (node, moves) in firsts.windows(2).enumerate() {
        let edges = moves[0] as usize..moves[1] as usize;
        for e in edges.clone() {
            let (target, label) = edge(e);
            b.edge(node as NodeId, target, label)?;
        }
        texts.clear();
        texts.extend(edges.map(|e| edge(e).1));
        texts.sort_unstable();
        if let Some(twice) = texts.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Spec(format!(
                "two moves of node {node} print the same: '{}'",
                twice[0]
            )));
        }
    }
    zermelo::catalog::install_graph(b.build()?)
}

/// A graph as flat lists: each node's text, seat to move and outcome, where its moves
/// start, and each move's target and text.
type Lists = (
    Vec<String>,
    Vec<u32>,
    Vec<Py<PyAny>>,
    Vec<u32>,
    Vec<NodeId>,
    Vec<String>,
);

/// Saves the graph installed under `name` at `path` in the library's graph file format,
/// marked as made from `source`; with `boards`, each node's board too.
#[pyfunction]
fn save_graph(py: Python<'_>, name: &str, path: PathBuf, source: &str, boards: bool) -> PyResult<()> {
    let graph = zermelo::catalog::installed_graph(name).map_err(py_error)?;
    py.detach(|| zermelo::explicit::file::write(&graph, &path, source, boards))
        .map_err(py_error)
}

/// The graph `save_graph` saved at `path`, installed under the name it was saved with,
/// when it is of `version` and made from `source`, read within `memory` bytes (with
/// `board_from_key`, a node's board is its text after the first `:`): its spec and its
/// lists; `None` where the file is missing, damaged, too big or another's.
#[pyfunction]
#[pyo3(signature = (path, version, source, memory=None, board_from_key=false))]
fn read_graph(
    py: Python<'_>,
    path: PathBuf,
    version: &str,
    source: &str,
    memory: Option<u64>,
    board_from_key: bool,
) -> PyResult<Option<(String, Lists)>> {
    let budget = zermelo::solve::budget::Budget {
        memory,
        ..Default::default()
    };
    let extras: Option<Arc<dyn NodeExtras>> = board_from_key.then(|| {
        Arc::new(Drawn {
            boards: None,
            pictures: None,
            board_from_key,
        }) as Arc<dyn NodeExtras>
    });
    let saved = zermelo::explicit::file::Saved {
        version,
        source,
        extras,
    };
    let Ok(graph) = py.detach(|| zermelo::explicit::file::read_saved(&path, &budget, saved)) else {
        return Ok(None);
    };
    let nodes = graph.nodes() as NodeId;
    let mut ends = Vec::with_capacity(nodes as usize);
    for node in 0..nodes {
        ends.push(match graph.end(node) {
            None => py.None(),
            Some(End::Draw) => "draw".into_pyobject(py)?.into_any().unbind(),
            Some(End::Win(seat)) => seat.into_pyobject(py)?.into_any().unbind(),
            Some(End::Points(points)) => points.into_pyobject(py)?.into_any().unbind(),
        });
    }
    let mut firsts: Vec<u32> = (0..nodes).map(|n| graph.moves_of(n).start).collect();
    firsts.push(graph.edges() as u32);
    let edges = 0..graph.edges() as u32;
    let lists = (
        (0..nodes).map(|n| graph.text(n).to_string()).collect(),
        (0..nodes).map(|n| u32::from(graph.mover(n))).collect(),
        ends,
        firsts,
        edges.clone().map(|e| graph.target(e)).collect(),
        edges.map(|e| graph.move_text(e).to_string()).collect(),
    );
    let spec = zermelo::catalog::install_graph(graph).map_err(py_error)?;
    Ok(Some((spec, lists)))
}

/// The bytes of a size written as text (`"512M"`, `"8G"`), as `--memory` reads it.
#[pyfunction]
fn parse_memory(text: &str) -> PyResult<u64> {
    zermelo::limits::parse_memory(text).map_err(refused("memory"))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(save_graph, m)?)?;
    m.add_function(wrap_pyfunction!(read_graph, m)?)?;
    m.add_function(wrap_pyfunction!(palette, m)?)?;
    m.add_function(wrap_pyfunction!(offer_own, m)?)?;
    m.add_function(wrap_pyfunction!(study, m)?)?;
    m.add_function(wrap_pyfunction!(has_study, m)?)?;
    m.add_function(wrap_pyfunction!(balance_map, m)?)?;
    m.add_function(wrap_pyfunction!(set_threads, m)?)?;
    m.add_function(wrap_pyfunction!(install_graph, m)?)?;
    m.add_function(wrap_pyfunction!(parse_memory, m)?)?;
    m.add_function(wrap_pyfunction!(declared, m)?)?;
    m.add_function(wrap_pyfunction!(data_folder, m)?)?;
    m.add_function(wrap_pyfunction!(cli::cli, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<search::Search>()?;
    m.add_class::<explore::Explorer>()?;
    m.add_class::<explore::Packer>()?;
    m.add_class::<spill::Spill>()?;
    m.add("ZermeloError", m.py().get_type::<ZermeloError>())?;
    Ok(())
}
