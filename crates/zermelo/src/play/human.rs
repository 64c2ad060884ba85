//! The human player: reads moves in the game's notation, asking again after bad input.

use std::io::{BufRead, Write};

use super::Player;
use crate::game::Notation;
use crate::Error;

/// A person at a terminal (or any reader and writer).
pub struct Human<R, W> {
    input: R,
    output: W,
}

impl<R: BufRead, W: Write> Human<R, W> {
    /// A human reading moves from `input` and writing prompts to `output`.
    pub fn new(input: R, output: W) -> Self {
        Human { input, output }
    }
}

impl<G: Notation, R: BufRead, W: Write> Player<G> for Human<R, W> {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let examples: Vec<String> = game
            .legal_moves(p)
            .iter()
            .take(4)
            .map(|m| game.format_move(p, m))
            .collect();
        loop {
            write!(
                self.output,
                "{} to move (e.g. {}): ",
                game.player_name(game.to_move(p)),
                examples.join(", ")
            )?;
            self.output.flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                return Err(Error::Io("input ended before the game did".into()));
            }
            match line.trim() {
                "" => continue,
                "quit" | "exit" => return Err(Error::Quit),
                text => match game.parse_move(p, text) {
                    Ok(m) => return Ok(m),
                    Err(e) => writeln!(self.output, "{e}")?,
                },
            }
        }
    }
}
