//! Connect Four's own null-window search tree: a win is worth more the sooner it comes,
//! moves are cut to the forced ones and those that do not lose at once, ordered by the
//! threats they make and centre first, and positions are keyed by the lesser of the board
//! and its mirror image.
//!
//! A node carries the cells that would complete a line for either player, so that a
//! child's are known from its parent's and the one new line search its ordering needs.

use super::{Board, Connect4};
use crate::solve::nullwindow::{Child, Tree, TreeOracle, ValueTree, ENTRY_BYTES};
use crate::solve::{SearchOracle, Setup};
use crate::Value;

/// Connect Four as a tree of margins for [`crate::solve::nullwindow`]: a win is worth the
/// empty cells left before the winning disc (so the fastest win is worth most), a draw
/// nothing.
#[derive(Clone, Debug)]
pub struct Connect4Tree<'g> {
    game: &'g Connect4,
    /// The cells of the rows 1, 3, 5, ... from the bottom (bit 0 of a column is row 1).
    odd_rows: u64,
}

/// A position of the search, with the cells (empty or not) that would complete a line
/// of the mover's and of the opponent's.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    board: Board,
    mine: u64,
    theirs: u64,
}

/// What the threats of a position say before any search.
struct Threats {
    /// The cells where a disc of the mover's would land and win.
    wins_now: u64,
    /// The cells the mover may drop a disc on without the opponent winning at once (the
    /// forced block alone when the opponent threatens one playable cell); empty when
    /// every move loses at once.
    safe: u64,
}

impl<'g> Connect4Tree<'g> {
    /// The tree of `game`.
    pub fn new(game: &'g Connect4) -> Self {
        let (cols, rows, _) = game.dims();
        let column: u64 = (0..rows).step_by(2).map(|r| 1u64 << r).sum();
        let odd_rows = (0..cols).fold(0, |acc, c| acc | column << (c * (rows + 1)));
        Connect4Tree { game, odd_rows }
    }

    /// The node of `b`, a position that has not ended.
    pub fn node_of(&self, b: &Board) -> Node {
        let (mine, theirs) = self.game.sides(b);
        Node {
            board: *b,
            mine: self.game.winning_cells(mine),
            theirs: self.game.winning_cells(theirs),
        }
    }

    fn empties(&self, b: &Board) -> i32 {
        (self.game.cells() as u32 - b.discs()) as i32
    }

    /// The packed key of a board: per column, the first player's discs under a bit that
    /// marks the column's height.
    fn pack(&self, b: &Board) -> u64 {
        b.x + b.mask + self.game.bottom
    }

    fn threats(&self, n: &Node) -> Threats {
        let g = self.game;
        let playable = g.playable(&n.board);
        let empty = !n.board.mask & g.board;
        let wins_now = n.mine & playable;
        let theirs_win = n.theirs & empty;
        // A disc under one of the opponent's winning cells lets it play there.
        let mut safe = playable & !(theirs_win >> 1);
        let forced = theirs_win & playable;
        if forced != 0 {
            safe = if forced.count_ones() > 1 { 0 } else { safe & forced };
        }
        Threats { wins_now, safe }
    }
}

impl Tree for Connect4Tree<'_> {
    type Node = Node;

    /// The lesser packed key of the board and of its mirror image (a column's packed
    /// bits stay inside the column, so the mirror of the key is the key of the mirror).
    fn key(&self, n: &Node) -> u64 {
        let key = self.pack(&n.board);
        key.min(self.game.flip(key))
    }

    /// The full board; a win at once; a loss at the opponent's next move when every move
    /// lets it win (two threats, or a block under another threat). No node of the tree
    /// has a line: a position with a winning drop has that drop alone as its child.
    fn exact(&self, n: &Node) -> Option<i32> {
        let e = self.empties(&n.board);
        if e == 0 {
            return Some(0);
        }
        let t = self.threats(n);
        if t.wins_now != 0 {
            Some(e)
        } else if t.safe == 0 {
            Some(1 - e)
        } else {
            None
        }
    }

    /// A win worth `v` comes after `e + 1 - v` plies (`e` empty cells): in a position
    /// [`Tree::exact`] leaves open, the mover wins at the earliest on its second disc from
    /// now, and with `k` discs at least; the opponent at the earliest on its second disc.
    fn bounds(&self, n: &Node) -> (i32, i32) {
        let g = self.game;
        let b = &n.board;
        let e = self.empties(b);
        let (mine, theirs) = g.sides(b);
        let k = g.k as i32;
        let a = (k - mine.count_ones() as i32).max(2);
        let hi = if a <= (e + 1) / 2 { e + 2 - 2 * a } else { 0 };
        let c = (k - theirs.count_ones() as i32).max(2);
        let lo = if c <= e / 2 { 2 * c - 1 - e } else { 0 };
        (lo, hi)
    }

    fn work(&self, n: &Node) -> u8 {
        self.empties(&n.board) as u8
    }

    /// A winning drop alone; else the drops that do not lose at once (only the block when
    /// the opponent threatens a cell), the most new threats first (those on rows of the
    /// mover's parity weighing half again), then the centre first.
    fn children(&self, n: &Node, out: &mut Vec<Child<Node>>) {
        let g = self.game;
        let b = &n.board;
        let t = self.threats(n);
        let e = self.empties(b);
        if t.wins_now != 0 {
            let cell = t.wins_now & t.wins_now.wrapping_neg();
            let c = cell.trailing_zeros() as usize / (g.rows + 1);
            out.push(Child {
                node: Node {
                    board: g.drop_disc(b, c),
                    mine: n.theirs,
                    theirs: n.mine,
                },
                gain: e,
                keeps_turn: false,
            });
            return;
        }
        // Every move loses at once: any one will do.
        let candidates = if t.safe == 0 { g.playable(b) } else { t.safe };
        let (mover, _) = g.sides(b);
        let good_rows = if b.discs().is_multiple_of(2) {
            self.odd_rows
        } else {
            !self.odd_rows
        };
        let mut scored = [(
            0u32,
            Child {
                node: *n,
                gain: 0,
                keeps_turn: false,
            },
        ); 16];
        let mut count = 0;
        for (order, &c) in g.centre_first.iter().enumerate() {
            let cell = candidates & g.column(c as usize);
            if cell == 0 {
                continue;
            }
            let board = b.filled(cell);
            let made = g.winning_cells(mover | cell);
            let open = made & !board.mask & g.board;
            // A threat on a row of the mover's parity counts half again: the first
            // player's odd-row threats and the second's even-row ones decide zugzwang.
            let threats = open.count_ones() * 2 + (open & good_rows).count_ones();
            // The most threats first, then the centre first: a stable order.
            scored[count] = (
                (255 - threats) << 8 | order as u32,
                Child {
                    node: Node {
                        board,
                        mine: n.theirs,
                        theirs: made,
                    },
                    gain: 0,
                    keeps_turn: false,
                },
            );
            count += 1;
            if t.safe == 0 {
                break;
            }
        }
        let scored = &mut scored[..count];
        scored.sort_unstable_by_key(|&(s, _)| s);
        out.extend(scored.iter().map(|&(_, child)| child));
    }
}

impl ValueTree<Connect4> for Connect4Tree<'_> {
    fn game(&self) -> &Connect4 {
        self.game
    }

    fn node(&self, p: &Board) -> Node {
        self.node_of(p)
    }

    /// A win worth `v` comes when `v - 1` cells are left empty.
    fn value_of(&self, p: &Board, v: i32) -> Value {
        let plies = |v: i32| (self.empties(p) - v.abs() + 1) as u32;
        match v.signum() {
            1 => Value::Win(plies(v)),
            -1 => Value::Lose(plies(v)),
            _ => Value::Draw,
        }
    }

    /// Room for `2^(0.6 e + 1)` entries with `e` empty cells, up to the budget: about
    /// what searches of 7 x 6 store (the start, 42 empty cells, stores about 1.3 x 10^8
    /// positions in a 2 GiB table), so that a search late in a game does not zero a
    /// table it cannot fill.
    fn table_bytes(&self, p: &Board) -> u64 {
        let e = self.empties(p).clamp(0, 60);
        (2f64.powf(0.6 * f64::from(e) + 1.0) * ENTRY_BYTES as f64) as u64
    }
}

/// The exact values of Connect Four positions by the null-window search under `setup`.
pub fn tree_oracle<'g>(game: &'g Connect4, setup: &Setup) -> Box<dyn SearchOracle<Connect4> + 'g> {
    Box::new(TreeOracle::new(Connect4Tree::new(game), setup.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::solve::memo::MemoSolver;
    use crate::solve::Oracle;
    use crate::Notation;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Down random games, every child's carried winning cells and key are those of a node
    /// made afresh from its board, and its board is the game's own move.
    #[test]
    fn children_carry_the_cells_of_their_boards() {
        let mut rng = StdRng::seed_from_u64(12);
        for (cols, rows, k) in [(7, 6, 4), (5, 4, 3), (9, 5, 4)] {
            let g = Connect4::new(cols, rows, k).unwrap();
            let tree = Connect4Tree::new(&g);
            let mut children = Vec::new();
            for _ in 0..200 {
                let mut node = tree.node_of(&g.start());
                while tree.exact(&node).is_none() {
                    children.clear();
                    tree.children(&node, &mut children);
                    for child in &children {
                        let fresh = tree.node_of(&child.node.board);
                        assert_eq!((child.node.mine, child.node.theirs), (fresh.mine, fresh.theirs));
                        let board = &child.node.board;
                        let key = tree.pack(board).min(tree.pack(&g.mirror(board)));
                        assert_eq!(tree.key(&child.node), key);
                        assert!(g
                            .legal_moves(&node.board)
                            .iter()
                            .any(|m| g.play(&node.board, m) == child.node.board));
                    }
                    node = children.choose(&mut rng).unwrap().node;
                }
            }
        }
    }

    /// The search agrees with plain memoised negamax at random positions of small boards,
    /// with every distance.
    #[test]
    fn the_search_agrees_with_negamax() {
        let mut rng = StdRng::seed_from_u64(11);
        for (cols, rows, k) in [(4, 4, 4), (5, 4, 4), (4, 5, 4), (4, 4, 3), (5, 3, 3)] {
            let g = Connect4::new(cols, rows, k).unwrap();
            let mut memo = MemoSolver::new(&g);
            for _ in 0..40 {
                let mut p = g.start();
                let plies = rng.gen_range(0..g.cells());
                for _ in 0..plies {
                    let moves = g.legal_moves(&p);
                    let Some(m) = moves.choose(&mut rng) else { break };
                    p = g.play(&p, m);
                }
                let mut search = tree_oracle(
                    &g,
                    &Setup {
                        bytes: 1 << 22,
                        ..Setup::default()
                    },
                );
                let want = memo.solve(&p);
                let got = search.value(&p).unwrap();
                assert_eq!(got, want, "{cols}x{rows} k={k} at {}", g.format_position(&p));
            }
        }
    }
}
