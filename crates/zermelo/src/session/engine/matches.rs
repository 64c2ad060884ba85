//! Games between players: one game with people at the terminal, tournaments, self-play.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use crate::analysis::rating;
use crate::analysis::selfplay::{self, Estimate, GameResult, Plan};
use crate::analysis::stats::Share;
use crate::game::{Game, Notation, PlayerId};
use crate::play::human::Human;
use crate::play::matches::TournamentResult;
use crate::play::{play_match, tournament, Player};
use crate::session::common::{self, check_seats, outcome_words, program, MAX_PLIES};
use crate::session::{
    Budget, Fact, ForfeitReason, GameRecord, Options, PlayIo, RatingRow, SeatPlayer, SeatResults, SeatRow,
    Session, StandingRow, Standings,
};
use crate::Error;

use super::{GameSession, Strategy};

/// The game of each tournament game, and where it starts, by its number.
type Games<'a, G> = Box<dyn FnMut(u64) -> (G, <G as Game>::Position) + 'a>;
/// A fixed start for every game of a run: the game and the position; `None` when each
/// game starts from its own start.
type FixedStart<'a, G> = Option<(&'a G, <G as Game>::Position)>;

impl<S: Strategy> GameSession<S> {
    /// The start of every game of `what` (a tournament, self-play) between the programs
    /// `names`: the session's game and `opts`' position when one is given (it fixes the
    /// board, so nothing is dealt), else `None` (each game starts where the game or its
    /// dealt board does); humans are refused, and the start is checked.
    pub(super) fn programs_start(
        &self,
        names: &[String],
        what: &str,
        opts: &Options,
    ) -> Result<FixedStart<'_, S::Game>, Error> {
        if names.iter().any(|n| n.trim().eq_ignore_ascii_case("human")) {
            return Err(Error::Unsupported(format!(
                "{what} is between programs; play against one with `zermelo play`"
            )));
        }
        let from = match opts.position {
            Some(_) => {
                let game = self.strategy.game(&format!("{what} from a position"))?;
                Some((game, common::start(game, opts)?))
            }
            None => None,
        };
        match (&from, self.strategy.game(what)) {
            (Some((_, start)), _) => self.strategy.check_start(start)?,
            (None, Ok(game)) => self.strategy.check_start(&game.start())?,
            // A strategy without one game deals each.
            (None, Err(_)) => {}
        }
        Ok(from)
    }

    pub(super) fn tournament_of(
        &self,
        names: &[String],
        games: u64,
        seed: u64,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        check_seats(self.spec(), self.seats(), names, "a tournament")?;
        if games == 0 {
            return Err(Error::Unsupported("a tournament needs at least one game".into()));
        }
        let from = self.programs_start(names, "a tournament", opts)?;
        let from_text = from.as_ref().map(|(g, p)| g.format_position(p));
        let special = self.special(opts);
        let known = self.players();
        let mut players = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                program(
                    n,
                    seed.wrapping_add(i as u64),
                    special.as_ref(),
                    &known,
                    &opts.budget,
                )
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let mut deal: Games<'_, S::Game> = match from {
            Some((game, start)) => Box::new(move |_| (game.clone(), start.clone())),
            None => {
                let mut dealt = self.strategy.dealer(names, seed)?;
                Box::new(move |i| {
                    let g = dealt(i);
                    let start = g.start();
                    (g, start)
                })
            }
        };
        // What the game calls each seat's player, from the first game dealt.
        let mut seat_names = Vec::new();
        let named = |i: u64| {
            let (g, start) = deal(i);
            if seat_names.is_empty() {
                seat_names = (0..names.len()).map(|s| g.player_name(s as PlayerId)).collect();
            }
            (g, start)
        };
        let result = tournament(&mut players, games, named, |i| {
            after(i);
            match opts.budget.cancelled() {
                true => Err(Error::Cancelled),
                false => Ok(()),
            }
        })?;
        Ok(standings(
            self.spec(),
            from_text,
            &result,
            seat_names,
            self.strategy.tournament_facts(names),
        ))
    }

    pub(super) fn selfplay_of(
        &self,
        names: &[String],
        plan: &Plan,
        opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Estimate, Error> {
        let started = Instant::now();
        let seats = self.seats();
        let names = match names {
            [one] => vec![one.clone(); seats],
            _ => names.to_vec(),
        };
        check_seats(self.spec(), seats, &names, "self-play")?;
        plan.check()?;
        let from = self.programs_start(&names, "self-play", opts)?;
        // Every part of the run ends when the run must: at the budget's seconds from now.
        let ends = opts.budget.limit(1).deadline;
        let opts = Options {
            budget: Budget {
                ends,
                ..opts.budget.clone()
            },
            ..opts.clone()
        };
        let budget = &opts.budget;
        let known = self.players();
        let what = format!("self-play of {}", self.spec());
        let deal = |seed: u64| -> Result<(S::Game, <S::Game as Game>::Position), Error> {
            Ok(match &from {
                Some((game, start)) => ((*game).clone(), start.clone()),
                None => {
                    let game = self.strategy.selfplay_game(&names, seed)?;
                    let start = game.start();
                    (game, start)
                }
            })
        };
        // Unknown names, and players asking for more than the budget, are refused before
        // any game starts; a player's label names it.
        let special = self.special(&opts);
        let (game, start) = deal(plan.seed)?;
        let labels = names
            .iter()
            .map(|n| {
                let player = program(n, 0, special.as_ref(), &known, budget)?;
                player.check(&game, &start)?;
                Ok(player.name())
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let totals = selfplay::run(plan, seats, opts.partition.as_ref(), |i| {
            if budget.cancelled() || ends.is_some_and(|t| Instant::now() >= t) {
                return Err(budget.stopped(&what));
            }
            let seed = plan.game_seed(i);
            let (game, start) = deal(seed)?;
            let special = self.special(&opts);
            let mut players = names
                .iter()
                .enumerate()
                .map(|(s, n)| program(n, selfplay::seat_seed(seed, s), special.as_ref(), &known, budget))
                .collect::<Result<Vec<_>, Error>>()?;
            let mut refs: Vec<&mut dyn Player<S::Game>> = players
                .iter_mut()
                .map(|p| p.as_mut() as &mut dyn Player<S::Game>)
                .collect();
            let record = play_match(&game, start, &mut refs, MAX_PLIES, |_, _| {})
                .map_err(|e| budget.stopped_as(e, &what))?;
            after(i);
            Ok(GameResult {
                outcome: record.outcome,
                plies: record.moves.len() as u32,
                points: self.strategy.points(&game, &record.last),
            })
        })?;
        let seconds = started.elapsed().max(Duration::from_nanos(1)).as_secs_f64();
        Ok(totals.estimate(self.spec(), labels, plan, seconds))
    }

    pub(super) fn play_one(
        &self,
        names: &[String],
        seed: u64,
        opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        let game = self.strategy.game("play")?;
        let start = common::start(game, opts)?;
        check_seats(self.spec(), self.seats(), names, "a game")?;
        self.strategy.check_start(&start)?;
        let special = self.special(opts);
        let known = self.players();
        let shared = RefCell::new(io);
        let mut seats: Vec<Box<dyn Player<S::Game> + '_>> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            if name.trim().eq_ignore_ascii_case("human") {
                seats.push(Box::new(Seat { io: &shared }));
            } else {
                seats.push(program(
                    name,
                    seed.wrapping_add(i as u64),
                    special.as_ref(),
                    &known,
                    &opts.budget,
                )?);
            }
        }
        let labels: Vec<String> = seats.iter().map(|p| p.name()).collect();
        let mut refs: Vec<&mut dyn Player<S::Game>> = seats
            .iter_mut()
            .map(|p| p.as_mut() as &mut dyn Player<S::Game>)
            .collect();
        let mut before = None;
        let mut moves = Vec::new();
        let position = opts.position.as_ref().map(|_| game.format_position(&start));
        let record = play_match(game, start, &mut refs, MAX_PLIES, |p, m| {
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
            game: self.spec().to_string(),
            position,
            players: labels,
            moves,
            result: outcome_words(game, record.outcome),
            forfeit: record
                .forfeit
                .map(|(seat, why)| format!("{} forfeits: {why}", names[seat as usize])),
            points: self.strategy.points(game, &record.last),
        })
    }
}

/// The standings of a tournament of `spec` from `position` (`None`: its start): every
/// player's results, each seat's by the name the game calls it, and the players' ratings
/// when more than two play.
fn standings(
    spec: &str,
    position: Option<String>,
    result: &TournamentResult,
    seat_names: Vec<String>,
    details: Vec<Fact>,
) -> Standings {
    let pct = |n: u64| 100.0 * n as f64 / result.games as f64;
    let player_names: Vec<String> = result.standings.iter().map(|s| s.name.clone()).collect();
    let ratings = (result.seats.len() > 2)
        .then(|| rating::bradley_terry(&result.beat))
        .flatten();
    Standings {
        game: spec.to_string(),
        position,
        games: result.games,
        players: result
            .standings
            .iter()
            .map(|s| StandingRow {
                player: s.name.clone(),
                wins: s.tally.wins,
                shared: s.tally.shared,
                draws: s.tally.draws,
                losses: s.tally.losses,
                forfeits: s.forfeits,
                forfeit_reasons: s
                    .forfeit_reasons
                    .iter()
                    .map(|(why, games)| ForfeitReason {
                        why: why.clone(),
                        games: *games,
                    })
                    .collect(),
                win_pct: pct(s.tally.wins),
                shared_pct: pct(s.tally.shared),
                draw_pct: pct(s.tally.draws),
                loss_pct: pct(s.tally.losses),
                points: s.tally.points,
                points_share: Share::wilson(s.tally.points, s.tally.games),
            })
            .collect(),
        seats: result
            .seats
            .iter()
            .zip(seat_names)
            .enumerate()
            .map(|(seat, (r, name))| SeatRow {
                seat: seat as u8,
                name,
                results: SeatResults::from(&r.tally),
                players: player_names
                    .iter()
                    .zip(&r.players)
                    .map(|(player, t)| SeatPlayer {
                        player: player.clone(),
                        results: SeatResults::from(t),
                    })
                    .collect(),
            })
            .collect(),
        ratings: ratings.map(|r| {
            player_names
                .iter()
                .zip(r)
                .map(|(player, r)| RatingRow {
                    player: player.clone(),
                    elo: r.elo,
                    error: r.error,
                })
                .collect()
        }),
        details,
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

#[cfg(test)]
mod tests {
    use super::super::tables::tests::quiet;
    use crate::analysis::selfplay::Plan;

    #[test]
    fn perfect_play_never_loses_a_tournament_and_draws_itself_at_tictactoe() {
        let session = crate::catalog::open("tictactoe").unwrap();
        let opts = quiet();
        let value = session.solve(&opts).unwrap().verdict.value;
        assert_eq!(value, Some(crate::Class::Draw));
        let names = ["perfect".to_string(), "random".to_string()];
        let standings = session.tournament(&names, 6, 1, &opts, &|_| {}).unwrap();
        assert_eq!(standings.games, 6);
        let perfect = &standings.players[0];
        assert_eq!(perfect.player, "perfect");
        assert_eq!(perfect.losses, 0);
        assert_eq!(perfect.wins + perfect.draws, 6);
        assert_eq!(standings.players[1].wins, 0);
        let plan = Plan {
            games: 4,
            until: None,
            seed: 0,
        };
        let both = session
            .selfplay(&["perfect".to_string()], &plan, &opts, &|_| {})
            .unwrap();
        assert_eq!(both.games, 4);
        assert!(both.seats.iter().all(|s| s.draws == 4), "{:?}", both.seats);
    }

    #[test]
    fn tournaments_need_games_programs_and_a_player_per_seat() {
        let session = crate::catalog::open("tictactoe").unwrap();
        let opts = quiet();
        let two = ["random".to_string(), "random".to_string()];
        assert!(session.tournament(&two, 0, 0, &opts, &|_| {}).is_err());
        assert!(session.tournament(&two[..1], 2, 0, &opts, &|_| {}).is_err());
        let human = ["human".to_string(), "random".to_string()];
        let refused = session.tournament(&human, 2, 0, &opts, &|_| {}).unwrap_err();
        assert!(refused.to_string().contains("between programs"), "{refused}");
    }
}
