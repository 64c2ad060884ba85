//! Dense tables of values indexed by rank: a 2-bit win/lose/draw layer and a
//! separate remoteness layer ([`ValueTable`], two bytes of remoteness, or
//! [`CompactTable`], one byte), their database files ([`db`]) and the checkpoints of a
//! level solve ([`checkpoint`]), the books of bounds a search saves ([`book`]) and opening books ([`opening`]).

pub mod book;
pub mod checkpoint;
mod compact;
pub mod db;
pub mod opening;
mod packed;

pub use packed::Packed2;
use rayon::prelude::*;
use std::path::Path;

use crate::value::Value;

/// Opens the file at `path` with `options`, refusing in one line what is not a regular
/// file: looked at before opening, and opened without blocking, as a named pipe would
/// block its opener until a writer came.
pub fn open_regular(path: &Path, options: &mut std::fs::OpenOptions) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let regular = |meta: std::fs::Metadata| {
        let kind = meta.file_type();
        let why = match () {
            _ if kind.is_file() => return Ok(()),
            _ if kind.is_dir() => "is a folder, not a file",
            _ if kind.is_fifo() => "is a named pipe, not a file",
            _ => "is not a regular file",
        };
        Err(std::io::Error::other(why))
    };
    match std::fs::metadata(path) {
        Ok(meta) => regular(meta)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let file = options.custom_flags(libc::O_NONBLOCK).open(path)?;
    regular(file.metadata()?)?;
    Ok(file)
}

/// A temporary name for the file to be renamed to `path` once written, of this process
/// and this write alone: `NAME.PID-N.tmp` beside it.
pub fn temp_path(path: &Path) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    path.with_extension(format!("{}-{n}.tmp", std::process::id()))
}

/// Removes every temporary file ([`temp_path`]) of `path`, which writes that were
/// stopped left; only for a writer that holds the table's lock.
pub fn remove_temps(path: &Path) -> std::io::Result<()> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem().and_then(|s| s.to_str())) else {
        return Ok(());
    };
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let temp = name
            .strip_prefix(stem)
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .is_some_and(|id| !id.contains('.'));
        if temp {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// Which file a path named when a table was opened: a file replaced since (a repaired
/// table renamed into place) or rewritten has another stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    /// The stamp of the file at `path` now, `None` when there is none.
    pub fn of(path: &Path) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(Stamp {
            device: m.dev(),
            inode: m.ino(),
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
}

/// How a table stores remoteness: in one byte or in two.
pub trait Remoteness: Copy + Default + Ord + Into<u32> + Send + Sync {
    /// `r`, saturated to the largest value that fits.
    fn saturate(r: u32) -> Self;
}

impl Remoteness for u8 {
    fn saturate(r: u32) -> Self {
        r.min(u8::MAX.into()) as u8
    }
}

impl Remoteness for u16 {
    fn saturate(r: u32) -> Self {
        r.min(u16::MAX.into()) as u16
    }
}

/// Values of every rank of an indexed game: 2 bits of win/lose/draw per rank
/// (0 marks a rank that is no valid position) and a remoteness layer of `R` per rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueTable<R = u16> {
    wdl: Packed2,
    remoteness: Vec<R>,
}

/// A table for large strong solves, with one byte of remoteness per rank.
pub type CompactTable = ValueTable<u8>;

const NONE: u8 = 0;
pub(crate) const WIN: u8 = 1;
pub(crate) const LOSE: u8 = 2;
const DRAW: u8 = 3;

/// The 2-bit code of a value (0 for no valid position), as tables and databases store it.
pub fn wdl_code(v: Option<Value>) -> u8 {
    match v {
        None => NONE,
        Some(Value::Win(_)) => WIN,
        Some(Value::Lose(_)) => LOSE,
        Some(Value::Draw) => DRAW,
    }
}

impl<R: Remoteness> ValueTable<R> {
    /// A table of `len` ranks, none of them a position yet.
    pub fn new(len: u64) -> Self {
        ValueTable {
            wdl: Packed2::new(len),
            remoteness: vec![R::default(); len as usize],
        }
    }

    /// The table from its two layers; `None` when their lengths differ.
    pub fn from_layers(wdl: Packed2, remoteness: Vec<R>) -> Option<Self> {
        (wdl.len() == remoteness.len() as u64).then_some(ValueTable { wdl, remoteness })
    }

    /// The number of ranks.
    pub fn len(&self) -> u64 {
        self.wdl.len()
    }

    /// Whether the table has no ranks.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value stored at `rank`, `None` when it is no valid position.
    pub fn get(&self, rank: u64) -> Option<Value> {
        let r = self.remoteness[rank as usize].into();
        match self.wdl.get(rank) {
            WIN => Some(Value::Win(r)),
            LOSE => Some(Value::Lose(r)),
            DRAW => Some(Value::Draw),
            _ => None,
        }
    }

    /// Stores `v` at `rank`; remoteness saturates at the layer's largest value.
    pub fn set(&mut self, rank: u64, v: Value) {
        self.wdl.set(rank, wdl_code(Some(v)));
        self.remoteness[rank as usize] = R::saturate(v.remoteness().unwrap_or(0));
    }

    /// Whether `rank` holds a value.
    pub fn is_set(&self, rank: u64) -> bool {
        self.wdl.get(rank) != NONE
    }

    /// The win/lose/draw layer.
    pub fn wdl(&self) -> &Packed2 {
        &self.wdl
    }

    /// The remoteness layer.
    pub fn remoteness(&self) -> &[R] {
        &self.remoteness
    }

    /// Counts of (wins, losses, draws) over the valid ranks.
    pub fn summary(&self) -> (u64, u64, u64) {
        self.wdl
            .words()
            .par_iter()
            .map(|&w| {
                let mut counts = [0u64; 4];
                for i in 0..32 {
                    counts[(w >> (2 * i) & 3) as usize] += 1;
                }
                (counts[WIN as usize], counts[LOSE as usize], counts[DRAW as usize])
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }

    /// The greatest remoteness stored.
    pub fn max_remoteness(&self) -> R {
        self.remoteness.par_iter().copied().max().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two writes of one table, in one process or two, never share a temporary name; a
    // writer holding the lock removes them all, and nothing else.
    #[test]
    fn temporary_names_are_unique_and_removed_together() {
        let dir = std::env::temp_dir().join(format!("zermelo-temps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let table = dir.join("pawns-4x5.zdb");
        let (a, b) = (temp_path(&table), temp_path(&table));
        assert_ne!(a, b);
        let other = dir.join("pawns-4x56.1-0.tmp");
        for p in [&a, &b, &other, &table] {
            std::fs::write(p, b"").unwrap();
        }
        remove_temps(&table).unwrap();
        assert!(!a.exists() && !b.exists());
        assert!(other.exists() && table.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
