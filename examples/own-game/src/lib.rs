//! Three in a row on a strip, a game defined outside the zermelo library: X and O mark
//! the cells of a strip in turn, and the first with three marks side by side wins. It
//! implements the game traits the search strategy asks for ([`Game`], [`Notation`],
//! [`Symmetric`], [`Indexed`]) and [`register`] makes it one more game of the catalog.
//!
//! Every strip is a draw: pair the cells 1-2, 3-4, 5-6, ...; any three cells side by
//! side hold a whole pair, so a player who answers each mark in a pair with its partner
//! cell keeps the other off three in a row. O does so from the start, X after a first
//! mark anywhere (an extra mark never hurts).

use zermelo::catalog::{self, Entry};
use zermelo::game::{Game, Indexed, Notation, Outcome, PlayerId, Symmetric};
use zermelo::spec::{GameInfo, Key, Preset, Spec, Values};
use zermelo::Error;

/// Marks side by side that win.
const ROW: usize = 3;
/// The strip's length: 1 to 12 cells, 7 when the spec does not say.
const CELLS: Key = Key {
    name: "cells",
    values: Values::Int {
        lo: 1,
        hi: 12,
        default: Preset::Is(7),
    },
    also: None,
    help: "the strip's length",
};

/// The game's name, keys and rules, as the catalog lists them.
pub const INFO: GameInfo = GameInfo {
    name: "strip",
    summary: "Three in a row on a strip: X and O mark cells in turn; three marks side by side win",
    how_to_play: "Mark an empty cell by its number; three of your marks side by side win, a full strip without is a draw.",
    keys: &[CELLS],
    // The search strategy's players are taken.
    players: &[],
};

/// Small strips, quick to solve whole.
pub const EXAMPLES: &[&str] = &["strip:cells=4", "strip:cells=6"];

/// Adds the game to the catalog: from now on `catalog::open("strip:cells=5")` opens it.
pub fn register() -> Result<&'static Entry, Error> {
    catalog::register_game(INFO, EXAMPLES, |spec: &Spec| {
        Ok(Strip::new(spec.int(&CELLS)? as usize))
    })
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    X,
    O,
}

impl Cell {
    /// The cell's digit in a position's rank, and its letter in the notation.
    const ALL: [(Cell, char); 3] = [(Cell::Empty, '.'), (Cell::X, 'x'), (Cell::O, 'o')];

    fn letter(self) -> char {
        Cell::ALL[self as usize].1
    }
}

/// The seat that marks first, X.
const X: PlayerId = 0;

/// A strip of cells: a position is what each cell holds, first cell first.
#[derive(Clone, Debug)]
pub struct Strip {
    cells: usize,
}

impl Strip {
    /// A strip of `cells` empty cells.
    pub fn new(cells: usize) -> Strip {
        Strip { cells }
    }

    /// The cells where three marks of one kind start.
    fn rows(p: &[Cell]) -> impl Iterator<Item = usize> + '_ {
        p.windows(ROW)
            .enumerate()
            .filter(|(_, w)| w[0] != Cell::Empty && w.iter().all(|c| *c == w[0]))
            .map(|(at, _)| at)
    }

    fn count(p: &[Cell], cell: Cell) -> usize {
        p.iter().filter(|c| **c == cell).count()
    }

    /// Why `p` cannot come up in a game, if it cannot: X marks first, then each in turn,
    /// and the game ends at the first three in a row, which the last mark made.
    fn impossible(&self, p: &[Cell]) -> Option<&'static str> {
        if p.len() != self.cells {
            return Some("not one letter per cell");
        }
        let (x, o) = (Strip::count(p, Cell::X), Strip::count(p, Cell::O));
        if x != o && x != o + 1 {
            return Some("X marks first, then each in turn");
        }
        let rows: Vec<usize> = Strip::rows(p).collect();
        let last = if x > o { Cell::X } else { Cell::O };
        // The last mark, in every row.
        let made_by_last = |c: usize| p[c] == last && rows.iter().all(|&at| (at..at + ROW).contains(&c));
        if rows.is_empty() || (0..p.len()).any(made_by_last) {
            None
        } else {
            Some("the game ended at the first three in a row")
        }
    }
}

impl Game for Strip {
    type Position = Vec<Cell>;
    /// The cell marked, from 0.
    type Move = usize;

    fn start(&self) -> Vec<Cell> {
        vec![Cell::Empty; self.cells]
    }

    fn to_move(&self, p: &Vec<Cell>) -> PlayerId {
        if Strip::count(p, Cell::X) > Strip::count(p, Cell::O) {
            1 - X
        } else {
            X
        }
    }

    fn moves(&self, p: &Vec<Cell>, out: &mut Vec<usize>) {
        if self.outcome(p).is_none() {
            out.extend((0..p.len()).filter(|&c| p[c] == Cell::Empty));
        }
    }

    fn play(&self, p: &Vec<Cell>, m: &usize) -> Vec<Cell> {
        let mut next = p.clone();
        next[*m] = if self.to_move(p) == X { Cell::X } else { Cell::O };
        next
    }

    fn outcome(&self, p: &Vec<Cell>) -> Option<Outcome> {
        if let Some(at) = Strip::rows(p).next() {
            return Some(Outcome::Win(if p[at] == Cell::X { X } else { 1 - X }));
        }
        p.iter().all(|c| *c != Cell::Empty).then_some(Outcome::Draw)
    }
}

/// A strip read backwards is the same game.
impl Symmetric for Strip {
    fn canonical(&self, p: &Vec<Cell>) -> Vec<Cell> {
        let mirror: Vec<Cell> = p.iter().rev().copied().collect();
        std::cmp::min_by_key(p.clone(), mirror, |q| self.rank(q))
    }
}

/// A position's rank is its cells as the digits of a number in base 3, the first cell
/// lowest.
impl Indexed for Strip {
    fn size(&self) -> u64 {
        3u64.pow(self.cells as u32)
    }

    fn rank(&self, p: &Vec<Cell>) -> u64 {
        p.iter().rev().fold(0, |r, c| r * 3 + *c as u64)
    }

    fn unrank(&self, mut r: u64) -> Option<Vec<Cell>> {
        let mut p = Vec::with_capacity(self.cells);
        for _ in 0..self.cells {
            p.push(Cell::ALL[(r % 3) as usize].0);
            r /= 3;
        }
        (r == 0 && self.impossible(&p).is_none()).then_some(p)
    }
}

/// A move is the number of the cell marked (`1` is the first); a position is a letter per
/// cell, `.` empty, `x` or `o` (`..xx..o`).
impl Notation for Strip {
    fn parse_move(&self, p: &Vec<Cell>, text: &str) -> Result<usize, Error> {
        let cell = match text.trim().parse::<usize>() {
            Ok(n) if (1..=p.len()).contains(&n) => n - 1,
            _ => {
                return Err(Error::bad_move(
                    text,
                    format!("name a cell from 1 to {}", p.len()),
                ))
            }
        };
        if !self.legal_moves(p).contains(&cell) {
            return Err(Error::bad_move(text, "the cell is taken, or the game is over"));
        }
        Ok(cell)
    }

    fn format_move(&self, _: &Vec<Cell>, m: &usize) -> String {
        (m + 1).to_string()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<Cell>, Error> {
        let letter = |l: char| Cell::ALL.iter().find(|(_, a)| *a == l).map(|(c, _)| *c);
        let p: Vec<Cell> = text
            .chars()
            .map(letter)
            .collect::<Option<_>>()
            .ok_or_else(|| Error::bad_position(text, "use '.', 'x' and 'o', one per cell"))?;
        match self.impossible(&p) {
            Some(why) => Err(Error::bad_position(text, why)),
            None => Ok(p),
        }
    }

    fn format_position(&self, p: &Vec<Cell>) -> String {
        p.iter().map(|c| c.letter()).collect()
    }

    fn render(&self, p: &Vec<Cell>) -> String {
        let marks: String = p.iter().map(|c| format!("{:>3}", c.letter())).collect();
        let numbers: String = (1..=p.len()).map(|n| format!("{n:>3}")).collect();
        format!("{marks}\n{numbers}\n")
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == X { "X" } else { "O" }.into()
    }
}
