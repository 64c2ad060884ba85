//! Grundy values by heap size kept compactly: each in the narrowest of 8, 16 or 32 bits
//! that holds every value so far, widened only when a value needs it. The values of
//! 2^30 heaps of an octal game take 1 GiB while they stay below 256, 2 GiB below 65536.

use crate::solve::grundy::{find_period, Periodicity};

/// Grundy values by heap size, in the narrowest width that holds them all.
#[derive(Clone, Debug)]
pub enum GrundyValues {
    /// Every value below 2^8.
    Bits8(Vec<u8>),
    /// Every value below 2^16.
    Bits16(Vec<u16>),
    /// Any values.
    Bits32(Vec<u32>),
}

impl Default for GrundyValues {
    fn default() -> Self {
        GrundyValues::Bits8(Vec::new())
    }
}

impl PartialEq for GrundyValues {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for GrundyValues {}

impl FromIterator<u32> for GrundyValues {
    fn from_iter<I: IntoIterator<Item = u32>>(values: I) -> Self {
        let mut all = GrundyValues::default();
        all.extend(values);
        all
    }
}

impl Extend<u32> for GrundyValues {
    fn extend<I: IntoIterator<Item = u32>>(&mut self, values: I) {
        for v in values {
            self.push(v);
        }
    }
}

impl GrundyValues {
    /// How many values there are.
    pub fn len(&self) -> usize {
        match self {
            GrundyValues::Bits8(v) => v.len(),
            GrundyValues::Bits16(v) => v.len(),
            GrundyValues::Bits32(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `n`, `None` beyond them.
    pub fn get(&self, n: usize) -> Option<u32> {
        match self {
            GrundyValues::Bits8(v) => v.get(n).map(|&x| x.into()),
            GrundyValues::Bits16(v) => v.get(n).map(|&x| x.into()),
            GrundyValues::Bits32(v) => v.get(n).copied(),
        }
    }

    /// The value of heap `n`; panics beyond them, as indexing a slice does.
    pub fn at(&self, n: usize) -> u32 {
        match self {
            GrundyValues::Bits8(v) => v[n].into(),
            GrundyValues::Bits16(v) => v[n].into(),
            GrundyValues::Bits32(v) => v[n],
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + Clone + '_ {
        (0..self.len()).map(|n| self.at(n))
    }

    /// The first `len` values (at most all of them) as plain numbers.
    pub fn head(&self, len: usize) -> Vec<u32> {
        self.iter().take(len).collect()
    }

    /// Appends `v`, widening every value first when it does not fit.
    pub fn push(&mut self, v: u32) {
        match self {
            GrundyValues::Bits8(all) if v <= u8::MAX.into() => all.push(v as u8),
            GrundyValues::Bits16(all) if v <= u16::MAX.into() => all.push(v as u16),
            GrundyValues::Bits32(all) => all.push(v),
            _ => {
                self.widen_for(v);
                self.push(v);
            }
        }
    }

    /// Keeps the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match self {
            GrundyValues::Bits8(v) => v.truncate(len),
            GrundyValues::Bits16(v) => v.truncate(len),
            GrundyValues::Bits32(v) => v.truncate(len),
        }
    }

    /// Makes room for `more` values of the present width.
    pub fn reserve(&mut self, more: usize) {
        match self {
            GrundyValues::Bits8(v) => v.reserve_exact(more),
            GrundyValues::Bits16(v) => v.reserve_exact(more),
            GrundyValues::Bits32(v) => v.reserve_exact(more),
        }
    }

    /// Bytes a value takes now: 1, 2 or 4.
    pub fn width(&self) -> usize {
        match self {
            GrundyValues::Bits8(_) => 1,
            GrundyValues::Bits16(_) => 2,
            GrundyValues::Bits32(_) => 4,
        }
    }

    /// Bytes the values hold in memory, room kept for more included.
    pub fn bytes(&self) -> u64 {
        let capacity = match self {
            GrundyValues::Bits8(v) => v.capacity(),
            GrundyValues::Bits16(v) => v.capacity(),
            GrundyValues::Bits32(v) => v.capacity(),
        };
        (capacity * self.width()) as u64
    }

    /// The period the values prove by `needed` (see [`find_period`]).
    pub fn find_period(&self, needed: impl Fn(usize, usize) -> usize) -> Option<Periodicity> {
        match self {
            GrundyValues::Bits8(v) => find_period(v, needed),
            GrundyValues::Bits16(v) => find_period(v, needed),
            GrundyValues::Bits32(v) => find_period(v, needed),
        }
    }

    /// Moves every value to the narrowest width that holds `v` too.
    fn widen_for(&mut self, v: u32) {
        let room = self.len() + self.len() / 8 + 1;
        *self = if v <= u16::MAX.into() {
            let mut wide = Vec::with_capacity(room);
            wide.extend(self.iter().map(|x| x as u16));
            GrundyValues::Bits16(wide)
        } else {
            let mut wide = Vec::with_capacity(room);
            wide.extend(self.iter());
            GrundyValues::Bits32(wide)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_widen_only_when_one_needs_it() {
        let mut values: GrundyValues = [0, 3, 255].into_iter().collect();
        assert_eq!(values.width(), 1);
        values.push(256);
        assert_eq!(values.width(), 2);
        values.push(65_535);
        assert_eq!(values.width(), 2);
        values.push(1 << 20);
        assert_eq!(values.width(), 4);
        assert_eq!(values.head(10), [0, 3, 255, 256, 65_535, 1 << 20]);
        assert_eq!(values.get(6), None);
        let narrow: GrundyValues = [0, 3].into_iter().collect();
        values.truncate(2);
        assert_eq!(values, narrow);
    }
}
