//! The notation of the heap games: a move is `H-T` (take `T` from heap `H`, heaps
//! numbered from 1) or `H-T=A+B` (take `T` from heap `H` and split the rest into heaps `A`
//! and `B`). A position is the mover's seat, a colon, and the heap sizes of each rule
//! joined by `/`, rules joined by ` + ` in the order of the game's parts: `1:6/9/3`,
//! `2:3/5/7 + 21 + 4`. The heaps in text and as a picture.
use super::{join, part_sizes, Heap, HeapGame, HeapMove, Heaps, Rule};
use crate::game::Notation;
use crate::picture::{Kind, Picture, Shape};
use crate::session::quantity;
use crate::Error;

/// The most tokens a heap's row shows.
const TOKENS_DRAWN: u64 = 40;

impl HeapGame {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

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
