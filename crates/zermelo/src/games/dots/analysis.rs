//! Facts about Dots and Boxes positions that exact search and players use: captures
//! that are always right to take, sacrifices, and a move order for search.

use super::{Dots, Lines, Position};

/// Why a capture is always right to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureRule {
    /// The capturing line borders no other box.
    Border,
    /// The line completes the box across it too.
    Double,
    /// The box across has at most one side drawn, so no chain follows.
    Isolated,
    /// The box begins a chain of three or more boxes ending at the border or at a box with
    /// at most one side drawn: declining the last two stays possible later.
    ChainEnd,
    /// The box begins a closed string whose other end is capturable too, of three boxes
    /// (all free) or of five or more (declining the last four stays possible later).
    Closed,
}

impl Dots {
    /// The undrawn side of a box with three sides drawn.
    fn missing_side(&self, lines: &Lines, b: usize) -> usize {
        self.box_lines[b]
            .into_iter()
            .find(|&l| !lines.has(l))
            .expect("a box with an undrawn side")
    }

    /// The box across line `l` from box `b`, if `l` is not on the border.
    pub(super) fn across(&self, l: usize, b: usize) -> Option<usize> {
        self.line_boxes[l].iter().copied().find(|&o| o != b)
    }

    /// The boxes with three sides drawn, each with the line that captures it.
    pub fn capturable(&self, lines: &Lines) -> Vec<(usize, usize)> {
        (0..self.box_count())
            .filter(|&b| self.sides(lines, b) == 3)
            .map(|b| (b, self.missing_side(lines, b)))
            .collect()
    }

    /// How many sides of each box are drawn.
    pub(super) fn all_sides(&self, lines: &Lines) -> [u8; 64] {
        let mut sides = [0u8; 64];
        for (b, s) in sides.iter_mut().enumerate().take(self.box_count()) {
            *s = self.sides(lines, b) as u8;
        }
        sides
    }

    /// Takes every box that can be taken, one after another: the boxes taken and the
    /// lines afterwards.
    pub fn take_all(&self, lines: &Lines) -> (i32, Lines) {
        let mut lines = *lines;
        let mut taken = 0;
        while let Some(b) = (0..self.box_count()).find(|&b| self.sides(&lines, b) == 3) {
            let l = self.missing_side(&lines, b);
            taken += self.completes(&lines, l) as i32;
            lines.insert(l);
        }
        (taken, lines)
    }

    /// A capture that is always as good as any other move, if the position has one.
    pub fn safe_capture(&self, lines: &Lines) -> Option<usize> {
        self.safe_capture_rule(lines).map(|(l, _)| l)
    }

    /// A capture that is always as good as any other move, with the rule that says so.
    /// Each rule is checked against the plain solver in the tests.
    pub fn safe_capture_rule(&self, lines: &Lines) -> Option<(usize, CaptureRule)> {
        self.safe_capture_in(lines, &self.all_sides(lines))
    }

    pub(super) fn safe_capture_in(&self, lines: &Lines, sides: &[u8; 64]) -> Option<(usize, CaptureRule)> {
        (0..self.box_count()).filter(|&b| sides[b] == 3).find_map(|b| {
            let l = self.missing_side(lines, b);
            let Some(n) = self.across(l, b) else {
                return Some((l, CaptureRule::Border));
            };
            match sides[n] {
                3 => return Some((l, CaptureRule::Double)),
                0 | 1 => return Some((l, CaptureRule::Isolated)),
                _ => {}
            }
            let (mut into, mut cur, mut len) = (l, n, 2);
            loop {
                let out = self.box_lines[cur]
                    .into_iter()
                    .find(|&x| x != into && !lines.has(x))
                    .expect("a box with two sides drawn has two undrawn");
                match self.across(out, cur).map(|next| (next, sides[next])) {
                    None | Some((_, 0 | 1)) => return (len >= 3).then_some((l, CaptureRule::ChainEnd)),
                    Some((_, 3)) => return (len + 1 != 4).then_some((l, CaptureRule::Closed)),
                    Some((next, _)) => {
                        (into, cur, len) = (out, next, len + 1);
                    }
                }
            }
        })
    }

    /// The groups of uncaptured boxes joined by undrawn lines, as (size, is a loop): a
    /// loop has every box with two sides drawn and no undrawn line on the border.
    pub fn strings(&self, lines: &Lines) -> Vec<(u8, bool)> {
        let mut strings = Vec::new();
        let mut seen = 0u64;
        for start in 0..self.box_count() {
            if seen >> start & 1 == 1 || self.sides(lines, start) == 4 {
                continue;
            }
            seen |= 1 << start;
            let (mut size, mut is_loop, mut stack) = (0u8, true, vec![start]);
            while let Some(b) = stack.pop() {
                size += 1;
                is_loop &= self.sides(lines, b) == 2;
                for l in self.box_lines[b] {
                    if lines.has(l) {
                        continue;
                    }
                    match self.across(l, b) {
                        None => is_loop = false,
                        Some(n) if seen >> n & 1 == 0 => {
                            seen |= 1 << n;
                            stack.push(n);
                        }
                        _ => {}
                    }
                }
            }
            strings.push((size, is_loop));
        }
        strings
    }

    /// The exact margin still to be won by the mover when every box left has exactly two
    /// sides drawn. Then the boxes form independent chains (both ends on the border) and
    /// loops, and every move opens one. The opponent takes a chain or loop whole, or
    /// (chains of three or more, loops) all but two or four boxes, handing those back
    /// with the obligation to move; the opener hands chains of two over so that they
    /// cannot be declined (drawing the line between their boxes).
    pub fn simple_endgame(&self, lines: &Lines) -> Option<i32> {
        if (0..self.box_count()).any(|b| !matches!(self.sides(lines, b), 2 | 4)) {
            return None;
        }
        let mut strings = self.strings(lines);
        strings.sort_unstable();
        Some(loony_value(&strings, &mut rustc_hash::FxHashMap::default()))
    }

    /// Whether drawing `l` (which captures nothing) gives the opponent a box to capture.
    pub fn is_sacrifice(&self, lines: &Lines, l: usize) -> bool {
        self.line_boxes[l].iter().any(|&b| self.sides(lines, b) == 2)
    }

    /// The key of exact search: the drawn lines up to symmetry (the margin still to be
    /// won depends on nothing else).
    pub fn search_key(&self, p: &Position) -> Lines {
        self.canonical_lines(&p.lines)
    }

    /// The moves exact search needs from `p`, best first:
    /// - the one safe capture, if there is one;
    /// - else, when boxes can be captured: the captures, and the lines of the boxes on offer
    ///   (declines). Any other move is worse than taking every box on offer and then
    ///   playing it, since the opponent could take them all after it;
    /// - else the quiet moves, then the sacrifices.
    pub fn search_moves(&self, p: &Position, out: &mut Vec<u8>) {
        let lines = &p.lines;
        let sides = self.all_sides(lines);
        if let Some((l, _)) = self.safe_capture_in(lines, &sides) {
            out.push(l as u8);
            return;
        }
        let undrawn = self.undrawn(lines);
        let sacrifice = |l: usize| self.line_boxes[l].iter().any(|&b| sides[b] == 2);
        if sides[..self.box_count()].contains(&3) {
            let (_, taken) = self.take_all(lines);
            let on_offer: Vec<usize> = (0..self.box_count())
                .filter(|&b| self.sides(lines, b) < 4 && self.sides(&taken, b) == 4)
                .collect();
            let mut declines = Vec::new();
            for l in undrawn.iter() {
                if self.completes(lines, l) > 0 {
                    out.push(l as u8);
                } else if self.line_boxes[l].iter().any(|b| on_offer.contains(b)) {
                    declines.push(l as u8);
                }
            }
            out.extend(declines);
            return;
        }
        let first = out.len();
        out.extend(undrawn.iter().filter(|&l| !sacrifice(l)).map(|l| l as u8));
        if out.len() == first {
            out.extend(undrawn.iter().map(|l| l as u8));
        } else {
            out.extend(undrawn.iter().filter(|&l| sacrifice(l)).map(|l| l as u8));
        }
    }
}

/// The margin for the player who must open one of `strings` (sorted (size, is loop)),
/// each opened string answered as well as possible.
fn loony_value(strings: &[(u8, bool)], memo: &mut rustc_hash::FxHashMap<Vec<(u8, bool)>, i32>) -> i32 {
    if strings.is_empty() {
        return 0;
    }
    if let Some(&v) = memo.get(strings) {
        return v;
    }
    let mut best = i32::MIN;
    for i in 0..strings.len() {
        if i > 0 && strings[i] == strings[i - 1] {
            continue;
        }
        let (size, is_loop) = strings[i];
        let mut rest = strings.to_vec();
        rest.remove(i);
        let after = loony_value(&rest, memo);
        let size = size as i32;
        let take_all = size + after;
        let keep_control = match (is_loop, size) {
            (true, _) => size - 8 - after,
            (false, 3..) => size - 4 - after,
            _ => i32::MIN,
        };
        best = best.max(-take_all.max(keep_control));
    }
    memo.insert(strings.to_vec(), best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn captures_beside_an_empty_box_are_safe() {
        let g = Dots::square(3).unwrap();
        let p = g.after(&["1ab", "12a", "12b"]).unwrap();
        assert_eq!(g.safe_capture(&p.lines), g.parse_line("2ab").ok());
        let q = g.after(&["1ab", "12a", "2ab"]).unwrap();
        // 12b captures 1b; the box across (1c) has no side drawn.
        assert_eq!(g.safe_capture(&q.lines), g.parse_line("12b").ok());
    }

    #[test]
    fn the_last_two_of_a_chain_are_not_forced() {
        let g = Dots::new(2, 3).unwrap();
        // Two boxes in a row with every outer side drawn but 12c: 1b has three sides.
        let p = g.after(&["1ab", "2ab", "12a", "1bc", "2bc"]).unwrap();
        assert_eq!(g.capturable(&p.lines).len(), 1);
        assert_eq!(g.safe_capture(&p.lines), None);
        let mut moves = Vec::new();
        g.search_moves(&p, &mut moves);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0] as usize, g.parse_line("12b").unwrap());
        assert_eq!(g.legal_moves(&p).len(), 2);
    }
}
