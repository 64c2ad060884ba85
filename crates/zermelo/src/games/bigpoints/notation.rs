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

    /// The path's discs in the top row (column 0 is the start, the last but one the stair),
    /// then a lane per pawn: the pawn, where it stands (its step's value beside it on the
    /// stair), and a cell per move of it, labelled with its take: on the column of the disc
    /// it takes (`+`, `-`; on the pawn itself when that is the disc under it), the stair
    /// (`^`) or where it goes taking nothing (`.`). Below, each player's hand: a disc per
    /// kind held, labelled with the count. Moves with a black-disc extra move are not on
    /// the picture.
    fn picture(&self, p: &Position) -> Option<Picture> {
        let len = self.path.len() as f64;
        let stair = len + 1.0;
        let unit = |kind, x: f64, y: f64| Shape::new(kind, x, y, 1.0, 1.0);
        let mut shapes = vec![
            unit(Kind::Text, 0.0, 0.0).label("start"),
            unit(Kind::Text, stair, 0.0).label("stair"),
        ];
        for (i, &kind) in self.path.iter().enumerate().filter(|&(i, _)| !p.is_taken(i)) {
            shapes.push(unit(Kind::Piece, 1.0 + i as f64, 0.0).color(NAMES[kind as usize]));
        }
        let mut pawns: Vec<Shape> = (0..self.colours)
            .map(|c| {
                let x = match (p.pawn(c), self.square(p, c)) {
                    (ON_STAIR, _) => stair,
                    (_, Some(i)) => 1.0 + i as f64,
                    (_, None) => 0.0,
                };
                let letter = kind_letter(c as u8).to_ascii_uppercase().to_string();
                unit(Kind::Piece, x, 1.0 + c as f64).color(NAMES[c]).label(letter)
            })
            .collect();
        for c in self.arrivals(p) {
            let value = self.step_value(p.rank(c)).to_string();
            shapes.push(unit(Kind::Text, stair + 1.0, 1.0 + c as f64).label(value));
        }
        for m in self.legal_moves(p).into_iter().filter(|m| m.extra.is_none()) {
            let c = m.step.pawn as usize;
            let notation = self.format_move(p, &m);
            let column = match m.step.take {
                Take::Stair => Some(stair),
                Take::Nothing => Some(1.0 + self.disc_at[c][m.step.to as usize - 1] as f64),
                _ if self.square(p, c) == Some(m.step.took.into()) => None,
                _ => Some(1.0 + m.step.took as f64),
            };
            match column {
                Some(x) => {
                    let take = notation[1..].to_string();
                    shapes.push(
                        unit(Kind::Cell, x, 1.0 + c as f64)
                            .color(NAMES[c])
                            .label(take)
                            .plays(notation),
                    );
                }
                None => pawns[c].play = Some(notation),
            }
        }
        shapes.extend(pawns);
        for who in 0..self.players {
            let y = 1.0 + (self.colours + who) as f64;
            shapes.push(Shape::new(Kind::Text, 0.0, y, 3.0, 1.0).label(self.player_name(who as PlayerId)));
            for kind in (0..KINDS as u8).filter(|&k| p.held(who, k) > 0) {
                let disc = unit(Kind::Piece, 3.0 + kind as f64, y).color(NAMES[kind as usize]);
                shapes.push(disc.owner(who as PlayerId).label(p.held(who, kind).to_string()));
            }
            let points = self.points(p, who);
            let about = if self.outcome(p).is_some() { "" } else { "~" };
            shapes.push(
                Shape::new(Kind::Text, 3.0 + KINDS as f64, y, 3.0, 1.0)
                    .owner(who as PlayerId)
                    .label(format!("{about}{points} points")),
            );
        }
        Some(Picture {
            width: (len + 3.0).max(6.0 + KINDS as f64),
            height: 1.0 + (self.colours + self.players) as f64,
            shapes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rule;
    use super::*;

    #[test]
    fn moves_sit_in_their_pawns_lane_on_the_disc_they_take() {
        let g = BigPoints::new(parse_board("1221").unwrap(), 2, Rule::Study).unwrap();
        let picture = g.picture(&g.start()).unwrap();
        let green_behind = picture
            .shapes
            .iter()
            .find(|s| s.play.as_deref() == Some("g-"))
            .unwrap();
        assert_eq!((green_behind.x, green_behind.y), (1.0, 2.0));
        assert_eq!(green_behind.color.as_deref(), Some("green"));
        let discs = picture
            .shapes
            .iter()
            .filter(|s| s.kind == Kind::Piece && s.y == 0.0)
            .count();
        assert_eq!(discs, 4);
    }
}
