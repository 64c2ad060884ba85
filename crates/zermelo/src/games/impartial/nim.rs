//! Nim: take any positive number of tokens from one heap. Under normal play the mover
//! loses exactly when the nim-sum (XOR) of the heap sizes is 0; under the misère rule
//! the same holds while some heap has two or more tokens, and otherwise the mover loses
//! exactly when an odd number of heaps hold one token.

use super::{HeapGame, Rule};
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;

/// The largest heap size accepted.
pub const MAX_HEAP: u64 = 1_000_000_000_000_000_000;
/// The most heaps accepted.
pub const MAX_HEAPS: usize = 32;

/// Heap sizes in `0..=max`, at most [`MAX_HEAPS`] of them.
pub const fn heaps(max: u64, default: Preset<&'static [u64]>) -> Values {
    Values::List {
        lo: 0,
        hi: max,
        most: MAX_HEAPS,
        what: "heaps of",
        default,
    }
}

const HEAPS: Key = Key {
    name: "heaps",
    values: heaps(MAX_HEAP, Preset::Is(&[3, 4, 5])),
    also: None,
    help: "heap sizes",
};

/// The registry entry of Nim.
pub const INFO: GameInfo = GameInfo {
    name: "nim",
    summary: "Nim: take any number of tokens from one heap; who cannot move loses",
    how_to_play: "Take one or more tokens from a single heap (click a token: it and every token to its right go); whoever takes the last token wins (with misere=true, loses).",
    keys: &[HEAPS, super::MISERE],
    players: super::PLAYERS,
};

/// The Nim game a spec names.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    Ok(HeapGame::new(
        vec![(Rule::Nim, spec.list(&HEAPS)?)],
        spec.flag(&super::MISERE)?,
    ))
}

/// The nim-sum: the XOR of the sizes.
pub fn nim_sum(sizes: &[u64]) -> u64 {
    sizes.iter().fold(0, |x, &s| x ^ s)
}

/// Whether the mover loses Nim with these heaps under the misère rule.
pub fn misere_lost(sizes: &[u64]) -> bool {
    if sizes.iter().any(|&s| s >= 2) {
        nim_sum(sizes) == 0
    } else {
        sizes.iter().filter(|&&s| s == 1).count() % 2 == 1
    }
}

/// The sizes a heap of `size` can be reduced to in a winning move when the nim-sum of
/// all heaps is `sum`: the size that restores nim-sum 0, and for the misère end game 0 and 1.
pub fn targets(size: u64, sum: u64) -> Vec<u64> {
    vec![size ^ sum, 0, 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_sum_of_the_course_example() {
        assert_eq!(nim_sum(&[6, 9, 3]), 12);
        assert_eq!(nim_sum(&[5, 5]), 0);
    }

    #[test]
    fn misere_end_game() {
        assert!(misere_lost(&[1, 1, 1]));
        assert!(!misere_lost(&[1, 1]));
        assert!(!misere_lost(&[]));
        assert!(!misere_lost(&[2, 1, 1]));
        assert!(misere_lost(&[2, 2]));
    }
}
