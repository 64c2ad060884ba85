//! A level solve across the ranks of an MPI job (the `mpi` feature): every rank solves an
//! equal share of each level, and the shares meet on every rank (`MPI_Allgatherv`) before
//! the next level; rank 0 keeps the checkpoints, and every rank saves its part of the
//! database. Self-play splits each round of games the same way, every rank getting every
//! result. A study's independent jobs (the boards of a sweep) are handed out by rank 0 in
//! batches to the other ranks as they ask for work, and their results gathered on rank 0.
//! It knows no game: it moves the solver's and the games' bytes, and jobs' numbers and
//! results as words.

use std::ops::Range;
use std::time::Duration;

use mpi::collective::{CommunicatorCollectives, Root};
use mpi::datatype::PartitionMut;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Tag;
use zermelo::solve::levels::{share, Collect, Partition, Work};
use zermelo::Error;

/// The most bytes one MPI call moves (its counts are 32-bit).
const MOST: usize = i32::MAX as usize;
/// Results (or, empty, a request for work) from a worker to rank 0.
const RESULTS: Tag = 1;
/// A batch of job numbers from rank 0 to a worker; empty: no more work.
const BATCH: Tag = 2;
/// The most jobs rank 0 hands out at a time when no batch size is given.
const MAX_BATCH: usize = 256;
/// How long rank 0 sleeps between looks for messages (a blocking receive would spin).
const POLL: Duration = Duration::from_millis(2);

/// This rank's share of a level solve split across the world.
pub struct MpiLevels {
    rank: usize,
    size: usize,
}

impl MpiLevels {
    /// The share of `rank` among `size` ranks.
    pub fn new(rank: usize, size: usize) -> Self {
        MpiLevels { rank, size }
    }
}

impl Partition for MpiLevels {
    fn place(&self) -> (usize, usize) {
        (self.rank, self.size)
    }

    fn broadcast(&self, bytes: &mut [u8]) -> Result<(), Error> {
        let world = SimpleCommunicator::world();
        let root = world.process_at_rank(0);
        for piece in bytes.chunks_mut(MOST) {
            root.broadcast_into(piece);
        }
        Ok(())
    }

    fn gather(&self, level: &mut [u8]) -> Result<(), Error> {
        if level.len() > MOST {
            return Err(Error::too_big(format!(
                "a level of {} positions is more than one MPI exchange carries ({MOST})",
                level.len()
            )));
        }
        let shares: Vec<Range<usize>> = (0..self.size).map(|r| share(level.len(), r, self.size)).collect();
        let counts: Vec<i32> = shares.iter().map(|s| s.len() as i32).collect();
        let displs: Vec<i32> = shares.iter().map(|s| s.start as i32).collect();
        let mine = level[shares[self.rank].clone()].to_vec();
        let mut all = PartitionMut::new(level, counts, displs);
        SimpleCommunicator::world().all_gather_varcount_into(&mine[..], &mut all);
        Ok(())
    }

    fn farm(
        &self,
        todo: &[usize],
        batch: Option<usize>,
        work: &Work<'_>,
        take: &mut Collect<'_>,
    ) -> Result<bool, Error> {
        let world = SimpleCommunicator::world();
        if self.rank != 0 {
            // A worker: asks for work, does each batch on all cores, sends the results back.
            let leader = world.process_at_rank(0);
            leader.send_with_tag(&[][..] as &[u64], RESULTS);
            loop {
                let (jobs, _) = leader.receive_vec_with_tag::<u64>(BATCH);
                if jobs.is_empty() {
                    return Ok(false);
                }
                let jobs: Vec<usize> = jobs.iter().map(|&i| i as usize).collect();
                leader.send_with_tag(&work(&jobs)[..], RESULTS);
            }
        }
        // Rank 0: hands out the jobs as workers ask, and takes every batch that comes back.
        let todo: Vec<u64> = todo.iter().map(|&i| i as u64).collect();
        let workers = self.size - 1;
        let size = batch.unwrap_or_else(|| (todo.len() / (16 * workers)).clamp(1, MAX_BATCH));
        let mut batches = todo.chunks(size);
        let mut active = workers;
        while active > 0 {
            let Some(probed) = world.any_process().immediate_matched_probe_with_tag(RESULTS) else {
                std::thread::sleep(POLL);
                continue;
            };
            let (words, status) = probed.matched_receive_vec::<u64>();
            take(&words)?;
            let next = batches.next().unwrap_or(&[]);
            if next.is_empty() {
                active -= 1;
            }
            world
                .process_at_rank(status.source_rank())
                .send_with_tag(next, BATCH);
        }
        Ok(true)
    }
}
