//! A compact table for large strong solves: 2 bits of win/lose/draw per rank and one
//! byte of remoteness per rank, in two separate layers.

use rayon::prelude::*;

use super::{decode_wdl, wdl_code, Packed2, DRAW, LOSE, WIN};
use crate::value::Value;

/// Values of every rank: a bit-packed win/lose/draw layer (0 marks a rank that is no
/// valid position) and a remoteness layer of one byte per rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactTable {
    wdl: Packed2,
    remoteness: Vec<u8>,
}

impl CompactTable {
    /// The table from its two layers; `None` when their lengths differ.
    pub fn from_layers(wdl: Packed2, remoteness: Vec<u8>) -> Option<Self> {
        (wdl.len() == remoteness.len() as u64).then_some(CompactTable { wdl, remoteness })
    }

    /// Builds the table from one byte per rank, reusing that memory for the remoteness
    /// layer; `decode` turns a byte into the rank's value (`None`: no valid position).
    /// Remoteness saturates at 255.
    pub fn from_bytes(mut bytes: Vec<u8>, decode: impl Fn(u8) -> Option<Value> + Sync) -> Self {
        let len = bytes.len() as u64;
        let words: Vec<u64> = bytes
            .par_chunks(32)
            .map(|chunk| {
                chunk.iter().enumerate().fold(0u64, |word, (i, &b)| {
                    word | u64::from(wdl_code(decode(b))) << (2 * i)
                })
            })
            .collect();
        bytes.par_iter_mut().for_each(|b| {
            *b = decode(*b)
                .and_then(Value::remoteness)
                .map_or(0, |r| r.min(u8::MAX.into()) as u8);
        });
        CompactTable {
            wdl: Packed2::from_words(words, len).expect("one word per 32 ranks"),
            remoteness: bytes,
        }
    }

    /// The number of ranks.
    pub fn len(&self) -> u64 {
        self.wdl.len()
    }

    /// Whether the table has no ranks.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at `rank`, `None` when it is no valid position.
    pub fn get(&self, rank: u64) -> Option<Value> {
        decode_wdl(self.wdl.get(rank), u32::from(self.remoteness[rank as usize]))
    }

    /// The win/lose/draw layer.
    pub fn wdl(&self) -> &Packed2 {
        &self.wdl
    }

    /// The remoteness layer.
    pub fn remoteness(&self) -> &[u8] {
        &self.remoteness
    }

    /// Counts of (wins, losses, draws) over the valid ranks.
    pub fn summary(&self) -> (u64, u64, u64) {
        self.wdl
            .words()
            .par_iter()
            .map(|&w| {
                let mut counts = [0u64; 4];
                for i in 0..32 {
                    counts[(w >> (2 * i) & 3) as usize] += 1;
                }
                (counts[WIN as usize], counts[LOSE as usize], counts[DRAW as usize])
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }

    /// The greatest remoteness stored.
    pub fn max_remoteness(&self) -> u8 {
        self.remoteness.par_iter().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_become_layers() {
        let values = [Some(Value::Win(3)), None, Some(Value::Lose(0)), Some(Value::Draw)];
        let bytes: Vec<u8> = (0..100).map(|i| (i % 4) as u8).collect();
        let t = CompactTable::from_bytes(bytes, |b| values[b as usize]);
        assert_eq!(t.len(), 100);
        for i in 0..100 {
            assert_eq!(t.get(i), values[(i % 4) as usize]);
        }
        assert_eq!(t.summary(), (25, 25, 25));
        assert_eq!(t.max_remoteness(), 3);
    }
}
