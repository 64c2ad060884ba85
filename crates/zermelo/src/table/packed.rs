//! A dense array of 2-bit entries, 32 to a machine word.

/// `len` entries of 2 bits each, all starting at 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed2 {
    words: Vec<u64>,
    len: u64,
}

impl Packed2 {
    /// `len` zero entries.
    pub fn new(len: u64) -> Self {
        Packed2 {
            words: vec![0; len.div_ceil(32) as usize],
            len,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i` (0..=3).
    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        (self.words[(i / 32) as usize] >> (2 * (i % 32)) & 3) as u8
    }

    /// Sets entry `i` to `v` (0..=3).
    #[inline]
    pub fn set(&mut self, i: u64, v: u8) {
        let w = &mut self.words[(i / 32) as usize];
        let shift = 2 * (i % 32);
        *w = (*w & !(3 << shift)) | (u64::from(v & 3) << shift);
    }

    /// The packed words, for storage.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Rebuilds an array from stored words; `None` when the word count does not fit `len`.
    pub fn from_words(words: Vec<u64>, len: u64) -> Option<Self> {
        (words.len() as u64 == len.div_ceil(32)).then_some(Packed2 { words, len })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_independent() {
        let mut p = Packed2::new(100);
        for i in 0..100 {
            p.set(i, (i % 4) as u8);
        }
        p.set(33, 0);
        for i in 0..100 {
            assert_eq!(p.get(i), if i == 33 { 0 } else { (i % 4) as u8 });
        }
        assert_eq!(p.words().len(), 4);
    }
}
