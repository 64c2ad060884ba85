//! Subtraction games: a move takes a1, a2, … or ak tokens from a heap.
//!
//! From `m` = the largest move on, the value of a heap depends only on the `m` values
//! below it, so two equal windows of `m` consecutive entries force everything after
//! them to repeat (the pigeonhole bound): the tables are eventually periodic, and a
//! repetition checked over `preperiod + period + m` entries is proven.

use super::nim::MAX_HEAP;
use super::{HeapGame, Rule};
use crate::spec::{GameInfo, Key, Preset, Spec, Values};
use crate::Error;

/// The largest move accepted in a subtraction set.
pub const MAX_MOVE: u64 = 100_000;
/// The most moves accepted in a subtraction set.
pub const MAX_MOVES: usize = 64;

/// A subtraction set: distinct numbers in `1..=`[`MAX_MOVE`], at most [`MAX_MOVES`] of
/// them (see [`sorted`]).
pub const fn moves(default: Preset<&'static [u64]>) -> Values {
    Values::List {
        lo: 1,
        hi: MAX_MOVE,
        most: MAX_MOVES,
        what: "distinct numbers in",
        default,
    }
}

const SET: Key = Key {
    name: "set",
    values: moves(Preset::Is(&[1, 2, 3])),
    also: None,
    help: "the numbers of tokens a move may take",
};
const N: Key = Key {
    name: "n",
    values: Values::Int {
        lo: 0,
        hi: MAX_HEAP,
        default: Preset::Is(21),
    },
    also: None,
    help: "tokens on the table at the start",
};

/// The registry entry of subtraction games.
pub const INFO: GameInfo = GameInfo {
    name: "subtraction",
    summary: "subtraction game: take one of the set's numbers of tokens from the heap",
    how_to_play: "Take from the heap a number of tokens that is in the set; whoever cannot move loses.",
    keys: &[SET, N, super::MISERE],
    players: super::PLAYERS,
};

/// The subtraction game a spec names.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    let set = sorted(&SET, spec.list(&SET)?)?;
    Ok(HeapGame::new(
        vec![(Rule::Subtraction(set), vec![spec.int(&N)?])],
        spec.flag(&super::MISERE)?,
    ))
}

/// The subtraction set given as `key`, sorted; refused when a number is listed twice.
pub fn sorted(key: &Key, mut set: Vec<u64>) -> Result<Vec<u64>, Error> {
    set.sort_unstable();
    if let Some(w) = set.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::Spec(format!("{}: {} is listed twice", key.name, w[0])));
    }
    Ok(set)
}

/// The win/loss table by backward induction: entry `n` is true when the mover wins with
/// `n` tokens. Under normal play a heap with no move is lost, under misère it is won.
pub fn outcomes(set: &[u64], misere: bool, len: usize) -> Vec<bool> {
    let mut win: Vec<bool> = Vec::with_capacity(len);
    for n in 0..len {
        let mut moves = set.iter().take_while(|&&a| a as usize <= n).peekable();
        let w = if moves.peek().is_none() {
            misere
        } else {
            moves.any(|&a| !win[n - a as usize])
        };
        win.push(w);
    }
    win
}

/// The Grundy values of heaps `0..len`.
pub fn grundy_values(set: &[u64], len: usize) -> Vec<u32> {
    let mut values = Vec::with_capacity(len);
    let mut seen = vec![usize::MAX; set.len() + 1];
    for n in 0..len {
        for &a in set.iter().take_while(|&&a| a as usize <= n) {
            seen[values[n - a as usize] as usize] = n;
        }
        values.push(seen.iter().position(|&s| s != n).unwrap_or(set.len()) as u32);
    }
    values
}

/// How long a table must be for a repetition over all of it to be proven (pigeonhole).
pub fn proof_length(set: &[u64], preperiod: usize, period: usize) -> usize {
    preperiod + period + *set.last().expect("a set has a move") as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_of_one_two_three() {
        let letters: String = outcomes(&[1, 2, 3], false, 8)
            .iter()
            .map(|&w| if w { 'W' } else { 'L' })
            .collect();
        assert_eq!(letters, "LWWWLWWW");
        assert_eq!(grundy_values(&[1, 2, 3], 6), vec![0, 1, 2, 3, 0, 1]);
        assert_eq!(grundy_values(&[1, 4], 10), vec![0, 1, 0, 1, 2, 0, 1, 0, 1, 2]);
    }

    #[test]
    fn misere_one_two_three_loses_at_one_mod_four() {
        let lost: Vec<usize> = (0..10).filter(|&n| !outcomes(&[1, 2, 3], true, 10)[n]).collect();
        assert_eq!(lost, vec![1, 5, 9]);
    }
}
