//! The shape of a rectangular Domineering board: how each side's dominoes lie on it, and
//! its mirror images, of the whole board or of a rectangle within it, by shifting bits.

/// Free cells: bit `row * cols + col`, row 0 at the bottom.
pub type Free = u128;

/// The side to move: 0 for Vertical, 1 for Horizontal.
pub type Side = usize;

/// The most cells a board may have: the top bits of a key hold the mover and the value.
pub const MAX_CELLS: usize = 121;

/// A mirror image that keeps every domino's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// Rows turned upside down.
    UpDown,
    /// Columns turned left to right.
    LeftRight,
    /// Both, a half turn.
    Both,
}

impl Mirror {
    /// Every mirror image other than the position itself.
    pub const ALL: [Mirror; 3] = [Mirror::UpDown, Mirror::LeftRight, Mirror::Both];

    fn flips(self) -> (bool, bool) {
        match self {
            Mirror::UpDown => (true, false),
            Mirror::LeftRight => (false, true),
            Mirror::Both => (true, true),
        }
    }
}

/// A rectangle of the board: its lowest row and leftmost column, its height and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub row: usize,
    pub col: usize,
    pub rows: usize,
    pub cols: usize,
}

/// The shape of a rectangular board and the way each side's dominoes lie on it.
#[derive(Clone, Debug)]
pub struct Board {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) all: Free,
    /// For each side, the step from a domino's first cell to its second.
    pub(super) step: [u32; 2],
    /// For each side, the cells whose next cell in its direction is on the board.
    pub(super) has_next: [Free; 2],
    /// For each side, its lines (columns for Vertical, rows for Horizontal), in order.
    pub(super) lines: [Vec<Free>; 2],
}

impl Board {
    /// A board of `rows` × `cols` cells, at most [`MAX_CELLS`] (and 16 a side).
    pub fn new(rows: usize, cols: usize) -> Board {
        assert!(
            rows * cols <= MAX_CELLS && rows <= 16 && cols <= 16,
            "a board of at most 121 cells"
        );
        let all: Free = (1 << (rows * cols)) - 1;
        let row: Free = (1 << cols) - 1;
        let column: Free = (0..rows).fold(0, |acc, r| acc | 1 << (r * cols));
        let last_col = column << (cols - 1);
        Board {
            rows,
            cols,
            all,
            step: [cols as u32, 1],
            has_next: [all >> cols, all & !last_col],
            lines: [
                (0..cols).map(|c| column << c).collect(),
                (0..rows).map(|r| row << (r * cols)).collect(),
            ],
        }
    }

    /// Every cell of the board.
    pub fn all(&self) -> Free {
        self.all
    }

    /// The first cells of `side`'s places in `free`: where it may put a domino.
    #[inline]
    pub fn places(&self, free: Free, side: Side) -> Free {
        free & (free >> self.step[side]) & self.has_next[side]
    }

    /// `free` once `side` has put a domino on the place starting at `cell`.
    #[inline]
    pub fn play(&self, free: Free, side: Side, cell: u32) -> Free {
        free & !(1 << cell | 1 << (cell + self.step[side]))
    }

    /// The cell after `cell` in `side`'s direction, if it is on the board: the second
    /// cell of a domino from `cell`.
    pub fn partner(&self, side: Side, cell: usize) -> Option<usize> {
        (self.has_next[side] >> cell & 1 == 1).then(|| cell + self.step[side] as usize)
    }

    /// The cells after those of `cells` in `side`'s direction (a domino's second cells).
    #[inline]
    pub(super) fn next(&self, cells: Free, side: Side) -> Free {
        (cells & self.has_next[side]) << self.step[side]
    }

    /// The cells before those of `cells` in `side`'s direction.
    #[inline]
    pub(super) fn before(&self, cells: Free, side: Side) -> Free {
        cells >> self.step[side] & self.has_next[side]
    }

    /// The cells of `within` that touch `cells` side by side.
    pub fn touching(&self, cells: Free, within: Free) -> Free {
        (0..2).fold(0, |acc, side| {
            acc | self.next(cells, side) | self.before(cells, side)
        }) & within
    }

    /// The whole board as a rectangle.
    pub fn span(&self) -> Span {
        Span {
            row: 0,
            col: 0,
            rows: self.rows,
            cols: self.cols,
        }
    }

    /// The least rectangle holding the cells `set` (not empty).
    pub fn bounds(&self, set: Free) -> Span {
        let (mut rows, mut cols) = (0u32, 0u32);
        for (r, row) in self.lines[1].iter().enumerate() {
            let bits = ((set & row) >> (r * self.cols)) as u32;
            rows |= u32::from(bits != 0) << r;
            cols |= bits;
        }
        let (row, col) = (rows.trailing_zeros() as usize, cols.trailing_zeros() as usize);
        Span {
            row,
            col,
            rows: 32 - rows.leading_zeros() as usize - row,
            cols: 32 - cols.leading_zeros() as usize - col,
        }
    }

    /// The image of the cells `set` under `mirror` of the whole board.
    pub fn mirrored(&self, set: Free, mirror: Mirror) -> Free {
        self.mirrored_within(set & self.all, mirror, self.span())
    }

    /// The image of the cells `set`, all within `span`, under `mirror` of `span` alone.
    pub fn mirrored_within(&self, set: Free, mirror: Mirror, span: Span) -> Free {
        let (flip_rows, flip_cols) = mirror.flips();
        let row: Free = (1 << self.cols) - 1;
        // Reversed in 32 bits, column c of the span goes to 31 - c: this shift takes it to
        // the column as far from the span's right edge as c is from its left.
        let shift = 32 - 2 * span.col - span.cols;
        (span.row..span.row + span.rows).fold(0, |acc, r| {
            let mut bits = (set >> (r * self.cols) & row) as u32;
            if flip_cols {
                bits = bits.reverse_bits() >> shift;
            }
            let to = if flip_rows {
                2 * span.row + span.rows - 1 - r
            } else {
                r
            };
            acc | Free::from(bits) << (to * self.cols)
        })
    }

    /// Whether the board is square, so that it may be turned over its diagonal.
    pub fn square(&self) -> bool {
        self.rows == self.cols
    }

    /// The cells `set` of a square board turned over its diagonal: rows become columns.
    pub fn transposed(&self, set: Free) -> Free {
        let n = self.rows;
        (0..n).fold(0, |acc, r| {
            // Row r, spread from a row's bits into a column's.
            let bits = set >> (r * n) & ((1 << n) - 1);
            let spread = (0..n).fold(0, |col, c| col | (bits >> c & 1) << (c * n));
            acc | spread << r
        })
    }

    /// Where `cell` of a square board goes turned over its diagonal.
    pub fn transposed_cell(&self, cell: usize) -> usize {
        (cell % self.cols) * self.rows + cell / self.cols
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `set` mirrored cell by cell: each cell of `span` to its place in the image.
    fn by_cells(board: &Board, set: Free, mirror: Mirror, span: Span) -> Free {
        let (flip_rows, flip_cols) = mirror.flips();
        (0..board.rows * board.cols)
            .filter(|&cell| set >> cell & 1 == 1)
            .fold(0, |acc, cell| {
                let (r, c) = (cell / board.cols, cell % board.cols);
                let r = if flip_rows {
                    2 * span.row + span.rows - 1 - r
                } else {
                    r
                };
                let c = if flip_cols {
                    2 * span.col + span.cols - 1 - c
                } else {
                    c
                };
                acc | 1 << (r * board.cols + c)
            })
    }

    #[test]
    fn mirrors_by_shifts_agree_with_mirrors_cell_by_cell() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for (rows, cols) in [
            (1, 1),
            (2, 7),
            (3, 4),
            (4, 3),
            (5, 5),
            (8, 8),
            (6, 11),
            (11, 11),
            (7, 16),
        ] {
            let board = Board::new(rows, cols);
            for _ in 0..200 {
                let set = rng.gen::<Free>() & board.all();
                for mirror in Mirror::ALL {
                    let image = board.mirrored(set, mirror);
                    assert_eq!(image, by_cells(&board, set, mirror, board.span()));
                    assert_eq!(board.mirrored(image, mirror), set, "a mirror undoes itself");
                }
                // The cells of the set within a random rectangle.
                let (row, col) = (rng.gen_range(0..rows), rng.gen_range(0..cols));
                let span = Span {
                    row,
                    col,
                    rows: rng.gen_range(1..=rows - row),
                    cols: rng.gen_range(1..=cols - col),
                };
                let inside = |cell: usize| {
                    (span.row..span.row + span.rows).contains(&(cell / cols))
                        && (span.col..span.col + span.cols).contains(&(cell % cols))
                };
                let part = (0..rows * cols)
                    .filter(|&cell| set >> cell & 1 == 1 && inside(cell))
                    .fold(0, |acc: Free, cell| acc | 1 << cell);
                for mirror in Mirror::ALL {
                    let image = board.mirrored_within(part, mirror, span);
                    assert_eq!(image, by_cells(&board, part, mirror, span));
                    assert!((0..rows * cols).all(|cell| image >> cell & 1 == 0 || inside(cell)));
                }
                if part != 0 {
                    // Its bounds: the least and most row and column of its cells.
                    let cells: Vec<_> = (0..rows * cols).filter(|&c| part >> c & 1 == 1).collect();
                    let (r0, r1) = (
                        cells.iter().map(|c| c / cols).min(),
                        cells.iter().map(|c| c / cols).max(),
                    );
                    let (c0, c1) = (
                        cells.iter().map(|c| c % cols).min(),
                        cells.iter().map(|c| c % cols).max(),
                    );
                    let b = board.bounds(part);
                    assert_eq!(
                        (
                            Some(b.row),
                            Some(b.row + b.rows - 1),
                            Some(b.col),
                            Some(b.col + b.cols - 1)
                        ),
                        (r0, r1, c0, c1)
                    );
                }
                if board.square() {
                    let by_cell = (0..rows * cols)
                        .filter(|&c| set >> c & 1 == 1)
                        .fold(0, |acc: Free, c| acc | 1 << ((c % cols) * rows + c / cols));
                    assert_eq!(board.transposed(set), by_cell);
                    let one = rng.gen_range(0..rows * cols);
                    assert_eq!(board.transposed(1 << one), 1 << board.transposed_cell(one));
                }
            }
        }
    }

    #[test]
    fn places_and_neighbours_follow_each_side_direction() {
        // 2 x 3, all free: Vertical may stand a domino on a1, b1, c1, Horizontal lay one
        // on a1, b1, a2, b2.
        let board = Board::new(2, 3);
        assert_eq!(board.places(board.all(), 0), 0b000_111);
        assert_eq!(board.places(board.all(), 1), 0b011_011);
        assert_eq!((board.partner(0, 2), board.partner(1, 2)), (Some(5), None));
        // b1 touches a1, c1 and b2, and no cell past an edge.
        assert_eq!(board.touching(0b10, board.all()), 0b010_101);
        assert_eq!(board.touching(0b100, board.all()), 0b100_010);
    }
}
