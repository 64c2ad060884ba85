//! Dots and Boxes: two players take turns drawing a line between two adjacent dots; a line
//! that completes one or two boxes captures them and its player moves again. When every
//! line is drawn, whoever holds more than half of the boxes wins, else it is a draw.
//!
//! Notation (the course's): dot rows are numbered from 1 at the bottom, dot columns lettered
//! from `a` at the left; a dot is `1a`. A line is written digits first, then letters, each
//! sorted: `12a` is the vertical line from 1a to 2a, `1ab` the horizontal line from 1a to 1b.
//! A box is named by its lower-right corner dot: the box above `1ab` is `1b`.
//! The first player is `○`, the second `●`.

mod analysis;
pub mod players;
mod session;
mod solver;
pub mod strategy;

pub use analysis::CaptureRule;
pub use session::open;
pub use solver::{best_solver, lines_search, solver, Lines64, LinesSearch};

use std::fmt::Write as _;

use crate::game::{Game, Notation, Outcome, PlayerId, Scored, Symmetric};
use crate::picture::{Grid, Kind, Picture, Shape};
use crate::spec::{GameInfo, Key, PlayerInfo, Preset, Spec, Values};
use crate::Error;

/// Dots on a side of the board, `default` when not given.
const fn side(default: Preset<u64>) -> Values {
    Values::Int {
        lo: 2,
        hi: MAX_DOTS as u64,
        default,
    }
}

/// The size of a square board (or `random`, read when a session opens).
const SIZE: Key = Key {
    name: "size",
    values: side(Preset::Is(3)),
    also: Some("or random: a random size per game in tournaments"),
    help: "dots on each side of a square board",
};
const ROWS: Key = Key {
    name: "rows",
    values: side(Preset::Else("size")),
    also: None,
    help: "rows of dots (with cols, a rectangular board)",
};
const COLS: Key = Key {
    name: "cols",
    values: side(Preset::Else("size")),
    also: None,
    help: "columns of dots",
};

/// The registry entry of Dots and Boxes.
pub const INFO: GameInfo = GameInfo {
    name: "dots",
    summary: "Dots and Boxes: complete a box to capture it and move again; most boxes wins",
    how_to_play: "Draw a line between two neighbouring dots; close a box to capture it and draw again; whoever captures more boxes wins.",
    keys: &[SIZE, ROWS, COLS],
    players: &[
        PlayerInfo {
            name: "perfect",
            help: "exact margin search: the largest final lead",
        },
        PlayerInfo {
            name: "greedy",
            help: "takes boxes when it can, avoids giving any away",
        },
        PlayerInfo {
            name: "strong",
            help: "chains and control: declines to keep control, fights for the long chains",
        },
    ],
};

/// Where a symmetry of the board takes a dot (row, column).
type DotMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;

/// Most dots on a side.
pub const MAX_DOTS: usize = 9;

/// A set of lines, one bit per line index (at most 144 lines on 9 × 9 dots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lines(pub [u64; 3]);

impl Lines {
    /// Whether line `i` is in the set.
    #[inline]
    pub fn has(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    /// Adds line `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// The number of lines in the set.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }

    /// The lines in both sets.
    #[inline]
    pub fn and(&self, o: &Lines) -> Lines {
        Lines([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }

    /// The lines of the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..3).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// A position: the lines drawn, the boxes each player holds and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The lines drawn.
    pub lines: Lines,
    /// The boxes held by `○` (index 0) and `●` (index 1), one bit per box.
    pub boxes: [u64; 2],
    /// The player to move.
    pub mover: PlayerId,
}

/// Dots and Boxes on a board of `rows` × `cols` dots.
#[derive(Clone, Debug)]
pub struct Dots {
    rows: usize,
    cols: usize,
    /// For each line, the (one or two) boxes it borders.
    line_boxes: Vec<Vec<usize>>,
    /// For each box, its four lines.
    box_lines: Vec<[usize; 4]>,
    /// For each box, its four lines as a set.
    box_masks: Vec<Lines>,
    /// All lines.
    all: Lines,
    /// For each symmetry (the identity first), where each line goes.
    line_maps: Vec<Vec<usize>>,
    /// For each symmetry, where each box goes.
    box_maps: Vec<Vec<usize>>,
    /// For each symmetry but the identity, for each byte of a line set and each byte
    /// value, the image of those lines.
    symmetry_tables: Vec<Vec<[Lines; 256]>>,
    /// The same tables in one word, for boards of at most 64 lines (up to 5 × 6 dots).
    small_tables: Vec<Vec<[u64; 256]>>,
}

impl Dots {
    /// The game on `rows` × `cols` dots (each 2..=9).
    pub fn new(rows: usize, cols: usize) -> Result<Dots, Error> {
        for (key, v) in [("rows", rows), ("cols", cols)] {
            if !(2..=MAX_DOTS).contains(&v) {
                return Err(Error::Spec(format!("{key}={v} is out of range 2..={MAX_DOTS}")));
            }
        }
        let mut g = Dots {
            rows,
            cols,
            line_boxes: Vec::new(),
            box_lines: Vec::new(),
            box_masks: Vec::new(),
            all: Lines::default(),
            line_maps: Vec::new(),
            box_maps: Vec::new(),
            symmetry_tables: Vec::new(),
            small_tables: Vec::new(),
        };
        g.line_boxes = vec![Vec::new(); g.line_count()];
        for r in 0..rows - 1 {
            for c in 0..cols - 1 {
                let b = g.box_at(r, c);
                let sides = [g.h(r, c), g.h(r + 1, c), g.v(r, c), g.v(r, c + 1)];
                let mut mask = Lines::default();
                for &l in &sides {
                    g.line_boxes[l].push(b);
                    mask.insert(l);
                }
                g.box_lines.push(sides);
                g.box_masks.push(mask);
            }
        }
        for l in 0..g.line_count() {
            g.all.insert(l);
        }
        g.line_maps = g.symmetry_maps();
        g.box_maps = g
            .line_maps
            .iter()
            .map(|map| {
                (0..g.box_count())
                    .map(|b| {
                        let sides = g.box_lines[b].map(|l| map[l]);
                        (0..g.box_count())
                            .find(|&c| sides.iter().all(|&l| g.line_boxes[l].contains(&c)))
                            .expect("a symmetry maps boxes to boxes")
                    })
                    .collect()
            })
            .collect();
        g.symmetry_tables = g
            .line_maps
            .iter()
            .skip(1)
            .map(|map| {
                (0..g.line_count().div_ceil(8))
                    .map(|byte| {
                        let mut table = [Lines::default(); 256];
                        for (v, slot) in table.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let l = byte * 8 + bit;
                                if v >> bit & 1 == 1 && l < map.len() {
                                    slot.insert(map[l]);
                                }
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        if g.line_count() <= 64 {
            g.small_tables = g
                .symmetry_tables
                .iter()
                .map(|tables| tables.iter().map(|t| t.map(|image| image.0[0])).collect())
                .collect();
        }
        Ok(g)
    }

    /// The square board of `n` × `n` dots.
    pub fn square(n: usize) -> Result<Dots, Error> {
        Dots::new(n, n)
    }

    /// The game a spec names: `dots:size=N` or `dots:rows=R,cols=C` (`size=random` is for
    /// tournaments, which pick a board per game, and is refused here).
    pub fn from_spec(spec: &Spec) -> Result<Dots, Error> {
        spec.check_keys(&INFO)?;
        if spec.get("size").is_some_and(|s| s.eq_ignore_ascii_case("random")) {
            return Err(Error::Spec(
                "size=random picks a size per game and only suits tournaments".into(),
            ));
        }
        let sides = ["rows", "cols"].into_iter().find_map(|k| Some((k, spec.get(k)?)));
        if let (Some(size), Some((key, value))) = (spec.get("size"), sides) {
            return Err(Error::Spec(format!(
                "size={size} and {key}={value} both give the board: size for a square one, \
                 rows and cols for a rectangle"
            )));
        }
        let size = spec.int(&SIZE)?;
        let side = |key: &Key| match spec.has(key) {
            true => spec.int(key),
            false => Ok(size),
        };
        let (rows, cols) = (side(&ROWS)?, side(&COLS)?);
        Dots::new(rows as usize, cols as usize)
    }

    /// Rows and columns of dots.
    pub fn dims(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The number of lines.
    pub fn line_count(&self) -> usize {
        self.rows * (self.cols - 1) + (self.rows - 1) * self.cols
    }

    /// The number of boxes.
    pub fn box_count(&self) -> usize {
        (self.rows - 1) * (self.cols - 1)
    }

    /// The number of board symmetries (8 for square boards, 4 for the others).
    pub fn symmetries(&self) -> usize {
        self.symmetry_tables.len() + 1
    }

    /// The horizontal line from dot (`r`, `c`) to (`r`, `c + 1`), rows and columns from 0.
    fn h(&self, r: usize, c: usize) -> usize {
        r * (self.cols - 1) + c
    }

    /// The vertical line from dot (`r`, `c`) to (`r + 1`, `c`).
    fn v(&self, r: usize, c: usize) -> usize {
        self.rows * (self.cols - 1) + r * self.cols + c
    }

    fn box_at(&self, r: usize, c: usize) -> usize {
        r * (self.cols - 1) + c
    }

    /// The two dots of line `l` as (row, column) from 0.
    fn ends(&self, l: usize) -> ((usize, usize), (usize, usize)) {
        let hs = self.rows * (self.cols - 1);
        if l < hs {
            let (r, c) = (l / (self.cols - 1), l % (self.cols - 1));
            ((r, c), (r, c + 1))
        } else {
            let (r, c) = ((l - hs) / self.cols, (l - hs) % self.cols);
            ((r, c), (r + 1, c))
        }
    }

    /// The line joining two adjacent dots.
    fn line_between(&self, a: (usize, usize), b: (usize, usize)) -> usize {
        let (a, b) = (a.min(b), a.max(b));
        if a.0 == b.0 {
            self.h(a.0, a.1)
        } else {
            self.v(a.0, a.1)
        }
    }

    /// For each symmetry (the identity first), where each line goes.
    fn symmetry_maps(&self) -> Vec<Vec<usize>> {
        let (rows, cols) = (self.rows, self.cols);
        let mut dot_maps: Vec<DotMap> = vec![
            Box::new(|r, c| (r, c)),
            Box::new(move |r, c| (r, cols - 1 - c)),
            Box::new(move |r, c| (rows - 1 - r, c)),
            Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)),
        ];
        if rows == cols {
            let n = rows;
            dot_maps.push(Box::new(|r, c| (c, r)));
            dot_maps.push(Box::new(move |r, c| (c, n - 1 - r)));
            dot_maps.push(Box::new(move |r, c| (n - 1 - c, r)));
            dot_maps.push(Box::new(move |r, c| (n - 1 - c, n - 1 - r)));
        }
        dot_maps
            .iter()
            .map(|f| {
                (0..self.line_count())
                    .map(|l| {
                        let (a, b) = self.ends(l);
                        self.line_between(f(a.0, a.1), f(b.0, b.1))
                    })
                    .collect()
            })
            .collect()
    }

    fn transform(&self, sym: usize, lines: &Lines) -> Lines {
        let mut out = Lines::default();
        for (byte, table) in self.symmetry_tables[sym].iter().enumerate() {
            let v = (lines.0[byte / 8] >> (8 * (byte % 8))) as usize & 0xff;
            if v != 0 {
                let img = &table[v];
                for w in 0..3 {
                    out.0[w] |= img.0[w];
                }
            }
        }
        out
    }

    /// The representative of `lines` under the board's symmetries (the least image).
    pub fn canonical_lines(&self, lines: &Lines) -> Lines {
        if self.small_tables.is_empty() {
            return (0..self.symmetry_tables.len())
                .fold(*lines, |best, s| best.min(self.transform(s, lines)));
        }
        let word = lines.0[0];
        let least = self.small_tables.iter().fold(word, |best, tables| {
            let image = tables.iter().enumerate().fold(0, |acc, (byte, table)| {
                acc | table[(word >> (8 * byte)) as usize & 0xff]
            });
            best.min(image)
        });
        Lines([least, 0, 0])
    }

    /// How many of box `b`'s sides are drawn.
    #[inline]
    pub fn sides(&self, lines: &Lines, b: usize) -> u32 {
        lines.and(&self.box_masks[b]).len()
    }

    /// The undrawn lines of `p`.
    pub fn undrawn(&self, lines: &Lines) -> Lines {
        Lines([
            self.all.0[0] & !lines.0[0],
            self.all.0[1] & !lines.0[1],
            self.all.0[2] & !lines.0[2],
        ])
    }

    /// How many boxes drawing line `l` completes in a position with `lines` drawn.
    #[inline]
    pub fn completes(&self, lines: &Lines, l: usize) -> u32 {
        self.line_boxes[l]
            .iter()
            .filter(|&&b| self.sides(lines, b) == 3)
            .count() as u32
    }

    /// Boxes not yet captured.
    pub fn boxes_left(&self, p: &Position) -> u32 {
        self.box_count() as u32 - (p.boxes[0] | p.boxes[1]).count_ones()
    }

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
        let letter = |c: usize| (b'a' + c as u8) as char;
        if r1 == r2 {
            format!("{}{}{}", r1 + 1, letter(c1), letter(c2))
        } else {
            format!("{}{}{}", r1 + 1, r2 + 1, letter(c1))
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

    /// The score of `p` as the difference (`○` minus `●`) of boxes held.
    pub fn difference(&self, p: &Position) -> i32 {
        p.boxes[0].count_ones() as i32 - p.boxes[1].count_ones() as i32
    }
}

impl Game for Dots {
    type Position = Position;
    /// A line index.
    type Move = u8;

    fn start(&self) -> Position {
        Position {
            lines: Lines::default(),
            boxes: [0, 0],
            mover: 0,
        }
    }

    fn to_move(&self, p: &Position) -> PlayerId {
        p.mover
    }

    fn moves(&self, p: &Position, out: &mut Vec<u8>) {
        out.extend(self.undrawn(&p.lines).iter().map(|l| l as u8));
    }

    fn play(&self, p: &Position, m: &u8) -> Position {
        let l = *m as usize;
        let mut next = *p;
        next.lines.insert(l);
        let mut captured = false;
        for &b in &self.line_boxes[l] {
            if self.sides(&next.lines, b) == 4 {
                next.boxes[p.mover as usize] |= 1 << b;
                captured = true;
            }
        }
        if !captured {
            next.mover = 1 - p.mover;
        }
        next
    }

    fn outcome(&self, p: &Position) -> Option<Outcome> {
        if p.lines != self.all {
            return None;
        }
        Some(match self.difference(p) {
            d if d > 0 => Outcome::Win(0),
            d if d < 0 => Outcome::Win(1),
            _ => Outcome::Draw,
        })
    }

    /// Boxes ahead, for the mover.
    fn heuristic(&self, p: &Position) -> i32 {
        let d = self.difference(p);
        if p.mover == 0 {
            d
        } else {
            -d
        }
    }
}

impl Scored for Dots {
    fn score(&self, p: &Position, player: PlayerId) -> i32 {
        p.boxes[player as usize].count_ones() as i32
    }
}

impl Symmetric for Dots {
    /// The least image of the drawn lines, with the same owners and mover; boxes are
    /// mapped along with their lines.
    fn canonical(&self, p: &Position) -> Position {
        let image = |s: usize| {
            let mut q = Position {
                lines: Lines::default(),
                boxes: [0, 0],
                mover: p.mover,
            };
            for l in p.lines.iter() {
                q.lines.insert(self.line_maps[s][l]);
            }
            for who in 0..2 {
                for b in 0..self.box_count() {
                    if p.boxes[who] >> b & 1 == 1 {
                        q.boxes[who] |= 1 << self.box_maps[s][b];
                    }
                }
            }
            q
        };
        (1..self.line_maps.len()).map(image).fold(*p, |best, q| {
            if (q.lines, q.boxes) < (best.lines, best.boxes) {
                q
            } else {
                best
            }
        })
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
            p.lines.insert(line);
        }
        for who in 0..2 {
            for name in items(parts[who + 1]) {
                let b = (0..self.box_count())
                    .find(|&b| self.box_name(b) == name.to_ascii_lowercase())
                    .ok_or_else(|| Error::bad_position(text, format!("'{name}' is not a box")))?;
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
            s.push((b'a' + c as u8) as char);
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
    fn counts_lines_boxes_and_symmetries() {
        let g = Dots::square(3).unwrap();
        assert_eq!((g.line_count(), g.box_count(), g.symmetries()), (12, 4, 8));
        let r = Dots::new(3, 4).unwrap();
        assert_eq!((r.line_count(), r.box_count(), r.symmetries()), (17, 6, 4));
        let big = Dots::square(9).unwrap();
        assert_eq!((big.line_count(), big.box_count()), (144, 64));
        assert!(Dots::square(10).is_err());
        assert!(Dots::square(1).is_err());
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
    fn symmetric_images_share_a_representative() {
        let g = Dots::square(4).unwrap();
        let p = g.after(&["1ab", "12a", "12b", "2ab"]).unwrap();
        let q = g.after(&["4cd", "34d", "34c", "3cd"]).unwrap();
        assert_eq!(g.canonical(&p), g.canonical(&q));
        assert_eq!(g.canonical_lines(&p.lines), g.canonical_lines(&q.lines));
        assert_eq!(g.canonical(&p).boxes[1].count_ones(), 1);
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
