//! The ranks of an MPI job (the `mpi` feature): joining the job, stopping it after an
//! error, and the partition of a command's work across the ranks ([`MpiLevels`]).
//! Rank 0 reports.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use mpi::environment::Universe;
use mpi::topology::{Communicator, SimpleCommunicator};
use zermelo::solve::levels::Partition;

use crate::mpi_levels::MpiLevels;

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

    /// How the work of a command is split across the ranks.
    pub fn partition(&self) -> Arc<dyn Partition> {
        Arc::new(MpiLevels::new(
            self.world.rank() as usize,
            self.world.size() as usize,
        ))
    }
}
