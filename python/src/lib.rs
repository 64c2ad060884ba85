//! The native part of the `zermelo` Python package: the catalog and sessions of the
//! library, answering in the JSON documents of `docs/schema.json`. The Python package
//! (`python/zermelo/`) turns them into objects; this module only parses, calls the library
//! and serialises.

mod cli;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;
use zermelo::analysis::selfplay::Plan;
use zermelo::play::external::{Guest, Mover, Turn};
use zermelo::session::{Budget, Limits, Options, Session};
use zermelo::solve::Progress;
use zermelo::Error;

create_exception!(
    zermelo,
    ZermeloError,
    PyException,
    "A job zermelo could not finish: too big for its budget, a damaged table, a failed read."
);

/// The Python exception of a library error: bad input is a `ValueError`.
fn py_error(e: Error) -> PyErr {
    match e {
        Error::Spec(_)
        | Error::Move { .. }
        | Error::Position { .. }
        | Error::Unsupported(_)
        | Error::Forfeit { .. } => PyValueError::new_err(e.to_string()),
        e => ZermeloError::new_err(e.to_string()),
    }
}

/// `value` as JSON text.
fn json(value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| ZermeloError::new_err(e.to_string()))
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

/// The first exception a Python player raised, to raise again when its game stops.
type Raised = Arc<Mutex<Option<PyErr>>>;

/// A Python function as a player: `f(position, moves, turn) -> move`.
struct Function {
    name: String,
    f: Arc<Py<PyAny>>,
    raised: Raised,
}

impl Mover for Function {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<String, Error> {
        Python::attach(|py| {
            let answer = (|| -> PyResult<String> {
                let info = PyDict::new(py);
                info.set_item("game", turn.game)?;
                info.set_item("seat", turn.seat)?;
                info.set_item("to_move", &turn.to_move)?;
                info.set_item("board", &turn.board)?;
                let moves = turn.moves.clone();
                self.f.call1(py, (&turn.position, moves, info))?.extract(py)
            })();
            answer.map_err(|e| {
                let text = format!("{} raised {e}", self.name);
                self.raised
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                Error::Unsupported(text)
            })
        })
    }
}

/// One opened game.
#[pyclass(frozen, module = "zermelo._native")]
struct Game {
    session: Box<dyn Session>,
    data: PathBuf,
}

/// Options for one call: the data folder, memory and time.
fn options(data: &std::path::Path, memory: Option<u64>, seconds: Option<f64>) -> PyResult<Options> {
    if memory == Some(0) {
        return Err(PyValueError::new_err("memory must be more than 0 bytes"));
    }
    if seconds.is_some_and(|s| s.is_nan() || s <= 0.0) {
        return Err(PyValueError::new_err("seconds must be more than 0"));
    }
    Ok(Options {
        data_dir: data.to_path_buf(),
        budget: Budget {
            memory,
            seconds,
            limits: Limits::Python,
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
    raised: &Raised,
    work: impl FnOnce(&Options) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
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
                if let Some(e) = raised.lock().unwrap_or_else(|e| e.into_inner()).take() {
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
/// game or another one named).
fn seats(
    session: &dyn Session,
    players: &[Bound<'_, PyAny>],
    raised: &Raised,
) -> PyResult<(Vec<String>, Vec<Guest>)> {
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
        let (label, raised) = (name.clone(), raised.clone());
        guests.push(Guest {
            name: name.clone(),
            make: Arc::new(move |_seed| {
                Ok(Box::new(Function {
                    name: label.clone(),
                    f: f.clone(),
                    raised: raised.clone(),
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

    /// Solves the game from its start, or from `position`: the `solve` document.
    #[pyo3(signature = (solver=None, position=None, force=false, save=true, memory=None, seconds=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        solver: Option<String>,
        position: Option<String>,
        force: bool,
        save: bool,
        memory: Option<u64>,
        seconds: Option<f64>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let mut opts = options(&self.data, memory, seconds)?;
        opts.solver = solver;
        opts.position = position;
        opts.force = force;
        opts.save = save;
        let session = self.session.as_ref();
        let solution = run(py, opts, progress.as_ref(), &Raised::default(), |opts| {
            session.solve(opts)
        })?;
        json(&solution)
    }

    /// The position after `moves` from the start (or from `position`), with every legal
    /// move's value: the `moves` document
    /// and the picture as SVG (`None` for games without one).
    #[pyo3(signature = (moves=Vec::new(), position=None, all=false, memory=None, seconds=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn position(
        &self,
        py: Python<'_>,
        moves: Vec<String>,
        position: Option<String>,
        all: bool,
        memory: Option<u64>,
        seconds: Option<f64>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(String, Option<String>)> {
        let mut opts = options(&self.data, memory, seconds)?;
        opts.position = position;
        opts.all_moves = all;
        let session = self.session.as_ref();
        let view = run(py, opts, progress.as_ref(), &Raised::default(), |opts| {
            session.position(&moves, opts)
        })?;
        Ok((json(&view)?, view.svg(360)))
    }

    /// The game graph: every position reachable from the start a node (with `symmetry`,
    /// every class), every move an edge: the `graph` document.
    #[pyo3(signature = (symmetry=false, max_positions=100_000, memory=None, seconds=None, progress=None))]
    fn graph(
        &self,
        py: Python<'_>,
        symmetry: bool,
        max_positions: u64,
        memory: Option<u64>,
        seconds: Option<f64>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let opts = options(&self.data, memory, seconds)?;
        let session = self.session.as_ref();
        let graph = run(py, opts, progress.as_ref(), &Raised::default(), |opts| {
            session.graph(symmetry, max_positions, opts)
        })?;
        json(&graph)
    }

    /// Counts positions and complete games: the `count` document.
    #[pyo3(signature = (symmetry=false, progress=None))]
    fn count(&self, py: Python<'_>, symmetry: bool, progress: Option<Bound<'_, PyAny>>) -> PyResult<String> {
        let opts = options(&self.data, None, None)?;
        let session = self.session.as_ref();
        let counts = run(py, opts, progress.as_ref(), &Raised::default(), |opts| {
            session.count(symmetry, opts)
        })?;
        json(&counts)
    }

    /// The move `player` (a name or a function) makes after `moves` from the start (or
    /// from `position`).
    #[pyo3(signature = (moves, player, position=None, seed=0, memory=None, seconds=None))]
    #[allow(clippy::too_many_arguments)]
    fn bot_move(
        &self,
        py: Python<'_>,
        moves: Vec<String>,
        player: Bound<'_, PyAny>,
        position: Option<String>,
        seed: u64,
        memory: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<String> {
        let raised = Raised::default();
        let (names, guests) = seats(self.session.as_ref(), &[player], &raised)?;
        let mut opts = options(&self.data, memory, seconds)?;
        opts.position = position;
        opts.guests = guests;
        let session = self.session.as_ref();
        run(py, opts, None, &raised, |opts| {
            session.bot_move(&moves, &names[0], seed, opts)
        })
    }

    /// Plays one game between `players` (names or functions, one per seat), from the start
    /// or from `position`: the `play` document.
    #[pyo3(signature = (players, position=None, seed=0, move_time=10.0))]
    fn play(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        position: Option<String>,
        seed: u64,
        move_time: f64,
    ) -> PyResult<String> {
        let raised = Raised::default();
        let (names, guests) = seats(self.session.as_ref(), &players, &raised)?;
        if names.iter().any(|n| n.trim().eq_ignore_ascii_case("human")) {
            return Err(PyValueError::new_err(
                "a human plays in the terminal (`zermelo play`); here a player is a name or a function",
            ));
        }
        let mut opts = options(&self.data, None, None)?;
        opts.position = position;
        opts.guests = guests;
        opts.move_time = move_time_of(move_time)?;
        let session = self.session.as_ref();
        let record = run(py, opts, None, &raised, |opts| {
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
        json(&record)
    }

    /// Plays `games` games between `players` (names or functions), each taking every seat
    /// equally often, every game from the start or from `position`: the `tournament`
    /// document.
    #[pyo3(signature = (players, games=100, position=None, seed=0, move_time=10.0, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn tournament(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        games: u64,
        position: Option<String>,
        seed: u64,
        move_time: f64,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let raised = Raised::default();
        let (names, guests) = seats(self.session.as_ref(), &players, &raised)?;
        let names = if names.is_empty() {
            self.session.default_players()
        } else {
            names
        };
        let mut opts = options(&self.data, None, None)?;
        opts.position = position;
        opts.guests = guests;
        opts.move_time = move_time_of(move_time)?;
        let session = self.session.as_ref();
        let standings = run(py, opts, progress.as_ref(), &raised, |opts| {
            opts.progress.start("games", games);
            session.tournament(&names, games, seed, opts, &|_| opts.progress.advance(1))
        })?;
        json(&standings)
    }

    /// Self-play: `games` games (the most, with `until`) with `players` (one name or
    /// function for every seat, or one per seat) seated, game `i` from the seed `seed + i`,
    /// on every core, stopping once every seat's points-share interval is narrower than
    /// `until`: the `estimate` document.
    #[pyo3(signature = (players, games=1000, until=None, seed=0, position=None, move_time=10.0, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn selfplay(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        games: u64,
        until: Option<f64>,
        seed: u64,
        position: Option<String>,
        move_time: f64,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let raised = Raised::default();
        let (names, guests) = seats(self.session.as_ref(), &players, &raised)?;
        let mut opts = options(&self.data, None, None)?;
        opts.position = position;
        opts.guests = guests;
        opts.move_time = move_time_of(move_time)?;
        let plan = Plan { games, until, seed };
        let session = self.session.as_ref();
        let estimate = run(py, opts, progress.as_ref(), &raised, |opts| {
            opts.progress.start("games", games);
            session.selfplay(&names, &plan, opts, &|_| opts.progress.advance(1))
        })?;
        json(&estimate)
    }
}

/// A study's text, JSON document, CSV rows, SVG chart and plotted series.
type StudyAnswer = (String, String, Option<String>, Option<String>, Option<String>);

/// The study `name` of the game (or family) `spec`, with `args` (see the study's keys in
/// `games()`): its text, its JSON document, its CSV rows, its SVG chart (when `args` has
/// `plot`) and the series the chart plots, the last three `None` when it has none.
#[pyfunction]
#[pyo3(signature = (spec, name, args, data, memory=None, progress=None))]
fn study(
    py: Python<'_>,
    spec: &str,
    name: &str,
    args: std::collections::BTreeMap<String, String>,
    data: PathBuf,
    memory: Option<u64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<StudyAnswer> {
    let study = zermelo::catalog::study(spec, name).map_err(py_error)?;
    let args = args
        .iter()
        .fold(zermelo::session::study::StudyArgs::new(), |a, (k, v)| {
            a.with(k, v)
        });
    let opts = options(&data, memory, None)?;
    let report = run(py, opts, progress.as_ref(), &Raised::default(), |opts| {
        (study.run)(spec, &args, opts)
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
/// `data`: the `balance` document of a map.
#[pyfunction]
#[pyo3(signature = (spec, seconds, data, memory=None, progress=None))]
fn balance_map(
    py: Python<'_>,
    spec: &str,
    seconds: f64,
    data: PathBuf,
    memory: Option<u64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let opts = options(&data, memory, None)?;
    let result = run(py, opts, progress.as_ref(), &Raised::default(), |opts| {
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
    json(&serde_json::json!({"command": "balance", "map": result}))
}

/// The folder of solved tables: `data`, else `ZERMELO_DATA`, else `./zermelo-data`, as
/// for the command line; an empty one is refused.
#[pyfunction]
#[pyo3(signature = (data=None))]
fn data_folder(data: Option<PathBuf>) -> PyResult<PathBuf> {
    zermelo::session::data_folder(data, "data").map_err(py_error)
}

/// Runs solves, searches, sweeps and self-play on `threads` threads (once, before the
/// first solve).
#[pyfunction]
fn set_threads(threads: usize) -> PyResult<()> {
    zermelo::set_threads(threads).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A player's time a move.
fn move_time_of(seconds: f64) -> PyResult<Duration> {
    if seconds > 0.0 && seconds <= 86_400.0 {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(PyValueError::new_err(format!(
            "move_time must be a number of seconds from 0.001 to 86400, not {seconds}"
        )))
    }
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(study, m)?)?;
    m.add_function(wrap_pyfunction!(has_study, m)?)?;
    m.add_function(wrap_pyfunction!(balance_map, m)?)?;
    m.add_function(wrap_pyfunction!(set_threads, m)?)?;
    m.add_function(wrap_pyfunction!(data_folder, m)?)?;
    m.add_function(wrap_pyfunction!(cli::cli, m)?)?;
    m.add_class::<Game>()?;
    m.add("ZermeloError", m.py().get_type::<ZermeloError>())?;
    Ok(())
}
