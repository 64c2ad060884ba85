//! The pawns game's notation: a move is a column letter and a row (`b3`), a position its
//! columns from row 0 up joined by `/` (or a board id) and the side to move; the board in
//! text and as a picture.

use super::{column_id, Board, PawnMove, Pawns, BLACK, WHITE};
use crate::game::{cell, Game, Notation, PlayerId};
use crate::picture::{Grid, Kind, Picture, Shape};
use crate::session::quantity;
use crate::Error;

impl Pawns {
    fn piece(&self, p: &Board, col: usize, row: usize) -> char {
        let (w, b) = self.column_rows(p.ids[col]);
        if w == row {
            'B'
        } else if b == row {
            'P'
        } else {
            '.'
        }
    }

    fn column_text(&self, p: &Board, col: usize) -> String {
        (0..self.rows).map(|row| self.piece(p, col, row)).collect()
    }

    fn parse_column(&self, text: &str, col: usize, whole: &str) -> Result<u8, Error> {
        let letter = cell::column(col);
        if text.chars().count() != self.rows {
            return Err(Error::bad_position(
                whole,
                format!(
                    "column {letter} has {}, expected {}",
                    quantity(text.chars().count(), "square"),
                    self.rows
                ),
            ));
        }
        let (mut white, mut black) = (None, None);
        for (row, ch) in text.chars().enumerate() {
            let slot = match ch {
                'B' | 'b' => &mut white,
                'P' | 'p' => &mut black,
                '.' => continue,
                _ => {
                    return Err(Error::bad_position(
                        whole,
                        format!("'{ch}' in column {letter} is not B (White), P (Black) or ."),
                    ))
                }
            };
            if slot.replace(row).is_some() {
                let who = if matches!(ch, 'B' | 'b') { "White" } else { "Black" };
                return Err(Error::bad_position(
                    whole,
                    format!("column {letter} has two {who} pawns"),
                ));
            }
        }
        match (white, black) {
            (Some(w), Some(b)) => Ok(column_id(self.rows, w, b)),
            (None, _) => Err(Error::bad_position(
                whole,
                format!("column {letter} has no White pawn"),
            )),
            (_, None) => Err(Error::bad_position(
                whole,
                format!("column {letter} has no Black pawn"),
            )),
        }
    }
}

fn side_word(player: PlayerId) -> &'static str {
    if player == WHITE {
        "white"
    } else {
        "black"
    }
}

impl Notation for Pawns {
    /// `b3` moves the mover's pawn of column b to row 3 (rows from 1 at White's edge);
    /// `pass` only when no move exists.
    fn parse_move(&self, p: &Board, text: &str) -> Result<PawnMove, Error> {
        let t = text.trim().to_ascii_lowercase();
        if self.outcome(p).is_some() {
            return Err(Error::bad_move(text, "the game is over"));
        }
        let legal = self.legal_moves(p);
        if t == "pass" {
            return if legal == [PawnMove::Pass] {
                Ok(PawnMove::Pass)
            } else {
                Err(Error::bad_move(text, "a move exists, so passing is not allowed"))
            };
        }
        let (col, row) = cell::parse(&t, self.cols, self.rows).map_err(|bad| match bad {
            cell::Bad::Form => {
                Error::bad_move(text, "expected a column letter and a row number like b3, or pass")
            }
            cell::Bad::Off => Error::bad_move(text, format!("off the {} x {} board", self.cols, self.rows)),
        })?;
        let m = PawnMove::Step {
            col: col as u8,
            row: row as u8,
        };
        if legal.contains(&m) {
            Ok(m)
        } else {
            Err(Error::bad_move(
                text,
                format!(
                    "{}'s pawn in column {} cannot move to row {}",
                    self.player_name(p.to_move),
                    cell::column(col),
                    row + 1
                ),
            ))
        }
    }

    fn format_move(&self, _p: &Board, m: &PawnMove) -> String {
        match *m {
            PawnMove::Step { col, row } => cell::name(col.into(), row.into()),
            PawnMove::Pass => "pass".into(),
        }
    }

    /// Columns from row 0 up, `B` White, `P` Black, `.` empty, joined by `/`, then the
    /// side to move (`B...P/.B.P./B...P white`); or a board id and the side to move
    /// (`1263 white`). Without a side, the game's first player is to move.
    fn parse_position(&self, text: &str) -> Result<Board, Error> {
        let mut words = text.split_whitespace();
        let board = words.next().unwrap_or("");
        let to_move = match words.next().map(|w| w.to_ascii_lowercase()).as_deref() {
            None => self.start.to_move,
            Some("white" | "w") => WHITE,
            Some("black" | "b") => BLACK,
            Some(other) => {
                return Err(Error::bad_position(
                    text,
                    format!("'{other}' is not the side to move (white or black)"),
                ))
            }
        };
        if words.next().is_some() {
            return Err(Error::bad_position(
                text,
                "expected the columns and the side to move",
            ));
        }
        if !board.is_empty() && board.chars().all(|c| c.is_ascii_digit()) {
            let id: u64 = board
                .parse()
                .map_err(|_| Error::bad_position(text, "the board id is too large"))?;
            return self.from_board_id(id, to_move).ok_or_else(|| {
                Error::bad_position(
                    text,
                    format!(
                        "not a board id of the {} x {} board (0..{}, not every pawn arrived)",
                        self.cols,
                        self.rows,
                        self.raw_boards()
                    ),
                )
            });
        }
        let columns: Vec<&str> = board.split('/').collect();
        if columns.len() != self.cols {
            return Err(Error::bad_position(
                text,
                format!(
                    "{} given, expected {} joined by '/'",
                    quantity(columns.len(), "column"),
                    self.cols
                ),
            ));
        }
        let ids = columns
            .iter()
            .enumerate()
            .map(|(i, c)| self.parse_column(c, i, text))
            .collect::<Result<Vec<u8>, Error>>()?;
        self.board(&ids, to_move).ok_or_else(|| {
            Error::bad_position(text, "both sides cannot have arrived: the game ends at the first")
        })
    }

    fn format_position(&self, p: &Board) -> String {
        let columns: Vec<String> = (0..self.cols).map(|c| self.column_text(p, c)).collect();
        format!("{} {}", columns.join("/"), side_word(p.to_move))
    }

    /// White pawns as ○, Black pawns as ●, rows numbered from White's edge.
    fn render(&self, p: &Board) -> String {
        let mut s = String::new();
        for row in (0..self.rows).rev() {
            s += &format!("{:>2} ", row + 1);
            for col in 0..self.cols {
                s.push(' ');
                s.push(match self.piece(p, col, row) {
                    'B' => '○',
                    'P' => '●',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s += "   ";
        for col in 0..self.cols {
            s.push(' ');
            s.push(cell::column(col));
        }
        s += "\n   ○ White (moving up), ● Black (moving down)\n";
        s
    }

    /// The board's cells with a piece per pawn (White's owned by 0 and `white`, Black's by
    /// 1 and `black`); the destination square of every legal move plays it, and a forced
    /// pass is a `pass` text below the board.
    fn picture(&self, p: &Board) -> Option<Picture> {
        let grid = Grid {
            cols: self.cols,
            rows: self.rows,
        };
        let mut cells: Vec<Vec<Shape>> = (0..self.cols)
            .map(|col| {
                (0..self.rows)
                    .map(|row| grid.square(Kind::Cell, col, row))
                    .collect()
            })
            .collect();
        let mut pass = false;
        let mut movable = vec![false; self.cols];
        for m in self.legal_moves(p) {
            match m {
                PawnMove::Step { col, row } => {
                    cells[col as usize][row as usize].play = Some(self.format_move(p, &m));
                    movable[col as usize] = true;
                }
                PawnMove::Pass => pass = true,
            }
        }
        let mut shapes: Vec<Shape> = cells.into_iter().flatten().collect();
        for (col, &movable) in movable.iter().enumerate() {
            let (white, black) = self.column_rows(p.ids[col]);
            let mut white = grid.square(Kind::Piece, col, white).owner(WHITE).color("white");
            let mut black = grid.square(Kind::Piece, col, black).owner(BLACK).color("black");
            // The pawns that can move point the way they go.
            if movable && p.to_move == WHITE {
                white = white.label("↑");
            } else if movable {
                black = black.label("↓");
            }
            shapes.extend([white, black]);
        }
        let mut picture = grid.picture(shapes);
        if pass {
            let text = Shape::new(Kind::Text, 1.0, picture.height, self.cols as f64, 1.0);
            picture.shapes.push(text.label("pass").plays("pass"));
            picture.height += 1.0;
        }
        Some(picture)
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == WHITE { "White" } else { "Black" }.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_plays_destination_squares_and_draws_pawns() {
        let g = Pawns::new(3, 5, WHITE).unwrap();
        let picture = g.picture(&g.start()).unwrap();
        // Column a, row 2 (the second cell of the first column) is a destination of White.
        let a2 = &picture.shapes[1];
        assert_eq!((a2.x, a2.y, a2.play.as_deref()), (1.0, 3.0, Some("a2")));
        let pieces: Vec<_> = picture.shapes.iter().filter(|s| s.kind == Kind::Piece).collect();
        assert_eq!(pieces.len(), 6);
        assert_eq!(
            (pieces[1].y, pieces[1].owner, pieces[1].color.as_deref()),
            (0.0, Some(BLACK), Some("black"))
        );
        assert!(!picture.shapes.iter().any(|s| s.play.as_deref() == Some("pass")));
    }

    #[test]
    fn bad_positions_are_refused() {
        let g = Pawns::new(3, 5, WHITE).unwrap();
        for (text, why) in [
            ("B...P/B...P", "2 columns"),
            ("B...P/B..P/B...P", "4 squares"),
            ("B...P/BB..P/B...P", "two White"),
            ("B...P/....P/B...P", "no White"),
            ("B...P/B..../B...P", "no Black"),
            ("B...P/B.X.P/B...P", "'X'"),
            ("P...B/P...B/P...B", "both sides"),
            ("B...P/B...P/B...P green", "side to move"),
            ("8000", "not a board id"),
        ] {
            let e = g.parse_position(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
