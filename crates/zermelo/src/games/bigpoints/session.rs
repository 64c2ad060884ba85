//! What Big Points hands the scores strategy: its decision rules, which boards the exact
//! solver takes on and what they cost, its compact solver tables, and a fresh path per
//! round of a tournament on the full game.

use std::sync::Mutex;

use super::strategy::{self as scores, Deal, ScoreGame};
use super::{
    BigPoints, Census, LayerSolver, Layers, Packed, Rule, SharedScores, Ties, WordSolver, WordTable, COLOURS,
    INFO, KEY_BITS, WHITE,
};
use crate::session::{Cost, Fact, FactValue, Session};
use crate::solve::scores::{DecisionRule, MarginRule, ScoreSolver, Scores, StudyRule, Table};
use crate::spec::Spec;
use crate::{Error, Game};

/// The longest path the exact solver takes on (reduced games are far shorter).
pub const MAX_SOLVE_DISCS: usize = 24;

/// Positions the solver stores on a 12-disc path, about (the most measured, on 4 colours).
const POSITIONS_AT_12: f64 = 7e5;

/// How many times more positions each further disc costs, about.
const GROWTH_PER_DISC: f64 = 5.0;

/// Positions the solver stores per second on this machine, about.
const POSITIONS_PER_SECOND: f64 = 8e5;

/// Bytes a solver table entry takes, with the map's overhead.
const ENTRY_BYTES: f64 = 32.0;

/// The decision rule a game's `rule=` names.
pub fn decision_rule(rule: Rule) -> &'static dyn DecisionRule {
    match rule {
        Rule::Study => &StudyRule,
        Rule::Margin => &MarginRule,
    }
}

/// The longest path solved by the search on shared keys (the study's families, (4,3) and
/// (5,2): up to about a million positions a board, many of them met again on other
/// boards). Longer paths have millions of positions a board, where the search's table
/// misses the caches so often that solving layer by layer is faster (BENCHMARKS.md).
const MOST_SHARED_DISCS: usize = 12;

/// What boards must have in common for their solves to share positions: the number of
/// colours, the discs of each colour and the white discs, the rule and the tie order.
type Kin = (usize, [u8; COLOURS], u32, Rule, Ties);

/// What one thread's exact solvers of [`BigPoints::solve_scores`] keep from solve to
/// solve: their tables, emptied for each solve.
#[derive(Default)]
pub struct SolveMemory {
    census: Census,
    layers: Layers,
    table: WordTable,
}

/// The size of a [`SweepMemory`] unless told otherwise.
pub const SWEEP_TABLE_BYTES: u64 = 128 << 20;

/// What the threads of a sweep share: the final scores of positions they solved, by
/// shared key and kin, which every later solve of a board of the same kin reuses
/// ([`BigPoints::solve_sharing`]).
pub struct SweepMemory {
    scores: SharedScores,
    /// The kins met, in order: kin `i` is tagged `i + 1` in the table (up to 255).
    kins: Mutex<Vec<Kin>>,
}

impl SweepMemory {
    /// A memory whose table takes at most `bytes` (at least 4 MiB).
    pub fn new(bytes: u64) -> SweepMemory {
        SweepMemory {
            scores: SharedScores::new(bytes),
            kins: Mutex::default(),
        }
    }

    /// The tag of `kin`'s positions in the table; none past the 255th kin met.
    fn tag(&self, kin: Kin) -> Option<u64> {
        let mut kins = self.kins.lock().unwrap_or_else(|e| e.into_inner());
        let i = match kins.iter().position(|&k| k == kin) {
            Some(i) => i,
            None if kins.len() < 255 => {
                kins.push(kin);
                kins.len() - 1
            }
            None => return None,
        };
        Some(i as u64 + 1)
    }
}

impl BigPoints {
    fn kin(&self) -> Kin {
        let white = self.kind_mask[WHITE as usize].count_ones();
        (self.colours, self.of_colour, white, self.rule, self.ties)
    }

    /// Solves `p` under the game's rule with the fastest exact solver that fits, in
    /// `memory`: the final scores and the positions stored (the distinct non-terminal
    /// positions reachable from `p`).
    ///
    /// When each move takes one disc ([`BigPoints::packed`]): on paths of up to 12 discs
    /// (when the shared key fits), the positions are counted layer by layer ([`Census`])
    /// and the scores come from a search keyed by [`super::Packed::shared_key`]; on longer
    /// paths, both come from a [`LayerSolver`]. Otherwise the search is keyed by the
    /// position ([`BigPoints::pack64`] in a flat table when it fits, else two-word keys in
    /// a hash map) and counts what it stores.
    pub fn solve_scores(&self, p: &super::Position, memory: &mut SolveMemory) -> (Scores, usize) {
        self.solve_sharing(p, memory, None)
    }

    /// As [`BigPoints::solve_scores`], the search on shared keys reading and filling
    /// `sweep` when given: the final scores of positions that solves of boards of the same
    /// kin found (the same colours and discs of each kind, rule and tie order), on any
    /// thread.
    pub fn solve_sharing(
        &self,
        p: &super::Position,
        memory: &mut SolveMemory,
        sweep: Option<&SweepMemory>,
    ) -> (Scores, usize) {
        match self.rule {
            Rule::Study => self.solve_under(&StudyRule, p, memory, sweep),
            Rule::Margin => self.solve_under(&MarginRule, p, memory, sweep),
        }
    }

    fn solve_under<R: DecisionRule>(
        &self,
        rule: &R,
        p: &super::Position,
        memory: &mut SolveMemory,
        sweep: Option<&SweepMemory>,
    ) -> (Scores, usize) {
        match self.packed() {
            Some(packed) if self.path.len() <= MOST_SHARED_DISCS && packed.shares_keys() => {
                let start = self.pack64(p);
                let solver = WordSolver::new(&packed, rule, Packed::shared_key, &mut memory.table);
                let tagged = sweep.and_then(|s| Some((&s.scores, s.tag(self.kin())?)));
                let mut solver = match tagged {
                    Some((scores, tag)) => solver.sharing(scores, tag),
                    None => solver,
                };
                (solver.solve(&start).0, memory.census.count(&packed, start))
            }
            Some(packed) => LayerSolver::new(&packed, rule, &mut memory.layers).solve(self.pack64(p)),
            None if self.pack64_bits() <= KEY_BITS => {
                WordSolver::new(self, rule, BigPoints::pack64, &mut memory.table).solve(p)
            }
            None => {
                let mut solver = ScoreSolver::keyed(self, rule, BigPoints::pack, Table::default());
                (solver.solve(p), solver.positions())
            }
        }
    }
}

impl ScoreGame for BigPoints {
    fn decision_rule(&self) -> &'static dyn DecisionRule {
        decision_rule(self.rule)
    }

    fn unsolvable(&self) -> Option<Error> {
        if self.players != 2 {
            return Some(Error::Unsupported(format!(
                "the exact solver is for two players; this game has {}",
                self.players
            )));
        }
        (self.path.len() > MAX_SOLVE_DISCS).then(|| {
            Error::TooBig(format!(
                "a {}-disc path is far too big to solve exactly (at most {MAX_SOLVE_DISCS}); \
                 give a reduced board, e.g. bigpoints:board=1221",
                self.path.len()
            ))
        })
    }

    /// Grows geometrically with the path (measured on random reduced boards).
    fn solve_cost(&self) -> Cost {
        let discs = self.path.len() as f64;
        let positions = (POSITIONS_AT_12 * GROWTH_PER_DISC.powf(discs - 12.0)).max(1.0);
        Cost {
            positions: positions as u64,
            bytes: (positions * ENTRY_BYTES) as u64,
            seconds: positions / POSITIONS_PER_SECOND,
        }
    }

    fn solve_from(&self, p: &super::Position) -> (Scores, usize) {
        self.solve_scores(p, &mut SolveMemory::default())
    }

    fn facts(&self) -> Vec<Fact> {
        vec![
            Fact::new("board", "board", FactValue::Text(self.board())),
            Fact::new("rule", "rule", FactValue::Text(self.rule.name().into())),
            Fact::new("ties", "tie order", FactValue::Text(self.ties.name().into())),
        ]
    }
}

/// Opens a session of the game `spec` names; on the full game (no `board=`), each round
/// of a tournament's seat rotations, and each self-play game, gets a fresh path.
pub fn open(spec: &Spec) -> Result<Box<dyn Session>, Error> {
    let game = BigPoints::from_spec(spec)?;
    if spec.get("board").is_some() {
        return Ok(scores::open(&spec.to_string(), &INFO, game, None));
    }
    let first_seed = spec.int(&super::SEED)?;
    let players = game.players();
    let (rule, ties) = (game.rule, game.ties);
    let deal: Deal<BigPoints> = Box::new(move |n| {
        let mut g = BigPoints::full(players, first_seed.wrapping_add(n)).expect("the full game is valid");
        g.rule = rule;
        g.with_ties(ties)
    });
    Ok(scores::open(&spec.to_string(), &INFO, game, Some(deal)))
}
