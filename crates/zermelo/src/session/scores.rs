//! The scores strategy: score games solved as pairs of final scores when both players
//! follow a decision rule ([`ScoreSolver`]), such as Big Points; games of more players, or
//! too big to solve, are played by greedy, Monte Carlo and random players.

use std::time::{Duration, Instant};

use super::common::{self, Roster, Special};
use super::{
    word_of_margin, Big, Cost, Fact, FactValue, GameRecord, MoveValue, Options, PlayIo, PlayerInfo,
    PositionView, Session, Solution, Standings, Verdict,
};
use crate::game::{Notation, Scored};
use crate::play::greedy::Greedy;
use crate::play::mcts::{self, Mcts};
use crate::play::scored::ScorePerfect;
use crate::play::Player;
use crate::solve::scores::{DecisionRule, ScoreSolver, Scores};
use crate::spec::GameInfo;
use crate::{Error, Value};

/// Playouts per move of a plain `mcts` player.
const DEFAULT_PLAYOUTS: u32 = 2000;

/// What a score game solved as score pairs hands the strategy.
pub trait ScoreGame: Notation + Scored + Clone + Send + Sync + 'static {
    /// How solved players rank final scores.
    fn decision_rule(&self) -> &'static dyn DecisionRule;
    /// Why the exact solver cannot take this game on, when it cannot.
    fn unsolvable(&self) -> Option<Error>;
    /// What solving the start exactly costs, about.
    fn solve_cost(&self) -> Cost;
    /// The final scores from the start under the rule, and the positions stored, by the
    /// most compact table the game offers.
    fn solve_start(&self) -> (Scores, usize);
    /// Facts about the game (its board, its rule).
    fn facts(&self) -> Vec<Fact>;
}

/// Deals the game of each tournament game from its number.
pub type Deal<G> = Box<dyn Fn(u64) -> G + Send + Sync>;

/// A score game solved as score pairs.
pub struct ScoresSession<G> {
    spec: String,
    info: &'static GameInfo,
    game: G,
    deal: Option<Deal<G>>,
}

impl<G: ScoreGame> ScoresSession<G> {
    /// A session for `game`, opened from `spec`.
    pub fn new(spec: &str, info: &'static GameInfo, game: G) -> Self {
        ScoresSession {
            spec: spec.to_string(),
            info,
            game,
            deal: None,
        }
    }

    /// The same session, playing tournament game `i` on `deal(i)` rather than on its game.
    pub fn dealt(mut self, deal: Deal<G>) -> Self {
        self.deal = Some(deal);
        self
    }

    /// Refuses a game the exact solver cannot take on.
    fn solvable(&self) -> Result<(), Error> {
        self.game.unsolvable().map_or(Ok(()), Err)
    }

    fn solver(&self) -> ScoreSolver<'_, 'static, G> {
        ScoreSolver::new(&self.game, self.game.decision_rule())
    }

    /// The players of this game and the matches they play.
    fn roster(&self) -> Roster<'_, G> {
        Roster {
            spec: &self.spec,
            seats: self.seats(),
            special: self.special(),
            known: self.players(),
        }
    }

    fn special<'g>(&'g self) -> Box<Special<'g, G>> {
        Box::new(move |name: &str, seed: u64| {
            let player: Box<dyn Player<G> + 'g> = match name.split_once(':') {
                None if name == "greedy" => Box::new(Greedy::new(seed)),
                None if name == "mcts" => Box::new(Mcts::new(mcts::Budget::Playouts(DEFAULT_PLAYOUTS), seed)),
                Some(("mcts", budget)) => match mcts_budget(budget) {
                    Ok(b) => Box::new(Mcts::new(b, seed)),
                    Err(e) => return Some(Err(e)),
                },
                None if name == "perfect" => match self.solvable() {
                    Ok(()) => Box::new(ScorePerfect::new(self.solver())),
                    Err(e) => {
                        return Some(Err(Error::Unsupported(format!(
                            "the perfect player needs an exactly solvable game: {e}"
                        ))))
                    }
                },
                _ => return None,
            };
            Some(Ok(player))
        })
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
        let mut options = self.solver().options(p);
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
        value: Some(word_of_margin(mine)),
        scores: Some(s.to_vec()),
        ..Verdict::default()
    }
}

/// `2000` playouts, `500ms` or `2s` per move.
fn mcts_budget(text: &str) -> Result<mcts::Budget, Error> {
    let bad = || {
        Error::Unsupported(format!(
            "mcts:{text}: expected playouts (2000), milliseconds (500ms) or seconds (2s)"
        ))
    };
    let number = |t: &str| t.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
    Ok(if let Some(ms) = text.strip_suffix("ms") {
        mcts::Budget::Time(Duration::from_millis(number(ms)?))
    } else if let Some(s) = text.strip_suffix('s') {
        mcts::Budget::Time(Duration::from_secs(number(s)?))
    } else {
        mcts::Budget::Playouts(u32::try_from(number(text)?).map_err(|_| bad())?)
    })
}

impl<G: ScoreGame> Session for ScoresSession<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn seats(&self) -> usize {
        self.game.players()
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
            .take(self.seats())
            .map(|n| n.to_string())
            .collect()
    }

    fn players(&self) -> Vec<PlayerInfo> {
        let mut list = vec![
            PlayerInfo {
                name: "perfect",
                help: "exact score solver under the game's rule (reduced two-player boards)",
            },
            PlayerInfo {
                name: "greedy",
                help: "the move that raises its own score the most",
            },
            PlayerInfo {
                name: "mcts[:BUDGET]",
                help: "Monte Carlo tree search: playouts (2000), or a time per move (500ms, 2s)",
            },
        ];
        list.extend(common::common_players());
        list
    }

    fn estimate(&self, _opts: &Options) -> Result<Cost, Error> {
        self.solvable()?;
        Ok(self.game.solve_cost())
    }

    fn solve(&self, opts: &Options) -> Result<Solution, Error> {
        let g = &self.game;
        opts.budget
            .check(&format!("solving {}", self.spec), self.estimate(opts)?)?;
        let started = Instant::now();
        let (scores, positions) = g.solve_start();
        Ok(Solution {
            game: self.spec.clone(),
            to_move: g.player_name(g.to_move(&g.start())),
            verdict: verdict(0, scores),
            positions: Big(positions as u128),
            solver: "scores".into(),
            seconds: started.elapsed().as_secs_f64(),
            details: g.facts(),
        })
    }

    fn position(&self, moves: &[String], opts: &Options) -> Result<PositionView, Error> {
        let g = &self.game;
        let p = common::replay(g, g.start(), moves)?;
        let outcome = g.outcome(&p);
        let mover = g.to_move(&p);
        let points = self.points(&p);
        let mut details = g.facts();
        let (verdict, listed) = match outcome {
            Some(o) => (
                Verdict {
                    value: Some(Value::terminal(o, mover).word()),
                    scores: Some(points.clone()),
                    ..Verdict::default()
                },
                Vec::new(),
            ),
            None => match self.options(&p, opts) {
                Ok(options) => {
                    let listed = options
                        .iter()
                        .enumerate()
                        .map(|(i, (m, s))| MoveValue {
                            notation: g.format_move(&p, m),
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
                        .legal_moves(&p)
                        .iter()
                        .map(|m| MoveValue {
                            notation: g.format_move(&p, m),
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
            game: self.spec.clone(),
            position: g.format_position(&p),
            board: g.render(&p),
            picture: g.picture(&p),
            to_move: g.player_name(mover),
            terminal: outcome.is_some(),
            result: outcome.map(|o| common::outcome_words(g, o)),
            verdict,
            points: Some(points),
            moves_total: Big(listed.len() as u128),
            moves: listed,
            details,
        })
    }

    fn tournament(
        &self,
        players: &[String],
        games: u64,
        seed: u64,
        _opts: &Options,
        after: &(dyn Fn(u64) + Sync),
    ) -> Result<Standings, Error> {
        self.roster().tournament(
            players,
            games,
            seed,
            |i| {
                let g = self
                    .deal
                    .as_ref()
                    .map_or_else(|| self.game.clone(), |deal| deal(i));
                let start = g.start();
                (g, start)
            },
            after,
        )
    }

    fn play(
        &self,
        seats: &[String],
        seed: u64,
        _opts: &Options,
        io: &mut PlayIo<'_>,
    ) -> Result<GameRecord, Error> {
        self.roster()
            .play(&self.game, seats, seed, |p| Some(self.points(p)), io)
    }

    fn playout(&self, seed: u64) -> Result<usize, Error> {
        common::playout(&self.game, self.game.start(), seed)
    }

    fn bot_move(&self, moves: &[String], player: &str, seed: u64, opts: &Options) -> Result<String, Error> {
        if player.trim().eq_ignore_ascii_case("perfect") {
            opts.budget
                .check("the perfect player's move", self.estimate(opts)?)?;
        }
        self.roster().bot_move(&self.game, moves, player, seed)
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
            Some(crate::session::word_of_margin(reference[0] - reference[1]))
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
