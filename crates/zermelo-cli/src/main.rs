//! `zermelo`: solve, play and analyse two-player games of perfect information.

mod balance;
mod commands;
mod games;
mod generic;
mod grundy;
mod serve;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};
use serde_json::json;
use zermelo::Spec;

use commands::{Report, SolveOptions};

/// Strongly solve, play and analyse two-player games of perfect information.
///
/// A game is named by a spec: NAME or NAME:key=value,key=value (lists joined by '/'),
/// e.g. tictactoe, mnk:m=4,n=4,k=4. `zermelo games` lists the games and their keys.
#[derive(Parser)]
#[command(name = "zermelo", version, about, long_about)]
struct Cli {
    /// Print one JSON document instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// The folder for solved tables.
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        env = "ZERMELO_DATA",
        default_value = "./zermelo-data"
    )]
    data: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games with their keys, defaults and ranges.
    Games,
    /// Solve a game from its start: the value for the player to move.
    Solve {
        /// The game spec.
        spec: String,
        /// The solver, for games that offer several (mnk: alphabeta, memo, retrograde;
        /// dots: alphabeta, plain).
        #[arg(long)]
        solver: Option<String>,
    },
    /// Show the position after some moves and the value of every legal move.
    Moves {
        /// The game spec.
        spec: String,
        /// Moves from the start, comma-separated, in the game's notation.
        #[arg(long, value_delimiter = ',')]
        moves: Vec<String>,
    },
    /// Count complete games and reachable positions.
    Count {
        /// The game spec.
        spec: String,
        /// Count positions up to the board's symmetries.
        #[arg(long)]
        symmetry: bool,
    },
    /// Play a game in the terminal.
    Play {
        /// The game spec.
        spec: String,
        /// The first player: human, random, perfect, search[:DEPTH], or a game's own.
        #[arg(long, default_value = "human")]
        first: String,
        /// The second player.
        #[arg(long, default_value = "perfect")]
        second: String,
        /// Every seat in order, comma-separated, for games of more than two players
        /// (replaces --first and --second), e.g. --seats human,greedy,mcts.
        #[arg(long, value_delimiter = ',')]
        seats: Vec<String>,
        /// Seed for random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Play many games between players, each taking each seat equally often.
    Tournament {
        /// The game spec.
        spec: String,
        /// The players, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "random,perfect")]
        players: Vec<String>,
        /// How many games.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seed for random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Solve every arrangement of reduced Big Points boards: first-player wins, draws, second-player wins.
    Balance {
        /// The family, e.g. bigpoints:colors=3,discs=2 (also white=, black=, rule=margin).
        #[arg(default_value = "bigpoints")]
        spec: String,
        /// Several configurations, COLORSxDISCS comma-separated, e.g. 2x2,2x3,3x2
        /// (the spec then gives only the other keys).
        #[arg(long, value_delimiter = ',')]
        configs: Vec<String>,
        /// Write one CSV row per board to this file.
        #[arg(long)]
        csv: Option<std::path::PathBuf>,
        /// Draw the win/draw/loss percentages per configuration to this SVG file.
        #[arg(long)]
        plot: Option<std::path::PathBuf>,
        /// Solve every board, not one per colour-relabelling class.
        #[arg(long)]
        every_board: bool,
        /// Solve only N boards (classes) evenly spaced through each family: an estimate.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        sample: Option<u64>,
    },
    /// The Grundy sequence of a heap game (subtraction, octal) with its proven period.
    Grundy {
        /// The game spec, e.g. octal:code=0.77 or subtraction:set=1/4.
        spec: String,
        /// Compute the values of heaps 0..=N (default: grow until a period is proven).
        #[arg(long)]
        to: Option<u64>,
        /// Write an SVG plot of the sequence with the period marked.
        #[arg(long)]
        plot: Option<String>,
    },
    /// Serve a page to play any game against the perfect bot, and its HTTP API.
    Serve {
        /// The address to listen on (port 0 picks a free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
    },
}

/// The list of games with their keys, for `zermelo games` and the page.
pub fn games_report() -> Report {
    let mut text = String::new();
    let mut list = Vec::new();
    for g in zermelo::games::registry() {
        text += &format!("{:<12} {}\n", g.name, g.summary);
        let mut keys = Vec::new();
        for k in g.keys {
            text += &format!(
                "    {:<10} {} (default {}, range {})\n",
                k.key, k.help, k.default, k.range
            );
            keys.push(json!({"key": k.key, "default": k.default, "range": k.range, "help": k.help}));
        }
        list.push(json!({"name": g.name, "summary": g.summary, "keys": keys}));
    }
    Report {
        text,
        json: json!({"games": list}),
    }
}

fn run(cli: Cli) -> Result<Report> {
    let mut opts = SolveOptions {
        progress: !cli.json,
        solver: None,
        data_dir: cli.data,
    };
    let open = |spec: &str| -> Result<_> { games::open(&spec.parse::<Spec>()?) };
    match cli.command {
        Command::Games => Ok(games_report()),
        Command::Solve { spec, solver } => {
            opts.solver = solver;
            open(&spec)?.solve(&opts)
        }
        Command::Moves { spec, moves } => open(&spec)?.moves(&moves, &opts),
        Command::Count { spec, symmetry } => open(&spec)?.count(symmetry, &opts),
        Command::Play {
            spec,
            first,
            second,
            seats,
            seed,
        } => {
            if cli.json {
                bail!("play is interactive and has no --json output");
            }
            let seats = if seats.is_empty() {
                vec![first, second]
            } else {
                seats
            };
            open(&spec)?.play(&seats, seed, &opts)
        }
        Command::Tournament {
            spec,
            players,
            games,
            seed,
        } => open(&spec)?.tournament(&players, games, seed, &opts),
        Command::Balance {
            spec,
            configs,
            csv,
            plot,
            every_board,
            sample,
        } => balance::run(&balance::BalanceArgs {
            spec,
            configs,
            csv,
            plot,
            every_board,
            sample: sample.map(|n| n as usize),
            progress: opts.progress,
        }),
        Command::Grundy { spec, to, plot } => grundy::report(&spec.parse()?, to, plot.as_deref()),
        Command::Serve { addr } => serve::serve(
            addr,
            SolveOptions {
                progress: false,
                ..opts
            },
        ),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let json = cli.json;
    match run(cli) {
        Ok(report) => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report.json).expect("JSON values serialise")
                );
            } else {
                print!("{}", report.text);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
