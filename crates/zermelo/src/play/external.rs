//! Players of your own: anything that, told a position and its legal moves in the game's
//! notation, answers a move. A program over the line protocol ([`super::command`]) and a
//! Python function are two kinds; every game takes them beside its own players.

use std::sync::Arc;

use super::Player;
use crate::game::Notation;
use crate::Error;

/// What a player of your own is told when it is its turn.
#[derive(Clone, Debug)]
pub struct Turn<'a> {
    /// The game's spec.
    pub game: &'a str,
    /// The seat to move, from 0.
    pub seat: usize,
    /// The name of the player to move in the game (`X`, `White`, ...).
    pub to_move: String,
    /// The position in the game's notation.
    pub position: String,
    /// The legal moves in the game's notation.
    pub moves: Vec<String>,
    /// The position drawn as text, as `zermelo moves` shows it.
    pub board: String,
}

/// A player of your own: answers a move for a turn, in the game's notation.
pub trait Mover: Send {
    /// A short name for tables and logs.
    fn name(&self) -> String;
    /// The move for `turn`. An answer that is not one of its legal moves forfeits the
    /// game; so does [`Error::Forfeit`] (no answer in time, a program that ended).
    fn choose(&mut self, turn: &Turn<'_>) -> Result<String, Error>;
}

/// Makes a new [`Mover`] from a seed, once per tournament or game.
pub type MakeMover = dyn Fn(u64) -> Result<Box<dyn Mover>, Error> + Send + Sync;

/// A player of your own registered under a name, which tournaments and games then take.
#[derive(Clone)]
pub struct Guest {
    /// The name players are given by (`mybot`).
    pub name: String,
    /// Makes the player.
    pub make: Arc<MakeMover>,
}

impl std::fmt::Debug for Guest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guest").field("name", &self.name).finish()
    }
}

/// A [`Mover`] playing a game through its notation.
pub struct External {
    spec: String,
    mover: Box<dyn Mover>,
}

impl External {
    /// `mover` playing the game of `spec`.
    pub fn new(spec: &str, mover: Box<dyn Mover>) -> Self {
        External {
            spec: spec.to_string(),
            mover,
        }
    }
}

impl<G: Notation> Player<G> for External {
    fn name(&self) -> String {
        self.mover.name()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let legal = game.legal_moves(p);
        let moves: Vec<String> = legal.iter().map(|m| game.format_move(p, m)).collect();
        let seat = game.to_move(p);
        let turn = Turn {
            game: &self.spec,
            seat: seat as usize,
            to_move: game.player_name(seat),
            position: game.format_position(p),
            moves,
            board: game.render(p),
        };
        let answer = self.mover.choose(&turn)?;
        let answer = answer.trim();
        match turn.moves.iter().position(|m| m == answer) {
            Some(i) => Ok(legal[i].clone()),
            None => match game.parse_move(p, answer) {
                Ok(m) if legal.contains(&m) => Ok(m),
                _ => Err(Error::forfeit(
                    self.mover.name(),
                    format!("'{answer}' is not a legal move in {}", turn.position),
                )),
            },
        }
    }
}
