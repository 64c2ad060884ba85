//! The Big Points sweep (the study `zermelo balance` runs on Big Points): every
//! arrangement of reduced boards solved exactly, in parallel, and how often the first
//! player wins, draws or loses.
//!
//! Relabelling the colours maps a board onto boards with the same reachable positions,
//! result and winner's score (see [`BoardFamily`]), so by default one board per class is
//! solved and counts for all `colors!` boards of its class. The loser's score under the
//! study rule, and both scores under the margin rule, can depend on the move order; the
//! rows leave them out for boards not solved themselves (`every_board` solves them all).
//! A `sample` solves that many evenly spaced boards (or classes) of each family, for an
//! estimate of families too big to sweep.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::{BoardFamily, Rule, SolveMemory, SweepMemory, SWEEP_TABLE_BYTES};
use crate::session::Big;
use crate::solve::levels::{Alone, Partition};
use crate::solve::scores::Scores;
use crate::solve::Progress;
use crate::Class;
use crate::{Error, Game, Spec};

/// The most boards (or classes) a sweep lists, sampled or not.
pub const MAX_LISTED: u128 = 20_000_000;

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
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct FamilySweep {
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
    /// Wall-clock seconds (split across processes: from its first board handed out to its
    /// last result back).
    pub seconds: f64,
    #[serde(skip)]
    family: BoardFamily,
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
    /// Who wins, for the first player.
    pub result: Class,
    /// Positions its solve (or its class's) stored.
    pub positions: usize,
}

/// Every family swept.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// One sweep per family, in the order given.
    pub configs: Vec<FamilySweep>,
    /// Wall-clock seconds in all.
    pub seconds: f64,
}

impl FamilySweep {
    /// One row per board of the family, in lexicographic order (boards outside a sample
    /// are left out).
    pub fn rows(&self) -> Vec<BoardRow> {
        let f = &self.family;
        let by_board: HashMap<&[u8], &Solved> = self.results.iter().map(|(b, s)| (b.as_slice(), s)).collect();
        f.all()
            .into_iter()
            .filter_map(|board| {
                let class = BoardFamily::representative(&board);
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
                    board: BoardFamily::format(&board),
                    class: BoardFamily::format(&class),
                    first: known(a, b).then_some(a),
                    second: known(b, a).then_some(b),
                    result: Class::of_lead(a - b),
                    positions: s.positions,
                })
            })
            .collect()
    }
}

/// The totals of `results`, each standing for `weight` boards.
fn totals(
    family: BoardFamily,
    results: Vec<(Vec<u8>, Solved)>,
    weight: u128,
    sampled: bool,
    seconds: f64,
) -> FamilySweep {
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
    FamilySweep {
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

/// Whether `spec` names a sweep of Big Points arrangements (`bigpoints`, alone or with
/// `colors`, `discs` and the keys of a reduced game) rather than one game or a family of
/// other games.
pub fn is_sweep(spec: &str) -> bool {
    spec.parse::<crate::spec::Family>()
        .is_ok_and(|f| f.name == "bigpoints" && f.values("board").is_none() && f.values("players").is_none())
}

/// The families to sweep: `spec` itself (its `colors` and `discs` may range, e.g.
/// `colors=2..3,discs=2|4`: one family per combination), or `spec`'s other keys with each
/// `COLORSxDISCS` of `configs`.
pub fn families(spec: &str, configs: &[String]) -> Result<Vec<BoardFamily>, Error> {
    let ranged: crate::spec::Family = spec.parse()?;
    if let Some(bad) = ranged
        .varying()
        .into_iter()
        .find(|k| !matches!(*k, "colors" | "discs"))
    {
        return Err(Error::Spec(format!(
            "only colors and discs range in a Big Points sweep, not {bad}"
        )));
    }
    if !ranged.varying().is_empty() && ranged.name == "bigpoints" {
        if !configs.is_empty() {
            return Err(Error::Unsupported(
                "configs gives colors and discs; leave them out of the spec".into(),
            ));
        }
        let families = ranged
            .members()
            .iter()
            .map(|m| BoardFamily::from_spec(&m.spec))
            .collect::<Result<Vec<_>, Error>>()?;
        return Ok(families);
    }
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
        return Ok(vec![BoardFamily::from_spec(&base)?]);
    }
    if base.get("colors").is_some() || base.get("discs").is_some() {
        return Err(Error::Unsupported(
            "configs gives colors and discs; leave them out of the spec".into(),
        ));
    }
    let sep = if spec.contains(':') { ',' } else { ':' };
    let families = configs
        .iter()
        .map(|c| {
            let (nc, nd) = c
                .trim()
                .split_once(['x', 'X'])
                .ok_or_else(|| Error::Unsupported(format!("configs {c}: expected COLORSxDISCS, e.g. 3x2")))?;
            let spec: Spec = format!("{}{sep}colors={nc},discs={nd}", spec.trim()).parse()?;
            BoardFamily::from_spec(&spec)
        })
        .collect::<Result<Vec<_>, Error>>()?;
    for (i, f) in families.iter().enumerate() {
        if families[..i].contains(f) {
            return Err(Error::Unsupported(format!(
                "configs names ({},{}) twice ({}): give each configuration once",
                f.colours,
                f.discs,
                configs.join(",")
            )));
        }
    }
    Ok(families)
}

/// One solved board of a [`SweepPlan`], by its number in the plan: what a sweep's workers
/// hand back and what its checkpoints keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardResult {
    /// The board's number in the plan.
    pub index: usize,
    /// The final scores of the first and second player.
    pub scores: Scores,
    /// The positions its solve stored.
    pub positions: usize,
}

/// The work of a sweep: the boards to solve of every family, numbered from 0 in family
/// order then lexicographic order. Any part of it may be solved anywhere
/// ([`SweepPlan::solve`]) and the parts merged ([`SweepPlan::finish`]): the result does not
/// depend on how the work was split.
pub struct SweepPlan {
    families: Vec<BoardFamily>,
    choice: Choice,
    /// Per family, the boards to solve.
    boards: Vec<Vec<Vec<u8>>>,
    /// Per family, the number of its first board.
    starts: Vec<usize>,
    /// What the threads solving its boards share.
    memory: SweepMemory,
}

impl SweepPlan {
    /// The plan for the families of `spec` and `configs` (see [`families`]), after checking
    /// that none lists too many boards.
    pub fn new(spec: &str, configs: &[String], choice: Choice) -> Result<SweepPlan, Error> {
        let families = families(spec, configs)?;
        for f in &families {
            let listed = if choice.every_board {
                f.boards()
            } else {
                f.boards() / u128::from(f.class_size())
            };
            if listed > MAX_LISTED {
                return Err(Error::too_big(format!(
                    "{} has {listed} boards to list, more than {MAX_LISTED}; choose fewer colours or discs",
                    f.spec()
                )));
            }
        }
        let mut boards = Vec::new();
        let mut starts = Vec::new();
        let mut next = 0;
        for f in &families {
            let mut list = if choice.every_board { f.all() } else { f.classes() };
            if let Some(n) = choice.sample.filter(|&n| n < list.len()) {
                let len = list.len();
                list = (0..n).map(|i| list[i * len / n].clone()).collect();
            }
            starts.push(next);
            next += list.len();
            boards.push(list);
        }
        Ok(SweepPlan {
            families,
            choice,
            boards,
            starts,
            memory: SweepMemory::new(SWEEP_TABLE_BYTES),
        })
    }

    /// The same plan, its threads sharing a table of at most `bytes` (at least 4 MiB) of
    /// the positions they solved.
    pub fn with_table_bytes(mut self, bytes: u64) -> SweepPlan {
        self.memory = SweepMemory::new(bytes);
        self
    }

    /// The number of boards to solve.
    pub fn len(&self) -> usize {
        self.boards.iter().map(Vec::len).sum()
    }

    /// Whether there is no board to solve.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The numbers of each family's boards, in order.
    pub fn family_ranges(&self) -> Vec<Range<usize>> {
        self.starts
            .iter()
            .zip(&self.boards)
            .map(|(&s, b)| s..s + b.len())
            .collect()
    }

    /// The families' specs, in order.
    pub fn specs(&self) -> Vec<String> {
        self.families.iter().map(BoardFamily::spec).collect()
    }

    /// A line naming the plan: its families, which boards and how many. Checkpoints carry
    /// it, so that a file is only ever resumed by the same sweep.
    pub fn identity(&self) -> String {
        format!(
            "{} every_board={} sample={} boards={}",
            self.specs().join(" "),
            self.choice.every_board,
            self.choice.sample.map_or("-".to_string(), |n| n.to_string()),
            self.len()
        )
    }

    /// Board `index` and its family.
    fn board(&self, index: usize) -> (&BoardFamily, &[u8]) {
        let f = self.starts.partition_point(|&s| s <= index) - 1;
        (&self.families[f], &self.boards[f][index - self.starts[f]])
    }

    /// Solves the boards numbered `indices` on all cores, each thread reusing its solver's
    /// memory from board to board (and from call to call), and every thread the final
    /// scores of positions any of them solved for a board of the same kin.
    pub fn solve(&self, indices: &[usize], progress: &dyn Progress) -> Vec<BoardResult> {
        thread_local! {
            static MEMORY: RefCell<SolveMemory> = RefCell::new(SolveMemory::default());
        }
        indices
            .par_iter()
            .map(|&index| {
                let (family, board) = self.board(index);
                let g = family.game(board);
                let (scores, positions) =
                    MEMORY.with_borrow_mut(|memory| g.solve_sharing(&g.start(), memory, Some(&self.memory)));
                progress.advance(1);
                BoardResult {
                    index,
                    scores,
                    positions,
                }
            })
            .collect()
    }

    /// The sweeps from the results of every board, in any order (each board exactly once),
    /// with each family's wall-clock seconds and the total.
    pub fn finish(&self, mut results: Vec<BoardResult>, seconds: &[f64], total: f64) -> Result<Sweep, Error> {
        results.sort_unstable_by_key(|r| r.index);
        let complete = results.len() == self.len() && results.iter().enumerate().all(|(i, r)| r.index == i);
        if !complete {
            return Err(Error::Unsupported(format!(
                "the sweep has results for {} boards, not each of its {} boards once",
                results.len(),
                self.len()
            )));
        }
        let mut results = results.into_iter();
        let configs = self
            .families
            .iter()
            .zip(&self.boards)
            .zip(seconds)
            .map(|((&family, boards), &secs)| {
                let solved = boards
                    .iter()
                    .zip(results.by_ref())
                    .map(|(b, r)| {
                        let positions = r.positions;
                        (
                            b.clone(),
                            Solved {
                                scores: r.scores,
                                positions,
                            },
                        )
                    })
                    .collect();
                let listed = if self.choice.every_board {
                    family.boards()
                } else {
                    family.boards() / u128::from(family.class_size())
                };
                let weight = if self.choice.every_board {
                    1
                } else {
                    u128::from(family.class_size())
                };
                totals(family, solved, weight, (boards.len() as u128) < listed, secs)
            })
            .collect();
        Ok(Sweep {
            configs,
            seconds: total,
        })
    }
}

/// Sweeps every family of `spec` and `configs` (see [`families`]) on all cores of this
/// machine, one family after another.
pub fn sweep(
    spec: &str,
    configs: &[String],
    choice: Choice,
    progress: &dyn Progress,
) -> Result<Sweep, Error> {
    let sweep = SweepPlan::new(spec, configs, choice)?.run(None, None, &Alone, progress)?;
    Ok(sweep.expect("a process alone takes every result"))
}

/// Boards a sweep with a checkpoint solves between two records of it, by default.
pub const DEFAULT_BATCH: usize = 64;

impl SweepPlan {
    /// Solves the whole plan, one family after another: on all cores of this machine, or
    /// across the processes of `partition`, whose leader hands out the boards `batch` at a
    /// time. With a checkpoint, boards recorded there are not solved again, and the others
    /// are recorded batch by batch (alone, [`DEFAULT_BATCH`] at a time by default). `None`
    /// on a process that only solves boards for the leader.
    pub fn run(
        &self,
        checkpoint: Option<&Path>,
        batch: Option<usize>,
        partition: &dyn Partition,
        progress: &dyn Progress,
    ) -> Result<Option<Sweep>, Error> {
        let started = Instant::now();
        let alone = partition.place().1 == 1;
        let (mut file, mut results) = match checkpoint.filter(|_| partition.leads()) {
            Some(path) => {
                let (file, results) = Checkpoint::open(path, self)?;
                (Some(file), results)
            }
            None => (None, Vec::new()),
        };
        let batch = batch.or((alone && checkpoint.is_some()).then_some(DEFAULT_BATCH));
        // Every process plans the same work: the leader says which boards are left.
        let mut done = vec![0u8; self.len()];
        for r in &results {
            done[r.index] = 1;
        }
        partition.broadcast(&mut done)?;
        // Alone, boards are counted as they are solved; the leader of several counts each
        // batch that comes back.
        let mine: &dyn Progress = if alone { progress } else { &() };
        let work = |indices: &[usize]| encode(&self.solve(indices, mine));
        let mut seconds = Vec::new();
        let mut leads = true;
        for (spec, range) in self.specs().iter().zip(self.family_ranges()) {
            let t = Instant::now();
            let todo: Vec<usize> = range.clone().filter(|&i| done[i] == 0).collect();
            progress.start(spec, range.len() as u64);
            progress.advance((range.len() - todo.len()) as u64);
            let mut take = |words: &[u64]| {
                let solved = decode(words, self.len())
                    .ok_or_else(|| Error::Io("a process sent a damaged batch of results".into()))?;
                if let Some(file) = &mut file {
                    file.append(&solved)?;
                }
                if !alone {
                    progress.advance(solved.len() as u64);
                }
                results.extend(solved);
                Ok(())
            };
            leads = partition.farm(&todo, batch, &work, &mut take)?;
            seconds.push(t.elapsed().as_secs_f64());
        }
        if !leads {
            return Ok(None);
        }
        self.finish(results, &seconds, started.elapsed().as_secs_f64())
            .map(Some)
    }
}

/// Results as words: the board's number, both scores, the positions.
fn encode(results: &[BoardResult]) -> Vec<u64> {
    results
        .iter()
        .flat_map(|r| {
            [
                r.index as u64,
                r.scores[0] as i64 as u64,
                r.scores[1] as i64 as u64,
                r.positions as u64,
            ]
        })
        .collect()
}

/// The results in `words`, if they are whole and name boards of a plan of `len` boards.
fn decode(words: &[u64], len: usize) -> Option<Vec<BoardResult>> {
    if !words.len().is_multiple_of(4) {
        return None;
    }
    words
        .chunks(4)
        .map(|w| {
            let score = |v: u64| i32::try_from(v as i64).ok();
            ((w[0] as usize) < len).then_some(BoardResult {
                index: w[0] as usize,
                scores: [score(w[1])?, score(w[2])?],
                positions: w[3] as usize,
            })
        })
        .collect()
}

/// The first line of a checkpoint file, before the plan's identity.
const CHECKPOINT_MAGIC: &str = "zermelo balance checkpoint 1";

/// A file of solved boards that a sweep appends to batch by batch, so that a sweep that
/// was stopped, started again with the same plan, goes on from its last recorded batch.
/// Each batch is written in full and synced before the sweep goes on; a line cut short
/// by a crash is dropped when the file is opened again.
pub struct Checkpoint {
    file: std::fs::File,
    path: String,
}

impl Checkpoint {
    /// Opens (or creates) the checkpoint at `path` for `plan`, with the results it holds;
    /// refuses a file written for another plan, or damaged.
    pub fn open(path: &Path, plan: &SweepPlan) -> Result<(Checkpoint, Vec<BoardResult>), Error> {
        let name = path.display().to_string();
        let bad = |why: String| Error::Io(format!("checkpoint {name}: {why}"));
        let header = format!("{CHECKPOINT_MAGIC}\n{}\n", plan.identity());
        let mut file = crate::table::open_regular(
            path,
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .map_err(|e| bad(e.to_string()))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| bad(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| bad("not a checkpoint file".into()))?;
        let mut results = Vec::new();
        let mut seen = vec![false; plan.len()];
        // Only whole lines count: a crash may have cut the last one short (or the header).
        let mut kept = text.rfind('\n').map_or(0, |i| i + 1);
        if header.starts_with(&text[..kept]) {
            kept = 0;
        }
        if kept > 0 {
            let Some(body) = text[..kept].strip_prefix(&header) else {
                return Err(bad(format!(
                    "written for another sweep (it starts {:?}); remove it or name another file",
                    text.lines().take(2).collect::<Vec<_>>().join(" / ")
                )));
            };
            for (n, line) in body.lines().enumerate() {
                let r = parse_result(line)
                    .filter(|r| r.index < plan.len() && !seen[r.index])
                    .ok_or_else(|| bad(format!("line {} is damaged: {line:?}", n + 3)))?;
                seen[r.index] = true;
                results.push(r);
            }
        }
        file.set_len(kept as u64).map_err(|e| bad(e.to_string()))?;
        file.seek(SeekFrom::End(0)).map_err(|e| bad(e.to_string()))?;
        if kept == 0 {
            file.write_all(header.as_bytes())
                .map_err(|e| bad(e.to_string()))?;
        }
        Ok((Checkpoint { file, path: name }, results))
    }

    /// Appends a batch of results and syncs the file.
    pub fn append(&mut self, results: &[BoardResult]) -> Result<(), Error> {
        let mut text = String::new();
        for r in results {
            text += &format!("{} {} {} {}\n", r.index, r.scores[0], r.scores[1], r.positions);
        }
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| Error::Io(format!("checkpoint {}: {e}", self.path)))
    }
}

/// A checkpoint line: `index first second positions`.
fn parse_result(line: &str) -> Option<BoardResult> {
    let mut words = line.split(' ');
    let mut next = || words.next()?.parse::<i64>().ok();
    let r = BoardResult {
        index: usize::try_from(next()?).ok()?,
        scores: [i32::try_from(next()?).ok()?, i32::try_from(next()?).ok()?],
        positions: usize::try_from(next()?).ok()?,
    };
    words.next().is_none().then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_stand_for_every_board() {
        let spec = "bigpoints:colors=2,discs=3";
        let by_class = sweep(spec, &[], Choice::default(), &()).unwrap();
        let every = Choice {
            every_board: true,
            sample: None,
        };
        let by_board = sweep(spec, &[], every, &()).unwrap();
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
        let swept = sweep("bigpoints", &["2x2".into(), "3x2".into()], Choice::default(), &()).unwrap();
        assert_eq!(swept.configs.len(), 2);
        assert_eq!(swept.configs[1].game, "bigpoints:colors=3,discs=2");
        let sample = Choice {
            every_board: false,
            sample: Some(3),
        };
        let sampled = sweep("bigpoints:colors=3,discs=2", &[], sample, &()).unwrap();
        assert!(sampled.configs[0].sampled && sampled.configs[0].solved == 3);
        assert!(sweep(
            "bigpoints:colors=2,discs=2",
            &["2x2".into()],
            Choice::default(),
            &()
        )
        .is_err());
        assert!(sweep("bigpoints", &["2y2".into()], Choice::default(), &()).is_err());
        assert!(sweep("nim", &[], Choice::default(), &()).is_err());
    }

    /// The rows and totals of a sweep, without its timings.
    fn fingerprint(b: &Sweep) -> Vec<String> {
        b.configs
            .iter()
            .flat_map(|s| {
                let mut rows: Vec<String> = s.rows().iter().map(|r| format!("{r:?}")).collect();
                rows.push(format!(
                    "{} {:?} {:?} {:?} {} {}",
                    s.game, s.first_wins, s.draws, s.second_wins, s.positions_max, s.solved
                ));
                rows
            })
            .collect()
    }

    #[test]
    fn a_plan_solved_in_any_pieces_merges_to_the_same_sweep() {
        let configs = ["2x3".to_string(), "3x2".to_string()];
        let whole = sweep("bigpoints", &configs, Choice::default(), &()).unwrap();
        let plan = SweepPlan::new("bigpoints", &configs, Choice::default()).unwrap();
        assert_eq!(plan.len(), 10 + 15);
        assert_eq!(plan.family_ranges(), [0..10, 10..25]);
        // Odd numbers first, then even ones from the end, in batches of three.
        let order: Vec<usize> = (0..plan.len())
            .filter(|i| i % 2 == 1)
            .chain((0..plan.len()).rev().filter(|i| i % 2 == 0))
            .collect();
        let results: Vec<BoardResult> = order.chunks(3).flat_map(|c| plan.solve(c, &())).collect();
        let merged = plan.finish(results.clone(), &[0.0, 0.0], 0.0).unwrap();
        assert_eq!(fingerprint(&merged), fingerprint(&whole));
        // A board missing or given twice is refused.
        assert!(plan.finish(results[1..].to_vec(), &[0.0, 0.0], 0.0).is_err());
        let mut twice = results.clone();
        twice[0] = twice[1];
        assert!(plan.finish(twice, &[0.0, 0.0], 0.0).is_err());
    }

    #[test]
    fn a_checkpoint_resumes_a_stopped_sweep() {
        let dir = std::env::temp_dir().join(format!("zermelo-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sweep.ckpt");
        let plan = SweepPlan::new("bigpoints:colors=3,discs=2", &[], Choice::default()).unwrap();
        let whole = plan.run(None, None, &Alone, &()).unwrap().unwrap();
        // A sweep stopped after two batches of four, the last line cut short by the stop.
        let (mut file, held) = Checkpoint::open(&path, &plan).unwrap();
        assert!(held.is_empty());
        file.append(&plan.solve(&[0, 1, 2, 3], &())).unwrap();
        file.append(&plan.solve(&[4, 5, 6, 7], &())).unwrap();
        drop(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 3]).unwrap();
        let (_, held) = Checkpoint::open(&path, &plan).unwrap();
        assert_eq!(held.len(), 7);
        let resumed = plan.run(Some(&path), Some(3), &Alone, &()).unwrap().unwrap();
        assert_eq!(fingerprint(&resumed), fingerprint(&whole));
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert_eq!(lines, 2 + plan.len());
        // Run again: everything is in the file already.
        assert_eq!(
            fingerprint(&plan.run(Some(&path), Some(3), &Alone, &()).unwrap().unwrap()),
            fingerprint(&whole)
        );
        // Another sweep's file, or a damaged one, is refused.
        let other = SweepPlan::new("bigpoints:colors=2,discs=2", &[], Choice::default()).unwrap();
        let err = Checkpoint::open(&path, &other).err().unwrap().to_string();
        assert!(err.contains("another sweep"), "{err}");
        std::fs::write(&path, text.replace("\n5 ", "\nfive ")).unwrap();
        let err = Checkpoint::open(&path, &plan).err().unwrap().to_string();
        assert!(err.contains("damaged"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
