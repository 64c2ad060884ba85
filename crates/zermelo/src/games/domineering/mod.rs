//! Domineering: two players take turns placing dominoes on a grid, Vertical standing
//! them up (two cells of one column), Horizontal laying them down (two cells of one row).
//! Whoever cannot place a domino loses. A classic of combinatorial game theory: a
//! partizan game, solved here by search.
//!
//! A position is the set of covered cells; whose turn it is follows from how many
//! dominoes lie on the board, unless the position names its mover (` V` or ` H` after the
//! rows), as a region with any pattern of blocked cells needs. A move is named by the
//! lower-left cell of its domino (`b2`: Vertical covers b2 and b3, Horizontal covers b2
//! and c2). The board itself may lack cells (`board=..#./..../....`).

pub mod board;
mod checkpoint;
pub mod entry;
mod notation;
pub mod proof;
mod regions;

use crate::game::{Game, Indexed, Outcome, PlayerId, Symmetric};
use crate::session::Session;
use crate::solve::prove::{Prover, ProverFn};
use crate::solve::Setup;
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;
use board::{Board, Mirror};
use notation::read_rows;

/// The player who stands dominoes up.
pub const VERTICAL: PlayerId = 0;
/// The player who lays dominoes down.
pub const HORIZONTAL: PlayerId = 1;
/// The most rows, and the most columns, of a board.
const MAX_SIDE: usize = 11;
/// The most cells a board numbered by rank may have: its index has 2^(cells + 1) ranks.
const MAX_NUMBERED_CELLS: usize = 62;
/// The bit of a position whose mover is not the one its covered cells say.
const SWAPPED: Cells = 1 << 127;

/// A side of the board, 1 to 11 cells, 4 when not given.
const SIDE: Values = Values::Int {
    lo: 1,
    hi: MAX_SIDE as u64,
    default: Preset::Is(4),
};
const ROWS: Key = Key {
    name: "rows",
    values: SIDE,
    also: None,
    help: "board height",
};
const COLS: Key = Key {
    name: "cols",
    values: SIDE,
    also: None,
    help: "board width",
};
/// The players in the order of [`VERTICAL`] and [`HORIZONTAL`].
const FIRST: Key = Key {
    name: "first",
    values: Values::Word(&["vertical", "horizontal"]),
    also: None,
    help: "who places the first domino",
};
/// A board lacking some cells: rows from the top, `#` for a missing cell.
const BOARD: Key = Key {
    name: "board",
    values: Values::Text {
        form: "rows of . (a cell) and # (none) joined by /, like ..#./..../....",
        default: Preset::Else("rows x cols"),
    },
    also: None,
    help: "the board's shape, in place of rows and cols",
};

/// The catalog entry.
pub const INFO: GameInfo = GameInfo {
    name: "domineering",
    summary: "Domineering: Vertical and Horizontal place dominoes in turn; who cannot place one loses",
    how_to_play: "Vertical places a domino on two free squares of a column, Horizontal on two free squares of a row; whoever cannot place one loses.",
    keys: &[ROWS, COLS, FIRST, BOARD],
    players: crate::session::strategies::search::PROVING_PLAYERS,
};

/// A Domineering board of a given size.
#[derive(Clone, Debug)]
pub struct Domineering {
    board: Board,
    first: PlayerId,
    /// The cells the board lacks, covered in every position.
    blocked: Cells,
    /// The board's mirror images that keep its shape.
    images: Vec<Mirror>,
}

/// The covered cells (bit `row * cols + col`, row 0 at the bottom), and bit 127 set when
/// the player to move is not the one the number of dominoes says.
pub type Cells = u128;

impl Domineering {
    /// The game on a board of `rows` × `cols` with `first` to move.
    pub fn new(rows: usize, cols: usize, first: PlayerId) -> Result<Self, Error> {
        Domineering::shaped(rows, cols, 0, first)
    }

    /// The game on a board of `rows` × `cols` lacking the cells `blocked`.
    pub fn shaped(rows: usize, cols: usize, blocked: Cells, first: PlayerId) -> Result<Self, Error> {
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::Spec(format!(
                "a {rows} x {cols} board is out of range (1..={MAX_SIDE} rows and columns)"
            )));
        }
        let board = Board::new(rows, cols);
        let images = Mirror::ALL
            .into_iter()
            .filter(|&mirror| board.mirrored(blocked, mirror) == blocked)
            .collect();
        Ok(Domineering {
            board,
            first,
            blocked,
            images,
        })
    }

    /// The game a spec names: `domineering:rows=R,cols=C,first=vertical|horizontal`, or
    /// `board=..#./..../....` in place of the rows and columns.
    pub fn from_spec(spec: &Spec) -> Result<Self, Error> {
        spec.check_keys(&INFO)?;
        let first = [VERTICAL, HORIZONTAL][spec.word(&FIRST)?];
        if !spec.has(&BOARD) {
            let rows = spec.int(&ROWS)? as usize;
            let cols = spec.int(&COLS)? as usize;
            return Domineering::new(rows, cols, first);
        }
        let text = spec.text(&BOARD)?;
        let bad = |why: String| Error::Spec(format!("board={text}: {why}"));
        if spec.has(&ROWS) || spec.has(&COLS) {
            return Err(bad(
                "the board gives the rows and columns: leave out rows= and cols=".into(),
            ));
        }
        let (rows, cols, blocked) = read_rows(text).map_err(bad)?;
        Domineering::shaped(rows, cols, blocked, first)
    }

    fn cells(&self) -> usize {
        self.board.rows * self.board.cols
    }

    /// Every cell of the board's rectangle.
    fn all(&self) -> Cells {
        self.board.all()
    }

    /// The player to move when the covered cells of `p` the board has are dominoes
    /// placed in turn.
    fn by_count(&self, p: Cells) -> PlayerId {
        let placed = (p & self.all() & !self.blocked).count_ones() / 2;
        if placed.is_multiple_of(2) {
            self.first
        } else {
            1 - self.first
        }
    }

    /// The cell a domino of `player` covers beside `cell`, if it is on the board.
    fn partner(&self, player: PlayerId, cell: usize) -> Option<usize> {
        self.board.partner(usize::from(player), cell)
    }

    /// Where `player` may place a domino: the lower-left cells, lowest first.
    fn places(&self, p: Cells, player: PlayerId) -> impl Iterator<Item = usize> {
        cells_of(self.place_set(p, player))
    }

    /// The lower-left cells of `player`'s places in `p`, as a set: free cells whose
    /// partner (above, or to the right within the row) is free.
    fn place_set(&self, p: Cells, player: PlayerId) -> Cells {
        self.board.places(!p & self.all(), usize::from(player))
    }

    /// Whether play can reach `p`: its covered cells split into dominoes of which the
    /// first player placed as many as the other, or one more.
    pub fn reachable(&self, p: Cells) -> bool {
        self.dominoes(p).is_some()
    }

    /// The dominoes of a position play can reach, each as its lower-left cell and the
    /// player who placed it: a split of the covered cells into as many dominoes of each
    /// player as they have placed. A position holds only the covered cells, so where
    /// several splits fit, this is one of them (the first found); `None` when none fits.
    /// The cells the board lacks are none of them, and a position naming a mover other
    /// than the count of dominoes says has none.
    pub fn dominoes(&self, p: Cells) -> Option<Vec<(usize, PlayerId)>> {
        let played = p & self.all() & !self.blocked;
        let dominoes = played.count_ones() / 2;
        let mut failed = std::collections::HashSet::new();
        let mut placed = Vec::new();
        (p & SWAPPED == 0
            && played.count_ones().is_multiple_of(2)
            && self.tiles(
                played,
                dominoes.div_ceil(2),
                dominoes / 2,
                &mut failed,
                &mut placed,
            ))
        .then_some(placed)
    }

    /// Whether the cells `rest` split into `firsts` dominoes of the first player and
    /// `seconds` of the other, pushing them on `placed` when they do; `failed` holds what
    /// was found impossible. The lowest cell left pairs with the cell to its right or above
    /// it, the others being gone.
    fn tiles(
        &self,
        rest: Cells,
        firsts: u32,
        seconds: u32,
        failed: &mut std::collections::HashSet<(Cells, u32)>,
        placed: &mut Vec<(usize, PlayerId)>,
    ) -> bool {
        if rest == 0 {
            return true;
        }
        if failed.contains(&(rest, firsts)) {
            return false;
        }
        let cell = rest.trailing_zeros() as usize;
        for (player, left) in [(self.first, firsts), (1 - self.first, seconds)] {
            let Some(other) = self
                .partner(player, cell)
                .filter(|&o| left > 0 && rest >> o & 1 == 1)
            else {
                continue;
            };
            let after = rest & !(1 << cell) & !(1 << other);
            let (f, s) = if player == self.first {
                (firsts - 1, seconds)
            } else {
                (firsts, seconds - 1)
            };
            placed.push((cell, player));
            if self.tiles(after, f, s, failed, placed) {
                return true;
            }
            placed.pop();
        }
        failed.insert((rest, firsts));
        false
    }

    /// Rows from the top joined by `/`, `#` for a covered cell and `.` for a free one.
    fn rows_text(&self, p: Cells) -> String {
        (0..self.board.rows)
            .rev()
            .map(|r| {
                (0..self.board.cols)
                    .map(|c| {
                        if p >> (r * self.board.cols + c) & 1 == 1 {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// `p` with every free cell that no domino can cover covered, the mover kept.
    fn settled(&self, p: Cells) -> Cells {
        let free = !p & self.all();
        let q = p | free & !self.board.touching(free, free);
        if self.to_move(&q) == self.to_move(&p) {
            q
        } else {
            q ^ SWAPPED
        }
    }

    /// The regions of `free`: the sets of free cells joined side by side, whose moves
    /// never touch one another's.
    fn regions(&self, free: Cells) -> Vec<Cells> {
        let mut regions = Vec::new();
        let mut rest = free;
        while rest != 0 {
            let mut region = rest & rest.wrapping_neg();
            loop {
                let grown = region | self.board.touching(region, free);
                if grown == region {
                    break;
                }
                region = grown;
            }
            regions.push(region);
            rest &= !region;
        }
        regions
    }

    /// The mirror images of `region` within its bounding box, up-down, left-right and
    /// both, each keeping every domino's direction.
    fn region_images(&self, region: Cells) -> [Cells; 3] {
        let span = self.board.bounds(region);
        Mirror::ALL.map(|mirror| self.board.mirrored_within(region, mirror, span))
    }

    /// `p` with each region of its free cells, in turn, replaced by the least of its
    /// mirror images that stays clear of the other regions: the same regions up to their
    /// symmetries, so the same game (the mover kept, as the free cells are as many).
    fn mirrored_regions(&self, p: Cells) -> Cells {
        let mut free = !p & self.all();
        for region in self.regions(free) {
            let others = free & !region;
            let best = self
                .region_images(region)
                .into_iter()
                .filter(|&image| image & others == 0 && self.board.touching(image, others) == 0)
                .fold(region, Cells::min);
            free = others | best;
        }
        self.all() & !free | p & SWAPPED
    }

    /// `region`'s shape: the least of it and its mirror images, moved to the board's
    /// lower-left corner, with its height and width.
    fn shape(&self, region: Cells) -> (Cells, usize, usize) {
        let span = self.board.bounds(region);
        let corner = span.row * self.board.cols + span.col;
        // Every image lies in the box, so moving them all to the corner keeps their order.
        let least = self.region_images(region).into_iter().fold(region, Cells::min);
        (least >> corner, span.rows, span.cols)
    }

    /// The free cells of `p` with its regions' shapes laid out in one order, tallest
    /// first, row by row with a free line between them, when they fit on the board: a
    /// position with the same regions wherever they stood, so the same game (the mover
    /// kept, as the free cells are as many). `None` when they do not fit so.
    fn packed_regions(&self, p: Cells) -> Option<Cells> {
        let mut shapes: Vec<(usize, usize, Cells)> = self
            .regions(!p & self.all())
            .into_iter()
            .map(|region| {
                let (shape, h, w) = self.shape(region);
                (h, w, shape)
            })
            .collect();
        shapes.sort_unstable_by(|a, b| b.cmp(a));
        let (mut row, mut col, mut shelf, mut free) = (0, 0, 0, 0);
        for (h, w, shape) in shapes {
            if col + w > self.board.cols {
                (row, col, shelf) = (row + shelf + 1, 0, 0);
            }
            if row + h > self.board.rows || col + w > self.board.cols {
                return None;
            }
            free |= shape << (row * self.board.cols + col);
            (col, shelf) = (col + w + 1, shelf.max(h));
        }
        Some(self.all() & !free | p & SWAPPED)
    }

    fn cell_name(&self, cell: usize) -> String {
        crate::game::cell::name_of(cell, self.board.cols)
    }
}

impl Game for Domineering {
    type Position = Cells;
    type Move = usize;

    fn start(&self) -> Cells {
        self.blocked
    }

    fn to_move(&self, p: &Cells) -> PlayerId {
        let counted = self.by_count(*p);
        if p & SWAPPED == 0 {
            counted
        } else {
            1 - counted
        }
    }

    fn moves(&self, p: &Cells, out: &mut Vec<usize>) {
        out.extend(self.places(*p, self.to_move(p)));
    }

    fn play(&self, p: &Cells, m: &usize) -> Cells {
        let other = self.partner(self.to_move(p), *m).expect("a legal move");
        p | 1 << m | 1 << other
    }

    fn outcome(&self, p: &Cells) -> Option<Outcome> {
        let mover = self.to_move(p);
        (self.place_set(*p, mover) == 0).then_some(Outcome::Win(1 - mover))
    }

    fn with_other_to_move(&self, p: &Cells) -> Option<Cells> {
        Some(p ^ SWAPPED)
    }

    /// The mover's places less the opponent's: room to move is what wins.
    fn heuristic(&self, p: &Cells) -> i32 {
        let mover = self.to_move(p);
        self.place_set(*p, mover).count_ones() as i32 - self.place_set(*p, 1 - mover).count_ones() as i32
    }
}

impl Symmetric for Domineering {
    /// The least of the board's mirror images (up-down, left-right and both keep every
    /// domino's direction).
    fn canonical(&self, p: &Cells) -> Cells {
        self.images
            .iter()
            .map(|&mirror| self.board.mirrored(*p, mirror) | p & SWAPPED)
            .fold(*p, Cells::min)
    }

    /// `p` with every free cell that no domino can cover (a region of one cell) covered,
    /// then its regions of free cells laid out in one order ([`Domineering::packed_regions`]),
    /// or where they do not fit so, its symmetry class with each region mirrored to the
    /// least of its images that fits: the same regions, so the same value. Blocked cells a
    /// region's new place frees do not matter: the game is its free cells and its mover.
    fn equivalent(&self, p: &Cells) -> Cells {
        let settled = self.settled(*p);
        self.packed_regions(settled)
            .unwrap_or_else(|| self.canonical(&self.mirrored_regions(settled)))
    }
}

impl Indexed for Domineering {
    /// 2^(cells + 1): each cell covered or not, and the mover the count says or the other;
    /// on a board of more than 62 cells, more than 64 bits hold (see [`Indexed::numbered`]).
    fn size(&self) -> u64 {
        if self.numbered() {
            2 << self.cells()
        } else {
            u64::MAX
        }
    }

    fn numbered(&self) -> bool {
        self.cells() <= MAX_NUMBERED_CELLS
    }

    fn rank(&self, p: &Cells) -> u64 {
        // Exact on a numbered board; elsewhere no table asks.
        (p & self.all() | (p >> 127) << self.cells()) as u64
    }

    /// Every set of covered cells that covers the cells the board lacks is a position,
    /// with either player to move, whether play can reach it or not.
    fn unrank(&self, r: u64) -> Option<Cells> {
        let r = Cells::from(r);
        let p = r & self.all() | (r >> self.cells()) << 127;
        (self.numbered() && r < Cells::from(self.size()) && p & self.blocked == self.blocked).then_some(p)
    }
}

/// Opens a session of the Domineering board `spec` names: solved by search, who wins by
/// proof ([`prover`]), how soon by alpha-beta.
pub fn open(spec: &Spec) -> Result<Box<dyn Session>, Error> {
    let game = Domineering::from_spec(spec)?;
    Ok(crate::session::strategies::search::open(
        &spec.to_string(),
        &INFO,
        game,
        None,
        Some(prover as ProverFn<Domineering>),
    ))
}

/// Free cells from which a proof runs on every core: below, starting the threads costs
/// more than it saves.
const PARALLEL_FROM: u32 = 30;

/// How often a proof that keeps a checkpoint writes it.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(300);

/// The prover of Domineering positions under `setup`: the search of [`proof`], keeping its
/// checkpoint where `setup` says and saying how far it is on `setup`'s progress.
fn prover<'g>(game: &'g Domineering, setup: &Setup) -> Box<dyn Prover<Domineering> + 'g> {
    let mut proof = proof::Proof::new(game.board.clone(), setup.bytes, setup.limit.clone());
    if let Some(path) = &setup.checkpoint {
        proof = proof.keeping(path.clone(), CHECKPOINT_EVERY);
    }
    if let Some(progress) = &setup.progress {
        proof = proof.reporting(progress.clone());
    }
    Box::new(DomineeringProver {
        game,
        proof,
        limit: setup.limit.clone(),
        resumed: false,
    })
}

/// Proves who wins Domineering positions with the game's own knowledge ([`proof`]).
struct DomineeringProver<'g> {
    game: &'g Domineering,
    proof: proof::Proof,
    limit: crate::solve::Limit,
    /// Whether the checkpoint of an earlier run was looked for.
    resumed: bool,
}

impl DomineeringProver<'_> {
    /// The free cells of `p` and its mover, as the proof takes them.
    fn free(&self, p: &Cells) -> (proof::Free, proof::Side) {
        (!p & self.game.all(), usize::from(self.game.to_move(p)))
    }

    /// Reads the checkpoint of an earlier run, once.
    fn resume(&mut self) -> Result<(), Error> {
        if !self.resumed {
            self.resumed = true;
            self.proof.resume()?;
        }
        Ok(())
    }
}

impl Prover<Domineering> for DomineeringProver<'_> {
    fn wins(&mut self, p: &Cells) -> Result<bool, Error> {
        self.resume()?;
        let (free, side) = self.free(p);
        let threads = if free.count_ones() >= PARALLEL_FROM {
            rayon::current_num_threads()
        } else {
            1
        };
        self.proof.set_threads(threads);
        match self.proof.wins(free, side) {
            Some(wins) => Ok(wins),
            None => {
                if let Some(failed) = self.proof.failure() {
                    return Err(failed);
                }
                self.proof.save()?;
                Err(self.limit.stop())
            }
        }
    }

    fn ordered(&mut self, p: &Cells) -> Vec<usize> {
        let (free, side) = self.free(p);
        self.proof
            .board()
            .ordered(free, side)
            .into_iter()
            .map(|cell| cell as usize)
            .collect()
    }

    fn nodes(&self) -> u64 {
        self.proof.nodes()
    }

    fn positions(&self) -> usize {
        self.proof.positions()
    }

    fn first_moves_proved(&mut self, p: &Cells) -> Result<Vec<(usize, bool)>, Error> {
        self.resume()?;
        let (free, side) = self.free(p);
        let (asked, asked_side) = self.proof.as_asked(free, side);
        Ok(self
            .proof
            .roots()
            .into_iter()
            .find(|root| root.free == asked && root.side == asked_side)
            .map(|root| {
                root.proved
                    .iter()
                    .map(|&(cell, wins)| (self.proof.cell_as_given(cell, side) as usize, wins))
                    .collect()
            })
            .unwrap_or_default())
    }

    fn done(&mut self) -> Result<(), Error> {
        self.proof.forget()
    }
}

/// The cells of `set`, lowest first.
fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as usize;
            set &= set - 1;
            cell
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::picture::Kind;
    use crate::solve::memo::MemoSolver;
    use crate::solve::minimax;
    use crate::solve::search::AlphaBeta;
    use crate::Value;

    #[test]
    fn a_region_and_its_mirror_image_share_a_key_and_a_value() {
        let g = Domineering::new(4, 5, VERTICAL).unwrap();
        let at = |text: &str| g.parse_position(text).unwrap();
        // An L of three cells at the left, and the same L mirrored in its own box; a
        // second region at the right keeps the whole board's mirror images apart.
        let (l, mirrored) = (at("..###/.###./####./##### V"), at("..###/#.##./####./##### V"));
        assert_ne!(g.canonical(&l), g.canonical(&mirrored));
        assert_eq!(g.equivalent(&l), g.equivalent(&mirrored));
        assert_eq!(minimax::value(&g, &l), minimax::value(&g, &mirrored));
        // Mirrored in its box, the L on the left would touch the region beside it and
        // make one region of the two: that image is not taken.
        let (close, far) = (at("..#../.#.../##.##/##### V"), at("..#../#..../##.##/##### V"));
        assert_ne!(g.equivalent(&close), g.equivalent(&far));
    }

    #[test]
    fn keys_by_regions_give_minimax_values_on_random_regions() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for (rows, cols) in [(3, 4), (4, 3), (4, 4), (2, 6)] {
            let g = Domineering::new(rows, cols, VERTICAL).unwrap();
            for _ in 0..60 {
                // Cells blocked at random, with either player to move.
                let covered = rng.gen::<Cells>() & rng.gen::<Cells>() & g.all();
                let p = covered | if rng.gen() { SWAPPED } else { 0 };
                let mut search = AlphaBeta::symmetric(&g);
                assert_eq!(
                    search.solve(&p).unwrap(),
                    minimax::value(&g, &p),
                    "{}",
                    g.format_position(&p)
                );
            }
        }
    }

    #[test]
    fn boards_up_to_11_by_11_name_every_cell_and_rank_only_to_62_cells() {
        let g = Domineering::new(11, 11, HORIZONTAL).unwrap();
        let j11 = g.parse_move(&g.start(), "j11").unwrap();
        assert_eq!((j11, g.format_move(&g.start(), &j11)), (119, "j11".to_string()));
        let p = g.play(&g.start(), &j11);
        assert_eq!(p, 0b11 << 119);
        assert!(
            g.parse_move(&p, "k10").is_err(),
            "Horizontal's k10 leaves the board"
        );
        assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
        let swapped = g.with_other_to_move(&p).unwrap();
        assert_eq!(g.parse_position(&g.format_position(&swapped)).unwrap(), swapped);
        assert!(g.render(&p).starts_with("11  . . . . . . . . . # #"));
        assert!(Domineering::new(12, 3, VERTICAL).is_err());
        // 121 cells: no ranks; 60 cells: every rank, the mover's bit above the cells.
        assert!(!g.numbered());
        assert_eq!(g.unrank(5), None);
        let g = Domineering::new(6, 10, VERTICAL).unwrap();
        assert!(g.numbered());
        assert_eq!(g.size(), 1 << 61);
        let p = (1 << 59 | 1 << 49) | SWAPPED;
        assert_eq!(g.rank(&p), 1 << 60 | 1 << 59 | 1 << 49);
        assert_eq!(g.unrank(g.rank(&p)), Some(p));
    }

    #[test]
    fn the_prover_wins_where_minimax_does_and_orders_every_move() {
        for (rows, cols) in [(2, 3), (3, 3), (3, 4)] {
            let g = Domineering::new(rows, cols, VERTICAL).unwrap();
            let mut prover = prover(&g, &Setup::default());
            let mut p = g.start();
            while g.outcome(&p).is_none() {
                let wins = matches!(minimax::value(&g, &p), Value::Win(_));
                assert_eq!(prover.wins(&p).unwrap(), wins, "{}", g.format_position(&p));
                let mut ordered = prover.ordered(&p);
                let first = ordered[0];
                ordered.sort_unstable();
                assert_eq!(ordered, g.legal_moves(&p));
                p = g.play(&p, &first);
            }
            assert!(prover.nodes() > 0);
        }
        // Boards lacking cells, either player to move.
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let g = Domineering::new(4, 5, VERTICAL).unwrap();
        let mut prover = prover(&g, &Setup::default());
        for _ in 0..100 {
            let covered = rng.gen::<Cells>() & rng.gen::<Cells>() & g.all();
            let p = covered | if rng.gen() { SWAPPED } else { 0 };
            if g.outcome(&p).is_none() {
                let wins = matches!(minimax::value(&g, &p), Value::Win(_));
                assert_eq!(prover.wins(&p).unwrap(), wins, "{}", g.format_position(&p));
            }
        }
    }

    #[test]
    fn a_player_without_room_loses_at_once() {
        // One row: Vertical (first) has nowhere to stand a domino.
        let g = Domineering::new(1, 5, VERTICAL).unwrap();
        assert_eq!(g.outcome(&g.start()), Some(Outcome::Win(HORIZONTAL)));
        let g = Domineering::new(1, 5, HORIZONTAL).unwrap();
        assert_eq!(g.outcome(&g.start()), None);
    }

    #[test]
    fn solvers_agree_with_minimax_on_small_boards() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 2), (2, 4)] {
            for first in [VERTICAL, HORIZONTAL] {
                let g = Domineering::new(rows, cols, first).unwrap();
                let plain = minimax::value(&g, &g.start());
                assert_eq!(
                    AlphaBeta::symmetric(&g).solve(&g.start()).unwrap(),
                    plain,
                    "{rows}x{cols}"
                );
                assert_eq!(
                    MemoSolver::symmetric(&g).solve(&g.start()),
                    plain,
                    "{rows}x{cols}"
                );
            }
        }
    }

    #[test]
    fn mirror_images_share_a_value() {
        let g = Domineering::new(3, 4, VERTICAL).unwrap();
        let p = g.parse_position("#.../#.../....").unwrap();
        let q = g.parse_position("...#/...#/....").unwrap();
        // Covered cells that no play reaches: no domino, or Horizontal's before Vertical's.
        assert!(g.parse_position("#.../.#../....").is_err());
        assert!(g.parse_position("##../..../....").is_err());
        assert!(g.parse_position("##../#.../#...").is_ok());
        assert_eq!(g.canonical(&p), g.canonical(&q));
        let mut s = AlphaBeta::new(&g);
        assert_eq!(s.solve(&p).unwrap(), s.solve(&q).unwrap());
        assert!(matches!(
            s.solve(&g.start()).unwrap(),
            Value::Win(_) | Value::Lose(_)
        ));
    }

    #[test]
    fn the_picture_draws_each_domino_as_one_tile_and_plays_from_lower_left_cells() {
        let g = Domineering::new(3, 3, VERTICAL).unwrap();
        let p = g.play(&g.start(), &1);
        let picture = g.picture(&p).unwrap();
        // Horizontal to move: a1 would cover b1, a2 is free with b2 covered, c2 has no right.
        let plays: Vec<_> = picture.shapes.iter().filter_map(|s| s.play.as_deref()).collect();
        assert_eq!(plays, ["a3", "b3"]);
        // Vertical's domino on b1 and b2: one tile two squares high, in seat 0's colour.
        let tiles: Vec<_> = picture.shapes.iter().filter(|s| s.kind == Kind::Tile).collect();
        assert_eq!(tiles.len(), 1);
        assert_eq!(tiles[0].owner, Some(VERTICAL));
        assert!(tiles[0].h > 1.5 && tiles[0].w < 1.0, "{:?}", tiles[0]);
        assert!(tiles[0].x > 2.0 && tiles[0].x < 3.0, "column b: {:?}", tiles[0]);
        // Then Horizontal's on a3 and b3: one tile two squares wide.
        let p = g.play(&p, &6);
        let tiles: Vec<_> = g
            .picture(&p)
            .unwrap()
            .shapes
            .into_iter()
            .filter(|s| s.kind == Kind::Tile)
            .collect();
        assert_eq!(tiles.len(), 2);
        let wide = tiles.iter().find(|t| t.owner == Some(HORIZONTAL)).unwrap();
        assert!(wide.w > 1.5 && wide.h < 1.0 && wide.y < 1.0, "{wide:?}");
    }

    #[test]
    fn dominoes_split_the_covered_cells_as_play_placed_them() {
        // Vertical on a1 and b1, Horizontal on a3: the 2 x 2 block at the bottom left could
        // be two lying dominoes, but then Horizontal would have placed three of three.
        let g = Domineering::new(4, 4, VERTICAL).unwrap();
        let mut p = g.start();
        for m in ["a1", "a3", "b1"] {
            p = g.play(&p, &g.parse_move(&p, m).unwrap());
        }
        let mut dominoes = g.dominoes(p).unwrap();
        dominoes.sort();
        assert_eq!(dominoes, [(0, VERTICAL), (1, VERTICAL), (8, HORIZONTAL)]);
        // Two cells side by side cannot be the first domino, which Vertical stands up.
        assert_eq!(g.dominoes(0b11), None);
    }

    #[test]
    fn any_blocked_cells_read_with_the_mover_named() {
        let g = Domineering::new(3, 3, VERTICAL).unwrap();
        // One blocked cell: no count of dominoes says who moves.
        let err = g.parse_position("#../.../...").unwrap_err().to_string();
        assert!(err.contains("' V' or ' H'"), "{err}");
        for mover in ["V", "H"] {
            let text = format!("#../.../... {mover}");
            let p = g.parse_position(&text).unwrap();
            assert_eq!(g.format_position(&p), text);
            assert_eq!(g.player_name(g.to_move(&p))[..1], *mover);
            let q = g.with_other_to_move(&p).unwrap();
            assert_eq!(g.to_move(&q), 1 - g.to_move(&p));
            // The mover alternates as play goes on, and the mover stays named.
            let child = g.play(&p, &g.legal_moves(&p)[0]);
            assert_eq!(g.to_move(&child), g.to_move(&q));
            assert!(g
                .format_position(&child)
                .ends_with(&format!(" {}", if mover == "V" { "H" } else { "V" })));
            assert_eq!(g.unrank(g.rank(&child)), Some(child));
            assert_eq!(g.canonical(&child) & SWAPPED, child & SWAPPED);
        }
        // A position play reaches, with the mover the count says, reads and prints as ever.
        let p = g.parse_position(".../.#./.#. H").unwrap();
        assert_eq!(g.format_position(&p), ".../.#./.#.");
        assert!(g.parse_position(".../.../... X").is_err());
    }

    #[test]
    fn a_cell_no_domino_can_cover_is_left_out_of_the_table_key() {
        let g = Domineering::new(3, 3, VERTICAL).unwrap();
        // a3 is free but boxed in: the same game as with it covered, Horizontal to move.
        let p = g.parse_position(".#./#../... H").unwrap();
        let q = g.parse_position("##./#../... H").unwrap();
        assert_ne!(g.canonical(&p), g.canonical(&q));
        assert_eq!(g.equivalent(&p), g.equivalent(&q));
        assert_eq!(g.to_move(&g.equivalent(&p)), HORIZONTAL);
        let mut s = AlphaBeta::new(&g);
        assert_eq!(s.solve(&p).unwrap(), s.solve(&q).unwrap());
    }

    #[test]
    fn a_board_of_any_shape_comes_from_the_spec() {
        let spec: Spec = "domineering:board=..#/.../...".parse().unwrap();
        let g = Domineering::from_spec(&spec).unwrap();
        assert_eq!((g.board.rows, g.board.cols), (3, 3));
        // The missing cell is covered from the start, and not a domino: Vertical moves.
        assert_eq!(g.format_position(&g.start()), "..#/.../...");
        assert_eq!(g.to_move(&g.start()), VERTICAL);
        assert!(g.parse_position(".../.../...").is_err());
        let p = g.play(&g.start(), &0);
        assert_eq!(g.to_move(&p), HORIZONTAL);
        assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
        // No mirror image keeps the missing corner where it is.
        assert!(g.images.is_empty());
        let spec: Spec = "domineering:board=..#/...,rows=2".parse().unwrap();
        assert!(Domineering::from_spec(&spec).is_err());
        // A blocked cell draws as a tile of no one's colour.
        let picture = g.picture(&g.start()).unwrap();
        let tiles: Vec<_> = picture.shapes.iter().filter(|s| s.kind == Kind::Tile).collect();
        assert_eq!(tiles.len(), 1);
        assert_eq!(tiles[0].owner, None);
    }

    #[test]
    fn notation_round_trips_and_explains_refusals() {
        let g = Domineering::new(3, 3, VERTICAL).unwrap();
        let p = g.play(&g.start(), &g.parse_move(&g.start(), "b1").unwrap());
        assert_eq!(g.format_position(&p), ".../.#./.#.");
        assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
        assert!(g
            .parse_move(&p, "b2")
            .unwrap_err()
            .to_string()
            .contains("covered"));
        assert!(g
            .parse_move(&p, "c1")
            .unwrap_err()
            .to_string()
            .contains("leave the board"));
        assert!(g.parse_move(&p, "z9").is_err());
    }
}
