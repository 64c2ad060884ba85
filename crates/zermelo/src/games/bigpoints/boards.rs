//! Families of reduced boards: every arrangement of `colors` colours with `discs` discs
//! each (plus optional white and black discs), and their classes under relabelling the
//! colours.
//!
//! Relabelling the colours maps a game onto an isomorphic one, except that the move
//! order (pawns in colour order), which breaks ties between equally ranked options,
//! changes. So the reachable positions correspond one to one, and under the study's
//! rule the result and the winner's score (both scores on a draw) are the same for all
//! boards of a class; the loser's score may differ. Under the margin rule the result
//! and the margin are the same.

use super::{notation, BigPoints, Rule, Ties, MAX_OF_KIND, MAX_PATH, WHITE};
use crate::spec::Spec;
use crate::Error;

/// Every arrangement of a reduced game's path, for two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFamily {
    /// Common colours (pawns).
    pub colours: usize,
    /// Discs of each colour on the path.
    pub discs: usize,
    /// White discs on the path.
    pub white: usize,
    /// Black discs on the path.
    pub black: usize,
    /// How solved players rank final scores.
    pub rule: Rule,
    /// Which take is kept first among options the rule ranks equal.
    pub ties: Ties,
}

impl BoardFamily {
    /// A family, checked for size, with the study's tie order.
    pub fn new(
        colours: usize,
        discs: usize,
        white: usize,
        black: usize,
        rule: Rule,
    ) -> Result<BoardFamily, Error> {
        if !(1..=5).contains(&colours) || !(1..=MAX_OF_KIND).contains(&discs) {
            return Err(Error::Spec(format!(
                "colors={colours}, discs={discs}: colours 1..=5, discs 1..={MAX_OF_KIND}"
            )));
        }
        if white > MAX_OF_KIND || black > MAX_OF_KIND || colours * discs + white + black > MAX_PATH {
            return Err(Error::Spec(format!(
                "at most {MAX_OF_KIND} white or black discs and {MAX_PATH} discs in all"
            )));
        }
        Ok(BoardFamily {
            colours,
            discs,
            white,
            black,
            rule,
            ties: Ties::default(),
        })
    }

    /// The family a spec names with `colors=` and `discs=` (and `white=`, `black=`, `rule=`,
    /// `ties=`).
    pub fn from_spec(spec: &Spec) -> Result<BoardFamily, Error> {
        spec.check_keys(&super::INFO)?;
        for key in [super::BOARD, super::SEED] {
            if spec.has(&key) {
                return Err(Error::Spec(format!(
                    "{}= names one game; a family of boards is given by colors= and discs=",
                    key.name
                )));
            }
        }
        if spec.int(&super::PLAYERS)? != 2 {
            return Err(Error::Spec("reduced games are for two players".into()));
        }
        if !spec.has(&super::COLORS) || !spec.has(&super::DISCS) {
            return Err(Error::Spec("a family of boards needs colors= and discs=".into()));
        }
        let family = BoardFamily::new(
            spec.int(&super::COLORS)? as usize,
            spec.int(&super::DISCS)? as usize,
            spec.int(&super::WHITE_DISCS)? as usize,
            spec.int(&super::BLACK_DISCS)? as usize,
            super::Rule::from_spec(spec)?,
        )?;
        Ok(BoardFamily {
            ties: Ties::from_spec(spec)?,
            ..family
        })
    }

    /// The spec naming this family.
    pub fn spec(&self) -> String {
        let mut s = format!("bigpoints:colors={},discs={}", self.colours, self.discs);
        if self.white > 0 {
            s += &format!(",white={}", self.white);
        }
        if self.black > 0 {
            s += &format!(",black={}", self.black);
        }
        if self.rule != Rule::Study {
            s += &format!(",rule={}", self.rule.name());
        }
        if self.ties != Ties::default() {
            s += &format!(",ties={}", self.ties.name());
        }
        s
    }

    /// How many discs of each kind the path holds.
    fn counts(&self) -> Vec<usize> {
        let mut counts = vec![self.discs; self.colours];
        counts.resize(WHITE as usize, 0);
        counts.extend([self.white, self.black]);
        counts
    }

    /// The number of distinct arrangements (a multinomial coefficient; `u128::MAX` when
    /// it does not fit).
    pub fn boards(&self) -> u128 {
        let mut total = 0usize;
        let mut ways: u128 = 1;
        for n in self.counts() {
            for i in 1..=n {
                total += 1;
                // Saturates for paths whose count exceeds 128 bits.
                ways = ways
                    .checked_mul(total as u128)
                    .map_or(u128::MAX, |w| w / i as u128);
            }
        }
        ways
    }

    /// The number of boards in each relabelling class: `colours!`.
    pub fn class_size(&self) -> u64 {
        (1..=self.colours as u64).product()
    }

    /// One board per relabelling class: the arrangements whose colours first appear in
    /// the order 1, 2, 3, ..., in lexicographic order.
    pub fn classes(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.arrangements(true, &mut out);
        out
    }

    /// Every arrangement, in lexicographic order.
    pub fn all(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.arrangements(false, &mut out);
        out
    }

    fn arrangements(&self, canonical: bool, out: &mut Vec<Vec<u8>>) {
        fn walk(left: &mut [usize], board: &mut Vec<u8>, seen: u8, canonical: bool, out: &mut Vec<Vec<u8>>) {
            if left.iter().all(|&n| n == 0) {
                out.push(board.clone());
                return;
            }
            for k in 0..left.len() {
                // A canonical board introduces colours in order: a new colour must be the next one.
                if left[k] == 0 || (canonical && k < WHITE as usize && k as u8 > seen) {
                    continue;
                }
                left[k] -= 1;
                board.push(k as u8);
                let seen = if k < WHITE as usize && k as u8 == seen {
                    seen + 1
                } else {
                    seen
                };
                walk(left, board, seen, canonical, out);
                board.pop();
                left[k] += 1;
            }
        }
        walk(&mut self.counts(), &mut Vec::new(), 0, canonical, out);
    }

    /// The representative of `board`'s class: colours renamed in order of first appearance.
    pub fn representative(board: &[u8]) -> Vec<u8> {
        let mut names = [u8::MAX; WHITE as usize];
        let mut next = 0;
        board
            .iter()
            .map(|&k| {
                if k >= WHITE {
                    return k;
                }
                if names[k as usize] == u8::MAX {
                    names[k as usize] = next;
                    next += 1;
                }
                names[k as usize]
            })
            .collect()
    }

    /// The two-player game on `board`.
    pub fn game(&self, board: &[u8]) -> BigPoints {
        BigPoints::new(board.to_vec(), 2, self.rule)
            .expect("a family's board is valid")
            .with_ties(self.ties)
    }

    /// A board in board notation, e.g. `1221`.
    pub fn format(board: &[u8]) -> String {
        notation::format_board(board)
    }
}
