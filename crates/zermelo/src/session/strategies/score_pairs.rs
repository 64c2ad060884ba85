//! The scores strategy: score games solved as pairs of final scores when both players
//! follow a decision rule ([`ScoreSolver`]), such as Big Points; games of more players, or
//! too big to solve, are played by greedy, Monte Carlo and random players.

use std::time::{Duration, Instant};

use crate::game::{Notation, Scored};
use crate::play::greedy::Greedy;
use crate::play::mcts::{self, Mcts};
use crate::play::scored::ScorePerfect;
use crate::play::Player;
use crate::session::common;
use crate::session::engine::{GameSession, Made, Strategy, Tables};
use crate::session::{Big, Cost, Fact, FactValue, Found, MoveValue, Options, PositionView, Session, Verdict};
use crate::solve::scores::{DecisionRule, ScoreSolver, Scores};
use crate::spec::GameInfo;
use crate::{Class, Error, Value};

/// Playouts per move of a plain `mcts` player.
const DEFAULT_PLAYOUTS: u32 = 2000;
/// Bytes a position the exact solver remembers takes in its map, with the map's overhead.
const SCORE_ENTRY_BYTES: u64 = 128;

/// What a score game solved as score pairs hands the strategy.
pub trait ScoreGame: Notation + Scored + Clone + Send + Sync + 'static {
    /// How solved players rank final scores.
    fn decision_rule(&self) -> &'static dyn DecisionRule;
    /// Why the exact solver cannot take this game on, when it cannot.
    fn unsolvable(&self) -> Option<Error>;
    /// What solving the start exactly costs, about.
    fn solve_cost(&self) -> Cost;
    /// The final scores from `p` under the rule, and the positions stored, by the most
    /// compact table the game offers.
    fn solve_from(&self, p: &Self::Position) -> (Scores, usize);
    /// Facts about the game (its board, its rule).
    fn facts(&self) -> Vec<Fact>;
}

/// Deals a game from its number: a tournament's round of seat rotations, a self-play
/// game's seed.
pub type Deal<G> = Box<dyn Fn(u64) -> G + Send + Sync>;

/// The scores strategy of a score game.
pub struct ScorePairs<G> {
    spec: String,
    game: G,
    deal: Option<Deal<G>>,
}

/// The session of `spec`, a game of `info` solved as score pairs; when there is a `deal`,
/// each round of a tournament's seat rotations is played on `deal(round)` and the
/// self-play game of seed `seed` on `deal(seed)`, else every game on `game`.
pub fn open<G: ScoreGame>(
    spec: &str,
    info: &'static GameInfo,
    game: G,
    deal: Option<Deal<G>>,
) -> Box<dyn Session> {
    let seats = game.players();
    Box::new(GameSession::new(
        info,
        spec,
        seats,
        ScorePairs {
            spec: spec.to_string(),
            game,
            deal,
        },
    ))
}

impl<G: ScoreGame> ScorePairs<G> {
    /// Refuses a game the exact solver cannot take on.
    fn solvable(&self) -> Result<(), Error> {
        self.game.unsolvable().map_or(Ok(()), Err)
    }

    fn solver(&self) -> ScoreSolver<'_, 'static, G> {
        ScoreSolver::new(&self.game, self.game.decision_rule())
    }

    /// The points of every seat in `p`.
    fn points(&self, p: &G::Position) -> Vec<i32> {
        (0..self.game.players() as u8)
            .map(|w| self.game.score(p, w))
            .collect()
    }

    /// Every legal move of `p` with its final scores, the rule's choice first; `Err` with
    /// the reason when the game is not solved exactly here.
    fn options(&self, p: &G::Position, opts: &Options) -> Result<Vec<(G::Move, Scores)>, Error> {
        self.solvable()?;
        opts.budget.check(
            &format!("valuing the moves of this {} position", self.spec),
            self.game.solve_cost(),
        )?;
        let rule = self.game.decision_rule();
        let mover = self.game.to_move(p);
        let mut solver = self.solver().with_limit(opts.budget.limit(SCORE_ENTRY_BYTES));
        let mut options = solver.options(p);
        if solver.stopped() {
            return Err(opts
                .budget
                .stopped(&format!("valuing the moves of this {} position", self.spec)));
        }
        // A stable sort keeps the first best, the rule's choice, in front.
        options.sort_by(|(_, a), (_, b)| {
            if rule.prefers(mover, a, b) {
                std::cmp::Ordering::Less
            } else if rule.prefers(mover, b, a) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        Ok(options)
    }
}

/// The verdict of final scores `s` for `mover`.
fn verdict(mover: u8, s: Scores) -> Verdict {
    let mine = s[mover as usize] - s[1 - mover as usize];
    Verdict {
        value: Some(Class::of_lead(mine)),
        scores: Some(s.to_vec()),
        ..Verdict::default()
    }
}

/// `2000` playouts, `500ms` or `2s` per move.
fn mcts_effort(text: &str) -> Result<mcts::Effort, Error> {
    let bad = || {
        Error::Unsupported(format!(
            "mcts:{text}: expected playouts (2000), milliseconds (500ms) or seconds (2s)"
        ))
    };
    let number = |t: &str| t.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
    Ok(if let Some(ms) = text.strip_suffix("ms") {
        mcts::Effort::Time(Duration::from_millis(number(ms)?))
    } else if let Some(s) = text.strip_suffix('s') {
        mcts::Effort::Time(Duration::from_secs(number(s)?))
    } else {
        mcts::Effort::Playouts(u32::try_from(number(text)?).map_err(|_| bad())?)
    })
}

impl<G: ScoreGame> Strategy for ScorePairs<G> {
    type Game = G;
    type Table = ();

    fn game(&self, _command: &str) -> Result<&G, Error> {
        Ok(&self.game)
    }

    /// Perfect against random on boards the exact solver takes; else MCTS, greedy and
    /// random players in turn, one per seat.
    fn default_players(&self) -> Vec<String> {
        if self.game.unsolvable().is_none() {
            return vec!["perfect".into(), "random".into()];
        }
        ["mcts", "greedy", "random"]
            .iter()
            .cycle()
            .take(self.game.players())
            .map(|n| n.to_string())
            .collect()
    }

    fn estimate(
        &self,
        _start: &G::Position,
        _opts: &Options,
        _tables: &Tables<'_, Self>,
    ) -> Result<Cost, Error> {
        self.solvable()?;
        Ok(self.game.solve_cost())
    }

    fn solve(&self, start: &G::Position, opts: &Options, tables: &Tables<'_, Self>) -> Result<Found, Error> {
        let g = &self.game;
        opts.budget.check(
            &format!("solving {}", self.spec),
            self.estimate(start, opts, tables)?,
        )?;
        let started = Instant::now();
        // A finished game's scores are its points.
        let (scores, positions) = match g.outcome(start) {
            Some(_) => ([g.score(start, 0), g.score(start, 1)], 0),
            None => g.solve_from(start),
        };
        let mover = g.to_move(start);
        Ok(Found {
            verdict: verdict(mover, scores),
            positions: Big(positions as u128),
            solver: "scores".into(),
            seconds: started.elapsed().as_secs_f64(),
            details: g.facts(),
        })
    }

    fn view(
        &self,
        p: &G::Position,
        opts: &Options,
        _tables: &Tables<'_, Self>,
    ) -> Result<PositionView, Error> {
        let g = &self.game;
        let outcome = g.outcome(p);
        let mover = g.to_move(p);
        let points = self.points(p);
        let mut details = g.facts();
        let (verdict, listed) = match outcome {
            Some(o) => (
                Verdict {
                    value: Some(Value::terminal(o, mover).class()),
                    scores: Some(points.clone()),
                    ..Verdict::default()
                },
                Vec::new(),
            ),
            None => match self.options(p, opts) {
                Ok(options) => {
                    let listed = options
                        .iter()
                        .enumerate()
                        .map(|(i, (m, s))| MoveValue {
                            notation: g.format_move(p, m),
                            verdict: verdict(mover, *s),
                            best: i == 0,
                            note: None,
                        })
                        .collect();
                    (verdict(mover, options[0].1), listed)
                }
                Err(why) => {
                    details.push(Fact::new(
                        "unsolved",
                        "not solved",
                        FactValue::Text(why.to_string()),
                    ));
                    let listed = g
                        .legal_moves(p)
                        .iter()
                        .map(|m| MoveValue {
                            notation: g.format_move(p, m),
                            verdict: Verdict::unknown(),
                            best: false,
                            note: None,
                        })
                        .collect();
                    (Verdict::unknown(), listed)
                }
            },
        };
        Ok(PositionView {
            points: Some(points),
            details,
            ..common::view(&self.spec, g, p, verdict, listed)
        })
    }

    fn player<'s>(
        &'s self,
        name: &str,
        seed: u64,
        opts: &Options,
        _tables: &Tables<'_, Self>,
    ) -> Option<Made<'s, G>> {
        let within = |b| Mcts::new(b, seed).with_budget(opts.budget.clone());
        let player: Box<dyn Player<G> + 's> = match name.split_once(':') {
            None if name == "greedy" => Box::new(Greedy::new(seed)),
            None if name == "mcts" => Box::new(within(mcts::Effort::Playouts(DEFAULT_PLAYOUTS))),
            // `mcts:BUDGET:P` is `NAME:P` of `mcts:BUDGET`, made by the session.
            Some(("mcts", effort)) if !effort.contains(':') => match mcts_effort(effort) {
                Ok(b) => Box::new(within(b)),
                Err(e) => return Some(Err(e)),
            },
            None if name == "perfect" => match self.solvable() {
                Ok(()) => Box::new(ScorePerfect::new(
                    self.solver().with_limit(opts.budget.limit(SCORE_ENTRY_BYTES)),
                )),
                Err(e) => {
                    return Some(Err(Error::Unsupported(format!(
                        "the perfect player needs an exactly solvable game: {e}"
                    ))))
                }
            },
            _ => return None,
        };
        Some(Ok(player))
    }

    fn check_bot(&self, _p: &G::Position, player: &str, opts: &Options) -> Result<(), Error> {
        if player.trim().eq_ignore_ascii_case("perfect") {
            self.solvable()?;
            opts.budget
                .check("the perfect player's move", self.game.solve_cost())?;
        }
        Ok(())
    }

    fn dealer(&self, _names: &[String], _seed: u64) -> Result<Box<dyn FnMut(u64) -> G + '_>, Error> {
        let seats = self.game.players() as u64;
        Ok(match &self.deal {
            Some(deal) => Box::new(move |i| deal(i / seats)),
            None => Box::new(move |_| self.game.clone()),
        })
    }

    fn selfplay_game(&self, _names: &[String], seed: u64) -> Result<G, Error> {
        Ok(match &self.deal {
            Some(deal) => deal(seed),
            None => self.game.clone(),
        })
    }

    fn points(&self, _game: &G, p: &G::Position) -> Option<Vec<i32>> {
        Some(self.points(p))
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog;
    use crate::games::bigpoints::BigPoints;
    use crate::session::Options;
    use crate::solve::scores::{minimax, StudyRule};
    use crate::Game;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn solving_a_reduced_board_gives_both_final_scores() {
        let s = catalog::open("bigpoints:board=1221").unwrap();
        let solution = s.solve(&Options::default()).unwrap();
        let g = BigPoints::new(vec![0, 1, 1, 0], 2, crate::games::bigpoints::Rule::Study).unwrap();
        let reference = minimax(&g, &StudyRule, &g.start());
        assert_eq!(solution.verdict.scores, Some(reference.to_vec()));
        assert_eq!(
            solution.verdict.value,
            Some(crate::Class::of_lead(reference[0] - reference[1]))
        );
        let view = s.position(&[], &Options::default()).unwrap();
        assert_eq!(view.verdict.scores, solution.verdict.scores);
        assert_eq!(view.moves.iter().filter(|m| m.best).count(), 1);
        assert!(view.moves[0].best);
        assert_eq!(view.points, Some(vec![0, 0]));
    }

    #[test]
    fn the_full_game_and_more_players_are_not_solved() {
        assert!(matches!(
            catalog::open("bigpoints").unwrap().solve(&Options::default()),
            Err(crate::Error::TooBig(_))
        ));
        let three = catalog::open("bigpoints:players=3,board=1221").unwrap();
        assert!(matches!(
            three.solve(&Options::default()),
            Err(crate::Error::Unsupported(_))
        ));
        let view = three.position(&[], &Options::default()).unwrap();
        assert_eq!(view.verdict.value, None);
        assert_eq!(view.points.map(|p| p.len()), Some(3));
    }

    #[test]
    fn three_players_play_a_tournament_of_the_full_game() {
        let s = catalog::open("bigpoints:players=3").unwrap();
        assert_eq!(s.seats(), 3);
        let standings = s
            .tournament(
                &names(&["greedy", "random", "mcts:50"]),
                3,
                7,
                &Options::default(),
                &|_| (),
            )
            .unwrap();
        assert_eq!(standings.games, 3);
        assert_eq!(standings.players.len(), 3);
        assert!(s
            .tournament(&names(&["greedy", "random"]), 3, 7, &Options::default(), &|_| ())
            .is_err());
        assert!(s
            .tournament(
                &names(&["greedy", "random", "perfect"]),
                3,
                7,
                &Options::default(),
                &|_| ()
            )
            .is_err());
        assert!(s
            .tournament(
                &names(&["greedy", "random", "mcts:0"]),
                3,
                7,
                &Options::default(),
                &|_| ()
            )
            .is_err());
    }
}
