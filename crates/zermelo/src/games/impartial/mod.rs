//! Impartial heap games: Nim, subtraction games, octal games, and sums of them.
//!
//! Every game here is a row of heaps, each played by a [`Rule`]; a move takes tokens
//! from one heap and may leave nothing, one heap or two heaps. Both players have the
//! same moves; under normal play whoever cannot move loses, under the misère rule whoever
//! cannot move wins (the last mover loses).
//!
//! Their analyses: [`grundy`], the Grundy sequences of single-heap games by heap size with
//! the periods proven for them; [`sequence_db`], those sequences saved as databases.

pub mod entry;
pub mod grundy;
pub mod nim;
mod notation;
pub mod octal;
pub mod sequence_db;
mod strategy;
pub mod study;
pub use strategy::grundy_report;

/// The players of a heap game.
const PLAYERS: &[crate::spec::PlayerInfo] = &[crate::spec::PlayerInfo {
    name: "perfect",
    help:
        "a winning move by the heap values (at random among them); when lost, takes as few tokens as it can",
}];
pub mod subtraction;
pub mod sum;
pub mod values;

use crate::game::{Game, Impartial, Outcome, PlayerId};
use crate::solve::budget::{bytes_text, Budget};
use crate::spec::{Key, Spec, Values};
use crate::Error;

/// The `misere` key of the games that offer misère play.
const MISERE: Key = Key {
    name: "misere",
    values: Values::Flag(false),
    also: None,
    help: "the last mover loses",
};

pub use octal::Octal;

/// How a single heap may be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Take any positive number of tokens.
    Nim,
    /// Take one of these numbers of tokens (distinct, positive, ascending).
    Subtraction(Vec<u64>),
    /// An octal game.
    Octal(Octal),
}

impl Rule {
    /// Appends every move on a heap of `size` as `(take, left)`: `left == 0` leaves the rest
    /// as one heap (or nothing), `left > 0` splits the rest into `left` and `rest - left`
    /// with `left <= rest - left`.
    pub fn moves(&self, size: u64, out: &mut Vec<(u64, u64)>) {
        match self {
            Rule::Nim => out.extend((1..=size).map(|t| (t, 0))),
            Rule::Subtraction(set) => out.extend(set.iter().take_while(|&&a| a <= size).map(|&a| (a, 0))),
            Rule::Octal(o) => o.moves(size, out),
        }
    }

    /// Whether taking `take` and leaving `left` (as in [`Rule::moves`]) is a move on a heap
    /// of `size`, without listing every move of a big Nim heap.
    fn allows(&self, size: u64, take: u64, left: u64) -> bool {
        match self {
            Rule::Nim => take >= 1 && take <= size && left == 0,
            _ => {
                let mut moves = Vec::new();
                self.moves(size, &mut moves);
                moves.contains(&(take, left))
            }
        }
    }

    /// The number of moves on a heap of `size`.
    pub fn move_count(&self, size: u64) -> u64 {
        match self {
            Rule::Nim => size,
            Rule::Subtraction(set) => set.iter().take_while(|&&a| a <= size).count() as u64,
            Rule::Octal(o) => o.move_count(size),
        }
    }

    /// Whether a heap of `size` has a move.
    pub fn can_move(&self, size: u64) -> bool {
        match self {
            Rule::Nim => size > 0,
            Rule::Subtraction(set) => set[0] <= size,
            Rule::Octal(o) => o.can_move(size),
        }
    }

    /// The spec of the one-heap game whose values by heap size this rule's heaps take,
    /// under the misère rule when `misere`: `octal:code=0.77`,
    /// `subtraction:set=1/2/3,misere=true`; `None` for Nim, whose values are the sizes.
    pub fn sequence_spec(&self, misere: bool) -> Option<String> {
        let spec = match self {
            Rule::Nim => return None,
            Rule::Subtraction(set) => format!("subtraction:set={}", join(set, "/")),
            Rule::Octal(o) => format!("octal:code={o}"),
        };
        Some(if misere {
            format!("{spec},misere=true")
        } else {
            spec
        })
    }

    /// Whether a move may split a heap in two (else every heap keeps its place).
    pub fn splits(&self) -> bool {
        matches!(self, Rule::Octal(o) if o.splits())
    }

    /// The rule's name for people: `nim`, `subtraction 1/2/3`, `octal 0.77`.
    pub fn describe(&self) -> String {
        match self {
            Rule::Nim => "nim".into(),
            Rule::Subtraction(set) => format!("subtraction {}", join(set, "/")),
            Rule::Octal(o) => format!("octal {o}"),
        }
    }
}

/// One heap of a position: which of the game's rules plays it, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Heap {
    /// The index of its rule among the game's parts.
    pub part: u8,
    /// The number of tokens.
    pub size: u64,
}

/// A position: the heaps in order and the seat to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Heaps {
    /// The heaps, in order (empty heaps stay, so numbering is stable).
    pub heaps: Vec<Heap>,
    /// The seat to move.
    pub mover: PlayerId,
}

/// The sizes of the heaps of `part` among `heaps`, in order.
pub fn part_sizes(heaps: &[Heap], part: usize) -> Vec<u64> {
    let of_part = heaps.iter().filter(|h| h.part as usize == part);
    of_part.map(|h| h.size).collect()
}

/// A move: from heap number `heap` (from 0) take `take` tokens, and if `left > 0` split the
/// rest into `left` and `rest - left`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeapMove {
    /// The heap, from 0.
    pub heap: usize,
    /// Tokens taken.
    pub take: u64,
    /// The first part of a split, 0 when the rest stays one heap.
    pub left: u64,
}

/// A game played on a row of heaps, each heap with one of the game's rules.
#[derive(Clone, Debug)]
pub struct HeapGame {
    parts: Vec<Rule>,
    start: Vec<Heap>,
    misere: bool,
}

impl HeapGame {
    /// A game whose start has, for each part, a rule and that rule's heap sizes.
    pub fn new(parts: Vec<(Rule, Vec<u64>)>, misere: bool) -> HeapGame {
        let start = parts
            .iter()
            .enumerate()
            .flat_map(|(i, (_, sizes))| sizes.iter().map(move |&size| Heap { part: i as u8, size }))
            .collect();
        HeapGame {
            parts: parts.into_iter().map(|(rule, _)| rule).collect(),
            start,
            misere,
        }
    }

    /// The game a spec names: `nim`, `subtraction`, `octal` or `sum`.
    pub fn from_spec(spec: &Spec) -> Result<HeapGame, Error> {
        match spec.name.as_str() {
            "nim" => nim::from_spec(spec),
            "subtraction" => subtraction::from_spec(spec),
            "octal" => octal::from_spec(spec),
            "sum" => sum::from_spec(spec),
            other => Err(Error::Spec(format!("{other} is not a heap game"))),
        }
    }

    /// The rules of the parts, in order.
    pub fn parts(&self) -> &[Rule] {
        &self.parts
    }

    /// Whether the last mover loses.
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// The position with these heaps and `mover` to move.
    pub fn position(&self, heaps: Vec<Heap>, mover: PlayerId) -> Heaps {
        Heaps { heaps, mover }
    }

    /// The number of legal moves in `p`.
    pub fn move_count(&self, p: &Heaps) -> u128 {
        p.heaps
            .iter()
            .map(|h| u128::from(self.parts[h.part as usize].move_count(h.size)))
            .sum()
    }

    /// The moves on heap number `heap` of `p`, or for Nim only those leaving a size in
    /// `targets` (a Nim heap has as many moves as tokens, too many to list for big heaps).
    pub fn heap_moves(&self, p: &Heaps, heap: usize, nim_targets: &[u64]) -> Vec<HeapMove> {
        let h = p.heaps[heap];
        let mut raw = Vec::new();
        match &self.parts[h.part as usize] {
            Rule::Nim => {
                let mut targets: Vec<u64> = nim_targets.iter().copied().filter(|&t| t < h.size).collect();
                targets.sort_unstable();
                targets.dedup();
                raw.extend(targets.iter().rev().map(|&t| (h.size - t, 0)));
            }
            rule => rule.moves(h.size, &mut raw),
        }
        raw.into_iter()
            .map(|(take, left)| HeapMove { heap, take, left })
            .collect()
    }

    /// The moves of `p` after which `lost` holds for the position left, found by trying
    /// every move, except that a Nim heap only tries leaving a size in `nim_targets(size)`.
    pub fn winning_moves(
        &self,
        p: &Heaps,
        nim_targets: impl Fn(u64) -> Vec<u64>,
        lost: impl Fn(&Heaps) -> bool,
    ) -> Vec<HeapMove> {
        let unlimited = Budget::default().with_memory(u64::MAX);
        self.winning_moves_within(p, nim_targets, lost, &unlimited)
            .expect("no limit")
    }

    /// [`HeapGame::winning_moves`] within `within`: a heap whose moves would take more
    /// than its memory to list is refused, and the search stops (with the budget's error)
    /// at its deadline or cancel flag.
    pub fn winning_moves_within(
        &self,
        p: &Heaps,
        nim_targets: impl Fn(u64) -> Vec<u64>,
        lost: impl Fn(&Heaps) -> bool,
        within: &Budget,
    ) -> Result<Vec<HeapMove>, Error> {
        let clock = within.clock();
        let mut ticks = 0;
        let mut found = Vec::new();
        let mut raw = Vec::new();
        for (i, h) in p.heaps.iter().enumerate() {
            raw.clear();
            match &self.parts[h.part as usize] {
                Rule::Nim => raw.extend(
                    self.heap_moves(p, i, &nim_targets(h.size))
                        .iter()
                        .map(|m| (m.take, m.left)),
                ),
                rule => {
                    let count = rule.move_count(h.size);
                    let bytes = count.saturating_mul(std::mem::size_of::<(u64, u64)>() as u64);
                    if bytes > within.bytes() {
                        return Err(Error::too_big(format!(
                            "heap {} has {count} moves: trying each for a winning one needs about {}, \
                             more than the {} it may take",
                            i + 1,
                            bytes_text(bytes),
                            bytes_text(within.bytes())
                        )));
                    }
                    rule.moves(h.size, &mut raw);
                }
            }
            for &(take, left) in &raw {
                if clock.reached(0, &mut ticks) {
                    return Err(within.stopped("trying the moves of this position"));
                }
                let m = HeapMove { heap: i, take, left };
                if lost(&self.play(p, &m)) {
                    found.push(m);
                }
            }
        }
        Ok(found)
    }
}

/// Items joined by `sep`.
pub fn join<T: ToString>(items: &[T], sep: &str) -> String {
    items.iter().map(T::to_string).collect::<Vec<_>>().join(sep)
}

impl Game for HeapGame {
    type Position = Heaps;
    type Move = HeapMove;

    fn start(&self) -> Heaps {
        self.position(self.start.clone(), 0)
    }

    fn to_move(&self, p: &Heaps) -> PlayerId {
        p.mover
    }

    fn moves(&self, p: &Heaps, out: &mut Vec<HeapMove>) {
        let mut raw = Vec::new();
        for (heap, h) in p.heaps.iter().enumerate() {
            raw.clear();
            self.parts[h.part as usize].moves(h.size, &mut raw);
            out.extend(raw.iter().map(|&(take, left)| HeapMove { heap, take, left }));
        }
    }

    fn play(&self, p: &Heaps, m: &HeapMove) -> Heaps {
        let mut heaps = p.heaps.clone();
        let h = heaps[m.heap];
        let rest = h.size - m.take;
        if m.left == 0 {
            heaps[m.heap].size = rest;
        } else {
            heaps[m.heap].size = m.left;
            heaps.insert(
                m.heap + 1,
                Heap {
                    part: h.part,
                    size: rest - m.left,
                },
            );
        }
        Heaps {
            heaps,
            mover: 1 - p.mover,
        }
    }

    fn outcome(&self, p: &Heaps) -> Option<Outcome> {
        let stuck = !p
            .heaps
            .iter()
            .any(|h| self.parts[h.part as usize].can_move(h.size));
        stuck.then(|| Outcome::Win(if self.misere { p.mover } else { 1 - p.mover }))
    }
}

impl Impartial for HeapGame {
    fn options(&self, p: &Heaps) -> Vec<Heaps> {
        self.legal_moves(p).iter().map(|m| self.play(p, m)).collect()
    }
}

/// Opens a session of the game `spec` names.
pub fn open(spec: &Spec) -> Result<Box<dyn crate::session::Session>, Error> {
    let game = HeapGame::from_spec(spec)?;
    let info = match spec.name.as_str() {
        "nim" => &nim::INFO,
        "subtraction" => &subtraction::INFO,
        "octal" => &octal::INFO,
        _ => &sum::INFO,
    };
    Ok(strategy::open(&spec.to_string(), info, game))
}
