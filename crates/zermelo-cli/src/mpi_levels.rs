//! A level solve across the ranks of an MPI job (the `mpi` feature): every rank solves an
//! equal share of each level, and the shares meet on every rank (`MPI_Allgatherv`) before
//! the next level; rank 0 keeps the checkpoints, and every rank saves its part of the
//! database. Self-play splits each round of games the same way, every rank getting every
//! result. It knows no game: it moves the solver's and the games' bytes.

use std::ops::Range;

use mpi::collective::{CommunicatorCollectives, Root};
use mpi::datatype::PartitionMut;
use mpi::topology::{Communicator, SimpleCommunicator};
use zermelo::solve::levels::{share, Partition};
use zermelo::Error;

/// The most bytes one MPI call moves (its counts are 32-bit).
const MOST: usize = i32::MAX as usize;

/// This rank's share of a level solve split across the world.
pub struct Levels {
    rank: usize,
    size: usize,
}

impl Levels {
    /// The share of `rank` among `size` ranks.
    pub fn new(rank: usize, size: usize) -> Self {
        Levels { rank, size }
    }
}

impl Partition for Levels {
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
            return Err(Error::TooBig(format!(
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
}
