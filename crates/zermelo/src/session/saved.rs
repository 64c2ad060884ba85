//! The saved databases and opening books of a data folder: what each holds ([`info`], [`list`]), whether
//! it is sound ([`verify`]), and the parts of a split solve put together ([`merge`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::Session;
use crate::analysis::report::Certificate;
use crate::class::Class;
use crate::solve::Progress;
use crate::table::db::{self, Database};
use crate::table::opening::{self, Opening};
use crate::Error;

/// What a saved database holds.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbInfo {
    /// Where it lies.
    pub path: String,
    /// The game whose table it is.
    pub spec: String,
    /// Its format version.
    pub format: u32,
    /// The solver that made it and its version.
    pub solver: String,
    /// The number of ranks of the table.
    pub ranks: u64,
    /// The valid positions among them.
    pub positions: u64,
    /// The file's length in bytes.
    pub bytes: u64,
    /// Bits on disk per valid position.
    pub bits_per_position: f64,
    /// Raw bytes of the layers over their stored bytes.
    pub compression_ratio: f64,
    /// Counts the solver recorded (wins, losses, ...).
    pub counts: Vec<DbCount>,
    /// The layers, in the order they are stored.
    pub layers: Vec<DbLayer>,
    /// Which part of a split solve's table it holds; `None` for a whole table.
    pub part: Option<DbPart>,
}

/// Which part of a split solve's table a database holds.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbPart {
    /// Its number, from 1.
    pub number: u32,
    /// The number of parts of the table.
    pub count: u32,
    /// The solve the parts come from (16 hex digits).
    pub solve: String,
    /// The ranks of the whole table.
    pub table_ranks: u64,
    /// The table's ranks it holds, as `[start, end)` pairs in order.
    pub ranges: Vec<[u64; 2]>,
}

impl DbPart {
    fn of(db: &Database) -> Option<DbPart> {
        db.header().part.as_ref().map(|p| DbPart {
            number: p.number,
            count: p.count,
            solve: format!("{:016x}", p.solve),
            table_ranks: p.table_ranks,
            ranges: p.ranges.iter().map(|r| [r.start, r.end]).collect(),
        })
    }
}

/// A count a database header holds.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbCount {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: u64,
}

/// One layer of a database.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbLayer {
    /// What it holds: wdl, remoteness or margin.
    pub name: &'static str,
    /// Bits per rank before compression.
    pub bits: u64,
    /// Its number of blocks.
    pub blocks: u64,
    /// Bytes before compression.
    pub raw_bytes: u64,
    /// Bytes in the file.
    pub stored_bytes: u64,
}

/// The databases of a data folder.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbList {
    /// The folder.
    pub dir: String,
    /// Every database in it, by file name.
    pub databases: Vec<DbInfo>,
    /// Files that should be databases but cannot be read, with why.
    pub unreadable: Vec<String>,
    /// The checkpoints of solves that were stopped, which the same solve goes on from.
    pub unfinished: Vec<String>,
}

/// What `verify` found.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbCheck {
    /// The database.
    pub path: String,
    /// The game whose table it is.
    pub spec: String,
    /// Blocks read and checked.
    pub blocks: u64,
    /// Positions re-solved from their children's stored values, all agreeing (none in a
    /// part, whose children lie in other parts).
    pub sampled: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Which part of a split solve's table it holds; `None` for a whole table.
    pub part: Option<DbPart>,
    /// The counts and SHA-256 of its values, as `zermelo report` prints them; `None` for
    /// a part or a table without win/lose/draw values.
    pub certificate: Option<Certificate>,
}

/// What `merge` wrote.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DbMerge {
    /// The merged database.
    #[serde(flatten)]
    pub info: DbInfo,
    /// The parts it was merged from, in the order given.
    pub parts: Vec<String>,
    /// Seconds taken.
    pub seconds: f64,
}

/// What the database at `path` holds, from its header.
pub fn info(path: &Path) -> Result<DbInfo, Error> {
    if opening::is_opening(path) {
        return opening_info(path);
    }
    Ok(describe(&Database::open(path)?))
}

/// What an opening book holds, as a database's info: its entries as positions, their
/// values counted, its depth and whether every position up to it is in.
fn opening_info(path: &Path) -> Result<DbInfo, Error> {
    let spec = Opening::spec_of(path)?;
    let book = Opening::open(path, &spec)?;
    let info = book.info();
    let bytes = std::fs::metadata(path)
        .map_err(|e| Error::Io(format!("{}: {e}", path.display())))?
        .len();
    let count = |class| book.entries().filter(|(_, v)| v.class() == class).count() as u64;
    let counts = [
        ("wins", count(Class::Win)),
        ("draws", count(Class::Draw)),
        ("losses", count(Class::Lose)),
        ("depth", u64::from(info.depth)),
        ("complete", u64::from(info.complete)),
    ];
    Ok(DbInfo {
        path: path.display().to_string(),
        spec,
        format: 1,
        solver: "opening book".into(),
        ranks: info.entries,
        positions: info.entries,
        bytes,
        bits_per_position: bytes as f64 * 8.0 / info.entries.max(1) as f64,
        compression_ratio: 1.0,
        counts: counts
            .into_iter()
            .map(|(name, value)| DbCount {
                name: name.into(),
                value,
            })
            .collect(),
        layers: Vec::new(),
        part: None,
    })
}

fn describe(db: &Database) -> DbInfo {
    let h = db.header();
    let positions = match h.count("positions") {
        0 => h.ranks,
        n => n,
    };
    let raw: u64 = db.layers().iter().map(|l| l.raw_bytes).sum();
    let stored: u64 = db.layers().iter().map(|l| l.stored_bytes).sum();
    DbInfo {
        path: db.path().display().to_string(),
        spec: h.spec.clone(),
        format: db::VERSION,
        solver: format!("{} {}", h.solver, h.solver_version),
        ranks: h.ranks,
        positions,
        bytes: db.file_bytes(),
        bits_per_position: db.file_bytes() as f64 * 8.0 / positions.max(1) as f64,
        compression_ratio: raw as f64 / stored.max(1) as f64,
        counts: h
            .counts
            .iter()
            .map(|(name, value)| DbCount {
                name: name.clone(),
                value: *value,
            })
            .collect(),
        layers: db
            .layers()
            .iter()
            .map(|l| DbLayer {
                name: l.layer.name(),
                bits: l.layer.bits(),
                blocks: l.blocks() as u64,
                raw_bytes: l.raw_bytes,
                stored_bytes: l.stored_bytes,
            })
            .collect(),
        part: DbPart::of(db),
    }
}

/// The databases (`*.zdb`) and unfinished solves (`*.levels`, and proofs' `*.proof`) in
/// `dir`, by file name.
pub fn list(dir: &Path) -> Result<DbList, Error> {
    let fail = |e: std::io::Error| Error::Io(format!("data folder {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(fail)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(fail(e)),
    };
    files.sort();
    let mut out = DbList {
        dir: dir.display().to_string(),
        databases: Vec::new(),
        unreadable: Vec::new(),
        unfinished: Vec::new(),
    };
    for path in files {
        match path.extension().and_then(|e| e.to_str()) {
            Some("zdb") => match info(&path) {
                Ok(i) => out.databases.push(i),
                Err(e) => out.unreadable.push(e.to_string()),
            },
            Some("zob") => match info(&path) {
                Ok(i) => out.databases.push(i),
                Err(e) => out.unreadable.push(e.to_string()),
            },
            Some("levels" | "proof") => out.unfinished.push(path.display().to_string()),
            _ => {}
        }
    }
    Ok(out)
}

/// Checks the database at `path`: its header and block indexes, every block's checksum
/// and size, and `sample` random positions re-solved from their children's stored values
/// by the game's own session, which `open` opens from the spec the header names (drawn
/// from `seed`).
pub fn verify(
    path: &Path,
    sample: u64,
    seed: u64,
    progress: &dyn Progress,
    open: fn(&str) -> Result<Box<dyn Session>, Error>,
) -> Result<DbCheck, Error> {
    let started = Instant::now();
    if opening::is_opening(path) {
        let spec = Opening::spec_of(path)?;
        progress.start("re-valuing the book's positions", 0);
        let sampled = open(&spec)?.check_opening(path, sample, seed)?;
        return Ok(DbCheck {
            path: path.display().to_string(),
            spec,
            blocks: 0,
            sampled,
            seconds: started.elapsed().as_secs_f64(),
            part: None,
            certificate: None,
        });
    }
    let db = Database::open(path)?;
    let raw: u64 = db.layers().iter().map(|l| l.raw_bytes).sum();
    progress.start("checking blocks", raw);
    db.check_blocks(&|bytes| progress.advance(bytes))?;
    let sampled = if sample > 0 && db.header().part.is_none() {
        open(&db.header().spec)?.check_sample(&db, sample, seed)?
    } else {
        0
    };
    let certificate = Certificate::certifies(&db)
        .then(|| Certificate::of_database(&db))
        .transpose()?;
    Ok(DbCheck {
        path: path.display().to_string(),
        spec: db.header().spec.clone(),
        blocks: db.layers().iter().map(|l| l.blocks() as u64).sum(),
        sampled,
        seconds: started.elapsed().as_secs_f64(),
        part: DbPart::of(&db),
        certificate,
    })
}

/// Merges the parts of a split solve's table (the files at `parts`) into the database
/// at `out`, byte for byte the one a solve in one process saves; see [`db::merge`].
pub fn merge(parts: &[PathBuf], out: &Path) -> Result<DbMerge, Error> {
    let started = Instant::now();
    db::merge(parts, out)?;
    Ok(DbMerge {
        info: info(out)?,
        parts: parts.iter().map(|p| p.display().to_string()).collect(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
