//! Sums of heap games: `sum:code=0.77,heaps=3/5/7,set=1/4,n=21,nim=4` plays Kayles heaps
//! of 3, 5 and 7, a {1,4} subtraction heap of 21 and a Nim heap of 4 side by side; a
//! move is a move in one of them. Each part keeps the keys of its own game (`code` with
//! `heaps` as in `octal`, `set` with `n` as in `subtraction`), and `nim` lists Nim heaps.

use super::nim::{self, heap_list};
use super::{octal, subtraction, HeapGame, Octal, Rule};
use crate::spec::{GameInfo, KeyInfo, Spec};
use crate::Error;

/// The registry entry of sums.
pub const INFO: GameInfo = GameInfo {
    name: "sum",
    summary: "a sum of an octal game, a subtraction game and Nim heaps, played side by side",
    how_to_play: "Make one move in any one of the games side by side (its own rules); whoever cannot move in any of them loses.",
    keys: &[
        KeyInfo {
            key: "code",
            default: "none",
            range: "an octal code, with heaps",
            help: "the octal game of the `heaps`",
        },
        KeyInfo {
            key: "heaps",
            default: "none",
            range: "1..=32 heaps of 0..=1000000",
            help: "heaps of the octal game",
        },
        KeyInfo {
            key: "set",
            default: "none",
            range: "a subtraction set, with n",
            help: "the subtraction game of the heaps `n`",
        },
        KeyInfo {
            key: "n",
            default: "none",
            range: "1..=32 heaps of 0..=10^18",
            help: "heaps of the subtraction game",
        },
        KeyInfo {
            key: "nim",
            default: "none",
            range: "1..=32 heaps of 0..=10^18",
            help: "Nim heaps",
        },
    ],
    players: super::PLAYERS,
};

/// The sum a spec names; at least one part, each rule with its heaps.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    let mut parts = Vec::new();
    let code = spec.get("code").map(str::parse::<Octal>).transpose()?;
    match (code, heap_list(spec, "heaps", octal::MAX_HEAP)?) {
        (Some(code), Some(heaps)) => parts.push((Rule::Octal(code), heaps)),
        (None, None) => {}
        _ => return Err(Error::Spec("sum: code and heaps go together".into())),
    }
    match (
        subtraction::set(spec, "set")?,
        heap_list(spec, "n", nim::MAX_HEAP)?,
    ) {
        (Some(set), Some(heaps)) => parts.push((Rule::Subtraction(set), heaps)),
        (None, None) => {}
        _ => return Err(Error::Spec("sum: set and n go together".into())),
    }
    if let Some(heaps) = heap_list(spec, "nim", nim::MAX_HEAP)? {
        parts.push((Rule::Nim, heaps));
    }
    if parts.is_empty() {
        return Err(Error::Spec(
            "sum: give at least one part, e.g. sum:code=0.77,heaps=3/5/7,nim=4".into(),
        ));
    }
    Ok(HeapGame::new(parts, false))
}
