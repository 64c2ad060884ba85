//! Small regions as sums: where the free cells fall apart into regions no domino joins,
//! a position is the sum of its regions, and a small region's worth is known by searching
//! it alone.
//!
//! Of a region `R` the search finds the greatest whole number `a` with `R ≥ a` and the
//! least `b` with `R ≤ b` (Vertical counting positive): `R ≥ a` when Vertical, moving
//! second, wins `R` with `a` free moves given to Horizontal (or `-a` to itself), and
//! `R ≤ b` likewise for Horizontal. Then the whole position `G + R` is at least `G + a`
//! and at most `G + b`: Vertical wins it wherever it wins the rest `G` with `a` safe
//! moves more, and Horizontal wherever it wins `G` with `b` safe moves fewer for
//! Vertical. Where `a = b` the region is worth exactly that many moves.

use std::sync::{OnceLock, RwLock};

use rustc_hash::FxHashMap;

use super::board::{Board, Free, Side};

/// The most cells of a region whose worth is searched.
pub const REGION_CELLS: u32 = 10;

/// The most regions' worths kept; past it, new ones are searched each time.
const KEPT: usize = 1 << 20;

/// A region's bounds: the greatest `a` and the least `b` with `a ≤ R ≤ b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub low: i8,
    pub high: i8,
}

/// The worths of regions met so far, by their shape (see [`shape`]), for the whole process.
fn kept() -> &'static RwLock<FxHashMap<u64, Bounds>> {
    static KEPT_BOUNDS: OnceLock<RwLock<FxHashMap<u64, Bounds>>> = OnceLock::new();
    KEPT_BOUNDS.get_or_init(|| RwLock::new(FxHashMap::default()))
}

impl Board {
    /// The regions of `free`: its cells joined side by side.
    pub(super) fn regions_of(&self, free: Free) -> impl Iterator<Item = Free> + '_ {
        let mut rest = free;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let mut region = rest & rest.wrapping_neg();
            loop {
                let grown = region | self.touching(region, free);
                if grown == region {
                    break;
                }
                region = grown;
            }
            rest &= !region;
            Some(region)
        })
    }

    /// `free` less its regions of three to [`REGION_CELLS`] cells, and the sums of their
    /// bounds, the least and the most Vertical's moves ahead there come to (see
    /// [`Bounds`]); `None` where there is no such region.
    pub(super) fn small_regions(&self, free: Free) -> Option<(Free, i32, i32)> {
        let (mut rest, mut low, mut high) = (free, 0, 0);
        for region in self.regions_of(free) {
            if (3..=REGION_CELLS).contains(&region.count_ones()) {
                let bounds = self.bounds_of(region);
                rest &= !region;
                low += i32::from(bounds.low);
                high += i32::from(bounds.high);
            }
        }
        (rest != free).then_some((rest, low, high))
    }

    /// The bounds of the region `region` (at most 58 cells in its least rectangle).
    pub(super) fn bounds_of(&self, region: Free) -> Bounds {
        let (key, small, cells) = self.shape(region);
        if let Some(&bounds) = kept().read().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return bounds;
        }
        let bounds = small.bounds_by_search(cells);
        let mut kept = kept().write().unwrap_or_else(|e| e.into_inner());
        if kept.len() < KEPT {
            kept.insert(key, bounds);
        }
        bounds
    }

    /// The region `region` alone on a board of its least rectangle: a key naming its shape
    /// (its cells row by row, and the rectangle's width), that board and its cells there.
    fn shape(&self, region: Free) -> (u64, Board, Free) {
        let span = self.bounds(region);
        let mut cells: Free = 0;
        for r in 0..span.rows {
            let row = (region >> ((span.row + r) * self.cols + span.col)) & ((1 << span.cols) - 1);
            cells |= row << (r * span.cols);
        }
        let key = cells as u64 | (span.cols as u64) << 58;
        (key, Board::new(span.rows, span.cols), cells)
    }

    /// The bounds of `free` on this board, by search over every move and free move.
    fn bounds_by_search(&self, free: Free) -> Bounds {
        let mut seen = FxHashMap::default();
        let (vertical, horizontal) = (self.most(free, 0), self.most(free, 1));
        // `free ≥ a`: Horizontal, moving first with `a` free moves, loses.
        let low = (-horizontal..=vertical)
            .rev()
            .find(|&a| !self.wins_with(free, -a, 1, &mut seen))
            .unwrap_or(-horizontal);
        // `free ≤ b`: Vertical, moving first with `-b` free moves, loses.
        let high = (-horizontal..=vertical)
            .find(|&b| !self.wins_with(free, -b, 0, &mut seen))
            .unwrap_or(vertical);
        Bounds {
            low: low as i8,
            high: high as i8,
        }
    }

    /// Whether `side`, to move in `free` with `ahead` free moves for Vertical (Horizontal
    /// where negative), wins.
    fn wins_with(
        &self,
        free: Free,
        ahead: i32,
        side: Side,
        seen: &mut FxHashMap<(Free, i32, Side), bool>,
    ) -> bool {
        if let Some(&wins) = seen.get(&(free, ahead, side)) {
            return wins;
        }
        let spare = if side == 0 { ahead > 0 } else { ahead < 0 };
        let toward = if side == 0 { -1 } else { 1 };
        let mut wins = spare && !self.wins_with(free, ahead + toward, 1 - side, seen);
        let mut places = self.places(free, side);
        while places != 0 && !wins {
            let cell = places.trailing_zeros();
            places &= places - 1;
            wins = !self.wins_with(self.play(free, side, cell), ahead, 1 - side, seen);
        }
        seen.insert((free, ahead, side), wins);
        wins
    }
}
