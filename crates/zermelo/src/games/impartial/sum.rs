//! Sums of heap games: `sum:code=0.77,heaps=3/5/7,set=1/4,n=21,nim=4` plays Kayles heaps
//! of 3, 5 and 7, a {1,4} subtraction heap of 21 and a Nim heap of 4 side by side; a
//! move is a move in one of them. Each part keeps the keys of its own game (`code` with
//! `heaps` as in `octal`, `set` with `n` as in `subtraction`), and `nim` lists Nim heaps.

use super::nim::{self, heaps};
use super::{octal, subtraction, HeapGame, Octal, Rule};
use crate::spec::{GameInfo, Key, Preset, Spec};
use crate::Error;

const CODE: Key = Key {
    name: "code",
    values: octal::code(Preset::Else("none")),
    also: Some("with heaps"),
    help: "the octal game of the `heaps`",
};
const HEAPS: Key = Key {
    name: "heaps",
    values: heaps(octal::MAX_HEAP, Preset::Else("none")),
    also: None,
    help: "heaps of the octal game",
};
const SET: Key = Key {
    name: "set",
    values: subtraction::moves(Preset::Else("none")),
    also: Some("with n"),
    help: "the subtraction game of the heaps `n`",
};
const N: Key = Key {
    name: "n",
    values: heaps(nim::MAX_HEAP, Preset::Else("none")),
    also: None,
    help: "heaps of the subtraction game",
};
const NIM: Key = Key {
    name: "nim",
    values: heaps(nim::MAX_HEAP, Preset::Else("none")),
    also: None,
    help: "Nim heaps",
};

/// The registry entry of sums.
pub const INFO: GameInfo = GameInfo {
    name: "sum",
    summary: "a sum of an octal game, a subtraction game and Nim heaps, played side by side",
    how_to_play: "Make one move in any one of the games side by side (its own rules); whoever cannot move in any of them loses.",
    keys: &[CODE, HEAPS, SET, N, NIM],
    players: super::PLAYERS,
};

/// The sum a spec names; at least one part, each rule with its heaps.
pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
    spec.check_keys(&INFO)?;
    let mut parts = Vec::new();
    match (spec.has(&CODE), spec.has(&HEAPS)) {
        (true, true) => {
            let code: Octal = spec.text(&CODE)?.parse()?;
            parts.push((Rule::Octal(code), spec.list(&HEAPS)?));
        }
        (false, false) => {}
        _ => return Err(Error::Spec("sum: code and heaps go together".into())),
    }
    match (spec.has(&SET), spec.has(&N)) {
        (true, true) => {
            let set = subtraction::sorted(&SET, spec.list(&SET)?)?;
            parts.push((Rule::Subtraction(set), spec.list(&N)?));
        }
        (false, false) => {}
        _ => return Err(Error::Spec("sum: set and n go together".into())),
    }
    if spec.has(&NIM) {
        parts.push((Rule::Nim, spec.list(&NIM)?));
    }
    if parts.is_empty() {
        return Err(Error::Spec(
            "sum: give at least one part, e.g. sum:code=0.77,heaps=3/5/7,nim=4".into(),
        ));
    }
    Ok(HeapGame::new(parts, false))
}
