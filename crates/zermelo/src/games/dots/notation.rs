//! The notation of Dots and Boxes (the course's): dot rows are numbered from 1 at the
//! bottom, dot columns lettered from `a` at the left; a dot is `1a`. A line is written
//! digits first, then letters, each sorted: `12a` is the vertical line from 1a to 2a, `1ab`
//! the horizontal line from 1a to 1b. A box is named by its lower-right corner dot: the box
//! above `1ab` is `1b`. The first player is `○`, the second `●`. The board in text and as
//! a picture.

use std::fmt::Write as _;

use super::{Dots, Position};
use crate::game::{cell, Game, Notation, PlayerId};
use crate::picture::{Grid, Kind, Picture, Shape};
use crate::Error;

impl Dots {
    /// The name of box `b`: its lower-right corner dot.
    pub fn box_name(&self, b: usize) -> String {
        let (r, c) = (b / (self.cols - 1), b % (self.cols - 1));
        format!("{}{}", r + 1, (b'b' + c as u8) as char)
    }

    /// The names of the boxes in the bit set `boxes`.
    pub fn box_names(&self, boxes: u64) -> Vec<String> {
        (0..self.box_count())
            .filter(|b| boxes >> b & 1 == 1)
            .map(|b| self.box_name(b))
            .collect()
    }

    /// The canonical name of line `l`: `12a` (vertical) or `1ab` (horizontal).
    pub fn line_name(&self, l: usize) -> String {
        let ((r1, c1), (r2, c2)) = self.ends(l);
        if r1 == r2 {
            format!("{}{}{}", r1 + 1, cell::column(c1), cell::column(c2))
        } else {
            format!("{}{}{}", r1 + 1, r2 + 1, cell::column(c1))
        }
    }

    /// Reads a line in any order of its characters (`ab1`, `b1a`, `1ab`, also `1a2a` or
    /// `1a-1b`), saying why when it is not a line of this board.
    pub fn parse_line(&self, text: &str) -> Result<usize, Error> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let not_a_move = || {
            Error::bad_move(
                text,
                "not a move: expected two adjacent dots like 1ab (horizontal) or 12a (vertical)",
            )
        };
        if !t.chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()) {
            return Err(not_a_move());
        }
        let mut digits: Vec<u8> = t.bytes().filter(u8::is_ascii_digit).collect();
        let mut letters: Vec<u8> = t.bytes().filter(u8::is_ascii_lowercase).collect();
        digits.sort_unstable();
        letters.sort_unstable();
        let (d, l) = match (digits.len(), letters.len()) {
            (2, 1) => ([digits[0], digits[1]], [letters[0], letters[0]]),
            (1, 2) => ([digits[0], digits[0]], [letters[0], letters[1]]),
            (2, 2) => ([digits[0], digits[1]], [letters[0], letters[1]]),
            _ => return Err(not_a_move()),
        };
        let off = d.iter().any(|&x| x < b'1' || (x - b'1') as usize >= self.rows)
            || l.iter().any(|&x| (x - b'a') as usize >= self.cols);
        if off {
            return Err(Error::bad_move(
                text,
                format!(
                    "off the board (rows 1..{}, columns a..{})",
                    self.rows,
                    (b'a' + self.cols as u8 - 1) as char
                ),
            ));
        }
        let a = ((d[0] - b'1') as usize, (l[0] - b'a') as usize);
        let b = ((d[1] - b'1') as usize, (l[1] - b'a') as usize);
        if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) != 1 {
            return Err(Error::bad_move(
                text,
                "the dots are not adjacent (a line joins neighbouring dots across or up)",
            ));
        }
        Ok(self.line_between(a, b))
    }

    /// The position after drawing `lines` in order from the start, or the first bad one.
    pub fn after(&self, lines: &[&str]) -> Result<Position, Error> {
        let mut p = self.start();
        for text in lines {
            let m = self.parse_move(&p, text)?;
            p = self.play(&p, &m);
        }
        Ok(p)
    }
}

impl Notation for Dots {
    /// Lenient: the characters of a line in any order (`b1a` is `1ab`).
    fn parse_move(&self, p: &Position, text: &str) -> Result<u8, Error> {
        let l = self.parse_line(text)?;
        if p.lines.has(l) {
            return Err(Error::bad_move(
                text,
                format!("{} is already drawn", self.line_name(l)),
            ));
        }
        Ok(l as u8)
    }

    fn format_move(&self, _p: &Position, m: &u8) -> String {
        self.line_name(*m as usize)
    }

    /// `LINES|○ BOXES|● BOXES|MOVER`: lines and boxes comma-separated (`-` for none),
    /// the mover `○` or `●` (also `1`/`2`), e.g. `1ab,12a,12b,2ab|1b|-|○`.
    fn parse_position(&self, text: &str) -> Result<Position, Error> {
        let parts: Vec<&str> = text.trim().split('|').collect();
        if parts.len() != 4 {
            return Err(Error::bad_position(
                text,
                "expected LINES|○ BOXES|● BOXES|MOVER, e.g. 1ab,12a|-|-|●",
            ));
        }
        let items = |s: &str| -> Vec<String> {
            s.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty() && *x != "-")
                .map(str::to_string)
                .collect()
        };
        let mut p = self.start();
        for l in items(parts[0]) {
            let line = self
                .parse_line(&l)
                .map_err(|e| Error::bad_position(text, e.to_string()))?;
            if p.lines.has(line) {
                return Err(Error::bad_position(text, format!("line '{l}' is given twice")));
            }
            p.lines.insert(line);
        }
        for who in 0..2 {
            for name in items(parts[who + 1]) {
                let b = (0..self.box_count())
                    .find(|&b| self.box_name(b) == name.to_ascii_lowercase())
                    .ok_or_else(|| Error::bad_position(text, format!("'{name}' is not a box")))?;
                if p.boxes[who] >> b & 1 == 1 {
                    return Err(Error::bad_position(text, format!("box '{name}' is given twice")));
                }
                p.boxes[who] |= 1 << b;
            }
        }
        p.mover = match parts[3].trim() {
            "○" | "1" => 0,
            "●" | "2" => 1,
            other => {
                return Err(Error::bad_position(
                    text,
                    format!("mover '{other}' is not ○ or ●"),
                ))
            }
        };
        let complete = (0..self.box_count())
            .filter(|&b| self.sides(&p.lines, b) == 4)
            .fold(0u64, |acc, b| acc | 1 << b);
        if p.boxes[0] & p.boxes[1] != 0 || p.boxes[0] | p.boxes[1] != complete {
            return Err(Error::bad_position(
                text,
                "the boxes held must be exactly the completed boxes, each held by one player",
            ));
        }
        Ok(p)
    }

    fn format_position(&self, p: &Position) -> String {
        let list = |v: Vec<String>| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(",")
            }
        };
        format!(
            "{}|{}|{}|{}",
            list(p.lines.iter().map(|l| self.line_name(l)).collect()),
            list(self.box_names(p.boxes[0])),
            list(self.box_names(p.boxes[1])),
            self.player_name(p.mover)
        )
    }

    /// Dots `·`, lines `───` and `│`, box owners `○`/`●`; rows numbered, columns lettered.
    fn render(&self, p: &Position) -> String {
        let mut s = String::new();
        for r in (0..self.rows).rev() {
            let _ = write!(s, "{:>2} ", r + 1);
            for c in 0..self.cols {
                s.push('·');
                if c + 1 < self.cols {
                    s += if p.lines.has(self.h(r, c)) {
                        "───"
                    } else {
                        "   "
                    };
                }
            }
            s.push('\n');
            if r == 0 {
                break;
            }
            s += "   ";
            for c in 0..self.cols {
                s.push(if p.lines.has(self.v(r - 1, c)) { '│' } else { ' ' });
                if c + 1 < self.cols {
                    let b = self.box_at(r - 1, c);
                    let owner = if p.boxes[0] >> b & 1 == 1 {
                        '○'
                    } else if p.boxes[1] >> b & 1 == 1 {
                        '●'
                    } else {
                        ' '
                    };
                    let _ = write!(s, " {owner} ");
                }
            }
            s.truncate(s.trim_end_matches(' ').len());
            s.push('\n');
        }
        s += "   ";
        for c in 0..self.cols {
            s.push(cell::column(c));
            if c + 1 < self.cols {
                s += "   ";
            }
        }
        s.push('\n');
        s
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == 0 { "○" } else { "●" }.to_string()
    }

    /// Captured boxes as cells owned and labelled by their holder, then every line (drawn
    /// ones without a move, and without an owner: a position does not know who drew them;
    /// undrawn ones play themselves), then the dots, in the middle of the squares of a
    /// labelled grid.
    fn picture(&self, p: &Position) -> Option<Picture> {
        let grid = Grid {
            cols: self.cols,
            rows: self.rows,
        };
        let centre = |(r, c): (usize, usize)| {
            let square = grid.square(Kind::Cell, c, r);
            (square.x + 0.5, square.y + 0.5)
        };
        let mut shapes = Vec::new();
        for b in 0..self.box_count() {
            let Some(owner) = (0..2).find(|&who| p.boxes[who] >> b & 1 == 1) else {
                continue;
            };
            let (r, c) = (b / (self.cols - 1), b % (self.cols - 1));
            let (x, y) = centre((r + 1, c));
            let cell = Shape::new(Kind::Cell, x, y, 1.0, 1.0);
            shapes.push(
                cell.owner(owner as PlayerId)
                    .label(self.player_name(owner as PlayerId)),
            );
        }
        for l in 0..self.line_count() {
            let (low, high) = self.ends(l);
            // From the upper (or left) end, so that the run is never negative.
            let (x, y) = centre(if low.0 == high.0 { low } else { high });
            let line = if low.0 == high.0 {
                Shape::new(Kind::Line, x, y, 1.0, 0.0)
            } else {
                Shape::new(Kind::Line, x, y, 0.0, 1.0)
            };
            shapes.push(if p.lines.has(l) {
                line
            } else {
                line.plays(self.line_name(l))
            });
        }
        for r in 0..self.rows {
            for c in 0..self.cols {
                let (x, y) = centre((r, c));
                shapes.push(Shape::new(Kind::Dot, x, y, 0.0, 0.0));
            }
        }
        Some(grid.picture(shapes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_plays_undrawn_lines_and_shows_captured_boxes() {
        let g = Dots::square(2).unwrap();
        let start = g.picture(&g.start()).unwrap();
        let bottom = &start.shapes[0];
        assert_eq!((bottom.x, bottom.y, bottom.w, bottom.h), (1.5, 1.5, 1.0, 0.0));
        assert_eq!(bottom.play.as_deref(), Some("1ab"));
        let p = g.parse_position("1ab,12a,12b,2ab|1b|-|○").unwrap();
        let picture = g.picture(&p).unwrap();
        let captured = &picture.shapes[0];
        assert_eq!((captured.kind, captured.x, captured.y), (Kind::Cell, 1.5, 0.5));
        assert_eq!((captured.owner, captured.label.as_deref()), (Some(0), Some("○")));
        assert!(picture.shapes.iter().all(|s| s.play.is_none()));
    }

    #[test]
    fn names_round_trip() {
        let g = Dots::new(4, 5).unwrap();
        for l in 0..g.line_count() {
            assert_eq!(g.parse_line(&g.line_name(l)).unwrap(), l);
        }
        assert_eq!(g.box_name(0), "1b");
    }

    #[test]
    fn lenient_input_is_normalised() {
        let g = Dots::square(3).unwrap();
        let p = g.start();
        for (text, canon) in [
            ("ab1", "1ab"),
            ("b1a", "1ab"),
            ("3c2", "23c"),
            ("1a2a", "12a"),
            (" 1A-1B ", "1ab"),
        ] {
            let m = g.parse_move(&p, text).unwrap();
            assert_eq!(g.format_move(&p, &m), canon, "{text}");
        }
    }

    #[test]
    fn bad_moves_say_why() {
        let g = Dots::square(3).unwrap();
        let p = g.after(&["1ab"]).unwrap();
        let why = |t: &str| g.parse_move(&p, t).unwrap_err().to_string();
        assert!(why("1ac").contains("not adjacent"));
        assert!(why("13a").contains("not adjacent"));
        assert!(why("1a2b").contains("not adjacent"));
        assert!(why("1cd").contains("off the board"));
        assert!(why("34a").contains("off the board"));
        assert!(why("ba1").contains("already drawn"));
        assert!(why("hello").contains("not a move"));
        assert!(why("1a").contains("not a move"));
    }

    #[test]
    fn position_notation_round_trips() {
        let g = Dots::square(3).unwrap();
        let p = g.after(&["1ab", "12a", "12b", "2ab"]).unwrap();
        let text = g.format_position(&p);
        assert_eq!(text, "1ab,2ab,12a,12b|-|1b|●");
        assert_eq!(g.parse_position(&text).unwrap(), p);
        assert!(g.parse_position("1ab|1b|-|○").is_err());
        assert!(g.parse_position("1ab|-|-|x").is_err());
    }
}
