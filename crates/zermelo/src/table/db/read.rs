//! Reading a database ([`Database`]): opening a file and checking its header and block
//! indexes, then probing ranks in place. A probe maps one block, checks it, decompresses
//! it and keeps it in a small cache.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use memmap2::Mmap;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::db_error;
use super::format::{checksum, parse, unpack, Block, Header, Layer, LayerInfo, BLOCK_BYTES};
use crate::error::{self, Said};
use crate::table::Stamp;
use crate::value::Value;
use crate::Error;

/// Decompressed blocks kept in a database's cache.
const CACHE_BLOCKS: usize = 256;

/// An opened database: its header checked, its blocks probed on demand.
pub struct Database {
    pub(super) path: PathBuf,
    /// The file opened, to tell when the path names another one.
    stamp: Option<Stamp>,
    map: Mmap,
    pub(super) header: Header,
    layers: Vec<LayerInfo>,
    cache: Mutex<Cache>,
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
        let fail = |why: Said| db_error(path, why);
        let stamp = Stamp::of(path);
        let file = crate::table::open_regular(path, fs::OpenOptions::new().read(true))
            .map_err(|e| fail(e.to_string().into()))?;
        // SAFETY: the file is only read; a database is written to a temporary name and
        // renamed into place, never changed where it lies.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| fail(e.to_string().into()))?;
        let (header, layers) = parse(&map).map_err(fail)?;
        Ok(Database {
            path: path.to_path_buf(),
            stamp,
            map,
            header,
            layers,
            cache: Mutex::new(Cache::default()),
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
                Said(vec![
                    error::Part::Text(format!(
                        "holds {} of a split solve's table: merge the parts with ",
                        part.name()
                    )),
                    error::Part::Merge(None),
                ]),
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

    /// Whether its path still names the file opened (not one replaced or rewritten since).
    pub fn is_current(&self) -> bool {
        Stamp::of(&self.path) == self.stamp
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::db::write;

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
}
