//! Every solver agrees with plain minimax on every position of small real games and
//! of random game graphs (with extra turns, draws and, for retrograde, cycles).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use zermelo::games::mnk::Mnk;
use zermelo::solve::memo::MemoSolver;
use zermelo::solve::search::AlphaBeta;
use zermelo::solve::{minimax, retrograde};
use zermelo::{Game, Indexed, Outcome, PlayerId, Value};

/// A game whose positions are the nodes of a random graph.
struct Graph {
    mover: Vec<PlayerId>,
    children: Vec<Vec<usize>>,
    end: Vec<Option<Outcome>>,
}

impl Graph {
    /// `n` nodes; edges go to higher nodes only unless `cycles`.
    fn random(seed: u64, n: usize, cycles: bool) -> Graph {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Graph {
            mover: Vec::new(),
            children: Vec::new(),
            end: Vec::new(),
        };
        for i in 0..n {
            g.mover.push(rng.gen_range(0..2));
            let leaf = i + 1 == n || rng.gen_bool(0.25);
            if leaf {
                g.end.push(Some(match rng.gen_range(0..3) {
                    0 => Outcome::Win(0),
                    1 => Outcome::Win(1),
                    _ => Outcome::Draw,
                }));
                g.children.push(Vec::new());
            } else {
                g.end.push(None);
                let lo = if cycles { 0 } else { i + 1 };
                let kids = (0..rng.gen_range(1..4))
                    .map(|_| rng.gen_range(lo..n))
                    .filter(|&c| c != i);
                let mut kids: Vec<usize> = kids.collect();
                if kids.is_empty() {
                    kids.push(n - 1);
                }
                g.children.push(kids);
            }
        }
        g
    }
}

impl Game for Graph {
    type Position = usize;
    type Move = usize;

    fn start(&self) -> usize {
        0
    }
    fn to_move(&self, p: &usize) -> PlayerId {
        self.mover[*p]
    }
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        out.extend(self.children[*p].iter().copied());
    }
    fn play(&self, _p: &usize, m: &usize) -> usize {
        *m
    }
    fn outcome(&self, p: &usize) -> Option<Outcome> {
        self.end[*p]
    }
}

impl Indexed for Graph {
    fn size(&self) -> u64 {
        self.mover.len() as u64
    }
    fn rank(&self, p: &usize) -> u64 {
        *p as u64
    }
    fn unrank(&self, r: u64) -> Option<usize> {
        Some(r as usize)
    }
}

/// Values of a possibly cyclic graph by plain fixed-point iteration, the textbook way:
/// repeat until nothing changes, resolving wins and losses with their remoteness.
fn fixed_point(g: &Graph) -> Vec<Value> {
    let n = g.mover.len();
    let mut known: Vec<Option<Value>> = (0..n)
        .map(|i| g.end[i].map(|o| Value::terminal(o, g.mover[i])))
        .collect();
    for _round in 0..=n {
        let before = known.clone();
        for (i, slot) in known.iter_mut().enumerate() {
            if slot.is_some() {
                continue;
            }
            let kids: Vec<Option<Value>> = g.children[i]
                .iter()
                .map(|&c| before[c].map(|v| Value::from_child(v, g.mover[c] == g.mover[i])))
                .collect();
            let fastest_win = kids.iter().flatten().filter(|v| matches!(v, Value::Win(_))).max();
            if let Some(w) = fastest_win {
                *slot = Some(*w);
            } else if kids.iter().all(|v| matches!(v, Some(Value::Lose(_)))) {
                *slot = kids.iter().flatten().max().copied();
            }
        }
        if before == known {
            break;
        }
    }
    known.into_iter().map(|v| v.unwrap_or(Value::Draw)).collect()
}

#[test]
fn solvers_agree_with_minimax_on_random_acyclic_graphs() {
    for seed in 0..300 {
        let g = Graph::random(seed, 30, false);
        let table = retrograde::solve(&g, &());
        let mut memo = MemoSolver::new(&g);
        let mut ab = AlphaBeta::new(&g);
        for p in 0..30 {
            let truth = minimax::value(&g, &p);
            assert_eq!(memo.solve(&p), truth, "memo, seed {seed}, node {p}");
            assert_eq!(ab.solve(&p).unwrap(), truth, "alpha-beta, seed {seed}, node {p}");
            assert_eq!(
                table.get(p as u64),
                Some(truth),
                "retrograde, seed {seed}, node {p}"
            );
        }
    }
}

#[test]
fn retrograde_agrees_with_fixed_point_iteration_on_cyclic_graphs() {
    for seed in 0..300 {
        let g = Graph::random(seed, 25, true);
        let table = retrograde::solve(&g, &());
        for (p, truth) in fixed_point(&g).into_iter().enumerate() {
            assert_eq!(table.get(p as u64), Some(truth), "seed {seed}, node {p}");
        }
    }
}

#[test]
fn solvers_agree_on_every_tictactoe_position() {
    let g = Mnk::tictactoe();
    let table = retrograde::solve(&g, &());
    let mut memo = MemoSolver::new(&g);
    let mut sym = MemoSolver::symmetric(&g);
    let mut ab = AlphaBeta::symmetric(&g);
    let mut checked = 0;
    for r in 0..g.size() {
        let Some(p) = g.unrank(r) else { continue };
        let truth = minimax::value(&g, &p);
        assert_eq!(table.get(r), Some(truth));
        assert_eq!(memo.solve(&p), truth);
        assert_eq!(sym.solve(&p), truth);
        assert_eq!(ab.solve(&p).unwrap(), truth);
        checked += 1;
    }
    // On 3 × 3 every board with consistent marks is reachable.
    assert_eq!(checked, 5478);
}

#[test]
fn solvers_agree_on_every_position_of_a_small_rectangle() {
    let g = Mnk::new(4, 3, 3).unwrap();
    let table = retrograde::solve(&g, &());
    let mut memo = MemoSolver::symmetric(&g);
    let mut ab = AlphaBeta::symmetric(&g);
    for r in (0..g.size()).step_by(7) {
        let Some(p) = g.unrank(r) else { continue };
        let v = table.get(r).unwrap();
        assert_eq!(memo.solve(&p), v);
        assert_eq!(ab.solve(&p).unwrap(), v);
    }
}
