//! Checkpoints of a level solve: what a solve keeps its finished levels through
//! ([`Checkpoints`]), and a file the solved levels are appended to, one compressed record
//! each, read back to go on after a stop.
//!
//! Layout (numbers little-endian): magic `ZERMELOC`, the format version (u32), the spec
//! of the game (u32 length and text) and its number of ranks (u64); then one record per
//! level: the level (u32), its number of ranks (u64), the stored length (u64), the
//! checksum of the stored bytes (u64) and a zstd frame of the level's codes. A record cut
//! short by a kill, or any record that fails its checks, ends what is restored: the file
//! is cut there and the solve goes on from that level.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::db::checksum;
use crate::Error;

/// Where a level solve keeps the levels it has finished, so that a stopped solve can go
/// on from the last one.
pub trait Checkpoints {
    /// Fills `codes` (the ranks of `level`) as an earlier run left them; `false` when that
    /// level was not kept. Levels are asked for from the highest down.
    fn restore(&mut self, level: usize, codes: &mut [u8]) -> bool;
    /// Keeps the codes of `level`, just solved.
    fn keep(&mut self, level: usize, codes: &[u8]) -> Result<(), Error>;
    /// Whether levels handed to [`Checkpoints::keep`] are kept at all: when not, the
    /// solver spares copying them.
    fn keeps(&self) -> bool {
        true
    }
}

/// Keeps nothing.
impl Checkpoints for () {
    fn restore(&mut self, _: usize, _: &mut [u8]) -> bool {
        false
    }
    fn keep(&mut self, _: usize, _: &[u8]) -> Result<(), Error> {
        Ok(())
    }
    fn keeps(&self) -> bool {
        false
    }
}

const MAGIC: [u8; 8] = *b"ZERMELOC";
const VERSION: u32 = 1;
/// The zstd level records are compressed at: fast, since every level passes through.
const LEVEL: i32 = 1;
/// Bytes of a record's head: level, ranks, stored length, checksum.
const RECORD_HEAD: usize = 28;

/// The checkpoint file of one solve.
pub struct LevelFile {
    path: PathBuf,
    file: File,
    /// Where the next record is read or written.
    at: u64,
    /// Whether records are still being restored.
    restoring: bool,
    /// The levels restored so far.
    restored: usize,
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Io(format!("checkpoint {}: {e}", path.display()))
}

impl LevelFile {
    /// Opens the checkpoints of `ranks` ranks of `spec` at `path`: those an earlier solve
    /// of the same table left, or a new empty file.
    pub fn open(path: &Path, spec: &str, ranks: u64) -> Result<Self, Error> {
        let io = |e| io_error(path, e);
        let mut head = MAGIC.to_vec();
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.extend_from_slice(&(spec.len() as u32).to_le_bytes());
        head.extend_from_slice(spec.as_bytes());
        head.extend_from_slice(&ranks.to_le_bytes());
        let mut file = super::open_regular(
            path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .map_err(io)?;
        let mut found = vec![0; head.len()];
        let same = file.read_exact(&mut found).is_ok() && found == head;
        if !same {
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.write_all(&head).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        Ok(LevelFile {
            path: path.to_path_buf(),
            file,
            at: head.len() as u64,
            restoring: same,
            restored: 0,
        })
    }

    /// The number of levels restored from an earlier solve.
    pub fn restored(&self) -> usize {
        self.restored
    }

    /// Deletes the file, once the database it led to is saved.
    pub fn remove(self) -> Result<(), Error> {
        drop(self.file);
        fs::remove_file(&self.path).map_err(|e| io_error(&self.path, e))
    }

    /// Reads the record at `at` into `codes` when it is `level`'s and sound.
    fn read_record(&mut self, level: usize, codes: &mut [u8]) -> Option<u64> {
        self.file.seek(SeekFrom::Start(self.at)).ok()?;
        let mut head = [0u8; RECORD_HEAD];
        self.file.read_exact(&mut head).ok()?;
        let field = |range: std::ops::Range<usize>| {
            let mut b = [0u8; 8];
            b[..range.len()].copy_from_slice(&head[range]);
            u64::from_le_bytes(b)
        };
        let (stored_level, ranks, len, sum) = (field(0..4), field(4..12), field(12..20), field(20..28));
        if stored_level != level as u64 || ranks != codes.len() as u64 || len > 2 * ranks + 1024 {
            return None;
        }
        let mut stored = vec![0; len as usize];
        self.file.read_exact(&mut stored).ok()?;
        if checksum(&stored) != sum {
            return None;
        }
        let n = zstd::bulk::decompress_to_buffer(&stored, codes).ok()?;
        (n == codes.len()).then_some(RECORD_HEAD as u64 + len)
    }
}

impl Checkpoints for LevelFile {
    fn restore(&mut self, level: usize, codes: &mut [u8]) -> bool {
        if !self.restoring {
            return false;
        }
        match self.read_record(level, codes) {
            Some(len) => {
                self.at += len;
                self.restored += 1;
                true
            }
            None => {
                self.restoring = false;
                codes.fill(0);
                false
            }
        }
    }

    fn keep(&mut self, level: usize, codes: &[u8]) -> Result<(), Error> {
        let io = |e| io_error(&self.path, e);
        let stored = zstd::bulk::compress(codes, LEVEL).map_err(io)?;
        let mut record = Vec::with_capacity(RECORD_HEAD + stored.len());
        record.extend_from_slice(&(level as u32).to_le_bytes());
        record.extend_from_slice(&(codes.len() as u64).to_le_bytes());
        record.extend_from_slice(&(stored.len() as u64).to_le_bytes());
        record.extend_from_slice(&checksum(&stored).to_le_bytes());
        record.extend_from_slice(&stored);
        self.file.set_len(self.at).map_err(io)?;
        self.file.seek(SeekFrom::Start(self.at)).map_err(io)?;
        self.file.write_all(&record).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        self.at += record.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_levels_come_back_until_a_damaged_record() {
        let dir = std::env::temp_dir().join(format!("zermelo-ckpt-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.levels");
        let levels: Vec<Vec<u8>> = (0..3)
            .map(|l| (0..1000 + l).map(|i| (i * l % 7) as u8).collect())
            .collect();
        let mut f = LevelFile::open(&path, "g", 3003).unwrap();
        for l in (1..3).rev() {
            assert!(!f.restore(l, &mut vec![0; levels[l].len()]));
            f.keep(l, &levels[l]).unwrap();
        }
        drop(f);
        let mut f = LevelFile::open(&path, "g", 3003).unwrap();
        for l in (1..3).rev() {
            let mut codes = vec![0; levels[l].len()];
            assert!(f.restore(l, &mut codes));
            assert_eq!(codes, levels[l]);
        }
        assert!(!f.restore(0, &mut [0; 1000]));
        assert_eq!(f.restored(), 2);
        drop(f);
        let len = fs::metadata(&path).unwrap().len();
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(len - 1)
            .unwrap();
        let mut f = LevelFile::open(&path, "g", 3003).unwrap();
        assert!(f.restore(2, &mut vec![0; levels[2].len()]));
        assert!(!f.restore(1, &mut vec![0; levels[1].len()]));
        drop(f);
        let f = LevelFile::open(&path, "other", 3003).unwrap();
        assert_eq!(f.restored(), 0);
        f.remove().unwrap();
        assert!(!path.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
