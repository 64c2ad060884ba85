//! Who wins a Domineering position, proved by a search that knows the game.
//!
//! The search asks one question of each position, whether its mover wins, and answers
//! most positions without searching them, by counting moves:
//! - a *safe move* is a place for a player's domino that the opponent can never cover
//!   (every cell of it has no free neighbour in the opponent's direction);
//! - a *protective area* is a free 2 × 2 square walled on one side in the opponent's
//!   direction: the player, moving in it on the side away from the wall, makes the other
//!   half a safe move, and takes away the opponent's places there;
//! - *vulnerable places* are other places of the player's: each time the opponent covers
//!   some (one domino covers at most two items), the player takes another;
//! - the opponent can never place more dominoes than fit, disjoint, in the runs of free
//!   cells along its direction, nor more than half the cells it can reach once the player
//!   has taken its own;
//! - where the free cells fall apart, a small region is worth, by a search of it alone,
//!   between two whole numbers of moves (module `regions`), counted as safe moves.
//!
//! The player to move wins when the moves it is sure of outnumber all the moves the
//! opponent could ever make, and loses when the opponent, moving second, is sure of as
//! many moves as the mover could ever make. Other positions are searched, moves ordered by
//! how they change both players' counts, and kept in a table shared by every core, keyed
//! by the least of the position's mirror images.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::board::Mirror;
pub use super::board::{Board, Free, Side, MAX_CELLS};
use super::checkpoint;
use crate::solve::{looks_now, zeroed_words, Limit, Progress};
use crate::Error;

/// The key bit naming the mover.
const MOVER_BIT: u32 = 127;
/// The table bit holding the value (the mover wins).
const WIN_BIT: u32 = 126;
/// The table bit telling a written entry from an empty one.
const WRITTEN_BIT: u32 = 125;
/// The lowest of the table bits holding the work below an entry (log2 of its nodes).
const WORK_SHIFT: u32 = 121;
/// The most work an entry records.
const WORK_MAX: u64 = 15;
/// The bits of a key's upper word that name the position (cells and mover).
const KEY_HIGH: u64 = !(((1 << 6) - 1) << (WORK_SHIFT - 64));

/// Bytes one table entry takes.
pub const ENTRY_BYTES: u64 = 16;

/// Nodes between two looks at the clock, the cancel flag and the other cores.
const CHECK_EVERY: u64 = 1 << 12;

/// What a side can count on: its safe moves; its protective areas and vulnerable places,
/// each *clean* when no domino of the opponent's covers it and another item at once, else
/// *dirty*; and, for the opponent's bound, the cells the opponent can reach (less one
/// for each of its runs of odd length that no item touches) and the places' cells it
/// cannot.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reserve {
    safe: i32,
    clean_areas: i32,
    clean_places: i32,
    dirty_areas: i32,
    dirty_places: i32,
    reachable: i32,
    unreachable_place_cells: i32,
    /// The opponent's cells the side's options take from it, by the race of options alone
    /// (see [`Board::options`]), the opponent moving first and the side moving first.
    options: [i32; 2],
}

impl Reserve {
    /// The moves the side is sure to make less the most the opponent could make (`most`
    /// by runs), when the side moves `first` or second, for the best first move.
    ///
    /// Of each kind of clean item the side takes every other one: each time the opponent
    /// covers one it takes another of the same kind. Of the dirty items, where one domino
    /// of the opponent's may cover two, it takes one in three, the opponent covering the
    /// two most valuable (areas) before. Every area it takes gives it two moves and takes
    /// two from the opponent's runs and four cells from its reach; every place it takes
    /// takes its cells the opponent could reach.
    fn lead(self, most: i32, first: bool) -> i32 {
        let lead = |areas: i32, places: i32| {
            let sure = self.safe + 2 * areas + places;
            let reached = places + (places - self.unreachable_place_cells).max(0);
            sure - (most - 2 * areas).min((self.reachable - 4 * areas - reached) / 2)
        };
        // Of the dirty items ranked areas first, the side takes the third, sixth and so on
        // moving second; the first, fourth and so on moving first.
        let dirty = |first: bool| {
            let skip = if first { 2 } else { 0 };
            let areas = (self.dirty_areas + skip) / 3;
            (areas, (self.dirty_areas + self.dirty_places + skip) / 3 - areas)
        };
        if self.dirty_areas == 0 {
            // The places are one race, its value known exactly (see [`Race`]).
            let race = Race::get();
            let (clean, dirty) = (self.clean_places as usize, self.dirty_places as usize);
            let second = lead(self.clean_areas / 2, race.second(clean, dirty));
            if !first {
                return second;
            }
            let area_first = lead((self.clean_areas + 1) / 2, race.second(clean, dirty));
            let place_first = lead(self.clean_areas / 2, race.first(clean, dirty));
            return second
                .max(if self.clean_areas > 0 { area_first } else { second })
                .max(place_first);
        }
        let (areas, places) = dirty(false);
        let second = lead(self.clean_areas / 2 + areas, self.clean_places / 2 + places);
        if !first {
            return second;
        }
        let mut best = second;
        if self.clean_areas > 0 {
            best = best.max(lead(
                (self.clean_areas + 1) / 2 + areas,
                self.clean_places / 2 + places,
            ));
        }
        if self.clean_places > 0 {
            best = best.max(lead(
                self.clean_areas / 2 + areas,
                (self.clean_places + 1) / 2 + places,
            ));
        }
        if self.dirty_areas + self.dirty_places > 0 {
            let (areas, places) = dirty(true);
            best = best.max(lead(self.clean_areas / 2 + areas, self.clean_places / 2 + places));
        }
        best
    }
}

impl Reserve {
    /// The same lead counted another way, every protective area in one race with the
    /// places: an opponent's domino inside an area spoils it alone; one from outside leaves
    /// of it a clean place (the line along the wall, which only the area's own cells can
    /// cover) and may spoil a dirty place beside it as well. See [`Races`].
    ///
    /// The lead is the side's sure moves less the smaller of the opponent's two bounds,
    /// so at least either difference; each is counted by its own race, items weighed by
    /// what one taken changes it by: by the opponent's runs, an area four (two moves of
    /// the side's, two fewer of the opponent's) and a place one; by the opponent's cells,
    /// an area four and a place two (its cells the opponent could reach, less those it
    /// cannot, counted once in all). A third race weighs an area as two places, bounding
    /// the opponent by both at once.
    fn lead_by_worth(self, most: i32, first: bool) -> i32 {
        let races = Races::get();
        let areas = (self.clean_areas + self.dirty_areas) as usize;
        let (clean, dirty) = (self.clean_places as usize, self.dirty_places as usize);
        let worth = |kind| races.worth(kind, first, areas, clean, dirty);
        let by_runs = self.safe + worth(0) - most;
        // The options are a race of their own beside the others: the side answers in the
        // race its opponent moved in, and moving first, starts in either.
        let cells = |first: bool, options: i32| {
            self.safe + races.worth(1, first, areas, clean, dirty)
                - (self.reachable + self.unreachable_place_cells - options) / 2
        };
        let by_cells = if first {
            cells(true, self.options[0]).max(cells(false, self.options[1]))
        } else {
            cells(false, self.options[0])
        };
        let moves = worth(2);
        let reached = moves + (moves - self.unreachable_place_cells).max(0);
        let by_both = self.safe + moves - most.min((self.reachable - reached) / 2);
        by_runs.max(by_cells).max(by_both)
    }
}

/// Races of protective areas, clean and dirty places: the side takes one item a turn and
/// its opponent spoils, a turn, one area, or one area from outside (leaving a clean place)
/// with a dirty place beside it, or one clean place, or one or two dirty places. By exact
/// search over the counts, the most worth the side is sure of, an area and a place
/// weighed as [`WEIGHTS`] says.
struct Races {
    /// By weights, by whether the side moves first, by areas, clean and dirty places.
    worth: Vec<u8>,
}

/// The weights of an area and a place in each race.
const WEIGHTS: [(i32, i32); 3] = [(4, 1), (4, 2), (2, 1)];

/// The most areas, clean and dirty places a race counts; more are counted as this many.
const RACE_AREAS: usize = 16;
const RACE_CLEAN: usize = 32;
const RACE_DIRTY: usize = 64;

impl Races {
    fn get() -> &'static Races {
        static RACES: std::sync::OnceLock<Races> = std::sync::OnceLock::new();
        RACES.get_or_init(|| {
            let mut races = Races {
                worth: vec![0; WEIGHTS.len() * 2 * RACE_AREAS * RACE_CLEAN * RACE_DIRTY],
            };
            for (kind, &(area, place)) in WEIGHTS.iter().enumerate() {
                for a in 0..RACE_AREAS {
                    for c in 0..RACE_CLEAN {
                        for d in 0..RACE_DIRTY {
                            let second = |a: usize, c: usize, d: usize| {
                                i32::from(races.worth[Races::at(kind, false, a, c.min(RACE_CLEAN - 1), d)])
                            };
                            let mut first = 0;
                            if a > 0 {
                                first = first.max(area + second(a - 1, c, d));
                            }
                            if c > 0 {
                                first = first.max(place + second(a, c - 1, d));
                            }
                            if d > 0 {
                                first = first.max(place + second(a, c, d - 1));
                            }
                            races.worth[Races::at(kind, true, a, c, d)] = first as u8;
                            let first = |a: usize, c: usize, d: usize| {
                                i32::from(races.worth[Races::at(kind, true, a, c.min(RACE_CLEAN - 1), d)])
                            };
                            let mut least = first(a, c, d);
                            if a > 0 {
                                least = least.min(first(a - 1, c, d)).min(first(a - 1, c + 1, d));
                                if d > 0 {
                                    least = least.min(first(a - 1, c + 1, d - 1));
                                }
                            }
                            if c > 0 {
                                least = least.min(first(a, c - 1, d));
                            }
                            if d > 0 {
                                least = least.min(first(a, c, d - 1));
                            }
                            if d > 1 {
                                least = least.min(first(a, c, d - 2));
                            }
                            races.worth[Races::at(kind, false, a, c, d)] = least as u8;
                        }
                    }
                }
            }
            races
        })
    }

    fn at(kind: usize, first: bool, areas: usize, clean: usize, dirty: usize) -> usize {
        (((kind * 2 + usize::from(first)) * RACE_AREAS + areas) * RACE_CLEAN + clean) * RACE_DIRTY + dirty
    }

    /// The worth the side is sure of, weighed by `WEIGHTS[kind]`.
    fn worth(&self, kind: usize, first: bool, areas: usize, clean: usize, dirty: usize) -> i32 {
        let at = Races::at(
            kind,
            first,
            areas.min(RACE_AREAS - 1),
            clean.min(RACE_CLEAN - 1),
            dirty.min(RACE_DIRTY - 1),
        );
        i32::from(self.worth[at])
    }
}

/// The places a side takes when its opponent covers clean places one at a time and dirty
/// ones up to two at a time, and it takes one place a turn, answering in the same race
/// (the other races' answers keep to their own), by exact search over the counts.
struct Race {
    /// By clean and dirty places, the opponent moving first.
    second: Vec<[u8; RACE]>,
    /// The same, the side moving first.
    first: Vec<[u8; RACE]>,
}

/// Places each race counts up to; more are counted as this many.
const RACE: usize = 64;

impl Race {
    fn get() -> &'static Race {
        static RACE_TABLE: std::sync::OnceLock<Race> = std::sync::OnceLock::new();
        RACE_TABLE.get_or_init(|| {
            let mut race = Race {
                second: vec![[0; RACE]; RACE],
                first: vec![[0; RACE]; RACE],
            };
            for clean in 0..RACE {
                for dirty in 0..RACE {
                    let mut first = 0;
                    if clean > 0 {
                        first = first.max(1 + race.second[clean - 1][dirty]);
                    }
                    if dirty > 0 {
                        first = first.max(1 + race.second[clean][dirty - 1]);
                    }
                    race.first[clean][dirty] = first;
                    // The opponent covers a clean place, one or two dirty ones, or none.
                    let mut second = first;
                    if clean > 0 {
                        second = second.min(race.first[clean - 1][dirty]);
                    }
                    if dirty > 0 {
                        second = second.min(race.first[clean][dirty - 1]);
                    }
                    if dirty > 1 {
                        second = second.min(race.first[clean][dirty - 2]);
                    }
                    race.second[clean][dirty] = second;
                }
            }
            race
        })
    }

    fn second(&self, clean: usize, dirty: usize) -> i32 {
        i32::from(self.second[clean.min(RACE - 1)][dirty.min(RACE - 1)])
    }

    fn first(&self, clean: usize, dirty: usize) -> i32 {
        i32::from(self.first[clean.min(RACE - 1)][dirty.min(RACE - 1)])
    }
}

/// How vulnerable places are chosen: three ways, each better on some positions.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Packing {
    /// No place beside one of the previous line: all clean of each other.
    Spread,
    /// Every place that fits, none beside a protective area.
    Dense,
    /// Every place that fits in the cells left by safe moves and protective areas.
    Full,
}

impl Board {
    /// The first cells of a greedy set of disjoint dominoes of `side` within `cells`: in
    /// each run of cells along its direction, half the run, which is the most.
    #[inline]
    fn pack(&self, mut cells: Free, side: Side) -> Free {
        let (step, has_next) = (self.step[side], self.has_next[side]);
        let mut packed = 0;
        while cells != 0 {
            let starts = cells & !((cells & has_next) << step);
            let firsts = starts & (cells >> step) & has_next;
            packed |= firsts;
            cells &= !(starts | firsts << step);
        }
        packed
    }

    /// The cells of `side`'s dominoes whose first cells are `firsts`.
    #[inline]
    fn dominoes(&self, firsts: Free, side: Side) -> Free {
        firsts | self.next(firsts, side)
    }

    /// The cells of the runs of `within` along `side`'s direction that hold a cell of
    /// `cells`.
    fn runs_through(&self, mut cells: Free, within: Free, side: Side) -> Free {
        loop {
            let grown = cells | (self.next(cells, side) | self.before(cells, side)) & within;
            if grown == cells {
                return cells;
            }
            cells = grown;
        }
    }

    /// `side`'s safe moves, packed: half of each run of cells the opponent can never
    /// cover. A run of odd length leaves out its first cell rather than its last where only
    /// its first has a free cell before it that the opponent can cover, the two then making
    /// a place.
    fn safe_firsts(&self, free: Free, side: Side) -> Free {
        let shielded = self.shielded(free, 1 - side);
        let firsts = self.pack(shielded, side);
        let open = free & !shielded;
        let stuck = shielded & !self.dominoes(firsts, side) & !self.before(open, side);
        let starts = shielded & !self.next(shielded, side) & self.next(open, side);
        if stuck == 0 || starts == 0 {
            return firsts;
        }
        let turned = starts & self.runs_through(stuck, shielded, side);
        if turned == 0 {
            return firsts;
        }
        self.pack(shielded & !turned, side)
    }

    /// The most moves `side` could still make: as many dominoes as fit disjoint.
    #[inline]
    pub(super) fn most(&self, free: Free, side: Side) -> i32 {
        self.pack(free, side).count_ones() as i32
    }

    /// The free cells no domino of `side` can ever cover.
    #[inline]
    fn shielded(&self, free: Free, side: Side) -> Free {
        let places = self.places(free, side);
        free & !(places | places << self.step[side])
    }

    /// `side`'s protective areas, packed greedily: free 2 × 2 squares walled on at least
    /// one side in the opponent's direction, with a line between any two in that direction
    /// (so that no domino of the opponent's touches two); their cells and first cells.
    fn areas(&self, free: Free, side: Side) -> (Free, Free) {
        let other = 1 - side;
        let (across, along) = (self.step[other], self.step[side]);
        let pairs = free & (free >> along) & self.has_next[side];
        let squares = pairs & (pairs >> across) & self.has_next[other];
        if squares == 0 {
            return (0, 0);
        }
        let taken = !free & self.all;
        let wall = taken & (taken >> along);
        let has_before = (self.has_next[other] << across) & self.all;
        let walled_before = !has_before | wall << across;
        let walled_after = !(self.has_next[other] >> across) | wall >> (2 * across);
        let mut candidates = squares & (walled_before | walled_after);
        let (mut cells, mut firsts) = (0, 0);
        while candidates != 0 {
            let one: Free = 1 << candidates.trailing_zeros();
            cells |= one | one << along | one << across | one << (along + across);
            firsts |= one;
            // Squares overlapping this one, or beside it in the opponent's direction,
            // start at most one cell away along and two across.
            let row = one | self.next(one, side) | self.before(one, side);
            let (right, left) = (self.next(row, other), self.before(row, other));
            candidates &= !(row | right | left | self.next(right, other) | self.before(left, other));
        }
        (cells, firsts)
    }

    /// What `side` can count on in `free`, its places chosen by `packing`.
    fn reserve(&self, free: Free, side: Side, packing: Packing) -> Reserve {
        let other = 1 - side;
        let (across, along, next) = (self.step[other], self.step[side], self.has_next[other]);
        let safe_firsts = self.safe_firsts(free, side);
        let safe_cells = self.dominoes(safe_firsts, side);
        let (area_cells, area_firsts) = self.areas(free, side);
        let mut open = free & !safe_cells & !area_cells;
        if packing == Packing::Dense {
            open &= !(self.next(area_cells, other) | self.before(area_cells, other));
        }
        let (mut before, mut place_cells, mut place_firsts) = (0, 0, 0);
        for &line in &self.lines[side] {
            let mut cells = open & line;
            if packing == Packing::Spread {
                cells &= !(before << across);
            }
            let firsts = self.pack(cells, side);
            before = self.dominoes(firsts, side);
            place_cells |= before;
            place_firsts |= firsts;
        }
        // The cells of `cells` beside (in the opponent's direction) one of `items`.
        let beside = |cells: Free, items: Free| cells & ((items >> across) & next | (items & next) << across);
        let crowded = beside(place_cells, place_cells | area_cells);
        let dirty_places = (place_firsts & (crowded | crowded >> along)).count_ones() as i32;
        let hit = beside(area_cells, place_cells);
        let mut dirty_areas = 0;
        let mut rest = area_firsts;
        while rest != 0 {
            let one = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let square = one | one << along | one << across | one << (along + across);
            dirty_areas += i32::from(square & hit != 0);
        }
        let reachable = free & !self.shielded(free, other);
        // A run of the opponent's of odd length leaves one cell unused however it is
        // packed, unless a domino of the side's takes a cell of it: those no item touches
        // are a cell the opponent can never use each.
        let odd_ends = reachable & !self.dominoes(self.pack(free, other), other);
        let touched = self.runs_through((place_cells | area_cells) & reachable, reachable, other);
        let usable = reachable.count_ones() - (odd_ends & !touched).count_ones();
        let untouched = self.runs_through(odd_ends & !touched, reachable, other);
        let options = self.options(
            free,
            side,
            safe_firsts,
            place_cells | area_cells,
            reachable & !untouched,
        );
        Reserve {
            safe: safe_firsts.count_ones() as i32,
            clean_areas: area_firsts.count_ones() as i32 - dirty_areas,
            clean_places: place_firsts.count_ones() as i32 - dirty_places,
            dirty_areas,
            dirty_places,
            reachable: usable as i32,
            unreachable_place_cells: (place_cells & !reachable).count_ones() as i32,
            options,
        }
    }

    /// `side`'s *options*: the safe moves of a run of safe cells of even length, with a
    /// free cell `x` after it (or, where there is none, before it) that the opponent could
    /// use, can be played one cell on (or back), covering `x` and keeping as many safe
    /// moves; a neighbour of `x` in the opponent's direction whose other neighbour is taken
    /// is then lost to the opponent as well. The opponent spoils an option by covering `x`
    /// itself. Counted where `x` lies in `usable` and neither `x` nor its neighbours belong
    /// to `items` or another option (so that one domino of the opponent's spoils one option
    /// and nothing else): the cells taken from the opponent when the side takes every other
    /// option, the most worth first, the opponent moving first and the side moving first.
    fn options(&self, free: Free, side: Side, safe_firsts: Free, items: Free, usable: Free) -> [i32; 2] {
        let other = 1 - side;
        let beside = |cells: Free| self.next(cells, other) | self.before(cells, other);
        let ends = self.next(safe_firsts, side);
        let after = self.next(ends, side) & usable;
        let mut xs = after;
        let mut befores = self.before(safe_firsts, side) & usable & !items & !beside(items);
        if befores != 0 {
            let shielded = self.shielded(free, other);
            let safe = self.dominoes(safe_firsts, side);
            while befores != 0 {
                let x = befores & befores.wrapping_neg();
                befores &= befores - 1;
                let run = self.runs_through(self.next(x, side), shielded, side);
                if run & !safe == 0 && self.next(run, side) & after == 0 {
                    xs |= x;
                }
            }
        }
        xs &= !items & !beside(items);
        xs &= !beside(xs);
        if xs == 0 {
            return [0, 0];
        }
        let lost_after = self.next(xs, other) & free & !self.before(free, other);
        let lost_before = self.before(xs, other) & free & !self.next(free, other);
        let mut worths = Vec::new();
        while xs != 0 {
            let x = xs & xs.wrapping_neg();
            xs &= xs - 1;
            let lost = (self.next(x, other) & lost_after) | (self.before(x, other) & lost_before);
            worths.push(1 + lost.count_ones() as i32);
        }
        worths.sort_unstable_by(|a, b| b.cmp(a));
        let taken = |from: usize| worths.iter().skip(from).step_by(2).sum();
        [taken(1), taken(0)]
    }

    /// Whether `side`, to move in `free`, wins, when a first look tells: a side without
    /// a place, or whose safe moves alone outnumber all the moves the other could make.
    fn settled(&self, free: Free, side: Side) -> Option<bool> {
        let other = 1 - side;
        if self.places(free, side) == 0 {
            return Some(false);
        }
        if self.places(free, other) == 0 {
            return Some(true);
        }
        let safe = |side: Side| self.pack(self.shielded(free, 1 - side), side).count_ones();
        if safe(side) > self.pack(free, other).count_ones() {
            return Some(true);
        }
        if safe(other) >= self.pack(free, side).count_ones() {
            return Some(false);
        }
        None
    }

    /// Whether `side`, to move in `free`, wins, when counting moves tells.
    pub fn decided(&self, free: Free, side: Side) -> Option<bool> {
        self.settled(free, side).or_else(|| self.counted(free, side))
    }

    /// Whether `side`, to move in `free`, wins, when the whole count tells, where
    /// [`Board::settled`] did not: of the position, then of the position less its small
    /// regions, their bounds counted as safe moves (see [`super::regions`]).
    fn counted(&self, free: Free, side: Side) -> Option<bool> {
        self.counted_ahead(free, side, 0, 0).or_else(|| {
            let (rest, low, high) = self.small_regions(free)?;
            let (ahead, behind) = if side == 0 { (low, high) } else { (-high, -low) };
            self.counted_ahead(rest, side, ahead, behind)
        })
    }

    /// Whether `side`, to move in `free`, wins, when the whole count tells, with `ahead`
    /// more safe moves than its opponent elsewhere (fewer where negative) for its win,
    /// and `behind` more for its loss.
    fn counted_ahead(&self, free: Free, side: Side, ahead: i32, behind: i32) -> Option<bool> {
        let other = 1 - side;
        let packings = [Packing::Spread, Packing::Dense, Packing::Full];
        let (theirs, mine) = (self.most(free, other), self.most(free, side));
        let lead = |reserve: Reserve, most: i32, first: bool| {
            reserve.lead(most, first).max(reserve.lead_by_worth(most, first))
        };
        if packings
            .iter()
            .any(|&p| lead(self.reserve(free, side, p), theirs, true) + ahead > 0)
        {
            return Some(true);
        }
        if packings
            .iter()
            .any(|&p| lead(self.reserve(free, other, p), mine, false) - behind >= 0)
        {
            return Some(false);
        }
        None
    }

    /// `side`'s places in `free`, most promising first: by how a move there changes the
    /// moves each side could make and is sure of, then by where it lies (see
    /// [`Board::placement`]), then from the lowest cell.
    pub fn ordered(&self, free: Free, side: Side) -> Vec<u32> {
        let mut scored = Vec::new();
        self.score_moves(free, side, &mut scored);
        scored.into_iter().map(|(_, cell)| cell).collect()
    }

    /// `side`'s places in `free` with their scores, best first.
    fn score_moves(&self, free: Free, side: Side, out: &mut Vec<(i32, u32)>) {
        self.score(free, side, self.places(free, side), out);
    }

    /// The places the search tries: `side`'s places in `free` but its safe moves, unless it
    /// has no other. Keeping a safe move for later is never worse than playing it now
    /// (Bullock, 2002), so a win, if any, is found among the others.
    fn search_moves(&self, free: Free, side: Side, out: &mut Vec<(i32, u32)>) {
        let places = self.places(free, side);
        let shielded = self.shielded(free, 1 - side);
        let safe = places & shielded & self.before(shielded, side);
        let tried = if places == safe { places } else { places & !safe };
        self.score(free, side, tried, out);
    }

    /// The places `places` of `side` in `free` with their scores, best first.
    fn score(&self, free: Free, side: Side, mut places: Free, out: &mut Vec<(i32, u32)>) {
        let other = 1 - side;
        out.clear();
        while places != 0 {
            let cell = places.trailing_zeros();
            places &= places - 1;
            let child = self.play(free, side, cell);
            let mine = self.most(child, side) + self.most(self.shielded(child, other), side);
            let theirs = self.most(child, other) + self.most(self.shielded(child, side), other);
            out.push((8 * (mine - theirs) + self.placement(cell, side), cell));
        }
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    }

    /// How well a domino of `side` from `cell` lies, 0 to 5: best on the second line from
    /// an edge (it leaves the edge line to `side` alone), then the fourth; and at an even
    /// distance from the nearer end of its own line (it leaves no single cell behind).
    fn placement(&self, cell: u32, side: Side) -> i32 {
        let (row, col) = (cell as usize / self.cols, cell as usize % self.cols);
        let ((line, lines), (at, length)) = if side == 0 {
            ((col, self.cols), (row, self.rows))
        } else {
            ((row, self.rows), (col, self.cols))
        };
        let from_edge = match line.min(lines - 1 - line) {
            1 => 4,
            3 => 2,
            _ => 0,
        };
        from_edge + i32::from(at.min(length - 2 - at) % 2 == 0)
    }

    /// The table key of `free` with `side` to move: the least of its mirror images (which
    /// keep every domino's direction), with the mover.
    pub fn key(&self, free: Free, side: Side) -> Free {
        let least = Mirror::ALL
            .into_iter()
            .fold(free, |least, mirror| least.min(self.mirrored(free, mirror)));
        least | (side as Free) << MOVER_BIT
    }
}

/// A table of proved values shared by every core without locks: two words an entry (the
/// key's lower word mixed with its upper word, then the upper word with the value and the
/// work), two entries a bucket, one keeping the entry with the most work below it.
struct Table {
    words: Vec<AtomicU64>,
    buckets: usize,
    /// Entries written to empty slots.
    filled: AtomicU64,
}

fn mix(x: u64) -> u64 {
    let x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ x >> 31
}

impl Table {
    fn new(bytes: u64) -> Table {
        let buckets = (bytes / (2 * ENTRY_BYTES)).max(1);
        let buckets = 1 << (63 - buckets.leading_zeros());
        Table {
            words: zeroed_words(4 * buckets as usize),
            buckets: buckets as usize,
            filled: AtomicU64::new(0),
        }
    }

    fn bucket(&self, key: Free) -> usize {
        4 * (mix(key as u64 ^ mix((key >> 64) as u64)) as usize & (self.buckets - 1))
    }

    /// The value and work stored for `key`.
    fn get(&self, key: Free) -> Option<(bool, u64)> {
        let (low, high) = (key as u64, (key >> 64) as u64);
        let at = self.bucket(key);
        (0..2).find_map(|i| {
            let high_word = self.words[at + 2 * i + 1].load(Relaxed);
            let low_word = self.words[at + 2 * i].load(Relaxed) ^ mix(high_word);
            (high_word != 0 && high_word & KEY_HIGH == high && low_word == low).then_some((
                high_word >> (WIN_BIT - 64) & 1 == 1,
                high_word >> (WORK_SHIFT - 64) & WORK_MAX,
            ))
        })
    }

    fn put(&self, key: Free, wins: bool, work: u64) {
        let (low, high) = (key as u64, (key >> 64) as u64);
        let high_word = high
            | u64::from(wins) << (WIN_BIT - 64)
            | work.min(WORK_MAX) << (WORK_SHIFT - 64)
            | 1 << (WRITTEN_BIT - 64);
        let at = self.bucket(key);
        let kept = self.words[at + 1].load(Relaxed);
        let kept_work = kept >> (WORK_SHIFT - 64) & WORK_MAX;
        let same = kept & KEY_HIGH == high && self.words[at].load(Relaxed) ^ mix(kept) == low;
        let slot = if kept == 0 || same || kept_work <= work {
            at
        } else {
            at + 2
        };
        if self.words[slot + 1].load(Relaxed) == 0 {
            self.filled.fetch_add(1, Relaxed);
        }
        self.words[slot].store(low ^ mix(high_word), Relaxed);
        self.words[slot + 1].store(high_word, Relaxed);
    }

    fn used(&self) -> usize {
        self.filled.load(Relaxed) as usize
    }

    /// Hands every entry to `out`: its key, value and work.
    fn entries(&self, out: &mut dyn FnMut(Free, bool, u64) -> std::io::Result<()>) -> std::io::Result<()> {
        for slot in self.words.chunks_exact(2) {
            let high_word = slot[1].load(Relaxed);
            if high_word == 0 {
                continue;
            }
            let low = slot[0].load(Relaxed) ^ mix(high_word);
            let key = Free::from(high_word & KEY_HIGH) << 64 | Free::from(low);
            out(
                key,
                high_word >> (WIN_BIT - 64) & 1 == 1,
                high_word >> (WORK_SHIFT - 64) & WORK_MAX,
            )?;
        }
        Ok(())
    }

    /// Empties the table.
    fn clear(&self) {
        for word in &self.words {
            word.store(0, Relaxed);
        }
        self.filled.store(0, Relaxed);
    }
}

/// Proves who wins positions of one board, keeping what it proved for later questions.
pub struct Proof {
    board: Board,
    table: Table,
    limit: Limit,
    threads: usize,
    /// Nodes searched, by earlier runs restored from a checkpoint as well; the cores add
    /// theirs as they go.
    nodes: AtomicU64,
    /// The questions asked, with what is proved of their first moves.
    roots: Mutex<Vec<Root>>,
    /// Where the proof keeps its checkpoint, if anywhere.
    keep: Option<Keep>,
    /// Where it reports how far it is.
    progress: Option<Arc<dyn Progress + Send>>,
    /// When this run started, and the seconds earlier runs took.
    started: Instant,
    earlier: f64,
    /// Why a checkpoint could not be written, which stops the search.
    failed: Mutex<Option<Error>>,
}

/// A question the proof was asked: whether `side` wins in `free` (as the proof keys it: on
/// a square board Horizontal's question is Vertical's on the transposed board), what is
/// proved of its first moves and the answer once found.
#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// The free cells.
    pub free: Free,
    /// The mover.
    pub side: Side,
    /// The first moves proved so far, each with whether the mover wins by it.
    pub proved: Vec<(u32, bool)>,
    /// How many first moves the search tries (its own safe moves left out).
    pub moves: u32,
    /// Whether the mover wins, once proved.
    pub wins: Option<bool>,
}

/// Where and how often a proof writes its checkpoint.
struct Keep {
    path: PathBuf,
    every: Duration,
    next: Mutex<Instant>,
}

/// How often a proof says how far it is.
const NOTE_EVERY: Duration = Duration::from_secs(1);

impl Proof {
    /// A proof on `board` with a table of at most `bytes` (less on small boards), giving
    /// up at `limit`.
    pub fn new(board: Board, bytes: u64, limit: Limit) -> Proof {
        let most = ENTRY_BYTES << (board.rows * board.cols / 3 + 4);
        Proof {
            board,
            table: Table::new(bytes.min(most)),
            limit,
            threads: 1,
            nodes: AtomicU64::new(0),
            roots: Mutex::new(Vec::new()),
            keep: None,
            progress: None,
            started: Instant::now(),
            earlier: 0.0,
            failed: Mutex::new(None),
        }
    }

    /// The same proof on `threads` cores.
    pub fn threads(mut self, threads: usize) -> Proof {
        self.set_threads(threads);
        self
    }

    /// Later questions run on `threads` cores.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The same proof writing its checkpoint to `path` every `every` while it searches
    /// ([`Proof::save`]); [`Proof::resume`] reads it back.
    pub fn keeping(mut self, path: PathBuf, every: Duration) -> Proof {
        self.keep = Some(Keep {
            path,
            every,
            next: Mutex::new(Instant::now() + every),
        });
        self
    }

    /// The same proof saying how far it is on `progress`, about once a second: nodes,
    /// nodes a second, first moves proved and time taken.
    pub fn reporting(mut self, progress: Arc<dyn Progress + Send>) -> Proof {
        self.progress = Some(progress);
        self
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Nodes searched so far, earlier runs' included.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Positions held in the table.
    pub fn positions(&self) -> usize {
        self.table.used()
    }

    /// The questions asked so far, earlier runs' included, with what is proved of each
    /// (without a checkpoint, the last question only).
    pub fn roots(&self) -> Vec<Root> {
        lock(&self.roots).clone()
    }

    /// The position `side` to move in `free` as the proof keys its questions: on a square
    /// board Horizontal's question is asked as Vertical's on the board turned over its
    /// diagonal, so that both share the table.
    pub fn as_asked(&self, free: Free, side: Side) -> (Free, Side) {
        let board = &self.board;
        if board.square() && side == 1 {
            (board.transposed(free), 0)
        } else {
            (free, side)
        }
    }

    /// A cell of the board as the proof asks (see [`Proof::as_asked`]) where `side` moves
    /// back on the board as given, for a first move of a root.
    pub fn cell_as_given(&self, cell: u32, side: Side) -> u32 {
        if self.board.square() && side == 1 {
            self.board.transposed_cell(cell as usize) as u32
        } else {
            cell
        }
    }

    /// Whether `side`, to move in `free`, wins; `None` when stopped at the limit, or when a
    /// checkpoint could not be written ([`Proof::failure`] says why).
    pub fn wins(&mut self, free: Free, side: Side) -> Option<bool> {
        let (free, side) = self.as_asked(free, side);
        let root = {
            let mut roots = lock(&self.roots);
            match roots.iter().position(|r| r.free == free && r.side == side) {
                Some(at) if roots[at].wins.is_some() => return roots[at].wins,
                Some(at) => at,
                None => {
                    // Without a checkpoint only the question in hand is kept: a player or
                    // a view may ask many.
                    if self.keep.is_none() {
                        roots.clear();
                    }
                    let mut moves = Vec::new();
                    self.board.search_moves(free, side, &mut moves);
                    roots.push(Root {
                        free,
                        side,
                        proved: Vec::new(),
                        moves: moves.len() as u32,
                        wins: None,
                    });
                    roots.len() - 1
                }
            }
        };
        let done = AtomicBool::new(false);
        let this = &*self;
        let run = |id: usize| {
            let mut worker = Worker {
                proof: this,
                id,
                root,
                done: &done,
                nodes: 0,
                next_note: Instant::now() + NOTE_EVERY,
                buffers: Vec::new(),
            };
            let answer = worker.prove(free, side, 0);
            if answer.is_some() {
                done.store(true, Relaxed);
            }
            this.nodes.fetch_add(worker.nodes % CHECK_EVERY, Relaxed);
            answer
        };
        // One core searches here: starting a thread for each question would cost more than
        // the many small questions a view of the moves asks.
        let answers: Vec<Option<bool>> = if self.threads == 1 {
            vec![run(0)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..self.threads).map(|id| s.spawn(move || run(id))).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a proof thread does not panic"))
                    .collect()
            })
        };
        let answer = answers.into_iter().find_map(|answer| answer);
        lock(&self.roots)[root].wins = answer;
        answer
    }

    /// Why the last question stopped other than at the limit: a checkpoint that could not
    /// be written.
    pub fn failure(&self) -> Option<Error> {
        lock(&self.failed).take()
    }

    /// Records that the first move `cell` of root `root` wins for its mover or not.
    fn proved_first(&self, root: usize, cell: u32, wins: bool) {
        let mut roots = lock(&self.roots);
        let proved = &mut roots[root].proved;
        if !proved.iter().any(|&(c, _)| c == cell) {
            proved.push((cell, wins));
        }
    }

    /// Whether the first move `cell` of root `root` is proved to lose for its mover.
    fn refuted(&self, root: usize, cell: u32) -> bool {
        lock(&self.roots)[root].proved.contains(&(cell, false))
    }

    /// Says how far the proof is in root `root`, on its progress if any.
    fn note(&self, root: usize) {
        let Some(progress) = &self.progress else { return };
        let (proved, moves) = {
            let roots = lock(&self.roots);
            (roots[root].proved.len(), roots[root].moves)
        };
        let this_run = self.started.elapsed().as_secs_f64();
        let nodes = self.nodes();
        progress.note(&format!(
            "{} nodes, {} a second, first moves proved {proved} of {moves}, {}",
            short(nodes as f64),
            short(nodes as f64 / (self.earlier + this_run).max(1e-3)),
            elapsed(self.earlier + this_run)
        ));
    }

    /// Writes the checkpoint when one is kept and it is due; whether a write failed (why is
    /// kept for [`Proof::failure`]), which stops the search.
    fn checkpoint_due(&self) -> bool {
        let Some(keep) = &self.keep else { return false };
        let mut next = lock(&keep.next);
        if Instant::now() < *next {
            return false;
        }
        *next = Instant::now() + keep.every;
        drop(next);
        match self.save() {
            Ok(()) => false,
            Err(e) => {
                *lock(&self.failed) = Some(e);
                true
            }
        }
    }

    /// Writes the checkpoint, when one is kept: the table and the questions with their
    /// first moves proved ([`checkpoint`]).
    pub fn save(&self) -> Result<(), Error> {
        let Some(keep) = &self.keep else { return Ok(()) };
        let saved = checkpoint::Saved {
            rows: self.board.rows,
            cols: self.board.cols,
            nodes: self.nodes(),
            seconds: self.earlier + self.started.elapsed().as_secs_f64(),
            roots: self.roots(),
        };
        checkpoint::write(&keep.path, &saved, |out| self.table.entries(out))
    }

    /// Reads back the checkpoint an earlier run wrote, when one is kept and there:
    /// whether one was. A checkpoint of another board, or damaged, is refused, leaving
    /// the proof as it was.
    pub fn resume(&mut self) -> Result<bool, Error> {
        let Some(keep) = &self.keep else { return Ok(false) };
        let board = &self.board;
        let table = &self.table;
        let Some(saved) = checkpoint::read(&keep.path, board.rows, board.cols, |key, wins, work| {
            if key & !(board.all | 1 << MOVER_BIT) != 0 {
                return false;
            }
            table.put(key, wins, work);
            true
        })
        .inspect_err(|_| table.clear())?
        else {
            return Ok(false);
        };
        self.nodes.store(saved.nodes, Relaxed);
        self.earlier = saved.seconds;
        *lock(&self.roots) = saved.roots;
        Ok(true)
    }

    /// Removes the checkpoint, when one is kept: the questions are answered.
    pub fn forget(&self) -> Result<(), Error> {
        let Some(keep) = &self.keep else { return Ok(()) };
        match std::fs::remove_file(&keep.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::Io(format!("checkpoint {}: {e}", keep.path.display())))
            }
            _ => Ok(()),
        }
    }
}

/// The value behind `mutex`, even when a thread panicked holding it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// `n` in three figures with a unit: 950, 12.3 k, 4.56 M, 1.23 G.
fn short(n: f64) -> String {
    let (value, unit) = [(1e9, " G"), (1e6, " M"), (1e3, " k")]
        .into_iter()
        .find(|&(scale, _)| n >= scale)
        .map_or((n, ""), |(scale, unit)| (n / scale, unit));
    let digits = if value >= 100.0 || unit.is_empty() {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$}{unit}")
}

/// `seconds` as hours, minutes and seconds: 1 h 02 min, 3 min 05 s, 12 s.
fn elapsed(seconds: f64) -> String {
    let s = seconds as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s:02} s"),
        (h, m, _) => format!("{h} h {m:02} min"),
    }
}

/// One core's share of a proof.
struct Worker<'p> {
    proof: &'p Proof,
    /// Which core: the first says how far the proof is and writes its checkpoints; the
    /// odd ones try the moves after the first in the other order.
    id: usize,
    /// The question asked, among the proof's roots.
    root: usize,
    done: &'p AtomicBool,
    nodes: u64,
    /// When the first core next says how far the proof is.
    next_note: Instant,
    /// Scored moves by ply, reused.
    buffers: Vec<Vec<(i32, u32)>>,
}

impl Worker<'_> {
    /// Whether the search stops here: every [`CHECK_EVERY`] nodes it counts them, and stops
    /// once another core answered or at the limit; the first core says how far it is and
    /// writes the checkpoint when due.
    fn stops(&mut self) -> bool {
        let proof = self.proof;
        proof.nodes.fetch_add(CHECK_EVERY, Relaxed);
        if self.id == 0 {
            let now = Instant::now();
            if now >= self.next_note {
                self.next_note = now + NOTE_EVERY;
                proof.note(self.root);
            }
            if proof.checkpoint_due() {
                self.done.store(true, Relaxed);
                return true;
            }
        }
        self.done.load(Relaxed) || proof.limit.passed()
    }

    /// Whether `side` wins in `free`; `None` once stopped, or once another core answered.
    fn prove(&mut self, free: Free, side: Side, ply: usize) -> Option<bool> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.stops() {
                return None;
            }
        } else if looks_now(self.nodes, CHECK_EVERY) && (self.done.load(Relaxed) || self.proof.limit.passed())
        {
            return None;
        }
        // A first look, then the table, then the whole count: a position in the table was
        // searched, so the count left it open.
        let board = &self.proof.board;
        if let Some(wins) = board.settled(free, side) {
            return Some(wins);
        }
        let key = board.key(free, side);
        if let Some((wins, _)) = self.proof.table.get(key) {
            return Some(wins);
        }
        if let Some(wins) = board.counted(free, side) {
            return Some(wins);
        }
        let started = self.nodes;
        let mut moves = self.buffers.get_mut(ply).map(std::mem::take).unwrap_or_default();
        board.search_moves(free, side, &mut moves);
        if ply == 0 {
            // First moves an earlier run proved lost are not tried again.
            moves.retain(|&(_, cell)| !self.proof.refuted(self.root, cell));
        }
        // Another core tries the moves after the first in the other order: where the
        // first move does not win, every move must be tried, and the cores meet halfway,
        // each finding in the table what the other proved.
        if self.id % 2 == 1 && moves.len() > 2 {
            moves[1..].reverse();
        }
        let mut wins = Some(false);
        for &(_, cell) in &moves {
            let answer = self.prove(board.play(free, side, cell), 1 - side, ply + 1);
            if let (0, Some(theirs)) = (ply, answer) {
                self.proof.proved_first(self.root, cell, !theirs);
            }
            match answer {
                None => wins = None,
                Some(false) => wins = Some(true),
                Some(true) => continue,
            }
            break;
        }
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = moves;
        if let Some(w) = wins {
            let work = u64::from(64 - (self.nodes - started).leading_zeros());
            self.proof.table.put(key, w, work);
        }
        wins
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Whether `side` wins in `free`, by plain search over every move.
    fn by_search(board: &Board, free: Free, side: Side, seen: &mut HashMap<(Free, Side), bool>) -> bool {
        if let Some(&wins) = seen.get(&(free, side)) {
            return wins;
        }
        let mut places = board.places(free, side);
        let mut wins = false;
        while places != 0 && !wins {
            let cell = places.trailing_zeros();
            places &= places - 1;
            wins = !by_search(board, board.play(free, side, cell), 1 - side, seen);
        }
        seen.insert((free, side), wins);
        wins
    }

    /// Random positions: free cells kept at random, either side to move.
    fn positions(board: &Board, count: usize, seed: u64) -> Vec<(Free, Side)> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..count)
            .map(|i| {
                let (a, b): (Free, Free) = (rng.gen(), rng.gen());
                let free = if i % 3 == 0 { a | b } else { !(a & b) } & board.all();
                (free, i % 2)
            })
            .collect()
    }

    #[test]
    fn counting_and_search_agree_with_plain_search_on_random_positions() {
        for (rows, cols) in [
            (3, 4),
            (4, 3),
            (4, 4),
            (4, 5),
            (5, 4),
            (3, 6),
            (6, 3),
            (5, 5),
            (2, 7),
            (7, 2),
            (4, 6),
            (6, 4),
            (3, 8),
        ] {
            let board = Board::new(rows, cols);
            let mut seen = HashMap::new();
            let mut proof = Proof::new(board.clone(), 1 << 16, Limit::default());
            for (free, side) in positions(&board, 400, rows as u64 * 16 + cols as u64) {
                let plain = by_search(&board, free, side, &mut seen);
                if let Some(wins) = board.decided(free, side) {
                    assert_eq!(wins, plain, "{rows}x{cols} counting {free:b} {side}");
                }
                assert_eq!(
                    proof.wins(free, side),
                    Some(plain),
                    "{rows}x{cols} {free:b} {side}"
                );
            }
        }
    }

    /// What one way of packing and counting alone tells of `side` to move in `free`.
    fn told(board: &Board, free: Free, side: Side, packing: Packing, by_worth: bool) -> Option<bool> {
        let lead = |reserve: Reserve, most: i32, first: bool| {
            if by_worth {
                reserve.lead_by_worth(most, first)
            } else {
                reserve.lead(most, first)
            }
        };
        let other = 1 - side;
        if lead(board.reserve(free, side, packing), board.most(free, other), true) > 0 {
            Some(true)
        } else if lead(board.reserve(free, other, packing), board.most(free, side), false) >= 0 {
            Some(false)
        } else {
            None
        }
    }

    #[test]
    fn every_packing_and_count_alone_agrees_with_plain_search() {
        let packings = [Packing::Spread, Packing::Dense, Packing::Full];
        let mut told_only_by_worth = 0;
        for (rows, cols) in [(4, 5), (5, 4), (5, 5), (4, 6), (6, 4), (3, 8)] {
            let board = Board::new(rows, cols);
            let mut seen = HashMap::new();
            for (free, side) in positions(&board, 1500, rows as u64 * 32 + cols as u64) {
                if board.places(free, side) == 0 || board.places(free, 1 - side) == 0 {
                    continue;
                }
                let plain = by_search(&board, free, side, &mut seen);
                for packing in packings {
                    for by_worth in [false, true] {
                        if let Some(wins) = told(&board, free, side, packing, by_worth) {
                            assert_eq!(
                                wins, plain,
                                "{rows}x{cols} {packing:?} by worth {by_worth}: {free:b} {side}"
                            );
                        }
                    }
                }
                let before = packings
                    .iter()
                    .any(|&p| p != Packing::Full && told(&board, free, side, p, false).is_some());
                if !before && told(&board, free, side, Packing::Full, true).is_some() {
                    told_only_by_worth += 1;
                }
            }
        }
        // The race with areas decides positions the older counts leave open.
        assert!(told_only_by_worth > 0);
    }

    #[test]
    fn the_bounds_of_small_regions_agree_with_plain_search() {
        // Regions of random positions of a 6 × 4 board, each searched with free moves beside
        // it: on a 6 × 9 board, the region in the first four columns, the fifth column
        // empty, free moves of one side in the last four.
        let small = Board::new(6, 4);
        let big = Board::new(6, 9);
        let at = |r: usize, c: usize| 1 << (r * 9 + c);
        let vertical: Vec<Free> = [(0, 5), (0, 7), (3, 5), (3, 7)]
            .iter()
            .map(|&(r, c)| at(r, c) | at(r + 1, c))
            .collect();
        let horizontal: Vec<Free> = [(0, 5), (2, 5), (4, 5), (1, 7), (3, 7), (5, 7)]
            .iter()
            .map(|&(r, c)| at(r, c) | at(r, c + 1))
            .collect();
        // The region with `ahead` free moves for Vertical (Horizontal where negative).
        let with = |region: Free, ahead: i32| -> Option<Free> {
            let spares = if ahead >= 0 { &vertical } else { &horizontal };
            let n = ahead.unsigned_abs() as usize;
            (n <= spares.len()).then(|| {
                let moved = (0..24)
                    .filter(|&cell| region >> cell & 1 == 1)
                    .fold(0, |acc: Free, cell| acc | at(cell / 4, cell % 4));
                spares[..n].iter().fold(moved, |acc, &s| acc | s)
            })
        };
        let (mut checked, mut whole) = (0, 0);
        let mut seen = HashMap::new();
        for (free, _) in positions(&small, 300, 7) {
            for region in small.regions_of(free) {
                if !(3..=10).contains(&region.count_ones()) {
                    continue;
                }
                let bounds = small.bounds_of(region);
                let (low, high) = (i32::from(bounds.low), i32::from(bounds.high));
                assert!(low <= high, "{region:b}");
                // region ≥ low: Horizontal, moving first in region - low, loses; not so for low + 1.
                if let (Some(at_low), Some(above)) = (with(region, -low), with(region, -low - 1)) {
                    assert!(!by_search(&big, at_low, 1, &mut seen), "{region:b} low {low}");
                    assert!(by_search(&big, above, 1, &mut seen), "{region:b} low {low}");
                    checked += 1;
                }
                // region ≤ high: Vertical, moving first in region - high, loses; not so for high - 1.
                if let (Some(at_high), Some(below)) = (with(region, -high), with(region, 1 - high)) {
                    assert!(!by_search(&big, at_high, 0, &mut seen), "{region:b} high {high}");
                    assert!(by_search(&big, below, 0, &mut seen), "{region:b} high {high}");
                    checked += 1;
                }
                whole += usize::from(low == high);
            }
        }
        assert!(checked > 100 && whole > 5, "{checked} checked, {whole} whole");
    }

    #[test]
    fn horizontal_on_a_square_board_is_vertical_on_its_transpose() {
        let board = Board::new(4, 4);
        let mut proof = Proof::new(board.clone(), 1 << 16, Limit::default());
        let mut seen = HashMap::new();
        for (free, _) in positions(&board, 200, 5) {
            assert_eq!(proof.wins(free, 1), Some(by_search(&board, free, 1, &mut seen)));
        }
    }

    #[test]
    fn two_cores_prove_what_one_does() {
        let board = Board::new(5, 6);
        let one = Proof::new(board.clone(), 1 << 20, Limit::default()).wins(board.all(), 0);
        let two = Proof::new(board.clone(), 1 << 20, Limit::default())
            .threads(2)
            .wins(board.all(), 0);
        assert_eq!(one, two);
    }

    #[test]
    fn a_proof_stops_at_its_deadline_and_when_cancelled() {
        let board = Board::new(9, 9);
        let limit = Limit {
            deadline: Some(std::time::Instant::now()),
            ..Limit::default()
        };
        assert_eq!(
            Proof::new(board.clone(), 1 << 20, limit).wins(board.all(), 0),
            None
        );
        let cancel = std::sync::Arc::new(AtomicBool::new(true));
        let limit = Limit {
            cancel: Some(cancel),
            ..Limit::default()
        };
        assert_eq!(
            Proof::new(board.clone(), 1 << 20, limit).wins(board.all(), 0),
            None
        );
    }

    /// A checkpoint file of this test process alone.
    fn checkpoint_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("zermelo-proof-{name}-{}.proof", std::process::id()))
    }

    #[test]
    fn a_proof_stopped_goes_on_from_its_checkpoint_to_the_same_answer() {
        let board = Board::new(7, 6);
        let path = checkpoint_path("resume");
        let mut whole = Proof::new(board.clone(), 1 << 22, Limit::default());
        let answer = whole.wins(board.all(), 0);
        assert!(answer.is_some());
        // Run after run stopped soon, by its deadline a millisecond on or by its cancel flag
        // at once (at its first look), each going on from the checkpoint the run before
        // wrote, on a table of another size.
        let mut runs = 0;
        let mut proved_first = Vec::new();
        let resumed = loop {
            let limit = if runs % 2 == 0 {
                Limit {
                    deadline: Some(Instant::now() + Duration::from_millis(1)),
                    ..Limit::default()
                }
            } else {
                Limit {
                    cancel: Some(Arc::new(AtomicBool::new(true))),
                    ..Limit::default()
                }
            };
            let mut run = Proof::new(board.clone(), 1 << (19 + runs % 3), limit)
                .keeping(path.clone(), Duration::from_secs(600));
            assert_eq!(run.resume().unwrap(), runs > 0);
            if let Some(root) = run.roots().first() {
                // What an earlier run proved of the first moves is kept.
                assert!(proved_first.iter().all(|p| root.proved.contains(p)));
                proved_first.clone_from(&root.proved);
            }
            let nodes = run.nodes();
            let answer = run.wins(board.all(), 0);
            assert!(run.nodes() > nodes);
            runs += 1;
            if answer.is_some() || runs == 1000 {
                run.forget().unwrap();
                break answer;
            }
            assert!(run.failure().is_none());
            run.save().unwrap();
        };
        assert!(runs > 2, "{runs} runs");
        assert!(!proved_first.is_empty());
        assert_eq!(resumed, answer, "after {runs} runs");
        assert!(!path.exists());
    }

    #[test]
    fn a_proof_writes_its_checkpoint_as_it_goes() {
        let board = Board::new(7, 6);
        let path = checkpoint_path("every");
        let mut proof =
            Proof::new(board.clone(), 1 << 20, Limit::default()).keeping(path.clone(), Duration::ZERO);
        let answer = proof.wins(board.all(), 0);
        assert!(proof.failure().is_none());
        // Written while it searched, before the answer: what it held then.
        let mut read = Proof::new(board.clone(), 1 << 20, Limit::default())
            .keeping(path.clone(), Duration::from_secs(600));
        assert!(read.resume().unwrap());
        assert!(read.nodes() > 0 && read.positions() > 0);
        assert_eq!(read.wins(board.all(), 0), answer);
        read.forget().unwrap();
    }

    #[test]
    fn a_damaged_or_foreign_checkpoint_is_refused() {
        let board = Board::new(4, 5);
        let path = checkpoint_path("damaged");
        let mut proof = Proof::new(board.clone(), 1 << 16, Limit::default())
            .keeping(path.clone(), Duration::from_secs(600));
        let answer = proof.wins(board.all(), 0);
        proof.save().unwrap();
        let resumed = || {
            Proof::new(board.clone(), 1 << 16, Limit::default())
                .keeping(path.clone(), Duration::from_secs(600))
        };
        assert!(resumed().resume().unwrap());
        let bytes = std::fs::read(&path).unwrap();
        // One bit flipped in the table's entries, then the file cut short.
        let mut flipped = bytes.clone();
        flipped[bytes.len() - 60] ^= 4;
        std::fs::write(&path, &flipped).unwrap();
        let mut damaged = resumed();
        let err = damaged.resume().unwrap_err().to_string();
        assert!(err.contains("damaged") && err.contains("remove it"), "{err}");
        assert_eq!(damaged.positions(), 0, "nothing of a refused checkpoint is kept");
        assert_eq!(damaged.wins(board.all(), 0), answer);
        std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
        assert!(resumed().resume().is_err());
        // Another board's checkpoint, and a file that is no checkpoint.
        std::fs::write(&path, &bytes).unwrap();
        let other = Board::new(5, 4);
        let err = Proof::new(other, 1 << 16, Limit::default())
            .keeping(path.clone(), Duration::from_secs(600))
            .resume()
            .unwrap_err()
            .to_string();
        assert!(err.contains("4 x 5 board, not 5 x 4"), "{err}");
        std::fs::write(&path, b"not a checkpoint at all").unwrap();
        assert!(resumed()
            .resume()
            .unwrap_err()
            .to_string()
            .contains("not the checkpoint"));
        std::fs::remove_file(&path).unwrap();
        assert!(!resumed().resume().unwrap(), "no checkpoint: a fresh start");
    }

    #[test]
    fn mirror_images_share_a_key_and_the_mover_does_not() {
        let board = Board::new(3, 4);
        let free = board.all() & !0b11; // a1 and b1 covered
        let mirrored = board.all() & !(0b1100 << 8); // c3 and d3 covered
        assert_eq!(board.key(free, 0), board.key(mirrored, 0));
        assert_ne!(board.key(free, 0), board.key(free, 1));
    }

    #[test]
    fn the_table_keeps_values_apart_by_every_key_bit() {
        let table = Table::new(1 << 12);
        let a: Free = 1 << 120 | 5;
        let b: Free = 5;
        table.put(a, true, 3);
        table.put(b | 1 << MOVER_BIT, false, 1);
        assert_eq!(table.get(a), Some((true, 3)));
        assert_eq!(table.get(b), None);
        assert_eq!(table.get(b | 1 << MOVER_BIT), Some((false, 1)));
    }
}
