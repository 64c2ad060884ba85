//! The game interface: positions, moves, outcomes, and the capabilities a game may offer.
//!
//! A game implements [`Game`]; solvers and players ask only for the extra capability
//! traits they need ([`Symmetric`], [`Indexed`], [`Notation`], [`Impartial`], [`Scored`]).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Range;

use crate::Error;

/// A seat at the table: 0 is the first player of the default start, 1 the second, and so on.
pub type PlayerId = u8;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(PlayerId),
    /// Nobody won (in a two-player game: a draw).
    Draw,
    /// Several players share the win: bit `i` set means player `i` is among the winners.
    Shared(u32),
}

impl Outcome {
    /// Whether `player` is the sole winner.
    pub fn is_win_for(self, player: PlayerId) -> bool {
        self == Outcome::Win(player)
    }
}

/// A finite game of perfect information.
pub trait Game {
    /// A position, including whose turn it is.
    type Position: Clone + Eq + Hash + Debug + Send + Sync;
    /// A move, meaningful in the position it is played from.
    type Move: Clone + Eq + Debug + Send + Sync;

    /// The start position.
    fn start(&self) -> Self::Position;
    /// The player whose turn it is.
    fn to_move(&self, p: &Self::Position) -> PlayerId;
    /// Appends every legal move of `p` to `out` (which the caller has cleared).
    fn moves(&self, p: &Self::Position, out: &mut Vec<Self::Move>);
    /// The position after playing the legal move `m` in `p`.
    fn play(&self, p: &Self::Position, m: &Self::Move) -> Self::Position;
    /// `Some` when `p` is terminal: how the game ended.
    fn outcome(&self, p: &Self::Position) -> Option<Outcome>;
    /// How many players take part.
    fn players(&self) -> usize {
        2
    }
    /// A static evaluation of `p` for the player to move, for depth-limited search:
    /// positive is good for the mover. The default knows nothing.
    fn heuristic(&self, _p: &Self::Position) -> i32 {
        0
    }
    /// The same position with the other player to move, in a game where either may move
    /// from it (a partizan game, whose positions have an outcome class); `None` by default.
    fn with_other_to_move(&self, _p: &Self::Position) -> Option<Self::Position> {
        None
    }

    /// The legal moves of `p` as a new vector.
    fn legal_moves(&self, p: &Self::Position) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.moves(p, &mut out);
        out
    }
}

/// Games whose positions fall into classes of equal value under symmetries.
pub trait Symmetric: Game {
    /// The representative of `p`'s class; symmetric positions give the same representative.
    fn canonical(&self, p: &Self::Position) -> Self::Position;
    /// A position of the same value as `p`, the same player to move, for a solver's table
    /// to share: by default its symmetry representative; a game may also drop what no
    /// move can change.
    fn equivalent(&self, p: &Self::Position) -> Self::Position {
        self.canonical(p)
    }
}

/// Games whose positions can be numbered densely, for tables indexed by rank.
pub trait Indexed: Game {
    /// The number of ranks: every position has a rank below this.
    fn size(&self) -> u64;
    /// The rank of `p`.
    fn rank(&self, p: &Self::Position) -> u64;
    /// The position of rank `r`, or `None` when no valid position has that rank.
    fn unrank(&self, r: u64) -> Option<Self::Position>;
    /// Whether the ranks number every position: false for a game too big to number in 64
    /// bits (a Domineering board of more than 62 cells), whose ranks no table may use.
    fn numbered(&self) -> bool {
        true
    }
}

/// Indexed games whose ranks come in levels, for level-by-level solving. Level `l` holds
/// the ranks `level_ranks(l)`; the levels cover `0..size()`. Every move leads to a higher
/// level, except moves within a level (like passes), which must lead to positions whose
/// own moves all lead higher.
pub trait Levelled: Indexed {
    /// The number of levels.
    fn levels(&self) -> usize;
    /// The ranks of level `level`.
    fn level_ranks(&self, level: usize) -> Range<u64>;
    /// How many levels above its own a move can lead at most: a level's children lie in
    /// the next `reach()` levels. Games that know no smaller bound keep every level.
    fn reach(&self) -> usize {
        self.levels()
    }
    /// Calls `f` with every rank of `ranks` in order and its position (`None` when the
    /// rank is no valid position). Games override this when stepping from one position to
    /// the next is faster than unranking each.
    fn for_each_position(&self, ranks: Range<u64>, mut f: impl FnMut(u64, Option<Self::Position>)) {
        for r in ranks {
            f(r, self.unrank(r));
        }
    }
    /// Appends, for every legal move of `p`, the rank of the position after it and whether
    /// its mover is `p`'s mover again. Moves leading to the same rank may be listed once.
    /// Games override this when they can do it faster than playing and ranking each move.
    fn child_ranks(&self, p: &Self::Position, moves: &mut Vec<Self::Move>, out: &mut Vec<(u64, bool)>) {
        moves.clear();
        self.moves(p, moves);
        let mover = self.to_move(p);
        out.extend(moves.iter().map(|m| {
            let child = self.play(p, m);
            (self.rank(&child), self.to_move(&child) == mover)
        }));
    }
}

/// Games with a text notation for moves and positions.
pub trait Notation: Game {
    /// Parses a move typed by a person and checks that it is legal in `p`.
    fn parse_move(&self, p: &Self::Position, text: &str) -> Result<Self::Move, Error>;
    /// The canonical text of move `m` in `p`.
    fn format_move(&self, p: &Self::Position, m: &Self::Move) -> String;
    /// Parses a position in the game's position notation.
    fn parse_position(&self, text: &str) -> Result<Self::Position, Error>;
    /// The position in the game's position notation (round-trips through `parse_position`).
    fn format_position(&self, p: &Self::Position) -> String;
    /// A multi-line picture of the position for the terminal.
    fn render(&self, p: &Self::Position) -> String;
    /// What players call seat `player` (`X`, `White`, ...).
    fn player_name(&self, player: PlayerId) -> String {
        format!("player {}", player + 1)
    }
    /// A picture of the position for a board on screen, its moves on the shapes that
    /// play them; `None` for games without one.
    fn picture(&self, _p: &Self::Position) -> Option<crate::picture::Picture> {
        None
    }
}

/// Impartial games under normal play: both players have the same moves from a position,
/// and the player who cannot move loses.
pub trait Impartial: Game {
    /// The positions reachable in one move, whoever is to move.
    fn options(&self, p: &Self::Position) -> Vec<Self::Position>;
}

/// Games that end with a score for each player.
pub trait Scored: Game {
    /// The points of `player` in `p` (final when `p` is terminal).
    fn score(&self, p: &Self::Position, player: PlayerId) -> i32;

    /// The final points of the first two players when `p` is terminal, else `None`
    /// (a game may answer this faster than [`Game::outcome`] and two [`Scored::score`]s).
    fn final_scores(&self, p: &Self::Position) -> Option<[i32; 2]> {
        self.outcome(p).map(|_| [self.score(p, 0), self.score(p, 1)])
    }
}

/// Cells of grid boards named chess-style, column letter then row number: `a1` at the
/// bottom left, columns `a` to `z`, rows from 1; the one notation of every grid family.
pub mod cell {
    /// Why a cell's name was refused.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Bad {
        /// Not a column letter followed by a row number.
        Form,
        /// A cell beyond the board's columns or rows.
        Off,
    }

    /// The letter of column `col` (from 0).
    pub fn column(col: usize) -> char {
        char::from(b'a' + col as u8)
    }

    /// The name of the cell in column `col` and row `row` (both from 0).
    pub fn name(col: usize, row: usize) -> String {
        format!("{}{}", column(col), row + 1)
    }

    /// The name of cell `cell` of a board `cols` wide, cells numbered row by row from the
    /// bottom left.
    pub fn name_of(cell: usize, cols: usize) -> String {
        name(cell % cols, cell / cols)
    }

    /// The column and row (both from 0) of the cell `text` names on a board of `cols`
    /// columns and `rows` rows; case and the spaces around it are ignored.
    pub fn parse(text: &str, cols: usize, rows: usize) -> Result<(usize, usize), Bad> {
        let text = text.trim().to_ascii_lowercase();
        let mut chars = text.chars();
        let col = chars.next().filter(char::is_ascii_lowercase);
        let row: Option<usize> = chars.as_str().parse().ok();
        let (Some(col), Some(row)) = (col, row) else {
            return Err(Bad::Form);
        };
        let col = usize::from(col as u8 - b'a');
        if col >= cols || row == 0 || row > rows {
            return Err(Bad::Off);
        }
        Ok((col, row - 1))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn every_cell_of_a_board_reads_back_its_name() {
            let (cols, rows) = (7, 12);
            for cell in 0..cols * rows {
                let text = name_of(cell, cols);
                assert_eq!(parse(&text, cols, rows), Ok((cell % cols, cell / cols)), "{text}");
                assert_eq!(
                    parse(&format!(" {} ", text.to_uppercase()), cols, rows),
                    Ok((cell % cols, cell / cols))
                );
            }
            assert_eq!(name(0, 0), "a1");
            assert_eq!(name_of(cols * rows - 1, cols), "g12");
        }

        #[test]
        fn names_off_the_board_or_out_of_form_are_refused() {
            for off in ["h1", "a0", "a13", "z9"] {
                assert_eq!(parse(off, 7, 12), Err(Bad::Off), "{off}");
            }
            for bad in ["", "1a", "a", "aa1", "a-1", "a1b", "é1"] {
                assert_eq!(parse(bad, 7, 12), Err(Bad::Form), "{bad}");
            }
        }
    }
}
