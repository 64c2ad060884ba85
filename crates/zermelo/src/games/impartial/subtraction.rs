//! Subtraction games: a move takes a1, a2, … or ak tokens from a heap.
//!
//! From `m` = the largest move on, the value of a heap depends only on the `m` values
//! below it, so two equal windows of `m` consecutive entries force everything after
//! them to repeat (the pigeonhole bound): the tables are eventually periodic, and a
//! repetition checked over `preperiod + period + m` entries is proven.

use super::nim::MAX_HEAP;
use super::{HeapGame, Rule};
use crate::spec::{GameInfo, KeyInfo, Spec};
use crate::Error;

/// The largest move accepted in a subtraction set.
pub const MAX_MOVE: u64 = 100_000;
/// The most moves accepted in a subtraction set.
pub const MAX_MOVES: usize = 64;

/// The registry entry of subtraction games.
pub const INFO: GameInfo = GameInfo {
    name: "subtraction",
    summary: "subtraction game: take one of the set's numbers of tokens from the heap",
    how_to_play: "Take from the heap a number of tokens that is in the set; whoever cannot move loses.",
    keys: &[
        KeyInfo {
            key: "set",
            default: "1/2/3",
            range: "1..=64 distinct numbers in 1..=100000",
            help: "the numbers of tokens a move may take",
        },
        KeyInfo {
            key: "n",
            default: "21",
            range: "0..=10^18",
            help: "tokens on the table at the start",
        },
        super::MISERE,
    ],
    players: super::PLAYERS,
};

/// The subtraction game a spec names.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    let set = set(spec, "set")?.unwrap_or_else(|| vec![1, 2, 3]);
    let n = spec.int("n", 21, 0, MAX_HEAP)?;
    Ok(HeapGame::new(
        vec![(Rule::Subtraction(set), vec![n])],
        spec.flag("misere", false)?,
    ))
}

/// The subtraction set under `key`, sorted: distinct positive numbers up to [`MAX_MOVE`].
pub fn set(spec: &Spec, key: &str) -> Result<Option<Vec<u64>>, Error> {
    let Some(mut set) = spec.list(key, 1, MAX_MOVE)? else {
        return Ok(None);
    };
    if set.len() > MAX_MOVES {
        return Err(Error::Spec(format!("{key}: at most {MAX_MOVES} moves")));
    }
    set.sort_unstable();
    if let Some(w) = set.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::Spec(format!("{key}: {} is listed twice", w[0])));
    }
    Ok(Some(set))
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
