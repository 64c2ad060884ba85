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

/// Results counted over games: wins outright, wins shared with other seats, draws,
/// losses, and points (a win 1, a draw 1/2, a win shared by `k` seats 1/`k`, a loss 0).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// Games played.
    pub games: u64,
    /// Games won outright.
    pub wins: u64,
    /// Games whose win was shared with others.
    pub shared: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Points.
    pub points: f64,
}

impl Results {
    /// Counts a game that ended in `outcome`, for `seat`.
    pub fn add(&mut self, outcome: Outcome, seat: usize) {
        self.games += 1;
        match outcome {
            Outcome::Win(w) if w as usize == seat => {
                self.wins += 1;
                self.points += 1.0;
            }
            Outcome::Draw => {
                self.draws += 1;
                self.points += 0.5;
            }
            Outcome::Shared(mask) if mask >> seat & 1 == 1 => {
                self.shared += 1;
                self.points += 1.0 / mask.count_ones() as f64;
            }
            Outcome::Win(_) | Outcome::Shared(_) => self.losses += 1,
        }
    }
}

/// One player's record in a tournament.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// The player's name.
    pub name: String,
    /// Its results over all seats.
    pub tally: Results,
    /// Games lost by forfeit (counted in the losses too).
    pub forfeits: u64,
    /// Why it forfeited, with the games forfeited for each reason, the first met first
    /// (at most [`REASONS_KEPT`]; the games of later reasons are counted in the last).
    pub forfeit_reasons: Vec<(String, u64)>,
}

/// The most reasons of forfeit a standing keeps apart.
pub const REASONS_KEPT: usize = 10;

impl Standing {
    /// Counts a game forfeited for `why`.
    fn forfeited(&mut self, why: &str) {
        self.forfeits += 1;
        let reasons = &mut self.forfeit_reasons;
        if let Some(i) = reasons.iter().position(|(w, _)| w == why) {
            reasons[i].1 += 1;
        } else if reasons.len() < REASONS_KEPT {
            reasons.push((why.to_string(), 1));
        } else {
            let last = reasons.last_mut().expect("reasons are kept");
            last.0 = "other reasons".into();
            last.1 += 1;
        }
    }
}

/// One seat's record in a tournament.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatRecord {
    /// The results of whoever sat there.
    pub tally: Results,
    /// The results there of each player, in the order given.
    pub players: Vec<Results>,
}

/// The result of a tournament.
#[derive(Clone, Debug)]
pub struct TournamentResult {
    /// Games played.
    pub games: u64,
    /// One standing per player, in the order given.
    pub standings: Vec<Standing>,
    /// One record per seat, the first player's first.
    pub seats: Vec<SeatRecord>,
    /// `beat[i][j]`: the games player `i` won against player `j`, pairwise: a winner beats
    /// every loser; players sharing a win, or drawing, tie, half a win each way.
    pub beat: Vec<Vec<f64>>,
}

/// Adds the pairwise results of a game that ended in `outcome`, seat `s` played by
/// `order[s]`, to `beat` (see [`TournamentResult::beat`]).
fn add_pairs(beat: &mut [Vec<f64>], order: &[usize], outcome: Outcome) {
    let won = |s: usize| match outcome {
        Outcome::Win(w) => w as usize == s,
        Outcome::Shared(mask) => mask >> s & 1 == 1,
        Outcome::Draw => true,
    };
    for (a, &i) in order.iter().enumerate() {
        for (b, &j) in order.iter().enumerate() {
            if a != b && won(a) {
                beat[i][j] += if won(b) { 0.5 } else { 1.0 };
            }
        }
    }
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
    let seat = SeatRecord {
        tally: Results::default(),
        players: vec![Results::default(); n],
    };
    let mut seats = vec![seat; n];
    let mut beat = vec![vec![0.0; n]; n];
    for i in 0..games {
        let (game, start) = each_game(i);
        let order: Vec<usize> = (0..n).map(|s| (s + i as usize) % n).collect();
        let mut seated: Vec<&mut dyn Player<G>> = players
            .iter_mut()
            .map(|p| p.as_mut() as &mut dyn Player<G>)
            .collect();
        seated.rotate_left(i as usize % n);
        let record = play_match(&game, start, &mut seated, 100_000, |_, _| {})?;
        for (seat, &who) in order.iter().enumerate() {
            let s = &mut standings[who];
            if let Some((_, why)) = record.forfeit.as_ref().filter(|(f, _)| *f as usize == seat) {
                s.forfeited(why);
            }
            s.tally.add(record.outcome, seat);
            seats[seat].tally.add(record.outcome, seat);
            seats[seat].players[who].add(record.outcome, seat);
        }
        add_pairs(&mut beat, &order, record.outcome);
        after(i)?;
    }
    Ok(TournamentResult {
        games,
        standings,
        seats,
        beat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_share_a_win_and_halve_a_draw() {
        let mut r = Results::default();
        r.add(Outcome::Win(1), 1);
        r.add(Outcome::Win(0), 1);
        r.add(Outcome::Draw, 1);
        r.add(Outcome::Shared(0b111), 1);
        r.add(Outcome::Shared(0b101), 1);
        let want = (5, 1, 1, 1, 2);
        assert_eq!((r.games, r.wins, r.shared, r.draws, r.losses), want);
        assert!((r.points - (1.0 + 0.5 + 1.0 / 3.0)).abs() < 1e-12);
    }

    #[test]
    fn a_winner_beats_every_loser_and_winners_tie() {
        // Seats 0, 1, 2 played by players 2, 0, 1.
        let order = [2, 0, 1];
        let mut beat = vec![vec![0.0; 3]; 3];
        add_pairs(&mut beat, &order, Outcome::Win(0));
        assert_eq!(beat, [[0.0; 3], [0.0; 3], [1.0, 1.0, 0.0]]);
        let mut beat = vec![vec![0.0; 3]; 3];
        add_pairs(&mut beat, &order, Outcome::Shared(0b011));
        assert_eq!(beat, [[0.0, 1.0, 0.5], [0.0; 3], [0.5, 1.0, 0.0]]);
        let mut beat = vec![vec![0.0; 3]; 3];
        add_pairs(&mut beat, &order, Outcome::Draw);
        assert_eq!(beat, [[0.0, 0.5, 0.5], [0.5, 0.0, 0.5], [0.5, 0.5, 0.0]]);
    }
}
