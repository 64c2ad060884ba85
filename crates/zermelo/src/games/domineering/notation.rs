//! The notation of Domineering: a move is its domino's lower-left cell, column letter
//! then row number (`a1` at the bottom left, columns a to k, rows 1 to 11); a position is
//! its rows from the top, `#` covered and `.` free, then the player to move where the
//! count of dominoes does not say it; the board in text and as a picture.

use super::{Cells, Domineering, HORIZONTAL, MAX_SIDE, SWAPPED, VERTICAL};
use crate::game::{cell, Game, Notation, PlayerId};
use crate::picture::{Grid, Kind, Picture, Shape};
use crate::session::quantity;
use crate::Error;

impl Notation for Domineering {
    fn parse_move(&self, p: &Cells, text: &str) -> Result<usize, Error> {
        let bad = |why: String| Error::bad_move(text, why);
        let (c, row) = cell::parse(text, self.board.cols, self.board.rows).map_err(|e| match e {
            cell::Bad::Form => bad("expected a cell like b2 (column letter, row number)".into()),
            cell::Bad::Off => bad(format!(
                "no such cell on a {} x {} board",
                self.board.rows, self.board.cols
            )),
        })?;
        let cell = row * self.board.cols + c;
        let mover = self.to_move(p);
        match self.partner(mover, cell) {
            None => Err(bad(format!(
                "{}'s domino from {} would leave the board",
                self.player_name(mover),
                self.cell_name(cell)
            ))),
            Some(o) if p >> cell & 1 == 1 || p >> o & 1 == 1 => Err(bad(format!(
                "{} or {} is covered",
                self.cell_name(cell),
                self.cell_name(o)
            ))),
            Some(_) => Ok(cell),
        }
    }

    fn format_move(&self, _p: &Cells, m: &usize) -> String {
        self.cell_name(*m)
    }

    /// Rows from the top joined by `/`, `#` for a covered cell and `.` for a free one,
    /// then ` V` or ` H` naming the player to move where the covered cells may be any;
    /// without it, the count of dominoes says who moves.
    fn parse_position(&self, text: &str) -> Result<Cells, Error> {
        let bad = |why: String| Error::bad_position(text, why);
        let (board, mover) = match text.trim().rsplit_once(' ') {
            Some((board, "V" | "v")) => (board, Some(VERTICAL)),
            Some((board, "H" | "h")) => (board, Some(HORIZONTAL)),
            Some((_, other)) => return Err(bad(format!("'{other}' is not V or H, the player to move"))),
            None => (text, None),
        };
        let rows: Vec<&str> = board.trim().split('/').collect();
        if rows.len() != self.board.rows || rows.iter().any(|r| r.chars().count() != self.board.cols) {
            return Err(bad(format!(
                "expected {} of {} joined by '/'",
                quantity(self.board.rows, "row"),
                quantity(self.board.cols, "cell")
            )));
        }
        let (_, _, p) = read_rows(board).map_err(&bad)?;
        let missing = self.blocked & !p;
        if missing != 0 {
            return Err(bad(format!(
                "{} is not on this board: mark it #",
                self.cell_name(missing.trailing_zeros() as usize)
            )));
        }
        if let Some(mover) = mover {
            return Ok(if mover == self.by_count(p) { p } else { p | SWAPPED });
        }
        let add_mover = "add ' V' or ' H' to name the player to move";
        if (p & !self.blocked).count_ones() % 2 == 1 {
            return Err(bad(format!(
                "dominoes cover an even number of cells ({add_mover})"
            )));
        }
        if !self.reachable(p) {
            return Err(bad(format!(
                "the covered cells are not dominoes that {} and {} can have placed in turn, {} first ({add_mover})",
                self.player_name(self.first),
                self.player_name(1 - self.first),
                self.player_name(self.first)
            )));
        }
        Ok(p)
    }

    /// As [`Notation::parse_position`] reads it: the mover named where the count of
    /// dominoes does not say it.
    fn format_position(&self, p: &Cells) -> String {
        let rows = self.rows_text(*p);
        if self.reachable(*p) {
            return rows;
        }
        let mover = if self.to_move(p) == VERTICAL { "V" } else { "H" };
        format!("{rows} {mover}")
    }

    fn render(&self, p: &Cells) -> String {
        let mut s = String::new();
        for (i, row) in self.rows_text(*p).split('/').enumerate() {
            s += &format!("{:>2} ", self.board.rows - i);
            for ch in row.chars() {
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        s += "   ";
        for c in 0..self.board.cols {
            s.push(' ');
            s.push(cell::column(c));
        }
        s.push('\n');
        s
    }

    /// One cell per square; every free cell that is the lower-left cell of one of the
    /// mover's dominoes plays that move. Each domino on the board is one tile over its two
    /// squares in its player's colour (Vertical's seat 0, Horizontal's seat 1); a position
    /// knows which cells are covered, not by whom, so where the covered cells split into
    /// dominoes more than one way, the picture shows one of the splits play can reach. A
    /// covered cell of no such domino (blocked) is a tile of its own, in no one's colour.
    fn picture(&self, p: &Cells) -> Option<Picture> {
        let grid = Grid {
            cols: self.board.cols,
            rows: self.board.rows,
        };
        let mut cells: Vec<_> = (0..self.cells())
            .map(|cell| grid.square(Kind::Cell, cell % self.board.cols, cell / self.board.cols))
            .collect();
        let mover = self.to_move(p);
        for cell in self.places(*p, mover) {
            cells[cell].play = Some(self.cell_name(cell));
        }
        const INSET: f64 = 0.1;
        let dominoes = self.dominoes(*p).unwrap_or_default();
        let tiled = dominoes.iter().fold(0, |acc: Cells, &(cell, player)| {
            acc | 1 << cell | 1 << self.partner(player, cell).expect("a domino")
        });
        for cell in (0..self.cells()).filter(|&c| (p & !tiled) >> c & 1 == 1) {
            let square = grid.square(Kind::Tile, cell % self.board.cols, cell / self.board.cols);
            cells.push(Shape::new(
                Kind::Tile,
                square.x + INSET,
                square.y + INSET,
                square.w - 2.0 * INSET,
                square.h - 2.0 * INSET,
            ));
        }
        for (cell, player) in dominoes {
            let corner = grid.square(Kind::Tile, cell % self.board.cols, cell / self.board.cols);
            let (w, h, y) = if player == VERTICAL {
                (1.0, 2.0, corner.y - 1.0)
            } else {
                (2.0, 1.0, corner.y)
            };
            let tile = Shape::new(
                Kind::Tile,
                corner.x + INSET,
                y + INSET,
                w - 2.0 * INSET,
                h - 2.0 * INSET,
            );
            cells.push(tile.owner(player as PlayerId));
        }
        let mut picture = grid.picture(cells);
        picture.notes = vec![
            "Vertical's dominoes are blue, Horizontal's orange.".into(),
            if mover == VERTICAL {
                "Click a free square to stand Vertical's domino on it and the square above it."
            } else {
                "Click a free square to lay Horizontal's domino on it and the square to its right."
            }
            .into(),
        ];
        Some(picture)
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == VERTICAL {
            "Vertical"
        } else {
            "Horizontal"
        }
        .into()
    }
}

/// The rows, columns and `#` cells of rows from the top joined by `/`, each cell `#` or `.`.
pub(super) fn read_rows(text: &str) -> Result<(usize, usize, Cells), String> {
    let rows: Vec<&str> = text.trim().split('/').collect();
    let cols = rows[0].chars().count();
    if rows.iter().any(|r| r.chars().count() != cols) {
        return Err("the rows are not all as long".into());
    }
    if rows.len() > MAX_SIDE || cols > MAX_SIDE || cols == 0 {
        return Err(format!("at most {MAX_SIDE} rows of at most {MAX_SIDE} cells"));
    }
    let mut p: Cells = 0;
    for (i, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '#' => p |= 1 << ((rows.len() - 1 - i) * cols + c),
                '.' => {}
                other => return Err(format!("'{other}' is not # or .")),
            }
        }
    }
    Ok((rows.len(), cols, p))
}
