//! Big Points (Brigitte and Wolfgang Ditt, 2008) for 2 to 5 players, and the reduced
//! games of the published minimax study.
//!
//! A single-file path of discs ends at a finishing stair. A turn moves one pawn to the
//! next disc of its colour (or onto the stair when none is left ahead) and takes the first
//! free disc ahead of it or behind it (or the colour's stair disc). When the last pawn
//! reaches the stair, each colour's discs are worth the value of the step its pawn
//! reached; white discs are worth the number of colours their owner holds.
//!
//! Disc kinds: the common colours red, green, blue, yellow, purple (`r g b y p`, or the
//! digits `1`..`5` in boards), white `w` and black `k`.
//!
//! Move notation (see [`Move`]): the pawn's colour letter, then `+` (take the first free
//! disc ahead), `-` (take the first free disc behind), `^` (onto the stair, taking its
//! stair disc) or `.` (nothing free to take). A backward step, allowed only in a
//! black-disc extra move, has `~` after the colour. A black-disc extra move follows the
//! turn's move after a `/`: `g+/r~-` moves green and takes ahead, then gives up a black
//! disc to move red back and take behind.
//!
//! Rules where the published rules are silent: a path move must take a disc when the
//! turn offers any move that does; only when no move can take a disc may a pawn move
//! without taking (`.`). An extra move always takes a disc (it is optional anyway).
//! Hands are open: every take happens in view of all players, so hidden hands only test
//! memory, and a player with perfect memory knows everything a position holds.

mod boards;
mod census;
pub mod entry;
mod layers;
mod notation;
mod packed;
mod solver;
pub mod study;
pub mod sweep;
mod words;

pub use boards::BoardFamily;
pub use census::Census;
pub use layers::{LayerSolver, Layered, Layers, ENDS, TALLY_KINDS};
pub use packed::Packed;
pub use solver::{decision_rule, SolveMemory, SweepMemory, MAX_SOLVE_DISCS, SWEEP_TABLE_BYTES};
pub use words::{SharedScores, WordSolver, WordTable, KEY_BITS};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::game::{Game, Outcome, PlayerId, Scored};
use crate::session::strategies::score_pairs::{self, Deal, ScoreGame};
use crate::session::{Cost, Fact, FactValue, Session};
use crate::solve::scores::{DecisionRule, Scores};
use crate::spec::{GameInfo, Key, PlayerInfo, Preset, Spec, Values};
use crate::Error;

const PLAYERS: Key = Key {
    name: "players",
    values: Values::Int {
        lo: 2,
        hi: 5,
        default: Preset::Is(2),
    },
    also: None,
    help: "number of players",
};
const SEED: Key = Key {
    name: "seed",
    values: Values::Int {
        lo: 0,
        hi: u64::MAX,
        default: Preset::Is(0),
    },
    also: None,
    help: "shuffles the full game's 55-disc path",
};
const BOARD: Key = Key {
    name: "board",
    values: Values::Text {
        form: "1..=64 discs, at most 14 of a kind: 1-5 or r,g,b,y,p, w (white), k (black)",
        default: Preset::Else("(random path)"),
    },
    also: None,
    help: "an explicit path, e.g. 1221 (a reduced game)",
};
/// The colours of a reduced game's family of paths.
const COLORS: Key = Key {
    name: "colors",
    values: Values::Int {
        lo: 1,
        hi: 5,
        default: Preset::Else("-"),
    },
    also: None,
    help: "with discs: every arrangement of a reduced game (for balance)",
};
/// The discs of each colour of a reduced game's family of paths.
const DISCS: Key = Key {
    name: "discs",
    values: Values::Int {
        lo: 1,
        hi: MAX_OF_KIND as u64,
        default: Preset::Else("-"),
    },
    also: None,
    help: "discs of each colour on a reduced path",
};
/// The white discs of a reduced game's family of paths.
const WHITE_DISCS: Key = Key {
    name: "white",
    values: Values::Int {
        lo: 0,
        hi: MAX_OF_KIND as u64,
        default: Preset::Is(0),
    },
    also: None,
    help: "white discs added to a reduced game's path",
};
/// The black discs of a reduced game's family of paths.
const BLACK_DISCS: Key = Key {
    name: "black",
    values: Values::Int {
        lo: 0,
        hi: MAX_OF_KIND as u64,
        default: Preset::Is(0),
    },
    also: None,
    help: "black discs added to a reduced game's path",
};
/// The rules in the order of [`Rule`]'s variants.
const RULE: Key = Key {
    name: "rule",
    values: Values::Word(&["study", "margin"]),
    also: None,
    help: "how solved players rank final scores (study rule or own minus opponent's)",
};
/// The orders in the order of [`Ties`]' variants.
const TIES: Key = Key {
    name: "ties",
    values: Values::Word(&["behind", "ahead"]),
    also: None,
    help: "which take a solved player keeps first among options its rule ranks equal \
           (behind: the study's program)",
};

/// The registry entry of Big Points.
pub const INFO: GameInfo = GameInfo {
    name: "bigpoints",
    summary: "Big Points: move pawns along a path of discs, take discs, race to the stair",
    how_to_play: "Move any pawn on to the next disc of its colour and take the first free disc ahead of it or behind it; when every pawn is on the stair, a colour's discs score its pawn's step; most points wins.",
    keys: &[PLAYERS, SEED, BOARD, COLORS, DISCS, WHITE_DISCS, BLACK_DISCS, RULE, TIES],
    players: &[
        PlayerInfo {
            name: "perfect",
            help: "exact score solver under the game's rule (reduced two-player boards)",
        },
        PlayerInfo {
            name: "greedy",
            help: "the move that raises its own score the most",
        },
        PlayerInfo {
            name: "mcts[:BUDGET]",
            help: "Monte Carlo tree search: playouts (2000), or a time per move (500ms, 2s)",
        },
    ],
};

/// The number of common colours (and pawns) of the full game.
pub const COLOURS: usize = 5;
/// Disc kinds: the common colours `0..5`, then white and black.
pub const KINDS: usize = 7;
/// The kind of white discs.
pub const WHITE: u8 = 5;
/// The kind of black discs.
pub const BLACK: u8 = 6;
/// The most discs a path may have.
pub const MAX_PATH: usize = 64;
/// The most discs of one common colour (or of white, or black) a path may have.
pub const MAX_OF_KIND: usize = 14;

/// The longest path [`BigPoints::pack`] keeps exactly.
pub const PACKED_PATH: usize = 32;

/// A pawn's index meaning "on the stair" (indices `1..=n` are its colour's discs, 0 is
/// before the path).
const ON_STAIR: u64 = 15;
/// An arrival rank meaning "not on the stair yet".
const NOT_ARRIVED: u64 = 7;

/// How a solved player ranks final score pairs (used by the reduced games' solvers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The study's rule: a win beats a draw beats a loss; higher own score among wins
    /// and draws, lower opponent score among losses.
    Study,
    /// Zero-sum: maximise own score minus the opponent's.
    Margin,
}

impl Rule {
    /// The rule's name in specs.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Study => "study",
            Rule::Margin => "margin",
        }
    }

    fn from_spec(spec: &Spec) -> Result<Rule, Error> {
        Ok([Rule::Study, Rule::Margin][spec.word(&RULE)?])
    }
}

/// Which of a pawn's two takes comes first in move order, and so is kept when the
/// decision rule ranks both equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ties {
    /// The disc behind the pawn before the one ahead, as the study's program tries them.
    #[default]
    Behind,
    /// The disc ahead before the one behind.
    Ahead,
}

impl Ties {
    /// The order's name in specs.
    pub fn name(self) -> &'static str {
        match self {
            Ties::Behind => "behind",
            Ties::Ahead => "ahead",
        }
    }

    fn from_spec(spec: &Spec) -> Result<Ties, Error> {
        Ok([Ties::Behind, Ties::Ahead][spec.word(&TIES)?])
    }

    /// The two takes in this order.
    fn takes(self) -> [Take; 2] {
        match self {
            Ties::Behind => [Take::Behind, Take::Ahead],
            Ties::Ahead => [Take::Ahead, Take::Behind],
        }
    }
}

/// What disc, if any, a step takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Take {
    /// The first free disc ahead of the pawn.
    Ahead,
    /// The first free disc behind the pawn.
    Behind,
    /// The pawn went onto the stair: its colour's stair disc.
    Stair,
    /// No disc was free.
    Nothing,
}

/// One pawn move with its take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The pawn's colour, `0..colours`.
    pub pawn: u8,
    /// Whether the pawn moves backward (black-disc extra moves only).
    pub back: bool,
    /// What the step takes.
    pub take: Take,
    /// Where the pawn lands, as its index among its colour's discs (worked out with the move).
    to: u8,
    /// The path disc taken, or [`NO_DISC`].
    took: u8,
}

/// [`Step::took`] when no path disc is taken.
const NO_DISC: u8 = u8::MAX;

impl Step {
    /// Whether `self` is the move `other` names: same pawn, direction and take.
    fn names(&self, other: &Step) -> bool {
        (self.pawn, self.back, self.take) == (other.pawn, other.back, other.take)
    }
}

/// A turn: a step, and optionally a black disc given up for an extra step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The turn's move.
    pub step: Step,
    /// The extra move paid for with a black disc.
    pub extra: Option<Step>,
}

/// A position in a few machine words: the taken discs, the pawns, the arrival order,
/// the hands and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Bit `i` set: path disc `i` has been taken.
    taken: u64,
    /// Bits `4c..4c+4`: pawn `c`'s index among its colour's discs (0 before the path,
    /// 15 on the stair); bits `20+3c..23+3c`: its arrival rank (7 = not arrived);
    /// bits 35..38: pawns arrived; bits 38..41: the player to move.
    state: u64,
    /// Per player, 4 bits per disc kind: how many discs of that kind the player holds.
    hands: [u32; COLOURS],
}

const ARRIVED_SHIFT: u32 = 35;
const MOVER_SHIFT: u32 = 38;

impl Position {
    fn pawn(&self, c: usize) -> u64 {
        self.state >> (4 * c) & 15
    }

    fn set_pawn(&mut self, c: usize, index: u64) {
        self.state = self.state & !(15 << (4 * c)) | index << (4 * c);
    }

    fn rank(&self, c: usize) -> u64 {
        self.state >> (20 + 3 * c) & 7
    }

    fn set_rank(&mut self, c: usize, rank: u64) {
        self.state = self.state & !(7 << (20 + 3 * c)) | rank << (20 + 3 * c);
    }

    /// How many pawns are on the stair.
    pub fn arrived(&self) -> usize {
        (self.state >> ARRIVED_SHIFT & 7) as usize
    }

    fn set_arrived(&mut self, n: usize) {
        self.state = self.state & !(7 << ARRIVED_SHIFT) | (n as u64) << ARRIVED_SHIFT;
    }

    /// The player to move.
    pub fn mover(&self) -> PlayerId {
        (self.state >> MOVER_SHIFT & 7) as PlayerId
    }

    fn set_mover(&mut self, player: usize) {
        self.state = self.state & !(7 << MOVER_SHIFT) | (player as u64) << MOVER_SHIFT;
    }

    /// How many discs of `kind` player `who` holds.
    pub fn held(&self, who: usize, kind: u8) -> u32 {
        self.hands[who] >> (4 * kind) & 15
    }

    fn add(&mut self, who: usize, kind: u8, n: i32) {
        let count = self.held(who, kind) as i32 + n;
        debug_assert!((0..16).contains(&count), "hand count out of range");
        self.hands[who] = self.hands[who] & !(15 << (4 * kind)) | (count as u32) << (4 * kind);
    }

    /// Whether path disc `i` has been taken.
    pub fn is_taken(&self, i: usize) -> bool {
        self.taken >> i & 1 == 1
    }
}

/// One game of Big Points: its path, number of players and pawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigPoints {
    path: Vec<u8>,
    colours: usize,
    players: usize,
    rule: Rule,
    ties: Ties,
    /// Per kind, the path bits of its discs.
    kind_mask: [u64; KINDS],
    /// Per colour, the path index of its `j`-th disc (`j` from 0).
    disc_at: [[u8; MAX_OF_KIND]; COLOURS],
    /// Per colour, how many of its discs the path has.
    of_colour: [u8; COLOURS],
}

impl BigPoints {
    /// The game on `path` (disc kinds) for `players` players. The pawns are the common
    /// colours `0..colours`, where `colours` is one more than the highest colour on the path.
    pub fn new(path: Vec<u8>, players: usize, rule: Rule) -> Result<BigPoints, Error> {
        if !(2..=5).contains(&players) {
            return Err(Error::Spec(format!("players={players} is out of range 2..=5")));
        }
        if path.is_empty() || path.len() > MAX_PATH {
            return Err(Error::Spec(format!(
                "a path has 1..={MAX_PATH} discs, not {}",
                path.len()
            )));
        }
        let mut kind_mask = [0u64; KINDS];
        for (i, &k) in path.iter().enumerate() {
            if k as usize >= KINDS {
                return Err(Error::Spec(format!("disc kind {k} does not exist")));
            }
            kind_mask[k as usize] |= 1 << i;
        }
        let colours = path
            .iter()
            .filter(|&&k| k < WHITE)
            .max()
            .map_or(0, |&k| k as usize + 1);
        if colours == 0 {
            return Err(Error::Spec("a path needs at least one coloured disc".into()));
        }
        let mut disc_at = [[0u8; MAX_OF_KIND]; COLOURS];
        let mut of_colour = [0u8; COLOURS];
        for (k, &mask) in kind_mask.iter().enumerate() {
            let n = mask.count_ones() as usize;
            if n > MAX_OF_KIND {
                return Err(Error::Spec(format!(
                    "at most {MAX_OF_KIND} discs of a kind, not {n} of {}",
                    notation::kind_letter(k as u8)
                )));
            }
            if k < colours {
                if n == 0 {
                    return Err(Error::Spec(format!(
                        "colour {} has no disc on the path",
                        notation::kind_letter(k as u8)
                    )));
                }
                of_colour[k] = n as u8;
                for (j, i) in bits(mask).enumerate() {
                    disc_at[k][j] = i as u8;
                }
            }
        }
        Ok(BigPoints {
            path,
            colours,
            players,
            rule,
            ties: Ties::default(),
            kind_mask,
            disc_at,
            of_colour,
        })
    }

    /// The full game: a path of 9 discs of each colour, 5 white and 5 black, shuffled by `seed`.
    pub fn full(players: usize, seed: u64) -> Result<BigPoints, Error> {
        let mut path: Vec<u8> = (0..COLOURS as u8).flat_map(|c| [c; 9]).collect();
        path.extend([WHITE; 5]);
        path.extend([BLACK; 5]);
        path.shuffle(&mut StdRng::seed_from_u64(seed));
        BigPoints::new(path, players, Rule::Study)
    }

    /// The game a spec names: `board=` an explicit path, or the full game shuffled by
    /// `seed`. A spec naming a family of boards (`colors=`, `discs=`) is refused here:
    /// see [`BoardFamily::from_spec`].
    pub fn from_spec(spec: &Spec) -> Result<BigPoints, Error> {
        spec.check_keys(&INFO)?;
        if spec.has(&COLORS) || spec.has(&DISCS) {
            return Err(Error::Spec(
                "colors= and discs= name every arrangement of a reduced game: use `zermelo balance`, \
                 or give one path with board="
                    .into(),
            ));
        }
        for key in [WHITE_DISCS, BLACK_DISCS] {
            if spec.has(&key) {
                return Err(Error::Spec(format!(
                    "{}= goes with colors= and discs=; in board= write w (white) or k (black)",
                    key.name
                )));
            }
        }
        let players = spec.int(&PLAYERS)? as usize;
        let rule = Rule::from_spec(spec)?;
        let ties = Ties::from_spec(spec)?;
        let game = match spec.get(BOARD.name) {
            Some(text) => {
                if spec.has(&SEED) {
                    return Err(Error::Spec(
                        "seed= shuffles the full game; board= gives the path".into(),
                    ));
                }
                BigPoints::new(notation::parse_board(text)?, players, rule)?
            }
            None => {
                let seed = spec.int(&SEED)?;
                let mut g = BigPoints::full(players, seed)?;
                g.rule = rule;
                g
            }
        };
        Ok(game.with_ties(ties))
    }

    /// The same game with the takes of each pawn in move order `ties`.
    pub fn with_ties(mut self, ties: Ties) -> BigPoints {
        self.ties = ties;
        self
    }

    /// Which take comes first in move order.
    pub fn ties(&self) -> Ties {
        self.ties
    }

    /// The path, one disc kind per disc.
    pub fn path(&self) -> &[u8] {
        &self.path
    }

    /// The path in board notation (colours as digits, `w`, `k`), e.g. `1221`.
    pub fn board(&self) -> String {
        notation::format_board(&self.path)
    }

    /// The number of pawns (common colours).
    pub fn colours(&self) -> usize {
        self.colours
    }

    /// How solved players rank final scores.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The value of the stair step reached `rank`-th (from 0): `colours - 1 - rank`.
    fn step_value(&self, rank: u64) -> i32 {
        self.colours as i32 - 1 - rank as i32
    }

    /// The path index under pawn `c`, if it stands on the path.
    fn square(&self, p: &Position, c: usize) -> Option<u32> {
        match p.pawn(c) {
            0 | ON_STAIR => None,
            j => Some(self.disc_at[c][j as usize - 1] as u32),
        }
    }

    /// The path bits under pawns.
    fn occupied(&self, p: &Position) -> u64 {
        (0..self.colours)
            .filter_map(|c| self.square(p, c))
            .fold(0, |acc, i| acc | 1 << i)
    }

    fn present(&self, p: &Position) -> u64 {
        self.full_mask() & !p.taken
    }

    fn full_mask(&self) -> u64 {
        if self.path.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.path.len()) - 1
        }
    }

    /// Where pawn `c` would go: `Some(i)` a path index, `None` the stair. Backward moves
    /// have `None` when no disc of the colour is behind (then there is no such move).
    fn target(&self, p: &Position, c: usize, back: bool) -> Option<u32> {
        let own = self.present(p) & self.kind_mask[c];
        match self.square(p, c) {
            Some(i) if back => highest(own & below(i)),
            Some(i) => lowest(own & !below(i + 1)),
            None if back => None,
            None => lowest(own),
        }
    }

    /// The path bits free for a take once pawn `c` has moved to `to`: present, and under
    /// no pawn. `occupied` holds the squares under pawns before the move.
    fn free_after(&self, p: &Position, occupied: u64, c: usize, to: u32) -> u64 {
        let left = self.square(p, c).map_or(0, |from| 1u64 << from);
        self.present(p) & !(occupied & !left) & !(1 << to)
    }

    /// The disc a pawn at `to` takes with `take` among the `free` discs, if any.
    fn take_at(free: u64, to: u32, take: Take) -> Option<u32> {
        match take {
            Take::Ahead => lowest(free & !below(to)),
            Take::Behind => highest(free & below(to)),
            Take::Stair | Take::Nothing => None,
        }
    }

    /// Calls `f` with every step of the mover in `p`, in move order: pawns in colour
    /// order; forward before backward; the takes in the order of [`Ties`]. `back` allows
    /// backward steps; `nothing` allows path moves that take nothing.
    fn steps(&self, p: &Position, back: bool, nothing: bool, f: &mut impl FnMut(Step)) {
        let occupied = self.occupied(p);
        for c in 0..self.colours {
            if p.pawn(c) == ON_STAIR {
                continue;
            }
            for backward in [false, true] {
                if backward && !back {
                    continue;
                }
                let step = |take, to, took| Step {
                    pawn: c as u8,
                    back: backward,
                    take,
                    to: to as u8,
                    took,
                };
                match self.target(p, c, backward) {
                    None if !backward => f(step(Take::Stair, ON_STAIR, NO_DISC)),
                    None => {}
                    Some(to) => {
                        let free = self.free_after(p, occupied, c, to);
                        let index = (self.kind_mask[c] & below(to)).count_ones() as u64 + 1;
                        let mut any = false;
                        for take in self.ties.takes() {
                            if let Some(t) = Self::take_at(free, to, take) {
                                any = true;
                                f(step(take, index, t as u8));
                            }
                        }
                        if !any && nothing {
                            f(step(Take::Nothing, index, NO_DISC));
                        }
                    }
                }
            }
        }
    }

    /// The main steps of a turn: those that take a disc, or, when none does, those that
    /// take nothing.
    fn main_steps(&self, p: &Position, f: &mut impl FnMut(Step)) {
        let mut any = false;
        self.steps(p, false, false, &mut |s| {
            any = true;
            f(s)
        });
        if !any {
            self.steps(p, false, true, f);
        }
    }

    /// Plays `step` for player `who` (the mover does not change).
    /// Plays `step`, generated in `p`, for player `who` (the mover does not change).
    fn apply(&self, p: &mut Position, who: usize, step: Step) {
        let c = step.pawn as usize;
        if step.take == Take::Stair {
            let rank = p.arrived();
            p.set_rank(c, rank as u64);
            p.set_arrived(rank + 1);
            p.add(who, c as u8, 1);
        } else if step.took != NO_DISC {
            p.taken |= 1 << step.took;
            p.add(who, self.path[step.took as usize], 1);
        }
        p.set_pawn(c, step.to as u64);
    }

    /// The position in 128 bits, for solver tables: exact for two players and paths of at
    /// most [`PACKED_PATH`] discs.
    pub fn pack(&self, p: &Position) -> [u64; 2] {
        debug_assert!(self.players == 2 && self.path.len() <= PACKED_PATH);
        [
            p.taken | (p.hands[0] as u64) << 32,
            // Pawns and ranks (35 bits; the arrival count follows from the ranks), the mover.
            p.state & ((1 << ARRIVED_SHIFT) - 1) | (p.mover() as u64) << 35 | (p.hands[1] as u64) << 36,
        ]
    }

    /// The number of bits [`BigPoints::pack64`] needs for this game (two players): the
    /// path's discs, each pawn's place (its index, or its stair rank), the mover, the first
    /// player's hand and the second player's black discs. The second player's other discs
    /// follow from what has been taken, since only black discs leave the game.
    pub fn pack64_bits(&self) -> u32 {
        let places: u32 = (0..self.colours)
            .map(|c| width(self.of_colour[c] as u64 + self.colours as u64))
            .sum();
        let kinds = self.hand_kinds().count() as u32;
        let blacks = u32::from(self.kind_mask[BLACK as usize] != 0);
        self.path.len() as u32 + places + 1 + 4 * (kinds + blacks)
    }

    /// The kinds a hand can hold: the colours, and white and black when on the path.
    fn hand_kinds(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.colours as u8).chain(
            [WHITE, BLACK]
                .into_iter()
                .filter(|&k| self.kind_mask[k as usize] != 0),
        )
    }

    /// The position in one word, for solver tables of two-player games whose
    /// [`BigPoints::pack64_bits`] is at most 64.
    pub fn pack64(&self, p: &Position) -> u64 {
        debug_assert!(self.players == 2 && self.pack64_bits() <= 64);
        let mut key = p.taken;
        let mut shift = self.path.len() as u32;
        let mut put = |value: u64, bits: u32| {
            key |= value << shift;
            shift += bits;
        };
        for c in 0..self.colours {
            let n = self.of_colour[c] as u64;
            let place = match p.pawn(c) {
                ON_STAIR => n + 1 + p.rank(c),
                i => i,
            };
            put(place, width(n + self.colours as u64));
        }
        put(p.mover() as u64, 1);
        for k in self.hand_kinds() {
            put(p.held(0, k) as u64, 4);
        }
        if self.kind_mask[BLACK as usize] != 0 {
            put(p.held(1, BLACK) as u64, 4);
        }
        key
    }

    /// Whether every pawn is on the stair.
    fn finished(&self, p: &Position) -> bool {
        p.arrived() == self.colours
    }

    /// The final points of player `who` when the game is over; before that, colours still
    /// out count at the mean value of the free steps, rounded down.
    pub fn points(&self, p: &Position, who: usize) -> i32 {
        let free_steps = (self.colours - p.arrived()) as i32;
        let mut points = 0;
        let mut pending = 0;
        for c in 0..self.colours {
            let n = p.held(who, c as u8) as i32;
            match p.rank(c) {
                NOT_ARRIVED => pending += n,
                r => points += n * self.step_value(r),
            }
        }
        let kinds = (0..self.colours as u8)
            .chain([BLACK])
            .filter(|&k| p.held(who, k) > 0)
            .count() as i32;
        points + pending * (free_steps - 1).max(0) / 2 + p.held(who, WHITE) as i32 * kinds
    }
}

impl Game for BigPoints {
    type Position = Position;
    type Move = Move;

    fn start(&self) -> Position {
        let mut p = Position {
            taken: 0,
            state: 0,
            hands: [0; COLOURS],
        };
        for c in 0..COLOURS {
            p.set_rank(c, NOT_ARRIVED);
        }
        p
    }

    fn to_move(&self, p: &Position) -> PlayerId {
        p.mover()
    }

    fn moves(&self, p: &Position, out: &mut Vec<Move>) {
        if self.finished(p) {
            return;
        }
        let who = p.mover() as usize;
        let black = p.held(who, BLACK) > 0;
        self.main_steps(p, &mut |step| {
            out.push(Move { step, extra: None });
            if black {
                let mut q = *p;
                self.apply(&mut q, who, step);
                if !self.finished(&q) {
                    self.steps(&q, true, false, &mut |e| out.push(Move { step, extra: Some(e) }));
                }
            }
        });
    }

    fn play(&self, p: &Position, m: &Move) -> Position {
        let who = p.mover() as usize;
        let mut q = *p;
        self.apply(&mut q, who, m.step);
        if let Some(extra) = m.extra {
            q.add(who, BLACK, -1);
            self.apply(&mut q, who, extra);
        }
        // (A comparison, not `%`: a division is slow on the solver's hot path.)
        q.set_mover(if who + 1 == self.players { 0 } else { who + 1 });
        q
    }

    fn outcome(&self, p: &Position) -> Option<Outcome> {
        if !self.finished(p) {
            return None;
        }
        let mut scores = [i32::MIN; COLOURS];
        for (w, s) in scores.iter_mut().enumerate().take(self.players) {
            *s = self.points(p, w);
        }
        let best = scores.iter().copied().max().expect("at least two players");
        let winners = (0..self.players)
            .filter(|&w| scores[w] == best)
            .fold(0u32, |acc, w| acc | 1 << w);
        Some(match winners.count_ones() {
            1 => Outcome::Win(winners.trailing_zeros() as PlayerId),
            _ if self.players == 2 => Outcome::Draw,
            _ => Outcome::Shared(winners),
        })
    }

    fn players(&self) -> usize {
        self.players
    }
}

impl Scored for BigPoints {
    /// Final points at the end; before it, a provisional count (see [`BigPoints::points`]).
    fn score(&self, p: &Position, player: PlayerId) -> i32 {
        self.points(p, player as usize)
    }
}

/// The bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            i
        })
    })
}

/// The bits needed to write the numbers `0..=max`.
fn width(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// The bits below index `i`.
fn below(i: u32) -> u64 {
    if i >= 64 {
        u64::MAX
    } else {
        (1u64 << i) - 1
    }
}

fn lowest(mask: u64) -> Option<u32> {
    (mask != 0).then(|| mask.trailing_zeros())
}

fn highest(mask: u64) -> Option<u32> {
    (mask != 0).then(|| 63 - mask.leading_zeros())
}

/// Opens a session of the game `spec` names; on the full game (no `board=`), each round
/// of a tournament's seat rotations, and each self-play game, gets a fresh path.
pub fn open(spec: &Spec) -> Result<Box<dyn Session>, Error> {
    let game = BigPoints::from_spec(spec)?;
    if spec.get("board").is_some() {
        return Ok(score_pairs::open(&spec.to_string(), &INFO, game, None));
    }
    let first_seed = spec.int(&SEED)?;
    let players = game.players();
    let (rule, ties) = (game.rule, game.ties);
    let deal: Deal<BigPoints> = Box::new(move |n| {
        let mut g = BigPoints::full(players, first_seed.wrapping_add(n)).expect("the full game is valid");
        g.rule = rule;
        g.with_ties(ties)
    });
    Ok(score_pairs::open(&spec.to_string(), &INFO, game, Some(deal)))
}

/// Positions the solver stores on a 12-disc path, about (the most measured, on 4 colours).
const POSITIONS_AT_12: f64 = 7e5;

/// How many times more positions each further disc costs, about.
const GROWTH_PER_DISC: f64 = 5.0;

/// Positions the solver stores per second on this machine, about.
const POSITIONS_PER_SECOND: f64 = 8e5;

/// Bytes a solver table entry takes, with the map's overhead.
const ENTRY_BYTES: f64 = 32.0;

impl ScoreGame for BigPoints {
    fn decision_rule(&self) -> &'static dyn DecisionRule {
        decision_rule(self.rule)
    }

    fn unsolvable(&self) -> Option<Error> {
        if self.players != 2 {
            return Some(Error::Unsupported(format!(
                "the exact solver is for two players; this game has {}",
                self.players
            )));
        }
        (self.path.len() > MAX_SOLVE_DISCS).then(|| {
            Error::too_big(format!(
                "a {}-disc path is far too big to solve exactly (at most {MAX_SOLVE_DISCS}); \
                 give a reduced board, e.g. bigpoints:board=1221",
                self.path.len()
            ))
        })
    }

    /// Grows geometrically with the path (measured on random reduced boards).
    fn solve_cost(&self) -> Cost {
        let discs = self.path.len() as f64;
        let positions = (POSITIONS_AT_12 * GROWTH_PER_DISC.powf(discs - 12.0)).max(1.0);
        Cost {
            positions: positions as u64,
            bytes: (positions * ENTRY_BYTES) as u64,
            seconds: positions / POSITIONS_PER_SECOND,
        }
    }

    fn solve_from(&self, p: &Position) -> (Scores, usize) {
        self.solve_scores(p, &mut SolveMemory::default())
    }

    fn facts(&self) -> Vec<Fact> {
        vec![
            Fact::new("board", "board", FactValue::Text(self.board())),
            Fact::new("rule", "rule", FactValue::Text(self.rule.name().into())),
            Fact::new("ties", "tie order", FactValue::Text(self.ties.name().into())),
        ]
    }
}
