//! Dense tables of values indexed by rank: a 2-bit win/lose/draw layer and a
//! separate remoteness layer ([`ValueTable`], or [`CompactTable`] with one byte of
//! remoteness), and their database files ([`db`]).

mod compact;
pub mod db;
mod packed;

pub use compact::CompactTable;
pub use packed::Packed2;

use crate::value::Value;

/// Values of every rank of an indexed game: 2 bits of win/lose/draw per rank
/// (0 marks a rank that is no valid position) and 16 bits of remoteness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueTable {
    wdl: Packed2,
    remoteness: Vec<u16>,
}

const NONE: u8 = 0;
const WIN: u8 = 1;
const LOSE: u8 = 2;
const DRAW: u8 = 3;

/// The 2-bit code of a value (0 for no valid position).
fn wdl_code(v: Option<Value>) -> u8 {
    match v {
        None => NONE,
        Some(Value::Win(_)) => WIN,
        Some(Value::Lose(_)) => LOSE,
        Some(Value::Draw) => DRAW,
    }
}

/// The value of a 2-bit code with remoteness `r` (`None` for code 0).
fn decode_wdl(code: u8, r: u32) -> Option<Value> {
    match code {
        WIN => Some(Value::Win(r)),
        LOSE => Some(Value::Lose(r)),
        DRAW => Some(Value::Draw),
        _ => None,
    }
}

impl ValueTable {
    /// A table of `len` ranks, none of them a position yet.
    pub fn new(len: u64) -> Self {
        ValueTable {
            wdl: Packed2::new(len),
            remoteness: vec![0; len as usize],
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

    /// The value stored at `rank`, `None` when it is no valid position.
    pub fn get(&self, rank: u64) -> Option<Value> {
        decode_wdl(self.wdl.get(rank), u32::from(self.remoteness[rank as usize]))
    }

    /// Stores `v` at `rank`; remoteness saturates at `u16::MAX`.
    pub fn set(&mut self, rank: u64, v: Value) {
        self.wdl.set(rank, wdl_code(Some(v)));
        self.remoteness[rank as usize] = v.remoteness().unwrap_or(0).min(u16::MAX.into()) as u16;
    }

    /// Whether `rank` holds a value.
    pub fn is_set(&self, rank: u64) -> bool {
        self.wdl.get(rank) != NONE
    }

    /// Counts of (wins, losses, draws) over the valid ranks.
    pub fn summary(&self) -> (u64, u64, u64) {
        let mut counts = [0u64; 4];
        for r in 0..self.len() {
            counts[self.wdl.get(r) as usize] += 1;
        }
        (counts[WIN as usize], counts[LOSE as usize], counts[DRAW as usize])
    }
}
