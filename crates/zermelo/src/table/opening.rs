//! Opening books: the exact value of every position up to a number of plies from the start,
//! one entry per class of positions under the game's symmetries, each keyed by its
//! representative in the game's position notation (so that a key names one position, never
//! a hash of it).
//!
//! A book is a small file read whole: a header (magic with the format's version, the game
//! spec, the depth asked for, whether every position up to it is in), the entries sorted by
//! key, each a key and its value's score ([`Value::score`]), and a checksum of everything
//! before it. It is written to a temporary file renamed into place, so that a book is
//! whole or absent; a book being made is saved as it grows, and its making goes on from it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::db::checksum;
use super::Stamp;
use crate::{Error, Value};

/// The first bytes of every opening book, with its format's version.
const MAGIC: &[u8; 8] = b"ZMOPEN01";

/// What a book's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningInfo {
    /// The game spec.
    pub spec: String,
    /// The plies from the start the book covers.
    pub depth: u32,
    /// Whether every position up to `depth` is in (else the book is being made).
    pub complete: bool,
    /// Entries stored.
    pub entries: u64,
}

/// An opening book read from disk, or being made.
#[derive(Clone, Debug)]
pub struct Opening {
    info: OpeningInfo,
    values: BTreeMap<String, Value>,
    path: PathBuf,
    stamp: Option<Stamp>,
}

fn book_error(path: &Path, why: impl Into<crate::error::Said>) -> Error {
    Error::Database {
        path: path.display().to_string(),
        why: why.into(),
    }
}

/// Whether the file at `path` starts as an opening book does.
pub fn is_opening(path: &Path) -> bool {
    let mut head = [0u8; 8];
    super::open_regular(path, fs::OpenOptions::new().read(true))
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok_and(|()| &head == MAGIC)
}

/// Reads what `bytes` hold, or says why they are not a whole book.
fn decode(bytes: &[u8]) -> Result<(OpeningInfo, BTreeMap<String, Value>), String> {
    if bytes.len() < 8 + 8 || &bytes[..8] != MAGIC {
        return Err("not a zermelo opening book (or a book of another format version)".into());
    }
    let body = &bytes[..bytes.len() - 8];
    let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    if checksum(body) != sum {
        return Err("damaged (checksum)".into());
    }
    let mut at = 8usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let got = body.get(at..at + n).ok_or("truncated or damaged")?;
        at += n;
        Ok(got)
    };
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|_| "damaged (text)".to_string());
    let spec_len = word(take(8)?) as usize;
    let spec = text(take(spec_len)?)?;
    let depth = word(take(8)?) as u32;
    let complete = word(take(8)?) == 1;
    let entries = word(take(8)?);
    let mut values = BTreeMap::new();
    for _ in 0..entries {
        let len = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes")) as usize;
        let key = text(take(len)?)?;
        let score = i32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        values.insert(key, Value::from_score(score));
    }
    if take(1).is_ok() || values.len() as u64 != entries {
        return Err("damaged (entries)".into());
    }
    Ok((
        OpeningInfo {
            spec,
            depth,
            complete,
            entries,
        },
        values,
    ))
}

impl Opening {
    /// An empty book of `spec` to `depth` plies, to be saved at `path`.
    pub fn new(path: &Path, spec: &str, depth: u32) -> Opening {
        Opening {
            info: OpeningInfo {
                spec: spec.to_string(),
                depth,
                complete: false,
                entries: 0,
            },
            values: BTreeMap::new(),
            path: path.to_path_buf(),
            stamp: None,
        }
    }

    /// Opens the book at `path`, refusing a damaged one or one of another game than `spec`.
    pub fn open(path: &Path, spec: &str) -> Result<Opening, Error> {
        let stamp = Stamp::of(path);
        let bytes = super::open_regular(path, fs::OpenOptions::new().read(true))
            .and_then(|mut f| {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut f, &mut bytes).map(|_| bytes)
            })
            .map_err(|e| book_error(path, format!("cannot be read: {e}")))?;
        let (info, values) = decode(&bytes).map_err(|why| book_error(path, why))?;
        if info.spec != spec {
            return Err(book_error(
                path,
                format!("is the opening book of {}, not of {spec}", info.spec),
            ));
        }
        Ok(Opening {
            info,
            values,
            path: path.to_path_buf(),
            stamp,
        })
    }

    /// The spec its header names, without checking the rest of the book.
    pub fn spec_of(path: &Path) -> Result<String, Error> {
        let bytes = fs::read(path).map_err(|e| book_error(path, format!("cannot be read: {e}")))?;
        decode(&bytes)
            .map(|(info, _)| info.spec)
            .map_err(|why| book_error(path, why))
    }

    /// Whether its path still names the file read (not one replaced since).
    pub fn is_current(&self) -> bool {
        Stamp::of(&self.path) == self.stamp
    }

    /// What the header says.
    pub fn info(&self) -> &OpeningInfo {
        &self.info
    }

    /// Where the book lies.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The value of the position keyed `key`, when the book holds it.
    pub fn value(&self, key: &str) -> Option<Value> {
        self.values.get(key).copied()
    }

    /// Every entry, by key.
    pub fn entries(&self) -> impl Iterator<Item = (&str, Value)> + '_ {
        self.values.iter().map(|(k, &v)| (k.as_str(), v))
    }

    /// Keeps the value of the position keyed `key`.
    pub fn insert(&mut self, key: String, value: Value) {
        self.values.insert(key, value);
        self.info.entries = self.values.len() as u64;
    }

    /// Marks every position up to the depth in.
    pub fn set_complete(&mut self) {
        self.info.complete = true;
    }

    /// Writes the book to its path (whole or not at all); its size in bytes.
    pub fn save(&mut self) -> Result<u64, Error> {
        let path = self.path.clone();
        let mut bytes = Vec::with_capacity(64 + self.values.len() * 64);
        bytes.extend_from_slice(MAGIC);
        let spec = self.info.spec.as_bytes();
        bytes.extend_from_slice(&(spec.len() as u64).to_le_bytes());
        bytes.extend_from_slice(spec);
        for n in [
            u64::from(self.info.depth),
            u64::from(self.info.complete),
            self.values.len() as u64,
        ] {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        for (key, value) in &self.values {
            let len = u16::try_from(key.len())
                .map_err(|_| book_error(&path, format!("a position's notation is too long: {key}")))?;
            bytes.extend_from_slice(&len.to_le_bytes());
            bytes.extend_from_slice(key.as_bytes());
            bytes.extend_from_slice(&value.score().to_le_bytes());
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        let temp = super::temp_path(&path);
        let io = |e: std::io::Error| book_error(&path, format!("writing: {e}"));
        let written = (|| {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir)?;
            }
            fs::write(&temp, &bytes)?;
            fs::rename(&temp, &path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&temp);
            return Err(io(e));
        }
        self.stamp = Stamp::of(&path);
        Ok(bytes.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("zermelo-opening-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_saved_book_reads_back_its_entries_and_header() {
        let path = temp("roundtrip.zob");
        let mut book = Opening::new(&path, "connect4:cols=5,rows=4", 3);
        let values = [Value::Win(7), Value::Lose(2), Value::Draw];
        for (i, v) in values.iter().enumerate() {
            book.insert(format!("pos{i}"), *v);
        }
        book.set_complete();
        book.save().unwrap();
        assert!(is_opening(&path));
        let read = Opening::open(&path, "connect4:cols=5,rows=4").unwrap();
        assert_eq!(read.info(), book.info());
        assert_eq!(read.info().entries, 3);
        for (i, v) in values.iter().enumerate() {
            assert_eq!(read.value(&format!("pos{i}")), Some(*v));
        }
        assert_eq!(read.value("pos3"), None);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_damaged_truncated_or_foreign_book_is_refused_in_one_line() {
        let path = temp("damaged.zob");
        let mut book = Opening::new(&path, "connect4:cols=5,rows=4", 2);
        book.insert("a".into(), Value::Win(3));
        book.save().unwrap();
        let err = Opening::open(&path, "connect4:cols=6,rows=4")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("is the opening book of connect4:cols=5,rows=4"),
            "{err}"
        );
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = Opening::open(&path, "connect4:cols=5,rows=4")
            .unwrap_err()
            .to_string();
        assert!(err.contains("damaged"), "{err}");
        bytes.truncate(5);
        std::fs::write(&path, &bytes).unwrap();
        let err = Opening::open(&path, "connect4:cols=5,rows=4")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not a zermelo opening book") && !err.contains('\n'),
            "{err}"
        );
        std::fs::remove_file(&path).unwrap();
    }
}
