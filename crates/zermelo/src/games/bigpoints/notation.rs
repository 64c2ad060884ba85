//! Big Points notation: boards, moves, positions and the terminal picture.
//!
//! A position is written `PATH/PAWNS/STAIR/HAND/.../HAND/MOVER`:
//! - `PATH`: one character per path disc, its kind (`1`..`5`, `w`, `k`) or `.` once taken;
//! - `PAWNS`: one character per pawn in colour order: `0` before the path, `1`..`9`,
//!   `a`..`e` the index among its colour's discs, `s` on the stair;
//! - `STAIR`: the colours in order of arrival (`-` for none);
//! - each player's hand as kind letters with counts, e.g. `r2g1w1` (`-` for empty);
//! - `MOVER`: the player to move, from 1.
//!
//! For example `1.2.1/1s/g/g2/r1/2` on board `12211`.

use super::{BigPoints, Move, Position, Step, Take, BLACK, KINDS, NOT_ARRIVED, NO_DISC, ON_STAIR, WHITE};
use crate::game::{Game, Notation, PlayerId};
use crate::picture::{Kind, Picture, Shape};
use crate::session::quantity;
use crate::Error;

const LETTERS: [char; KINDS] = ['r', 'g', 'b', 'y', 'p', 'w', 'k'];
const NAMES: [&str; KINDS] = ["red", "green", "blue", "yellow", "purple", "white", "black"];

/// The letter of a disc kind: `r g b y p w k`.
pub fn kind_letter(kind: u8) -> char {
    LETTERS[kind as usize]
}

/// The kind of a letter or colour digit.
fn kind_of(ch: char) -> Option<u8> {
    let ch = ch.to_ascii_lowercase();
    match ch {
        '1'..='5' => Some(ch as u8 - b'1'),
        _ => LETTERS.iter().position(|&l| l == ch).map(|k| k as u8),
    }
}

/// Parses a path: colour digits `1`..`5` or letters `r g b y p`, `w` white, `k` black.
pub fn parse_board(text: &str) -> Result<Vec<u8>, Error> {
    text.trim()
        .chars()
        .map(|ch| {
            kind_of(ch).ok_or_else(|| {
                Error::Spec(format!(
                    "board={text}: '{ch}' is not a disc (1-5 or r,g,b,y,p; w white; k black)"
                ))
            })
        })
        .collect()
}

/// A path in board notation: colours as digits, then `w` and `k`.
pub fn format_board(path: &[u8]) -> String {
    path.iter().map(|&k| board_char(k)).collect()
}

fn board_char(kind: u8) -> char {
    if kind < WHITE {
        (b'1' + kind) as char
    } else {
        kind_letter(kind)
    }
}

fn format_step(s: &Step) -> String {
    let mut t = kind_letter(s.pawn).to_string();
    if s.back {
        t.push('~');
    }
    t.push(match s.take {
        Take::Ahead => '+',
        Take::Behind => '-',
        Take::Stair => '^',
        Take::Nothing => '.',
    });
    t
}

/// Parses one step; legality is checked by the caller.
fn parse_step(text: &str) -> Option<Step> {
    let mut chars = text.chars();
    let pawn = kind_of(chars.next()?).filter(|&k| k < WHITE)?;
    let mut rest = chars.as_str();
    let back = rest.starts_with('~');
    if back {
        rest = &rest[1..];
    }
    let take = match rest {
        "+" => Take::Ahead,
        "-" => Take::Behind,
        "^" => Take::Stair,
        "." => Take::Nothing,
        _ => return None,
    };
    Some(Step {
        pawn,
        back,
        take,
        to: 0,
        took: NO_DISC,
    })
}

fn hand_text(p: &Position, who: usize) -> String {
    let t: String = (0..KINDS as u8)
        .filter(|&k| p.held(who, k) > 0)
        .map(|k| format!("{}{}", kind_letter(k), p.held(who, k)))
        .collect();
    if t.is_empty() {
        "-".into()
    } else {
        t
    }
}

fn pawn_char(index: u64) -> char {
    match index {
        ON_STAIR => 's',
        i => std::char::from_digit(i as u32, 16).expect("index below 15"),
    }
}

impl BigPoints {
    /// The colours on the stair in order of arrival.
    fn arrivals(&self, p: &Position) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.colours).filter(|&c| p.rank(c) != NOT_ARRIVED).collect();
        order.sort_by_key(|&c| p.rank(c));
        order
    }

    fn bad(text: &str, why: impl Into<String>) -> Error {
        Error::bad_position(text, why)
    }

    fn check_position(&self, text: &str, p: &Position) -> Result<(), Error> {
        for (c, name) in NAMES.iter().enumerate().take(self.colours) {
            let i = p.pawn(c);
            if i != 0 && i != ON_STAIR {
                if i > self.of_colour[c] as u64 {
                    return Err(Self::bad(text, format!("the {name} pawn is past its discs")));
                }
                if p.is_taken(self.disc_at[c][i as usize - 1] as usize) {
                    return Err(Self::bad(text, format!("the {name} pawn stands on a taken disc")));
                }
            }
        }
        for k in 0..KINDS as u8 {
            let on_path = self.kind_mask[k as usize] & p.taken;
            let stair = u32::from((k as usize) < self.colours && p.pawn(k as usize) == ON_STAIR);
            let expected = on_path.count_ones() + stair;
            let held: u32 = (0..self.players).map(|w| p.held(w, k)).sum();
            let consistent = if k == BLACK {
                held <= expected
            } else {
                held == expected
            };
            if !consistent {
                return Err(Self::bad(
                    text,
                    format!(
                        "the hands hold {held} {} discs, but {expected} were taken",
                        NAMES[k as usize]
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Notation for BigPoints {
    fn parse_move(&self, p: &Position, text: &str) -> Result<Move, Error> {
        let t = text.trim().to_ascii_lowercase();
        let mut parts = t.split('/');
        let step = parts.next().and_then(parse_step);
        let extra = parts.next().map(parse_step);
        let (Some(step), None | Some(Some(_)), None) = (step, extra, parts.next()) else {
            return Err(Error::bad_move(
                text,
                "expected a pawn colour and a take (+ ahead, - behind, ^ stair, . nothing), \
                 e.g. r+, or with a black-disc extra move g+/r~- (~ = backward)",
            ));
        };
        if self.outcome(p).is_some() {
            return Err(Error::bad_move(text, "the game is over"));
        }
        let extra = extra.flatten();
        let legal = self.legal_moves(p);
        let named = |m: &&Move| {
            m.step.names(&step)
                && match (&m.extra, &extra) {
                    (None, None) => true,
                    (Some(a), Some(b)) => a.names(b),
                    _ => false,
                }
        };
        if let Some(m) = legal.iter().find(named) {
            return Ok(*m);
        }
        let mut plain: Vec<String> = legal
            .iter()
            .filter(|m| m.extra.is_none())
            .map(|m| format_step(&m.step))
            .collect();
        plain.dedup();
        let why = if extra.is_some() && p.held(p.mover() as usize, BLACK) == 0 {
            "no black disc from an earlier turn to give up".to_string()
        } else {
            format!("not legal here (moves: {})", plain.join(" "))
        };
        Err(Error::bad_move(text, why))
    }

    fn format_move(&self, _p: &Position, m: &Move) -> String {
        match &m.extra {
            None => format_step(&m.step),
            Some(e) => format!("{}/{}", format_step(&m.step), format_step(e)),
        }
    }

    fn parse_position(&self, text: &str) -> Result<Position, Error> {
        let fields: Vec<&str> = text.trim().split('/').collect();
        if fields.len() != self.players + 4 {
            return Err(Self::bad(
                text,
                format!("expected PATH/PAWNS/STAIR/{} hands/MOVER", self.players),
            ));
        }
        let mut p = self.start();
        let path: Vec<char> = fields[0].chars().collect();
        if path.len() != self.path.len() {
            return Err(Self::bad(
                text,
                format!("the path has {}", quantity(self.path.len(), "disc")),
            ));
        }
        for (i, &ch) in path.iter().enumerate() {
            if ch == '.' {
                p.taken |= 1 << i;
            } else if kind_of(ch) != Some(self.path[i]) {
                return Err(Self::bad(
                    text,
                    format!("disc {} is {}, not '{ch}'", i + 1, board_char(self.path[i])),
                ));
            }
        }
        let pawns: Vec<char> = fields[1].chars().collect();
        if pawns.len() != self.colours {
            return Err(Self::bad(text, format!("expected {} pawn places", self.colours)));
        }
        for (c, &ch) in pawns.iter().enumerate() {
            let index = match ch {
                's' | 'S' => ON_STAIR,
                _ => ch
                    .to_digit(16)
                    .filter(|&d| d < 15)
                    .ok_or_else(|| Self::bad(text, format!("pawn place '{ch}' is not 0-9, a-e or s")))?
                    as u64,
            };
            p.set_pawn(c, index);
        }
        if fields[2] != "-" {
            for (rank, ch) in fields[2].chars().enumerate() {
                let c = kind_of(ch)
                    .map(|k| k as usize)
                    .filter(|&c| c < self.colours && p.pawn(c) == ON_STAIR && p.rank(c) == NOT_ARRIVED)
                    .ok_or_else(|| Self::bad(text, format!("'{ch}' on the stair is not a pawn there")))?;
                p.set_rank(c, rank as u64);
                p.set_arrived(rank + 1);
            }
        }
        if (0..self.colours).any(|c| (p.pawn(c) == ON_STAIR) != (p.rank(c) != NOT_ARRIVED)) {
            return Err(Self::bad(
                text,
                "the stair order must list exactly the pawns marked s",
            ));
        }
        for who in 0..self.players {
            let hand = fields[3 + who];
            if hand == "-" {
                continue;
            }
            let mut chars = hand.chars().peekable();
            while let Some(ch) = chars.next() {
                let kind = kind_of(ch)
                    .filter(|_| ch.is_ascii_alphabetic())
                    .ok_or_else(|| Self::bad(text, format!("'{ch}' in a hand is not a disc letter")))?;
                let mut digits = String::new();
                while let Some(d) = chars.next_if(|d| d.is_ascii_digit()) {
                    digits.push(d);
                }
                let n: i32 = digits
                    .parse()
                    .ok()
                    .filter(|&n| n < 16 && p.held(who, kind) as i32 + n < 16)
                    .ok_or_else(|| Self::bad(text, format!("'{ch}' in a hand needs a count below 16")))?;
                p.add(who, kind, n);
            }
        }
        let mover: usize = fields[3 + self.players]
            .parse()
            .ok()
            .filter(|m| (1..=self.players).contains(m))
            .ok_or_else(|| Self::bad(text, format!("the mover is a player 1..={}", self.players)))?;
        p.set_mover(mover - 1);
        self.check_position(text, &p)?;
        Ok(p)
    }

    fn format_position(&self, p: &Position) -> String {
        let path: String = (0..self.path.len())
            .map(|i| {
                if p.is_taken(i) {
                    '.'
                } else {
                    board_char(self.path[i])
                }
            })
            .collect();
        let pawns: String = (0..self.colours).map(|c| pawn_char(p.pawn(c))).collect();
        let stair: String = self.arrivals(p).iter().map(|&c| kind_letter(c as u8)).collect();
        let mut fields = vec![path, pawns, if stair.is_empty() { "-".into() } else { stair }];
        fields.extend((0..self.players).map(|w| hand_text(p, w)));
        fields.push((p.mover() + 1).to_string());
        fields.join("/")
    }

    fn render(&self, p: &Position) -> String {
        let width = 3;
        let mut discs = format!("{:<8}", "path");
        let mut pawns = format!("{:<8}", "pawns");
        let start: String = (0..self.colours)
            .filter(|&c| p.pawn(c) == 0)
            .map(|c| kind_letter(c as u8))
            .collect();
        discs += &format!("{:>6}", "start");
        pawns += &format!("{:>6}", start);
        for (i, &k) in self.path.iter().enumerate() {
            let disc = if p.is_taken(i) {
                '.'
            } else {
                kind_letter(k).to_ascii_uppercase()
            };
            discs += &format!("{disc:>width$}");
            let here = (0..self.colours).find(|&c| self.square(p, c) == Some(i as u32));
            pawns += &format!("{:>width$}", here.map_or(' ', |c| kind_letter(c as u8)));
        }
        let mut s = format!("{}\n{}\n", discs.trim_end(), pawns.trim_end());
        let steps: Vec<String> = (0..self.colours as u64)
            .map(|rank| {
                let who = self
                    .arrivals(p)
                    .get(rank as usize)
                    .map_or('-', |&c| kind_letter(c as u8));
                format!("{who}({})", self.step_value(rank))
            })
            .collect();
        s += &format!("{:<8}{}\n", "stair", steps.join(" "));
        for who in 0..self.players {
            let points = self.points(p, who);
            let points = if self.outcome(p).is_some() {
                quantity(points, "point")
            } else {
                format!("~{}", quantity(points, "point"))
            };
            s += &format!(
                "{:<8}{} ({points})\n",
                format!("hand {}", who + 1),
                hand_text(p, who)
            );
        }
        if self.outcome(p).is_none() {
            s += &format!("player {} to move\n", p.mover() + 1);
        }
        s
    }

    fn player_name(&self, player: PlayerId) -> String {
        format!("player {}", player + 1)
    }

    /// The path wrapped in rows of [`PER_ROW`] discs, read left to right and row by row
    /// from the start (above them) to the stair (below them). Each row of the path has its
    /// discs (plain circles; a dot where one was taken; a pawn, a lettered circle, on the
    /// disc it stands on, which no one can take while it stands there), and under them the
    /// moves: a square under the disc each move takes (`r+`, `r-`), or, taking nothing,
    /// under the disc the pawn goes to (`r.`); squares that meet under one disc stack
    /// downwards. The stair has a step per colour, its value written on it, under each step
    /// the pawn that reached it, and the moves onto it (`r^`) under the next free step.
    /// Below, each player's hand: a disc per kind held, labelled with the count, and the
    /// points, the player to move marked. Moves with a black-disc extra move are not on the
    /// picture.
    fn picture(&self, p: &Position) -> Option<Picture> {
        let width = 2.0 + PER_ROW as f64;
        let mut shapes = Vec::new();
        let pawn = |c: usize, x: f64, y: f64| {
            let letter = kind_letter(c as u8).to_ascii_uppercase().to_string();
            Shape::new(Kind::Piece, x, y, 1.0, 1.0)
                .color(NAMES[c])
                .label(letter)
        };
        // The start: the pawns not on the path yet.
        shapes.push(Shape::new(Kind::Text, 0.0, 0.0, 2.0, 1.0).label("start"));
        for c in (0..self.colours).filter(|&c| p.pawn(c) == 0) {
            shapes.push(pawn(c, 2.0 + c as f64, 0.0));
        }
        // Where each move sits: a path disc's index, or the stair (`None`).
        let moves: Vec<(String, usize, Option<usize>)> = self
            .legal_moves(p)
            .into_iter()
            .filter(|m| m.extra.is_none())
            .map(|m| {
                let c = m.step.pawn as usize;
                let at = match m.step.take {
                    Take::Stair => None,
                    Take::Nothing => Some(self.disc_at[c][m.step.to as usize - 1] as usize),
                    _ => Some(m.step.took as usize),
                };
                (self.format_move(p, &m), c, at)
            })
            .collect();
        // How deep the moves stack under each disc (and under the stair).
        let mut depth = vec![0usize; self.path.len() + 1];
        let mut lane = Vec::with_capacity(moves.len());
        for (_, _, at) in &moves {
            let slot = at.unwrap_or(self.path.len());
            lane.push(depth[slot]);
            depth[slot] += 1;
        }
        let rows = self.path.len().div_ceil(PER_ROW);
        let mut top = 1.25;
        let mut tops = Vec::with_capacity(rows);
        for r in 0..rows {
            tops.push(top);
            let deepest = depth[r * PER_ROW..((r + 1) * PER_ROW).min(self.path.len())]
                .iter()
                .max()
                .copied()
                .unwrap_or(0);
            top += 1.0 + deepest.max(1) as f64 + 0.25;
        }
        let place = |i: usize| (1.0 + (i % PER_ROW) as f64, tops[i / PER_ROW]);
        for (r, &y) in tops.iter().enumerate() {
            let label = (r * PER_ROW + 1).to_string();
            shapes.push(Shape::new(Kind::Text, 0.0, y, 1.0, 1.0).label(label));
        }
        let stands: Vec<Option<u32>> = (0..self.colours).map(|c| self.square(p, c)).collect();
        for (i, &kind) in self.path.iter().enumerate() {
            let (x, y) = place(i);
            shapes.push(
                if let Some(c) = stands.iter().position(|&at| at == Some(i as u32)) {
                    pawn(c, x, y)
                } else if p.is_taken(i) {
                    Shape::new(Kind::Dot, x + 0.5, y + 0.5, 0.0, 0.0).color("grey")
                } else {
                    Shape::new(Kind::Piece, x + 0.05, y + 0.05, 0.9, 0.9).color(NAMES[kind as usize])
                },
            );
        }
        // The stair: a step per colour, the first to arrive on the highest.
        let stair = top;
        shapes.push(Shape::new(Kind::Text, 0.0, stair, 2.0, 1.0).label("stair"));
        let arrivals = self.arrivals(p);
        for rank in 0..self.colours {
            let x = 2.0 + rank as f64;
            let value = self.step_value(rank as u64).to_string();
            shapes.push(Shape::new(Kind::Cell, x + 0.05, stair + 0.05, 0.9, 0.9).label(value));
            if let Some(&c) = arrivals.get(rank) {
                shapes.push(pawn(c, x, stair + 1.0));
            }
        }
        for ((notation, c, at), lane) in moves.into_iter().zip(lane) {
            let (x, y) = match at {
                Some(i) => place(i),
                None => (2.0 + arrivals.len() as f64, stair),
            };
            let take = Shape::new(Kind::Cell, x + 0.04, y + 1.04 + lane as f64, 0.92, 0.92);
            shapes.push(take.color(NAMES[c]).label(notation.clone()).plays(notation));
        }
        let stair_depth = depth[self.path.len()].max(1) as f64;
        // The hands, a column per kind of disc the game has.
        let kinds: Vec<u8> = self.hand_kinds().collect();
        let over = self.outcome(p).is_some();
        let mut y = stair + 1.0 + stair_depth + 0.25;
        for who in 0..self.players {
            let owner = who as PlayerId;
            let to_move = !over && p.mover() == owner;
            if to_move {
                shapes.push(Shape::new(Kind::Cell, 0.0, y, width, 1.0).owner(owner));
            }
            let name = self.player_name(owner);
            let name = if to_move { format!("▶ {name}") } else { name };
            shapes.push(Shape::new(Kind::Text, 0.0, y, 3.0, 1.0).owner(owner).label(name));
            for (column, &kind) in kinds.iter().enumerate() {
                let held = p.held(who, kind);
                if held > 0 {
                    let disc = Shape::new(Kind::Piece, 3.05 + column as f64, y + 0.05, 0.9, 0.9);
                    shapes.push(
                        disc.color(NAMES[kind as usize])
                            .owner(owner)
                            .label(held.to_string()),
                    );
                }
            }
            let points = self.points(p, who);
            let about = if over { "" } else { "~" };
            shapes.push(
                Shape::new(Kind::Text, width - 3.0, y, 3.0, 1.0)
                    .owner(owner)
                    .label(format!(
                        "{about}{points} point{}",
                        if points == 1 { "" } else { "s" }
                    )),
            );
            y += 1.0;
        }
        Some(Picture {
            width,
            height: y,
            shapes,
            notes: self.picture_notes(over),
        })
    }
}

/// The discs in a row of the path on a picture.
const PER_ROW: usize = 11;

impl BigPoints {
    /// What the picture's shapes mean and what clicking them does.
    fn picture_notes(&self, over: bool) -> Vec<String> {
        let has = |kind: u8| self.kind_mask[kind as usize] != 0;
        let mut notes = vec![
            "The path runs left to right, row by row, from the start to the stair. Lettered circles \
             are pawns, plain circles the discs to take."
                .to_string(),
            "A square under a disc is a move that takes that disc: r+ moves the red pawn on to the next \
             red disc and takes the first free disc ahead of it, r- the first free disc behind it; r. \
             takes nothing; r^ moves it onto the stair, taking a red disc there."
                .to_string(),
        ];
        let mut scoring =
            "At the end each colour's discs score the number on its pawn's stair step".to_string();
        if has(WHITE) {
            scoring += "; a white disc scores 1 for each colour its holder has (black counts too)";
        }
        if has(BLACK) {
            scoring += "; a black disc buys an extra move (those moves are the buttons beside the board)";
        }
        notes.push(scoring + ".");
        if !over {
            notes.push(
                "Points marked ~ are so far: colours not on the stair yet count at the mean of the free steps."
                    .into(),
            );
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rule;
    use super::*;

    #[test]
    fn moves_sit_under_the_disc_they_take() {
        let g = BigPoints::new(parse_board("1221").unwrap(), 2, Rule::Study).unwrap();
        let picture = g.picture(&g.start()).unwrap();
        let discs: Vec<&Shape> = picture
            .shapes
            .iter()
            .filter(|s| s.kind == Kind::Piece && s.label.is_none())
            .collect();
        assert_eq!(discs.len(), 4);
        // Green moves to the second disc (index 1) and takes the first disc behind it.
        let green_behind = picture
            .shapes
            .iter()
            .find(|s| s.play.as_deref() == Some("g-"))
            .unwrap();
        assert_eq!(green_behind.color.as_deref(), Some("green"));
        assert!((green_behind.x - discs[0].x).abs() < 0.5, "under the first disc");
        assert!(green_behind.y > discs[0].y + 0.5, "below it");
        // Every move shape is big enough to tap: a unit square.
        for s in picture.shapes.iter().filter(|s| s.play.is_some()) {
            assert!(s.w > 0.9 && s.h > 0.9, "{s:?}");
        }
        assert!(picture.notes.iter().any(|n| n.contains("r+")));
    }

    #[test]
    fn the_full_path_wraps_in_rows_and_every_hand_is_drawn() {
        let g = BigPoints::full(5, 3).unwrap();
        let mut p = g.start();
        for _ in 0..12 {
            let m = g.legal_moves(&p)[0];
            p = g.play(&p, &m);
        }
        let picture = g.picture(&p).unwrap();
        let within = |s: &&Shape| s.x >= 0.0 && s.x + s.w <= picture.width && s.y + s.h <= picture.height;
        assert!(
            picture.shapes.iter().all(|s| within(&s)),
            "every shape inside the picture"
        );
        assert!(picture.width <= 14.0, "a row is at most {} discs", PER_ROW);
        // 55 discs (or the dots where they were taken, or the pawns standing on them) in 5
        // rows, between the start and the stair.
        let stair = picture
            .shapes
            .iter()
            .find(|s| s.label.as_deref() == Some("stair"))
            .unwrap()
            .y;
        let mut rows: Vec<f64> = picture
            .shapes
            .iter()
            .filter(|s| s.y >= 1.0 && s.y < stair && s.play.is_none())
            .filter(|s| s.kind == Kind::Piece || s.kind == Kind::Dot)
            .map(|s| s.y + s.h / 2.0)
            .collect();
        assert_eq!(rows.len(), 55);
        rows.dedup();
        assert_eq!(rows.len(), 5, "{rows:?}");
        // Each player's points, and the mover marked.
        for who in 0..5 {
            let points = match g.points(&p, who) {
                1 => "~1 point".to_string(),
                n => format!("~{n} points"),
            };
            assert!(
                picture
                    .shapes
                    .iter()
                    .any(|s| s.label.as_deref().is_some_and(|l| l.ends_with(&points))),
                "{points}"
            );
        }
        let mover = format!("▶ player {}", p.mover() + 1);
        assert!(picture.shapes.iter().any(|s| s.label.as_deref() == Some(&mover)));
        // Every legal move without an extra move is on the picture.
        let on_picture = picture.shapes.iter().filter(|s| s.play.is_some()).count();
        let plain = g.legal_moves(&p).iter().filter(|m| m.extra.is_none()).count();
        assert_eq!(on_picture, plain);
    }
}
