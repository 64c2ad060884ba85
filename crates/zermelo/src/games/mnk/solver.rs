//! The m,n,k-game's own null-window search tree: margins, threat-ordered moves and the
//! bounds the lines still open give.

use super::{Board, Mnk};
use crate::game::{Game, Symmetric};
use crate::solve::nullwindow::{Child, Tree, TreeOracle, ValueTree, ENTRY_BYTES};
use crate::solve::{SearchOracle, Setup};
use crate::Value;

/// The m,n,k-game as a tree of margins for [`crate::solve::nullwindow`]: a win is worth
/// the empty cells left after it plus one (so the fastest win is worth most), a draw
/// nothing. Nodes are boards as played, keyed by their canonical image (made only for
/// the boards searched, not for every child); the moves are ordered by threats (see
/// [`Tree::children`]), and the lines a player can still complete bound the values.
#[derive(Clone, Debug)]
pub struct MnkTree<'g> {
    game: &'g Mnk,
    /// On boards over 32 cells, for each byte of a set of marks, the base-3 number its
    /// cells make: a key is the board in base 3, exact up to [`TREE_MAX_CELLS`] cells.
    ternary: Vec<[u64; 256]>,
}

/// The most cells whose boards the null-window search keys exactly (3^40 < 2^64).
pub const TREE_MAX_CELLS: usize = 40;

impl<'g> MnkTree<'g> {
    /// The tree of `game`.
    pub fn new(game: &'g Mnk) -> Self {
        let cells = game.cells();
        let ternary = if cells <= 32 {
            Vec::new()
        } else {
            (0..cells.div_ceil(8))
                .map(|chunk| {
                    let mut table = [0u64; 256];
                    for (byte, entry) in table.iter_mut().enumerate() {
                        *entry = (0..8)
                            .map(|bit| chunk * 8 + bit)
                            .filter(|&cell| byte >> (cell % 8) & 1 == 1 && cell < cells)
                            .map(|cell| 3u64.pow(cell as u32))
                            .sum();
                    }
                    table
                })
                .collect()
        };
        MnkTree { game, ternary }
    }

    fn empties(&self, b: &Board) -> u32 {
        self.game.cells() as u32 - (b.x | b.o).count_ones()
    }

    /// The marks of the player to move and of the other.
    fn sides(&self, b: &Board) -> (u64, u64) {
        if self.game.to_move(b) == 0 {
            (b.x, b.o)
        } else {
            (b.o, b.x)
        }
    }

    /// The cells completing a line of `marks` that `others` has not blocked.
    fn wins(&self, marks: u64, others: u64) -> u64 {
        let empty = !(marks | others) & self.game.full();
        self.game.lines.iter().fold(0, |acc, &l| {
            let open = l & empty;
            if l & others == 0 && open.count_ones() == 1 {
                acc | open
            } else {
                acc
            }
        })
    }

    /// The fewest marks a player with `marks` still needs to complete a line free of
    /// `others`, when that many fit in its `turns` left.
    fn fewest_needed(&self, marks: u64, others: u64, turns: u32) -> Option<u32> {
        let k = self.game.k as u32;
        self.game
            .lines
            .iter()
            .filter(|&&l| l & others == 0)
            .map(|&l| k - (l & marks).count_ones())
            .min()
            .filter(|&need| need <= turns)
    }

    /// The empty cells on a line that holds marks of only one player or none: filling
    /// any other cell is no better than filling any of these.
    fn live(&self, b: &Board) -> u64 {
        let empty = !(b.x | b.o) & self.game.full();
        let open = self
            .game
            .lines
            .iter()
            .filter(|&&l| l & b.x == 0 || l & b.o == 0)
            .fold(0, |acc, &l| acc | l);
        open & empty
    }

    /// The marks of both players side by side up to 32 cells; beyond, the board in base 3
    /// (a cell of the first player's is the digit 1, of the second's 2). Exact either way.
    pub(super) fn pack(&self, b: &Board) -> u64 {
        if self.ternary.is_empty() {
            return b.x | b.o << 32;
        }
        self.ternary
            .iter()
            .enumerate()
            .map(|(chunk, table)| {
                let byte = |marks: u64| (marks >> (8 * chunk)) as usize & 0xff;
                table[byte(b.x)] + 2 * table[byte(b.o)]
            })
            .sum()
    }
}

impl Tree for MnkTree<'_> {
    type Node = Board;

    /// The board's canonical image, packed.
    fn key(&self, b: &Board) -> u64 {
        self.pack(&self.game.canonical(b))
    }

    /// The end (nothing more to gain), a draw when neither player can still complete a
    /// line in the turns left, and a loss in two plies when the opponent threatens two
    /// cells and the mover has no win at once.
    fn exact(&self, b: &Board) -> Option<i32> {
        if self.game.outcome(b).is_some() {
            return Some(0);
        }
        let (lo, hi) = self.bounds(b);
        if lo == hi {
            return Some(lo);
        }
        let (mine, theirs) = self.sides(b);
        let empties = self.empties(b) as i32;
        (hi < empties && self.wins(theirs, mine).count_ones() >= 2).then_some(1 - empties)
    }

    /// A win worth `v` comes after `empties + 1 - v` plies, so the fewest marks a player
    /// still needs bound the value from its side: by the mover's, the value is at most
    /// what a win on its `a`-th move from now is worth (or a draw when it cannot win);
    /// by the opponent's, at least what a loss on the opponent's `b`-th move is worth.
    fn bounds(&self, b: &Board) -> (i32, i32) {
        let empties = self.empties(b);
        let (mine, theirs) = self.sides(b);
        let e = empties as i32;
        let hi = self
            .fewest_needed(mine, theirs, empties.div_ceil(2))
            .map_or(0, |a| e + 2 - 2 * a as i32);
        let lo = self
            .fewest_needed(theirs, mine, empties / 2)
            .map_or(0, |need| 2 * need as i32 - 1 - e);
        (lo, hi)
    }

    fn work(&self, b: &Board) -> u8 {
        self.empties(b) as u8
    }

    /// A winning move alone; else the blocks of the opponent's wins when it has any;
    /// else the cells on an open line (filling a cell on none is no better than filling
    /// one on some). A move that makes two threats the opponent cannot answer both comes
    /// alone; the others come most threats first, then most weight of open lines (the
    /// more of a player's marks a line free of the other's holds, the more it weighs).
    fn children(&self, b: &Board, out: &mut Vec<Child<Board>>) {
        let g = self.game;
        let (mine, theirs) = self.sides(b);
        let left = self.empties(b) as i32 - 1;
        let child = |cell: u32| {
            let next = g.play(b, &(cell as u8));
            Child {
                node: next,
                gain: if next.winner != 0 { left + 1 } else { 0 },
                keeps_turn: false,
            }
        };
        let winning = self.wins(mine, theirs);
        if winning != 0 {
            out.push(child(winning.trailing_zeros()));
            return;
        }
        let blocks = self.wins(theirs, mine);
        let live = self.live(b);
        let empty = !(b.x | b.o) & g.full();
        let candidates = match (blocks, live) {
            (0, 0) => empty,
            (0, live) => live,
            (blocks, _) => blocks,
        };
        let mut scored: Vec<(i32, u32)> = Vec::new();
        let mut rest = candidates;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            let bit = 1u64 << cell;
            let threats = self.wins(mine | bit, theirs).count_ones() as i32;
            if threats >= 2 && blocks.count_ones() <= 1 {
                out.push(child(cell));
                return;
            }
            let weight = g.lines_through[cell as usize]
                .iter()
                .map(|&l| match (l & mine, l & theirs) {
                    (m, 0) => 1 << (2 * m.count_ones()),
                    (0, t) => 1 << (2 * t.count_ones()),
                    _ => 0,
                })
                .sum::<i32>();
            scored.push((-(threats << 20) - weight, cell));
        }
        scored.sort_unstable();
        out.extend(scored.iter().map(|&(_, cell)| child(cell)));
    }
}

impl ValueTree<Mnk> for MnkTree<'_> {
    fn game(&self) -> &Mnk {
        self.game
    }

    fn node(&self, p: &Board) -> Board {
        *p
    }

    /// A win worth `v` comes when `v - 1` cells are left empty.
    fn value_of(&self, p: &Board, v: i32) -> Value {
        let plies = |v: i32| (self.empties(p) as i32 - v.abs() + 1) as u32;
        match v.signum() {
            1 => Value::Win(plies(v)),
            -1 => Value::Lose(plies(v)),
            _ => Value::Draw,
        }
    }

    /// Room for four entries per set of empty cells, about what searches store.
    fn table_bytes(&self, p: &Board) -> u64 {
        (4.0 * 2f64.powi(self.empties(p) as i32) * ENTRY_BYTES as f64) as u64
    }
}

/// The exact values of m,n,k positions by the null-window search under `setup`.
pub fn tree_oracle<'g>(game: &'g Mnk, setup: &Setup) -> Box<dyn SearchOracle<Mnk> + 'g> {
    Box::new(TreeOracle::new(MnkTree::new(game), setup.clone()))
}
