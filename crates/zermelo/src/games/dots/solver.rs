//! The exact Dots and Boxes solvers.
//!
//! - [`solver`]: the generic margin search keyed on the drawn lines up to symmetry, with
//!   the safe reductions of [`Dots::search_moves`], the exact values of simple endgames
//!   ([`Dots::simple_endgame`]) and the boxes left as the bound on the margin;
//! - [`Lines64`]: the same game as a [`Tree`] for the null-window search on every core
//!   with a fixed-size table, for boards of at most 64 lines. Its positions are the drawn
//!   lines in one word, keyed by their canonical form (made only for the positions
//!   searched, not for every child): the least image under the board's symmetries after
//!   the lines of each box on the border are made interchangeable (a box with two or more
//!   sides on the border is joined to the outside by each of them alike, so which of them
//!   are drawn does not matter, only how many);
//! - the [`MarginIndexed`] numbering of line sets, for the table of every set of drawn
//!   lines on boards of at most 24 lines.

use std::path::Path;
use std::time::Instant;

use super::{Dots, Lines, Position};
use crate::game::Game;
use crate::session::strategies::margins::MarginGame;
use crate::solve::margin::{lead, through, MarginSearch, MarginSolver, Proven, Setup};
use crate::solve::margin_table::{MarginIndexed, MarginStep, MAX_RANKS};
use crate::solve::nullwindow::{Child, NullWindow, Tree, ENTRY_BYTES};
use crate::table::book::BookInfo;
use crate::Error;

/// Undrawn lines from which a search is worth spreading over every core.
const PARALLEL_FROM: u32 = 26;

/// Table entries per position a search is expected to store, about: room for the
/// searches of the sibling positions that follow (valuing every move of a position).
const TABLE_SHARE: f64 = 4.0;

/// The smallest table.
const TABLE_MIN: u64 = 1 << 20;

/// The exact search for `game`.
pub fn solver(game: &Dots) -> MarginSearch<'_, Dots, Lines> {
    MarginSearch::with(game, Dots::search_key, Dots::search_moves)
        .bounded(search_bound)
        .with_known(|g, p| g.simple_endgame(&p.lines))
}

/// The best exact search for `game` under `setup`: the null-window search on every core
/// for boards of at most 64 lines, else [`solver`].
pub fn best_solver<'g>(game: &'g Dots, setup: &Setup) -> Box<dyn MarginSolver<Dots> + 'g> {
    match lines_search(game, setup) {
        Some(search) => Box::new(search),
        None => Box::new(solver(game).with_limit(setup.limit.clone())),
    }
}

/// The null-window search of `game` under `setup` (reading its book), which keeps its
/// table from move to move; `None` for boards of more than 64 lines.
pub fn lines_search(game: &Dots, setup: &Setup) -> Option<LinesSearch> {
    Lines64::new(game).map(|tree| LinesSearch {
        tree: Some(tree),
        search: None,
        setup: setup.clone(),
    })
}

/// The null-window search of Dots and Boxes, its table made at the first search to fit
/// that position and the memory allowed.
pub struct LinesSearch {
    /// The tree, until the search takes it.
    tree: Option<Lines64>,
    search: Option<NullWindow<Lines64>>,
    setup: Setup,
}

impl LinesSearch {
    fn tree(&self) -> &Lines64 {
        match (&self.tree, &self.search) {
            (Some(t), _) => t,
            (None, Some(s)) => s.tree(),
            (None, None) => unreachable!("the tree is held by the solver or its search"),
        }
    }
}

impl MarginSolver<Dots> for LinesSearch {
    fn game(&self) -> &Dots {
        &self.tree().game
    }

    fn remaining(&mut self, p: &Position) -> i32 {
        let node = self.tree().node(p);
        self.searcher(p).value(&node)
    }

    /// Keeps the best lead proved, then tries for more until `deadline`: each move's
    /// bounds are what the table and the book hold for its position.
    fn prove(&mut self, p: &Position, deadline: Option<Instant>) -> Proven<u8> {
        let game = self.tree().game.clone();
        let search = self.searcher(p);
        let node = search.tree().node(p);
        let kids: Vec<Kid> = game
            .legal_moves(p)
            .into_iter()
            .map(|m| {
                let after = game.play(p, &m);
                Kid {
                    line: m,
                    child: Child {
                        node: search.tree().node(&after),
                        gain: through(&game, p, &after, 0),
                        keeps_turn: game.to_move(&after) == game.to_move(p),
                    },
                }
            })
            .collect();
        let (mut lo, mut hi) = search.known(&node);
        let mut best = reaching(search, &kids, &mut lo);
        while lo < hi {
            match search.test(&node, lo + 1, deadline) {
                Some(v) if v > lo => {
                    lo = v;
                    best = reaching(search, &kids, &mut lo);
                }
                Some(v) => hi = v,
                None => break,
            }
        }
        let lead = lead(&game, p, game.to_move(p));
        Proven {
            best: best.line,
            lo: lead + lo,
            hi: lead + hi,
            moves: kids
                .iter()
                .map(|k| {
                    let (lo, hi) = k.bounds(search.known(&k.child.node));
                    (k.line, lead + lo, lead + hi)
                })
                .collect(),
        }
    }

    fn stopped(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.stopped())
    }

    fn positions(&self) -> usize {
        self.search.as_ref().map_or(0, |s| s.table().used())
    }

    fn nodes(&self) -> u64 {
        self.search.as_ref().map_or(0, |s| s.nodes())
    }

    fn save_book(&self, path: &Path, spec: &str, max_entries: u64) -> Result<Option<BookInfo>, Error> {
        self.search
            .as_ref()
            .map(|s| s.save_book(path, spec, max_entries))
            .transpose()
    }
}

impl LinesSearch {
    /// The search, made at the first position searched to fit it and the memory allowed.
    fn searcher(&mut self, p: &Position) -> &mut NullWindow<Lines64> {
        if self.search.is_none() {
            let tree = self.tree.take().expect("the tree before the first search");
            let undrawn = tree.game.line_count() as u32 - p.lines.len();
            let visits = tree.game.search_cost(p, u64::MAX).positions as f64;
            let wanted = (visits * TABLE_SHARE) as u64 * ENTRY_BYTES;
            let bytes = wanted.clamp(TABLE_MIN, self.setup.bytes.max(TABLE_MIN));
            let threads = if undrawn >= PARALLEL_FROM {
                rayon::current_num_threads()
            } else {
                1
            };
            let search = NullWindow::new(tree, bytes)
                .threads(threads)
                .with_setup(&self.setup);
            self.search = Some(search);
        }
        self.search.as_mut().expect("made above")
    }
}

/// A legal move as [`LinesSearch::prove`] weighs it: its line and the child it leads to.
struct Kid {
    line: u8,
    child: Child<u64>,
}

impl Kid {
    /// The bounds of the remaining margin through this move, from its position's.
    fn bounds(&self, (lo, hi): (i32, i32)) -> (i32, i32) {
        let (a, b) = (self.child.parent_value(lo), self.child.parent_value(hi));
        (a.min(b), a.max(b))
    }

    /// Whether the move reaches a remaining margin of `target`, by the bounds known or by
    /// a null-window test.
    fn reaches(&self, search: &mut NullWindow<Lines64>, target: i32) -> bool {
        let Child {
            node,
            gain,
            keeps_turn,
        } = self.child;
        if self.bounds(search.known(&node)).0 >= target {
            return true;
        }
        if keeps_turn {
            let beta = target - gain;
            search.test(&node, beta, None).is_some_and(|v| v >= beta)
        } else {
            let beta = gain - target + 1;
            search.test(&node, beta, None).is_some_and(|v| v < beta)
        }
    }
}

/// A move reaching `target`, which the position's value is known to reach: one the
/// bounds already show, else the first a test proves, the most promising first. When
/// the search gives up before one is proved, the most promising, with `target` lowered to
/// what it is known to reach.
fn reaching<'k>(search: &mut NullWindow<Lines64>, kids: &'k [Kid], target: &mut i32) -> &'k Kid {
    let mut order: Vec<&Kid> = kids.iter().collect();
    order.sort_by_key(|k| {
        let (lo, hi) = k.bounds(search.known(&k.child.node));
        (lo < *target, -hi)
    });
    if let Some(k) = order.iter().find(|k| k.reaches(search, *target)) {
        return k;
    }
    let first = order.first().expect("a position not ended has a move");
    *target = first.bounds(search.known(&first.child.node)).0;
    first
}

/// No more than the boxes left can still be won.
fn search_bound(game: &Dots, p: &Position) -> i32 {
    game.boxes_left(p) as i32
}

/// A set of drawn lines is its own rank: drawing a line sets one more bit, so every move
/// leads to a higher rank, and the remaining margin depends on the lines alone.
impl MarginIndexed for Dots {
    fn margin_ranks(&self) -> Option<u64> {
        let ranks = 1u64.checked_shl(self.line_count() as u32)?;
        (ranks <= MAX_RANKS).then_some(ranks)
    }

    fn margin_rank(&self, p: &Position) -> u64 {
        p.lines.0[0]
    }

    fn margin_steps(&self, rank: u64, out: &mut Vec<MarginStep>) {
        out.clear();
        // At most 24 lines: a set of lines is one word.
        let undrawn = self.undrawn(&Lines([rank, 0, 0]));
        out.extend(undrawn.iter().map(|l| {
            let to = rank | 1 << l;
            let gain = self.line_boxes[l]
                .iter()
                .filter(|&&b| to & self.box_masks[b].0[0] == self.box_masks[b].0[0])
                .count() as i32;
            MarginStep {
                to,
                gain,
                again: gain > 0,
            }
        }));
    }
}

/// The lines of a box on the border that are interchangeable.
#[derive(Clone, Debug)]
struct Border {
    /// All of them.
    mask: u64,
    /// The first `k` of them, for each `k`.
    first: Vec<u64>,
}

/// Dots and Boxes as a tree of line sets in one word, keyed by their canonical form
/// (boards of at most 64 lines), for [`crate::solve::nullwindow`].
#[derive(Clone, Debug)]
pub struct Lines64 {
    game: Dots,
    /// Each box's sides.
    boxes: Vec<u64>,
    /// Each line's boxes (one or two).
    line_boxes: Vec<Vec<usize>>,
    /// The boxes with two or more sides on the border, with those sides.
    borders: Vec<Border>,
    /// For each line on such a border, the mask of its box's border lines.
    border_of: Vec<u64>,
    /// Every line.
    all: u64,
    /// The lines nearest the centre first.
    order: Vec<usize>,
}

impl Lines64 {
    /// The tree of `game`, or `None` when it has more than 64 lines.
    pub fn new(game: &Dots) -> Option<Lines64> {
        let lines = game.line_count();
        if lines > 64 {
            return None;
        }
        let boxes: Vec<u64> = game.box_masks.iter().map(|m| m.0[0]).collect();
        let mut borders = Vec::new();
        let mut border_of = vec![0; lines];
        for sides in &game.box_lines {
            let outer: Vec<usize> = sides
                .iter()
                .copied()
                .filter(|&l| game.line_boxes[l].len() == 1)
                .collect();
            if outer.len() < 2 {
                continue;
            }
            let mut first = vec![0u64];
            for &l in &outer {
                first.push(first.last().copied().unwrap_or(0) | 1 << l);
            }
            let mask = *first.last().expect("two or more lines");
            for &l in &outer {
                border_of[l] = mask;
            }
            borders.push(Border { mask, first });
        }
        let (rows, cols) = game.dims();
        let centre = |l: usize| {
            let ((r1, c1), (r2, c2)) = game.ends(l);
            let dr = (r1 + r2) as i64 - (rows as i64 - 1);
            let dc = (c1 + c2) as i64 - (cols as i64 - 1);
            dr * dr + dc * dc
        };
        let mut order: Vec<usize> = (0..lines).collect();
        order.sort_by_key(|&l| (centre(l), l));
        Some(Lines64 {
            game: game.clone(),
            boxes,
            line_boxes: game.line_boxes.clone(),
            borders,
            border_of,
            all: game.all.0[0],
            order,
        })
    }

    /// The game.
    pub fn game(&self) -> &Dots {
        &self.game
    }

    /// The border lines of each box made the first ones of that box.
    fn interchange(&self, mut lines: u64) -> u64 {
        for b in &self.borders {
            let k = (lines & b.mask).count_ones() as usize;
            lines = lines & !b.mask | b.first[k];
        }
        lines
    }

    /// The canonical form of a line set: the least image under the symmetries, each with
    /// its border lines interchanged.
    pub fn canonical(&self, lines: u64) -> u64 {
        let least = self
            .game
            .small_tables
            .iter()
            .fold(self.interchange(lines), |best, tables| {
                let image = tables.iter().enumerate().fold(0, |acc, (byte, table)| {
                    acc | table[(lines >> (8 * byte)) as usize & 0xff]
                });
                best.min(self.interchange(image))
            });
        least
    }

    /// The node of position `p`.
    pub fn node(&self, p: &Position) -> u64 {
        p.lines.0[0]
    }

    /// How many boxes drawing `l` completes.
    #[inline]
    fn completes(&self, lines: u64, l: usize) -> i32 {
        let after = lines | 1 << l;
        self.line_boxes[l]
            .iter()
            .filter(|&&b| after & self.boxes[b] == self.boxes[b])
            .count() as i32
    }

    /// The child after drawing `l`.
    #[inline]
    fn child(&self, lines: u64, l: usize) -> Child<u64> {
        let gain = self.completes(lines, l);
        Child {
            node: lines | 1 << l,
            gain,
            keeps_turn: gain > 0,
        }
    }

    /// Whether `l` is a border line that another undrawn border line of its box stands
    /// for (the first undrawn one is searched, the others give the same position).
    #[inline]
    fn stood_for(&self, lines: u64, l: usize) -> bool {
        let mask = self.border_of[l];
        let undrawn = mask & !lines;
        mask != 0 && undrawn.trailing_zeros() as usize != l
    }
}

impl Tree for Lines64 {
    type Node = u64;

    fn key(&self, n: &u64) -> u64 {
        self.canonical(*n)
    }

    fn exact(&self, n: &u64) -> Option<i32> {
        if *n == self.all {
            return Some(0);
        }
        let simple = self.boxes.iter().all(|&b| matches!((n & b).count_ones(), 2 | 4));
        if !simple {
            return None;
        }
        self.game.simple_endgame(&Lines([*n, 0, 0]))
    }

    /// The boxes left, won or lost.
    fn bounds(&self, n: &u64) -> (i32, i32) {
        let left = self.boxes.iter().filter(|&&b| n & b != b).count() as i32;
        (-left, left)
    }

    fn work(&self, n: &u64) -> u8 {
        (self.all & !n).count_ones() as u8
    }

    /// The moves [`Dots::search_moves`] keeps, in the same classes: the one safe capture;
    /// else the captures and declines when boxes are on offer; else the quiet moves, then
    /// the sacrifices, each class nearest the centre first, leaving out border lines that
    /// another line of their box stands for.
    fn children(&self, n: &u64, out: &mut Vec<Child<u64>>) {
        let lines = Lines([*n, 0, 0]);
        let game = &self.game;
        let sides = game.all_sides(&lines);
        if let Some((l, _)) = game.safe_capture_in(&lines, &sides) {
            out.push(self.child(*n, l));
            return;
        }
        let boxes = game.box_count();
        if sides[..boxes].contains(&3) {
            let mut moves = Vec::new();
            game.search_moves(
                &Position {
                    lines,
                    boxes: [0, 0],
                    mover: 0,
                },
                &mut moves,
            );
            out.extend(moves.iter().map(|&l| self.child(*n, l as usize)));
            return;
        }
        let sacrifice = |l: usize| self.line_boxes[l].iter().any(|&b| sides[b] == 2);
        let undrawn = |l: &&usize| *n >> **l & 1 == 0 && !self.stood_for(*n, **l);
        for &l in self.order.iter().filter(undrawn) {
            if !sacrifice(l) {
                out.push(self.child(*n, l));
            }
        }
        for &l in self.order.iter().filter(undrawn) {
            if sacrifice(l) {
                out.push(self.child(*n, l));
            }
        }
    }
}
