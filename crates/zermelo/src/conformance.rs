//! The conformance suite: whether a catalog entry's game (built in or registered) answers
//! consistently through the [`Session`] interface alone, on its example specs (and its
//! default spec, where it opens): random playouts end, with every move and position
//! round-tripping through the notation; every listed move replays; every position's value
//! is the best of its moves' values and every move's value is its child's value seen from
//! the mover (minimax, checked on the whole tree of small examples); every solver a game
//! offers agrees; a position given by its notation answers as the moves that reach it,
//! and solves to the value it shows; bad moves, positions and specs give one-line errors;
//! the catalog lists the players and solvers each session offers.
//!
//! A failure is an [`Error::Conformance`] naming the check, the spec and the moves that
//! reach the position at fault.

use std::fmt::Display;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::catalog::Entry;
use crate::session::{Options, PositionView, Session, Verdict};
use crate::spec::Spec;
use crate::{Class, Error};

/// Positions whose values are checked per example (the whole tree when smaller).
const TREE_NODES: u64 = 1_500;
/// Random games played per spec.
const PLAYOUTS: u64 = 20;
/// Random walks of legal moves per example, each checked at every position it passes.
const WALKS: u64 = 3;
/// The most moves a walk plays.
const WALK_PLIES: usize = 6;
/// Changed notations of positions tried per example.
const MUTATIONS: usize = 60;

/// What a run of checks went through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// The specs checked: the examples, and the default spec where it opens.
    pub specs: usize,
    /// The positions checked: tree nodes, walk steps and the positions of playouts.
    pub positions: u64,
    /// The random games played to their end.
    pub playouts: u64,
}

impl Checked {
    /// Both runs' work, over the same specs or some of them.
    fn and(self, other: Checked) -> Checked {
        Checked {
            specs: self.specs.max(other.specs),
            positions: self.positions + other.positions,
            playouts: self.playouts + other.playouts,
        }
    }
}

/// One group of checks.
pub struct Check {
    /// Its short name.
    pub name: &'static str,
    /// What it checks.
    pub what: &'static str,
    run: fn(&Entry, &Options) -> Result<Checked, Error>,
}

/// Every group of checks.
pub static CHECKS: &[Check] = &[
    Check {
        name: "minimax",
        what: "every position's value is the minimax of its moves' values",
        run: minimax,
    },
    Check {
        name: "playouts",
        what: "random playouts round-trip their notation and end",
        run: playouts,
    },
    Check {
        name: "solvers",
        what: "every solver agrees, and a solve matches the start's view",
        run: solvers,
    },
    Check {
        name: "errors",
        what: "bad moves and specs give one-line errors",
        run: errors,
    },
    Check {
        name: "bot",
        what: "the bot moves legally and random tournaments add up",
        run: bot,
    },
    Check {
        name: "listing",
        what: "the catalog lists the players and solvers each session offers",
        run: listing,
    },
    Check {
        name: "positions",
        what: "a position given by its notation answers as the moves that reach it",
        run: positions,
    },
    Check {
        name: "bad-positions",
        what: "malformed and impossible positions give one-line errors",
        run: bad_positions,
    },
];

/// Makes every scratch folder of this process its own.
static RUNS: AtomicU64 = AtomicU64::new(0);

impl Check {
    /// Runs the group on `entry`'s specs: what it went through, or the first failure. Its
    /// solves save to a scratch folder of their own, removed afterwards.
    pub fn run(&self, entry: &Entry) -> Result<Checked, Error> {
        let folder = format!(
            "zermelo-conformance-{}-{}-{}-{}",
            self.name,
            entry.info.name,
            std::process::id(),
            RUNS.fetch_add(1, Ordering::Relaxed)
        );
        let opts = Options {
            data_dir: std::env::temp_dir().join(folder),
            all_moves: true,
            ..Options::default()
        };
        let result = (self.run)(entry, &opts);
        // Nothing may be left to remove.
        let _ = std::fs::remove_dir_all(&opts.data_dir);
        result.map_err(|e| Error::Conformance(format!("the {} check fails ({}): {e}", self.name, self.what)))
    }
}

/// Runs every check of [`CHECKS`] on `entry`: what they went through, or the first failure.
pub fn check(entry: &Entry) -> Result<Checked, Error> {
    CHECKS
        .iter()
        .try_fold(Checked::default(), |done, c| Ok(done.and(c.run(entry)?)))
}

/// Fails with a message unless a condition holds.
macro_rules! ensure {
    ($holds:expr, $($why:tt)+) => {
        if !$holds {
            return Err(Error::Conformance(format!($($why)+)));
        }
    };
}

/// Fails with a message and both values unless they are equal.
macro_rules! ensure_eq {
    ($left:expr, $right:expr, $($why:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                if left != right {
                    let why = format!($($why)+);
                    return Err(Error::Conformance(format!("{why}: {left:?} against {right:?}")));
                }
            }
        }
    };
}

/// Says where an error of a session's answer came from.
trait At<T> {
    fn at(self, place: impl Display) -> Result<T, Error>;
}

impl<T> At<T> for Result<T, Error> {
    fn at(self, place: impl Display) -> Result<T, Error> {
        self.map_err(|e| Error::Conformance(format!("{place}: {e}")))
    }
}

/// A spec and its session.
type Opened = (String, Box<dyn Session>);

/// The sessions of `entry`'s examples, and of its default spec when `default` is set and
/// the game opens without keys (a sum needs its parts).
fn sessions(entry: &Entry, default: bool) -> Result<Vec<Opened>, Error> {
    let name = entry.info.name;
    ensure!(!entry.examples.is_empty(), "{name} has no examples");
    let mut out = Vec::new();
    for text in entry.examples {
        let spec = Spec::from_str(text).at(text)?;
        ensure_eq!(spec.name, name, "the example {text} names another game");
        let session = (entry.open)(&spec).at(text)?;
        ensure_eq!(session.info().name, name, "{text}: the session's game");
        out.push((text.to_string(), session));
    }
    if default {
        if let Ok(session) = Spec::from_str(name).and_then(|spec| (entry.open)(&spec)) {
            out.push((name.to_string(), session));
        }
    }
    Ok(out)
}

/// The specs `sessions` checked.
fn over(sessions: &[Opened]) -> Checked {
    Checked {
        specs: sessions.len(),
        ..Checked::default()
    }
}

fn with(moves: &[String], m: &str) -> Vec<String> {
    let mut next = moves.to_vec();
    next.push(m.to_string());
    next
}

/// `spec` after `moves`, for messages.
fn place(spec: &str, moves: &[String]) -> String {
    format!("{spec} after [{}]", moves.join(","))
}

/// The move's value as its child's value implies it, seen from the mover of the parent.
fn through(parent: &PositionView, child: &PositionView) -> Verdict {
    let same = child.to_move == parent.to_move;
    Verdict {
        value: child.verdict.value.map(|c| if same { c } else { c.for_other() }),
        remoteness: child.verdict.remoteness.map(|r| r + 1),
        margin: child.verdict.margin.map(|m| if same { m } else { -m }),
        scores: child.verdict.scores.clone(),
    }
}

/// `opts` asking for the remoteness, which a game that answers who wins by proof then
/// gives.
fn timed(opts: &Options) -> Options {
    Options {
        remoteness: true,
        ..opts.clone()
    }
}

/// `solved` with what a proof leaves out (the remoteness) taken from `shown`, the view's
/// verdict: a proof says who wins, and must say what the view says of it.
fn answered(solved: &Verdict, shown: &Verdict) -> Verdict {
    Verdict {
        remoteness: solved.remoteness.or(shown.remoteness),
        ..solved.clone()
    }
}

/// The order of values for the player choosing.
fn rank(v: &Verdict) -> (i32, i64) {
    let remoteness = i64::from(v.remoteness.unwrap_or(0));
    match v.value {
        Some(Class::Win) => (2, -remoteness),
        Some(Class::Draw) => (1, 0),
        Some(Class::Lose) | None => (0, remoteness),
    }
}

/// Checks `view`, reached by `moves`, against the views of its children.
fn check_node(
    spec: &str,
    moves: &[String],
    view: &PositionView,
    session: &dyn Session,
    opts: &Options,
) -> Result<(), Error> {
    let at = place(spec, moves);
    if view.terminal {
        ensure!(view.moves.is_empty(), "{at}: a finished game has moves");
        ensure!(
            view.result.is_some(),
            "{at}: a finished game does not say how it ended"
        );
        return Ok(());
    }
    ensure!(!view.moves.is_empty(), "{at}: a live position has no move");
    ensure_eq!(
        view.moves_total.0,
        view.moves.len() as u128,
        "{at}: moves listed of all"
    );
    let Some(value) = view.verdict.value else {
        return Ok(());
    };
    ensure!(view.moves.iter().any(|m| m.best), "{at}: no move is best");
    for m in &view.moves {
        let child = session
            .position(&with(moves, &m.notation), opts)
            .at(format_args!(
                "{at}: the listed move {} does not replay",
                m.notation
            ))?;
        ensure_eq!(
            child.verdict.value.is_some(),
            m.verdict.value.is_some(),
            "{at}: {} valued, its child valued",
            m.notation
        );
        let implied = through(view, &child);
        ensure_eq!(m.verdict, implied, "{at}: move {} against its child", m.notation);
    }
    if view.verdict.margin.is_none() && view.verdict.scores.is_none() {
        let top = view
            .moves
            .iter()
            .map(|m| rank(&m.verdict))
            .max()
            .unwrap_or_default();
        ensure_eq!(
            rank(&view.verdict),
            top,
            "{at}: the value ({value}) against the best move's"
        );
        for m in &view.moves {
            let top_move = rank(&m.verdict) == top;
            ensure!(!m.best || top_move, "{at}: {} marked best but is not", m.notation);
            // Without remoteness, a game may prefer some of its equal moves (the perfect
            // player's pick in a lost heap position).
            if m.verdict.remoteness.is_some() {
                ensure_eq!(m.best, top_move, "{at}: {} marked best, and best", m.notation);
            }
        }
    }
    Ok(())
}

fn minimax(entry: &Entry, opts: &Options) -> Result<Checked, Error> {
    let sessions = sessions(entry, false)?;
    let mut done = over(&sessions);
    for (spec, session) in &sessions {
        let mut stack: Vec<Vec<String>> = vec![Vec::new()];
        let mut seen = 0;
        while let Some(moves) = stack.pop() {
            if seen >= TREE_NODES {
                break;
            }
            seen += 1;
            let view = session.position(&moves, opts).at(place(spec, &moves))?;
            check_node(spec, &moves, &view, session.as_ref(), opts)?;
            stack.extend(view.moves.iter().map(|m| with(&moves, &m.notation)));
        }
        done.positions += seen;
    }
    Ok(done)
}

fn playouts(entry: &Entry, _: &Options) -> Result<Checked, Error> {
    let sessions = sessions(entry, true)?;
    let mut done = over(&sessions);
    for (spec, session) in &sessions {
        for seed in 0..PLAYOUTS {
            let moves = session.playout(seed).at(format_args!("{spec}, seed {seed}"))?;
            done.positions += moves as u64 + 1;
            done.playouts += 1;
        }
    }
    Ok(done)
}

/// The solvers `session` offers, or its one way of solving.
fn each_solver(session: &dyn Session) -> Vec<Option<String>> {
    match session.solvers() {
        solvers if solvers.is_empty() => vec![None],
        solvers => solvers.into_iter().map(|s| Some(s.to_string())).collect(),
    }
}

fn solvers(entry: &Entry, opts: &Options) -> Result<Checked, Error> {
    let sessions = sessions(entry, false)?;
    for (spec, session) in &sessions {
        let start = session
            .position(&[], opts)
            .at(format_args!("{spec}: the start"))?;
        let exact = session
            .position(&[], &timed(opts))
            .at(format_args!("{spec}: the start, with its remoteness"))?;
        ensure_eq!(
            exact.verdict.value,
            start.verdict.value,
            "{spec}: the start's value with its remoteness, without"
        );
        for solver in each_solver(session.as_ref()) {
            let by = Options {
                solver: solver.clone(),
                ..opts.clone()
            };
            let solved = session.solve(&by).at(format_args!("{spec} {solver:?}"))?;
            let view = if solved.verdict.remoteness.is_some() && start.verdict.remoteness.is_none() {
                &exact
            } else {
                &start
            };
            ensure_eq!(
                answered(&solved.verdict, &view.verdict),
                view.verdict,
                "{spec} {solver:?}: solved, the start's view"
            );
        }
    }
    Ok(over(&sessions))
}

fn errors(entry: &Entry, opts: &Options) -> Result<Checked, Error> {
    let sessions = sessions(entry, false)?;
    for (spec, session) in &sessions {
        let Err(err) = session.position(&["zz99!".to_string()], opts) else {
            return Err(Error::Conformance(format!("{spec}: the move zz99! is taken")));
        };
        ensure!(matches!(err, Error::Move { .. }), "{spec}: zz99! gives {err:?}");
        let line = err.to_string();
        ensure!(
            !line.contains('\n') && line.contains("zz99!"),
            "{spec}: zz99! gives {line:?}"
        );
        let name = session.info().name;
        let unknown = Spec::from_str(&format!("{name}:nosuchkey=1"))?;
        let Err(err) = (entry.open)(&unknown) else {
            return Err(Error::Conformance(format!("{name}: an unknown key is taken")));
        };
        ensure!(
            matches!(err, Error::Spec(_)),
            "{name}: an unknown key gives {err:?}"
        );
        ensure!(!err.to_string().contains('\n'), "{name}: {err:?}");
        let alone = session.tournament(&["random".into()], 1, 0, opts, &|_| {});
        ensure!(
            alone.as_ref().is_err_and(|e| e.to_string().contains("seats")),
            "{spec}: a tournament of one player gives {alone:?}"
        );
    }
    Ok(over(&sessions))
}

fn bot(entry: &Entry, opts: &Options) -> Result<Checked, Error> {
    let sessions = sessions(entry, false)?;
    for (spec, session) in &sessions {
        let view = session
            .position(&[], opts)
            .at(format_args!("{spec}: the start"))?;
        let chosen = session.bot_move(&[], "perfect", 1, opts).at(spec)?;
        let Some(best) = view.moves.iter().find(|m| m.notation == chosen) else {
            return Err(Error::Conformance(format!(
                "{spec}: the bot's move {chosen} is not listed"
            )));
        };
        ensure!(
            best.best || view.verdict.value.is_none(),
            "{spec}: perfect plays {chosen}, not a best move"
        );
        let players = vec!["random".to_string(); session.seats()];
        let standings = session
            .tournament(&players, 4, 3, opts, &|_| {})
            .at(format_args!("{spec}: a tournament"))?;
        for row in &standings.players {
            ensure_eq!(
                row.wins + row.shared + row.draws + row.losses,
                4,
                "{spec}: the games of {}'s row",
                row.player
            );
        }
    }
    Ok(over(&sessions))
}

fn listing(entry: &Entry, _: &Options) -> Result<Checked, Error> {
    let listed: Vec<(&str, &str)> = entry.all_players().map(|p| (p.name, p.help)).collect();
    let sessions = sessions(entry, true)?;
    for (spec, session) in &sessions {
        let players = session.players();
        let players: Vec<(&str, &str)> = players.iter().map(|p| (p.name, p.help)).collect();
        ensure_eq!(players, listed, "{spec}: the session's players, the catalog's");
        ensure_eq!(
            session.solvers(),
            entry.solvers,
            "{spec}: the session's solvers, the catalog's"
        );
    }
    Ok(over(&sessions))
}

/// `opts` starting from `position`.
fn from(position: &str, opts: &Options) -> Options {
    Options {
        position: Some(position.to_string()),
        ..opts.clone()
    }
}

fn positions(entry: &Entry, opts: &Options) -> Result<Checked, Error> {
    let sessions = sessions(entry, false)?;
    let mut done = over(&sessions);
    for (spec, session) in &sessions {
        for seed in 0..WALKS {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut moves: Vec<String> = Vec::new();
            loop {
                let reached = walk_step(spec, session.as_ref(), &moves, seed, opts)?;
                done.positions += 1;
                if reached.terminal || moves.len() >= WALK_PLIES || rng.gen_bool(0.15) {
                    break;
                }
                let Some(m) = reached.moves.choose(&mut rng) else {
                    return Err(Error::Conformance(format!(
                        "{}: a live position has no move",
                        place(spec, &moves)
                    )));
                };
                moves.push(m.notation.clone());
            }
        }
    }
    Ok(done)
}

/// Checks the position `moves` reach against the same position given by its notation:
/// its view.
fn walk_step(
    spec: &str,
    session: &dyn Session,
    moves: &[String],
    seed: u64,
    opts: &Options,
) -> Result<PositionView, Error> {
    let at = place(spec, moves);
    let reached = session.position(moves, opts).at(&at)?;
    let position = &reached.position;
    let given = from(position, opts);
    let view = session
        .position(&[], &given)
        .at(format_args!("{at}: the position {position}"))?;
    ensure_eq!(view, reached, "{at}: the position {position} by its notation");

    // A solve from there, by every solver the game offers, gives the value the view shows.
    for solver in each_solver(session) {
        let by = Options {
            solver: solver.clone(),
            ..given.clone()
        };
        let what = format!("{at}: solving from {position} {solver:?}");
        let solved = session.solve(&by).at(&what)?;
        let shown = if solved.verdict.remoteness.is_some() && reached.verdict.remoteness.is_none() {
            session.position(moves, &timed(opts)).at(&what)?.verdict
        } else {
            reached.verdict.clone()
        };
        ensure_eq!(answered(&solved.verdict, &shown), shown, "{what}");
        ensure_eq!(solved.position.as_deref(), Some(position.as_str()), "{what}");
        ensure_eq!(solved.to_move, reached.to_move, "{what}");
    }
    let count = session.count(false, &given);
    ensure!(
        matches!(count, Err(Error::Unsupported(_))),
        "{at}: count takes a position: {count:?}"
    );

    if !reached.terminal {
        // Moves after the position replay as after the moves; the bot plays the same move
        // from either.
        let Some(next) = reached.moves.first().map(|m| &m.notation) else {
            return Err(Error::Conformance(format!("{at}: a live position has no move")));
        };
        ensure_eq!(
            session.position(std::slice::from_ref(next), &given).at(&at)?,
            session.position(&with(moves, next), opts).at(&at)?,
            "{at}: {next} after the position, after the moves"
        );
        ensure_eq!(
            session.bot_move(&[], "random", seed, &given).at(&at)?,
            session.bot_move(moves, "random", seed, opts).at(&at)?,
            "{at}: the bot's move from the position, after the moves"
        );
    }
    // Every game of a tournament from the position starts there.
    let players = vec!["random".to_string(); session.seats()];
    let standings = session
        .tournament(&players, 2, seed, &given, &|_| {})
        .at(format_args!("{at}: a tournament from the position"))?;
    ensure_eq!(standings.games, 2, "{at}: the tournament's games");
    ensure_eq!(
        standings.position.as_deref(),
        Some(position.as_str()),
        "{at}: the tournament's start"
    );
    Ok(reached)
}

/// Texts no game reads as a position, whatever its notation.
const HOSTILE: &[&str] = &[
    "",
    " ",
    "zz99!",
    "/",
    "//////////",
    "\n",
    "x\u{7}\ty",
    ":",
    "1:",
    "1:-1",
    "2:99999999999999999999999",
    "|||",
    "-|-|-|",
    "∞∞∞",
    "-",
    "1:1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1",
    "99999999999999999999999999999",
    "18446744073709551615",
    "s/s/s/s/s/s",
    "...../sssss/rgbyp/r15g15b15y15p15w15k15/r15/1",
];

/// The characters a change of a notation puts in.
const CHARS: &[char] = &[
    '.', 'x', 'o', '#', '/', '0', '1', '9', 's', 'k', 'p', '|', ',', ' ', ':', '-', 'é', '\n',
];

/// The notation of `text` with one character changed, removed or repeated, or cut short.
fn mutate(text: &str, rng: &mut StdRng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let any = |rng: &mut StdRng| *CHARS.choose(rng).unwrap_or(&'.');
    if chars.is_empty() {
        return any(rng).to_string();
    }
    let i = rng.gen_range(0..chars.len());
    match rng.gen_range(0..4) {
        0 => chars[i] = any(rng),
        1 => {
            chars.remove(i);
        }
        2 => chars.insert(i, chars[i]),
        _ => chars.truncate(i),
    }
    chars.into_iter().collect()
}

fn bad_positions(entry: &Entry, opts: &Options) -> Result<Checked, Error> {
    let opts = Options {
        all_moves: false,
        ..opts.clone()
    };
    let sessions = sessions(entry, false)?;
    for (spec, session) in &sessions {
        let start = session
            .position(&[], &opts)
            .at(format_args!("{spec}: the start"))?;
        let mut rng = StdRng::seed_from_u64(11);
        // A position a few moves in, to change as well as the start.
        let mut moves = Vec::new();
        let mut later = start.clone();
        while moves.len() < 3 {
            let Some(m) = later.moves.choose(&mut rng) else {
                break;
            };
            moves.push(m.notation.clone());
            later = session.position(&moves, &opts).at(place(spec, &moves))?;
        }
        let changed = (0..MUTATIONS).map(|i| {
            let text = if i % 2 == 0 { &start } else { &later };
            mutate(&text.position, &mut rng)
        });
        for text in HOSTILE.iter().map(|t| t.to_string()).chain(changed) {
            let given = from(&text, &opts);
            match session.position(&[], &given) {
                // A change may still name a position: it reads back as itself.
                Ok(view) => {
                    let again = session.position(&[], &from(&view.position, &opts));
                    ensure_eq!(again.as_ref().ok(), Some(&view), "{spec}: {text:?} read back");
                }
                Err(err) => {
                    ensure!(
                        matches!(err, Error::Position { .. }),
                        "{spec}: {text:?} gives {err:?}"
                    );
                    let line = err.to_string();
                    ensure!(
                        !line.contains('\n') && line.starts_with("bad position"),
                        "{spec}: {text:?} gives {line:?}"
                    );
                    // Every command that takes a position refuses it the same way.
                    let players = vec!["random".to_string(); session.seats()];
                    let refused = Some(err);
                    ensure_eq!(session.solve(&given).err(), refused, "{spec}: solving {text:?}");
                    ensure_eq!(
                        session.bot_move(&[], "random", 0, &given).err(),
                        refused,
                        "{spec}: the bot from {text:?}"
                    );
                    ensure_eq!(
                        session.tournament(&players, 1, 0, &given, &|_| {}).err(),
                        refused,
                        "{spec}: a tournament from {text:?}"
                    );
                }
            }
        }
    }
    Ok(over(&sessions))
}
