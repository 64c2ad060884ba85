//! Backward induction level by level, for games whose positions form levels
//! ([`Levelled`]): the levels are solved from the highest down, each in parallel, every
//! position pulling its value from its already solved children. Positions whose moves
//! stay within their level (passes) are solved after the rest of their level.
//!
//! While solving, each rank holds one byte; the result is a [`CompactTable`]. Values
//! carry remoteness (the winner hurries, the loser delays) up to [`MAX_REMOTENESS`].

use std::ops::{Deref, DerefMut, Range};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use std::thread::{Scope, ScopedJoinHandle};

use rayon::prelude::*;

use super::{prefetch, Progress};
use crate::game::Levelled;
pub use crate::table::checkpoint::Checkpoints;
use crate::table::CompactTable;
use crate::value::Value;
use crate::Error;

/// The greatest remoteness the solver can store.
pub const MAX_REMOTENESS: u32 = 126;

/// Ranks solved per parallel work unit.
const CHUNK: u64 = 1 << 12;

/// How many listed positions a position's children are asked for from memory before
/// they are read.
const AHEAD: usize = 4;

/// A rank not (yet) solved, or no valid position.
const UNKNOWN: u8 = 0;
/// A drawn position.
const DRAW: u8 = u8::MAX;

fn encode(v: Value) -> u8 {
    match v {
        Value::Draw => DRAW,
        Value::Win(r) | Value::Lose(r) => {
            assert!(
                r <= MAX_REMOTENESS,
                "remoteness {r} is beyond the level solver's limit of {MAX_REMOTENESS}"
            );
            (1 + 2 * r + u32::from(matches!(v, Value::Win(_)))) as u8
        }
    }
}

/// The value a code of [`solve_codes`] stands for, `None` for no valid position.
pub fn decode(code: u8) -> Option<Value> {
    match code {
        UNKNOWN => None,
        DRAW => Some(Value::Draw),
        c => {
            let r = u32::from(c - 1) / 2;
            Some(if (c - 1) & 1 == 1 {
                Value::Win(r)
            } else {
                Value::Lose(r)
            })
        }
    }
}

/// Solves every valid position of `game`, returning the table of values by rank.
///
/// Panics when the game breaks the [`Levelled`] promise (a move leading to an unsolved
/// position) or a remoteness exceeds [`MAX_REMOTENESS`].
pub fn solve<G: Levelled + Sync>(game: &G, progress: &dyn Progress) -> CompactTable {
    let codes =
        solve_codes(game, progress, &mut (), None, &Alone).expect("a solve without checkpoints or cancel");
    CompactTable::from_bytes(codes, decode)
}

/// Does a batch of independent jobs (by their numbers): their results, as words.
pub type Work<'a> = dyn Fn(&[usize]) -> Vec<u64> + Sync + 'a;
/// Takes the results of a batch of jobs, as [`Work`] gave them.
pub type Collect<'a> = dyn FnMut(&[u64]) -> Result<(), Error> + 'a;

/// A level solve split across processes (the ranks of an MPI job): each solves its own
/// part of every level (an equal [`share`] of it), and the parts are shared before the
/// next level, so that every process has every level the next ones look up. The leader
/// (the first process) alone keeps checkpoints. Independent jobs (a study's boards) are
/// handed out by the leader ([`Partition::farm`]).
pub trait Partition: Send + Sync {
    /// This process's number among the processes, from 0, and their count.
    fn place(&self) -> (usize, usize);
    /// Fills `bytes` with the leader's on every process.
    fn broadcast(&self, bytes: &mut [u8]) -> Result<(), Error>;
    /// Fills `level` with every process's part, this process's being `part(level.len())`.
    fn gather(&self, level: &mut [u8]) -> Result<(), Error>;

    /// What the leader says (`said`, on the leader), on every process.
    fn agree(&self, said: bool) -> Result<bool, Error> {
        let mut byte = [u8::from(said)];
        self.broadcast(&mut byte)?;
        Ok(byte[0] == 1)
    }

    /// Whether this process keeps the checkpoints and reports.
    fn leads(&self) -> bool {
        self.place().0 == 0
    }
    /// This process's part of a level of `len` ranks, as offsets into the level.
    fn part(&self, len: usize) -> Range<usize> {
        let (index, count) = self.place();
        share(len, index, count)
    }
    /// What every process says (`said` here), by process: every process waits for all.
    fn poll(&self, said: bool) -> Result<Vec<bool>, Error> {
        let all = self.collect(&[u8::from(said)])?;
        Ok(all.into_iter().map(|b| b == 1).collect())
    }
    /// Every process's `mine` (the same length on all), one after the other by process,
    /// on every process.
    fn collect(&self, mine: &[u8]) -> Result<Vec<u8>, Error> {
        let (index, count) = self.place();
        let mut all = vec![0; mine.len() * count];
        all[mine.len() * index..mine.len() * (index + 1)].copy_from_slice(mine);
        self.gather(&mut all)?;
        Ok(all)
    }
    /// Does the independent jobs numbered `todo` across the processes: the leader hands
    /// them out `batch` at a time (by default as suits the processes) and the others do
    /// them with `work`; every batch's results, as `work` gives them, go to `take` on the
    /// leader as they come back. A process alone does them itself, `batch` at a time (by
    /// default all at once). Returns whether this process took the results.
    fn farm(
        &self,
        todo: &[usize],
        batch: Option<usize>,
        work: &Work<'_>,
        take: &mut Collect<'_>,
    ) -> Result<bool, Error> {
        for chunk in todo.chunks(batch.unwrap_or(usize::MAX).max(1)) {
            take(&work(chunk))?;
        }
        Ok(true)
    }
}

/// The share of process `index` of `count` in a level of `len` ranks: equal parts, in
/// the order of the processes.
pub fn share(len: usize, index: usize, count: usize) -> Range<usize> {
    len * index / count..len * (index + 1) / count
}

/// The ranks of `game` this process solves under `partition`: its part of every level,
/// in the order of the ranks.
pub fn part_ranks<G: Levelled>(game: &G, partition: &dyn Partition) -> Vec<Range<u64>> {
    let mut ranks: Vec<Range<u64>> = (0..game.levels())
        .map(|level| {
            let whole = game.level_ranks(level);
            let mine = partition.part((whole.end - whole.start) as usize);
            whole.start + mine.start as u64..whole.start + mine.end as u64
        })
        .collect();
    ranks.sort_by_key(|r| r.start);
    ranks
}

/// The most ranks a process holds in memory at once while it solves its part of `game`
/// with [`solve_share`] among `count` processes: the levels the children of the level
/// being solved lie in and, unless it is `spilled` to a file, its part of the table.
pub fn held_ranks<G: Levelled>(game: &G, count: usize, spilled: bool) -> u64 {
    let levels = game.levels();
    let start = |level: usize| game.level_ranks(level.min(levels - 1)).start;
    let end = |level: usize| game.level_ranks(level.min(levels - 1)).end;
    let window = (0..levels)
        .map(|level| end(level + game.reach()) - start(level))
        .max()
        .unwrap_or(0);
    let part = if spilled {
        0
    } else {
        game.size().div_ceil(count as u64)
    };
    part + window
}

/// One process's part of a level solve split across processes: its share of every level.
pub struct LevelShare {
    /// The ranks held, one range a level, in order.
    pub ranges: Vec<Range<u64>>,
    /// Their codes ([`decode`] reads them), range after range.
    pub codes: ShareCodes,
}

impl LevelShare {
    /// The code of `rank`; that of no valid position when this part does not hold it.
    pub fn code(&self, rank: u64) -> u8 {
        let mut at = 0;
        for r in &self.ranges {
            if r.contains(&rank) {
                return self.codes[at + (rank - r.start) as usize];
            }
            at += (r.end - r.start) as usize;
        }
        UNKNOWN
    }
}

/// The codes of a [`LevelShare`]: in memory, or in a file mapped into memory (removed
/// with them), whose pages the system writes out and takes back as each level is done.
pub enum ShareCodes {
    /// In memory.
    Held(Vec<u8>),
    /// In the file at the path.
    Spilled(memmap2::MmapMut, PathBuf),
}

impl ShareCodes {
    /// Room for `len` codes, every one written before it is read: in memory or, given
    /// `spill` (and any codes), in a new file there.
    fn new(len: usize, spill: Option<&Path>) -> Result<ShareCodes, Error> {
        let Some(path) = spill.filter(|_| len > 0) else {
            return Ok(ShareCodes::Held(vec![UNKNOWN; len]));
        };
        let failed = |e: std::io::Error| Error::Io(format!("{}: {e}", path.display()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(failed)?;
        file.set_len(len as u64).map_err(failed)?;
        // SAFETY: the file was just made for this share and nothing else maps or writes it.
        let map = unsafe { memmap2::MmapMut::map_mut(&file) }.map_err(failed)?;
        Ok(ShareCodes::Spilled(map, path.to_path_buf()))
    }
}

impl Deref for ShareCodes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            ShareCodes::Held(codes) => codes,
            ShareCodes::Spilled(map, _) => map,
        }
    }
}

impl DerefMut for ShareCodes {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            ShareCodes::Held(codes) => codes,
            ShareCodes::Spilled(map, _) => map,
        }
    }
}

impl Drop for ShareCodes {
    fn drop(&mut self) {
        if let ShareCodes::Spilled(_, path) = self {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// One process solving everything.
pub struct Alone;

impl Partition for Alone {
    fn place(&self) -> (usize, usize) {
        (0, 1)
    }
    fn broadcast(&self, _: &mut [u8]) -> Result<(), Error> {
        Ok(())
    }
    fn gather(&self, _: &mut [u8]) -> Result<(), Error> {
        Ok(())
    }
}

/// Solves every valid position of `game` into one code per rank ([`decode`] reads them),
/// restoring the levels `checkpoints` kept and keeping every level it solves; this
/// process solves its `partition`'s part of each level. Stops with [`Error::Cancelled`]
/// between two chunks once `cancel` is set.
pub fn solve_codes<G: Levelled + Sync>(
    game: &G,
    progress: &dyn Progress,
    checkpoints: &mut (dyn Checkpoints + Send),
    cancel: Option<&AtomicBool>,
    partition: &dyn Partition,
) -> Result<Vec<u8>, Error> {
    solve_levels(game, progress, checkpoints, cancel, partition, &mut |_, _| {})
}

/// Solves `game` like [`solve_codes`], but keeps only this process's part of every
/// level (its [`part_ranks`]): while a level is solved, the process holds the levels its
/// positions' children lie in (the next [`Levelled::reach`] levels) besides its part of
/// the levels solved before, and gives back the memory of the levels above
/// ([`held_ranks`]). Given `spill`, its part goes to a file there as each level is done
/// (removed with the [`LevelShare`]), so that it holds no more than those levels.
pub fn solve_share<G: Levelled + Sync>(
    game: &G,
    progress: &dyn Progress,
    checkpoints: &mut (dyn Checkpoints + Send),
    cancel: Option<&AtomicBool>,
    partition: &dyn Partition,
    spill: Option<&Path>,
) -> Result<LevelShare, Error> {
    // One range a level, in the order of the levels, whose ranks come in order.
    let ranges = part_ranks(game, partition);
    let mut offsets = Vec::with_capacity(ranges.len());
    let mut held = 0;
    for r in &ranges {
        offsets.push(held);
        held += (r.end - r.start) as usize;
    }
    let mut mine = ShareCodes::new(held, spill)?;
    let spilled = matches!(mine, ShareCodes::Spilled(..));
    let levels = game.levels();
    let mut done = |level: usize, codes: &mut [u8]| {
        let r = &ranges[level];
        let at = offsets[level];
        let kept = &mut mine[at..at + (r.end - r.start) as usize];
        kept.copy_from_slice(&codes[r.start as usize..r.end as usize]);
        if spilled {
            // The file keeps them; the system writes them out when it needs the room.
            super::release(kept);
        }
        // The next level down looks no higher than `level - 1 + reach`.
        let above = level + game.reach();
        if above < levels {
            super::release(&mut codes[game.level_ranks(above).start as usize..]);
        }
    };
    solve_levels(game, progress, checkpoints, cancel, partition, &mut done)?;
    Ok(LevelShare { ranges, codes: mine })
}

/// [`solve_codes`], handing every level to `done` with all codes once it is solved.
fn solve_levels<G: Levelled + Sync>(
    game: &G,
    progress: &dyn Progress,
    checkpoints: &mut (dyn Checkpoints + Send),
    cancel: Option<&AtomicBool>,
    partition: &dyn Partition,
    done: &mut dyn FnMut(usize, &mut [u8]),
) -> Result<Vec<u8>, Error> {
    std::thread::scope(|scope| {
        let mut keeper = Keeper {
            scope,
            keeps: checkpoints.keeps(),
            idle: Some(checkpoints),
            busy: None,
        };
        let solved = solve_kept(game, progress, &mut keeper, cancel, partition, done);
        keeper.wait()?;
        solved
    })
}

/// [`solve_levels`], keeping levels through `keeper`.
fn solve_kept<G: Levelled + Sync>(
    game: &G,
    progress: &dyn Progress,
    keeper: &mut Keeper<'_, '_>,
    cancel: Option<&AtomicBool>,
    partition: &dyn Partition,
    done: &mut dyn FnMut(usize, &mut [u8]),
) -> Result<Vec<u8>, Error> {
    let size = game.size();
    let mut codes = vec![UNKNOWN; size as usize];
    super::advise_huge_pages(&mut codes);
    let lifts = Lifts::new();
    let stopped = || cancel.is_some_and(|c| c.load(Relaxed));
    progress.start("positions solved, level by level", size);
    let mut restoring = true;
    for level in (0..game.levels()).rev() {
        let whole = game.level_ranks(level);
        let span = whole.start as usize..whole.end as usize;
        if restoring {
            let found = keeper.restore(level, &mut codes[span.clone()])?;
            restoring = partition.agree(found)?;
            if restoring {
                partition.broadcast(&mut codes[span.clone()])?;
                progress.advance(whole.end - whole.start);
                done(level, &mut codes);
                continue;
            }
        }
        let mine = partition.part(span.len());
        let ranks = whole.start + mine.start as u64..whole.start + mine.end as u64;
        let cells = as_atomic(&mut codes);
        let first_chunk = ranks.start / CHUNK;
        let deferred: Vec<u64> = (first_chunk..ranks.end.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|chunk| {
                let mut deferred = Vec::new();
                if stopped() {
                    return deferred;
                }
                let lo = (chunk * CHUNK).max(ranks.start);
                let hi = ((chunk + 1) * CHUNK).min(ranks.end);
                // Each position's children are listed and asked for from memory while the
                // positions before it are valued, so that the table's cache misses overlap
                // with work: a position is valued `AHEAD` listed positions later.
                let mut ring: [Scratch<G>; AHEAD] = std::array::from_fn(|_| Scratch::default());
                let mut turn = 0;
                let mut value = |slot: &Scratch<G>| {
                    if slot.children.is_empty() {
                        return;
                    }
                    match combine(&lifts, cells, &slot.children) {
                        Some(code) => cells[slot.rank as usize].store(code, Relaxed),
                        None => deferred.push(slot.rank),
                    }
                };
                let mut visit = |rank, p| {
                    let slot = &mut ring[turn % AHEAD];
                    value(slot);
                    slot.children.clear();
                    if let Some(code) = expand(game, p, slot) {
                        cells[rank as usize].store(code, Relaxed);
                        return;
                    }
                    slot.rank = rank;
                    for &(child, _) in &slot.children {
                        prefetch(&cells[child as usize]);
                    }
                    turn += 1;
                };
                game.for_each_position(lo..hi, &mut visit);
                for slot in &ring {
                    value(slot);
                }
                progress.advance(hi - lo);
                deferred
            })
            .collect();
        if stopped() {
            return Err(Error::Cancelled);
        }
        // Deferred positions need the others' parts of this level; the second gather
        // brings in the others' deferred positions.
        partition.gather(&mut codes[span.clone()])?;
        let cells = as_atomic(&mut codes);
        deferred
            .par_iter()
            .for_each_init(Scratch::default, |scratch, &rank| {
                let code = evaluate(game, &lifts, cells, game.unrank(rank), scratch)
                    .expect("a move within a level leads to a position whose moves all lead higher");
                cells[rank as usize].store(code, Relaxed);
            });
        partition.gather(&mut codes[span.clone()])?;
        progress.advance((span.len() - mine.len()) as u64);
        keeper.keep(level, &codes[span])?;
        done(level, &mut codes);
    }
    Ok(codes)
}

/// Keeps each solved level in the background while the next one is solved.
struct Keeper<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    /// Whether the checkpoints keep anything.
    keeps: bool,
    /// The checkpoints, while no level is being kept.
    idle: Option<&'env mut (dyn Checkpoints + Send)>,
    /// The level being kept, handing the checkpoints back when done.
    busy: Option<ScopedJoinHandle<'scope, Kept<'env>>>,
}

/// The checkpoints after keeping a level, and how that went.
type Kept<'env> = (&'env mut (dyn Checkpoints + Send), Result<(), Error>);

impl<'scope, 'env> Keeper<'scope, 'env> {
    fn restore(&mut self, level: usize, codes: &mut [u8]) -> Result<bool, Error> {
        self.wait()?;
        Ok(self.checkpoints().restore(level, codes))
    }

    /// Starts keeping `codes`, the solved `level`, once the level before it is kept.
    fn keep(&mut self, level: usize, codes: &[u8]) -> Result<(), Error> {
        if !self.keeps {
            return Ok(());
        }
        self.wait()?;
        let codes = codes.to_vec();
        let checkpoints = self.idle.take().expect("checkpoints between two levels");
        self.busy = Some(self.scope.spawn(move || {
            let kept = checkpoints.keep(level, &codes);
            (checkpoints, kept)
        }));
        Ok(())
    }

    /// Waits until the level being kept is kept.
    fn wait(&mut self) -> Result<(), Error> {
        let Some(busy) = self.busy.take() else {
            return Ok(());
        };
        let (checkpoints, kept) = busy.join().expect("keeping a level does not panic");
        self.idle = Some(checkpoints);
        kept
    }

    fn checkpoints(&mut self) -> &mut (dyn Checkpoints + Send) {
        self.idle.as_deref_mut().expect("checkpoints between two levels")
    }
}

/// The code of position `p` from its children's codes; `None` while a child is unsolved.
/// Ranks that are no valid position get [`UNKNOWN`].
fn evaluate<G: Levelled>(
    game: &G,
    lifts: &Lifts,
    cells: &[AtomicU8],
    p: Option<G::Position>,
    scratch: &mut Scratch<G>,
) -> Option<u8> {
    expand(game, p, scratch).or_else(|| combine(lifts, cells, &scratch.children))
}

/// The code of `p` when it needs no children ([`UNKNOWN`] for no valid position, or a
/// finished game's); otherwise `None`, with its children listed in `scratch`.
fn expand<G: Levelled>(game: &G, p: Option<G::Position>, scratch: &mut Scratch<G>) -> Option<u8> {
    let Some(p) = p else {
        return Some(UNKNOWN);
    };
    if let Some(outcome) = game.outcome(&p) {
        return Some(encode(Value::terminal(outcome, game.to_move(&p))));
    }
    scratch.children.clear();
    game.child_ranks(&p, &mut scratch.moves, &mut scratch.children);
    if scratch.children.is_empty() {
        // No move at all: a draw, told apart from "nothing listed yet" by a child-less
        // code.
        return Some(DRAW);
    }
    None
}

/// The code of a position from its children's; `None` while a child is unsolved.
fn combine(lifts: &Lifts, cells: &[AtomicU8], children: &[(u64, bool)]) -> Option<u8> {
    let mut best: Option<u8> = None;
    for &(child, same_mover) in children {
        let code = cells[child as usize].load(Relaxed);
        if code == UNKNOWN {
            return None;
        }
        let lifted = lifts.parent[usize::from(same_mover)][code as usize];
        if best.is_none_or(|b| lifts.order[lifted as usize] > lifts.order[b as usize]) {
            best = Some(lifted);
        }
    }
    match best {
        None => Some(DRAW),
        Some(UNKNOWN) => panic!("a remoteness is beyond the level solver's limit of {MAX_REMOTENESS}"),
        Some(code) => Some(code),
    }
}

/// Tables over codes: the parent's code from a child's, and the order of codes from the
/// mover's point of view (a lift beyond the remoteness limit gives [`UNKNOWN`], which
/// orders above everything so that it cannot go unnoticed).
struct Lifts {
    parent: [[u8; 256]; 2],
    order: [u32; 256],
}

impl Lifts {
    fn new() -> Self {
        let mut lifts = Lifts {
            parent: [[UNKNOWN; 256]; 2],
            order: [0; 256],
        };
        lifts.order[UNKNOWN as usize] = u32::MAX;
        for code in 1..=u8::MAX {
            let v = decode(code).expect("a known code");
            lifts.order[code as usize] = (v.score() - Value::Lose(0).score()) as u32;
            for same_mover in [false, true] {
                let lifted = Value::from_child(v, same_mover);
                if lifted.remoteness().is_none_or(|r| r <= MAX_REMOTENESS) {
                    lifts.parent[usize::from(same_mover)][code as usize] = encode(lifted);
                }
            }
        }
        lifts
    }
}

/// Buffers a worker reuses from position to position: the children of the position of
/// `rank`, when some are listed.
struct Scratch<G: Levelled> {
    moves: Vec<G::Move>,
    children: Vec<(u64, bool)>,
    rank: u64,
}

impl<G: Levelled> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            children: Vec::new(),
            rank: 0,
        }
    }
}

/// The bytes seen as atomics, so that parallel workers may write their own ranks while
/// reading others'.
fn as_atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size and alignment of `u8`, and the exclusive borrow
    // keeps every other access away while the atomic view lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier, Mutex};

    use super::*;
    use crate::games::pawns::Pawns;

    /// Processes played by threads, meeting at a barrier around a shared buffer.
    struct Threads {
        index: usize,
        count: usize,
        barrier: Arc<Barrier>,
        shared: Arc<Mutex<Vec<u8>>>,
    }

    impl Threads {
        /// Runs `step` between two meetings of every thread.
        fn meet(&self, step: impl FnOnce(&mut Vec<u8>)) {
            self.barrier.wait();
            step(&mut self.shared.lock().unwrap());
            self.barrier.wait();
        }
    }

    impl Partition for Threads {
        fn place(&self) -> (usize, usize) {
            (self.index, self.count)
        }
        fn broadcast(&self, bytes: &mut [u8]) -> Result<(), Error> {
            self.meet(|b| {
                if self.leads() {
                    *b = bytes.to_vec();
                }
            });
            self.meet(|b| bytes.copy_from_slice(b));
            Ok(())
        }
        fn gather(&self, level: &mut [u8]) -> Result<(), Error> {
            self.meet(|b| {
                if self.leads() {
                    *b = vec![0; level.len()];
                }
            });
            let mine = self.part(level.len());
            self.meet(|b| b[mine.clone()].copy_from_slice(&level[mine]));
            self.meet(|b| level.copy_from_slice(b));
            Ok(())
        }
    }

    /// Runs `solve` on `count` processes played by threads, their results by process.
    fn on_threads<T: Send>(count: usize, solve: impl Fn(&Threads) -> T + Sync) -> Vec<T> {
        let barrier = Arc::new(Barrier::new(count));
        let shared = Arc::new(Mutex::new(Vec::new()));
        std::thread::scope(|scope| {
            let runs: Vec<_> = (0..count)
                .map(|index| {
                    let part = Threads {
                        index,
                        count,
                        barrier: barrier.clone(),
                        shared: shared.clone(),
                    };
                    let solve = &solve;
                    scope.spawn(move || solve(&part))
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        })
    }

    #[test]
    fn a_solve_split_in_parts_equals_one_solve() {
        let game = Pawns::new(4, 5, 0).unwrap();
        let alone = solve_codes(&game, &(), &mut (), None, &Alone).unwrap();
        for count in [2, 3] {
            let parts = on_threads(count, |part| {
                solve_codes(&game, &(), &mut (), None, part).unwrap()
            });
            for codes in parts {
                assert!(codes == alone, "{count} parts differ from one solve");
            }
        }
    }

    #[test]
    fn shares_hold_the_ranks_of_one_solve_once() {
        // Big enough that levels above the reach hold whole memory pages to give back.
        let game = Pawns::new(5, 6, 0).unwrap();
        assert!(game.reach() + 1 < game.levels());
        let alone = solve_codes(&game, &(), &mut (), None, &Alone).unwrap();
        let folder = std::env::temp_dir().join(format!("zermelo-shares-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        for (count, spilled) in [(2, false), (3, false), (2, true), (3, true)] {
            let spill = |index: usize| folder.join(format!("{count}-{index}.share"));
            let shares = on_threads(count, |part| {
                let path = spilled.then(|| spill(part.place().0));
                solve_share(&game, &(), &mut (), None, part, path.as_deref()).unwrap()
            });
            let mut seen = vec![false; alone.len()];
            for share in &shares {
                let mut codes = share.codes.iter();
                for rank in share.ranges.iter().flat_map(|r| r.clone()) {
                    assert!(!seen[rank as usize], "rank {rank} held twice");
                    seen[rank as usize] = true;
                    assert_eq!(codes.next(), Some(&alone[rank as usize]), "rank {rank}");
                    assert_eq!(share.code(rank), alone[rank as usize]);
                }
                assert_eq!(codes.next(), None);
            }
            assert!(seen.iter().all(|&s| s), "{count} shares miss a rank");
            assert_eq!(spill(0).exists(), spilled);
            drop(shares);
            assert!(!spill(0).exists(), "a share's file goes with it");
        }
        std::fs::remove_dir(&folder).unwrap();
    }

    #[test]
    fn codes_round_trip() {
        for v in [
            Value::Win(0),
            Value::Win(126),
            Value::Lose(0),
            Value::Lose(126),
            Value::Draw,
        ] {
            assert_eq!(decode(encode(v)), Some(v));
        }
        assert_eq!(decode(UNKNOWN), None);
    }
}
