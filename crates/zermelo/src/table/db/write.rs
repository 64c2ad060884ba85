//! Writing a database: every layer cut into blocks, compressed in parallel and written
//! to a temporary name, synced and renamed into place, so that a reader never sees half
//! a file; and the counts a database of values records.

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;

use super::db_error;
use super::format::{
    checksum, encode_header, encode_index, pack, Block, Header, Layer, LayerInfo, Part, BLOCK_BYTES,
    VALUE_COUNTS,
};
use crate::table::wdl_code;
use crate::value::Value;
use crate::Error;

/// The zstd level blocks are compressed at.
const LEVEL: i32 = 5;
/// Blocks compressed together in parallel while writing.
const BATCH: usize = 256;

/// Appends the raw bytes of `ranks` of a layer: 2-bit entries four to a byte (low bits
/// first), or one byte each.
pub type Fill<'a> = dyn Fn(Layer, Range<u64>, &mut Vec<u8>) -> Result<(), Error> + Sync + 'a;

/// Appends the values of `ranks` (`None` for no valid position).
pub type FillValues<'a> = dyn Fn(Range<u64>, &mut Vec<Option<Value>>) -> Result<(), Error> + Sync + 'a;

/// Writes a database to `path` (creating its folder): the `header`, and for every layer
/// its blocks, whose raw bytes `fill` gives. Nothing is left at `path` on failure.
pub fn write(path: &Path, header: &Header, fill: &Fill<'_>) -> Result<(), Error> {
    let temp = crate::table::temp_path(path);
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
    values: &FillValues<'_>,
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
