//! Dots and Boxes: two players take turns drawing a line between two adjacent dots; a line
//! that completes one or two boxes captures them and its player moves again. When every
//! line is drawn, whoever holds more than half of the boxes wins, else it is a draw.
//!
//! Its notation and picture are in `notation.rs`; its players in [`players`]; its exact
//! searches in `solver.rs`; it is solved by the generic [`margins`] strategy, which [`open`]
//! hands the game's search, costs and players ([`MarginGame`]).

mod analysis;
pub mod entry;
mod notation;
pub mod players;
mod solver;

pub use analysis::CaptureRule;
pub use solver::{best_solver, lines_search, solver, Lines64, LinesSearch};

use rand::rngs::StdRng;
use rand::Rng;

use crate::game::{Game, Notation, Outcome, PlayerId, Scored, Symmetric};
use crate::play::Player;
use crate::session::strategies::margins::{self, Draw, MarginGame};
use crate::session::{Budget, Cost, Fact, FactValue, Session};
use crate::solve::margin::{MarginSearch, MarginSolver, Setup};
use crate::spec::{GameInfo, Key, PlayerInfo, Preset, Spec, Values};
use crate::Error;
use players::{DotsGreedy, Strong};

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

/// Boxes credited to the second player before the first line.
const KOMI: Key = Key {
    name: "komi",
    values: Values::Text {
        form: "a whole number of boxes, e.g. 2 or -1",
        default: Preset::Is("0"),
    },
    also: None,
    help: "boxes credited to the second player at the start (negative: to the first)",
};

/// The most boxes `komi` credits either way.
const MAX_KOMI: i32 = 81;

/// The registry entry of Dots and Boxes.
pub const INFO: GameInfo = GameInfo {
    name: "dots",
    summary: "Dots and Boxes: complete a box to capture it and move again; most boxes wins",
    how_to_play: "Draw a line between two neighbouring dots; close a box to capture it and draw again; whoever captures more boxes wins.",
    keys: &[SIZE, ROWS, COLS, KOMI],
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
    /// Boxes credited to the second player: in its score from the start, so in every
    /// lead, margin and result.
    komi: i32,
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
            komi: 0,
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
        let komi = spec.text(&KOMI)?;
        let komi = komi
            .parse::<i32>()
            .ok()
            .filter(|k| k.abs() <= MAX_KOMI)
            .ok_or_else(|| {
                Error::Spec(format!(
                    "komi={komi}: give a whole number of boxes from -{MAX_KOMI} to {MAX_KOMI}"
                ))
            })?;
        Ok(Dots {
            komi,
            ..Dots::new(rows as usize, cols as usize)?
        })
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

    /// The score of `p` as the difference (`○` minus `●`) of boxes held.
    pub fn difference(&self, p: &Position) -> i32 {
        self.score(p, 0) - self.score(p, 1)
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
    /// The boxes captured, with the komi for the second player.
    fn score(&self, p: &Position, player: PlayerId) -> i32 {
        p.boxes[player as usize].count_ones() as i32 + if player == 1 { self.komi } else { 0 }
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

/// Most lines of a board the perfect player accepts (4 × 4 dots).
const PERFECT_MAX_LINES: usize = 24;

/// Largest board (dots a side) that `size=random` picks when a perfect player takes part.
const PERFECT_RANDOM_MAX: usize = 3;

/// Positions the exact search stores from a position with 24 undrawn lines, about (the
/// most measured on 4 × 4 and 4 × 5 dots).
const POSITIONS_AT_24: f64 = 2e5;

/// How many times more positions each further undrawn line costs, about.
const GROWTH_PER_LINE: f64 = 2.2;

/// Positions the exact search stores per second on this machine, about.
const POSITIONS_PER_SECOND: f64 = 1.5e5;

/// Bytes a table entry of the exact search takes, with the map's overhead.
const ENTRY_BYTES: f64 = 64.0;

impl MarginGame for Dots {
    type Key = Lines;
    const ADVISER: &'static str = "strong";

    fn search(&self) -> MarginSearch<'_, Dots, Lines> {
        solver(self)
    }

    fn solver(&self, setup: &Setup) -> Box<dyn MarginSolver<Dots> + '_> {
        best_solver(self, setup)
    }

    /// Grows geometrically with the undrawn lines (measured on random positions); the
    /// null-window search's table (boards of at most 64 lines) takes at most `bytes`.
    fn search_cost(&self, p: &Position, bytes: u64) -> Cost {
        let undrawn = self.line_count() as f64 - f64::from(p.lines.len());
        let positions = (POSITIONS_AT_24 * GROWTH_PER_LINE.powf(undrawn - 24.0)).max(1.0);
        let table = positions * ENTRY_BYTES;
        Cost {
            positions: positions as u64,
            bytes: if self.line_count() <= 64 {
                table.min(bytes as f64) as u64
            } else {
                table as u64
            },
            seconds: positions / POSITIONS_PER_SECOND,
        }
    }

    fn perfect_refusal(&self) -> Option<String> {
        (self.line_count() > PERFECT_MAX_LINES).then(|| {
            format!(
                "the perfect player searches exactly and is limited to boards of at most \
                 {PERFECT_MAX_LINES} lines (4 x 4 dots) unless the board was solved first \
                 (`zermelo solve` saves a book of what it proved); this board has {}; try strong",
                self.line_count()
            )
        })
    }

    fn lasting_solver(&self, setup: &Setup) -> Option<Box<dyn MarginSolver<Dots>>> {
        lines_search(self, setup).map(|s| Box::new(s) as Box<dyn MarginSolver<Dots>>)
    }

    fn own_player(name: &str, seed: u64, budget: &Budget) -> Option<Box<dyn Player<Dots>>> {
        match name {
            "greedy" => Some(Box::new(DotsGreedy::new(seed))),
            "strong" => Some(Box::new(Strong::new(seed).with_budget(budget.clone()))),
            _ => None,
        }
    }

    fn facts(&self) -> Vec<Fact> {
        vec![Fact::new(
            "boxes",
            "boxes",
            FactValue::Int(self.box_count() as i64),
        )]
    }

    fn position_facts(&self, p: &Position) -> Vec<Fact> {
        (0..2u8)
            .map(|who| {
                let names = self.box_names(p.boxes[who as usize]);
                let shown = if names.is_empty() {
                    "-".to_string()
                } else {
                    names.join(" ")
                };
                let key = if who == 0 { "boxes_first" } else { "boxes_second" };
                Fact::new(
                    key,
                    &format!("{} boxes", self.player_name(who)),
                    FactValue::Text(shown),
                )
            })
            .collect()
    }
}

/// The largest board `size=random` draws, smaller when a perfect player takes part.
fn largest(perfect: bool) -> usize {
    if perfect {
        PERFECT_RANDOM_MAX
    } else {
        MAX_DOTS
    }
}

/// A square board of random size.
fn random_board(rng: &mut StdRng, perfect: bool) -> Dots {
    Dots::square(rng.gen_range(2..=largest(perfect))).expect("sizes in range")
}

/// The sizes `size=random` draws from.
fn random_sizes(perfect: bool) -> Fact {
    Fact::new(
        "random_sizes",
        "boards (dots a side), one at random per game",
        FactValue::List(vec![2, largest(perfect) as i64]),
    )
}

/// Opens a session of the game `spec` names.
pub fn open(spec: &Spec) -> Result<Box<dyn Session>, Error> {
    let random = spec.get("size").is_some_and(|s| s.eq_ignore_ascii_case("random"));
    if !random {
        return Ok(margins::open(&spec.to_string(), &INFO, Dots::from_spec(spec)?));
    }
    if spec.get("rows").is_some() || spec.get("cols").is_some() {
        return Err(Error::Spec(
            "size=random cannot be combined with rows or cols".into(),
        ));
    }
    spec.check_keys(&INFO)?;
    let draw = Draw {
        board: random_board,
        fact: random_sizes,
    };
    Ok(margins::open_drawn(&spec.to_string(), &INFO, draw))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn symmetric_images_share_a_representative() {
        let g = Dots::square(4).unwrap();
        let p = g.after(&["1ab", "12a", "12b", "2ab"]).unwrap();
        let q = g.after(&["4cd", "34d", "34c", "3cd"]).unwrap();
        assert_eq!(g.canonical(&p), g.canonical(&q));
        assert_eq!(g.canonical_lines(&p.lines), g.canonical_lines(&q.lines));
        assert_eq!(g.canonical(&p).boxes[1].count_ones(), 1);
    }
}
