//! Solved databases: a table of values by rank in one file, compressed in blocks and
//! probed in place.
//!
//! Layout (format version 2, numbers little-endian):
//! - the header: magic `ZERMELO` and a 0x1a byte, the format version (u32), the
//!   header's length (u32), the canonical spec of the game, the solver and its version,
//!   the number of ranks, named counts (wins, losses, ...), then per layer its kind, bits
//!   per rank, ranks per block, number of blocks, where its block index starts and the
//!   index's checksum, and its raw and stored sizes; for a part of a split solve's table
//!   ([`Part`]) the byte 1, its number and count (u32 each), the solve's identity, the
//!   table's ranks, and its ranges of the table's ranks (a u64 count, then start and end
//!   of each); last the header's checksum;
//! - the blocks: each layer cut into blocks of [`BLOCK_BYTES`] raw bytes, each block a
//!   zstd frame of its own;
//! - per layer, the block index: for each block its offset (u64), stored length (u32)
//!   and the checksum of its stored bytes (u64).
//!
//! Opening a file reads and checks the header and the block indexes only; a probe maps
//! one block, checks it, decompresses it and keeps it in a small cache. The win/lose/draw
//! layer ([`Layer::Wdl`], 2 bits a rank) is apart from the remoteness layer, so a probe
//! for the value alone touches only the small layer. A heap game's sequence is one layer
//! of values by heap size ([`Layer::grundy`]: 8, 16 or 32 bits each) or of win/loss. A file is written to a temporary
//! name, synced and renamed into place: a reader never sees half a file.

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use memmap2::Mmap;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::wdl_code;
use crate::value::Value;
use crate::Error;

/// The first bytes of every database file.
pub const MAGIC: [u8; 8] = *b"ZERMELO\x1a";
/// The format version this code writes and reads.
pub const VERSION: u32 = 2;
/// Raw bytes in a block (the last block of a layer may be shorter).
pub const BLOCK_BYTES: u64 = 1 << 18;
/// The zstd level blocks are compressed at.
const LEVEL: i32 = 5;
/// Decompressed blocks kept in a database's cache.
const CACHE_BLOCKS: usize = 256;
/// Blocks compressed together in parallel while writing.
const BATCH: usize = 256;
/// Bytes of one block-index entry: offset, stored length, checksum.
const ENTRY_BYTES: usize = 20;

/// What a layer holds for each rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// 2 bits a rank: 0 no valid position, 1 win, 2 loss, 3 draw for the mover.
    Wdl,
    /// One byte a rank: the remoteness of a win or loss (saturated at 255).
    Remoteness,
    /// One byte a rank: half the remoteness, for tables where every win is an odd number
    /// of moves from the end (or none) and every loss an even number: a loss's remoteness
    /// is twice the byte, a win's twice the byte less one (0 stays 0).
    HalfRemoteness,
    /// One byte a rank: a signed score margin for the mover.
    Margin,
    /// A value by heap size (a Grundy value), one byte each.
    Grundy8,
    /// A value by heap size, two bytes each.
    Grundy16,
    /// A value by heap size, four bytes each.
    Grundy32,
}

impl Layer {
    fn code(self) -> u8 {
        match self {
            Layer::Wdl => 1,
            Layer::Remoteness => 2,
            Layer::Margin => 3,
            Layer::HalfRemoteness => 4,
            Layer::Grundy8 => 5,
            Layer::Grundy16 => 6,
            Layer::Grundy32 => 7,
        }
    }

    /// The narrowest value layer that holds values up to `max`.
    pub fn grundy(max: u32) -> Self {
        match max {
            0..=0xff => Layer::Grundy8,
            0x100..=0xffff => Layer::Grundy16,
            _ => Layer::Grundy32,
        }
    }

    /// Whether the layer holds values by heap size.
    pub fn is_grundy(self) -> bool {
        matches!(self, Layer::Grundy8 | Layer::Grundy16 | Layer::Grundy32)
    }

    fn from_code(code: u8) -> Option<Self> {
        [
            Layer::Wdl,
            Layer::Remoteness,
            Layer::Margin,
            Layer::HalfRemoteness,
            Layer::Grundy8,
            Layer::Grundy16,
            Layer::Grundy32,
        ]
        .into_iter()
        .find(|l| l.code() == code)
    }

    /// Bits a rank takes in the layer.
    pub fn bits(self) -> u64 {
        match self {
            Layer::Wdl => 2,
            Layer::Remoteness | Layer::HalfRemoteness | Layer::Margin | Layer::Grundy8 => 8,
            Layer::Grundy16 => 16,
            Layer::Grundy32 => 32,
        }
    }

    /// Ranks in one block of the layer.
    pub fn block_ranks(self) -> u64 {
        BLOCK_BYTES * 8 / self.bits()
    }

    /// The layer's name, as `db info` shows it.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Wdl => "wdl",
            Layer::Remoteness => "remoteness",
            Layer::HalfRemoteness => "half-remoteness",
            Layer::Margin => "margin",
            Layer::Grundy8 => "grundy8",
            Layer::Grundy16 => "grundy16",
            Layer::Grundy32 => "grundy32",
        }
    }
}

/// What a database says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The canonical spec of the game whose table this is.
    pub spec: String,
    /// The solver that made it.
    pub solver: String,
    /// The version of that solver's output.
    pub solver_version: u32,
    /// The number of ranks.
    pub ranks: u64,
    /// Named counts (e.g. wins, losses, draws, max_remoteness).
    pub counts: Vec<(String, u64)>,
    /// The layers, in the order they are stored.
    pub layers: Vec<Layer>,
    /// Which part of a split solve's table the file holds; `None` for a whole table.
    pub part: Option<Part>,
}

/// Which part of a table a database holds, when a solve split across processes saved
/// each process's ranks apart ([`merge`] puts the parts together).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its number, from 1.
    pub number: u32,
    /// The number of parts of the table.
    pub count: u32,
    /// The solve the parts come from: parts of different solves are never merged.
    pub solve: u64,
    /// The ranks of the whole table.
    pub table_ranks: u64,
    /// The table's ranks this part holds, in order: the part's rank `i` is the `i`-th.
    pub ranges: Vec<Range<u64>>,
}

/// The section tag of a [`Part`] in a header.
const PART_SECTION: u8 = 1;

impl Part {
    /// The part's name in messages: `part 2 of 3`.
    pub fn name(&self) -> String {
        format!("part {} of {}", self.number, self.count)
    }
}

impl Header {
    /// The count named `name`, 0 when absent.
    pub fn count(&self, name: &str) -> u64 {
        self.counts.iter().find(|(n, _)| n == name).map_or(0, |c| c.1)
    }
}

/// One layer of an opened database: where its blocks are.
#[derive(Clone, Debug)]
pub struct LayerInfo {
    /// What it holds.
    pub layer: Layer,
    /// Bytes before compression.
    pub raw_bytes: u64,
    /// Bytes of its blocks in the file.
    pub stored_bytes: u64,
    blocks: Vec<Block>,
}

impl LayerInfo {
    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }
}

#[derive(Clone, Copy, Debug)]
struct Block {
    offset: u64,
    len: u32,
    checksum: u64,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A 64-bit checksum of `bytes`: FNV-1a over 8-byte words, then mixed. Any one changed
/// word changes it.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))).wrapping_mul(FNV_PRIME);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

fn db_error(path: &Path, why: impl Into<String>) -> Error {
    Error::Database {
        path: path.display().to_string(),
        why: why.into(),
    }
}

/// Appends the raw bytes of `ranks` of a layer: 2-bit entries four to a byte (low bits
/// first), or one byte each.
pub type Fill<'a> = dyn Fn(Layer, Range<u64>, &mut Vec<u8>) -> Result<(), Error> + Sync + 'a;

/// Appends the values of `ranks` (`None` for no valid position).
pub type Values<'a> = dyn Fn(Range<u64>, &mut Vec<Option<Value>>) -> Result<(), Error> + Sync + 'a;

/// Writes a database to `path` (creating its folder): the `header`, and for every layer
/// its blocks, whose raw bytes `fill` gives. Nothing is left at `path` on failure.
pub fn write(path: &Path, header: &Header, fill: &Fill<'_>) -> Result<(), Error> {
    let temp = path.with_extension("tmp");
    let result = write_to(&temp, header, fill).and_then(|()| {
        fs::rename(&temp, path).map_err(|e| db_error(path, format!("renaming into place: {e}")))
    });
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

fn write_to(temp: &Path, header: &Header, fill: &Fill<'_>) -> Result<(), Error> {
    let io = |e: std::io::Error| db_error(temp, format!("writing: {e}"));
    if let Some(dir) = temp.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let mut file = fs::File::create(temp).map_err(io)?;
    let mut infos: Vec<LayerInfo> = header
        .layers
        .iter()
        .map(|&layer| LayerInfo {
            layer,
            raw_bytes: (header.ranks * layer.bits()).div_ceil(8),
            stored_bytes: 0,
            blocks: Vec::new(),
        })
        .collect();
    let header_len = encode_header(header, &infos, &[]).len() as u64;
    file.write_all(&vec![0; header_len as usize]).map_err(io)?;
    let mut at = header_len;
    let mut out = std::io::BufWriter::with_capacity(1 << 22, file);
    for info in &mut infos {
        let per_block = info.layer.block_ranks();
        let blocks = header.ranks.div_ceil(per_block);
        let mut next = 0;
        while next < blocks {
            let batch = next..(next + BATCH as u64).min(blocks);
            next = batch.end;
            let frames: Vec<Vec<u8>> = batch
                .into_par_iter()
                .map(|b| {
                    let mut raw = Vec::with_capacity(BLOCK_BYTES as usize);
                    fill(
                        info.layer,
                        b * per_block..((b + 1) * per_block).min(header.ranks),
                        &mut raw,
                    )?;
                    Ok(zstd::bulk::compress(&raw, LEVEL).expect("compressing to memory"))
                })
                .collect::<Result<_, Error>>()?;
            for frame in frames {
                out.write_all(&frame).map_err(io)?;
                info.blocks.push(Block {
                    offset: at,
                    len: frame.len() as u32,
                    checksum: checksum(&frame),
                });
                at += frame.len() as u64;
                info.stored_bytes += frame.len() as u64;
            }
        }
    }
    let mut index_at = Vec::new();
    for info in &infos {
        let index = encode_index(&info.blocks);
        index_at.push((at, checksum(&index)));
        out.write_all(&index).map_err(io)?;
        at += index.len() as u64;
    }
    let mut file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(&encode_header(header, &infos, &index_at))
        .map_err(io)?;
    file.sync_all().map_err(io)
}

/// The counts [`write_values`] records, besides `positions`.
pub const VALUE_COUNTS: [&str; 4] = ["wins", "losses", "draws", "max_remoteness"];

/// Writes the values of ranks `0..ranks` (`values` gives them by range) to `path` as a
/// database of two layers: win/lose/draw, and remoteness (halved when every win is odd
/// or 0 and every loss even); its counts are [`VALUE_COUNTS`] and the valid positions.
/// `part` says which part of a table the ranks are, if they are one.
pub fn write_values(
    path: &Path,
    spec: &str,
    solver: (&str, u32),
    ranks: u64,
    part: Option<Part>,
    values: &Values<'_>,
) -> Result<(), Error> {
    const CHUNK: u64 = 1 << 20;
    let tally = (0..ranks.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut tally = Tally::default();
            let mut chunk = Vec::with_capacity(CHUNK as usize);
            values(c * CHUNK..((c + 1) * CHUNK).min(ranks), &mut chunk)?;
            for v in chunk {
                tally.add(v, 1);
            }
            Ok::<_, Error>(tally)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.join(b)))?;
    let half = tally.half();
    write(
        path,
        &tally.header(spec, solver, ranks, part),
        &|layer, span, out| {
            let mut block = Vec::with_capacity((span.end - span.start) as usize);
            values(span.clone(), &mut block)?;
            let start = span.start;
            pack(
                layer,
                span,
                |r| layer_entry(layer, block[(r - start) as usize], half),
                out,
            );
            Ok(())
        },
    )
}

/// [`write_values`] for a table of one code a rank, `decode` giving each code's value:
/// the codes are tallied and turned into entries a whole code at a time.
pub fn write_codes(
    path: &Path,
    spec: &str,
    solver: (&str, u32),
    part: Option<Part>,
    codes: &[u8],
    decode: fn(u8) -> Option<Value>,
) -> Result<(), Error> {
    let tally = Tally::of_codes(codes, decode);
    let half = tally.half();
    let header = tally.header(spec, solver, codes.len() as u64, part);
    write(path, &header, &|layer, span, out| {
        let entries: [u32; 256] = std::array::from_fn(|c| layer_entry(layer, decode(c as u8), half));
        pack(layer, span, |r| entries[codes[r as usize] as usize], out);
        Ok(())
    })
}

/// The counts of the values of `codes` (one a rank, read by `decode`), as a database of
/// them holds them ([`VALUE_COUNTS`]).
pub fn value_counts(codes: &[u8], decode: fn(u8) -> Option<Value>) -> [u64; 4] {
    let [wins, losses, draws, remoteness, _] = Tally::of_codes(codes, decode).0;
    [wins, losses, draws, remoteness]
}

/// What a database of values counts: wins, losses, draws, the greatest remoteness, and
/// whether a remoteness breaks the parities that halving needs.
#[derive(Clone, Copy, Default)]
struct Tally([u64; 5]);

impl Tally {
    /// The tally of `codes`, one a rank, read by `decode`.
    fn of_codes(codes: &[u8], decode: fn(u8) -> Option<Value>) -> Tally {
        let seen = codes
            .par_chunks(1 << 20)
            .map(|chunk| {
                let mut seen = [0u64; 256];
                for &c in chunk {
                    seen[c as usize] += 1;
                }
                seen
            })
            .reduce(|| [0; 256], |a, b| std::array::from_fn(|c| a[c] + b[c]));
        let mut tally = Tally::default();
        for (code, &times) in (0..=u8::MAX).zip(&seen) {
            if times > 0 {
                tally.add(decode(code), times);
            }
        }
        tally
    }

    /// Counts `v`, `times` times.
    fn add(&mut self, v: Option<Value>, times: u64) {
        let (slot, rem, odd) = match v {
            Some(Value::Win(x)) => (0, x, x % 2 == 1 || x == 0),
            Some(Value::Lose(x)) => (1, x, x % 2 == 0),
            Some(Value::Draw) => (2, 0, true),
            None => return,
        };
        self.0[slot] += times;
        self.0[3] = self.0[3].max(rem.into());
        self.0[4] |= u64::from(!odd);
    }

    fn join(self, other: Tally) -> Tally {
        let [a, b] = [self.0, other.0];
        Tally([a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3].max(b[3]), a[4] | b[4]])
    }

    /// Whether the remoteness layer can be halved.
    fn half(&self) -> bool {
        self.0[4] == 0
    }

    /// The header of a database of these values.
    fn header(&self, spec: &str, solver: (&str, u32), ranks: u64, part: Option<Part>) -> Header {
        let mut counts: Vec<(String, u64)> = VALUE_COUNTS.iter().map(|n| n.to_string()).zip(self.0).collect();
        counts.push(("positions".into(), self.0[..3].iter().sum()));
        Header {
            spec: spec.into(),
            solver: solver.0.into(),
            solver_version: solver.1,
            ranks,
            counts,
            layers: vec![
                Layer::Wdl,
                if self.half() {
                    Layer::HalfRemoteness
                } else {
                    Layer::Remoteness
                },
            ],
            part,
        }
    }
}

/// The entry of value `v` in a layer of [`write_values`], the remoteness halved if `half`.
fn layer_entry(layer: Layer, v: Option<Value>, half: bool) -> u32 {
    match (layer, v) {
        (Layer::Wdl, v) => wdl_code(v).into(),
        (_, Some(Value::Win(x))) if half => x.div_ceil(2).min(u8::MAX.into()),
        (_, Some(Value::Lose(x))) if half => (x / 2).min(u8::MAX.into()),
        (_, v) => v.and_then(Value::remoteness).unwrap_or(0).min(u8::MAX.into()),
    }
}

/// Appends the entries `code(rank)` of `ranks` in `layer`'s raw layout: 2-bit codes four
/// to a byte (low bits first), else each in the layer's width, little-endian.
pub fn pack(layer: Layer, ranks: Range<u64>, code: impl Fn(u64) -> u32, out: &mut Vec<u8>) {
    match layer.bits() {
        2 => {
            for four in ranks.clone().step_by(4) {
                let byte = (four..(four + 4).min(ranks.end))
                    .enumerate()
                    .fold(0, |b, (i, r)| b | (code(r) as u8 & 3) << (2 * i));
                out.push(byte);
            }
        }
        bits => {
            for r in ranks {
                out.extend_from_slice(&code(r).to_le_bytes()[..bits as usize / 8]);
            }
        }
    }
}

/// Entry `within` of a block of `layer`'s raw bytes, as [`pack`] lays them out.
fn unpack(layer: Layer, raw: &[u8], within: u64) -> u32 {
    match layer.bits() {
        2 => u32::from(raw[(within / 4) as usize] >> (2 * (within % 4)) & 3),
        bits => {
            let width = bits as usize / 8;
            let at = within as usize * width;
            let mut bytes = [0; 4];
            bytes[..width].copy_from_slice(&raw[at..at + width]);
            u32::from_le_bytes(bytes)
        }
    }
}

/// Merges the parts of one split solve's table (the files at `paths`, in any order)
/// into the database at `out`: the file a solve in one process writes. Refuses parts
/// of different tables or solves, a part given twice, a missing part, and an `out`
/// that is one of the parts.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<(), Error> {
    let parts = paths
        .iter()
        .map(|p| Database::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let part = |db: &Database| {
        db.header.part.clone().ok_or_else(|| {
            db_error(
                &db.path,
                "holds a whole table, not a part of a split solve's table",
            )
        })
    };
    let first = parts
        .first()
        .ok_or_else(|| Error::Unsupported("give the parts of a table to merge".into()))?;
    let lead = part(first)?;
    let mut by_number: Vec<Option<&Database>> = vec![None; lead.count as usize];
    let mut pieces = Vec::new();
    for (index, db) in parts.iter().enumerate() {
        let p = part(db)?;
        let h = &db.header;
        if h.spec != first.header.spec {
            return Err(db_error(
                &db.path,
                format!(
                    "holds a part of the table of {}, not of {}",
                    h.spec, first.header.spec
                ),
            ));
        }
        if p.solve != lead.solve
            || p.count != lead.count
            || p.table_ranks != lead.table_ranks
            || (&h.solver, h.solver_version) != (&first.header.solver, first.header.solver_version)
        {
            return Err(db_error(
                &db.path,
                format!(
                    "is {} of another solve (solve {:016x}) than {} ({} of solve {:016x})",
                    p.name(),
                    p.solve,
                    first.path.display(),
                    lead.name(),
                    lead.solve
                ),
            ));
        }
        let slot = &mut by_number[p.number as usize - 1];
        if let Some(other) = slot {
            return Err(db_error(
                &db.path,
                format!("is {}, given twice (also as {})", p.name(), other.path.display()),
            ));
        }
        *slot = Some(db);
        let mut local = 0;
        for r in p.ranges.iter().filter(|r| !r.is_empty()) {
            pieces.push((r.clone(), index, local));
            local += r.end - r.start;
        }
    }
    if let Some(missing) = by_number.iter().position(Option::is_none) {
        return Err(Error::Unsupported(format!(
            "part {} of {} of {} (solve {:016x}) is missing: merge every part of the table",
            missing + 1,
            lead.count,
            first.header.spec,
            lead.solve
        )));
    }
    for db in &parts {
        if same_file(&db.path, out) {
            return Err(db_error(
                out,
                "is one of the parts: write the merged table elsewhere",
            ));
        }
    }
    pieces.sort_by_key(|(r, _, _)| r.start);
    let mut end = 0;
    for (r, _, _) in &pieces {
        if r.start != end {
            break;
        }
        end = r.end;
    }
    if end != lead.table_ranks {
        return Err(db_error(
            &first.path,
            format!("the parts do not hold every rank of the table once (rank {end} is missing or doubled)"),
        ));
    }
    let starts: Vec<u64> = pieces.iter().map(|(r, _, _)| r.start).collect();
    let h = &first.header;
    write_values(
        out,
        &h.spec,
        (&h.solver, h.solver_version),
        lead.table_ranks,
        None,
        &|ranks, values| {
            let mut at = starts.partition_point(|&s| s <= ranks.start) - 1;
            let mut next = ranks.start;
            while next < ranks.end {
                let (r, index, local) = &pieces[at];
                let end = r.end.min(ranks.end);
                let from = local + (next - r.start);
                parts[*index].values(from..from + (end - next), values)?;
                next = end;
                at += 1;
            }
            Ok(())
        },
    )
}

/// Whether `a` and `b` name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn encode_index(blocks: &[Block]) -> Vec<u8> {
    let mut out = Vec::with_capacity(blocks.len() * ENTRY_BYTES);
    for b in blocks {
        out.extend_from_slice(&b.offset.to_le_bytes());
        out.extend_from_slice(&b.len.to_le_bytes());
        out.extend_from_slice(&b.checksum.to_le_bytes());
    }
    out
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// The header's bytes; `index_at` gives each layer's index offset and checksum (zeros
/// while unknown, for the length).
fn encode_header(header: &Header, infos: &[LayerInfo], index_at: &[(u64, u64)]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    put_text(&mut out, &header.spec);
    put_text(&mut out, &header.solver);
    out.extend_from_slice(&header.solver_version.to_le_bytes());
    out.extend_from_slice(&header.ranks.to_le_bytes());
    out.extend_from_slice(&(header.counts.len() as u32).to_le_bytes());
    for (name, n) in &header.counts {
        put_text(&mut out, name);
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.push(infos.len() as u8);
    for (i, info) in infos.iter().enumerate() {
        let (offset, sum) = index_at.get(i).copied().unwrap_or_default();
        out.push(info.layer.code());
        out.push(info.layer.bits() as u8);
        for n in [
            info.layer.block_ranks(),
            header.ranks.div_ceil(info.layer.block_ranks()),
            offset,
            sum,
            info.raw_bytes,
            info.stored_bytes,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
    if let Some(part) = &header.part {
        out.push(PART_SECTION);
        out.extend_from_slice(&part.number.to_le_bytes());
        out.extend_from_slice(&part.count.to_le_bytes());
        out.extend_from_slice(&part.solve.to_le_bytes());
        out.extend_from_slice(&part.table_ranks.to_le_bytes());
        out.extend_from_slice(&(part.ranges.len() as u64).to_le_bytes());
        for r in &part.ranges {
            out.extend_from_slice(&r.start.to_le_bytes());
            out.extend_from_slice(&r.end.to_le_bytes());
        }
    }
    let len = (out.len() + 8) as u32;
    out[12..16].copy_from_slice(&len.to_le_bytes());
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads fields one after the other, `None` past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let field = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(field)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn text(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

/// An opened database: its header checked, its blocks probed on demand.
pub struct Database {
    path: PathBuf,
    map: Mmap,
    header: Header,
    layers: Vec<LayerInfo>,
    cache: Mutex<Cache>,
    fault: OnceLock<Error>,
}

/// A decompressed block and the tick of its last use.
type Cached = (Arc<[u8]>, u64);

/// Decompressed blocks by (layer, block).
#[derive(Default)]
struct Cache {
    blocks: FxHashMap<(usize, u64), Cached>,
    tick: u64,
}

impl Database {
    /// Opens the database at `path`, checking its magic, format version, header, block
    /// indexes and length; the blocks are checked when they are read.
    pub fn open(path: &Path) -> Result<Self, Error> {
        let fail = |why: String| db_error(path, why);
        let file = fs::File::open(path).map_err(|e| fail(e.to_string()))?;
        if file.metadata().map_err(|e| fail(e.to_string()))?.is_dir() {
            return Err(fail("is a folder, not a database file".into()));
        }
        // SAFETY: the file is only read; a database is written to a temporary name and
        // renamed into place, never changed where it lies.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| fail(e.to_string()))?;
        let (header, layers) = parse(&map).map_err(fail)?;
        Ok(Database {
            path: path.to_path_buf(),
            map,
            header,
            layers,
            cache: Mutex::new(Cache::default()),
            fault: OnceLock::new(),
        })
    }

    /// Opens the database at `path` and checks that it holds the table of `spec`, of
    /// `ranks` ranks when given.
    pub fn open_for(path: &Path, spec: &str, ranks: Option<u64>) -> Result<Self, Error> {
        let db = Database::open(path)?;
        let h = &db.header;
        if let Some(part) = &h.part {
            return Err(db_error(
                path,
                format!(
                    "holds {} of a split solve's table: merge the parts with `zermelo db merge`",
                    part.name()
                ),
            ));
        }
        if h.spec != spec {
            return Err(db_error(
                path,
                format!("holds the table of {}, not of {spec}", h.spec),
            ));
        }
        if let Some(ranks) = ranks.filter(|&r| r != h.ranks) {
            return Err(db_error(
                path,
                format!("holds {} ranks, expected {ranks}", h.ranks),
            ));
        }
        Ok(db)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The layers with their sizes.
    pub fn layers(&self) -> &[LayerInfo] {
        &self.layers
    }

    /// The file's length in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// Where the file lies.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entry of `rank` in `layer`.
    pub fn entry(&self, layer: Layer, rank: u64) -> Result<u32, Error> {
        self.check_ranks(rank..rank + 1)?;
        let index = self.layer_index(layer)?;
        let per_block = layer.block_ranks();
        let block = self.block(index, rank / per_block)?;
        Ok(unpack(layer, &block, rank % per_block))
    }

    /// The entries of `ranks` in `layer`, read block by block (past the cache).
    pub fn entries(&self, layer: Layer, ranks: Range<u64>) -> Result<Vec<u32>, Error> {
        self.check_ranks(ranks.clone())?;
        let index = self.layer_index(layer)?;
        let per_block = layer.block_ranks();
        let mut out = Vec::with_capacity((ranks.end - ranks.start) as usize);
        let mut next = ranks.start;
        while next < ranks.end {
            let b = next / per_block;
            let block = self.read_block(index, b)?;
            let end = ranks.end.min((b + 1) * per_block);
            out.extend((next..end).map(|r| unpack(layer, &block, r - b * per_block)));
            next = end;
        }
        Ok(out)
    }

    /// Refuses ranks beyond the table.
    fn check_ranks(&self, ranks: Range<u64>) -> Result<(), Error> {
        if ranks.end > self.header.ranks {
            return Err(db_error(
                &self.path,
                format!("rank {} is beyond its {} ranks", ranks.end - 1, self.header.ranks),
            ));
        }
        Ok(())
    }

    /// Where `layer` lies among the layers.
    fn layer_index(&self, layer: Layer) -> Result<usize, Error> {
        self.layers
            .iter()
            .position(|l| l.layer == layer)
            .ok_or_else(|| db_error(&self.path, format!("has no {} layer", layer.name())))
    }

    /// The value of `rank` from the win/lose/draw and remoteness layers, `None` when it
    /// is no valid position. The remoteness layer is read only for wins and losses.
    pub fn value(&self, rank: u64) -> Result<Option<Value>, Error> {
        let wdl = self.entry(Layer::Wdl, rank)? as u8;
        self.decode(wdl, || self.entry(self.remoteness_layer(), rank))
    }

    /// Appends the values of `ranks` (as [`Database::value`] gives them), reading each
    /// block once.
    pub fn values(&self, ranks: Range<u64>, out: &mut Vec<Option<Value>>) -> Result<(), Error> {
        if ranks.end > self.header.ranks {
            return Err(db_error(
                &self.path,
                format!("rank {} is beyond its {} ranks", ranks.end - 1, self.header.ranks),
            ));
        }
        let layer = self.remoteness_layer();
        let (wdl_per_block, far_per_block) = (Layer::Wdl.block_ranks(), layer.block_ranks());
        let index = |layer: Layer| self.layers.iter().position(|l| l.layer == layer);
        let wdl_index = index(Layer::Wdl).ok_or_else(|| db_error(&self.path, "has no wdl layer"))?;
        let far_index = index(layer);
        let mut wdl_block: Option<(u64, Arc<[u8]>)> = None;
        let mut far_block: Option<(u64, Arc<[u8]>)> = None;
        for rank in ranks {
            let b = rank / wdl_per_block;
            if wdl_block.as_ref().is_none_or(|(at, _)| *at != b) {
                wdl_block = Some((b, self.block(wdl_index, b)?));
            }
            let within = rank % wdl_per_block;
            let bytes = &wdl_block.as_ref().expect("a block just read").1;
            let wdl = bytes[(within / 4) as usize] >> (2 * (within % 4)) & 3;
            out.push(self.decode(wdl, || {
                let index = far_index.ok_or_else(|| db_error(&self.path, "has no remoteness layer"))?;
                let b = rank / far_per_block;
                if far_block.as_ref().is_none_or(|(at, _)| *at != b) {
                    far_block = Some((b, self.block(index, b)?));
                }
                Ok(u32::from(
                    far_block.as_ref().expect("a block just read").1[(rank % far_per_block) as usize],
                ))
            })?);
        }
        Ok(())
    }

    /// The layer holding remoteness: halved or whole.
    fn remoteness_layer(&self) -> Layer {
        if self.header.layers.contains(&Layer::HalfRemoteness) {
            Layer::HalfRemoteness
        } else {
            Layer::Remoteness
        }
    }

    /// The value a win/lose/draw code stands for, reading the remoteness byte (`far`)
    /// only for wins and losses.
    fn decode(&self, wdl: u8, far: impl FnOnce() -> Result<u32, Error>) -> Result<Option<Value>, Error> {
        if !(1..=2).contains(&wdl) {
            return Ok((wdl == 3).then_some(Value::Draw));
        }
        let byte = far()?;
        let r = match self.remoteness_layer() {
            Layer::HalfRemoteness => (2 * byte).saturating_sub(u32::from(wdl == 1)),
            _ => byte,
        };
        Ok(Some(if wdl == 1 { Value::Win(r) } else { Value::Lose(r) }))
    }

    /// The value of `rank`, which the caller knows to be a position: an error when the
    /// file holds none there.
    pub fn position_value(&self, rank: u64) -> Result<Value, Error> {
        self.value(rank)?.ok_or_else(|| {
            db_error(
                &self.path,
                format!("rank {rank}, a position, holds no value: the file is corrupt"),
            )
        })
    }

    /// Remembers the first failed probe, for callers that cannot return an error at once.
    pub fn record_fault(&self, e: Error) {
        let _ = self.fault.set(e);
    }

    /// The first fault recorded, if any.
    pub fn fault(&self) -> Option<Error> {
        self.fault.get().cloned()
    }

    /// Block `b` of layer `index`, decompressed: from the cache, or read and checked.
    fn block(&self, index: usize, b: u64) -> Result<Arc<[u8]>, Error> {
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache.tick += 1;
            let tick = cache.tick;
            if let Some(hit) = cache.blocks.get_mut(&(index, b)) {
                hit.1 = tick;
                return Ok(hit.0.clone());
            }
        }
        let raw: Arc<[u8]> = self.read_block(index, b)?.into();
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.blocks.len() >= CACHE_BLOCKS {
            let oldest = cache
                .blocks
                .iter()
                .min_by_key(|(_, (_, tick))| *tick)
                .map(|(k, _)| *k)
                .expect("a full cache has blocks");
            cache.blocks.remove(&oldest);
        }
        let tick = cache.tick;
        cache.blocks.insert((index, b), (raw.clone(), tick));
        Ok(raw)
    }

    /// Reads, checks and decompresses block `b` of layer `index`.
    fn read_block(&self, index: usize, b: u64) -> Result<Vec<u8>, Error> {
        let info = &self.layers[index];
        let entry = info.blocks[b as usize];
        let stored = &self.map[entry.offset as usize..(entry.offset + u64::from(entry.len)) as usize];
        let corrupt = |why: &str| {
            db_error(
                &self.path,
                format!(
                    "block {b} of the {} layer {why}: the file is corrupt",
                    info.layer.name()
                ),
            )
        };
        if checksum(stored) != entry.checksum {
            return Err(corrupt("fails its checksum"));
        }
        let per_block = info.layer.block_ranks();
        let ranks = per_block.min(self.header.ranks - b * per_block);
        let expected = (ranks * info.layer.bits()).div_ceil(8) as usize;
        match zstd::bulk::decompress(stored, expected) {
            Ok(raw) if raw.len() == expected => Ok(raw),
            _ => Err(corrupt("does not decompress to its size")),
        }
    }

    /// Bytes the database holds in memory at most: its block indexes and a full cache.
    pub fn held_bytes(&self) -> u64 {
        let entries: usize = self.layers.iter().map(|l| l.blocks.len()).sum();
        (entries * std::mem::size_of::<Block>()) as u64 + CACHE_BLOCKS as u64 * BLOCK_BYTES
    }

    /// Reads and checks every block; `after` is called with the raw length of each.
    pub fn check_blocks(&self, after: &(dyn Fn(u64) + Sync)) -> Result<(), Error> {
        for (index, info) in self.layers.iter().enumerate() {
            (0..info.blocks.len() as u64)
                .into_par_iter()
                .try_for_each(|b| self.read_block(index, b).map(|raw| after(raw.len() as u64)))?;
        }
        Ok(())
    }
}

/// The header and block indexes of a database's bytes, or why they are refused.
fn parse(bytes: &[u8]) -> Result<(Header, Vec<LayerInfo>), String> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err("not a zermelo database (bad magic)".into());
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let truncated = || "truncated file".to_string();
    let version = r.u32().ok_or_else(truncated)?;
    if version != VERSION {
        return Err(format!(
            "format version {version}, this zermelo reads version {VERSION}: solve again with --force"
        ));
    }
    let header_len = r.u32().ok_or_else(truncated)? as usize;
    if header_len < 24 || header_len > bytes.len() {
        return Err(if header_len > bytes.len() {
            truncated()
        } else {
            "corrupt header (bad length)".into()
        });
    }
    let stored = u64::from_le_bytes(bytes[header_len - 8..header_len].try_into().expect("8 bytes"));
    if checksum(&bytes[..header_len - 8]) != stored {
        return Err("the header fails its checksum: the file is corrupt".into());
    }
    let bad = || "corrupt header (fields do not fit)".to_string();
    let mut r = Reader {
        bytes: &bytes[..header_len - 8],
        at: 16,
    };
    let spec = r.text().ok_or_else(bad)?;
    let solver = r.text().ok_or_else(bad)?;
    let solver_version = r.u32().ok_or_else(bad)?;
    let ranks = r.u64().ok_or_else(bad)?;
    let mut counts = Vec::new();
    for _ in 0..r.u32().ok_or_else(bad)? {
        counts.push((r.text().ok_or_else(bad)?, r.u64().ok_or_else(bad)?));
    }
    let mut layers = Vec::new();
    for _ in 0..r.u8().ok_or_else(bad)? {
        let code = r.u8().ok_or_else(bad)?;
        let layer = Layer::from_code(code).ok_or_else(|| format!("unknown layer kind {code}"))?;
        let bits = r.u8().ok_or_else(bad)?;
        let mut n = [0u64; 6];
        for x in &mut n {
            *x = r.u64().ok_or_else(bad)?;
        }
        let [per_block, blocks, offset, sum, raw_bytes, stored_bytes] = n;
        if u64::from(bits) != layer.bits()
            || per_block != layer.block_ranks()
            || blocks != ranks.div_ceil(per_block)
        {
            return Err(format!(
                "the {} layer has a layout this zermelo does not read",
                layer.name()
            ));
        }
        let index = usize::try_from(blocks)
            .ok()
            .and_then(|b| b.checked_mul(ENTRY_BYTES))
            .and_then(|len| bytes.get(offset as usize..(offset as usize).checked_add(len)?))
            .ok_or_else(truncated)?;
        if checksum(index) != sum {
            return Err(format!(
                "the block index of the {} layer fails its checksum: the file is corrupt",
                layer.name()
            ));
        }
        let blocks: Vec<Block> = index
            .chunks_exact(ENTRY_BYTES)
            .map(|e| Block {
                offset: u64::from_le_bytes(e[..8].try_into().expect("8 bytes")),
                len: u32::from_le_bytes(e[8..12].try_into().expect("4 bytes")),
                checksum: u64::from_le_bytes(e[12..].try_into().expect("8 bytes")),
            })
            .collect();
        if blocks
            .iter()
            .any(|b| b.offset < header_len as u64 || b.offset + u64::from(b.len) > bytes.len() as u64)
        {
            return Err(truncated());
        }
        layers.push(LayerInfo {
            layer,
            raw_bytes,
            stored_bytes,
            blocks,
        });
    }
    let part = match r.u8() {
        None => None,
        Some(PART_SECTION) => {
            Some(parse_part(&mut r, ranks).ok_or_else(|| "corrupt header (bad part)".to_string())?)
        }
        Some(tag) => return Err(format!("corrupt header (unknown section {tag})")),
    };
    let end = layers
        .iter()
        .map(|l| l.blocks.len() as u64 * ENTRY_BYTES as u64)
        .sum::<u64>()
        + layers.iter().map(|l| l.stored_bytes).sum::<u64>()
        + header_len as u64;
    if end != bytes.len() as u64 {
        return Err(format!(
            "{} bytes long, expected {end}: the file is damaged",
            bytes.len()
        ));
    }
    let header = Header {
        spec,
        solver,
        solver_version,
        ranks,
        counts,
        layers: layers.iter().map(|l| l.layer).collect(),
        part,
    };
    Ok((header, layers))
}

/// A header's part section, if sound: a number within its count, and ordered ranges
/// within the table holding `ranks` ranks in all.
fn parse_part(r: &mut Reader<'_>, ranks: u64) -> Option<Part> {
    let (number, count, solve, table_ranks) = (r.u32()?, r.u32()?, r.u64()?, r.u64()?);
    let n = r.u64()?;
    // Each range takes 16 bytes: a count beyond the header is corrupt.
    if n > (r.bytes.len() / 16) as u64 {
        return None;
    }
    let ranges = (0..n)
        .map(|_| Some(r.u64()?..r.u64()?))
        .collect::<Option<Vec<_>>>()?;
    let ordered = ranges.iter().all(|x| x.start <= x.end && x.end <= table_ranks)
        && ranges.windows(2).all(|w| w[0].end <= w[1].start);
    let held: u64 = ranges.iter().map(|x| x.end - x.start).sum();
    let sound = (1..=count).contains(&number) && ordered && held == ranks && r.at == r.bytes.len();
    sound.then_some(Part {
        number,
        count,
        solve,
        table_ranks,
        ranges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(ranks: u64) -> Header {
        Header {
            spec: "g:a=1".into(),
            solver: "test".into(),
            solver_version: 1,
            ranks,
            counts: vec![("wins".into(), 7)],
            layers: vec![Layer::Wdl, Layer::Remoteness],
            part: None,
        }
    }

    /// Wins, losses, draws and holes in a pattern, with remoteness `rank % 97`.
    fn fill(layer: Layer, ranks: Range<u64>, out: &mut Vec<u8>) -> Result<(), Error> {
        match layer {
            Layer::Wdl => {
                for r in ranks.step_by(4) {
                    out.push((0..4).fold(0, |b, i| b | (((r + i) % 7 % 4) as u8) << (2 * i)));
                }
            }
            _ => out.extend(ranks.map(|r| (r % 97) as u8)),
        }
        Ok(())
    }

    #[test]
    fn written_databases_probe_every_rank_and_refuse_damage() {
        let dir = std::env::temp_dir().join(format!("zermelo-db-test-{}", std::process::id()));
        let path = dir.join("t.zdb");
        let ranks = 3 * Layer::Wdl.block_ranks() + 12_345;
        write(&path, &header(ranks), &fill).unwrap();
        let db = Database::open_for(&path, "g:a=1", Some(ranks)).unwrap();
        assert_eq!(db.header(), &header(ranks));
        for r in (0..ranks).step_by(1_013).chain([ranks - 1]) {
            let want = match r % 7 % 4 {
                1 => Some(Value::Win((r % 97) as u32)),
                2 => Some(Value::Lose((r % 97) as u32)),
                3 => Some(Value::Draw),
                _ => None,
            };
            assert_eq!(db.value(r).unwrap(), want, "rank {r}");
        }
        assert!(db.value(ranks).is_err());
        db.check_blocks(&|_| {}).unwrap();
        let err = |p: &Path| {
            Database::open_for(p, "g:a=1", Some(ranks))
                .err()
                .unwrap()
                .to_string()
        };
        assert!(Database::open_for(&path, "g:a=2", Some(ranks)).is_err());
        let bytes = fs::read(&path).unwrap();
        let damaged = dir.join("d.zdb");
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        fs::write(&damaged, &flipped).unwrap();
        assert!(err(&damaged).contains("header"), "{}", err(&damaged));
        fs::write(&damaged, &bytes[..bytes.len() - 5]).unwrap();
        assert!(err(&damaged).contains("truncated"), "{}", err(&damaged));
        fs::write(&damaged, [&bytes[..], b"extra"].concat()).unwrap();
        assert!(err(&damaged).contains("damaged"), "{}", err(&damaged));
        let mut flipped = bytes.clone();
        let n = flipped.len();
        flipped[n - 3] ^= 1;
        fs::write(&damaged, &flipped).unwrap();
        assert!(err(&damaged).contains("index"), "{}", err(&damaged));
        let mut flipped = bytes.clone();
        flipped[db.layers()[0].blocks[1].offset as usize + 3] ^= 0x40;
        fs::write(&damaged, &flipped).unwrap();
        let opened = Database::open(&damaged).unwrap();
        let e = opened
            .value(Layer::Wdl.block_ranks() + 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("block 1 of the wdl layer"), "{e}");
        assert!(opened.check_blocks(&|_| {}).is_err());
        let mut old = bytes.clone();
        old[8] = 1;
        fs::write(&damaged, &old).unwrap();
        assert!(err(&damaged).contains("format version 1"));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A value for every rank: holes, wins at odd, losses at even remoteness, draws.
    fn pattern(r: u64) -> Option<Value> {
        match r % 5 {
            0 => None,
            1 => Some(Value::Win((2 * (r % 7) + 1) as u32)),
            2 => Some(Value::Lose((2 * (r % 9)) as u32)),
            _ => Some(Value::Draw),
        }
    }

    /// Writes the ranks `ranges` of the pattern at `path`, as `part` when given.
    fn write_pattern(path: &Path, ranges: &[Range<u64>], table_ranks: u64, part: Option<Part>) {
        let globals: Vec<u64> = ranges.iter().flat_map(Clone::clone).collect();
        let ranks = part.as_ref().map_or(table_ranks, |_| globals.len() as u64);
        write_values(path, "g:a=1", ("test", 1), ranks, part, &|span, out| {
            out.extend(span.map(|j| pattern(globals[j as usize])));
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn parts_merge_into_the_whole_table_and_refuse_strangers() {
        let dir = std::env::temp_dir().join(format!("zermelo-db-parts-{}", std::process::id()));
        let ranks = 2 * Layer::HalfRemoteness.block_ranks() + 999;
        let whole = dir.join("whole.zdb");
        write_pattern(&whole, std::slice::from_ref(&(0..ranks)), ranks, None);
        // Two levels, each split in three shares, as a solve on three processes does.
        let levels = [0..ranks / 3, ranks / 3..ranks];
        let part = |number: u32, solve: u64| {
            let ranges: Vec<Range<u64>> = levels
                .iter()
                .map(|l| {
                    let len = l.end - l.start;
                    let i = u64::from(number - 1);
                    l.start + len * i / 3..l.start + len * (i + 1) / 3
                })
                .collect();
            let path = dir.join(format!("p{number}-{solve}.zdb"));
            let part = Part {
                number,
                count: 3,
                solve,
                table_ranks: ranks,
                ranges: ranges.clone(),
            };
            write_pattern(&path, &ranges, ranks, Some(part.clone()));
            let db = Database::open(&path).unwrap();
            assert_eq!(db.header().part.as_ref(), Some(&part));
            let mut values = Vec::new();
            db.values(0..db.header().ranks, &mut values).unwrap();
            let globals = ranges.iter().flat_map(Clone::clone);
            assert!(values.into_iter().eq(globals.map(pattern)));
            path
        };
        let parts: Vec<PathBuf> = (1..=3).rev().map(|n| part(n, 7)).collect();
        let merged = dir.join("merged.zdb");
        merge(&parts, &merged).unwrap();
        assert!(fs::read(&merged).unwrap() == fs::read(&whole).unwrap());
        let refused = |parts: &[PathBuf]| {
            let out = dir.join("refused.zdb");
            let e = merge(parts, &out).unwrap_err().to_string();
            assert!(!out.exists());
            e
        };
        let e = refused(&parts[..2]);
        assert!(e.contains("part 1 of 3") && e.contains("missing"), "{e}");
        let e = refused(&[&parts[..], &parts[1..2]].concat());
        assert!(e.contains("part 2 of 3, given twice"), "{e}");
        let e = refused(&[parts[0].clone(), part(2, 8), parts[2].clone()]);
        assert!(e.contains("another solve"), "{e}");
        assert!(refused(std::slice::from_ref(&whole)).contains("whole table"));
        let e = Database::open_for(&parts[0], "g:a=1", Some(ranks))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("db merge"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
