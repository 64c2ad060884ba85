//! Books: the bounds a search proved, saved so that later searches of the same game start
//! from them (Dots and Boxes 4 × 4 boxes, whose positions are too many for a table of
//! every rank).
//!
//! A book is a static hash table of 16-byte slots mapped from disk: each slot holds a key
//! xor its data word, then the data word, so a slot read whole either matches its key or
//! is a miss (a damaged slot reads as a miss, never as another key's data). Slots are
//! found by linear probing from the key's hash; a data word of 0 marks an empty slot. A
//! header of [`HEADER_BYTES`] says which game the book is for, how many slots and entries
//! it has and the least work below its entries, with a checksum.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::db::checksum;
use super::Stamp;
use crate::Error;

/// The first bytes of every book, with its format's version.
const MAGIC: &[u8; 8] = b"ZMBOOK01";

/// Bytes before the slots.
pub const HEADER_BYTES: usize = 4096;

/// Bytes a slot takes.
pub const SLOT_BYTES: u64 = 16;

/// The most entries a book holds per slot.
const LOAD: f64 = 0.7;

/// What a book's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookInfo {
    /// The game spec.
    pub spec: String,
    /// Slots (a power of two).
    pub slots: u64,
    /// Entries stored.
    pub entries: u64,
    /// The least work below an entry: positions with less were left out.
    pub min_work: u64,
}

/// A book mapped from disk.
pub struct Book {
    info: BookInfo,
    map: Mmap,
    path: PathBuf,
    /// The file opened, to tell when the path names another one.
    stamp: Option<Stamp>,
}

fn book_error(path: &Path, why: impl Into<crate::error::Said>) -> Error {
    Error::Database {
        path: path.display().to_string(),
        why: why.into(),
    }
}

/// Where linear probing for `key` starts among `slots` slots.
fn home(key: u64, slots: u64) -> u64 {
    let mixed = (key ^ key >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed ^ mixed >> 29) & (slots - 1)
}

/// The slots a book of `entries` entries takes.
pub fn slots_for(entries: u64) -> u64 {
    ((entries as f64 / LOAD).ceil() as u64).max(1).next_power_of_two()
}

/// The most entries a book of at most `bytes` holds.
pub fn capacity(bytes: u64) -> u64 {
    let slots = (bytes / SLOT_BYTES).max(1);
    let slots = 1u64 << (63 - slots.leading_zeros());
    (slots as f64 * LOAD) as u64
}

/// Writes the book of `spec` to `path` from its `count` entries (key and nonzero data
/// word; keys distinct), recording `min_work`. Nothing is left at `path` on failure.
pub fn write(
    path: &Path,
    spec: &str,
    min_work: u64,
    count: u64,
    entries: impl Iterator<Item = (u64, u64)>,
) -> Result<BookInfo, Error> {
    let info = BookInfo {
        spec: spec.to_string(),
        slots: slots_for(count),
        entries: count,
        min_work,
    };
    let mut words = vec![0u64; 2 * info.slots as usize];
    for (key, data) in entries.take(count as usize) {
        debug_assert!(data != 0, "a data word of 0 marks an empty slot");
        let mut at = home(key, info.slots);
        while words[2 * at as usize + 1] != 0 {
            at = (at + 1) & (info.slots - 1);
        }
        words[2 * at as usize] = key ^ data;
        words[2 * at as usize + 1] = data;
    }
    let temp = crate::table::temp_path(path);
    let result = write_to(&temp, &info, &words).and_then(|()| {
        fs::rename(&temp, path).map_err(|e| book_error(path, format!("renaming into place: {e}")))
    });
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map(|()| info)
}

fn write_to(temp: &Path, info: &BookInfo, words: &[u64]) -> Result<(), Error> {
    let io = |e: std::io::Error| book_error(temp, format!("writing: {e}"));
    if let Some(dir) = temp.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 22, fs::File::create(temp).map_err(io)?);
    out.write_all(&encode_header(info)).map_err(io)?;
    for chunk in words.chunks(1 << 16) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.write_all(&bytes).map_err(io)?;
    }
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)
}

fn encode_header(info: &BookInfo) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_BYTES);
    h.extend_from_slice(MAGIC);
    for n in [info.slots, info.entries, info.min_work, info.spec.len() as u64] {
        h.extend_from_slice(&n.to_le_bytes());
    }
    h.extend_from_slice(info.spec.as_bytes());
    let sum = checksum(&h);
    h.extend_from_slice(&sum.to_le_bytes());
    h.resize(HEADER_BYTES, 0);
    h
}

fn parse_header(bytes: &[u8]) -> Result<BookInfo, String> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err("not a zermelo book (or a book of another format version)".into());
    }
    let word = |i: usize| u64::from_le_bytes(bytes[8 + 8 * i..16 + 8 * i].try_into().expect("8 bytes"));
    let (slots, entries, min_work, spec_len) = (word(0), word(1), word(2), word(3));
    let end = 40usize.saturating_add(spec_len as usize);
    if end + 8 > HEADER_BYTES {
        return Err("damaged header".into());
    }
    let sum = u64::from_le_bytes(bytes[end..end + 8].try_into().expect("8 bytes"));
    if checksum(&bytes[..end]) != sum {
        return Err("damaged header (checksum)".into());
    }
    let spec = String::from_utf8(bytes[40..end].to_vec()).map_err(|_| "damaged header (spec)")?;
    if !slots.is_power_of_two() || entries > slots {
        return Err("damaged header (slots)".into());
    }
    Ok(BookInfo {
        spec,
        slots,
        entries,
        min_work,
    })
}

impl Book {
    /// Opens the book at `path`, refusing a damaged one or one of another game than `spec`.
    pub fn open(path: &Path, spec: &str) -> Result<Book, Error> {
        let stamp = Stamp::of(path);
        let file = super::open_regular(path, fs::OpenOptions::new().read(true))
            .map_err(|e| book_error(path, format!("cannot be read: {e}")))?;
        // SAFETY: the book is read only; a file changed under the map reads as misses or
        // as entries checked against their keys.
        let map =
            unsafe { Mmap::map(&file) }.map_err(|e| book_error(path, format!("cannot be mapped: {e}")))?;
        let info = parse_header(&map).map_err(|why| book_error(path, why))?;
        if info.spec != spec {
            return Err(book_error(
                path,
                format!("is the book of {}, not of {spec}", info.spec),
            ));
        }
        let wanted = HEADER_BYTES as u64 + info.slots * SLOT_BYTES;
        if map.len() as u64 != wanted {
            return Err(book_error(
                path,
                format!("is {} bytes long, not {wanted}: truncated or damaged", map.len()),
            ));
        }
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Ok(Book {
            info,
            map,
            path: path.to_path_buf(),
            stamp,
        })
    }

    /// Whether its path still names the file opened (not one replaced or rewritten since).
    pub fn is_current(&self) -> bool {
        Stamp::of(&self.path) == self.stamp
    }

    /// What the header says.
    pub fn info(&self) -> &BookInfo {
        &self.info
    }

    /// Where the book lies.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of the file.
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    fn word(&self, i: u64) -> u64 {
        let at = HEADER_BYTES + 8 * i as usize;
        u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes"))
    }

    /// The data word stored for `key`.
    pub fn data(&self, key: u64) -> Option<u64> {
        let slots = self.info.slots;
        let mut at = home(key, slots);
        for _ in 0..slots {
            let data = self.word(2 * at + 1);
            if data == 0 {
                return None;
            }
            if self.word(2 * at) ^ data == key {
                return Some(data);
            }
            at = (at + 1) & (slots - 1);
        }
        None
    }

    /// Every entry, key and data word.
    pub fn entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        (0..self.info.slots).filter_map(|at| {
            let data = self.word(2 * at + 1);
            (data != 0).then(|| (self.word(2 * at) ^ data, data))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("zermelo-book-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_written_book_reads_back_every_entry_and_no_other_key() {
        let path = temp("roundtrip.zbook");
        let entries: Vec<(u64, u64)> = (0..1000u64).map(|k| (k * 7919 + 3, k + 1)).collect();
        let info = write(&path, "dots:size=3", 5, 1000, entries.iter().copied()).unwrap();
        let book = Book::open(&path, "dots:size=3").unwrap();
        assert_eq!(book.info(), &info);
        assert_eq!(info.slots, 2048);
        for &(k, d) in &entries {
            assert_eq!(book.data(k), Some(d));
        }
        assert_eq!(book.data(4), None);
        let mut read: Vec<_> = book.entries().collect();
        read.sort();
        assert_eq!(read, entries);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_damaged_truncated_or_foreign_book_is_refused_in_one_line() {
        let path = temp("damaged.zbook");
        write(&path, "dots:size=3", 0, 1, [(1, 2)].into_iter()).unwrap();
        let err = Book::open(&path, "dots:size=4").err().unwrap().to_string();
        assert!(
            err.contains("is the book of dots:size=3, not of dots:size=4"),
            "{err}"
        );
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[9] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = Book::open(&path, "dots:size=3").err().unwrap().to_string();
        assert!(err.contains("damaged header"), "{err}");
        bytes[9] ^= 1;
        bytes.truncate(bytes.len() - 1);
        std::fs::write(&path, &bytes).unwrap();
        let err = Book::open(&path, "dots:size=3").err().unwrap().to_string();
        assert!(err.contains("truncated"), "{err}");
        assert!(!err.contains('\n'));
        std::fs::remove_file(&path).unwrap();
    }
}
