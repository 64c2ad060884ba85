//! Building a [`CompactTable`] in place from a solver's one byte per rank.

use rayon::prelude::*;

use super::{wdl_code, CompactTable, Packed2, ValueTable};
use crate::value::Value;

impl CompactTable {
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
        ValueTable {
            wdl: Packed2::from_words(words, len).expect("one word per 32 ranks"),
            remoteness: bytes,
        }
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
