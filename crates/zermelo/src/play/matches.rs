//! Matches between players, and tournaments in which every player takes every seat
//! equally often.

use super::Player;
use crate::game::{Game, Outcome};
use crate::Error;

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchRecord<G: Game> {
    /// The moves in order.
    pub moves: Vec<G::Move>,
    /// The final position.
    pub last: G::Position,
    /// How it ended.
    pub outcome: Outcome,
}

/// Plays one game from `start`, seat `i` played by `players[i]`. `watch` sees every
/// position with the move that led to it. A game longer than `max_plies` is a draw.
pub fn play_match<G: Game>(
    game: &G,
    start: G::Position,
    players: &mut [&mut dyn Player<G>],
    max_plies: usize,
    mut watch: impl FnMut(&G::Position, Option<&G::Move>),
) -> Result<MatchRecord<G>, Error> {
    let mut p = start;
    let mut moves = Vec::new();
    watch(&p, None);
    loop {
        if let Some(outcome) = game.outcome(&p) {
            return Ok(MatchRecord {
                moves,
                last: p,
                outcome,
            });
        }
        if moves.len() >= max_plies {
            return Ok(MatchRecord {
                moves,
                last: p,
                outcome: Outcome::Draw,
            });
        }
        let seat = game.to_move(&p) as usize;
        let m = players[seat].choose(game, &p)?;
        p = game.play(&p, &m);
        watch(&p, Some(&m));
        moves.push(m);
    }
}

/// One player's record in a tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// The player's name.
    pub name: String,
    /// Games won outright.
    pub wins: u64,
    /// Games whose win was shared with others.
    pub shared: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// The result of a tournament.
#[derive(Clone, Debug)]
pub struct TournamentResult {
    /// Games played.
    pub games: u64,
    /// One standing per player, in the order given.
    pub standings: Vec<Standing>,
}

/// Plays `games` games between `players`; in game `i` seat `s` is taken by player
/// `(s + i) % n`, so each player starts equally often. `start` gives each game's start
/// position (it may vary, e.g. a random board size per game through a new game).
pub fn tournament<'p, G: Game>(
    players: &mut [Box<dyn Player<G> + 'p>],
    games: u64,
    mut each_game: impl FnMut(u64) -> (G, G::Position),
    mut after: impl FnMut(u64),
) -> Result<TournamentResult, Error> {
    let n = players.len();
    let mut standings: Vec<Standing> = players
        .iter()
        .map(|p| Standing {
            name: p.name(),
            ..Standing::default()
        })
        .collect();
    for i in 0..games {
        let (game, start) = each_game(i);
        let order: Vec<usize> = (0..n).map(|s| (s + i as usize) % n).collect();
        let mut seats: Vec<&mut dyn Player<G>> = players
            .iter_mut()
            .map(|p| p.as_mut() as &mut dyn Player<G>)
            .collect();
        seats.rotate_left(i as usize % n);
        let record = play_match(&game, start, &mut seats, 100_000, |_, _| {})?;
        for (seat, &who) in order.iter().enumerate() {
            let s = &mut standings[who];
            match record.outcome {
                Outcome::Win(w) if w as usize == seat => s.wins += 1,
                Outcome::Win(_) => s.losses += 1,
                Outcome::Draw => s.draws += 1,
                Outcome::Shared(mask) if mask >> seat & 1 == 1 => s.shared += 1,
                Outcome::Shared(_) => s.losses += 1,
            }
        }
        after(i);
    }
    Ok(TournamentResult { games, standings })
}
