//! The notation of the m,n,k-games: a cell is named chess-style, column letter then row
//! number (`a1` at the bottom left); the board in text and as a picture.

use super::{Board, Mnk};
use crate::game::{cell, Game, Notation, PlayerId};
use crate::picture::{Grid, Kind, Picture};
use crate::session::quantity;
use crate::Error;

impl Notation for Mnk {
    fn parse_move(&self, p: &Board, text: &str) -> Result<u8, Error> {
        let (c, row) = cell::parse(text, self.m, self.n).map_err(|bad| match bad {
            cell::Bad::Form => Error::bad_move(text, "expected a cell like a1 (column letter, row number)"),
            cell::Bad::Off => Error::bad_move(text, format!("off the {} x {} board", self.m, self.n)),
        })?;
        let cell = row * self.m + c;
        if (p.x | p.o) >> cell & 1 == 1 {
            return Err(Error::bad_move(text, "that cell is taken"));
        }
        if self.outcome(p).is_some() {
            return Err(Error::bad_move(text, "the game is over"));
        }
        Ok(cell as u8)
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == 0 { "X" } else { "O" }.to_string()
    }

    fn format_move(&self, _p: &Board, m: &u8) -> String {
        self.cell_name(*m as usize)
    }

    /// Rows from the top, joined by `/`: `x`, `o` or `.` per cell, e.g. `x.o/.x./..o`.
    fn parse_position(&self, text: &str) -> Result<Board, Error> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != self.n || rows.iter().any(|r| r.chars().count() != self.m) {
            return Err(Error::bad_position(
                text,
                format!(
                    "expected {} of {} joined by '/'",
                    quantity(self.n, "row"),
                    quantity(self.m, "cell")
                ),
            ));
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (i, row) in rows.iter().enumerate() {
            let r = self.n - 1 - i;
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (r * self.m + c);
                match ch.to_ascii_lowercase() {
                    'x' => x |= bit,
                    'o' => o |= bit,
                    '.' => {}
                    _ => return Err(Error::bad_position(text, format!("'{ch}' is not x, o or ."))),
                }
            }
        }
        let board = self
            .board(x, o)
            .ok_or_else(|| Error::bad_position(text, "impossible mark counts or more than one winner"))?;
        // The winning mark completed every line of the winner: they share a cell.
        let (marks, winner) = match board.winner {
            1 => (x, 0),
            2 => (o, 1),
            _ => return Ok(board),
        };
        let shared = self
            .lines
            .iter()
            .filter(|&&l| l & !marks == 0)
            .fold(self.full(), |acc, &l| acc & l);
        if shared == 0 {
            return Err(Error::bad_position(
                text,
                format!(
                    "{} has lines that no one last mark completed",
                    self.player_name(winner)
                ),
            ));
        }
        Ok(board)
    }

    fn format_position(&self, p: &Board) -> String {
        (0..self.n)
            .rev()
            .map(|r| {
                (0..self.m)
                    .map(|c| cell_char(p, r * self.m + c))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn render(&self, p: &Board) -> String {
        let mut s = String::new();
        for r in (0..self.n).rev() {
            s += &format!("{:>2} ", r + 1);
            for c in 0..self.m {
                s.push(' ');
                s.push(cell_char(p, r * self.m + c).to_ascii_uppercase());
            }
            s.push('\n');
        }
        s += "   ";
        for c in 0..self.m {
            s.push(' ');
            s.push(cell::column(c));
        }
        s.push('\n');
        s
    }

    /// One cell per square: marks are labelled `X` or `O` and owned by their player; while
    /// the game goes on, every empty cell plays its move.
    fn picture(&self, p: &Board) -> Option<Picture> {
        let grid = Grid {
            cols: self.m,
            rows: self.n,
        };
        let open = self.outcome(p).is_none();
        let cells = (0..self.cells())
            .map(|cell| {
                let square = grid.square(Kind::Cell, cell % self.m, cell / self.m);
                match cell_char(p, cell) {
                    'x' => square.label("X").owner(0),
                    'o' => square.label("O").owner(1),
                    _ if open => square.plays(self.cell_name(cell)),
                    _ => square,
                }
            })
            .collect();
        Some(grid.picture(cells))
    }
}

fn cell_char(p: &Board, cell: usize) -> char {
    if p.x >> cell & 1 == 1 {
        'x'
    } else if p.o >> cell & 1 == 1 {
        'o'
    } else {
        '.'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_plays_empty_cells_and_labels_marks() {
        let g = Mnk::tictactoe();
        let p = g.play(&g.start(), &4);
        let picture = g.picture(&p).unwrap();
        let centre = &picture.shapes[4];
        assert_eq!(
            (centre.x, centre.y, centre.label.as_deref(), centre.owner),
            (2.0, 1.0, Some("X"), Some(0))
        );
        assert_eq!(picture.shapes[0].play.as_deref(), Some("a1"));
        assert_eq!((picture.shapes[0].x, picture.shapes[0].y), (1.0, 2.0));
        assert_eq!((picture.width, picture.height), (4.0, 4.0));
    }

    #[test]
    fn bad_notation_is_refused() {
        let g = Mnk::tictactoe();
        let p = g.parse_position("x../.../...").unwrap();
        assert!(g.parse_move(&p, "a3").unwrap_err().to_string().contains("taken"));
        assert!(g.parse_move(&p, "d1").unwrap_err().to_string().contains("off"));
        assert!(g.parse_move(&p, "11").is_err());
        assert!(g.parse_position("xx./.../...").is_err());
        // Lines of X that no one last mark completed are refused; lines it did are not.
        let row = Mnk::new(8, 1, 2).unwrap();
        let e = row.parse_position("xxoxxo.o").unwrap_err().to_string();
        assert!(e.contains("no one last mark"), "{e}");
        assert!(row.parse_position("xxxo.o..").is_ok());
        assert!(g.parse_position("xxx/xoo/xoo").is_ok());
        assert!(g.parse_position("x../...").is_err());
    }
}
