//! Tic-tac-toe and the m,n,k-games: X and O take turns marking empty cells of an
//! m-wide, n-high board; the first to get k in a row (across, up or diagonally) wins.
//!
//! Cells are named chess-style: column letter then row number, `a1` at the bottom left.

pub mod entry;
mod notation;
mod solver;

pub use solver::{tree_oracle, MnkTree, TREE_MAX_CELLS};

use crate::game::{Game, Indexed, Outcome, PlayerId, Symmetric};
use crate::session::strategies::search::TreeOracleFn;
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;

/// A side of the board, 1 to 8 cells, 3 when not given.
const SIDE: Values = Values::Int {
    lo: 1,
    hi: 8,
    default: Preset::Is(3),
};
const M: Key = Key {
    name: "m",
    values: SIDE,
    also: Some("m*n <= 64"),
    help: "board width (columns)",
};
const N: Key = Key {
    name: "n",
    values: SIDE,
    also: Some("m*n <= 64"),
    help: "board height (rows)",
};
const K: Key = Key {
    name: "k",
    values: SIDE,
    also: Some("at most max(m,n)"),
    help: "marks in a row that win",
};

/// The registry entry of m,n,k-games.
pub const INFO: GameInfo = GameInfo {
    name: "mnk",
    summary: "m,n,k-game: k in a row on an m-wide, n-high board wins",
    how_to_play: "Take turns marking an empty cell (X first); the first to get k marks in a row, across, up or diagonally, wins; a full board without one is a draw.",
    keys: &[M, N, K],
    players: crate::session::strategies::search::PLAYERS,
};

/// The registry entry of tic-tac-toe, the 3,3,3-game.
pub const TICTACTOE_INFO: GameInfo = GameInfo {
    name: "tictactoe",
    summary: "tic-tac-toe, the same as mnk:m=3,n=3,k=3",
    how_to_play: "Take turns marking an empty square (X first); three in a row, across, down or diagonally, wins; a full board without one is a draw.",
    keys: &[],
    players: crate::session::strategies::search::PLAYERS,
};

/// An m,n,k-game with its precomputed lines and symmetries.
#[derive(Clone, Debug)]
pub struct Mnk {
    m: usize,
    n: usize,
    k: usize,
    /// Every winning line as a bit mask.
    lines: Vec<u64>,
    /// For each cell, the lines through it.
    lines_through: Vec<Vec<u64>>,
    /// For each symmetry, for each byte of a board and each byte value, the image mask.
    symmetry_tables: Vec<Vec<[u64; 256]>>,
}

/// A board: the cells of X and of O, and who (if anyone) has completed a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Cells marked by X (bit `row * m + col`).
    pub x: u64,
    /// Cells marked by O.
    pub o: u64,
    /// 0 while nobody has a line, 1 when X has, 2 when O has.
    winner: u8,
}

impl Mnk {
    /// The m,n,k-game on an `m`-wide, `n`-high board.
    pub fn new(m: usize, n: usize, k: usize) -> Result<Mnk, Error> {
        if m == 0 || n == 0 || m > 8 || n > 8 || m * n > 64 {
            return Err(Error::Spec(format!(
                "an {m} x {n} board is out of range (1..=8 each)"
            )));
        }
        if k == 0 || k > m.max(n) {
            return Err(Error::Spec(format!("k={k} is out of range 1..={}", m.max(n))));
        }
        let cells = m * n;
        let bit = |c: usize, r: usize| 1u64 << (r * m + c);
        let mut lines = Vec::new();
        for r in 0..n as isize {
            for c in 0..m as isize {
                for (dc, dr) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
                    let (ec, er) = (c + dc * (k as isize - 1), r + dr * (k as isize - 1));
                    if ec < 0 || er < 0 || ec >= m as isize || er >= n as isize {
                        continue;
                    }
                    let mask = (0..k as isize).fold(0, |acc, i| {
                        acc | bit((c + dc * i) as usize, (r + dr * i) as usize)
                    });
                    if !lines.contains(&mask) {
                        lines.push(mask);
                    }
                }
            }
        }
        let lines_through = (0..cells)
            .map(|cell| lines.iter().copied().filter(|l| l >> cell & 1 == 1).collect())
            .collect();
        let maps = symmetry_maps(m, n);
        let symmetry_tables = maps
            .iter()
            .map(|map| {
                (0..cells.div_ceil(8))
                    .map(|byte| {
                        let mut table = [0u64; 256];
                        for (v, slot) in table.iter_mut().enumerate() {
                            for b in 0..8 {
                                let cell = byte * 8 + b;
                                if v >> b & 1 == 1 && cell < cells {
                                    *slot |= 1 << map[cell];
                                }
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        Ok(Mnk {
            m,
            n,
            k,
            lines,
            lines_through,
            symmetry_tables,
        })
    }

    /// Tic-tac-toe.
    pub fn tictactoe() -> Mnk {
        Mnk::new(3, 3, 3).expect("3,3,3 is valid")
    }

    /// The game a spec names (`tictactoe` or `mnk:m=..,n=..,k=..`).
    pub fn from_spec(spec: &Spec) -> Result<Mnk, Error> {
        if spec.name == TICTACTOE_INFO.name {
            spec.check_keys(&TICTACTOE_INFO)?;
            return Ok(Mnk::tictactoe());
        }
        spec.check_keys(&INFO)?;
        let m = spec.int(&M)? as usize;
        let n = spec.int(&N)? as usize;
        let k = spec.int(&K)? as usize;
        Mnk::new(m, n, k)
    }

    /// Board width, height and the winning run length.
    pub fn dims(&self) -> (usize, usize, usize) {
        (self.m, self.n, self.k)
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.m * self.n
    }

    /// The number of board symmetries used (8 for squares, 4 for rectangles).
    pub fn symmetries(&self) -> usize {
        self.symmetry_tables.len()
    }

    fn full(&self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    fn has_line(&self, marks: u64) -> bool {
        self.lines.iter().any(|&l| l & !marks == 0)
    }

    fn transform(&self, sym: usize, bits: u64) -> u64 {
        self.symmetry_tables[sym]
            .iter()
            .enumerate()
            .fold(0, |acc, (byte, table)| {
                acc | table[(bits >> (8 * byte)) as usize & 0xff]
            })
    }

    fn cell_name(&self, cell: usize) -> String {
        crate::game::cell::name_of(cell, self.m)
    }

    /// The board with these marks, checked for validity (mark counts, at most one winner).
    pub fn board(&self, x: u64, o: u64) -> Option<Board> {
        let (nx, no) = (x.count_ones(), o.count_ones());
        if x & o != 0 || (x | o) & !self.full() != 0 || !(nx == no || nx == no + 1) {
            return None;
        }
        let winner = match (self.has_line(x), self.has_line(o)) {
            (false, false) => 0,
            (true, false) if nx == no + 1 => 1,
            (false, true) if nx == no => 2,
            _ => return None,
        };
        Some(Board { x, o, winner })
    }
}

/// Where a symmetry sends cell (column, row) of an m × n board.
type CellMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// For each symmetry of the m × n board, where each cell goes.
fn symmetry_maps(m: usize, n: usize) -> Vec<Vec<usize>> {
    let square = m == n;
    let transforms: Vec<CellMap> = if square {
        vec![
            |c, r, _, _| (c, r),
            |c, r, m, _| (m - 1 - c, r),
            |c, r, _, n| (c, n - 1 - r),
            |c, r, m, n| (m - 1 - c, n - 1 - r),
            |c, r, _, _| (r, c),
            |c, r, m, _| (m - 1 - r, c),
            |c, r, _, n| (r, n - 1 - c),
            |c, r, m, n| (m - 1 - r, n - 1 - c),
        ]
    } else {
        vec![
            |c, r, _, _| (c, r),
            |c, r, m, _| (m - 1 - c, r),
            |c, r, _, n| (c, n - 1 - r),
            |c, r, m, n| (m - 1 - c, n - 1 - r),
        ]
    };
    transforms
        .into_iter()
        .map(|t| {
            (0..m * n)
                .map(|cell| {
                    let (c, r) = t(cell % m, cell / m, m, n);
                    r * m + c
                })
                .collect()
        })
        .collect()
}

impl Game for Mnk {
    type Position = Board;
    type Move = u8;

    fn start(&self) -> Board {
        Board {
            x: 0,
            o: 0,
            winner: 0,
        }
    }

    fn to_move(&self, p: &Board) -> PlayerId {
        u8::from(p.x.count_ones() > p.o.count_ones())
    }

    fn moves(&self, p: &Board, out: &mut Vec<u8>) {
        if p.winner != 0 {
            return;
        }
        let mut empty = !(p.x | p.o) & self.full();
        while empty != 0 {
            out.push(empty.trailing_zeros() as u8);
            empty &= empty - 1;
        }
    }

    fn play(&self, p: &Board, m: &u8) -> Board {
        let bit = 1u64 << m;
        let mut next = *p;
        let mine = if self.to_move(p) == 0 {
            next.x |= bit;
            next.x
        } else {
            next.o |= bit;
            next.o
        };
        if self.lines_through[*m as usize].iter().any(|&l| l & !mine == 0) {
            next.winner = 1 + self.to_move(p);
        }
        next
    }

    fn outcome(&self, p: &Board) -> Option<Outcome> {
        match p.winner {
            1 => Some(Outcome::Win(0)),
            2 => Some(Outcome::Win(1)),
            _ if (p.x | p.o) == self.full() => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Open lines weighted by how full they are: own minus the opponent's.
    fn heuristic(&self, p: &Board) -> i32 {
        let (mine, theirs) = if self.to_move(p) == 0 {
            (p.x, p.o)
        } else {
            (p.o, p.x)
        };
        let weight = |count: u32| 1i32 << (2 * count.min(12));
        self.lines
            .iter()
            .map(|&l| match ((mine & l).count_ones(), (theirs & l).count_ones()) {
                (a, 0) if a > 0 => weight(a),
                (0, b) if b > 0 => -weight(b),
                _ => 0,
            })
            .sum()
    }
}

impl Symmetric for Mnk {
    fn canonical(&self, p: &Board) -> Board {
        (1..self.symmetries())
            .map(|s| Board {
                x: self.transform(s, p.x),
                o: self.transform(s, p.o),
                winner: p.winner,
            })
            .fold(*p, |best, b| best.min(b))
    }
}

impl Indexed for Mnk {
    /// 3^cells: each cell empty, X or O, the first cell least significant.
    fn size(&self) -> u64 {
        3u64.pow(self.cells().min(40) as u32)
    }

    fn rank(&self, p: &Board) -> u64 {
        (0..self.cells())
            .rev()
            .fold(0, |acc, c| acc * 3 + (p.x >> c & 1) + 2 * (p.o >> c & 1))
    }

    fn unrank(&self, mut r: u64) -> Option<Board> {
        let (mut x, mut o) = (0u64, 0u64);
        for c in 0..self.cells() {
            match r % 3 {
                1 => x |= 1 << c,
                2 => o |= 1 << c,
                _ => {}
            }
            r /= 3;
        }
        self.board(x, o)
    }
}

/// Opens a session of the m,n,k-game (or tic-tac-toe) `spec` names: solved by search.
pub fn open(spec: &Spec) -> Result<Box<dyn crate::session::Session>, Error> {
    let game = Mnk::from_spec(spec)?;
    let info = if spec.name == TICTACTOE_INFO.name {
        &TICTACTOE_INFO
    } else {
        &INFO
    };
    let cells = game.cells();
    let tree = (cells <= TREE_MAX_CELLS).then_some(tree_oracle as TreeOracleFn<Mnk>);
    Ok(crate::session::strategies::search::open(
        &spec.to_string(),
        info,
        game,
        tree,
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Notation;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn boards_over_32_cells_are_keyed_by_their_base_3_number() {
        let mut rng = StdRng::seed_from_u64(5);
        for (m, n) in [(6, 6), (8, 5), (5, 8)] {
            let g = Mnk::new(m, n, 4).unwrap();
            let tree = MnkTree::new(&g);
            let cells = g.cells();
            for _ in 0..2000 {
                let (mut x, mut o) = (0u64, 0u64);
                for cell in 0..cells {
                    match rng.gen_range(0..3) {
                        1 => x |= 1 << cell,
                        2 => o |= 1 << cell,
                        _ => {}
                    }
                }
                let mut key = tree.pack(&Board { x, o, winner: 0 });
                let (mut dx, mut dy) = (0u64, 0u64);
                for cell in 0..cells {
                    match key % 3 {
                        1 => dx |= 1 << cell,
                        2 => dy |= 1 << cell,
                        _ => {}
                    }
                    key /= 3;
                }
                assert_eq!((key, dx, dy), (0, x, o), "{m} x {n}");
            }
        }
        let over = catalog_solvers("mnk:m=7,n=6,k=4");
        assert!(!over.contains(&"nullwindow"), "{over:?}");
        assert_eq!(catalog_solvers("mnk:m=8,n=5,k=4")[0], "nullwindow");
    }

    fn catalog_solvers(spec: &str) -> Vec<&'static str> {
        crate::catalog::open(spec).unwrap().solvers()
    }

    #[test]
    fn tictactoe_has_eight_lines_and_eight_symmetries() {
        let g = Mnk::tictactoe();
        assert_eq!(g.lines.len(), 8);
        assert_eq!(g.symmetries(), 8);
        assert_eq!(Mnk::new(4, 3, 3).unwrap().symmetries(), 4);
    }

    #[test]
    fn a_row_wins() {
        let g = Mnk::tictactoe();
        let mut p = g.start();
        for text in ["a1", "a2", "b1", "b2", "c1"] {
            let m = g.parse_move(&p, text).unwrap();
            p = g.play(&p, &m);
        }
        assert_eq!(g.outcome(&p), Some(Outcome::Win(0)));
        assert_eq!(g.format_position(&p), ".../oo./xxx");
    }

    #[test]
    fn canonical_is_shared_by_all_images() {
        let g = Mnk::tictactoe();
        let p = g.parse_position("x../.o./...").unwrap();
        let q = g.parse_position("..x/.o./...").unwrap();
        let r = g.parse_position(".../.o./..x").unwrap();
        assert_eq!(g.canonical(&p), g.canonical(&q));
        assert_eq!(g.canonical(&p), g.canonical(&r));
    }

    #[test]
    fn rank_round_trips() {
        let g = Mnk::tictactoe();
        let p = g.parse_position("xo./.x./o..").unwrap();
        assert_eq!(g.unrank(g.rank(&p)), Some(p));
    }
}
