//! One function per command that opens a game through the catalog: each returns the
//! [`Report`] it prints.

use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context as _, Result};
use serde_json::Value as Json;
use zermelo::design::{self, Ask};
use zermelo::session::{bytes_text, quantity, saved, Budget, Options, PlayIo, Session};
use zermelo::solve::levels::Partition;
use zermelo::Error;

use crate::graph::Format as GraphFormat;
use crate::progress::{bar, BarProgress};
use crate::render;
use crate::report::Report;

/// Opens a spec through the catalog, within the command's budget (a graph file is read
/// within `--memory`).
pub fn open(spec: &str, opts: &Options) -> Result<Box<dyn Session>> {
    Ok(zermelo::catalog::open_within(spec, &opts.budget)?)
}

/// Stops long work cleanly on the first Ctrl-C and at once on the second.
pub fn cancel_on_ctrl_c() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let installed = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("\nstopping (Ctrl-C again to quit at once)");
    });
    // Without a handler Ctrl-C still ends the process, only less cleanly.
    drop(installed);
    cancel
}

/// Ends a game in the terminal at once on Ctrl-C, whoever is thinking (a person, a bot, a
/// program of your own, whose processes are stopped first).
fn quit_on_ctrl_c() {
    // Without a handler Ctrl-C still ends the process; programs then die with it.
    let _ = ctrlc::set_handler(|| {
        zermelo::play::command::stop_programs();
        eprintln!("\nstopped");
        std::process::exit(130);
    });
}

/// `zermelo solve`: with a `partition`, one rank's share of a split solve, which only the
/// leading rank reports.
pub fn solve(
    spec: &str,
    partition: Option<Arc<dyn Partition>>,
    mut opts: Options,
    json: bool,
) -> Result<Report> {
    let session = open(spec, &opts)?;
    let leads = partition.as_ref().is_none_or(|p| p.leads());
    if let Some(partition) = partition {
        if !session.splits() {
            if !leads {
                // Rank 0 says why; the others only stop.
                std::process::exit(1);
            }
            bail!(
                "{} is not solved in levels, so it does not solve across MPI ranks; run it without mpirun",
                session.spec()
            );
        }
        opts.partition = partition;
    }
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    let what = format!("solving {}", session.spec());
    opts.progress = Arc::new(BarProgress::spinning(!json && leads, &what));
    match session.solve(&opts) {
        // Rank 0 found the table saved, or was stopped: it says so.
        Err(Error::Cancelled) if !leads => Ok(Report {
            text: String::new(),
            json: Json::Null,
        }),
        Err(Error::Cancelled) => bail!(
            "stopped before the end: the same command goes on from the checkpoint a level solve or a proof keeps in the data folder"
        ),
        result => Ok(render::solution(&result?)),
    }
}

/// `zermelo moves`: values its moves from the table the perfect player reads, under the
/// rule of a game's first solve ([`confirm_setup`]).
pub fn moves(spec: &str, moves: &[String], opts: Options) -> Result<Report> {
    let session = open(spec, &opts)?;
    confirm_setup(
        session.as_ref(),
        &["perfect".into()],
        "the values of its moves",
        &opts,
    )?;
    Ok(render::position(&session.position(moves, &opts)?))
}

/// `zermelo report`: the library's report as `ask` asks it, its page written to `html`
/// when given (games of two seats).
pub fn report(spec: &str, ask: &Ask, html: Option<&Path>, opts: Options) -> Result<Report> {
    let session = open(spec, &opts)?;
    if session.seats() > 2 {
        if html.is_some() {
            bail!(
                "{} has {} seats: its report has no page (--html)",
                session.spec(),
                session.seats()
            );
        }
        let player = ask
            .player
            .clone()
            .unwrap_or_else(|| session.default_players().swap_remove(0));
        confirm_setup(session.as_ref(), &[player], PERFECT, &opts)?;
    }
    let report = design::report(session.as_ref(), ask, &opts)?;
    if let (Some(path), design::Report::Two(r)) = (html, &report) {
        let deeper = format!("zermelo report {} --depth 2", session.spec());
        std::fs::write(path, design::page::page(r, &deeper)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(crate::design::render(&report))
}

/// `zermelo count`.
pub fn count(spec: &str, symmetry: bool, mut opts: Options, json: bool) -> Result<Report> {
    let session = open(spec, &opts)?;
    opts.progress = Arc::new(BarProgress::spinning(
        !json,
        &format!("counting {}", session.spec()),
    ));
    Ok(render::counts(&session.count(symmetry, &opts)?))
}

/// `zermelo graph`: the graph in `format` on stdout, or written to `output` with a summary
/// on stdout; `--json` prints the JSON document either way.
pub fn graph(
    spec: &str,
    symmetry: bool,
    max_positions: u64,
    format: Option<GraphFormat>,
    output: Option<&Path>,
    mut opts: Options,
    json: bool,
) -> Result<Report> {
    let format = match (format, output) {
        (Some(f), _) => f,
        (None, Some(path)) => GraphFormat::of_path(path),
        (None, None) if json => GraphFormat::Json,
        (None, None) => GraphFormat::Dot,
    };
    if json && output.is_none() && format != GraphFormat::Json {
        bail!(
            "--json prints the graph as JSON: drop --json to print it as {}, or write it with --output",
            format.name()
        );
    }
    let session = open(spec, &opts)?;
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    opts.progress = Arc::new(BarProgress::spinning(
        !json,
        &format!("drawing the graph of {}", session.spec()),
    ));
    let graph = match session.graph(symmetry, max_positions, &opts) {
        Err(Error::Cancelled) => bail!("stopped before the end"),
        graph => graph?,
    };
    crate::graph::report(&graph, format, output, json)
}

/// Solving before a game starts that is estimated to take longer than this, in seconds,
/// is asked about first (refused when no one is at the terminal to answer).
const LONG_SETUP_SECONDS: f64 = 30.0;

/// Whom a game's or a tournament's first solve is for.
pub const PERFECT: &str = "the perfect player";

/// "about 40 s", "about 14 min", "about 2.5 h".
fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("about {s:.0} s"),
        s if s < 5400.0 => format!("about {:.0} min", s / 60.0),
        s => format!("about {:.1} h", s / 3600.0),
    }
}

/// The one rule of every command that solves a table before it answers (a game, a
/// tournament, a position's moves) between `players`, the table being `for_what`: when
/// that takes long, asks on a terminal whether to solve it now; otherwise refuses with
/// the estimate, pointing to `zermelo solve`.
pub fn confirm_setup(
    session: &dyn Session,
    players: &[String],
    for_what: &str,
    opts: &Options,
) -> Result<()> {
    let cost = session.setup_cost(players, opts)?;
    if cost.seconds <= LONG_SETUP_SECONDS {
        return Ok(());
    }
    let spec = session.spec();
    let what = format!(
        "{spec} first solves its table for {for_what}: {}, {} of memory, {}",
        quantity(cost.positions, "position"),
        bytes_text(cost.bytes),
        duration_text(cost.seconds)
    );
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        bail!("{what}; run `zermelo solve {spec}` first (it saves the table, read from then on)");
    }
    eprint!("{what}.\nSolve it now? (or answer no and run `zermelo solve {spec}` first) [y/N] ");
    let mut answer = String::new();
    stdin.lock().read_line(&mut answer)?;
    match answer.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Ok(()),
        _ => bail!("not started: `zermelo solve {spec}` solves and saves the table first"),
    }
}

/// A writer of the prompts of a game in the terminal that first clears any progress bar,
/// so that a bar left by a solve never redraws over a prompt.
struct Clearing<'a> {
    progress: &'a BarProgress,
    out: Box<dyn std::io::Write>,
}

impl std::io::Write for Clearing<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.progress.clear();
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// `zermelo play`: one game in the terminal; with `--json` the boards and prompts go to
/// stderr and the game record to stdout.
pub fn play(
    spec: &str,
    first: String,
    second: String,
    seats: Vec<String>,
    seed: u64,
    mut opts: Options,
    json: bool,
) -> Result<Report> {
    let seats = if seats.is_empty() {
        vec![first, second]
    } else {
        seats
    };
    let session = open(spec, &opts)?;
    confirm_setup(session.as_ref(), &seats, PERFECT, &opts)?;
    quit_on_ctrl_c();
    // The bar of a table solved before the first move, or of a bot's search, is cleared
    // before every board and prompt.
    let progress = Arc::new(BarProgress::new(!json));
    opts.progress = progress.clone();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let terminal = |progress| -> Clearing<'_> {
        Clearing {
            progress,
            out: if json {
                Box::new(std::io::stderr())
            } else {
                Box::new(std::io::stdout())
            },
        }
    };
    let mut out = terminal(&progress);
    let mut prompts = terminal(&progress);
    let mut show = |text: &str| {
        let _ = writeln!(out, "{text}");
    };
    let mut io = PlayIo {
        input: &mut input,
        prompts: &mut prompts,
        show: &mut show,
    };
    Ok(render::record(&session.play(&seats, seed, &opts, &mut io)?))
}

/// `zermelo tournament`.
pub fn tournament(
    spec: &str,
    players: Vec<String>,
    games: u64,
    seed: u64,
    mut opts: Options,
    json: bool,
) -> Result<Report> {
    let session = open(spec, &opts)?;
    opts.budget.cancel = Some(cancel_on_ctrl_c());
    let players = if players.is_empty() {
        session.default_players()
    } else {
        players
    };
    confirm_setup(session.as_ref(), &players, PERFECT, &opts)?;
    let games_bar = bar(!json, games, "games");
    games_bar.set_message(format!("{} games", session.spec()));
    let result = session.tournament(&players, games, seed, &opts, &|_| games_bar.inc(1));
    games_bar.finish_and_clear();
    Ok(render::standings(&result?))
}

/// `zermelo db list`.
pub fn db_list(opts: &Options) -> Result<Report> {
    Ok(render::db_list(&saved::list(&opts.data_dir)?))
}

/// `zermelo db info`.
pub fn db_info(path: &Path) -> Result<Report> {
    Ok(render::db_info(&saved::info(path)?))
}

/// The most positions `db verify --sample` re-solves.
pub const MAX_SAMPLE: u64 = 10_000_000;

/// `zermelo db verify`: `sample` is capped at the table's positions and at [`MAX_SAMPLE`],
/// with a note on stderr.
pub fn db_verify(path: &Path, mut sample: u64, seed: u64, json: bool) -> Result<Report> {
    let positions = saved::info(path)?.positions;
    let cap = positions.min(MAX_SAMPLE);
    if sample > cap {
        let why = if cap == positions {
            format!("the table holds {}", quantity(positions, "position"))
        } else {
            format!("at most {MAX_SAMPLE} are re-solved")
        };
        eprintln!("note: --sample {sample} capped at {cap}: {why}");
        sample = cap;
    }
    let progress = BarProgress::spinning(!json, &format!("checking {}", path.display()));
    Ok(render::db_check(&saved::verify(
        path,
        sample,
        seed,
        &progress,
        zermelo::catalog::open,
    )?))
}

/// `zermelo db merge`.
pub fn db_merge(parts: &[PathBuf], output: &Path) -> Result<Report> {
    Ok(render::db_merge(&saved::merge(parts, output)?))
}

/// `zermelo serve`: each request's work limited to `budget` seconds and `budget_mib` MiB.
pub fn serve(
    addr: SocketAddr,
    budget: f64,
    budget_mib: u64,
    cache_mib: u64,
    games: Vec<String>,
    mut opts: Options,
) -> Result<Report> {
    for (flag, mib) in [("--budget-memory", budget_mib), ("--cache-memory", cache_mib)] {
        let machine = Budget::default().bytes();
        if mib.saturating_mul(1 << 20) > machine {
            bail!(
                "{flag} {mib} is more than the {} this machine has",
                bytes_text(machine)
            );
        }
    }
    if opts.data_dir.exists() && !opts.data_dir.is_dir() {
        bail!("--data {}: not a folder", opts.data_dir.display());
    }
    opts.progress = Arc::new(());
    opts.budget = Budget {
        seconds: Some(budget),
        ..Budget::default().with_memory(budget_mib << 20)
    };
    crate::serve::serve(addr, opts, cache_mib << 20, games)
}
