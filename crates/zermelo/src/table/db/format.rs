//! The on-disk format of a database: magic, version, header, layers, block indexes,
//! checksums and the raw layout of a layer's entries.
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
//! The win/lose/draw layer ([`Layer::Wdl`], 2 bits a rank) is apart from the remoteness
//! layer, so a probe for the value alone touches only the small layer. A heap game's
//! sequence is one layer of values by heap size ([`Layer::grundy`]: 8, 16 or 32 bits
//! each) or of win/loss.

use std::ops::Range;

use crate::error::{self, Said};

/// The first bytes of every database file.
pub const MAGIC: [u8; 8] = *b"ZERMELO\x1a";
/// The format version this code writes and reads.
pub const VERSION: u32 = 2;
/// Raw bytes in a block (the last block of a layer may be shorter).
pub const BLOCK_BYTES: u64 = 1 << 18;
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
/// each process's ranks apart ([`merge`](super::merge()) puts the parts together).
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
    pub(super) blocks: Vec<Block>,
}

impl LayerInfo {
    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Where block `b` lies in the file: the offsets of its stored (compressed) bytes.
    pub fn block_bytes(&self, b: usize) -> Range<u64> {
        let block = self.blocks[b];
        block.offset..block.offset + u64::from(block.len)
    }
}

/// Where one block lies: its offset, stored length and the checksum of its stored bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub(super) offset: u64,
    pub(super) len: u32,
    pub(super) checksum: u64,
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

/// The counts [`write_values`](super::write_values) records, besides `positions`.
pub const VALUE_COUNTS: [&str; 4] = ["wins", "losses", "draws", "max_remoteness"];

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
pub(super) fn unpack(layer: Layer, raw: &[u8], within: u64) -> u32 {
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

pub(super) fn encode_index(blocks: &[Block]) -> Vec<u8> {
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
pub(super) fn encode_header(header: &Header, infos: &[LayerInfo], index_at: &[(u64, u64)]) -> Vec<u8> {
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

/// The header and block indexes of a database's bytes, or why they are refused.
pub(super) fn parse(bytes: &[u8]) -> Result<(Header, Vec<LayerInfo>), Said> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err("not a zermelo database (bad magic)".into());
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let truncated = || Said::from("truncated file");
    let version = r.u32().ok_or_else(truncated)?;
    if version != VERSION {
        return Err(Said(vec![
            error::Part::Text(format!(
                "format version {version}, this zermelo reads version {VERSION}: solve again with "
            )),
            error::Part::Switch("force"),
        ]));
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
            )
            .into());
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
            )
            .into());
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
        Some(tag) => return Err(format!("corrupt header (unknown section {tag})").into()),
    };
    let end = layers
        .iter()
        .map(|l| l.blocks.len() as u64 * ENTRY_BYTES as u64)
        .sum::<u64>()
        + layers.iter().map(|l| l.stored_bytes).sum::<u64>()
        + header_len as u64;
    if end != bytes.len() as u64 {
        return Err(format!("{} bytes long, expected {end}: the file is damaged", bytes.len()).into());
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
