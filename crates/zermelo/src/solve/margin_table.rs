//! Retrograde analysis of score games whose remaining margin depends only on a numbered
//! part of the position, a set (in Dots and Boxes the lines drawn, not who holds which
//! box): one signed byte per set, every set solved after the larger sets its moves lead
//! to, the sets of one size on all cores. The table can be saved as a database of one
//! margin layer and probed in place.

use std::path::Path;
use std::sync::atomic::{AtomicI8, Ordering};
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::margin::{lead, through};
use super::Progress;
use crate::game::Scored;
use crate::table::db::{self, Database, Header, Layer};
use crate::Error;

/// The most ranks a margin table may have (one byte each while solving).
pub const MAX_RANKS: u64 = 1 << 24;

/// The high bits of a rank that split the table into groups solved in parallel.
const GROUP_BITS: u32 = 8;

/// One move from a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarginStep {
    /// The rank the move leads to: the set it leaves with more members.
    pub to: u64,
    /// The points the move gains the mover at once.
    pub gain: i32,
    /// Whether the mover moves again.
    pub again: bool,
}

/// A score game whose remaining margin is a function of a rank, the bits of a set, with
/// moves that always add members to the set; margins fit a signed byte.
pub trait MarginIndexed: Scored {
    /// The number of ranks, a power of two, when a table of them fits ([`MAX_RANKS`]);
    /// else `None`.
    fn margin_ranks(&self) -> Option<u64>;
    /// The rank of `p`.
    fn margin_rank(&self, p: &Self::Position) -> u64;
    /// The moves from `rank`, into `out` (cleared first).
    fn margin_steps(&self, rank: u64, out: &mut Vec<MarginStep>);
}

/// The remaining margin of a rank from its moves and the margins of the ranks they reach
/// (0 when it has no move).
fn best(steps: &[MarginStep], margin: impl Fn(u64) -> i32) -> i32 {
    steps
        .iter()
        .map(|s| {
            let m = margin(s.to);
            s.gain + if s.again { m } else { -m }
        })
        .max()
        .unwrap_or(0)
}

/// Solves every rank of `game`: the remaining margin of each for its mover. `None` when
/// the game has no table that fits.
///
/// The ranks sharing their high `GROUP_BITS` bits form a group; a move leads into the
/// same group (to a higher rank) or into a group whose high bits have more members. So
/// the groups are solved by decreasing number of high members, those with as many at
/// once, each from its highest rank down.
pub fn solve<G: MarginIndexed + Sync>(game: &G, progress: &dyn Progress) -> Option<Vec<i8>> {
    let ranks = game.margin_ranks()?;
    let bits = ranks.trailing_zeros();
    let high = bits.min(GROUP_BITS);
    let low = bits - high;
    progress.start("ranks of positions solved", ranks);
    let table: Vec<AtomicI8> = (0..ranks).map(|_| AtomicI8::new(0)).collect();
    let read = |r: u64| i32::from(table[r as usize].load(Ordering::Relaxed));
    for members in (0..=high).rev() {
        let groups: Vec<u64> = (0..1u64 << high).filter(|h| h.count_ones() == members).collect();
        groups.par_iter().for_each_init(Vec::new, |steps, &group| {
            for rank in (group << low..(group + 1) << low).rev() {
                game.margin_steps(rank, steps);
                table[rank as usize].store(best(steps, read) as i8, Ordering::Relaxed);
            }
            progress.advance(1 << low);
        });
    }
    Some(table.into_iter().map(AtomicI8::into_inner).collect())
}

/// The counts a saved margin table records.
pub const COUNTS: [&str; 4] = ["positions", "wins", "losses", "draws"];

/// Saves `table`, the solved margins of `spec` made by `solver`, at `path`.
pub fn write(path: &Path, spec: &str, solver: (&str, u32), table: &[i8]) -> Result<(), Error> {
    let count = |keep: fn(i8) -> bool| table.iter().filter(|&&m| keep(m)).count() as u64;
    let header = Header {
        spec: spec.into(),
        solver: solver.0.into(),
        solver_version: solver.1,
        ranks: table.len() as u64,
        counts: COUNTS
            .iter()
            .map(|n| n.to_string())
            .zip([
                table.len() as u64,
                count(|m| m > 0),
                count(|m| m < 0),
                count(|m| m == 0),
            ])
            .collect(),
        layers: vec![Layer::Margin],
        part: None,
    };
    db::write(path, &header, &|_, span, out| {
        out.extend(
            table[span.start as usize..span.end as usize]
                .iter()
                .map(|&m| m as u8),
        );
        Ok(())
    })
}

/// A solved margin table: in memory, or a saved database probed in place.
pub enum MarginTable {
    /// Just solved.
    Solved(Vec<i8>),
    /// Read from a database file.
    Saved(Arc<Database>),
}

impl MarginTable {
    /// The remaining margin of `rank` for its mover.
    pub fn remaining(&self, rank: u64) -> Result<i32, Error> {
        match self {
            MarginTable::Solved(t) => t.get(rank as usize).map(|&m| m.into()).ok_or_else(|| {
                Error::Unsupported(format!("rank {rank} is beyond the table's {} ranks", t.len()))
            }),
            MarginTable::Saved(db) => Ok(i32::from(db.entry(Layer::Margin, rank)? as i8)),
        }
    }

    /// The mover's final score lead in `p` under best play.
    pub fn margin<G: MarginIndexed>(&self, game: &G, p: &G::Position) -> Result<i32, Error> {
        Ok(lead(game, p, game.to_move(p)) + self.remaining(game.margin_rank(p))?)
    }

    /// Every legal move of `p` with the final score lead it leaves the mover of `p` under
    /// best play, best first.
    pub fn rank_moves<G: MarginIndexed>(
        &self,
        game: &G,
        p: &G::Position,
    ) -> Result<Vec<(G::Move, i32)>, Error> {
        let base = lead(game, p, game.to_move(p));
        let mut ranked = game
            .legal_moves(p)
            .into_iter()
            .map(|m| {
                let child = game.play(p, &m);
                let r = self.remaining(game.margin_rank(&child))?;
                Ok((m, base + through(game, p, &child, r)))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        ranked.sort_by_key(|(_, v)| -v);
        Ok(ranked)
    }
}

/// Re-solves `sample` random ranks of `db`, the saved margin table of `game`, from the
/// stored margins of the ranks their moves reach: how many were checked, or the first
/// that disagrees.
pub fn check_sample<G: MarginIndexed>(game: &G, db: &Database, sample: u64, seed: u64) -> Result<u64, Error> {
    let fail = |why: String| Error::Database {
        path: db.path().display().to_string(),
        why: why.into(),
    };
    let ranks = db.header().ranks;
    if game.margin_ranks() != Some(ranks) {
        return Err(fail(format!("is not a margin table of {} ranks", ranks)));
    }
    let stored = |rank: u64| Ok::<_, Error>(i32::from(db.entry(Layer::Margin, rank)? as i8));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut steps = Vec::new();
    for _ in 0..sample {
        let rank = rng.gen_range(0..ranks);
        game.margin_steps(rank, &mut steps);
        let children = steps
            .iter()
            .map(|s| Ok((s.to, stored(s.to)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let solved = best(&steps, |r| children.iter().find(|c| c.0 == r).map_or(0, |c| c.1));
        let held = stored(rank)?;
        if held != solved {
            return Err(fail(format!(
                "rank {rank} holds the margin {held}, but its moves give {solved}"
            )));
        }
    }
    Ok(sample)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::games::dots::{self, Dots, Lines, Position};
    use crate::solve::margin::{MarginSearch, MarginSolver};
    use crate::Game;

    /// The position with `rank`'s lines drawn, the boxes they close held by the first
    /// player, and `mover` to move.
    fn position(g: &Dots, rank: u64, mover: u8) -> Position {
        let lines = Lines([rank, 0, 0]);
        let closed = (0..g.box_count())
            .filter(|&b| g.sides(&lines, b) == 4)
            .fold(0, |m, b| m | 1 << b);
        Position {
            lines,
            boxes: [closed, 0],
            mover,
        }
    }

    #[test]
    fn every_position_of_2x2_boxes_has_the_plain_searchs_margin() {
        let g = Dots::square(3).unwrap();
        let table = solve(&g, &()).unwrap();
        assert_eq!(table.len(), 1 << 12);
        let mut plain = MarginSearch::new(&g);
        for rank in 0..1u64 << 12 {
            let p = position(&g, rank, (rank % 2) as u8);
            assert_eq!(
                i32::from(table[rank as usize]),
                plain.remaining(&p),
                "rank {rank}"
            );
        }
    }

    #[test]
    fn positions_of_2x3_and_3x3_boxes_have_the_exact_searchs_margin() {
        let mut rng = StdRng::seed_from_u64(7);
        for (rows, cols, samples) in [(3, 4, 2000), (4, 3, 200), (4, 4, 60)] {
            let g = Dots::new(rows, cols).unwrap();
            let table = MarginTable::Solved(solve(&g, &()).unwrap());
            let mut exact = dots::solver(&g);
            let lines = g.line_count() as u32;
            for i in 0..samples {
                // Mostly late positions, which a search answers quickly, and the start.
                let rank = if i == 0 {
                    0
                } else {
                    let drawn = rng.gen_range(lines / 2..=lines);
                    let mut r = 0u64;
                    while r.count_ones() < drawn {
                        r |= 1 << rng.gen_range(0..lines);
                    }
                    r
                };
                let p = position(&g, rank, 0);
                assert_eq!(
                    table.remaining(rank).unwrap(),
                    exact.remaining(&p),
                    "{rows} x {cols} dots, rank {rank}"
                );
            }
            let start = g.start();
            let ranked = table.rank_moves(&g, &start).unwrap();
            assert_eq!(ranked.len(), lines as usize);
            assert_eq!(ranked[0].1, exact.margin(&start));
        }
    }

    #[test]
    fn a_saved_table_reads_back_and_passes_its_sample_check() {
        let dir = std::env::temp_dir().join(format!("zermelo-margin-test-{}", std::process::id()));
        let path = dir.join("dots.zdb");
        let g = Dots::new(3, 4).unwrap();
        let solved = solve(&g, &()).unwrap();
        write(&path, "dots:rows=3,cols=4", ("retrograde-margin", 1), &solved).unwrap();
        let db = Database::open(&path).unwrap();
        assert_eq!(db.header().count("positions"), 1 << 17);
        assert_eq!(
            db.header().count("wins") + db.header().count("losses") + db.header().count("draws"),
            1 << 17
        );
        let saved = MarginTable::Saved(Arc::new(Database::open(&path).unwrap()));
        for rank in (0..1u64 << 17).step_by(997) {
            assert_eq!(saved.remaining(rank).unwrap(), i32::from(solved[rank as usize]));
        }
        assert_eq!(check_sample(&g, &db, 500, 3).unwrap(), 500);
        assert!(check_sample(&Dots::square(3).unwrap(), &db, 1, 3).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn boards_over_24_lines_have_no_table() {
        assert!(Dots::new(4, 5).unwrap().margin_ranks().is_none());
        assert!(solve(&Dots::square(5).unwrap(), &()).is_none());
    }
}
