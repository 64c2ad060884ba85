//! The command line's schema: the commands, their arguments and how their values are read.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Parser, Subcommand};
use zermelo::command::{self, Given, Kind, Opt, Value};
use zermelo::limits::Seconds;
use zermelo::spec::{Key, Values};

/// Strongly solve, play and analyse two-player games of perfect information.
///
/// A game is named by a spec: NAME or NAME:key=value,key=value (lists joined by '/'),
/// e.g. tictactoe, mnk:m=4,n=4,k=4. `zermelo games` lists the games, their keys, players
/// and solvers.
#[derive(Parser)]
#[command(name = "zermelo", version)]
pub struct Cli {
    /// Print one JSON document instead of text (its schema: docs/schema.json).
    #[arg(long, global = true)]
    pub json: bool,
    /// The folder for solved tables [env: ZERMELO_DATA; default: ./zermelo-data].
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The most memory a solve may plan for, and the size of a search's table or of the
    /// table a sweep's threads share, e.g. 8G or 512M [default: the machine's memory for a
    /// solve, 1G for a search's table, 128M for a sweep's].
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    pub memory: Option<u64>,
    /// The threads solves, searches and self-play run on [default: one per core].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=zermelo::limits::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the games with their keys, defaults, ranges, players and solvers.
    Games,
    /// Solve a game from its start (or from --position): the value for the player to move.
    Solve(Solve),
    /// Show the position after some moves and the value of every legal move.
    Moves(Moves),
    /// Show the position after some moves and its legal moves, from the rules alone
    /// (nothing solved).
    Rules(Rules),
    /// A designer's report from the game's strong solution (solved first when needed):
    /// every first move's value, the swap rule, each seat's forgiveness along perfect
    /// play, and a certificate of the solved values.
    Report(Report),
    /// Count complete games and reachable positions.
    Count(Count),
    /// The game graph: every position reachable from the start a node (valued for the
    /// player to move), every move an edge; printed as Graphviz DOT unless told otherwise.
    Graph(Graph),
    /// Play a game in the terminal (`quit` ends it).
    Play(Play),
    /// Play many games between players, one per seat, each taking each seat equally often.
    Tournament(Tournament),
    /// Is a game fair? Every board of a family solved (who wins, in how many moves or by
    /// how much), or the game's own balance study (`zermelo study SPEC balance`)
    ///
    /// A game whose family has a balance study of its own runs it, its keys given as
    /// --KEY VALUE or KEY=VALUE (`zermelo games` lists them).
    ///
    /// With --players: how each seat of any game fares, estimated by self-play.
    Balance {
        /// The family: a spec whose values may be ranges A..B (in a list, of its last
        /// number: set=1/2..1/6) or alternatives A|B, e.g. 'mnk:m=3..5,n=3..5,k=3|4'.
        spec: String,
        /// The balance study's keys, where the game has one.
        #[arg(value_name = "KEY=VALUE")]
        keys: Vec<String>,
        /// The most seconds each member of a family may take; a member over it is reported
        /// as skipped, with its estimate.
        #[arg(long, default_value_t = 60.0, value_name = "SECONDS", value_parser = work_seconds)]
        seconds: f64,
        /// Write one CSV row per member (or per board of a study) to this file.
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Draw an SVG: a family's heatmap (the first player's result per member), or the
        /// chart of the game's own study.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// What colours a family's heatmap: the first player's result, or the outcome
        /// class of members whose solve gives one (Domineering: L, R, N, P).
        #[arg(long, value_enum, default_value = "result", value_name = "WHAT")]
        colour_by: crate::map::ColourBy,
        /// A family: add to every member solved its designer's report's first moves that
        /// keep the value, its seats' mean share of safe moves and its certificate (each
        /// within --seconds), and mark on the heatmap where the result flips between
        /// neighbouring members.
        #[arg(long, conflicts_with = "players")]
        report: bool,
        /// Estimate by self-play instead of solving: this player in every seat (any player
        /// the game takes, e.g. mcts:2000), or one per seat, comma-separated.
        #[arg(long, value_delimiter = ',', conflicts_with_all = ["keys", "csv", "plot"])]
        players: Vec<String>,
        /// Self-play: how many games (the most, with --until).
        #[arg(long, value_name = "N", default_value_t = 1000, requires = "players")]
        games: u64,
        /// Self-play: stop after the first round of 100 games at which every seat's 95 %
        /// interval of its points share is narrower than W (a share, e.g. 0.05).
        #[arg(long, value_name = "W", requires = "players")]
        until: Option<f64>,
        /// Self-play: game i is played from the seed S + i.
        #[arg(long, value_name = "S", default_value_t = 0, requires = "players")]
        seed: u64,
        /// The study's keys given as flags, in KEY=VALUE form.
        #[arg(skip)]
        flagged: Vec<String>,
    },
    /// The Grundy sequence of a heap game (subtraction, octal) with its proven period
    /// (`zermelo study SPEC grundy`)
    ///
    /// Its keys are given as --KEY VALUE or KEY=VALUE (`zermelo games` lists them).
    ///
    /// With --to, an octal game's values go on from those saved in the data folder, and
    /// are saved there every --save-every seconds, when stopped (Ctrl-C) and at the end:
    /// run the same command again, or a larger --to, to go on.
    Grundy {
        /// The game spec, e.g. octal:code=0.77 or subtraction:set=1/4.
        spec: String,
        /// The study's keys (`zermelo games` lists them).
        #[arg(value_name = "KEY=VALUE")]
        keys: Vec<String>,
        /// Write an SVG plot of the sequence with the period marked.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Compute from heap 0 even when values are saved (and replace them once the new
        /// ones go further).
        #[arg(long)]
        force: bool,
        /// Keep the values in memory only; do not save them to the data folder.
        #[arg(long)]
        no_save: bool,
        /// The study's keys given as flags, in KEY=VALUE form.
        #[arg(skip)]
        flagged: Vec<String>,
    },
    /// Run a study a game's family offers, its keys as KEY=VALUE
    ///
    /// `zermelo games` lists each game's studies with their keys, kinds, ranges and
    /// defaults; every study also takes csv=FILE (its rows) and plot=FILE (its chart),
    /// e.g. `zermelo study octal:code=0.77 grundy to=100 plot=kayles.svg`.
    Study {
        /// The game spec (a family's, with ranges, where the study takes one).
        spec: String,
        /// The study's name.
        name: String,
        /// The study's keys.
        #[arg(value_name = "KEY=VALUE")]
        keys: Vec<String>,
        /// Compute the tables the study reads again, even when they are saved.
        #[arg(long)]
        force: bool,
        /// Keep what the study computes in memory only; do not save it to the data folder.
        #[arg(long)]
        no_save: bool,
    },
    /// Saved databases: list the data folder, show one's header, check one, merge parts.
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
    /// Serve a page to play any game against the perfect bot, and its HTTP API.
    Serve {
        /// The address to listen on (port 0 picks a free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// The most seconds of work a request may start.
        #[arg(long, default_value_t = 2.0, value_name = "SECONDS", value_parser = work_seconds)]
        budget: f64,
        /// The most memory requests' work may take, in MiB, shared by those at work at once.
        #[arg(long, default_value_t = 1024, value_name = "MIB", value_parser = positive_mib)]
        budget_memory: u64,
        /// The most memory the cache of opened games and loaded tables may hold, in MiB.
        #[arg(long, default_value_t = 2048, value_name = "MIB", value_parser = positive_mib)]
        cache_memory: u64,
        /// A game to offer that reads a file on this machine (`graph:file=G.json`), its page
        /// printed at the start; specs that read files are refused unless named here.
        #[arg(long = "game", value_name = "SPEC")]
        games: Vec<String>,
    },
}

#[derive(Subcommand)]
pub enum DbCommand {
    /// The databases in the data folder, with their sizes, and any unfinished solves.
    List,
    /// A database's header: game, solver, positions, layers, bits per position, compression
    /// (and which part of a table it holds, for a part of a split solve).
    Info {
        /// The database file, or a part of a split solve's table.
        path: PathBuf,
    },
    /// Check every checksum of a database (or of a part of one) and re-solve sampled
    /// positions from their children's stored values.
    Verify {
        /// The database file, or a part of a split solve's table.
        path: PathBuf,
        /// How many random positions to re-solve (0: checksums only).
        #[arg(long, default_value_t = 1000)]
        sample: u64,
        /// Seed for the sample.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Put together the parts of a table that `mpirun ... zermelo solve` saved, one by
    /// each rank, into the database a solve in one process saves.
    Merge {
        /// Every part of the table (`NAME.partI-of-K.zdb`), in any order.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// The database to write, e.g. zermelo-data/pawns-5x8.zdb.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

/// A command's game spec and the values of its options, as its declaration
/// ([`zermelo::command`]) reads them.
pub struct Request {
    /// The game spec.
    pub spec: String,
    /// The options' values, defaults filled in.
    pub given: Given,
}

impl Request {
    /// The spec and options of `command` in `matches`.
    fn read(command: &command::Command, matches: &ArgMatches) -> Request {
        let mut given = Given::defaults(command, Opt::on_cli);
        for opt in command.options.iter().filter(|o| o.on_cli()) {
            let id = opt.name;
            let value = match opt.kind {
                Kind::Flag(on) => Some(Value::Flag(matches.get_flag(id) != on)),
                Kind::Whole { .. } | Kind::Memory => matches.get_one::<u64>(id).copied().map(Value::Whole),
                Kind::Seconds(..) | Kind::Number => matches.get_one::<f64>(id).copied().map(Value::Number),
                Kind::Text { .. } | Kind::Word(_) => matches.get_one::<String>(id).cloned().map(Value::Text),
                Kind::Texts | Kind::Moves => matches
                    .get_many::<String>(id)
                    .map(|texts| Value::Texts(texts.cloned().collect())),
                Kind::Path => matches.get_one::<PathBuf>(id).cloned().map(Value::Path),
            };
            if let Some(value) = value {
                given.set(id, value);
            }
        }
        let spec = matches.get_one::<String>("spec").cloned().unwrap_or_default();
        Request { spec, given }
    }
}

/// `cmd` with the game spec and the command-line flags of `command`'s options.
fn flags(cmd: clap::Command, command: &command::Command) -> clap::Command {
    let spec = Arg::new("spec")
        .value_name("SPEC")
        .required(true)
        .help("The game spec");
    let opts = command
        .options
        .iter()
        .filter(|o| o.on_cli())
        .map(|o| flag(o, command));
    cmd.arg(spec).args(opts)
}

/// The flag of `opt`, an option of `command`.
fn flag(opt: &Opt, command: &command::Command) -> Arg {
    let long = opt.flag();
    let form = opt.form.map_or_else(|| opt.name.to_uppercase(), String::from);
    let mut arg = Arg::new(opt.name)
        .long(long.trim_start_matches('-').to_string())
        .help(opt.help_in(|name| command.option(name).map_or_else(|| name.to_string(), Opt::flag)))
        .conflicts_with_all(opt.conflicts);
    if let Some(short) = opt.short {
        arg = arg.short(short);
    }
    if !matches!(opt.kind, Kind::Flag(_)) {
        arg = arg.value_name(form);
    }
    let arg = match opt.kind {
        Kind::Flag(_) => return arg.action(ArgAction::SetTrue),
        Kind::Whole { lo, hi, .. } if lo > 0 || hi < u64::MAX => {
            arg.value_parser(clap::value_parser!(u64).range(lo..=hi))
        }
        Kind::Whole { .. } => arg.value_parser(clap::value_parser!(u64)),
        Kind::Seconds(range, _) => {
            arg.value_parser(move |text: &str| range.parse(text).map_err(|e| e.to_string()))
        }
        Kind::Number => arg.value_parser(clap::value_parser!(f64)),
        Kind::Memory => arg.value_parser(parse_size),
        Kind::Text { hyphens, .. } => arg.allow_hyphen_values(hyphens),
        Kind::Word(words) => arg.value_parser(PossibleValuesParser::new(words)),
        Kind::Texts | Kind::Moves => arg.action(ArgAction::Append).value_delimiter(','),
        Kind::Path => arg.value_parser(clap::value_parser!(PathBuf)),
    };
    match opt.default() {
        Some(Value::Whole(n)) => arg.default_value(n.to_string()),
        Some(Value::Number(x)) => arg.default_value(x.to_string()),
        Some(Value::Text(t)) => arg.default_value(t),
        _ => arg,
    }
}

/// The arguments of a command declared in the library: its spec and its options.
macro_rules! declared {
    ($($name:ident: $command:expr),* $(,)?) => {$(
        #[doc = concat!("The spec and options of `", stringify!($name), "`.")]
        pub struct $name(pub Request);

        impl clap::FromArgMatches for $name {
            fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
                Ok($name(Request::read(&$command, matches)))
            }

            fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl clap::Args for $name {
            fn augment_args(cmd: clap::Command) -> clap::Command {
                flags(cmd, &$command)
            }

            fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
                flags(cmd, &$command)
            }
        }
    )*};
}

declared!(
    Solve: command::SOLVE,
    Moves: command::MOVES,
    Rules: command::RULES,
    Report: command::REPORT,
    Count: command::COUNT,
    Graph: command::GRAPH,
    Play: command::PLAY,
    Tournament: command::TOURNAMENT,
);

/// A size in bytes: a number with an optional K, M, G or T suffix (powers of 1024), at
/// most the machine's memory.
fn parse_size(text: &str) -> Result<u64, String> {
    zermelo::limits::parse_memory(text).map_err(|e| e.to_string())
}

/// Seconds a job may take (a family's member, a request's work).
fn work_seconds(text: &str) -> Result<f64, String> {
    Seconds::WORK.parse(text).map_err(|e| e.to_string())
}

/// A memory budget in MiB: more than zero, as `--budget` is.
fn positive_mib(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("give a positive whole number of MiB".into()),
    }
}

/// The command line `args` (the program's name first), or the exit status after clap's
/// help, version or refusal; a refusal is one line, `error: ...` (with clap's tip, without its
/// usage), as every other error.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, u8> {
    use clap::error::ErrorKind;
    match parse_studies(args) {
        Ok(cli) => Ok(cli),
        Err(e) => {
            if !e.use_stderr() || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // Help and version on stdout, help for a missing command on stderr.
                let _ = e.print();
            } else if let Some(number) = negative_number(&e) {
                // Not clap's tip (`-- -1` passes no value to an option).
                eprintln!("error: '{number}': write numbers without a sign (none is below zero)");
            } else if missing_spec(&e) {
                eprintln!(
                    "error: give a game spec, such as {}; `zermelo games` lists every game and its options",
                    examples()
                );
            } else {
                eprintln!("{}", one_line(&e.render().to_string()));
            }
            Err(e.exit_code() as u8)
        }
    }
}

/// The commands that are aliases of `zermelo study SPEC NAME`: a study's name each.
const ALIASES: [&str; 2] = ["grundy", "balance"];

/// The command line `args` with the aliases' flags made from their studies' keys (as
/// the catalog declares them, with their help, ranges and defaults); the flags given
/// are handed on as the studies' KEY=VALUE.
fn parse_studies(args: impl IntoIterator<Item = OsString>) -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut command = Cli::command();
    for alias in ALIASES {
        command = command.mut_subcommand(alias, |c| {
            let players = c.get_arguments().any(|a| a.get_id() == "players");
            c.args(study_keys(alias).map(|key| {
                let flag = study_flag(key);
                if players {
                    flag.conflicts_with("players")
                } else {
                    flag
                }
            }))
        });
    }
    command = command.mut_subcommand("study", |c| c.after_long_help(studies_help()));
    let matches = command.try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if let (Some((name, given)), Command::Balance { flagged, .. } | Command::Grundy { flagged, .. }) =
        (matches.subcommand(), &mut cli.command)
    {
        for key in study_keys(name) {
            let value = match key.values {
                Values::Flag(_) => given.get_flag(key.name).then(|| "true".to_string()),
                _ => given.get_one::<String>(key.name).cloned(),
            };
            flagged.extend(value.map(|v| format!("{}={v}", key.name)));
        }
    }
    Ok(cli)
}

/// Every study of the catalog, with the games that offer it and its keys, for `zermelo
/// study --help`.
fn studies_help() -> String {
    let entries = zermelo::catalog::entries();
    let mut names: Vec<&str> = Vec::new();
    for study in entries.iter().flat_map(|e| e.studies) {
        if !names.contains(&study.name) {
            names.push(study.name);
        }
    }
    let mut text = String::from("Studies:\n");
    for name in &names {
        let games: Vec<&str> = entries
            .iter()
            .filter(|e| e.studies.iter().any(|s| s.name == *name))
            .map(|e| e.info.name)
            .collect();
        text += &format!("  {name} ({})\n", games.join(", "));
        for key in study_keys(name) {
            text += &format!(
                "    {}={}  {} [{}; default: {}]\n",
                key.name,
                key.kind().to_uppercase(),
                key.help,
                key.range_text(),
                key.default_text()
            );
        }
    }
    text
}

/// The keys of every study named `name` in the catalog, each once.
fn study_keys(name: &str) -> impl Iterator<Item = &'static Key> {
    let mut keys: Vec<&'static Key> = Vec::new();
    let entries = zermelo::catalog::entries();
    let studies = entries.iter().flat_map(|e| e.studies);
    for key in studies.filter(|s| s.name == name).flat_map(|s| s.keys) {
        if !keys.iter().any(|k| k.name == key.name) {
            keys.push(key);
        }
    }
    keys.into_iter()
}

/// A study's key as a flag: `--every-board`, `--sample <N>`, its help from its declaration.
fn study_flag(key: &'static Key) -> clap::Arg {
    let arg = clap::Arg::new(key.name)
        .long(key.name.replace('_', "-"))
        .help(format!(
            "{} [{}; default: {}]",
            key.help,
            key.range_text(),
            key.default_text()
        ));
    match key.values {
        Values::Flag(_) => arg.action(clap::ArgAction::SetTrue),
        Values::Int { .. } => arg.value_name("N"),
        Values::Real { .. } => arg.value_name("NUMBER"),
        _ => arg.value_name("VALUE"),
    }
}

/// Two of the catalog's example specs, for people: `tictactoe or mnk:m=3,n=2,k=2`.
pub fn examples() -> String {
    let specs: Vec<&str> = zermelo::catalog::entries()
        .iter()
        .filter_map(|e| e.examples.first().copied())
        .take(2)
        .collect();
    specs.join(" or ")
}

/// Whether the refusal is a command's game spec left out.
fn missing_spec(e: &clap::Error) -> bool {
    use clap::error::{ContextKind, ContextValue};
    e.kind() == clap::error::ErrorKind::MissingRequiredArgument
        && matches!(e.get(ContextKind::InvalidArg), Some(ContextValue::Strings(args)) if args.iter().any(|a| a == "<SPEC>"))
}

/// The negative number clap took for an unknown option (`--seed -1`), if that is the
/// refusal.
fn negative_number(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if e.kind() != clap::error::ErrorKind::UnknownArgument {
        return None;
    }
    match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(arg) if arg.strip_prefix('-')?.parse::<f64>().is_ok() => Some(arg.clone()),
        _ => None,
    }
}

/// Clap's message on one line: its lines up to the usage, joined (a list after a colon by
/// spaces, a tip by "; ").
fn one_line(message: &str) -> String {
    let mut line = String::new();
    for part in message.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if part.starts_with("Usage:") || part.starts_with("For more information") {
            break;
        }
        if !line.is_empty() {
            line += if line.ends_with(':') { " " } else { "; " };
        }
        line += part;
    }
    line
}
