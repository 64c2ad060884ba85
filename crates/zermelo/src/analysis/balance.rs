//! The Big Points balance study: every arrangement of reduced boards solved exactly, in
//! parallel, and how often the first player wins, draws or loses.
//!
//! Relabelling the colours maps a board onto boards with the same reachable positions,
//! result and winner's score (see [`Family`]), so by default one board per class is
//! solved and counts for all `colors!` boards of its class. The loser's score under the
//! study rule, and both scores under the margin rule, can depend on the move order; the
//! rows leave them out for boards not solved themselves (`every_board` solves them all).
//! A `sample` solves that many evenly spaced boards (or classes) of each family, for an
//! estimate of families too big to sweep.

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::games::bigpoints::{Family, Rule};
use crate::session::{word_of_margin, Big};
use crate::solve::scores::{DecisionRule, MarginRule, Scores, StudyRule, WordTable};
use crate::solve::Progress;
use crate::{Error, Game, Spec};

/// The most boards (or classes) a sweep lists, sampled or not.
const MAX_LISTED: u128 = 20_000_000;

/// Which boards of each family a sweep solves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Choice {
    /// Every board rather than one per relabelling class.
    pub every_board: bool,
    /// Only this many boards, evenly spaced through the family, for an estimate.
    pub sample: Option<usize>,
}

/// One solved board.
#[derive(Clone, Copy, Debug)]
struct Solved {
    scores: Scores,
    positions: usize,
}

/// The sweep of one family, with its totals.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The family's spec.
    pub game: String,
    /// Common colours.
    pub colors: usize,
    /// Discs of each colour.
    pub discs: usize,
    /// White discs.
    pub white: usize,
    /// Black discs.
    pub black: usize,
    /// The decision rule's name.
    pub rule: &'static str,
    /// Boards the solved ones stand for.
    pub boards: Big,
    /// Boards solved.
    pub solved: usize,
    /// Whether the boards solved are a sample of the family.
    pub sampled: bool,
    /// Boards in the whole family.
    pub family_boards: Big,
    /// Boards the first player wins.
    pub first_wins: Big,
    /// Boards drawn.
    pub draws: Big,
    /// Boards the second player wins.
    pub second_wins: Big,
    /// First-player wins in percent of `boards`.
    pub first_wins_pct: f64,
    /// Draws in percent.
    pub draws_pct: f64,
    /// Second-player wins in percent.
    pub second_wins_pct: f64,
    /// The most positions a board's solve stored.
    pub positions_max: usize,
    /// The mean positions per board solved.
    pub positions_mean: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    #[serde(skip)]
    family: Family,
    #[serde(skip)]
    results: Vec<(Vec<u8>, Solved)>,
}

/// One board of a family, as a CSV row.
#[derive(Clone, Debug, Serialize)]
pub struct BoardRow {
    /// Common colours.
    pub colors: usize,
    /// Discs of each colour.
    pub discs: usize,
    /// White discs.
    pub white: usize,
    /// Black discs.
    pub black: usize,
    /// The board, e.g. `1221`.
    pub board: String,
    /// The representative of its relabelling class.
    pub class: String,
    /// The first player's final score, when known for this board.
    pub first: Option<i32>,
    /// The second player's final score, when known for this board.
    pub second: Option<i32>,
    /// "win", "draw" or "lose" for the first player.
    pub result: &'static str,
    /// Positions its solve (or its class's) stored.
    pub positions: usize,
}

/// Every family swept.
#[derive(Clone, Debug, Serialize)]
pub struct Balance {
    /// One sweep per family, in the order given.
    pub configs: Vec<Sweep>,
    /// Wall-clock seconds in all.
    pub seconds: f64,
}

impl Sweep {
    /// One row per board of the family, in lexicographic order (boards outside a sample
    /// are left out).
    pub fn rows(&self) -> Vec<BoardRow> {
        let f = &self.family;
        let by_board: HashMap<&[u8], &Solved> = self.results.iter().map(|(b, s)| (b.as_slice(), s)).collect();
        f.all()
            .into_iter()
            .filter_map(|board| {
                let class = Family::representative(&board);
                let (s, own) = match (by_board.get(board.as_slice()), by_board.get(class.as_slice())) {
                    (Some(s), _) => (*s, true),
                    (None, Some(s)) => (*s, false),
                    (None, None) => return None,
                };
                let [a, b] = s.scores;
                // Scores a board of the class shares for sure: the winner's under the study rule.
                let known = |mine: i32, other: i32| own || (f.rule == Rule::Study && mine >= other);
                Some(BoardRow {
                    colors: f.colours,
                    discs: f.discs,
                    white: f.white,
                    black: f.black,
                    board: Family::format(&board),
                    class: Family::format(&class),
                    first: known(a, b).then_some(a),
                    second: known(b, a).then_some(b),
                    result: word_of_margin(a - b),
                    positions: s.positions,
                })
            })
            .collect()
    }
}

/// The totals of `results`, each standing for `weight` boards.
fn totals(
    family: Family,
    results: Vec<(Vec<u8>, Solved)>,
    weight: u128,
    sampled: bool,
    seconds: f64,
) -> Sweep {
    let mut tally = [0u128; 3];
    for (_, s) in &results {
        let i = match s.scores[0].cmp(&s.scores[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        };
        tally[i] += weight;
    }
    let boards = results.len() as u128 * weight;
    let [fp, dp, sp] = tally.map(|n| 100.0 * n as f64 / boards as f64);
    let positions: Vec<usize> = results.iter().map(|(_, s)| s.positions).collect();
    Sweep {
        game: family.spec(),
        colors: family.colours,
        discs: family.discs,
        white: family.white,
        black: family.black,
        rule: family.rule.name(),
        boards: Big(boards),
        solved: results.len(),
        sampled,
        family_boards: Big(family.boards()),
        first_wins: Big(tally[0]),
        draws: Big(tally[1]),
        second_wins: Big(tally[2]),
        first_wins_pct: fp,
        draws_pct: dp,
        second_wins_pct: sp,
        positions_max: positions.iter().copied().max().unwrap_or(0),
        positions_mean: positions.iter().sum::<usize>() as f64 / positions.len().max(1) as f64,
        seconds,
        family,
        results,
    }
}

/// Solves every board of `family` (or one per class, or a sample) on all cores.
pub fn sweep(family: Family, choice: Choice, progress: &dyn Progress) -> Sweep {
    let started = Instant::now();
    let mut boards = if choice.every_board {
        family.all()
    } else {
        family.classes()
    };
    let sampled = choice.sample.is_some_and(|n| n < boards.len());
    if let Some(n) = choice.sample.filter(|_| sampled) {
        let len = boards.len();
        boards = (0..n).map(|i| boards[i * len / n].clone()).collect();
    }
    progress.start(&family.spec(), boards.len() as u64);
    let results = match family.rule {
        Rule::Study => solve_all(&family, boards, &StudyRule, progress),
        Rule::Margin => solve_all(&family, boards, &MarginRule, progress),
    };
    let weight = if choice.every_board {
        1
    } else {
        u128::from(family.class_size())
    };
    totals(family, results, weight, sampled, started.elapsed().as_secs_f64())
}

/// Solves `boards` on all cores under `rule`, each thread reusing one flat table from
/// board to board.
fn solve_all<R: DecisionRule>(
    family: &Family,
    boards: Vec<Vec<u8>>,
    rule: &R,
    progress: &dyn Progress,
) -> Vec<(Vec<u8>, Solved)> {
    boards
        .into_par_iter()
        .map_init(WordTable::default, |table, board| {
            let g = family.game(&board);
            let (scores, positions) = g.solve_scores(rule, &g.start(), table);
            progress.advance(1);
            (board, Solved { scores, positions })
        })
        .collect()
}

/// The families to sweep: `spec` itself, or `spec`'s other keys with each `COLORSxDISCS`
/// of `configs`.
pub fn families(spec: &str, configs: &[String]) -> Result<Vec<Family>, Error> {
    let base: Spec = spec.parse()?;
    if base.name != "bigpoints" {
        return Err(Error::Unsupported(
            "balance is for Big Points families, e.g. bigpoints:colors=3,discs=2".into(),
        ));
    }
    if configs.is_empty() {
        if base.get("colors").is_none() && base.get("discs").is_none() {
            // The smallest study configuration, (2,2), when the spec names none.
            return families(spec, &["2x2".to_string()]);
        }
        return Ok(vec![Family::from_spec(&base)?]);
    }
    if base.get("colors").is_some() || base.get("discs").is_some() {
        return Err(Error::Unsupported(
            "--configs gives colors and discs; leave them out of the spec".into(),
        ));
    }
    let sep = if spec.contains(':') { ',' } else { ':' };
    configs
        .iter()
        .map(|c| {
            let (nc, nd) = c.trim().split_once(['x', 'X']).ok_or_else(|| {
                Error::Unsupported(format!("--configs {c}: expected COLORSxDISCS, e.g. 3x2"))
            })?;
            let spec: Spec = format!("{}{sep}colors={nc},discs={nd}", spec.trim()).parse()?;
            Family::from_spec(&spec)
        })
        .collect()
}

/// Sweeps every family of `spec` and `configs` (see [`families`]), one after another,
/// after checking that none lists too many boards.
pub fn balance(
    spec: &str,
    configs: &[String],
    choice: Choice,
    progress: &dyn Progress,
) -> Result<Balance, Error> {
    let families = families(spec, configs)?;
    let started = Instant::now();
    for f in &families {
        let listed = if choice.every_board {
            f.boards()
        } else {
            f.boards() / u128::from(f.class_size())
        };
        if listed > MAX_LISTED {
            return Err(Error::TooBig(format!(
                "{} has {listed} boards to list, more than {MAX_LISTED}; choose fewer colours or discs",
                f.spec()
            )));
        }
    }
    let configs = families.into_iter().map(|f| sweep(f, choice, progress)).collect();
    Ok(Balance {
        configs,
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_stand_for_every_board() {
        let spec = "bigpoints:colors=2,discs=3";
        let by_class = balance(spec, &[], Choice::default(), &()).unwrap();
        let every = Choice {
            every_board: true,
            sample: None,
        };
        let by_board = balance(spec, &[], every, &()).unwrap();
        let (a, b) = (&by_class.configs[0], &by_board.configs[0]);
        assert_eq!((a.boards, a.solved), (Big(20), 10));
        assert_eq!((b.boards, b.solved), (Big(20), 20));
        assert_eq!(
            (a.first_wins, a.draws, a.second_wins),
            (b.first_wins, b.draws, b.second_wins)
        );
        assert_eq!(a.rows().len(), 20);
        assert!(b.rows().iter().all(|r| r.first.is_some() && r.second.is_some()));
    }

    #[test]
    fn configs_and_samples() {
        let swept = balance("bigpoints", &["2x2".into(), "3x2".into()], Choice::default(), &()).unwrap();
        assert_eq!(swept.configs.len(), 2);
        assert_eq!(swept.configs[1].game, "bigpoints:colors=3,discs=2");
        let sample = Choice {
            every_board: false,
            sample: Some(3),
        };
        let sampled = balance("bigpoints:colors=3,discs=2", &[], sample, &()).unwrap();
        assert!(sampled.configs[0].sampled && sampled.configs[0].solved == 3);
        assert!(balance(
            "bigpoints:colors=2,discs=2",
            &["2x2".into()],
            Choice::default(),
            &()
        )
        .is_err());
        assert!(balance("bigpoints", &["2y2".into()], Choice::default(), &()).is_err());
        assert!(balance("nim", &[], Choice::default(), &()).is_err());
    }
}
