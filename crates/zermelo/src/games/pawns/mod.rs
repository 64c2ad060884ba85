//! The pawns game: every column of a `cols` × `rows` board holds one White pawn (starting
//! on row 0) and one Black pawn (starting on the last row). A turn moves one of the
//! mover's pawns forward inside its column; a player without a move passes; whoever first
//! has every pawn on the far row wins.
//!
//! A column is named by the course's column id (White's row, then Black's row), a board by
//! the course's board id (column ids as digits, column 0 least significant). For solving,
//! columns are interchangeable and the colours mirror each other, so a position belongs
//! to the class of the multiset of its column ids with White to move. Classes are ranked
//! densely, level by level (the level is the total distance all pawns have come), and
//! inside a level in the lexicographic order of the sorted column ids: a combinatorial
//! number system generalised to a fixed sum, computed from a small table of counts.

use std::ops::Range;

pub mod entry;
mod notation;

use crate::game::{Game, Indexed, Levelled, Notation, Outcome, PlayerId, Symmetric};
use crate::session::strategies::levels::{self, Tabulated};
use crate::session::{Big, Fact, FactValue};
use crate::spec::{GameInfo, Key, PlayerInfo, Preset, Spec, Values};
use crate::Error;

/// The most columns a board may have.
pub const MAX_COLS: usize = 8;
/// The fewest rows a board may have.
pub const MIN_ROWS: usize = 3;
/// The most rows a board may have.
pub const MAX_ROWS: usize = 8;

const COLS: Key = Key {
    name: "cols",
    values: Values::Int {
        lo: 1,
        hi: MAX_COLS as u64,
        default: Preset::Is(5),
    },
    also: None,
    help: "columns",
};
const ROWS: Key = Key {
    name: "rows",
    values: Values::Int {
        lo: MIN_ROWS as u64,
        hi: MAX_ROWS as u64,
        default: Preset::Is(8),
    },
    also: None,
    help: "rows",
};
/// The players in the order of `WHITE` and `BLACK`.
const FIRST: Key = Key {
    name: "first",
    values: Values::Word(&["white", "black"]),
    also: None,
    help: "who moves first",
};
const BOARD: Key = Key {
    name: "board",
    values: Values::Text {
        form: "columns like B...P/.B.P. or a board id",
        default: Preset::Else("the start"),
    },
    also: None,
    help: "the position to start from, in the game's position notation",
};

/// The registry entry of the pawns game.
pub const INFO: GameInfo = GameInfo {
    name: "pawns",
    summary: "pawns race: a White and a Black pawn per column; a pawn moves forward any number of free \
              squares (jumping a pawn right in front), a player without a move passes; all pawns across wins",
    how_to_play: "Move one of your pawns straight ahead any number of free squares (jumping the pawn right in front of it); the first to get every pawn to the far side wins.",
    keys: &[COLS, ROWS, FIRST, BOARD],
    players: &[PlayerInfo {
        name: "perfect",
        help: "reads the solved table: wins fastest, loses slowest",
    }],
};

const WHITE: PlayerId = 0;
const BLACK: PlayerId = 1;

/// A position: the column id of every column (entries past the last column are 0) and
/// the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    ids: [u8; MAX_COLS],
    to_move: PlayerId,
}

impl Board {
    /// The column ids, column 0 first (all [`MAX_COLS`] entries; unused ones are 0).
    pub fn ids(&self) -> &[u8; MAX_COLS] {
        &self.ids
    }
}

/// A move: the mover's pawn in column `col` goes to row `row`, or the mover passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PawnMove {
    /// Moves the mover's pawn of column `col` to row `row` (both from 0).
    Step { col: u8, row: u8 },
    /// No move exists: the turn goes to the opponent.
    Pass,
}

/// The pawns game of one size, with its tables of columns and class counts.
#[derive(Clone, Debug)]
pub struct Pawns {
    cols: usize,
    rows: usize,
    start: Board,
    /// White's row of each column id.
    white_row: Vec<u8>,
    /// Black's row of each column id.
    black_row: Vec<u8>,
    /// The id of each column with colours swapped and rows read backwards.
    mirror: Vec<u8>,
    /// How far both pawns of each column id have come together.
    progress: Vec<u8>,
    /// For White and for Black, per column id: the rows the pawn may move to, with the
    /// column id after the move.
    steps: [Vec<Vec<(u8, u8)>>; 2],
    /// Per column id seen by a child's mover as White: the ids it becomes when the parent's
    /// mover steps in that column (seen the same way), with the progress gained.
    child_steps: Vec<Vec<(u8, u8)>>,
    /// `counts[(n * levels + s) * (ids + 1) + k]`: non-decreasing sequences of `n` column
    /// ids, all at least `k`, whose progress adds up to `s` (below 2^32 for every size).
    counts: Vec<u32>,
    /// Indexed like `counts`: the least id from `k` on that some of those sequences start
    /// with (the number of ids when none does).
    first_from: Vec<u8>,
    /// The first rank of each level, and the size at the end.
    level_start: Vec<u64>,
}

impl Pawns {
    /// The game on `cols` columns and `rows` rows, `first` moving first from the start.
    pub fn new(cols: usize, rows: usize, first: PlayerId) -> Result<Pawns, Error> {
        if !(1..=MAX_COLS).contains(&cols) {
            return Err(Error::Spec(format!("cols={cols} is out of range 1..={MAX_COLS}")));
        }
        if !(MIN_ROWS..=MAX_ROWS).contains(&rows) {
            return Err(Error::Spec(format!(
                "rows={rows} is out of range {MIN_ROWS}..={MAX_ROWS}"
            )));
        }
        let ids = rows * (rows - 1);
        let mut white_row = Vec::with_capacity(ids);
        let mut black_row = Vec::with_capacity(ids);
        for w in 0..rows {
            for b in (0..rows).filter(|&b| b != w) {
                white_row.push(w as u8);
                black_row.push(b as u8);
            }
        }
        let last = rows - 1;
        let id = |w: usize, b: usize| column_id(rows, w, b);
        let mirror: Vec<u8> = (0..ids)
            .map(|c| id(last - black_row[c] as usize, last - white_row[c] as usize))
            .collect();
        let progress: Vec<u8> = (0..ids)
            .map(|c| white_row[c] + (last as u8 - black_row[c]))
            .collect();
        let white_steps: Vec<Vec<(u8, u8)>> = (0..ids)
            .map(|c| {
                let (w, b) = (white_row[c] as usize, black_row[c] as usize);
                white_destinations(rows, w, b)
                    .map(|to| (to as u8, id(to, b)))
                    .collect()
            })
            .collect();
        let black_steps: Vec<Vec<(u8, u8)>> = (0..ids)
            .map(|c| {
                white_steps[mirror[c] as usize]
                    .iter()
                    .map(|&(to, after)| ((last - to as usize) as u8, mirror[after as usize]))
                    .collect()
            })
            .collect();
        let child_steps: Vec<Vec<(u8, u8)>> = (0..ids)
            .map(|g| {
                let c = mirror[g] as usize;
                white_steps[c]
                    .iter()
                    .map(|&(_, after)| (mirror[after as usize], progress[after as usize] - progress[c]))
                    .collect()
            })
            .collect();
        let levels = cols * 2 * last + 1;
        let at = |n: usize, s: usize, k: usize| (n * levels + s) * (ids + 1) + k;
        let mut counts = vec![0u32; (cols + 1) * levels * (ids + 1)];
        for n in 0..=cols {
            for s in 0..levels {
                for k in (0..=ids).rev() {
                    counts[at(n, s, k)] = if n == 0 {
                        u32::from(s == 0)
                    } else if k == ids {
                        0
                    } else {
                        let p = progress[k] as usize;
                        counts[at(n, s, k + 1)] + if s >= p { counts[at(n - 1, s - p, k)] } else { 0 }
                    };
                }
            }
        }
        let mut first_from = vec![ids as u8; counts.len()];
        for row in (0..counts.len()).step_by(ids + 1) {
            for k in (0..ids).rev() {
                let starts = counts[row + k] > counts[row + k + 1];
                first_from[row + k] = if starts { k as u8 } else { first_from[row + k + 1] };
            }
        }
        let mut level_start = vec![0u64; levels + 1];
        for s in 0..levels {
            level_start[s + 1] = level_start[s] + u64::from(counts[at(cols, s, 0)]);
        }
        let start_id = id(0, last);
        let mut start = Board {
            ids: [0; MAX_COLS],
            to_move: first,
        };
        start.ids[..cols].fill(start_id);
        Ok(Pawns {
            cols,
            rows,
            start,
            white_row,
            black_row,
            mirror,
            progress,
            steps: [white_steps, black_steps],
            child_steps,
            counts,
            first_from,
            level_start,
        })
    }

    /// The game a spec names: `pawns:cols=C,rows=R,first=white|black,board=...`.
    pub fn from_spec(spec: &Spec) -> Result<Pawns, Error> {
        spec.check_keys(&INFO)?;
        let first = [WHITE, BLACK][spec.word(&FIRST)?];
        let board = spec.get(BOARD.name);
        // A board in column form tells its own size when the keys do not.
        let columns: Option<Vec<&str>> = board
            .filter(|b| !b.trim().chars().all(|c| c.is_ascii_digit()))
            .map(|b| b.split_whitespace().next().unwrap_or("").split('/').collect());
        let cols = match &columns {
            Some(c) if !spec.has(&COLS) => c.len(),
            _ => spec.int(&COLS)? as usize,
        };
        let rows = match columns.as_ref().and_then(|c| c.first()) {
            Some(c) if !spec.has(&ROWS) => c.chars().count(),
            _ => spec.int(&ROWS)? as usize,
        };
        let mut game = Pawns::new(cols, rows, first)?;
        if let Some(text) = board {
            let p = game.parse_position(text)?;
            game.start = if text.split_whitespace().nth(1).is_some() {
                p
            } else {
                Board { to_move: first, ..p }
            };
        }
        Ok(game)
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of column ids, `rows * (rows - 1)`.
    pub fn column_ids(&self) -> usize {
        self.white_row.len()
    }

    /// The spec of this size, without start or first player: positions of every start
    /// share one table.
    pub fn size_spec(&self) -> String {
        format!("pawns:cols={},rows={}", self.cols, self.rows)
    }

    /// The number of raw boards, `ids^cols` (each with either side to move).
    pub fn raw_boards(&self) -> u64 {
        (self.column_ids() as u64).pow(self.cols as u32)
    }

    /// The course's id of the column with White on row `white` and Black on row `black`.
    pub fn column_id(&self, white: usize, black: usize) -> Option<u8> {
        (white < self.rows && black < self.rows && white != black).then(|| column_id(self.rows, white, black))
    }

    /// White's and Black's rows in the column with id `id`.
    pub fn column_rows(&self, id: u8) -> (usize, usize) {
        (
            self.white_row[id as usize] as usize,
            self.black_row[id as usize] as usize,
        )
    }

    /// The course's board id: column ids as the digits of a base `ids` number, column 0
    /// least significant.
    pub fn board_id(&self, p: &Board) -> u64 {
        let base = self.column_ids() as u64;
        p.ids[..self.cols]
            .iter()
            .rev()
            .fold(0, |acc, &c| acc * base + u64::from(c))
    }

    /// The board with course id `id` and `to_move` to move; `None` when the id is too
    /// large for this size or names an impossible board.
    pub fn from_board_id(&self, mut id: u64, to_move: PlayerId) -> Option<Board> {
        let base = self.column_ids() as u64;
        let mut p = Board {
            ids: [0; MAX_COLS],
            to_move,
        };
        for slot in &mut p.ids[..self.cols] {
            *slot = (id % base) as u8;
            id /= base;
        }
        (id == 0 && !self.both_arrived(&p)).then_some(p)
    }

    /// The board with the given column ids (column 0 first) and player to move.
    pub fn board(&self, ids: &[u8], to_move: PlayerId) -> Option<Board> {
        if ids.len() != self.cols || ids.iter().any(|&c| c as usize >= self.column_ids()) || to_move > 1 {
            return None;
        }
        let mut p = Board {
            ids: [0; MAX_COLS],
            to_move,
        };
        p.ids[..self.cols].copy_from_slice(ids);
        (!self.both_arrived(&p)).then_some(p)
    }

    /// The position with colours swapped and rows read backwards: same value, other mover.
    pub fn mirror(&self, p: &Board) -> Board {
        let mut q = *p;
        for c in &mut q.ids[..self.cols] {
            *c = self.mirror[*c as usize];
        }
        q.to_move = 1 - p.to_move;
        q
    }

    fn white_arrived(&self, p: &Board) -> bool {
        let last = (self.rows - 1) as u8;
        p.ids[..self.cols]
            .iter()
            .all(|&c| self.white_row[c as usize] == last)
    }

    fn black_arrived(&self, p: &Board) -> bool {
        p.ids[..self.cols]
            .iter()
            .all(|&c| self.black_row[c as usize] == 0)
    }

    /// Both sides cannot have arrived: the game ends when the first one does.
    fn both_arrived(&self, p: &Board) -> bool {
        self.white_arrived(p) && self.black_arrived(p)
    }

    fn levels_len(&self) -> usize {
        self.level_start.len() - 1
    }

    /// The dense rank of the class of the sorted column ids `ids`.
    fn rank_sorted(&self, ids: &[u8]) -> u64 {
        let level: usize = ids.iter().map(|&c| self.progress[c as usize] as usize).sum();
        let (mut rest, mut later) = (level, 0);
        for (i, &c) in ids.iter().enumerate() {
            later += self.later(ids.len() - i, rest, c);
            rest -= self.progress[c as usize] as usize;
        }
        self.rank_in_level(level, later)
    }

    /// The sequences of `left` ids whose progress adds up to `rest` and which start with an
    /// id above `c`: those that come later than a sequence starting with `c`. The rank of a
    /// sorted sequence counts down from its level's last rank by the sum of these over its
    /// places (each with the ids from there on), so a child's rank is a sum of parts.
    #[inline]
    fn later(&self, left: usize, rest: usize, c: u8) -> u64 {
        u64::from(self.counts[self.later_row(left, rest) + c as usize])
    }

    /// Where the counts of [`Pawns::later`] for `left` ids of progress `rest` start: one
    /// id less is `levels * stride` before, one more progress `stride` after.
    #[inline]
    fn later_row(&self, left: usize, rest: usize) -> usize {
        (left * self.levels_len() + rest) * (self.column_ids() + 1) + 1
    }

    /// The rank of the class of level `level` later than `later` others of it.
    #[inline]
    fn rank_in_level(&self, level: usize, later: u64) -> u64 {
        self.level_start[level + 1] - 1 - later
    }

    /// Appends the rank of every child of the class whose columns, seen by the children's
    /// mover as White, are the sorted `m`. A child replaces one `m[at]` by a smaller id `v`
    /// of greater progress (the mover's pawn came `delta` nearer), so `v` goes in at some
    /// place `p <= at`: the places before `p` see `delta` more progress after them, those
    /// from `p` to `at` move one place on and lose `m[at]`'s, and those past `at` stay as
    /// the class's own. Each kind is summed once per class, per `delta` or per `at`.
    fn ranks_of_children(&self, m: &[u8], out: &mut Vec<(u64, bool)>) {
        let n = m.len();
        let counts = &self.counts[..];
        // Moving one place on is `-lefts` in the counts, one more progress `+stride`.
        let stride = self.column_ids() + 1;
        let lefts = self.levels_len() * stride;
        let progress = |c: u8| self.progress[c as usize] as usize;
        let mut suffix = [0usize; MAX_COLS + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1] + progress(m[i]);
        }
        // row[i]: where the counts of place i of `m` start, with `m`'s own progress after it.
        let mut row = [0usize; MAX_COLS];
        for i in 0..n {
            row[i] = self.later_row(n - i, suffix[i]);
        }
        let count = |index: usize| u64::from(counts[index]);
        // own[i]: the parts of places i.. of `m` itself.
        let mut own = [0u64; MAX_COLS + 1];
        for i in (0..n).rev() {
            own[i] = own[i + 1] + count(row[i] + m[i] as usize);
        }
        // ahead[delta][p]: the parts of places ..p with `delta` more progress after them,
        // summed up to `reached[delta]` as children need them.
        let mut ahead = [[0u64; MAX_COLS + 1]; MAX_ROWS];
        let mut reached = [0usize; MAX_ROWS];
        for at in 0..n {
            let gone = m[at];
            let steps = &self.child_steps[gone as usize];
            if steps.is_empty() || m.get(at + 1) == Some(&gone) {
                continue;
            }
            let lost = progress(gone) * stride;
            // moved[p]: the parts of m[p..at], each one place later and without `gone`,
            // summed down to `from` as children need them.
            let mut moved = [0u64; MAX_COLS + 1];
            let mut from = at;
            // The steps come in falling `v`, so the place `p` of `v` only moves back.
            let mut p = at;
            for &(v, delta) in steps {
                let delta = delta as usize;
                while p > 0 && m[p - 1] >= v {
                    p -= 1;
                }
                while from > p {
                    from -= 1;
                    moved[from] = moved[from + 1] + count(row[from] - lefts - lost + m[from] as usize);
                }
                let more = delta * stride;
                while reached[delta] < p {
                    let i = reached[delta];
                    ahead[delta][i + 1] = ahead[delta][i] + count(row[i] + more + m[i] as usize);
                    reached[delta] = i + 1;
                }
                let parts = ahead[delta][p] + count(row[p] + more + v as usize) + moved[p] + own[at + 1];
                out.push((self.rank_in_level(suffix[0] + delta, parts), false));
            }
        }
    }

    /// The sorted columns of class `r < size()`, White to move, also for the impossible class.
    fn unrank_any(&self, r: u64) -> Board {
        let stride = self.column_ids() + 1;
        let levels = self.levels_len();
        let mut rest = self.level_start.partition_point(|&s| s <= r) - 1;
        let mut r = r - self.level_start[rest];
        let mut p = Board {
            ids: [0; MAX_COLS],
            to_move: WHITE,
        };
        let mut low = 0usize;
        for i in 0..self.cols {
            let row = ((self.cols - i) * levels + rest) * stride;
            let below = |c: usize| u64::from(self.counts[row + low] - self.counts[row + c]);
            // The largest id whose smaller alternatives number at most r.
            let (mut lo, mut hi) = (low, self.column_ids());
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if below(mid) <= r {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            r -= below(lo);
            rest -= self.progress[lo] as usize;
            p.ids[i] = lo as u8;
            low = lo;
        }
        p
    }

    /// Steps the sorted columns `ids` to the next class of the same level; `false` at the
    /// level's end.
    fn next_in_level(&self, ids: &mut [u8]) -> bool {
        let stride = self.column_ids() + 1;
        let levels = self.levels_len();
        let n = ids.len();
        // The least id from `c` on that starts a sequence of `m` ids whose progress adds
        // up to `rest`.
        let first =
            |m: usize, rest: usize, c: usize| self.first_from[(m * levels + rest) * stride + c] as usize;
        let mut rest: usize = ids.iter().map(|&c| self.progress[c as usize] as usize).sum();
        let mut rests = [0usize; MAX_COLS];
        for (i, &c) in ids.iter().enumerate() {
            rests[i] = rest;
            rest -= self.progress[c as usize] as usize;
        }
        for i in (0..n).rev() {
            let c = first(n - i, rests[i], ids[i] as usize + 1);
            if c == self.column_ids() {
                continue;
            }
            ids[i] = c as u8;
            let (mut rest, mut low) = (rests[i] - self.progress[c] as usize, c);
            for (left, slot) in (1..n - i).rev().zip(&mut ids[i + 1..]) {
                low = first(left, rest, low);
                *slot = low as u8;
                rest -= self.progress[low] as usize;
            }
            return true;
        }
        false
    }
}

/// The course's id of a column of a `rows`-row board: White's row major, Black's row minor,
/// skipping the impossible equal rows.
fn column_id(rows: usize, w: usize, b: usize) -> u8 {
    (w * (rows - 1) + if b < w { b } else { b - 1 }) as u8
}

/// The rows White's pawn on row `w` may move to, Black's pawn being on row `b`.
fn white_destinations(rows: usize, w: usize, b: usize) -> Range<usize> {
    let last = rows - 1;
    if w == last {
        0..0
    } else if b == w + 1 {
        if w + 2 <= last {
            w + 2..w + 3
        } else {
            0..0
        }
    } else if b > w + 1 {
        w + 1..b
    } else {
        w + 1..rows
    }
}

impl Game for Pawns {
    type Position = Board;
    type Move = PawnMove;

    fn start(&self) -> Board {
        self.start
    }

    fn to_move(&self, p: &Board) -> PlayerId {
        p.to_move
    }

    fn moves(&self, p: &Board, out: &mut Vec<PawnMove>) {
        if self.outcome(p).is_some() {
            return;
        }
        let steps = &self.steps[p.to_move as usize];
        for (col, &c) in p.ids[..self.cols].iter().enumerate() {
            for &(row, _) in &steps[c as usize] {
                out.push(PawnMove::Step { col: col as u8, row });
            }
        }
        if out.is_empty() {
            out.push(PawnMove::Pass);
        }
    }

    fn play(&self, p: &Board, m: &PawnMove) -> Board {
        let mut next = *p;
        next.to_move = 1 - p.to_move;
        if let PawnMove::Step { col, row } = *m {
            let slot = &mut next.ids[col as usize];
            let (w, b) = self.column_rows(*slot);
            *slot = if p.to_move == WHITE {
                column_id(self.rows, row as usize, b)
            } else {
                column_id(self.rows, w, row as usize)
            };
        }
        next
    }

    fn outcome(&self, p: &Board) -> Option<Outcome> {
        if self.white_arrived(p) {
            Some(Outcome::Win(WHITE))
        } else if self.black_arrived(p) {
            Some(Outcome::Win(BLACK))
        } else {
            None
        }
    }

    /// How far the mover's pawns have come, minus how far the opponent's have.
    fn heuristic(&self, p: &Board) -> i32 {
        let last = (self.rows - 1) as i32;
        let lead: i32 = p.ids[..self.cols]
            .iter()
            .map(|&c| self.white_row[c as usize] as i32 - (last - self.black_row[c as usize] as i32))
            .sum();
        if p.to_move == WHITE {
            lead
        } else {
            -lead
        }
    }
}

impl Symmetric for Pawns {
    /// White to move (mirroring when Black is to move), columns sorted by id.
    fn canonical(&self, p: &Board) -> Board {
        let mut q = if p.to_move == WHITE { *p } else { self.mirror(p) };
        q.ids[..self.cols].sort_unstable();
        q
    }
}

impl Indexed for Pawns {
    /// The number of classes: multisets of `cols` column ids, `C(ids + cols - 1, cols)`.
    fn size(&self) -> u64 {
        self.level_start[self.levels_len()]
    }

    fn rank(&self, p: &Board) -> u64 {
        let mut ids = p.ids;
        if p.to_move != WHITE {
            for c in &mut ids[..self.cols] {
                *c = self.mirror[*c as usize];
            }
        }
        let ids = &mut ids[..self.cols];
        ids.sort_unstable();
        self.rank_sorted(ids)
    }

    /// The representative of class `r`: sorted columns, White to move.
    fn unrank(&self, r: u64) -> Option<Board> {
        (r < self.size())
            .then(|| self.unrank_any(r))
            .filter(|p| !self.both_arrived(p))
    }
}

impl Levelled for Pawns {
    /// One level per total distance come by all pawns; every step raises it, a pass keeps it.
    fn levels(&self) -> usize {
        self.levels_len()
    }

    fn level_ranks(&self, level: usize) -> Range<u64> {
        self.level_start[level]..self.level_start[level + 1]
    }

    /// The farthest a pawn can step: the level rises by the squares it moves.
    fn reach(&self) -> usize {
        self.child_steps
            .iter()
            .flatten()
            .map(|&(_, gained)| gained as usize)
            .max()
            .unwrap_or(0)
    }

    /// Steps from class to class inside a level instead of unranking each.
    fn for_each_position(&self, ranks: Range<u64>, mut f: impl FnMut(u64, Option<Board>)) {
        let mut current: Option<Board> = None;
        for r in ranks.start..ranks.end.min(self.size()) {
            let stepped = current
                .as_mut()
                .is_some_and(|p| self.next_in_level(&mut p.ids[..self.cols]));
            let p = if stepped {
                current.expect("stepped from a position")
            } else {
                self.unrank_any(r)
            };
            current = Some(p);
            f(r, Some(p).filter(|p| !self.both_arrived(p)));
        }
    }

    /// Steps every distinct column of the mover once, on the columns as the children's
    /// mover sees them, so that the children share most of their ranking.
    fn child_ranks(&self, p: &Board, _moves: &mut Vec<PawnMove>, out: &mut Vec<(u64, bool)>) {
        if self.outcome(p).is_some() {
            return;
        }
        let n = self.cols;
        // The children's mover is the opponent: seen as White, the columns are mirrored
        // when White moves now.
        let mut m = p.ids;
        if p.to_move == WHITE {
            for c in &mut m[..n] {
                *c = self.mirror[*c as usize];
            }
        }
        m[..n].sort_unstable();
        let before = out.len();
        self.ranks_of_children(&m[..n], out);
        if out.len() == before {
            out.push((self.rank(&self.play(p, &PawnMove::Pass)), false));
        }
    }
}

/// Opens a session of the pawns game `spec` names: solved into a saved level table.
pub fn open(spec: &Spec) -> Result<Box<dyn crate::session::Session>, Error> {
    let game = Pawns::from_spec(spec)?;
    Ok(levels::open(&spec.to_string(), &INFO, game))
}

impl Tabulated for Pawns {
    fn table_name(&self) -> String {
        format!("pawns-{}x{}", self.cols, self.rows)
    }

    fn table_spec(&self) -> String {
        self.size_spec()
    }

    fn position_facts(&self, p: &Board) -> Vec<Fact> {
        vec![Fact::new(
            "id",
            "board id",
            FactValue::Big(Big(self.board_id(p).into())),
        )]
    }

    fn move_note(&self, p: &Board, m: &PawnMove) -> Option<String> {
        Some(format!("board id {}", self.board_id(&self.play(p, m))))
    }

    fn count_facts(&self) -> Vec<Fact> {
        let raw = 2 * (self.raw_boards() - 1);
        let classes = self.size() - 1;
        let big = |n: u64| FactValue::Big(Big(n.into()));
        vec![
            Fact::new("raw_boards", "raw boards", big(self.raw_boards())),
            Fact::new(
                "raw_positions",
                "raw positions (boards x 2 sides to move, less the impossible board)",
                big(raw),
            ),
            Fact::new(
                "classes",
                "classes up to column order and colour mirror",
                big(classes),
            ),
            Fact::new(
                "reduction",
                "classes are fewer than raw positions by a factor of",
                FactValue::Real(raw as f64 / classes as f64),
            ),
            Fact::new(
                "column_ids",
                "column ids",
                FactValue::Int(self.column_ids() as i64),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn column_ids_follow_the_course() {
        let g = Pawns::new(3, 5, WHITE).unwrap();
        assert_eq!(g.column_id(0, 1), Some(0));
        assert_eq!(g.column_id(0, 4), Some(3));
        assert_eq!(g.column_id(4, 3), Some(19));
        assert_eq!(g.board_id(&g.start()), 1263);
        assert_eq!(g.format_position(&g.start()), "B...P/B...P/B...P white");
        assert_eq!(g.from_board_id(1263, WHITE), Some(g.start()));
    }

    #[test]
    fn classes_are_multisets() {
        for (cols, rows) in [(1, 3), (3, 5), (5, 8), (8, 8)] {
            let g = Pawns::new(cols, rows, WHITE).unwrap();
            let ids = (rows * (rows - 1)) as u64;
            assert_eq!(g.size(), binomial(ids + cols as u64 - 1, cols as u64));
        }
    }

    #[test]
    fn rank_and_unrank_agree() {
        let g = Pawns::new(3, 5, WHITE).unwrap();
        let mut invalid = 0;
        for r in 0..g.size() {
            match g.unrank(r) {
                Some(p) => assert_eq!(g.rank(&p), r),
                None => invalid += 1,
            }
        }
        assert_eq!(invalid, 1);
        for (cols, rows) in [(3, 5), (4, 6), (1, 8)] {
            let g = Pawns::new(cols, rows, WHITE).unwrap();
            for chunk in (0..g.size()).step_by(97) {
                g.for_each_position(chunk..chunk + 97, |r, p| assert_eq!(p, g.unrank(r)));
            }
        }
        for level in 0..g.levels() {
            for r in g.level_ranks(level) {
                if let Some(p) = g.unrank(r) {
                    assert_eq!(
                        p.ids[..3]
                            .iter()
                            .map(|&c| g.progress[c as usize] as usize)
                            .sum::<usize>(),
                        level
                    );
                }
            }
        }
    }

    #[test]
    fn child_ranks_are_the_ranks_of_the_moves() {
        for (cols, rows) in [(1, 3), (2, 4), (3, 5), (4, 6), (8, 8)] {
            let g = Pawns::new(cols, rows, WHITE).unwrap();
            let step = (g.size() / 20_000).max(1);
            let (mut moves, mut children) = (Vec::new(), Vec::new());
            for r in (0..g.size()).step_by(step as usize) {
                let Some(white) = g.unrank(r) else { continue };
                let mut black = g.mirror(&white);
                black.ids[..cols].reverse();
                for p in [white, black] {
                    children.clear();
                    g.child_ranks(&p, &mut moves, &mut children);
                    let mut got: Vec<u64> = children.iter().map(|&(c, _)| c).collect();
                    got.sort_unstable();
                    let mut want: Vec<u64> =
                        g.legal_moves(&p).iter().map(|m| g.rank(&g.play(&p, m))).collect();
                    want.sort_unstable();
                    want.dedup();
                    assert_eq!(got, want, "{cols}x{rows} class {r}");
                }
            }
        }
    }

    #[test]
    fn children_lie_within_the_reach() {
        for (cols, rows) in [(1, 3), (2, 4), (3, 5), (4, 6)] {
            let g = Pawns::new(cols, rows, WHITE).unwrap();
            let level_of = |r: u64| (0..g.levels()).find(|&l| g.level_ranks(l).contains(&r)).unwrap();
            let (mut moves, mut children) = (Vec::new(), Vec::new());
            let mut farthest = 0;
            for level in 0..g.levels() {
                for r in g.level_ranks(level) {
                    let Some(p) = g.unrank(r) else { continue };
                    children.clear();
                    g.child_ranks(&p, &mut moves, &mut children);
                    for &(child, _) in &children {
                        let climb = level_of(child) - level;
                        assert!(climb <= g.reach(), "{cols}x{rows} class {r} climbs {climb}");
                        farthest = farthest.max(climb);
                    }
                }
            }
            assert_eq!(farthest, g.reach(), "{cols}x{rows}: the reach is met");
        }
    }

    #[test]
    fn jumps_and_blocks() {
        let g = Pawns::new(1, 5, WHITE).unwrap();
        let p = g.parse_position("BP... white").unwrap();
        assert_eq!(g.legal_moves(&p), vec![PawnMove::Step { col: 0, row: 2 }]);
        let p = g.parse_position("...BP white").unwrap();
        assert_eq!(g.legal_moves(&p), vec![PawnMove::Pass]);
        let p = g.parse_position("BP... black").unwrap();
        assert_eq!(g.legal_moves(&p), vec![PawnMove::Pass]);
        let p = g.parse_position("P.B.. white").unwrap();
        assert_eq!(g.outcome(&p), Some(Outcome::Win(BLACK)));
        let p = g.parse_position(".P.B. white").unwrap();
        assert_eq!(g.legal_moves(&p), vec![PawnMove::Step { col: 0, row: 4 }]);
        assert_eq!(g.parse_move(&p, "a5").unwrap(), PawnMove::Step { col: 0, row: 4 });
        assert!(g.parse_move(&p, "pass").is_err());
        assert!(g.parse_move(&p, "a4").is_err());
    }
}
