//! Self-play estimates, for games too big to solve: many games with the same player (or
//! one named per seat) in every seat, and how each seat fares: its shares of wins, draws,
//! shared wins and points with 95 % intervals, the length of a game, and in score games
//! the winner's margin and the first mover's advantage in points.
//!
//! Game `i` is played from its own seed, `seed + i`, so that the totals depend neither on
//! the order the games are played in, nor on the threads, nor on the processes: games are
//! played in rounds of [`ROUND`], a round's games on every core (and, under a
//! [`Partition`], shared out between processes, every process then getting all results),
//! and tallied in their order.

use std::ops::Range;

use rayon::prelude::*;
use serde::Serialize;

use super::stats::{Mean, Share, Spread};
use crate::game::Outcome;
use crate::solve::levels::{share, Partition};
use crate::Error;

/// Games a round plays: how often the intervals are looked at under [`Plan::until`],
/// whatever the threads or processes.
pub const ROUND: u64 = 100;

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The outcome.
    pub outcome: Outcome,
    /// Moves made.
    pub plies: u32,
    /// The final points by seat, in score games.
    pub points: Option<Vec<i32>>,
}

/// How many games to play, and from which seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The most games.
    pub games: u64,
    /// Stop after the first round at which every seat's points-share interval is narrower
    /// than this (a share, strictly between 0 and 1).
    pub until: Option<f64>,
    /// Game `i` is played from the seed `seed + i`.
    pub seed: u64,
}

impl Plan {
    /// Refuses no games, or an `until` not strictly between 0 and 1.
    pub fn check(&self) -> Result<(), Error> {
        if self.games == 0 {
            return Err(Error::Unsupported("self-play needs at least one game".into()));
        }
        if let Some(w) = self.until.filter(|w| !(*w > 0.0 && *w < 1.0)) {
            return Err(Error::Unsupported(format!(
                "the interval width to reach must be more than 0 and less than 1, not {w}"
            )));
        }
        Ok(())
    }

    /// The seed of game `i`.
    pub fn game_seed(&self, i: u64) -> u64 {
        self.seed.wrapping_add(i)
    }
}

/// The seed of seat `seat` in the game of seed `game`: unrelated to every other seat's and
/// game's (seat 1 of one game does not replay seat 0 of the next).
pub fn seat_seed(game: u64, seat: usize) -> u64 {
    splitmix(splitmix(game) ^ seat as u64)
}

/// SplitMix64's mixing of `x`: a bijection scattering nearby numbers.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The results of games added one by one, in the order of their numbers.
#[derive(Clone, Debug)]
pub struct Totals {
    seats: usize,
    games: u64,
    wins: Vec<u64>,
    shared: Vec<u64>,
    draws: u64,
    /// Points by seat: 1 a win, 1/k a win shared by k, 1/seats a draw.
    points: Vec<f64>,
    plies: Spread,
    margin: Spread,
    advantage: Spread,
}

impl Totals {
    /// No games yet, of a game of `seats` seats.
    pub fn new(seats: usize) -> Totals {
        Totals {
            seats,
            games: 0,
            wins: vec![0; seats],
            shared: vec![0; seats],
            draws: 0,
            points: vec![0.0; seats],
            plies: Spread::default(),
            margin: Spread::default(),
            advantage: Spread::default(),
        }
    }

    /// Adds one game.
    pub fn add(&mut self, g: &GameResult) {
        self.games += 1;
        match g.outcome {
            Outcome::Win(w) => {
                self.wins[w as usize] += 1;
                self.points[w as usize] += 1.0;
            }
            Outcome::Draw => {
                self.draws += 1;
                self.points.iter_mut().for_each(|p| *p += 1.0 / self.seats as f64);
            }
            Outcome::Shared(mask) => {
                let k = mask.count_ones() as f64;
                for s in (0..self.seats).filter(|s| mask >> s & 1 == 1) {
                    self.shared[s] += 1;
                    self.points[s] += 1.0 / k;
                }
            }
        }
        self.plies.add(g.plies as f64);
        if let Some(p) = &g.points {
            let mut sorted = p.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            self.margin.add(f64::from(sorted[0] - sorted[1]));
            let others: f64 = p[1..].iter().map(|&x| f64::from(x)).sum::<f64>() / (p.len() - 1) as f64;
            self.advantage.add(f64::from(p[0]) - others);
        }
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Seat `seat`'s share of the points, with its interval.
    pub fn points_share(&self, seat: usize) -> Share {
        Share::wilson(self.points[seat], self.games)
    }

    /// The widest of the seats' points-share intervals.
    pub fn widest(&self) -> f64 {
        (0..self.seats)
            .map(|s| self.points_share(s).width())
            .fold(0.0, f64::max)
    }

    /// The estimate of `game` (a spec) these games give, `players` by seat, played under
    /// `plan` in `seconds`.
    pub fn estimate(&self, game: &str, players: Vec<String>, plan: &Plan, seconds: f64) -> Estimate {
        let n = self.games;
        let seats = (0..self.seats)
            .map(|s| SeatEstimate {
                seat: s as u8,
                player: players[s].clone(),
                wins: self.wins[s],
                shared: self.shared[s],
                draws: self.draws,
                losses: n - self.wins[s] - self.shared[s] - self.draws,
                win: Share::wilson(self.wins[s] as f64, n),
                draw: Share::wilson(self.draws as f64, n),
                shared_win: Share::wilson(self.shared[s] as f64, n),
                points: self.points_share(s),
            })
            .collect();
        let scored = (self.margin.count() > 0).then_some(());
        Estimate {
            game: game.to_string(),
            players,
            games: n,
            most_games: plan.games,
            until: plan.until,
            reached: plan.until.map(|w| self.widest() < w),
            seed: plan.seed,
            seats,
            draws: Share::wilson(self.draws as f64, n),
            plies: self.plies.summary(),
            margin: scored.map(|()| self.margin.summary()),
            first_move_advantage: scored.map(|()| self.advantage.summary()),
            seconds,
            games_per_second: if seconds > 0.0 { n as f64 / seconds } else { 0.0 },
        }
    }
}

/// How one seat fared in self-play.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SeatEstimate {
    /// The seat, from 0 (the first mover).
    pub seat: u8,
    /// The player in it.
    pub player: String,
    /// Games it won alone.
    pub wins: u64,
    /// Games whose win it shared.
    pub shared: u64,
    /// Games nobody won.
    pub draws: u64,
    /// Games others won.
    pub losses: u64,
    /// Its share of wins alone.
    pub win: Share,
    /// Its share of draws.
    pub draw: Share,
    /// Its share of shared wins.
    pub shared_win: Share,
    /// Its share of the points: 1 a win, 1/k a win shared by k, 1/seats a draw (1/2 in
    /// two-player games), so that the seats' shares add up to 1.
    pub points: Share,
}

/// A self-play estimate: how every seat fares, with 95 % intervals.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Estimate {
    /// The game spec.
    pub game: String,
    /// The players by seat.
    pub players: Vec<String>,
    /// Games played.
    pub games: u64,
    /// The most games the plan allowed.
    pub most_games: u64,
    /// The points-share interval width asked for, if any.
    pub until: Option<f64>,
    /// Whether every seat's points-share interval is narrower than `until` (`None`
    /// without `until`).
    pub reached: Option<bool>,
    /// Game `i` was played from the seed `seed + i`.
    pub seed: u64,
    /// One row per seat, in seat order.
    pub seats: Vec<SeatEstimate>,
    /// The share of games nobody won.
    pub draws: Share,
    /// The length of a game in plies.
    pub plies: Mean,
    /// In score games: the winner's lead in points over the next best (0 on a tie).
    pub margin: Option<Mean>,
    /// In score games: the first seat's points minus the mean of the others'.
    pub first_move_advantage: Option<Mean>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Games played per second of wall time.
    pub games_per_second: f64,
}

/// Plays `plan`'s games of a game of `seats` seats by `play` (game `i`, from the seed
/// [`Plan::game_seed`]), in rounds of [`ROUND`] on every core, this process playing its
/// part of each round under `partition`; stops early when [`Plan::until`] is met. The
/// totals are the same whatever the threads and processes. The first error stops it.
pub fn run(
    plan: &Plan,
    seats: usize,
    partition: &dyn Partition,
    play: impl Fn(u64) -> Result<GameResult, Error> + Sync,
) -> Result<Totals, Error> {
    plan.check()?;
    let mut totals = Totals::new(seats);
    let mut next = 0;
    while next < plan.games {
        let round = next..(next + ROUND).min(plan.games);
        for g in play_round(round.clone(), seats, partition, &play)? {
            totals.add(&g);
        }
        next = round.end;
        if plan.until.is_some_and(|w| totals.widest() < w) {
            break;
        }
    }
    Ok(totals)
}

/// Every game of `round`, in order: this process plays its part on every core, and the
/// parts of all processes are exchanged.
fn play_round(
    round: Range<u64>,
    seats: usize,
    partition: &dyn Partition,
    play: &(impl Fn(u64) -> Result<GameResult, Error> + Sync),
) -> Result<Vec<GameResult>, Error> {
    let (index, count) = partition.place();
    let len = (round.end - round.start) as usize;
    let mine = share(len, index, count);
    let played = mine
        .into_par_iter()
        .map(|k| play(round.start + k as u64))
        .collect::<Result<Vec<_>, Error>>()?;
    if count == 1 {
        return Ok(played);
    }
    // The partition exchanges parts of one length: each padded to the longest.
    let size = record_bytes(seats);
    let most = len.div_ceil(count);
    let mut bytes = vec![0; most * size];
    for (g, slot) in played.iter().zip(bytes.chunks_mut(size)) {
        encode(g, slot);
    }
    let all = partition.collect(&bytes)?;
    (0..count)
        .flat_map(|p| {
            let part = share(len, p, count).len();
            all[p * most * size..].chunks(size).take(part)
        })
        .map(|r| decode(r, seats))
        .collect()
}

/// Bytes a game's result takes between processes: the outcome's kind and seat or mask,
/// the plies, whether there are points, the points.
fn record_bytes(seats: usize) -> usize {
    10 + 4 * seats
}

fn encode(g: &GameResult, out: &mut [u8]) {
    let (kind, who) = match g.outcome {
        Outcome::Win(w) => (1, u32::from(w)),
        Outcome::Draw => (2, 0),
        Outcome::Shared(mask) => (3, mask),
    };
    out[0] = kind;
    out[1..5].copy_from_slice(&who.to_le_bytes());
    out[5..9].copy_from_slice(&g.plies.to_le_bytes());
    out[9] = u8::from(g.points.is_some());
    for (p, slot) in g.points.iter().flatten().zip(out[10..].chunks_mut(4)) {
        slot.copy_from_slice(&p.to_le_bytes());
    }
}

fn decode(r: &[u8], seats: usize) -> Result<GameResult, Error> {
    let word = |at: usize| u32::from_le_bytes(r[at..at + 4].try_into().expect("four bytes"));
    let damaged = || Error::Io("a game's result from another process is damaged".into());
    let outcome = match (r[0], word(1)) {
        (1, w) if (w as usize) < seats => Outcome::Win(w as u8),
        (2, 0) => Outcome::Draw,
        (3, mask) if mask != 0 && mask >> seats == 0 => Outcome::Shared(mask),
        _ => return Err(damaged()),
    };
    let points = match r[9] {
        0 => None,
        1 => Some((0..seats).map(|s| word(10 + 4 * s) as i32).collect()),
        _ => return Err(damaged()),
    };
    Ok(GameResult {
        outcome,
        plies: word(5),
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::levels::Alone;

    /// A made-up game result of game `i`, from its seed alone.
    fn made_up(i: u64) -> GameResult {
        let s = seat_seed(i, 0);
        GameResult {
            outcome: match s % 4 {
                0 => Outcome::Win(0),
                1 => Outcome::Win(2),
                2 => Outcome::Draw,
                _ => Outcome::Shared(0b011),
            },
            plies: (s % 50) as u32,
            points: Some(vec![(s % 7) as i32, (s % 5) as i32 - 3, (s % 3) as i32]),
        }
    }

    #[test]
    fn results_go_between_processes_unchanged() {
        for i in 0..200 {
            let g = made_up(i);
            let mut bytes = vec![0; record_bytes(3)];
            encode(&g, &mut bytes);
            assert_eq!(decode(&bytes, 3).unwrap(), g);
        }
        let plain = GameResult {
            outcome: Outcome::Win(1),
            plies: 9,
            points: None,
        };
        let mut bytes = vec![0; record_bytes(2)];
        encode(&plain, &mut bytes);
        assert_eq!(decode(&bytes, 2).unwrap(), plain);
        bytes[0] = 7;
        assert!(decode(&bytes, 2).is_err());
    }

    #[test]
    fn shares_add_up_to_one_and_until_stops_at_a_round() {
        let plan = Plan {
            games: 10_000,
            until: Some(0.2),
            seed: 5,
        };
        let totals = run(&plan, 3, &Alone, |i| Ok(made_up(i))).unwrap();
        assert_eq!(totals.games() % ROUND, 0);
        assert!(totals.games() < 10_000 && totals.widest() < 0.2);
        let e = totals.estimate("made-up", vec!["a".into(); 3], &plan, 1.0);
        let total: f64 = e.seats.iter().map(|s| s.points.share).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert_eq!(e.reached, Some(true));
        assert!(e
            .seats
            .iter()
            .all(|s| s.wins + s.shared + s.draws + s.losses == e.games));
        // Seat 2 never shares a win; seats 0 and 1 share them.
        assert_eq!(e.seats[2].shared, 0);
        assert_eq!(e.seats[0].shared, e.seats[1].shared);
        assert!(e.margin.is_some() && e.first_move_advantage.is_some());
    }

    #[test]
    fn bad_plans_are_refused() {
        let plan = |games, until| Plan {
            games,
            until,
            seed: 0,
        };
        assert!(plan(0, None).check().is_err());
        for w in [0.0, 1.0, -0.5, 2.0, f64::NAN] {
            assert!(plan(10, Some(w)).check().is_err(), "{w}");
        }
        assert!(plan(10, Some(0.05)).check().is_ok());
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let plan = Plan {
            games: 1000,
            until: None,
            seed: 0,
        };
        let stopped = run(&plan, 3, &Alone, |i| match i {
            150 => Err(Error::Cancelled),
            _ => Ok(made_up(i)),
        });
        assert!(matches!(stopped, Err(Error::Cancelled)));
    }
}
