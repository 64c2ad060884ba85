//! Tic-tac-toe and the m,n,k-games: X and O take turns marking empty cells of an
//! m-wide, n-high board; the first to get k in a row (across, up or diagonally) wins.
//!
//! Cells are named chess-style: column letter then row number, `a1` at the bottom left.

use crate::game::{Game, Indexed, Notation, Outcome, PlayerId, Symmetric};
use crate::picture::{Grid, Kind, Picture};
use crate::session::quantity;
use crate::session::search::TreeOracleFn;
use crate::solve::nullwindow::{Child, Tree, TreeOracle, ValueTree, ENTRY_BYTES};
use crate::solve::{SearchOracle, Setup};
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;
use crate::Value;

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
    players: crate::session::search::PLAYERS,
};

/// The registry entry of tic-tac-toe, the 3,3,3-game.
pub const TICTACTOE_INFO: GameInfo = GameInfo {
    name: "tictactoe",
    summary: "tic-tac-toe, the same as mnk:m=3,n=3,k=3",
    how_to_play: "Take turns marking an empty square (X first); three in a row, across, down or diagonally, wins; a full board without one is a draw.",
    keys: &[],
    players: crate::session::search::PLAYERS,
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
        format!("{}{}", (b'a' + (cell % self.m) as u8) as char, cell / self.m + 1)
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

impl Notation for Mnk {
    fn parse_move(&self, p: &Board, text: &str) -> Result<u8, Error> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let col = chars.next().filter(|c| c.is_ascii_lowercase());
        let row: Option<usize> = chars.as_str().parse().ok();
        let (Some(col), Some(row)) = (col, row) else {
            return Err(Error::bad_move(
                text,
                "expected a cell like a1 (column letter, row number)",
            ));
        };
        let c = (col as u8 - b'a') as usize;
        if c >= self.m || row == 0 || row > self.n {
            return Err(Error::bad_move(
                text,
                format!("off the {} x {} board", self.m, self.n),
            ));
        }
        let cell = (row - 1) * self.m + c;
        if (p.x | p.o) >> cell & 1 == 1 {
            return Err(Error::bad_move(text, "that cell is taken"));
        }
        if self.outcome(p).is_some() {
            return Err(Error::bad_move(text, "the game is over"));
        }
        Ok(cell as u8)
    }

    fn player_name(&self, player: PlayerId) -> String {
        if player == 0 { "X" } else { "O" }.to_string()
    }

    fn format_move(&self, _p: &Board, m: &u8) -> String {
        self.cell_name(*m as usize)
    }

    /// Rows from the top, joined by `/`: `x`, `o` or `.` per cell, e.g. `x.o/.x./..o`.
    fn parse_position(&self, text: &str) -> Result<Board, Error> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != self.n || rows.iter().any(|r| r.chars().count() != self.m) {
            return Err(Error::bad_position(
                text,
                format!(
                    "expected {} of {} joined by '/'",
                    quantity(self.n, "row"),
                    quantity(self.m, "cell")
                ),
            ));
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (i, row) in rows.iter().enumerate() {
            let r = self.n - 1 - i;
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (r * self.m + c);
                match ch.to_ascii_lowercase() {
                    'x' => x |= bit,
                    'o' => o |= bit,
                    '.' => {}
                    _ => return Err(Error::bad_position(text, format!("'{ch}' is not x, o or ."))),
                }
            }
        }
        let board = self
            .board(x, o)
            .ok_or_else(|| Error::bad_position(text, "impossible mark counts or more than one winner"))?;
        // The winning mark completed every line of the winner: they share a cell.
        let (marks, winner) = match board.winner {
            1 => (x, 0),
            2 => (o, 1),
            _ => return Ok(board),
        };
        let shared = self
            .lines
            .iter()
            .filter(|&&l| l & !marks == 0)
            .fold(self.full(), |acc, &l| acc & l);
        if shared == 0 {
            return Err(Error::bad_position(
                text,
                format!(
                    "{} has lines that no one last mark completed",
                    self.player_name(winner)
                ),
            ));
        }
        Ok(board)
    }

    fn format_position(&self, p: &Board) -> String {
        (0..self.n)
            .rev()
            .map(|r| {
                (0..self.m)
                    .map(|c| cell_char(p, r * self.m + c))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn render(&self, p: &Board) -> String {
        let mut s = String::new();
        for r in (0..self.n).rev() {
            s += &format!("{:>2} ", r + 1);
            for c in 0..self.m {
                s.push(' ');
                s.push(cell_char(p, r * self.m + c).to_ascii_uppercase());
            }
            s.push('\n');
        }
        s += "   ";
        for c in 0..self.m {
            s.push(' ');
            s.push((b'a' + c as u8) as char);
        }
        s.push('\n');
        s
    }

    /// One cell per square: marks are labelled `X` or `O` and owned by their player; while
    /// the game goes on, every empty cell plays its move.
    fn picture(&self, p: &Board) -> Option<Picture> {
        let grid = Grid {
            cols: self.m,
            rows: self.n,
        };
        let open = self.outcome(p).is_none();
        let cells = (0..self.cells())
            .map(|cell| {
                let square = grid.square(Kind::Cell, cell % self.m, cell / self.m);
                match cell_char(p, cell) {
                    'x' => square.label("X").owner(0),
                    'o' => square.label("O").owner(1),
                    _ if open => square.plays(self.cell_name(cell)),
                    _ => square,
                }
            })
            .collect();
        Some(grid.picture(cells))
    }
}

fn cell_char(p: &Board, cell: usize) -> char {
    if p.x >> cell & 1 == 1 {
        'x'
    } else if p.o >> cell & 1 == 1 {
        'o'
    } else {
        '.'
    }
}

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
    fn pack(&self, b: &Board) -> u64 {
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
    Ok(crate::session::search::open(&spec.to_string(), info, game, tree))
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn the_picture_plays_empty_cells_and_labels_marks() {
        let g = Mnk::tictactoe();
        let p = g.play(&g.start(), &4);
        let picture = g.picture(&p).unwrap();
        let centre = &picture.shapes[4];
        assert_eq!(
            (centre.x, centre.y, centre.label.as_deref(), centre.owner),
            (2.0, 1.0, Some("X"), Some(0))
        );
        assert_eq!(picture.shapes[0].play.as_deref(), Some("a1"));
        assert_eq!((picture.shapes[0].x, picture.shapes[0].y), (1.0, 2.0));
        assert_eq!((picture.width, picture.height), (4.0, 4.0));
    }

    #[test]
    fn bad_notation_is_refused() {
        let g = Mnk::tictactoe();
        let p = g.parse_position("x../.../...").unwrap();
        assert!(g.parse_move(&p, "a3").unwrap_err().to_string().contains("taken"));
        assert!(g.parse_move(&p, "d1").unwrap_err().to_string().contains("off"));
        assert!(g.parse_move(&p, "11").is_err());
        assert!(g.parse_position("xx./.../...").is_err());
        // Lines of X that no one last mark completed are refused; lines it did are not.
        let row = Mnk::new(8, 1, 2).unwrap();
        let e = row.parse_position("xxoxxo.o").unwrap_err().to_string();
        assert!(e.contains("no one last mark"), "{e}");
        assert!(row.parse_position("xxxo.o..").is_ok());
        assert!(g.parse_position("xxx/xoo/xoo").is_ok());
        assert!(g.parse_position("x../...").is_err());
    }
}
