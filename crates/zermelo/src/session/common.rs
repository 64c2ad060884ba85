//! What every session strategy shares: replaying moves, players by name, matches and
//! tournaments with typed results.

use std::cell::RefCell;

use super::{GameRecord, PlayIo, PlayerInfo, StandingRow, Standings};
use crate::game::{Game, Notation, Outcome};
use crate::play::human::Human;
use crate::play::random::{Random, Sometimes};
use crate::play::search::Search;
use crate::play::{play_match, tournament, Player};
use crate::Error;

/// The longest game a match plays before calling it a draw.
const MAX_PLIES: usize = 100_000;

/// The deepest `search:DEPTH` player.
const MAX_SEARCH_DEPTH: u32 = 12;

/// Plays `moves` from `start`; an illegal or malformed move is an error naming it and its place.
pub fn replay<G: Notation>(game: &G, start: G::Position, moves: &[String]) -> Result<G::Position, Error> {
    let mut p = start;
    for (i, text) in moves.iter().enumerate() {
        if game.outcome(&p).is_some() {
            return Err(Error::bad_move(
                text,
                format!("move {}: the game is already over", i + 1),
            ));
        }
        p = match game.parse_move(&p, text) {
            Ok(m) => game.play(&p, &m),
            Err(Error::Move { text, why }) => {
                return Err(Error::bad_move(text, format!("move {}: {why}", i + 1)))
            }
            Err(e) => return Err(e),
        };
    }
    Ok(p)
}

/// The players every game offers, after the game's own.
pub fn common_players() -> Vec<PlayerInfo> {
    vec![
        PlayerInfo {
            name: "human",
            help: "you, typing moves in the terminal",
        },
        PlayerInfo {
            name: "random",
            help: "a uniformly random legal move",
        },
        PlayerInfo {
            name: "NAME:P",
            help: "the player NAME (e.g. perfect:0.8) with probability P, else a random move",
        },
        PlayerInfo {
            name: "search[:DEPTH]",
            help: "depth-limited alpha-beta with the game's heuristic (depth 4)",
        },
    ]
}

/// How the session makes its own players (`perfect` and the game's others): `None`
/// when the name is not one of them.
pub type Special<'g, G> = dyn Fn(&str, u64) -> Option<Result<Box<dyn Player<G> + 'g>, Error>> + 'g;

/// Checks that `names` fill the `seats` of `spec` exactly.
pub fn check_seats(spec: &str, seats: usize, names: &[String], what: &str) -> Result<(), Error> {
    if names.len() != seats {
        return Err(Error::Unsupported(format!(
            "{spec} has {seats} seats, so {what} takes {seats} players, not {} ({})",
            names.len(),
            names.join(",")
        )));
    }
    Ok(())
}

/// A player by name that needs no person: the session's own, `random` or `search[:DEPTH]`.
pub fn program<'g, G: Notation + 'g>(
    name: &str,
    seed: u64,
    special: &Special<'g, G>,
    known: &[PlayerInfo],
) -> Result<Box<dyn Player<G> + 'g>, Error> {
    let name = name.trim().to_ascii_lowercase();
    if let Some(p) = special(&name, seed) {
        return p;
    }
    if let Some((inner, p)) = name.rsplit_once(':').filter(|(inner, _)| *inner != "search") {
        let p: f64 = p
            .parse()
            .ok()
            .filter(|p| (0.0..=1.0).contains(p))
            .ok_or_else(|| {
                Error::Unsupported(format!("{name}: the probability must be a number from 0 to 1"))
            })?;
        let inner = program(inner, seed, special, known)?;
        return Ok(Box::new(Sometimes::new(inner, p, seed)));
    }
    Ok(match name.split_once(':') {
        None if name == "random" => Box::new(Random::new(seed)),
        None if name == "search" => Box::new(Search::new(4, seed)),
        Some(("search", depth)) => {
            let depth: u32 = depth
                .parse()
                .ok()
                .filter(|d| (1..=MAX_SEARCH_DEPTH).contains(d))
                .ok_or_else(|| {
                    Error::Unsupported(format!(
                        "search:{depth}: the depth must be a whole number from 1 to {MAX_SEARCH_DEPTH}"
                    ))
                })?;
            Box::new(Search::new(depth, seed))
        }
        _ => {
            let names: Vec<&str> = known.iter().map(|p| p.name).collect();
            return Err(Error::Unsupported(format!(
                "unknown player '{name}' (players: {})",
                names.join(", ")
            )));
        }
    })
}

/// The players a session offers, and the matches they play: one per session strategy,
/// built with the strategy's own players (`special`) and its list of players.
pub struct Roster<'g, G: Game> {
    /// The spec, for messages and results.
    pub spec: &'g str,
    /// The seats of the game.
    pub seats: usize,
    /// The strategy's own players.
    pub special: Box<Special<'g, G>>,
    /// Every player the session offers, for messages.
    pub known: Vec<PlayerInfo>,
}

impl<'g, G: Notation + 'g> Roster<'g, G> {
    /// Plays `games` games between the named players from the games `each_game` deals,
    /// each player taking each seat equally often; `after` is called after every game.
    pub fn tournament(
        &self,
        names: &[String],
        games: u64,
        seed: u64,
        each_game: impl FnMut(u64) -> (G, G::Position),
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        check_seats(self.spec, self.seats, names, "a tournament")?;
        if games == 0 {
            return Err(Error::Unsupported("a tournament needs at least one game".into()));
        }
        if names.iter().any(|n| n.trim().eq_ignore_ascii_case("human")) {
            return Err(Error::Unsupported(
                "a tournament is between programs; play against one with `zermelo play`".into(),
            ));
        }
        let mut players = names
            .iter()
            .enumerate()
            .map(|(i, n)| program(n, seed.wrapping_add(i as u64), self.special.as_ref(), &self.known))
            .collect::<Result<Vec<_>, Error>>()?;
        let result = tournament(&mut players, games, each_game, after)?;
        let pct = |n: u64| 100.0 * n as f64 / result.games as f64;
        Ok(Standings {
            game: self.spec.to_string(),
            games: result.games,
            players: result
                .standings
                .iter()
                .map(|s| StandingRow {
                    player: s.name.clone(),
                    wins: s.wins,
                    shared: s.shared,
                    draws: s.draws,
                    losses: s.losses,
                    win_pct: pct(s.wins),
                    shared_pct: pct(s.shared),
                    draw_pct: pct(s.draws),
                    loss_pct: pct(s.losses),
                })
                .collect(),
            details: Vec::new(),
        })
    }

    /// Plays one game of `game` from its start between the named players, showing every
    /// position through `io`; `points` tells the final points in score games.
    pub fn play(
        &self,
        game: &G,
        names: &[String],
        seed: u64,
        points: impl Fn(&G::Position) -> Option<Vec<i32>>,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        check_seats(self.spec, self.seats, names, "a game")?;
        let shared = RefCell::new(io);
        let mut seats: Vec<Box<dyn Player<G> + '_>> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            if name.trim().eq_ignore_ascii_case("human") {
                seats.push(Box::new(Seat { io: &shared }));
            } else {
                seats.push(program(
                    name,
                    seed.wrapping_add(i as u64),
                    self.special.as_ref(),
                    &self.known,
                )?);
            }
        }
        let labels: Vec<String> = seats.iter().map(|p| p.name()).collect();
        let mut refs: Vec<&mut dyn Player<G>> = seats
            .iter_mut()
            .map(|p| p.as_mut() as &mut dyn Player<G>)
            .collect();
        let mut before: Option<G::Position> = None;
        let mut moves = Vec::new();
        let record = play_match(game, game.start(), &mut refs, MAX_PLIES, |p, m| {
            let mut line = String::new();
            if let (Some(m), Some(b)) = (m, &before) {
                let text = game.format_move(b, m);
                line += &format!("{} played {text}\n", game.player_name(game.to_move(b)));
                moves.push(text);
            }
            line += &game.render(p);
            let mut io = shared.borrow_mut();
            (io.show)(&line);
            before = Some(p.clone());
        })?;
        Ok(GameRecord {
            game: self.spec.to_string(),
            players: labels,
            moves,
            result: outcome_words(game, record.outcome),
            points: points(&record.last),
        })
    }

    /// The move the player `name` makes in `game` after `moves` from the start.
    pub fn bot_move(&self, game: &G, moves: &[String], name: &str, seed: u64) -> Result<String, Error> {
        let p = replay(game, game.start(), moves)?;
        if game.outcome(&p).is_some() {
            return Err(Error::bad_position(moves.join(","), "the game is over"));
        }
        let mut player = program(name, seed, self.special.as_ref(), &self.known)?;
        let m = player.choose(game, &p)?;
        Ok(game.format_move(&p, &m))
    }
}

/// A human at a seat, reading from the shared terminal of a game.
struct Seat<'a, 'io> {
    io: &'a RefCell<&'a mut PlayIo<'io>>,
}

impl<G: Notation> Player<G> for Seat<'_, '_> {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let mut io = self.io.borrow_mut();
        let io = &mut **io;
        Human::new(&mut *io.input, &mut *io.prompts).choose(game, p)
    }
}

/// The result of a finished game in words.
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

/// Plays a random game of `game` from `start`, checking that every move and position
/// round-trips through the game's notation and that the game ends; the number of moves.
pub fn playout<G: Notation>(game: &G, start: G::Position, seed: u64) -> Result<usize, Error> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut p = start;
    let mut plies = 0;
    loop {
        let text = game.format_position(&p);
        if game.parse_position(&text).ok().as_ref() != Some(&p) {
            return Err(Error::bad_position(
                text,
                "does not read back as the same position",
            ));
        }
        if game.outcome(&p).is_some() {
            return Ok(plies);
        }
        if plies >= MAX_PLIES {
            return Err(Error::bad_position(
                text,
                format!("the game goes on past {MAX_PLIES} moves"),
            ));
        }
        let moves = game.legal_moves(&p);
        let m = moves
            .choose(&mut rng)
            .ok_or_else(|| Error::bad_position(&text, "a live position without a move"))?;
        let name = game.format_move(&p, m);
        if game.parse_move(&p, &name).ok().as_ref() != Some(m) {
            return Err(Error::bad_move(name, "does not read back as the same move"));
        }
        p = game.play(&p, m);
        plies += 1;
    }
}
