//! What every session shares: where play starts, replaying moves, players by name, the result of a game in
//! words, and random playouts.

use super::{Big, Budget, MoveValue, Options, PlayerInfo, PositionView, Verdict};
use crate::game::{Notation, Outcome};
use crate::play::random::{Random, Sometimes};
use crate::play::search::Lookahead;
use crate::play::Player;
use crate::Error;

/// The longest game a match plays before calling it a draw.
pub const MAX_PLIES: usize = 100_000;

/// The deepest `search:DEPTH` player.
const MAX_SEARCH_DEPTH: u32 = 12;

/// Where play starts in `game` under `opts`: the position [`Options::position`] names in
/// the game's notation, else the game's start. A malformed or impossible position is an
/// [`Error::Position`] saying what is wrong.
pub fn start<G: Notation>(game: &G, opts: &Options) -> Result<G::Position, Error> {
    let Some(text) = opts.position.as_deref() else {
        return Ok(game.start());
    };
    game.parse_position(text).map_err(|e| match e {
        e @ Error::Position { .. } => e,
        other => Error::bad_position(text, other.to_string()),
    })
}

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

/// How the session makes its own players (`perfect` and the game's others) and players of
/// your own, from a name as given: `None` when the name is not one of them.
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

/// A player by name that needs no person: the session's own, `random` or `search[:DEPTH]`
/// (within `budget`: it stops at its deadline or cancel flag, and refuses a search too
/// deep for its seconds, see [`Player::check`]).
pub fn program<'g, G: Notation + 'g>(
    name: &str,
    seed: u64,
    special: &Special<'g, G>,
    known: &[PlayerInfo],
    budget: &Budget,
) -> Result<Box<dyn Player<G> + 'g>, Error> {
    let name = name.trim();
    if let Some(p) = special(name, seed) {
        return p;
    }
    let typed = name;
    let name = name.to_ascii_lowercase();
    if name.starts_with("cmd:") {
        // A program of your own that reached here is one this front end does not run, or
        // one named in capitals.
        return Err(Error::Unsupported(format!(
            "'{typed}': name a program of your own cmd:COMMAND, in lower case"
        )));
    }
    // `NAME:P` only where P is a number or NAME a player (`mcts:5s` is not `mcts` at 5s).
    let sometimes = name.rsplit_once(':').filter(|(inner, p)| {
        *inner != "search"
            && (p.parse::<f64>().is_ok() || program(inner, seed, special, known, budget).is_ok())
    });
    if let Some((inner, p)) = sometimes {
        let p: f64 = p
            .parse()
            .ok()
            .filter(|p| (0.0..=1.0).contains(p))
            .ok_or_else(|| {
                Error::Unsupported(format!("{name}: the probability must be a number from 0 to 1"))
            })?;
        let inner = program(inner, seed, special, known, budget)?;
        return Ok(Box::new(Sometimes::new(inner, p, seed)));
    }
    Ok(match name.split_once(':') {
        None if name == "random" => Box::new(Random::new(seed)),
        None if name == "search" => Box::new(Lookahead::new(4, seed).with_budget(budget.clone())),
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
            Box::new(Lookahead::new(depth, seed).with_budget(budget.clone()))
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

/// The view of `p`, a position of `g` in the game of `spec`: its board, picture and mover,
/// how it ended if it did, with `verdict` and the `moves` listed (all of them: set
/// `moves_total`, `points` and `details` where there is more to say).
pub fn view<G: Notation>(
    spec: &str,
    g: &G,
    p: &G::Position,
    verdict: Verdict,
    moves: Vec<MoveValue>,
) -> PositionView {
    let outcome = g.outcome(p);
    PositionView {
        game: spec.to_string(),
        position: g.format_position(p),
        board: g.render(p),
        picture: g.picture(p),
        to_move: g.player_name(g.to_move(p)),
        terminal: outcome.is_some(),
        result: outcome.map(|o| outcome_words(g, o)),
        verdict,
        points: None,
        moves_total: Big(moves.len() as u128),
        moves,
        details: Vec::new(),
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
