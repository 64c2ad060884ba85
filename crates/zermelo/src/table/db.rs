//! The database file of a [`CompactTable`].
//!
//! Layout, all numbers little-endian:
//! - magic `ZERMELO` and a 0x1a byte; format version (u32);
//! - the game spec the table belongs to: its length (u32) and UTF-8 text;
//! - the number of ranks (u64);
//! - the win/lose/draw layer: one u64 word per 32 ranks;
//! - the remoteness layer: one byte per rank;
//! - a checksum (u64, FNV-1a) of everything before it.
//!
//! A file is written to a temporary name and renamed into place, so a reader never
//! sees half a file. A file with the wrong magic, version, spec or size, or a bad
//! checksum is refused with an error saying which.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;

use super::{CompactTable, Packed2};
use crate::Error;

/// The first bytes of every database file.
pub const MAGIC: [u8; 8] = *b"ZERMELO\x1a";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    hash
}

/// A writer that keeps the checksum of what passes through it.
struct Summing<W> {
    inner: W,
    hash: u64,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash = fnv(self.hash, &buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn db_error(path: &Path, why: impl Into<String>) -> Error {
    Error::Database {
        path: path.display().to_string(),
        why: why.into(),
    }
}

/// Writes `table`, solved for the game `spec`, to `path` (creating its folder).
pub fn save(path: &Path, spec: &str, table: &CompactTable) -> Result<(), Error> {
    let io = |e: std::io::Error| db_error(path, e.to_string());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let temp = path.with_extension("tmp");
    let file = fs::File::create(&temp).map_err(io)?;
    let mut out = Summing {
        inner: BufWriter::with_capacity(1 << 20, file),
        hash: FNV_OFFSET,
    };
    out.write_all(&MAGIC).map_err(io)?;
    out.write_all(&VERSION.to_le_bytes()).map_err(io)?;
    out.write_all(&(spec.len() as u32).to_le_bytes()).map_err(io)?;
    out.write_all(spec.as_bytes()).map_err(io)?;
    out.write_all(&table.len().to_le_bytes()).map_err(io)?;
    for chunk in table.wdl().words().chunks(1 << 14) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.write_all(&bytes).map_err(io)?;
    }
    out.write_all(table.remoteness()).map_err(io)?;
    let hash = out.hash;
    let mut inner = out.inner;
    inner.write_all(&hash.to_le_bytes()).map_err(io)?;
    let file = inner.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&temp, path).map_err(io)
}

/// Reads the table of the game `spec` with `len` ranks from `path`.
pub fn load(path: &Path, spec: &str, len: u64) -> Result<CompactTable, Error> {
    let mut bytes = fs::read(path).map_err(|e| db_error(path, e.to_string()))?;
    let fail = |why: &str| Err(db_error(path, why));
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return fail("not a zermelo database (bad magic)");
    }
    let mut at = MAGIC.len();
    let mut take = |n: usize| -> Option<&[u8]> {
        let field = bytes.get(at..at + n)?;
        at += n;
        Some(field)
    };
    let truncated = || db_error(path, "truncated file");
    let version = u32::from_le_bytes(take(4).ok_or_else(truncated)?.try_into().expect("4 bytes"));
    if version != VERSION {
        return fail(&format!(
            "format version {version}, this zermelo reads version {VERSION}"
        ));
    }
    let spec_len = u32::from_le_bytes(take(4).ok_or_else(truncated)?.try_into().expect("4 bytes"));
    let stored = String::from_utf8_lossy(take(spec_len as usize).ok_or_else(truncated)?).into_owned();
    if stored != spec {
        return fail(&format!("holds the table of {stored}, not of {spec}"));
    }
    let stored_len = u64::from_le_bytes(take(8).ok_or_else(truncated)?.try_into().expect("8 bytes"));
    if stored_len != len {
        return fail(&format!("holds {stored_len} ranks, expected {len}"));
    }
    let words = len.div_ceil(32) as usize;
    let payload = at;
    let end = payload + 8 * words + len as usize;
    if bytes.len() != end + 8 {
        return fail(&format!("{} bytes long, expected {}", bytes.len(), end + 8));
    }
    let stored_hash = u64::from_le_bytes(bytes[end..].try_into().expect("8 bytes"));
    if fnv(FNV_OFFSET, &bytes[..end]) != stored_hash {
        return fail("checksum mismatch: the file is corrupt");
    }
    let wdl: Vec<u64> = bytes[payload..payload + 8 * words]
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
        .collect();
    bytes.truncate(end);
    bytes.drain(..payload + 8 * words);
    let wdl = Packed2::from_words(wdl, len).expect("one word per 32 ranks");
    Ok(CompactTable::from_layers(wdl, bytes).expect("layers of equal length"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    fn table() -> CompactTable {
        let bytes: Vec<u8> = (0..77).map(|i| (i % 5) as u8).collect();
        CompactTable::from_bytes(bytes, |b| match b {
            0 => None,
            1 => Some(Value::Draw),
            b => Some(if b % 2 == 0 {
                Value::Win(b.into())
            } else {
                Value::Lose(b.into())
            }),
        })
    }

    #[test]
    fn saved_tables_load_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("zermelo-db-test-{}", std::process::id()));
        let path = dir.join("t.zdb");
        let t = table();
        save(&path, "g:a=1", &t).unwrap();
        assert_eq!(load(&path, "g:a=1", 77).unwrap(), t);
        let err = |spec: &str, len: u64| load(&path, spec, len).unwrap_err().to_string();
        assert!(err("g:a=2", 77).contains("not of g:a=2"));
        assert!(err("g:a=1", 78).contains("expected 78"));
        let mut bytes = fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 20] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(err("g:a=1", 77).contains("checksum"));
        fs::write(&path, &bytes[..n - 3]).unwrap();
        assert!(err("g:a=1", 77).contains("bytes long"));
        fs::write(&path, b"hello").unwrap();
        assert!(err("g:a=1", 77).contains("magic"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
