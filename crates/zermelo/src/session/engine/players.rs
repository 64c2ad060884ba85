//! Players made by name: the strategy's own, the soft player, players of your own and
//! programs; and the move a bot makes.

use crate::game::{Game, Notation};
use crate::play::command::Program;
use crate::play::external::{External, Mover};
use crate::play::soft::{MoveWorths, Soft};
use crate::play::Player;
use crate::session::common::{self, program, Special};
use crate::session::{BotMove, Options, Session};
use crate::Error;

use super::report::class_of;
use super::{GameSession, Made, Strategy};

impl<S: Strategy> GameSession<S> {
    /// How the players of your own and the strategy's players are made by name.
    pub(super) fn special<'s>(&'s self, opts: &'s Options) -> Box<Special<'s, S::Game>> {
        Box::new(move |name: &str, seed: u64| {
            let spec = self.spec();
            if let Some(made) = guest(spec, name, seed, opts) {
                return Some(made.map(|m| Box::new(External::new(spec, m)) as Box<dyn Player<S::Game>>));
            }
            let name = name.to_ascii_lowercase();
            if let Some(t) = name.strip_prefix("soft:") {
                return Some(self.soft(t, seed, opts));
            }
            let made = self.strategy.player(&name, seed, opts, &self.tables(opts));
            match made {
                Some(Ok(inner)) if name == "perfect" => Some(self.booked_player(inner, seed, opts)),
                made => made,
            }
        })
    }

    /// The player `soft:T`, valuing every move as [`Session::position`] does.
    pub(super) fn soft<'s>(&'s self, t: &str, seed: u64, opts: &'s Options) -> Made<'s, S::Game> {
        let temperature = Soft::<S::Game>::temperature(t)?;
        // A strategy that deals a board per game values the moves of its own game only.
        self.strategy.game("the soft player")?;
        // It values every move exactly, as the perfect player does: refused at once where
        // that player is, in the same words, rather than left to search without end.
        if let Some(Err(e)) = self.strategy.player("perfect", seed, opts, &self.tables(opts)) {
            return Err(e);
        }
        let all = Options {
            all_moves: true,
            ..opts.clone()
        };
        let worths: MoveWorths<'s, S::Game> = Box::new(move |g: &S::Game, p| {
            let view = self.view_of(p, &all)?;
            view.moves
                .iter()
                .map(|m| {
                    let worth = match m.verdict.margin {
                        Some(margin) => f64::from(margin),
                        None => f64::from(class_of(&m.verdict)?.sign()),
                    };
                    Ok((g.parse_move(p, &m.notation)?, worth))
                })
                .collect()
        });
        Ok(Box::new(Soft::new(worths, temperature, seed)))
    }

    /// The move of the player `name` after `moves`; with `fallback`, the move the player
    /// falls back on where its search stops at the budget's limit.
    pub(super) fn bot_move_of(
        &self,
        moves: &[String],
        name: &str,
        seed: u64,
        opts: &Options,
        fallback: bool,
    ) -> Result<BotMove, Error> {
        let game = self.strategy.game("a bot's move")?;
        let p = common::replay(game, common::start(game, opts)?, moves)?;
        if game.outcome(&p).is_some() {
            return Err(Error::bad_position(game.format_position(&p), "the game is over"));
        }
        // `soft:T` reads every move's exact value: it is checked as `perfect` is.
        let soft = name.trim().to_ascii_lowercase().starts_with("soft:");
        let checked = if soft { "perfect" } else { name };
        self.strategy.check_bot(&p, checked, opts)?;
        let special = self.special(opts);
        let mut player = program(name, seed, special.as_ref(), &self.players(), &opts.budget)?;
        // What the player asks for is refused before any work starts when it is over the
        // budget (`mcts:60s` under a budget of 2 s, a search too deep to end in time).
        player.check(game, &p)?;
        let (m, note) = match player.choose(game, &p) {
            Ok(m) => (m, None),
            Err(e @ Error::TooBig(_)) => match fallback.then(|| player.fallback(game, &p)).flatten() {
                Some((m, note)) => (m, Some(note)),
                None => return Err(opts.budget.stopped_as(e, "the bot's move")),
            },
            Err(e) => return Err(opts.budget.stopped_as(e, "the bot's move")),
        };
        Ok(BotMove {
            notation: game.format_move(&p, &m),
            note,
        })
    }
}

/// The player of your own called `name`: one registered in `opts`, or a program
/// (`cmd:LINE`) where `opts` lets programs run; `None` when `name` is neither.
pub(super) fn guest(
    spec: &str,
    name: &str,
    seed: u64,
    opts: &Options,
) -> Option<Result<Box<dyn Mover>, Error>> {
    if let Some(g) = opts.guests.iter().find(|g| g.name == name) {
        return Some((g.make)(seed));
    }
    let line = name.strip_prefix("cmd:")?;
    if !opts.run_programs {
        return Some(Err(Error::Unsupported(format!(
            "{spec}: programs (cmd:...) play from the command line and Python only"
        ))));
    }
    Some(
        Program::new(line, seed, opts.move_time, opts.budget.cancel.clone())
            .map(|c| Box::new(c) as Box<dyn Mover>),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tables::tests::quiet;

    /// The nim-sum of a Nim position written `MOVER:H1/H2/...`.
    fn nim_sum(position: &str) -> u64 {
        let heaps = position.split_once(':').unwrap().1;
        heaps
            .split('/')
            .map(|h| h.parse::<u64>().unwrap())
            .fold(0, |x, h| x ^ h)
    }

    #[test]
    fn perfect_and_soft_players_leave_a_nim_sum_of_zero() {
        let session = crate::catalog::open("nim:heaps=1/2/3").unwrap();
        let opts = quiet();
        let after = ["2-2".to_string()];
        assert_ne!(nim_sum(&session.position(&after, &opts).unwrap().position), 0);
        for player in ["perfect", "soft:0"] {
            for seed in 0..4 {
                let m = session.bot_move(&after, player, seed, &opts).unwrap();
                let moves = [after[0].clone(), m.clone()];
                let reached = session.position(&moves, &opts).unwrap().position;
                assert_eq!(nim_sum(&reached), 0, "{player} played {m}");
            }
        }
    }

    #[test]
    fn bots_are_refused_when_the_game_is_over_or_their_name_is_not_a_player() {
        let session = crate::catalog::open("tictactoe").unwrap();
        let opts = quiet();
        let won: Vec<String> = ["a1", "b1", "a2", "b2", "a3"].map(String::from).to_vec();
        assert!(session.position(&won, &opts).unwrap().terminal);
        let over = session.bot_move(&won, "random", 0, &opts).unwrap_err();
        assert!(over.to_string().contains("the game is over"), "{over}");
        let programs = session.bot_move(&[], "cmd:true", 0, &opts).unwrap_err();
        assert!(programs.to_string().contains("programs (cmd:...)"), "{programs}");
        assert!(session.bot_move(&[], "soft:-1", 0, &opts).is_err());
        assert!(session.bot_move(&[], "nobody", 0, &opts).is_err());
    }
}
