//! `zermelo balance` across the ranks of an MPI job (the `mpi` feature): rank 0 plans the
//! sweep, hands out batches of board numbers to the other ranks as they ask for work,
//! records every batch that comes back in the checkpoint, and renders the result; the
//! other ranks solve the batches on all their cores. The driver knows no game: it moves
//! board numbers and [`BoardResult`]s of the library's [`Plan`].

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Tag;
use zermelo::games::bigpoints::balance::{Balance, BoardResult, Checkpoint, Plan};
use zermelo::solve::levels::Partition;
use zermelo::solve::Progress;

use crate::balance::Driver;
use crate::mpi_levels::Levels;

/// Results (or, empty, a request for work) from a worker to rank 0.
const RESULTS: Tag = 1;
/// A batch of board numbers from rank 0 to a worker; empty: no more work.
const BATCH: Tag = 2;
/// The most boards rank 0 hands out at a time when `--batch` is not given.
const MAX_BATCH: usize = 256;
/// How long rank 0 sleeps between looks for messages (a blocking receive would spin).
const POLL: Duration = Duration::from_millis(2);
/// How long a rank other than 0 waits, after an error, for rank 0's abort to end the job.
const ABORT_DELAY: Duration = Duration::from_secs(3);

/// Variables an MPI launcher sets in the processes it starts: OpenMPI's `mpirun`, PMIx
/// launchers (`srun --mpi=pmix`), and PMI ones (MPICH's and Intel MPI's `mpiexec`,
/// `srun --mpi=pmi2`).
const LAUNCHED: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"];

/// This process's part in an MPI job of more than one rank.
pub struct Cluster {
    /// Keeps MPI initialised; finalised when dropped.
    _universe: Universe,
    world: SimpleCommunicator,
}

impl Cluster {
    /// Joins the MPI job this process was started in: `None` when it is alone (no
    /// `mpirun`, or `-n 1`). Only `balance` and `solve` (`splits`) run on several ranks.
    pub fn join(splits: bool) -> Result<Option<Cluster>> {
        // A process no launcher started is alone, and starts no MPI at all.
        if !LAUNCHED.iter().any(|v| std::env::var_os(v).is_some()) {
            return Ok(None);
        }
        let Some(universe) = mpi::initialize() else {
            bail!("MPI was already initialised");
        };
        let world = universe.world();
        if world.size() == 1 {
            return Ok(None);
        }
        if !splits {
            if world.rank() != 0 {
                // Rank 0 says why; the others only stop.
                std::process::exit(1);
            }
            bail!("only `zermelo balance` and `zermelo solve` run on several MPI ranks; run other commands without mpirun");
        }
        Ok(Some(Cluster {
            _universe: universe,
            world,
        }))
    }

    /// Stops the whole job after an error: rank 0 at once (it has said why), another rank
    /// after a moment. When every rank meets the error, rank 0's abort alone ends the job:
    /// several ranks aborting at once can leave `mpirun` hanging. A rank that alone met
    /// it still stops the job.
    pub fn abort(&self) -> ! {
        if self.world.rank() != 0 {
            std::thread::sleep(ABORT_DELAY);
        }
        self.world.abort(1)
    }

    /// Whether this is rank 0, which reports.
    pub fn leads(&self) -> bool {
        self.world.rank() == 0
    }

    /// Rank 0: hands out the boards not in the checkpoint, gathers and records results.
    fn lead(
        &self,
        plan: &Plan,
        checkpoint: Option<&Path>,
        batch: Option<usize>,
        progress: &dyn Progress,
    ) -> Result<Balance> {
        let started = Instant::now();
        let (mut file, mut results) = match checkpoint {
            Some(path) => {
                let (file, results) = Checkpoint::open(path, plan)?;
                (Some(file), results)
            }
            None => (None, Vec::new()),
        };
        let mut done = vec![false; plan.len()];
        for r in &results {
            done[r.index] = true;
        }
        let todo: Vec<u64> = (0..plan.len()).filter(|&i| !done[i]).map(|i| i as u64).collect();
        let workers = self.world.size() as usize - 1;
        let size = batch.unwrap_or_else(|| (todo.len() / (16 * workers)).clamp(1, MAX_BATCH));
        let mut batches = todo.chunks(size);
        progress.start(&plan.specs().join(" "), plan.len() as u64);
        progress.advance(results.len() as u64);
        // Per family: when its first board was handed out, and when its last came back.
        let ranges = plan.family_ranges();
        let family = |i: usize| {
            ranges
                .iter()
                .position(|r| r.contains(&i))
                .expect("a board of the plan")
        };
        let mut first_out = vec![None; ranges.len()];
        let mut last_in = vec![started; ranges.len()];
        let mut active = workers;
        while active > 0 {
            let Some(probed) = self.world.any_process().immediate_matched_probe_with_tag(RESULTS) else {
                std::thread::sleep(POLL);
                continue;
            };
            let (words, status) = probed.matched_receive_vec::<u64>();
            let rank = status.source_rank();
            let solved = decode(&words, plan.len())
                .ok_or_else(|| anyhow::anyhow!("rank {rank} sent a damaged batch of results"))?;
            if let Some(file) = &mut file {
                file.append(&solved)?;
            }
            for r in &solved {
                last_in[family(r.index)] = Instant::now();
            }
            progress.advance(solved.len() as u64);
            results.extend(solved);
            let next = batches.next().unwrap_or(&[]);
            if let Some(&i) = next.first() {
                first_out[family(i as usize)].get_or_insert_with(Instant::now);
            } else {
                active -= 1;
            }
            self.world.process_at_rank(rank).send_with_tag(next, BATCH);
        }
        let seconds: Vec<f64> = first_out
            .iter()
            .zip(&last_in)
            .map(|(out, &back)| out.map_or(0.0, |t| back.saturating_duration_since(t).as_secs_f64()))
            .collect();
        Ok(plan.finish(results, &seconds, started.elapsed().as_secs_f64())?)
    }

    /// A worker: asks for work, solves each batch on all cores, sends the results back.
    fn work(&self, plan: &Plan) {
        let leader = self.world.process_at_rank(0);
        leader.send_with_tag(&[][..] as &[u64], RESULTS);
        loop {
            let (batch, _) = leader.receive_vec_with_tag::<u64>(BATCH);
            if batch.is_empty() {
                return;
            }
            let indices: Vec<usize> = batch.iter().map(|&i| i as usize).collect();
            let solved = plan.solve(&indices, &());
            leader.send_with_tag(&encode(&solved)[..], RESULTS);
        }
    }
}

impl Driver for Cluster {
    fn partition(&self) -> Option<Arc<dyn Partition>> {
        let levels = Levels::new(self.world.rank() as usize, self.world.size() as usize);
        Some(Arc::new(levels))
    }

    fn solve(
        &self,
        plan: &Plan,
        checkpoint: Option<&Path>,
        batch: Option<usize>,
        progress: &dyn Progress,
    ) -> Result<Option<Balance>> {
        if self.world.rank() == 0 {
            Ok(Some(self.lead(plan, checkpoint, batch, progress)?))
        } else {
            self.work(plan);
            Ok(None)
        }
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
