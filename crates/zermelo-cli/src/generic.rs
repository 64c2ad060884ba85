//! Building blocks that serve every game: replaying moves, move tables, players by
//! name, terminal play, tournaments and progress bars.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value as Json};
use zermelo::game::{Game, Notation, Outcome};
use zermelo::play::human::Human;
use zermelo::play::perfect::rank_moves;
use zermelo::play::random::Random;
use zermelo::play::search::Search;
use zermelo::play::{play_match, tournament, Player, TournamentResult};
use zermelo::solve::{Oracle, Progress};
use zermelo::Value;

use crate::commands::Report;

/// Plays the comma-separated `moves` from `start`; an illegal or malformed move is an
/// error naming it and its place.
pub fn replay<G: Notation>(game: &G, start: G::Position, moves: &[String]) -> Result<G::Position> {
    let mut p = start;
    for (i, text) in moves.iter().enumerate() {
        if game.outcome(&p).is_some() {
            bail!("move {} '{text}': the game is already over", i + 1);
        }
        let m = game
            .parse_move(&p, text)
            .with_context(|| format!("move {}", i + 1))?;
        p = game.play(&p, &m);
    }
    Ok(p)
}

/// "win"/"lose"/"draw" and the remoteness (null for draws) as JSON fields.
pub fn value_fields(v: Value) -> (Json, Json) {
    (json!(v.word()), v.remoteness().map_or(Json::Null, |r| json!(r)))
}

/// A count as a JSON number, or as a string of digits when it exceeds 64 bits.
pub fn big(n: u128) -> Json {
    u64::try_from(n).map_or_else(|_| json!(n.to_string()), Json::from)
}

/// The result of a finished game for people and for JSON.
pub fn outcome_words<G: Notation>(game: &G, outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} wins", game.player_name(p)),
        Outcome::Draw => "draw".into(),
        Outcome::Shared(mask) => {
            let names: Vec<String> = (0..32)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| game.player_name(i as u8))
                .collect();
            format!("{} share the win", names.join(" and "))
        }
    }
}

/// The `moves` report: the position, whether it is over, and every legal move with
/// its exact value for the mover.
pub fn moves_report<G: Notation, O: Oracle<G>>(game: &G, oracle: &mut O, p: &G::Position) -> Report {
    let mover = game.to_move(p);
    let outcome = game.outcome(p);
    let ranked = if outcome.is_some() {
        Vec::new()
    } else {
        rank_moves(game, oracle, p)
    };
    let mut text = game.render(p);
    let mut moves = Vec::new();
    match outcome {
        Some(o) => text += &format!("game over: {}\n", outcome_words(game, o)),
        None => text += &format!("{} to move\n", game.player_name(mover)),
    }
    for (m, v) in &ranked {
        let name = game.format_move(p, m);
        let (value, remoteness) = value_fields(*v);
        text += &format!("  {name:<8} {v}\n");
        moves.push(json!({"move": name, "value": value, "remoteness": remoteness}));
    }
    let json = json!({
        "position": game.format_position(p),
        "board": game.render(p),
        "to_move": game.player_name(mover),
        "terminal": outcome.is_some(),
        "result": outcome.map(|o| outcome_words(game, o)),
        "moves": moves,
    });
    Report { text, json }
}

/// A player that may borrow from the game it plays (e.g. a solver's table).
pub type BoxedPlayer<'g, G> = Box<dyn Player<G> + 'g>;

/// A player by name: `human`, `random`, `search` or `search:DEPTH`, or a game-specific
/// name answered by `special` (e.g. `perfect`, which needs the game's oracle).
pub fn player<'g, G: Notation + 'g>(
    name: &str,
    seed: u64,
    special: &mut dyn FnMut(&str, u64) -> Option<BoxedPlayer<'g, G>>,
) -> Result<BoxedPlayer<'g, G>> {
    let name = name.trim().to_ascii_lowercase();
    if let Some(p) = special(&name, seed) {
        return Ok(p);
    }
    Ok(match name.split_once(':') {
        None if name == "human" => Box::new(Human::new(std::io::stdin().lock(), std::io::stdout())),
        None if name == "random" => Box::new(Random::new(seed)),
        None if name == "search" => Box::new(Search::new(4, seed)),
        Some(("search", depth)) => Box::new(Search::new(
            depth
                .parse()
                .map_err(|_| anyhow!("search:{depth}: the depth must be a whole number"))?,
            seed,
        )),
        _ => bail!("unknown player '{name}' (players: human, random, search[:DEPTH], perfect)"),
    })
}

/// Plays one game in the terminal, showing the board after every move.
pub fn play_in_terminal<G: Notation>(game: &G, seats: &mut [Box<dyn Player<G> + '_>]) -> Result<Report> {
    let names: Vec<String> = seats.iter().map(|p| p.name()).collect();
    let mut refs: Vec<&mut dyn Player<G>> = seats
        .iter_mut()
        .map(|p| p.as_mut() as &mut dyn Player<G>)
        .collect();
    let mut before: Option<G::Position> = None;
    let record = play_match(game, game.start(), &mut refs, 100_000, |p, m| {
        if let (Some(m), Some(b)) = (m, &before) {
            println!(
                "{} played {}",
                game.player_name(game.to_move(b)),
                game.format_move(b, m)
            );
        }
        println!("{}", game.render(p));
        before = Some(p.clone());
    })?;
    let result = outcome_words(game, record.outcome);
    Ok(Report {
        text: format!("{result} after {} moves\n", record.moves.len()),
        json: json!({"result": result, "moves": record.moves.len(), "players": names}),
    })
}

/// Runs a tournament and reports each player's wins, draws and losses with percentages.
pub fn tournament_report<'p, G: Game>(
    players: &mut [Box<dyn Player<G> + 'p>],
    games: u64,
    show_progress: bool,
    each_game: impl FnMut(u64) -> (G, G::Position),
) -> Result<Report> {
    if games == 0 {
        bail!("a tournament needs at least one game");
    }
    let bar = bar(show_progress, games, "games");
    let result = tournament(players, games, each_game, |_| bar.inc(1))?;
    bar.finish_and_clear();
    Ok(standings_report(&result))
}

/// Text and JSON of a tournament's standings.
pub fn standings_report(result: &TournamentResult) -> Report {
    let pct = |n: u64| 100.0 * n as f64 / result.games as f64;
    let mut text = format!("{} games\n", result.games);
    text += &format!(
        "{:<12} {:>8} {:>8} {:>8} {:>8}\n",
        "player", "wins", "draws", "losses", "win %"
    );
    let mut rows = Vec::new();
    for s in &result.standings {
        text += &format!(
            "{:<12} {:>8} {:>8} {:>8} {:>7.1}%\n",
            s.name,
            s.wins,
            s.draws,
            s.losses,
            pct(s.wins)
        );
        rows.push(json!({
            "player": s.name, "wins": s.wins, "shared": s.shared, "draws": s.draws, "losses": s.losses,
            "win_pct": pct(s.wins), "draw_pct": pct(s.draws), "loss_pct": pct(s.losses),
        }));
    }
    Report {
        text,
        json: json!({"games": result.games, "players": rows}),
    }
}

/// A progress bar on stderr when it is a terminal and `show` is set; hidden otherwise.
pub fn bar(show: bool, len: u64, unit: &str) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{msg}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{eta}})"))
            .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Library progress reported on an indicatif bar.
pub struct BarProgress(pub ProgressBar);

impl Progress for BarProgress {
    fn start(&self, what: &str, len: u64) {
        self.0.set_message(what.to_string());
        self.0.set_length(len);
        self.0.set_position(0);
    }

    fn advance(&self, steps: u64) {
        self.0.inc(steps);
    }
}
