//! Monte Carlo tree search (UCT) for any number of players: random playouts from the
//! leaves of a growing tree, each node choosing the child best for the player to move
//! there. A playout pays every player 1 for a sole win, `1/k` for a win shared by `k`
//! players, `1/n` to each of `n` players for a draw, and 0 for a loss.
//!
//! The player sees the whole position (it assumes open information).

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::Player;
use crate::game::{Game, Outcome};
use crate::Error;

/// How long the search runs for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of playouts (reproducible).
    Playouts(u32),
    /// A time limit per move.
    Time(Duration),
}

/// A UCT player.
pub struct Mcts {
    budget: Budget,
    rng: StdRng,
}

struct Node<G: Game> {
    position: G::Position,
    children: Vec<usize>,
    untried: Vec<G::Move>,
    /// The move that led here from the parent.
    via: Option<G::Move>,
    parent: usize,
    visits: f64,
    /// Payoff summed over playouts, for the player who moved into this node.
    payoff: f64,
}

/// Exploration constant of UCT.
const EXPLORE: f64 = 1.0;

impl Mcts {
    /// A player searching within `budget` per move, its playouts following `seed`.
    pub fn new(budget: Budget, seed: u64) -> Self {
        Mcts {
            budget,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    fn payoffs(n: usize, outcome: Outcome) -> Vec<f64> {
        let mut pay = vec![0.0; n];
        match outcome {
            Outcome::Win(w) => pay[w as usize] = 1.0,
            Outcome::Draw => pay.iter_mut().for_each(|v| *v = 1.0 / n as f64),
            Outcome::Shared(mask) => {
                let k = mask.count_ones() as f64;
                for (i, v) in pay.iter_mut().enumerate() {
                    if mask >> i & 1 == 1 {
                        *v = 1.0 / k;
                    }
                }
            }
        }
        pay
    }

    fn playout<G: Game>(&mut self, game: &G, p: &G::Position) -> Outcome {
        let mut p = p.clone();
        let mut moves = Vec::new();
        loop {
            if let Some(o) = game.outcome(&p) {
                return o;
            }
            moves.clear();
            game.moves(&p, &mut moves);
            let m = moves
                .choose(&mut self.rng)
                .expect("a non-terminal position has a move");
            p = game.play(&p, m);
        }
    }

    fn node<G: Game>(
        &mut self,
        game: &G,
        position: G::Position,
        via: Option<G::Move>,
        parent: usize,
    ) -> Node<G> {
        let mut untried = game.legal_moves(&position);
        untried.shuffle(&mut self.rng);
        Node {
            position,
            children: Vec::new(),
            untried,
            via,
            parent,
            visits: 0.0,
            payoff: 0.0,
        }
    }

    fn iterate<G: Game>(&mut self, game: &G, tree: &mut Vec<Node<G>>) {
        let mut at = 0;
        while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
            let log_n = tree[at].visits.ln();
            at = *tree[at]
                .children
                .iter()
                .max_by(|&&a, &&b| {
                    let ucb = |c: usize| {
                        let n = &tree[c];
                        n.payoff / n.visits + EXPLORE * (log_n / n.visits).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("a child");
        }
        if let Some(m) = tree[at].untried.pop() {
            let child = game.play(&tree[at].position, &m);
            let node = self.node(game, child, Some(m), at);
            tree.push(node);
            let id = tree.len() - 1;
            tree[at].children.push(id);
            at = id;
        }
        let outcome = self.playout(game, &tree[at].position);
        let pay = Self::payoffs(game.players(), outcome);
        loop {
            let parent = tree[at].parent;
            let mover = game.to_move(&tree[parent].position) as usize;
            let node = &mut tree[at];
            node.visits += 1.0;
            if at == 0 {
                break;
            }
            node.payoff += pay[mover];
            at = parent;
        }
    }
}

impl<G: Game> Player<G> for Mcts {
    fn name(&self) -> String {
        match self.budget {
            Budget::Playouts(n) => format!("mcts:{n}"),
            Budget::Time(t) => format!("mcts:{}ms", t.as_millis()),
        }
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let root = self.node(game, p.clone(), None, 0);
        match root.untried.len() {
            0 => return Err(Error::bad_move("", "no legal move in this position")),
            1 => return Ok(root.untried[0].clone()),
            _ => {}
        }
        let mut tree = vec![root];
        let started = Instant::now();
        let mut done = 0u32;
        loop {
            let more = match self.budget {
                Budget::Playouts(n) => done < n,
                Budget::Time(t) => done == 0 || started.elapsed() < t,
            };
            if !more {
                break;
            }
            self.iterate(game, &mut tree);
            done += 1;
        }
        // The most visited move; the children's order is random, so ties fall at random.
        let best = tree[0]
            .children
            .iter()
            .max_by(|&&a, &&b| tree[a].visits.total_cmp(&tree[b].visits))
            .expect("at least one child after a playout");
        Ok(tree[*best].via.clone().expect("a child has a move"))
    }
}
