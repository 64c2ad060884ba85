//! Connect Four: two players drop discs in turn into the columns of an upright board of
//! `cols` columns and `rows` rows; a disc falls to the lowest free cell of its column. The
//! first to have `k` discs in a line (a row, a column or a diagonal) wins; a full board
//! without one is a draw.
//!
//! A board is a pair of bitboards: column `c` takes the bits `c * (rows + 1)` to
//! `c * (rows + 1) + rows`, the cell of row `r` (from 0 at the bottom) being the bit
//! `c * (rows + 1) + r`; the top bit of every column is never set, so that shifting a
//! board by a direction never carries a line from one column's top into the next column.
//! A board keeps the first player's discs and every disc; the second player's are the
//! difference, and the player to move follows from the number of discs.
//!
//! For dense tables, positions are ranked level by level (the level is the number of
//! discs), inside a level by the heights of the columns, then by which of the discs are
//! the first player's (a combinatorial number).

pub mod entry;
mod notation;
mod solver;

pub use solver::{tree_oracle, Connect4Tree, Node};

use std::ops::Range;

use crate::game::{Game, Indexed, Levelled, Outcome, PlayerId, Symmetric};
use crate::session::strategies::levels::{self, Tabulated};
use crate::session::{Big, Fact, FactValue};
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;

/// The most bits a board may take: one word per player.
const WORD_BITS: usize = 64;
/// The most columns a board may have: two bits each at least.
const MAX_COLS: usize = WORD_BITS / 2;

/// The height of every column.
type Heights = [u8; MAX_COLS];

const COLS: Key = Key {
    name: "cols",
    values: Values::Int {
        lo: 1,
        hi: 9,
        default: Preset::Is(5),
    },
    also: Some("cols*(rows+1) <= 64"),
    help: "columns",
};
const ROWS: Key = Key {
    name: "rows",
    values: Values::Int {
        lo: 1,
        hi: 12,
        default: Preset::Is(4),
    },
    also: Some("cols*(rows+1) <= 64"),
    help: "rows",
};
const K: Key = Key {
    name: "k",
    values: Values::Int {
        lo: 1,
        hi: 12,
        default: Preset::Is(4),
    },
    also: Some("at most max(cols,rows)"),
    help: "discs in a line that win",
};

/// The registry entry of Connect Four.
pub const INFO: GameInfo = GameInfo {
    name: "connect4",
    summary: "Connect Four: discs dropped into columns; k in a line (across, up or diagonally) wins",
    how_to_play: "Take turns dropping a disc into a column that is not full (X first); it falls to the lowest free cell. The first to get k discs in a line, across, up or diagonally, wins; a full board without one is a draw.",
    keys: &[COLS, ROWS, K],
    players: crate::session::strategies::search::PLAYERS,
};

/// A position: the first player's discs and every disc, as bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// The first player's discs.
    pub x: u64,
    /// Every disc.
    pub mask: u64,
}

impl Board {
    /// The second player's discs.
    pub fn o(&self) -> u64 {
        self.x ^ self.mask
    }

    /// The number of discs on the board.
    pub fn discs(&self) -> u32 {
        self.mask.count_ones()
    }

    /// The board with the player to move's disc on `cell` (one bit, empty and playable).
    pub fn filled(&self, cell: u64) -> Board {
        Board {
            x: if self.discs().is_multiple_of(2) {
                self.x | cell
            } else {
                self.x
            },
            mask: self.mask | cell,
        }
    }
}

/// Connect Four on one board, with its masks and the counts its ranks use.
#[derive(Clone, Debug)]
pub struct Connect4 {
    cols: usize,
    rows: usize,
    k: usize,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board (no top bits).
    board: u64,
    /// The shifts of the four directions: up, across, up-right, down-right.
    directions: [u32; 4],
    /// The columns from the centre outwards, the order the search tries them in.
    centre_first: Vec<u8>,
    /// `heights[m * (cells + 1) + s]`: the ways `m` columns hold `s` discs.
    heights: Vec<u64>,
    /// `binomial[n * (cells + 1) + j]`: n choose j.
    binomial: Vec<u64>,
    /// `shape_steps[(c * (cells + 1) + rest) * (rows + 1) + h]`: how far column `c` of
    /// height `h` moves the rank of the heights, `rest` discs lying in it and after it.
    shape_steps: Vec<u64>,
    /// The first rank of each level (number of discs), and the size at the end.
    level_start: Vec<u64>,
    /// Whether every rank fits in 64 bits.
    numbered: bool,
}

impl Connect4 {
    /// Connect Four on `cols` columns and `rows` rows, `k` in a line winning.
    pub fn new(cols: usize, rows: usize, k: usize) -> Result<Connect4, Error> {
        if cols == 0 || rows == 0 || cols * (rows + 1) > WORD_BITS {
            return Err(Error::Spec(format!(
                "a board of {cols} columns and {rows} rows is out of range (cols*(rows+1) <= 64)"
            )));
        }
        if k == 0 || k > cols.max(rows) {
            return Err(Error::Spec(format!(
                "k={k} is out of range 1..={}",
                cols.max(rows)
            )));
        }
        let h = rows + 1;
        let column = (1u64 << rows) - 1;
        let (mut bottom, mut board) = (0u64, 0u64);
        for c in 0..cols {
            bottom |= 1 << (c * h);
            board |= column << (c * h);
        }
        let mut centre_first: Vec<u8> = (0..cols as u8).collect();
        // Nearest the centre first; of two at the same distance, the left one.
        centre_first.sort_by_key(|&c| {
            (2 * c as i32 + 1 - cols as i32).abs() * 2 + i32::from(2 * (c as usize) >= cols)
        });
        let cells = cols * rows;
        let width = cells + 1;
        let mut heights = vec![0u64; (cols + 1) * width];
        heights[0] = 1;
        for m in 1..=cols {
            for s in 0..=cells {
                heights[m * width + s] = (0..=rows.min(s)).fold(0u64, |acc, v| {
                    acc.saturating_add(heights[(m - 1) * width + s - v])
                });
            }
        }
        let mut binomial = vec![0u64; width * width];
        for n in 0..=cells {
            binomial[n * width] = 1;
            for j in 1..=n {
                binomial[n * width + j] =
                    binomial[(n - 1) * width + j - 1].saturating_add(binomial[(n - 1) * width + j]);
            }
        }
        let mut shape_steps = vec![0u64; cols * width * h];
        for c in 0..cols {
            for rest in 0..=cells {
                let mut step = 0u64;
                for v in 0..=rows.min(rest) {
                    shape_steps[(c * width + rest) * h + v] = step;
                    step = step.saturating_add(heights[(cols - c - 1) * width + rest - v]);
                }
            }
        }
        let mut level_start = vec![0u64; width + 1];
        let mut numbered = true;
        for n in 0..=cells {
            let level =
                u128::from(heights[cols * width + n]) * u128::from(binomial[n * width + n.div_ceil(2)]);
            let end = u128::from(level_start[n]) + level;
            numbered &= end < u128::from(u64::MAX);
            level_start[n + 1] = end.min(u128::from(u64::MAX)) as u64;
        }
        Ok(Connect4 {
            cols,
            rows,
            k,
            bottom,
            board,
            directions: [1, h as u32, h as u32 + 1, h as u32 - 1],
            centre_first,
            heights,
            binomial,
            shape_steps,
            level_start,
            numbered,
        })
    }

    /// The game a spec names: `connect4:cols=C,rows=R,k=K`.
    pub fn from_spec(spec: &Spec) -> Result<Connect4, Error> {
        spec.check_keys(&INFO)?;
        let cols = spec.int(&COLS)? as usize;
        let rows = spec.int(&ROWS)? as usize;
        let k = spec.int(&K)? as usize;
        Connect4::new(cols, rows, k)
    }

    /// Columns, rows and the discs in a line that win.
    pub fn dims(&self) -> (usize, usize, usize) {
        (self.cols, self.rows, self.k)
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cols * self.rows
    }

    /// The bits of column `c`'s cells.
    fn column(&self, c: usize) -> u64 {
        ((1u64 << self.rows) - 1) << (c * (self.rows + 1))
    }

    /// The cells a disc dropped now would land on, one per column that is not full.
    pub fn playable(&self, b: &Board) -> u64 {
        (b.mask + self.bottom) & self.board
    }

    /// Whether `discs` hold `k` in a line.
    pub fn has_line(&self, discs: u64) -> bool {
        if self.k == 4 {
            return self.directions.iter().any(|&d| {
                let pairs = discs & (discs >> d);
                pairs & (pairs >> (2 * d)) != 0
            });
        }
        self.directions.iter().any(|&d| {
            let mut run = discs;
            for i in 1..self.k as u32 {
                run &= discs >> (i * d);
            }
            run != 0
        })
    }

    /// The cells of the board that would complete a line of `discs`: every empty one, and
    /// some taken ones.
    pub fn winning_cells(&self, discs: u64) -> u64 {
        if self.k == 4 {
            return self.winning_cells_of_four(discs);
        }
        let k = self.k as u32;
        let mut cells = 0u64;
        for &d in &self.directions {
            for missing in 0..k {
                let mut starts = u64::MAX;
                for i in (0..k).filter(|&i| i != missing) {
                    starts &= discs >> (i * d);
                }
                cells |= starts << (missing * d);
            }
        }
        cells & self.board
    }

    /// [`Connect4::winning_cells`] for lines of four: per direction, the cells after
    /// three in a row, before them, and in the gap of two and one either way.
    fn winning_cells_of_four(&self, p: u64) -> u64 {
        let mut cells = (p << 1) & (p << 2) & (p << 3);
        for &d in &self.directions[1..] {
            let before = (p << d) & (p << (2 * d));
            cells |= before & (p << (3 * d));
            cells |= before & (p >> d);
            let after = (p >> d) & (p >> (2 * d));
            cells |= after & (p << d);
            cells |= after & (p >> (3 * d));
        }
        cells & self.board
    }

    /// The discs of the player to move and of the other.
    pub fn sides(&self, b: &Board) -> (u64, u64) {
        if b.discs().is_multiple_of(2) {
            (b.x, b.o())
        } else {
            (b.o(), b.x)
        }
    }

    /// The board after dropping a disc in column `c` (not full).
    pub fn drop_disc(&self, b: &Board, c: usize) -> Board {
        let cell = (b.mask + (1u64 << (c * (self.rows + 1)))) & self.column(c);
        b.filled(cell)
    }

    /// The board seen in a mirror: the columns in reverse order.
    pub fn mirror(&self, b: &Board) -> Board {
        Board {
            x: self.flip(b.x),
            mask: self.flip(b.mask),
        }
    }

    /// The bits of a board's columns in reverse column order.
    pub fn flip(&self, bits: u64) -> u64 {
        let h = self.rows + 1;
        let column = (1u64 << h) - 1;
        (0..self.cols).fold(0u64, |acc, c| {
            acc | ((bits >> (c * h)) & column) << ((self.cols - 1 - c) * h)
        })
    }

    /// The board with these discs, checked: discs rest on discs, the counts alternate, and
    /// only the player who moved last may have a line.
    pub fn board(&self, x: u64, mask: u64) -> Option<Board> {
        if x & !mask != 0 || mask & !self.board != 0 {
            return None;
        }
        // Every column is a run from the bottom: adding the bottom bit clears it.
        for c in 0..self.cols {
            let col = mask & self.column(c);
            let low = col >> (c * (self.rows + 1));
            if low & (low + 1) != 0 {
                return None;
            }
        }
        let b = Board { x, mask };
        let (nx, n) = (x.count_ones(), mask.count_ones());
        if nx != n.div_ceil(2) {
            return None;
        }
        let (mover, _) = self.sides(&b);
        (!self.has_line(mover)).then_some(b)
    }

    /// The columns in the order a disc may be dropped, natural order.
    fn open_columns(&self, b: &Board) -> impl Iterator<Item = u8> + '_ {
        let top = b.mask;
        (0..self.cols as u8).filter(move |&c| top >> (c as usize * (self.rows + 1) + self.rows - 1) & 1 == 0)
    }

    fn width(&self) -> usize {
        self.cells() + 1
    }

    /// The level (number of discs) of rank `r`, below the size.
    fn level_of(&self, r: u64) -> usize {
        self.level_start.partition_point(|&s| s <= r) - 1
    }

    /// How far column `c` of height `h` moves the rank of the heights, `rest` discs lying
    /// in it and the columns after it.
    fn shape_step(&self, c: usize, rest: usize, h: usize) -> u64 {
        self.shape_steps[(c * self.width() + rest) * (self.rows + 1) + h]
    }

    /// The height of every column of the discs `mask`.
    fn heights_of(&self, mask: u64) -> Heights {
        let h = self.rows + 1;
        let mut heights = [0u8; MAX_COLS];
        for (c, height) in heights.iter_mut().enumerate().take(self.cols) {
            *height = ((mask >> (c * h)) & ((1 << h) - 1)).count_ones() as u8;
        }
        heights
    }

    /// Every disc of columns of these heights.
    fn mask_of(&self, heights: &Heights) -> u64 {
        let h = self.rows + 1;
        (0..self.cols).fold(0, |acc, c| acc | ((1u64 << heights[c]) - 1) << (c * h))
    }

    /// The rank of the heights among those of `n` discs in all.
    fn shape_rank(&self, heights: &Heights, n: usize) -> u64 {
        let mut rest = n;
        let mut shape = 0;
        for (c, &height) in heights.iter().enumerate().take(self.cols) {
            shape += self.shape_step(c, rest, height as usize);
            rest -= height as usize;
        }
        shape
    }

    /// The heights of rank `shape` among those of `n` discs, `None` past the last.
    fn unrank_shape(&self, n: usize, mut shape: u64) -> Option<Heights> {
        let mut heights = [0u8; MAX_COLS];
        let mut rest = n;
        for (c, height) in heights.iter_mut().enumerate().take(self.cols) {
            let mut v = 0;
            loop {
                if v > self.rows || v > rest {
                    return None;
                }
                let ways = self.ways(self.cols - c - 1, rest - v);
                if shape < ways {
                    break;
                }
                shape -= ways;
                v += 1;
            }
            *height = v as u8;
            rest -= v;
        }
        Some(heights)
    }

    /// The next heights of the same number of discs in the order of their ranks; false
    /// after the last.
    fn next_shape(&self, heights: &mut Heights) -> bool {
        let rows = self.rows as u8;
        let mut after = 0u8;
        for i in (0..self.cols).rev() {
            if i + 1 < self.cols && heights[i] < rows && after > 0 {
                heights[i] += 1;
                // The rest as far right as it goes: the least heights after column i.
                let mut rest = after - 1;
                for height in heights[i + 1..self.cols].iter_mut().rev() {
                    *height = rest.min(rows);
                    rest -= *height;
                }
                return true;
            }
            after += heights[i];
        }
        false
    }

    /// The first player's discs `x` of a board of these heights, one bit per disc in the
    /// order of the cells (column by column, bottom up).
    fn packed(&self, x: u64, heights: &Heights) -> u64 {
        let h = self.rows + 1;
        let (mut packed, mut at) = (0u64, 0);
        for (c, &height) in heights.iter().enumerate().take(self.cols) {
            packed |= ((x >> (c * h)) & ((1 << height) - 1)) << at;
            at += height;
        }
        packed
    }

    /// The first player's discs on the board of these heights from their [`Connect4::packed`] bits.
    fn spread(&self, packed: u64, heights: &Heights) -> u64 {
        let h = self.rows + 1;
        let (mut x, mut at) = (0u64, 0);
        for (c, &height) in heights.iter().enumerate().take(self.cols) {
            x |= ((packed >> at) & ((1 << height) - 1)) << (c * h);
            at += height;
        }
        x
    }

    /// The combinatorial rank of packed discs: the `j`-th disc (from 1) at index `i`
    /// counts `i` choose `j`.
    fn colour_rank(&self, mut packed: u64) -> u64 {
        let width = self.width();
        let (mut colour, mut j) = (0, 0);
        while packed != 0 {
            j += 1;
            colour += self.binomial[packed.trailing_zeros() as usize * width + j];
            packed &= packed - 1;
        }
        colour
    }

    /// The packed discs of combinatorial rank `colour`, the first player's of `n` discs.
    fn unrank_colour(&self, mut colour: u64, n: usize) -> u64 {
        let mut packed = 0u64;
        let mut below = n;
        for j in (1..=n.div_ceil(2)).rev() {
            let mut i = below;
            while i > 0 && self.choose(i - 1, j) > colour {
                i -= 1;
            }
            // i - 1 is the largest index whose count fits.
            let at = i - 1;
            colour -= self.choose(at, j);
            packed |= 1 << at;
            below = at;
        }
        packed
    }

    /// The board of these discs, of `n` discs in all, unless the player to move has a
    /// line (the columns and counts being right by construction).
    fn unless_mover_won(&self, x: u64, mask: u64, n: usize) -> Option<Board> {
        let mover = if n.is_multiple_of(2) { x } else { x ^ mask };
        (!self.has_line(mover)).then_some(Board { x, mask })
    }

    fn ways(&self, columns: usize, discs: usize) -> u64 {
        self.heights[columns * self.width() + discs]
    }

    fn choose(&self, n: usize, j: usize) -> u64 {
        if j > n {
            0
        } else {
            self.binomial[n * self.width() + j]
        }
    }
}

impl Game for Connect4 {
    type Position = Board;
    type Move = u8;

    fn start(&self) -> Board {
        Board { x: 0, mask: 0 }
    }

    fn to_move(&self, p: &Board) -> PlayerId {
        (p.discs() % 2) as PlayerId
    }

    fn moves(&self, p: &Board, out: &mut Vec<u8>) {
        if self.outcome(p).is_none() {
            out.extend(self.open_columns(p));
        }
    }

    fn play(&self, p: &Board, m: &u8) -> Board {
        self.drop_disc(p, *m as usize)
    }

    fn outcome(&self, p: &Board) -> Option<Outcome> {
        let (_, last) = self.sides(p);
        if p.mask != 0 && self.has_line(last) {
            Some(Outcome::Win(1 - self.to_move(p)))
        } else if p.mask == self.board {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Cells that would complete a line: the mover's minus the other's.
    fn heuristic(&self, p: &Board) -> i32 {
        let (mine, theirs) = self.sides(p);
        let empty = !p.mask & self.board;
        (self.winning_cells(mine) & empty).count_ones() as i32
            - (self.winning_cells(theirs) & empty).count_ones() as i32
    }
}

impl Symmetric for Connect4 {
    /// The lesser of the board and its mirror image.
    fn canonical(&self, p: &Board) -> Board {
        (*p).min(self.mirror(p))
    }
}

impl Indexed for Connect4 {
    fn size(&self) -> u64 {
        self.level_start[self.width()]
    }

    /// The level's first rank, plus the rank of the column heights among those of the
    /// level (in lexicographic order, column 0 first) times the ways to colour the discs,
    /// plus the combinatorial rank of the first player's discs among them (cells in order
    /// of column, then row).
    fn rank(&self, p: &Board) -> u64 {
        let heights = self.heights_of(p.mask);
        let n = p.discs() as usize;
        let colourings = self.choose(n, n.div_ceil(2));
        self.level_start[n]
            + self.shape_rank(&heights, n) * colourings
            + self.colour_rank(self.packed(p.x, &heights))
    }

    fn unrank(&self, r: u64) -> Option<Board> {
        if r >= self.size() {
            return None;
        }
        let n = self.level_of(r);
        let colourings = self.choose(n, n.div_ceil(2));
        let offset = r - self.level_start[n];
        let heights = self.unrank_shape(n, offset / colourings)?;
        let x = self.spread(self.unrank_colour(offset % colourings, n), &heights);
        self.board(x, self.mask_of(&heights))
    }

    fn numbered(&self) -> bool {
        self.numbered
    }
}

impl Levelled for Connect4 {
    /// One level per number of discs.
    fn levels(&self) -> usize {
        self.width()
    }

    fn level_ranks(&self, level: usize) -> Range<u64> {
        self.level_start[level]..self.level_start[level + 1]
    }

    /// Every move adds one disc.
    fn reach(&self) -> usize {
        1
    }

    /// Steps from one colouring of the discs to the next (the next combination of the
    /// first player's), and from the last to the first of the next heights.
    fn for_each_position(&self, ranks: Range<u64>, mut f: impl FnMut(u64, Option<Board>)) {
        let mut r = ranks.start;
        let end = ranks.end.min(self.size());
        while r < end {
            let n = self.level_of(r);
            let level_end = end.min(self.level_start[n + 1]);
            let k = n.div_ceil(2);
            let colourings = self.choose(n, k);
            let offset = r - self.level_start[n];
            let Some(mut heights) = self.unrank_shape(n, offset / colourings) else {
                break;
            };
            let mut mask = self.mask_of(&heights);
            let mut colour = offset % colourings;
            let mut packed = self.unrank_colour(colour, n);
            while r < level_end {
                f(r, self.unless_mover_won(self.spread(packed, &heights), mask, n));
                r += 1;
                colour += 1;
                if colour == colourings {
                    colour = 0;
                    packed = (1 << k) - 1;
                    if !self.next_shape(&mut heights) {
                        break;
                    }
                    mask = self.mask_of(&heights);
                } else {
                    packed = next_combination(packed);
                }
            }
        }
        for r in r..ranks.end {
            f(r, None);
        }
    }

    /// Ranks every child from the parent's heights and packed discs: a drop into column
    /// `c` raises its height and inserts one bit into the packed discs.
    fn child_ranks(&self, p: &Board, _moves: &mut Vec<u8>, out: &mut Vec<(u64, bool)>) {
        if self.outcome(p).is_some() {
            return;
        }
        let n = p.discs() as usize;
        let heights = self.heights_of(p.mask);
        let packed = self.packed(p.x, &heights);
        let first_drops = u64::from(n.is_multiple_of(2));
        let base = self.level_start[n + 1];
        let colourings = self.choose(n + 1, (n + 1).div_ceil(2));
        // The rank of the heights moves by the columns before the drop with one more disc
        // in and after them, and by the columns after it as they were.
        let mut rests = [0usize; MAX_COLS];
        let mut rest = n;
        for c in 0..self.cols {
            rests[c] = rest;
            rest -= heights[c] as usize;
        }
        let mut after = [0u64; MAX_COLS + 1];
        for c in (0..self.cols).rev() {
            after[c] = after[c + 1] + self.shape_step(c, rests[c], heights[c] as usize);
        }
        let (mut before, mut at) = (0u64, 0usize);
        for c in 0..self.cols {
            let h = heights[c] as usize;
            if h < self.rows {
                let shape = before + self.shape_step(c, rests[c] + 1, h + 1) + after[c + 1];
                let i = at + h;
                let low = packed & ((1 << i) - 1);
                let child = low | first_drops << i | (packed >> i) << (i + 1);
                out.push((base + shape * colourings + self.colour_rank(child), false));
            }
            before += self.shape_step(c, rests[c] + 1, h);
            at += h;
        }
    }
}

/// The next set of as many bits in numeric order (Gosper's hack); `bits` is not zero.
fn next_combination(bits: u64) -> u64 {
    let t = bits | (bits - 1);
    (t + 1) | ((!t & (t + 1)) - 1) >> (bits.trailing_zeros() + 1)
}

impl Tabulated for Connect4 {
    /// `connect4-7x4`, and `-k3` after it for lines of other than four.
    fn table_name(&self) -> String {
        let k = if self.k == 4 {
            String::new()
        } else {
            format!("-k{}", self.k)
        };
        format!("connect4-{}x{}{k}", self.cols, self.rows)
    }

    fn table_spec(&self) -> String {
        format!("connect4:cols={},rows={},k={}", self.cols, self.rows, self.k)
    }

    fn position_facts(&self, _p: &Board) -> Vec<Fact> {
        Vec::new()
    }

    fn move_note(&self, _p: &Board, _m: &u8) -> Option<String> {
        None
    }

    /// The size of the table: the ranks of every level.
    fn count_facts(&self) -> Vec<Fact> {
        let ranks = if self.numbered {
            FactValue::Big(Big(self.size().into()))
        } else {
            FactValue::Text("more than 2^64".into())
        };
        vec![Fact::new("ranks", "ranks of the level table", ranks)]
    }
}

/// Opens a session of the Connect Four board `spec` names: answered by its level table
/// when one is saved, by the game's own null-window search otherwise.
pub fn open(spec: &Spec) -> Result<Box<dyn crate::session::Session>, Error> {
    let game = Connect4::from_spec(spec)?;
    Ok(levels::open_searched(&spec.to_string(), &INFO, game, tree_oracle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Notation;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    #[test]
    fn lines_win_in_every_direction() {
        let g = Connect4::new(7, 6, 4).unwrap();
        for (moves, winner) in [
            ("1212121", Some(Outcome::Win(0))),
            ("1122334", Some(Outcome::Win(0))),
            ("112233", None),
        ] {
            let p = g.parse_position(moves).unwrap();
            assert_eq!(g.outcome(&p), winner, "{moves}");
        }
        let diagonal = g
            .parse_position("......./......./...x.../..xo.../.xoo.../xoox..x")
            .unwrap();
        assert_eq!(g.outcome(&diagonal), Some(Outcome::Win(0)));
        assert_eq!(g.outcome(&g.mirror(&diagonal)), Some(Outcome::Win(0)));
        // The second player to move with a line of the first's is refused.
        assert!(g
            .parse_position("......./......./...x.../..xo.../.xoo.../xoox...")
            .is_err());
    }

    #[test]
    fn ranks_round_trip_and_stay_in_their_level() {
        for (cols, rows) in [(4, 4), (5, 4), (3, 5), (7, 6)] {
            let g = Connect4::new(cols, rows, 4.min(cols.max(rows))).unwrap();
            let mut rng = StdRng::seed_from_u64(3);
            let mut moves = Vec::new();
            for _ in 0..300 {
                let mut p = g.start();
                loop {
                    let r = g.rank(&p);
                    assert!(g.level_ranks(p.discs() as usize).contains(&r));
                    assert_eq!(g.unrank(r), Some(p), "{cols}x{rows}");
                    moves.clear();
                    g.moves(&p, &mut moves);
                    let Some(m) = moves.choose(&mut rng) else { break };
                    p = g.play(&p, m);
                }
            }
        }
        let g = Connect4::new(4, 4, 4).unwrap();
        let valid = (0..g.size())
            .filter(|&r| g.unrank(r).is_some_and(|p| g.rank(&p) == r))
            .count();
        assert!(valid as u64 > 161_029 && (valid as u64) < g.size());
    }

    #[test]
    fn stepping_and_child_ranks_agree_with_unranking_and_playing() {
        for (cols, rows, k) in [(4, 4, 4), (5, 3, 3), (3, 5, 4), (7, 6, 4)] {
            let g = Connect4::new(cols, rows, k).unwrap();
            let mut rng = StdRng::seed_from_u64(5);
            let (mut moves, mut fast, mut slow) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..300 {
                // A run of ranks from a random one, or from near a level's end into the next.
                let level = rand::Rng::gen_range(&mut rng, 0..g.levels());
                let ranks = g.level_ranks(level);
                let from = if rand::Rng::gen::<bool>(&mut rng) {
                    ranks.end.saturating_sub(20).max(ranks.start)
                } else {
                    rand::Rng::gen_range(&mut rng, ranks)
                };
                g.for_each_position(from..(from + 300).min(g.size()), |r, p| {
                    assert_eq!(p, g.unrank(r), "{cols}x{rows} rank {r}");
                    let Some(p) = p else { return };
                    fast.clear();
                    slow.clear();
                    g.child_ranks(&p, &mut moves, &mut fast);
                    moves.clear();
                    g.moves(&p, &mut moves);
                    slow.extend(moves.iter().map(|m| (g.rank(&g.play(&p, m)), false)));
                    assert_eq!(fast, slow, "{cols}x{rows} rank {r}");
                });
            }
        }
    }

    #[test]
    fn the_mirror_reverses_the_columns() {
        let g = Connect4::new(7, 6, 4).unwrap();
        let p = g.parse_position("1123").unwrap();
        let q = g.parse_position("7765").unwrap();
        assert_eq!(g.mirror(&p), q);
        assert_eq!(g.canonical(&p), g.canonical(&q));
    }

    #[test]
    fn lines_of_four_are_found_as_lines_of_any_length() {
        let mut rng = StdRng::seed_from_u64(4);
        for (cols, rows) in [(7, 6), (4, 4), (9, 5), (5, 9), (8, 7)] {
            let g = Connect4::new(cols, rows, 4).unwrap();
            for _ in 0..2000 {
                // Columns filled from the bottom, some of their discs the player's.
                let mask = (0..cols).fold(0u64, |acc, c| {
                    let height = rand::Rng::gen_range(&mut rng, 0..=rows);
                    acc | ((1u64 << height) - 1) << (c * (rows + 1))
                });
                let discs = rand::Rng::gen::<u64>(&mut rng) & mask;
                // The loops that serve any length, written out for four.
                let by_loops = |discs: u64| {
                    let k = 4u32;
                    let mut cells = 0u64;
                    let mut line = false;
                    for &d in &g.directions {
                        let mut run = discs;
                        for i in 1..k {
                            run &= discs >> (i * d);
                        }
                        line |= run != 0;
                        for missing in 0..k {
                            let mut starts = u64::MAX;
                            for i in (0..k).filter(|&i| i != missing) {
                                starts &= discs >> (i * d);
                            }
                            cells |= starts << (missing * d);
                        }
                    }
                    (cells & !mask & g.board, line)
                };
                let fast = (g.winning_cells(discs) & !mask, g.has_line(discs));
                assert_eq!(fast, by_loops(discs), "{cols}x{rows} {discs:x}");
            }
        }
    }

    #[test]
    fn winning_cells_complete_lines() {
        let g = Connect4::new(7, 6, 4).unwrap();
        let p = g.parse_position("112233").unwrap();
        let (mine, _) = g.sides(&p);
        let wins = g.winning_cells(mine) & !p.mask;
        // Column 4's bottom cell (and no other) completes the first player's row.
        assert_eq!(wins, 1 << (3 * 7));
    }
}
