//! Monte Carlo tree search (UCT) for any number of players: random playouts from the
//! leaves of a growing tree, each node choosing the child best for the player to move
//! there. A playout pays every player 1 for a sole win, `1/k` for a win shared by `k`
//! players, `1/n` to each of `n` players for a draw, and 0 for a loss.
//!
//! The player sees the whole position (it assumes open information).
//!
//! Under a job's budget ([`Mcts::with_budget`]) the search stops at its deadline or cancel
//! flag, its tree stops growing at the budget's memory (playouts then go on from the
//! leaves), and it refuses before it starts what asks for more than the budget's seconds.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::Player;
use crate::error::{Limit, Part, Said};
use crate::game::{Game, Outcome};
use crate::solve::budget::Budget;
use crate::Error;

/// Playouts a second of a budget's time allows: a player asking for more playouts than
/// this times the budget's seconds is refused before it starts (slower games stop at the
/// deadline instead).
pub const PLAYOUTS_PER_SECOND: f64 = 20_000.0;

/// The bytes each allocation of a tree node costs the allocator, about (the tree's memory
/// is counted node by node).
const ALLOCATION_BYTES: usize = 32;

/// Iterations between two looks at the deadline and the cancel flag.
const CHECK_EVERY: u32 = 16;

/// How long the search runs for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// A fixed number of playouts (reproducible).
    Playouts(u32),
    /// A time limit per move.
    Time(Duration),
}

/// A UCT player.
pub struct Mcts {
    effort: Effort,
    rng: StdRng,
    /// The job's budget: deadline, cancel flag, memory for the tree.
    within: Budget,
    /// Nodes of the last search's tree.
    nodes: usize,
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
    /// A player searching with `effort` per move, its playouts following `seed`.
    pub fn new(effort: Effort, seed: u64) -> Self {
        Mcts {
            effort,
            rng: StdRng::seed_from_u64(seed),
            within: Budget::default(),
            nodes: 0,
        }
    }

    /// The nodes of the tree of the last move chosen.
    pub fn tree_nodes(&self) -> usize {
        self.nodes
    }

    /// The same player within a job's `budget`: it stops at the deadline or the cancel
    /// flag (a timed search answers with what it found by the deadline, a search of a
    /// number of playouts gives up), and its tree takes at most the budget's memory.
    pub fn with_budget(self, budget: Budget) -> Self {
        Mcts {
            within: budget,
            ..self
        }
    }

    /// The bytes `node` takes outside the tree's vector, about: its untried moves, its
    /// place among its parent's children (a vector that doubles), and what the allocator
    /// adds to both.
    fn heap_bytes<G: Game>(node: &Node<G>) -> usize {
        node.untried.capacity() * std::mem::size_of::<G::Move>()
            + 2 * std::mem::size_of::<usize>()
            + 2 * ALLOCATION_BYTES
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

    /// One iteration: selection, expansion when `grow`, a playout, backpropagation; the
    /// bytes the tree took outside its vector ([`Mcts::heap_bytes`]).
    fn iterate<G: Game>(&mut self, game: &G, tree: &mut Vec<Node<G>>, grow: bool) -> usize {
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
        let mut grown = 0;
        if let Some(m) = tree[at].untried.pop().filter(|_| grow) {
            let child = game.play(&tree[at].position, &m);
            let node = self.node(game, child, Some(m), at);
            grown = Self::heap_bytes(&node);
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
        grown
    }
}

impl<G: Game> Player<G> for Mcts {
    fn name(&self) -> String {
        match self.effort {
            Effort::Playouts(n) => format!("mcts:{n}"),
            Effort::Time(t) => format!("mcts:{}ms", t.as_millis()),
        }
    }

    /// Refuses more playouts than [`PLAYOUTS_PER_SECOND`] times the budget's seconds, or
    /// more time than its seconds.
    fn check(&self, _game: &G, _p: &G::Position) -> Result<(), Error> {
        let Some(limit) = self.within.seconds else {
            return Ok(());
        };
        let name = Player::<G>::name(self);
        match self.effort {
            Effort::Playouts(n) if f64::from(n) > limit * PLAYOUTS_PER_SECOND => {
                Err(Error::TooBig(Said(vec![
                    Part::Text(format!(
                        "{name} asks for {n} playouts, more than the {} that fit in ",
                        (limit * PLAYOUTS_PER_SECOND) as u64
                    )),
                    Part::Limit(Limit::Seconds(limit)),
                    Part::Text(format!(" ({PLAYOUTS_PER_SECOND} a second)")),
                ])))
            }
            Effort::Time(t) if t.as_secs_f64() > limit => Err(Error::TooBig(Said(vec![
                Part::Text(format!("mcts asks for {} s a move, more than ", t.as_secs_f64())),
                Part::Limit(Limit::Seconds(limit)),
            ]))),
            _ => Ok(()),
        }
    }

    fn choose(&mut self, game: &G, p: &G::Position) -> Result<G::Move, Error> {
        let root = self.node(game, p.clone(), None, 0);
        match root.untried.len() {
            0 => return Err(Error::bad_move("", "no legal move in this position")),
            1 => return Ok(root.untried[0].clone()),
            _ => {}
        }
        let limit = self.within.clock();
        let memory = usize::try_from(self.within.bytes()).unwrap_or(usize::MAX);
        let node_size = std::mem::size_of::<Node<G>>();
        // Room for as many nodes as the playouts make, or as fit in the memory when each
        // has as many moves as the root.
        let fit = memory / (node_size + Self::heap_bytes(&root));
        let mut tree = match self.effort {
            Effort::Playouts(n) => Vec::with_capacity((n as usize).saturating_add(1).min(fit)),
            Effort::Time(_) => Vec::new(),
        };
        let mut heap = Self::heap_bytes(&root);
        tree.push(root);
        let started = Instant::now();
        let mut done = 0u32;
        loop {
            let more = match self.effort {
                Effort::Playouts(n) => done < n,
                Effort::Time(t) => done == 0 || started.elapsed() < t,
            };
            if !more {
                break;
            }
            if done.is_multiple_of(CHECK_EVERY) && limit.passed() {
                match self.effort {
                    // A timed search answers with what it found by the deadline.
                    Effort::Time(_) if done > 0 && !limit.cancelled() => break,
                    _ => {
                        return Err(self
                            .within
                            .stopped(&format!("{}'s move", Player::<G>::name(self))))
                    }
                }
            }
            // The tree grows while it fits in the memory with one more node, counting the
            // vector as it will be after the push (doubled when full) and the next node's
            // moves as many as the root's; the root has a child in any case.
            let slots = if tree.len() < tree.capacity() {
                tree.capacity()
            } else {
                (2 * tree.capacity()).max(4)
            };
            let grow = tree[0].children.is_empty()
                || slots.saturating_mul(node_size) + heap + Self::heap_bytes(&tree[0]) <= memory;
            heap += self.iterate(game, &mut tree, grow);
            done += 1;
        }
        self.nodes = tree.len();
        // The most visited move; the children's order is random, so ties fall at random.
        let best = tree[0]
            .children
            .iter()
            .max_by(|&&a, &&b| tree[a].visits.total_cmp(&tree[b].visits))
            .expect("at least one child after a playout");
        Ok(tree[*best].via.clone().expect("a child has a move"))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::*;
    use crate::games::mnk::Mnk;

    fn within(seconds: Option<f64>, memory: u64) -> Budget {
        Budget {
            seconds,
            ..Budget::default().with_memory(memory)
        }
    }

    #[test]
    fn the_tree_stops_growing_at_the_memory_and_the_playouts_go_on() {
        let game = Mnk::new(8, 8, 5).unwrap();
        let mut free = Mcts::new(Effort::Playouts(3000), 1);
        free.choose(&game, &game.start()).unwrap();
        assert!(free.tree_nodes() > 2000, "{}", free.tree_nodes());
        let mut capped = Mcts::new(Effort::Playouts(3000), 1).with_budget(within(None, 64 << 10));
        capped.choose(&game, &game.start()).unwrap();
        let node = std::mem::size_of::<Node<Mnk>>() + 64 * std::mem::size_of::<<Mnk as Game>::Move>();
        assert!(capped.tree_nodes() * node <= 64 << 10, "{}", capped.tree_nodes());
        assert!(capped.tree_nodes() > 10);
    }

    #[test]
    fn a_cancelled_search_stops_and_says_so() {
        let game = Mnk::new(8, 8, 5).unwrap();
        let cancel = Budget {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Budget::default()
        };
        let started = Instant::now();
        let mut player = Mcts::new(Effort::Playouts(u32::MAX), 1).with_budget(cancel);
        assert!(matches!(
            player.choose(&game, &game.start()),
            Err(Error::Cancelled)
        ));
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn at_the_deadline_playouts_give_up_and_a_timed_search_answers() {
        let game = Mnk::new(8, 8, 5).unwrap();
        let started = Instant::now();
        let mut counted = Mcts::new(Effort::Playouts(u32::MAX), 1).with_budget(within(Some(0.2), 1 << 30));
        assert!(matches!(
            counted.choose(&game, &game.start()),
            Err(Error::TooBig(_))
        ));
        let mut timed =
            Mcts::new(Effort::Time(Duration::from_secs(60)), 1).with_budget(within(Some(0.2), 1 << 30));
        assert!(timed.choose(&game, &game.start()).is_ok());
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn asking_for_more_than_the_budget_is_refused_before_it_starts() {
        let game = Mnk::new(3, 3, 3).unwrap();
        let p = game.start();
        let two = within(Some(2.0), 1 << 30);
        let check = |b: Effort| Player::<Mnk>::check(&Mcts::new(b, 0).with_budget(two.clone()), &game, &p);
        assert!(check(Effort::Playouts(40_000)).is_ok());
        let err = check(Effort::Playouts(100_000_000)).unwrap_err();
        assert!(err.to_string().contains("more than the 40000"), "{err}");
        assert!(check(Effort::Time(Duration::from_secs(2))).is_ok());
        let err = check(Effort::Time(Duration::from_secs(60))).unwrap_err();
        assert!(err.to_string().contains("more than the 2 s"), "{err}");
        // Without seconds (the command line), any budget is taken.
        let free = Mcts::new(Effort::Playouts(100_000_000), 0);
        assert!(Player::<Mnk>::check(&free, &game, &p).is_ok());
    }
}
