//! Matches between players, and tournaments in which every player takes every seat
//! equally often.

use super::Player;
use crate::game::{Game, Outcome, PlayerId};
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
    /// The seat that forfeited the game, and why.
    pub forfeit: Option<(PlayerId, String)>,
}

/// Plays one game from `start`, seat `i` played by `players[i]`. `watch` sees every
/// position with the move that led to it. A game longer than `max_plies` is a draw. A
/// player that forfeits ([`Error::Forfeit`]) loses: the others share the win.
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
                forfeit: None,
            });
        }
        if moves.len() >= max_plies {
            return Ok(MatchRecord {
                moves,
                last: p,
                outcome: Outcome::Draw,
                forfeit: None,
            });
        }
        let seat = game.to_move(&p);
        let m = match players[seat as usize].choose(game, &p) {
            Err(Error::Forfeit { why, .. }) => {
                let others = (0..game.players() as u32).filter(|&s| s != seat as u32);
                let outcome = match others.clone().collect::<Vec<_>>()[..] {
                    [winner] => Outcome::Win(winner as PlayerId),
                    _ => Outcome::Shared(others.fold(0, |mask, s| mask | 1 << s)),
                };
                return Ok(MatchRecord {
                    moves,
                    last: p,
                    outcome,
                    forfeit: Some((seat, why)),
                });
            }
            chosen => chosen?,
        };
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
    /// Games lost by forfeit (counted in `losses` too).
    pub forfeits: u64,
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
/// position (it may vary, e.g. a random board size per game through a new game); `after`
/// sees each game's number when it ends, and stops the tournament with an error.
pub fn tournament<'p, G: Game>(
    players: &mut [Box<dyn Player<G> + 'p>],
    games: u64,
    mut each_game: impl FnMut(u64) -> (G, G::Position),
    mut after: impl FnMut(u64) -> Result<(), Error>,
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
            if record.forfeit.as_ref().is_some_and(|(f, _)| *f as usize == seat) {
                s.forfeits += 1;
            }
            match record.outcome {
                Outcome::Win(w) if w as usize == seat => s.wins += 1,
                Outcome::Win(_) => s.losses += 1,
                Outcome::Draw => s.draws += 1,
                Outcome::Shared(mask) if mask >> seat & 1 == 1 => s.shared += 1,
                Outcome::Shared(_) => s.losses += 1,
            }
        }
        after(i)?;
    }
    Ok(TournamentResult { games, standings })
}
