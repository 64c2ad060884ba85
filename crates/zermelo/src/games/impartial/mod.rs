//! Impartial heap games: Nim, subtraction games, octal games, and sums of them.
//!
//! Every game here is a row of heaps, each played by a [`Rule`]; a move takes tokens
//! from one heap and may leave nothing, one heap or two heaps. Both players have the
//! same moves; under normal play whoever cannot move loses, under the misère rule whoever
//! cannot move wins (the last mover loses).
//!
//! Notation: a move is `H-T` (take `T` from heap `H`, heaps numbered from 1) or
//! `H-T=A+B` (take `T` from heap `H` and split the rest into heaps `A` and `B`). A position
//! is the mover's seat, a colon, and the heap sizes of each rule joined by `/`, rules
//! joined by ` + ` in the order of the game's parts: `1:6/9/3`, `2:3/5/7 + 21 + 4`.
//!
//! Their analyses: [`grundy`], the Grundy sequences of single-heap games by heap size with
//! the periods proven for them; [`sequence_db`], those sequences saved as databases.

pub mod grundy;
pub mod nim;
pub mod octal;
pub mod sequence_db;
mod strategy;
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

use crate::game::{Game, Impartial, Notation, Outcome, PlayerId};
use crate::picture::{Kind, Picture, Shape};
use crate::session::quantity;
use crate::solve::budget::{bytes_text, Budget};
use crate::spec::{Key, Spec, Values};
use crate::Error;

/// The most tokens a heap's row shows.
const TOKENS_DRAWN: u64 = 40;

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
                        return Err(Error::TooBig(format!(
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

    /// Which of the first `drawn` tokens of heap `h` play a move that leaves the tokens
    /// left of them (taking the rest of the heap, without splitting it).
    fn leaves(&self, h: Heap, drawn: u64) -> Vec<bool> {
        let rule = &self.parts[h.part as usize];
        if *rule == Rule::Nim {
            return vec![true; drawn as usize];
        }
        let mut playable = vec![false; drawn as usize];
        let mut moves = Vec::new();
        rule.moves(h.size, &mut moves);
        for (take, _) in moves.into_iter().filter(|&(_, left)| left == 0) {
            if let Some(slot) = playable.get_mut((h.size - take) as usize) {
                *slot = true;
            }
        }
        playable
    }

    /// Refuses heaps of part `part` that the game's start cannot come to: no heap grows and
    /// no token comes back, so a rule that never splits keeps the start's heaps, each no
    /// larger than it was; a rule that splits keeps at least the start's number of heaps,
    /// none larger than the start's largest and no more tokens in all, and at most twice
    /// the start's tokens more heaps (every move lowers twice the tokens less the
    /// non-empty heaps, which never falls below 0).
    fn check_part(&self, text: &str, part: usize, sizes: &[u64]) -> Result<(), Error> {
        let rule = &self.parts[part];
        let start = part_sizes(&self.start, part);
        let whose = if self.parts.len() > 1 {
            format!(" of {}", rule.describe())
        } else {
            String::new()
        };
        let bad = |why: String| Err(Error::bad_position(text, why));
        if !rule.splits() {
            if sizes.len() != start.len() {
                return bad(format!(
                    "{}{whose}, but the game has {} ({} never splits a heap)",
                    quantity(sizes.len(), "heap"),
                    start.len(),
                    rule.describe()
                ));
            }
            if let Some(i) = (0..sizes.len()).find(|&i| sizes[i] > start[i]) {
                return bad(format!(
                    "heap {}{whose} has {}, more than the {} it starts with",
                    i + 1,
                    quantity(sizes[i], "token"),
                    start[i]
                ));
            }
            return Ok(());
        }
        let largest = start.iter().copied().max().unwrap_or(0);
        let tokens: u128 = start.iter().map(|&n| u128::from(n)).sum();
        let held: u128 = sizes.iter().map(|&n| u128::from(n)).sum();
        if sizes.len() < start.len() || sizes.len() as u128 > start.len() as u128 + 2 * tokens {
            return bad(format!(
                "{}{whose}: play from the start's {} of {} cannot leave that many",
                quantity(sizes.len(), "heap"),
                quantity(start.len(), "heap"),
                quantity(tokens, "token")
            ));
        }
        if let Some(&size) = sizes.iter().find(|&&n| n > largest) {
            return bad(format!(
                "a heap{whose} of {} is larger than any at the start (at most {largest})",
                quantity(size, "token")
            ));
        }
        if held > tokens {
            return bad(format!(
                "the heaps{whose} hold {}, more than the {tokens} at the start",
                quantity(held, "token")
            ));
        }
        Ok(())
    }

    fn parse_sizes(&self, text: &str, group: &str) -> Result<Vec<u64>, Error> {
        group
            .split('/')
            .map(|s| {
                s.trim()
                    .parse()
                    .map_err(|_| Error::bad_position(text, format!("'{}' is not a heap size", s.trim())))
            })
            .collect()
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

impl Notation for HeapGame {
    fn parse_move(&self, p: &Heaps, text: &str) -> Result<HeapMove, Error> {
        let t = text.trim();
        let bad = |why: String| Error::bad_move(text, why);
        let (heap_text, rest) = t
            .split_once('-')
            .ok_or_else(|| bad("expected HEAP-TAKE or HEAP-TAKE=A+B, e.g. 2-4".into()))?;
        let (take_text, split) = match rest.split_once('=') {
            Some((take, split)) => (take, Some(split)),
            None => (rest, None),
        };
        let number = |s: &str| -> Result<u64, Error> {
            s.trim()
                .parse()
                .map_err(|_| bad(format!("'{}' is not a whole number", s.trim())))
        };
        let heap = number(heap_text)?;
        if heap == 0 || heap > p.heaps.len() as u64 {
            return Err(bad(format!("there are heaps 1 to {}", p.heaps.len())));
        }
        let heap = heap as usize - 1;
        let take = number(take_text)?;
        let size = p.heaps[heap].size;
        if take > size {
            return Err(bad(format!("heap {} has only {size}", heap + 1)));
        }
        let left = match split {
            None => 0,
            Some(s) => {
                let (a, b) = s
                    .split_once('+')
                    .ok_or_else(|| bad("a split is written A+B".into()))?;
                let (a, b) = (number(a)?, number(b)?);
                if a == 0 || b == 0 || a.checked_add(b) != Some(size - take) {
                    return Err(bad(format!(
                        "a split leaves two non-empty heaps adding up to {}",
                        size - take
                    )));
                }
                a.min(b)
            }
        };
        let m = HeapMove { heap, take, left };
        if !self.parts[p.heaps[heap].part as usize].allows(size, take, left) {
            return Err(bad(format!(
                "not a move of {} on a heap of {size}",
                self.parts[p.heaps[heap].part as usize].describe()
            )));
        }
        Ok(m)
    }

    fn format_move(&self, p: &Heaps, m: &HeapMove) -> String {
        if m.left == 0 {
            format!("{}-{}", m.heap + 1, m.take)
        } else {
            let rest = p.heaps[m.heap].size - m.take;
            format!("{}-{}={}+{}", m.heap + 1, m.take, m.left, rest - m.left)
        }
    }

    fn parse_position(&self, text: &str) -> Result<Heaps, Error> {
        let (seat, groups) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| Error::bad_position(text, "expected SEAT:HEAPS, e.g. 1:6/9/3"))?;
        let mover = match seat.trim() {
            "1" => 0,
            "2" => 1,
            _ => return Err(Error::bad_position(text, "the seat to move is 1 or 2")),
        };
        let groups: Vec<&str> = groups.split('+').collect();
        if groups.len() != self.parts.len() {
            return Err(Error::bad_position(
                text,
                format!(
                    "expected {} of heaps joined by '+'",
                    quantity(self.parts.len(), "group")
                ),
            ));
        }
        let mut heaps = Vec::new();
        for (part, group) in groups.iter().enumerate() {
            let sizes = self.parse_sizes(text, group)?;
            self.check_part(text, part, &sizes)?;
            for size in sizes {
                heaps.push(Heap {
                    part: part as u8,
                    size,
                });
            }
        }
        Ok(self.position(heaps, mover))
    }

    fn format_position(&self, p: &Heaps) -> String {
        let groups: Vec<String> = (0..self.parts.len())
            .map(|part| join(&part_sizes(&p.heaps, part), "/"))
            .collect();
        format!("{}:{}", p.mover + 1, groups.join(" + "))
    }

    fn render(&self, p: &Heaps) -> String {
        let mut s = String::new();
        for (i, h) in p.heaps.iter().enumerate() {
            let sticks = if h.size <= 40 {
                "|".repeat(h.size as usize)
            } else {
                String::new()
            };
            s += &format!(
                "heap {:>2} ({}): {:>3} {sticks}\n",
                i + 1,
                self.parts[h.part as usize].describe(),
                h.size
            );
        }
        s
    }

    /// A row per heap: its number, up to 40 of its tokens as pieces and its size. Clicking
    /// token `k` (from 0 on the left) plays the move that takes it and every token right of
    /// it, when the heap's rule allows that; moves that split a heap, and moves leaving more
    /// tokens than are drawn, are not on the picture.
    fn picture(&self, p: &Heaps) -> Option<Picture> {
        let widest = p
            .heaps
            .iter()
            .map(|h| h.size.min(TOKENS_DRAWN))
            .max()
            .unwrap_or(0);
        let mut shapes = Vec::new();
        for (i, h) in p.heaps.iter().enumerate() {
            let y = i as f64;
            shapes.push(Shape::new(Kind::Text, 0.0, y, 1.0, 1.0).label((i + 1).to_string()));
            let drawn = h.size.min(TOKENS_DRAWN);
            for (k, playable) in self.leaves(*h, drawn).into_iter().enumerate() {
                let token = Shape::new(Kind::Piece, 1.0 + k as f64, y, 1.0, 1.0);
                let take = HeapMove {
                    heap: i,
                    take: h.size - k as u64,
                    left: 0,
                };
                shapes.push(if playable {
                    token.plays(self.format_move(p, &take))
                } else {
                    token
                });
            }
            shapes.push(Shape::new(Kind::Text, 1.0 + widest as f64, y, 1.0, 1.0).label(h.size.to_string()));
        }
        let mut notes = vec![if self.parts.iter().all(|r| *r == Rule::Nim) {
            "Clicking a token takes it and every token to its right from its heap.".to_string()
        } else {
            "Clicking a token takes it and every token to its right from its heap, where the rules \
             allow that; moves that leave tokens on both sides are the buttons beside the board."
                .to_string()
        }];
        if p.heaps.iter().any(|h| h.size > TOKENS_DRAWN) {
            notes.push(format!(
                "A heap shows at most {TOKENS_DRAWN} of its tokens; its size is written after them."
            ));
        }
        Some(Picture {
            width: 2.0 + widest as f64,
            height: p.heaps.len() as f64,
            shapes,
            notes,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves on the tokens of `p`'s picture, row by row.
    fn plays(g: &HeapGame, p: &Heaps) -> Vec<Option<String>> {
        let picture = g.picture(p).unwrap();
        picture
            .shapes
            .into_iter()
            .filter(|s| s.kind == Kind::Piece)
            .map(|s| s.play)
            .collect()
    }

    fn game(spec: &str) -> HeapGame {
        HeapGame::from_spec(&spec.parse().unwrap()).unwrap()
    }

    #[test]
    fn positions_the_start_cannot_come_to_are_refused() {
        let why = |g: &HeapGame, text: &str| g.parse_position(text).unwrap_err().to_string();
        let nim = game("nim:heaps=3/4/5");
        assert!(nim.parse_position("2:0/4/1").is_ok());
        assert!(why(&nim, "1:3/4/6").contains("more than the 5 it starts with"));
        assert!(why(&nim, "1:3/4").contains("never splits"));
        assert!(why(&nim, "1:99999999999999999999").contains("not a heap size"));
        // Kayles splits a heap, never growing one or adding tokens.
        let kayles = game("octal:code=0.77,heaps=6");
        assert!(kayles.parse_position("1:2/0/3").is_ok());
        assert!(why(&kayles, "1:7").contains("larger than any at the start"));
        assert!(why(&kayles, "1:4/3").contains("more than the 6 at the start"));
        assert!(why(&kayles, &format!("1:{}", ["0"; 14].join("/"))).contains("cannot leave that many"));
        // A misère subtraction game keeps its one heap.
        let misere = game("subtraction:set=1/2/3,n=9,misere=true");
        assert!(misere.parse_position("2:5").is_ok());
        assert!(why(&misere, "1:5/4").contains("never splits"));
        let sum = game("sum:code=0.77,heaps=3,nim=2");
        assert!(why(&sum, "1:3 + 3").contains("heap 1 of nim"));
    }

    #[test]
    fn a_token_takes_itself_and_the_tokens_right_of_it() {
        let nim = HeapGame::new(vec![(Rule::Nim, vec![1, 2])], false);
        let all: Vec<Option<String>> = ["1-1", "2-2", "2-1"]
            .iter()
            .map(|m| Some(m.to_string()))
            .collect();
        assert_eq!(plays(&nim, &nim.start()), all);
        let subtraction = HeapGame::new(vec![(Rule::Subtraction(vec![2]), vec![3])], false);
        assert_eq!(
            plays(&subtraction, &subtraction.start()),
            [None, Some("1-2".into()), None]
        );
    }

    #[test]
    fn a_big_heap_shows_forty_tokens_and_its_size() {
        let nim = HeapGame::new(vec![(Rule::Nim, vec![1000])], false);
        let picture = nim.picture(&nim.start()).unwrap();
        assert_eq!(picture.shapes.len(), 42);
        assert_eq!(picture.shapes[41].label.as_deref(), Some("1000"));
        assert_eq!(picture.shapes[1].play.as_deref(), Some("1-1000"));
        assert_eq!(picture.width, 42.0);
    }
}
