//! `zermelo`: solve, play and analyse two-player games of perfect information.
//!
//! The command line only parses arguments, opens a session through the library's catalog,
//! and renders the typed result as text or JSON; it knows no game. [`main_with`] is the
//! whole program: the `zermelo` binary and the Python package's `python -m zermelo` call it.

mod args;
mod commands;
mod design;
mod estimate;
mod graph;
mod map;
#[cfg(feature = "mpi")]
mod mpi_driver;
#[cfg(feature = "mpi")]
mod mpi_levels;
mod options;
mod progress;
mod render;
mod report;
mod serve;
mod study;

/// What the command line prints of each result, for the Python package to print the same:
/// a command's text, and the designer's report as HTML.
pub mod shown {
    use zermelo::analysis::selfplay::Estimate;
    use zermelo::balance_map::BalanceMap;
    use zermelo::session::{Counts, GameRecord, Graph, PositionView, Solution, Standings};

    /// `zermelo solve`'s text.
    pub fn solution(s: &Solution) -> String {
        crate::render::solution(s).text
    }

    /// `zermelo moves`'s text: the board, the value and every move's.
    pub fn position(v: &PositionView) -> String {
        crate::render::position(v).text
    }

    /// `zermelo count`'s text.
    pub fn counts(c: &Counts) -> String {
        crate::render::counts(c).text
    }

    /// `zermelo tournament`'s text.
    pub fn standings(s: &Standings) -> String {
        crate::render::standings(s).text
    }

    /// `zermelo play`'s last lines: how the game ended.
    pub fn record(r: &GameRecord) -> String {
        crate::render::record(r).text
    }

    /// `zermelo selfplay`'s text.
    pub fn estimate(e: &Estimate) -> String {
        crate::render::estimate_text(e)
    }

    /// `zermelo graph`'s text: the graph in Graphviz DOT.
    pub fn graph(g: &Graph) -> String {
        crate::graph::Format::Dot.write(g)
    }

    /// `zermelo balance`'s text for a family's map: one line per member, then the tally.
    pub fn balance_map(m: &BalanceMap) -> String {
        crate::map::table(m)
    }

    /// `zermelo report`'s text and its JSON document, as `--json` prints it.
    pub fn report(r: &zermelo::design::Report) -> (String, String) {
        let shown = crate::design::render(r);
        let json = serde_json::to_string_pretty(&shown.json).expect("JSON values serialise");
        (shown.text, json)
    }
}

pub use serve::{offer_own, OwnGame};

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use zermelo::solve::levels::Partition;
use zermelo::Error;

use args::{Cli, Command, DbCommand};
use options::{data_dir, guests, options, MOVE_TIME};
use report::Report;

/// The exit status of a command done.
const SUCCESS: u8 = 0;
/// The exit status of a command that failed.
const FAILURE: u8 = 1;

/// Runs the command line `args` (the program's name first) and prints its report: the
/// `zermelo` program. Returns its exit status: 0 done, 1 failed, 2 a refused command line.
pub fn main_with(args: impl IntoIterator<Item = OsString>) -> u8 {
    let cli = match args::parse(args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let json = cli.json;
    if let Some(threads) = cli.threads {
        if let Err(e) = zermelo::set_threads(threads.into()) {
            eprintln!("error: {e}");
            return FAILURE;
        }
    }
    #[cfg(feature = "mpi")]
    let cluster = match mpi_driver::Cluster::join(
        matches!(
            cli.command,
            Command::Balance { ref spec, ref players, .. } if study::has_balance_study(spec) || !players.is_empty()
        ) || matches!(cli.command, Command::Solve(_) | Command::Study { .. }),
    ) {
        Ok(cluster) => cluster,
        Err(e) => {
            eprintln!("error: {e:#}");
            return FAILURE;
        }
    };
    #[cfg(feature = "mpi")]
    let partition = cluster.as_ref().map(mpi_driver::Cluster::partition);
    #[cfg(not(feature = "mpi"))]
    let partition = None;
    match run(cli, partition) {
        Ok(None) => SUCCESS,
        Ok(Some(report)) => print(&report, json),
        Err(e) if matches!(e.downcast_ref::<Error>(), Some(Error::Quit)) => {
            eprintln!("game ended: a player quit");
            SUCCESS
        }
        Err(e) => {
            #[cfg(feature = "mpi")]
            if let Some(cluster) = &cluster {
                // Every rank meets the same bad input: rank 0 says it, and the job stops
                // rather than leave ranks waiting for work.
                if cluster.leads() {
                    eprintln!("error: {}", said(&e));
                }
                cluster.abort();
            }
            eprintln!("error: {}", said(&e));
            FAILURE
        }
    }
}

/// The command line's words for what a user can change: a flag, `--max-positions 9`,
/// `--memory 1 MiB`.
pub(crate) struct Flags;

impl zermelo::error::Words for Flags {
    fn option(&self, option: &str, value: Option<&str>) -> String {
        let flag = format!("--{}", option.replace('_', "-"));
        value.map_or(flag.clone(), |v| format!("{flag} {v}"))
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

    fn merge(&self, into: Option<&str>) -> String {
        merge_command(into)
    }
}

/// The command that merges the parts of a split solve into one database, at `into` when
/// given: `zermelo db merge PARTS -o FILE`.
pub fn merge_command(into: Option<&str>) -> String {
    match into {
        Some(file) => format!("`zermelo db merge PARTS -o {file}`"),
        None => "`zermelo db merge`".into(),
    }
}

/// `e` and its causes in the command line's words.
fn said(e: &anyhow::Error) -> String {
    let parts: Vec<String> = e
        .chain()
        .map(|cause| match cause.downcast_ref::<Error>() {
            Some(e) => e.worded(&Flags),
            None => cause.to_string(),
        })
        .collect();
    parts.join(": ")
}

/// Runs the command, its work split by `partition` across the processes of an MPI job
/// when given; `None` on a process that only works for the leader, which reports.
fn run(cli: Cli, partition: Option<Arc<dyn Partition>>) -> Result<Option<Report>> {
    let leads = partition.as_ref().is_none_or(|p| p.leads());
    let report = dispatch(cli.command, cli.json, cli.data, cli.memory, partition)?;
    Ok(leads.then_some(report))
}

/// Runs a command.
fn dispatch(
    command: Command,
    json: bool,
    data: Option<PathBuf>,
    memory: Option<u64>,
    partition: Option<Arc<dyn Partition>>,
) -> Result<Report> {
    let mut opts = options(data_dir(data)?, json);
    // Checked as it was read: at most the machine's.
    opts.budget.memory = memory;
    if let Some(partition) = &partition {
        opts.partition = partition.clone();
    }
    match command {
        Command::Games => Ok(render::games()),
        Command::Solve(args::Solve(r)) => {
            r.given.apply(&mut opts);
            commands::solve(&r.spec, partition, opts, json)
        }
        Command::Moves(args::Moves(r)) => {
            r.given.apply(&mut opts);
            commands::moves(&r.spec, &r.given.texts("moves"), opts)
        }
        Command::Rules(args::Rules(r)) => {
            r.given.apply(&mut opts);
            let session = commands::open(&r.spec, &opts)?;
            Ok(render::position(
                &session.unvalued(&r.given.texts("moves"), &opts)?,
            ))
        }
        Command::Report(args::Report(r)) => {
            r.given.apply(&mut opts);
            let html = r.given.path("html");
            commands::report(&r.spec, &r.given.ask(), html.as_deref(), opts)
        }
        Command::Count(args::Count(r)) => commands::count(&r.spec, r.given.flag("symmetry"), opts, json),
        Command::Graph(args::Graph(r)) => {
            let given = &r.given;
            let format = given.text("format").map(|f| graph::Format::named(&f));
            let max_positions = given.whole("max_positions").unwrap_or_default();
            let output = given.path("output");
            let symmetry = given.flag("symmetry");
            commands::graph(
                &r.spec,
                symmetry,
                max_positions,
                format,
                output.as_deref(),
                opts,
                json,
            )
        }
        Command::Play(args::Play(r)) => {
            let given = &r.given;
            given.apply(&mut opts);
            let (first, second) = (
                given.text("first").unwrap_or_default(),
                given.text("second").unwrap_or_default(),
            );
            let seed = given.whole("seed").unwrap_or_default();
            let opts = guests(opts, given.number("move_time").unwrap_or(MOVE_TIME));
            commands::play(&r.spec, first, second, given.texts("seats"), seed, opts, json)
        }
        Command::Tournament(args::Tournament(r)) => {
            let given = &r.given;
            given.apply(&mut opts);
            let (games, seed) = (
                given.whole("games").unwrap_or_default(),
                given.whole("seed").unwrap_or_default(),
            );
            let opts = guests(opts, given.number("move_time").unwrap_or(MOVE_TIME));
            commands::tournament(&r.spec, given.texts("players"), games, seed, opts, json)
        }
        Command::Balance {
            spec,
            players,
            games,
            until,
            seed,
            ..
        } if !players.is_empty() => {
            let args = estimate::EstimateArgs {
                spec,
                players,
                games,
                until,
                seed,
                progress: !json,
            };
            estimate::run(&args, guests(opts, MOVE_TIME))
        }
        Command::Balance {
            spec,
            keys,
            seconds,
            csv,
            plot,
            colour_by,
            report,
            flagged,
            ..
        } => {
            let keys: Vec<String> = keys.into_iter().chain(flagged).collect();
            if !study::has_balance_study(&spec) {
                if let Some(key) = keys.first() {
                    bail!("{key}: a family of {spec} is mapped member by member, and takes --seconds, --csv, --plot, --colour-by and --report; study keys are for a game with a balance study of its own (`zermelo games` lists them)");
                }
                let files = map::Files {
                    csv: csv.as_deref(),
                    plot: plot.as_deref(),
                    colour_by,
                    report,
                };
                return map::run(&spec, seconds, files, opts, json);
            }
            if report {
                bail!("--report is for a family of boards; {spec} is a game's own balance study");
            }
            study::run(&spec, "balance", study::given(keys, csv, plot)?, opts)
        }
        Command::Grundy {
            spec,
            keys,
            plot,
            force,
            no_save,
            flagged,
        } => {
            opts.force = force;
            opts.save = !no_save;
            let keys = keys.into_iter().chain(flagged).collect();
            study::run(&spec, "grundy", study::given(keys, None, plot)?, opts)
        }
        Command::Study {
            spec,
            name,
            keys,
            force,
            no_save,
        } => {
            opts.force = force;
            opts.save = !no_save;
            study::run(&spec, &name, study::given(keys, None, None)?, opts)
        }
        Command::Db { command } => match command {
            DbCommand::List => commands::db_list(&opts),
            DbCommand::Info { path } => commands::db_info(&path),
            DbCommand::Verify { path, sample, seed } => commands::db_verify(&path, sample, seed, json),
            DbCommand::Merge { parts, output } => commands::db_merge(&parts, &output),
        },
        Command::Serve {
            addr,
            budget,
            budget_memory,
            cache_memory,
            games,
        } => commands::serve(addr, budget, budget_memory, cache_memory, games, opts),
    }
}

/// Prints `report` on stdout, as JSON with `json`; a reader that stopped reading (`| head`)
/// ends the program quietly.
fn print(report: &Report, json: bool) -> u8 {
    let mut out = std::io::stdout().lock();
    let written = if json {
        let document = serde_json::to_string_pretty(&report.json).expect("JSON values serialise");
        writeln!(out, "{document}")
    } else {
        out.write_all(report.text.as_bytes())
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: writing the report: {e}");
            FAILURE
        }
        _ => SUCCESS,
    }
}
