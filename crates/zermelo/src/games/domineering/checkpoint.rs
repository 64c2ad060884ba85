//! The checkpoint of a long proof: what it proved so far, read back by a later run of
//! the same proof, on this machine or another, to go on where it stopped.
//!
//! Layout (numbers little-endian): magic `ZRMDOMPF`, the format version (u32), the
//! board's rows and columns (u32 each), the nodes searched and the seconds taken so far
//! (u64, f64); the questions asked (u32 count), each its free cells (u128), mover (u8),
//! answer (u8: 0 open, 1 lost, 2 won), first moves tried (u32) and first moves proved
//! (u32 count, then each cell as u32 and whether the mover wins by it as u8); then the
//! table's entries, each its key (u128) and a byte (bit 0: the mover wins; bits 1 to 4:
//! the work below it); last the number of entries (u64) and the SHA-256 of every byte
//! before it. The file is written beside its place and renamed there, so a stop while
//! writing leaves the previous checkpoint whole.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::proof::{Free, Root};
use crate::Error;

const MAGIC: [u8; 8] = *b"ZRMDOMPF";
const VERSION: u32 = 1;
/// Bytes of an entry of the table.
const ENTRY: usize = 17;
/// Bytes of the end: the number of entries and the digest.
const END: u64 = 8 + 32;

/// What a checkpoint holds besides the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// The board's rows and columns.
    pub rows: usize,
    pub cols: usize,
    /// Nodes searched and seconds taken by every run so far.
    pub nodes: u64,
    pub seconds: f64,
    /// The questions asked, with what is proved of each.
    pub roots: Vec<Root>,
}

/// Bytes written, hashed on the way.
struct Hashed<W> {
    inner: W,
    hash: Sha256,
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io(format!("checkpoint {}: {e}", path.display()))
}

/// Writes `saved` and the entries `entries` hands on (key, whether the mover wins, work)
/// to `path`.
pub fn write(
    path: &Path,
    saved: &Saved,
    entries: impl FnOnce(&mut dyn FnMut(Free, bool, u64) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let temp = crate::table::temp_path(path);
    let written = (|| -> std::io::Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = File::create(&temp)?;
        let mut out = Hashed {
            inner: BufWriter::with_capacity(1 << 20, file),
            hash: Sha256::new(),
        };
        out.write_all(&MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&(saved.rows as u32).to_le_bytes())?;
        out.write_all(&(saved.cols as u32).to_le_bytes())?;
        out.write_all(&saved.nodes.to_le_bytes())?;
        out.write_all(&saved.seconds.to_le_bytes())?;
        out.write_all(&(saved.roots.len() as u32).to_le_bytes())?;
        for root in &saved.roots {
            out.write_all(&root.free.to_le_bytes())?;
            out.write_all(&[root.side as u8, root.wins.map_or(0, |w| 1 + u8::from(w))])?;
            out.write_all(&root.moves.to_le_bytes())?;
            out.write_all(&(root.proved.len() as u32).to_le_bytes())?;
            for &(cell, wins) in &root.proved {
                out.write_all(&cell.to_le_bytes())?;
                out.write_all(&[u8::from(wins)])?;
            }
        }
        let mut count = 0u64;
        entries(&mut |key, wins, work| {
            count += 1;
            let mut entry = [0; ENTRY];
            entry[..16].copy_from_slice(&key.to_le_bytes());
            entry[16] = u8::from(wins) | (work as u8) << 1;
            out.write_all(&entry)
        })?;
        out.write_all(&count.to_le_bytes())?;
        let digest = out.hash.clone().finalize();
        out.inner.write_all(&digest)?;
        out.inner.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    let renamed = written.and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = renamed {
        // A failed write leaves no temporary file behind; the error says why it failed.
        let _ = std::fs::remove_file(&temp);
        return Err(io_error(path, e));
    }
    Ok(())
}

/// Reads the checkpoint at `path` of a board of `rows` × `cols`, handing each entry of
/// its table to `put` (key, whether the mover wins, work), which says whether the key is
/// one of the board's; `None` when there is none. A file that is not such a checkpoint,
/// or is damaged, is an error, after some entries may have been handed on.
pub fn read(
    path: &Path,
    rows: usize,
    cols: usize,
    mut put: impl FnMut(Free, bool, u64) -> bool,
) -> Result<Option<Saved>, Error> {
    let file = match crate::table::open_regular(path, std::fs::OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path, e)),
    };
    let refused = |why: String| io_error(path, format!("{why}; remove it to start the proof over"));
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    let mut input = Reader {
        inner: BufReader::with_capacity(1 << 20, file),
        hash: Sha256::new(),
        at: 0,
    };
    let cut = |_| refused("is cut short or damaged".into());
    let mut magic = [0; 8];
    input.exact(&mut magic).map_err(cut)?;
    if magic != MAGIC {
        return Err(refused("is not the checkpoint of a Domineering proof".into()));
    }
    let version = input.u32().map_err(cut)?;
    if version != VERSION {
        return Err(refused(format!(
            "has format {version}, which this version of the program does not read (it reads {VERSION})"
        )));
    }
    let (saved_rows, saved_cols) = (input.u32().map_err(cut)?, input.u32().map_err(cut)?);
    if (saved_rows as usize, saved_cols as usize) != (rows, cols) {
        return Err(refused(format!(
            "is of a {saved_rows} x {saved_cols} board, not {rows} x {cols}"
        )));
    }
    let nodes = input.u64().map_err(cut)?;
    let seconds = f64::from_bits(input.u64().map_err(cut)?);
    let mut roots = Vec::new();
    for _ in 0..input.u32().map_err(cut)? {
        let free = Free::from_le_bytes(input.array().map_err(cut)?);
        let [side, wins] = input.array().map_err(cut)?;
        let moves = input.u32().map_err(cut)?;
        let mut proved = Vec::new();
        for _ in 0..input.u32().map_err(cut)?.min(1 << 10) {
            let cell = input.u32().map_err(cut)?;
            let [wins] = input.array().map_err(cut)?;
            proved.push((cell, wins == 1));
        }
        if side > 1 || wins > 2 {
            return Err(refused("is damaged".into()));
        }
        roots.push(Root {
            free,
            side: usize::from(side),
            proved,
            moves,
            wins: [None, Some(false), Some(true)][usize::from(wins)],
        });
    }
    let body = len
        .checked_sub(input.at + END)
        .ok_or_else(|| refused("is cut short".into()))?;
    if body % ENTRY as u64 != 0 {
        return Err(refused("is cut short or damaged".into()));
    }
    let mut foreign = false;
    for _ in 0..body / ENTRY as u64 {
        let entry: [u8; ENTRY] = input.array().map_err(cut)?;
        let key = Free::from_le_bytes(entry[..16].try_into().expect("16 bytes"));
        foreign |= !put(key, entry[16] & 1 == 1, u64::from(entry[16] >> 1));
    }
    let count = input.u64().map_err(cut)?;
    let digest = input.hash.clone().finalize();
    let mut stored = [0; 32];
    input.inner.read_exact(&mut stored).map_err(cut)?;
    if count != body / ENTRY as u64 || stored[..] != digest[..] {
        return Err(refused("is damaged (its checksum does not match)".into()));
    }
    if foreign {
        return Err(refused("holds positions off the board".into()));
    }
    Ok(Some(Saved {
        rows,
        cols,
        nodes,
        seconds,
        roots,
    }))
}

/// Bytes read, hashed on the way.
struct Reader<R> {
    inner: R,
    hash: Sha256,
    at: u64,
}

impl<R: Read> Reader<R> {
    fn exact(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        self.inner.read_exact(buf)?;
        self.hash.update(&*buf);
        self.at += buf.len() as u64;
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> std::io::Result<[u8; N]> {
        let mut buf = [0; N];
        self.exact(&mut buf)?;
        Ok(buf)
    }

    fn u32(&mut self) -> std::io::Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> std::io::Result<u64> {
        self.array().map(u64::from_le_bytes)
    }
}
