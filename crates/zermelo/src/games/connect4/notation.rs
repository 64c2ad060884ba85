//! The notation of Connect Four: a move is its column, numbered from 1 at the left (`4`;
//! a letter `a`, `b`, ... is read too), a game the columns of its moves (`4453`); a
//! position is its board, rows from the top joined by `/` (`x`, `o` or `.` per cell), or
//! the moves that reach it from the start.

use super::{Board, Connect4};
use crate::game::{Game, Notation, PlayerId};
use crate::picture::{Grid, Kind, Picture, Shape};
use crate::session::quantity;
use crate::Error;

impl Connect4 {
    /// The column a move's text names (a number from 1 or a letter from `a`), if any.
    fn column_named(&self, text: &str) -> Option<usize> {
        let t = text.trim().to_ascii_lowercase();
        let c = match t.parse::<usize>() {
            Ok(n) => n.checked_sub(1)?,
            Err(_) => match t.as_bytes() {
                [letter @ b'a'..=b'z'] => (letter - b'a') as usize,
                _ => return None,
            },
        };
        (c < self.cols).then_some(c)
    }

    /// The position the moves `text` reach from the start, one column a character.
    fn replay(&self, text: &str) -> Result<Board, Error> {
        let mut p = self.start();
        for (i, ch) in text.trim().chars().enumerate() {
            let m = self
                .parse_move(&p, &ch.to_string())
                .map_err(|e| Error::bad_position(text, format!("move {} ({ch}): {e}", i + 1)))?;
            p = self.play(&p, &m);
        }
        Ok(p)
    }

    fn cell_char(&self, p: &Board, c: usize, r: usize) -> char {
        let bit = 1u64 << (c * (self.rows + 1) + r);
        if p.x & bit != 0 {
            'x'
        } else if p.mask & bit != 0 {
            'o'
        } else {
            '.'
        }
    }
}

impl Notation for Connect4 {
    fn parse_move(&self, p: &Board, text: &str) -> Result<u8, Error> {
        let Some(c) = self.column_named(text) else {
            return Err(Error::bad_move(
                text,
                format!("expected a column, 1 to {} (or a letter)", self.cols),
            ));
        };
        if self.outcome(p).is_some() {
            return Err(Error::bad_move(text, "the game is over"));
        }
        if self.playable(p) & self.column(c) == 0 {
            return Err(Error::bad_move(text, "that column is full"));
        }
        Ok(c as u8)
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == 0 { "X" } else { "O" }.to_string()
    }

    fn format_move(&self, _p: &Board, m: &u8) -> String {
        (m + 1).to_string()
    }

    /// The board, rows from the top joined by `/`, e.g. `......./...x.../...o...` on
    /// three rows; or the moves from the start, e.g. `4453` (an empty text is the start).
    fn parse_position(&self, text: &str) -> Result<Board, Error> {
        let t = text.trim();
        if t.is_empty() {
            return Err(Error::bad_position(
                text,
                "empty: give the board (rows joined by '/') or the columns of the moves",
            ));
        }
        if !t.contains(['/', '.', 'x', 'X', 'o', 'O']) {
            return self.replay(t);
        }
        let rows: Vec<&str> = t.split('/').collect();
        if rows.len() != self.rows || rows.iter().any(|r| r.chars().count() != self.cols) {
            return Err(Error::bad_position(
                text,
                format!(
                    "expected {} of {} joined by '/', or the columns of the moves",
                    quantity(self.rows, "row"),
                    quantity(self.cols, "cell")
                ),
            ));
        }
        let (mut x, mut mask) = (0u64, 0u64);
        for (i, row) in rows.iter().enumerate() {
            let r = self.rows - 1 - i;
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (c * (self.rows + 1) + r);
                match ch.to_ascii_lowercase() {
                    'x' => (x, mask) = (x | bit, mask | bit),
                    'o' => mask |= bit,
                    '.' => {}
                    _ => return Err(Error::bad_position(text, format!("'{ch}' is not x, o or ."))),
                }
            }
        }
        let board = self.board(x, mask).ok_or_else(|| {
            Error::bad_position(
                text,
                "a disc over an empty cell, disc counts that do not alternate (x first), \
                 or a line of the player to move",
            )
        })?;
        // The last disc completed every line of the last mover: they share a disc.
        let (_, last) = self.sides(&board);
        if board.mask != 0 && self.has_line(last) {
            let shared = (0..self.cols)
                .flat_map(|c| (0..self.rows).map(move |r| 1u64 << (c * (self.rows + 1) + r)))
                .filter(|&bit| last & bit != 0)
                .any(|bit| !self.has_line(last & !bit));
            if !shared {
                return Err(Error::bad_position(
                    text,
                    format!(
                        "{} has lines that no one last disc completed",
                        self.player_name(1 - self.to_move(&board))
                    ),
                ));
            }
        }
        Ok(board)
    }

    fn format_position(&self, p: &Board) -> String {
        (0..self.rows)
            .rev()
            .map(|r| {
                (0..self.cols)
                    .map(|c| self.cell_char(p, c, r))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn render(&self, p: &Board) -> String {
        let mut s = String::new();
        for r in (0..self.rows).rev() {
            s.push('|');
            for c in 0..self.cols {
                s.push(' ');
                s.push(self.cell_char(p, c, r).to_ascii_uppercase());
            }
            s += " |\n";
        }
        s.push(' ');
        for c in 0..self.cols {
            s += &format!(" {}", c + 1);
        }
        s.push('\n');
        s
    }

    /// A tall square per column, which drops a disc in it while the game goes on and the
    /// column is not full, with the discs on it, owned by their player.
    fn picture(&self, p: &Board) -> Option<Picture> {
        let grid = Grid {
            cols: self.cols,
            rows: self.rows,
        };
        let open = self.outcome(p).is_none();
        let playable = self.playable(p);
        let mut shapes = Vec::with_capacity(self.cols + self.cells());
        for c in 0..self.cols {
            let column = Shape::new(Kind::Cell, 1.0 + c as f64, 0.0, 1.0, self.rows as f64);
            shapes.push(if open && playable & self.column(c) != 0 {
                column.plays((c + 1).to_string())
            } else {
                column
            });
        }
        for c in 0..self.cols {
            for r in 0..self.rows {
                let owner = match self.cell_char(p, c, r) {
                    'x' => 0,
                    'o' => 1,
                    _ => continue,
                };
                shapes.push(grid.square(Kind::Piece, c, r).owner(owner));
            }
        }
        let mut picture = grid.picture(shapes);
        picture
            .notes
            .push("Click a column to drop a disc in it; columns are numbered from 1 (a) at the left.".into());
        Some(picture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_positions_round_trip() {
        let g = Connect4::new(7, 6, 4).unwrap();
        let p = g.parse_position("4453").unwrap();
        assert_eq!(
            g.format_position(&p),
            "......./......./......./......./...o.../..oxx.."
        );
        assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
        assert_eq!(g.parse_position("ddec").unwrap(), p);
        assert!(
            g.parse_position("").is_err(),
            "the start is its board, not no text"
        );
        assert_eq!(g.format_move(&p, &g.parse_move(&p, "g").unwrap()), "7");
    }

    #[test]
    fn bad_notation_is_refused() {
        let g = Connect4::new(4, 4, 4).unwrap();
        let full = g.parse_position("1111").unwrap();
        assert!(g.parse_move(&full, "1").unwrap_err().to_string().contains("full"));
        assert!(g.parse_move(&full, "5").is_err());
        assert!(g.parse_move(&full, "0").is_err());
        assert!(g.parse_position("..../..../x.../....").is_err());
        assert!(g.parse_position("..../..../..../oo..").is_err());
        assert!(g.parse_position("1515").is_err());
        let e = g.parse_position("x.../x.../x.../x...").unwrap_err().to_string();
        assert!(!e.is_empty());
    }

    #[test]
    fn the_picture_drops_discs_in_open_columns() {
        let g = Connect4::new(4, 4, 4).unwrap();
        let p = g.parse_position("1111").unwrap();
        let picture = g.picture(&p).unwrap();
        let discs: Vec<_> = picture.shapes.iter().filter(|s| s.kind == Kind::Piece).collect();
        assert_eq!(discs.len(), 4);
        assert!(discs.iter().all(|s| s.play.is_none()));
        let column2: Vec<_> = picture
            .shapes
            .iter()
            .filter(|s| s.play.as_deref() == Some("2"))
            .collect();
        assert_eq!(column2.len(), 1);
        assert_eq!((column2[0].h, picture.shapes[0].play.as_deref()), (4.0, None));
    }
}
