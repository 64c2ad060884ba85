//! What a designer asks of a strong solution, computed for any game: how forgiving the
//! game is to each seat along perfect play ([`forgiveness`]), which first moves are
//! fairest under the swap rule ([`pie_order`]), and a [`Certificate`] of the solved
//! values that anyone can compute again.
//!
//! Values here are classes for the player they belong to: 1 a win, 0 a draw, -1 a loss.
//! A move *keeps* the value of its position when its class is the position's; it *loses
//! one step* from a win to a draw or a draw to a loss, and *more* from a win to a loss.

use std::collections::VecDeque;
use std::ops::Range;

use rustc_hash::FxHashSet;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::class::Class;
use crate::game::{Levelled, Notation};
use crate::solve::Limit;
use crate::table::db::{Database, Layer};
use crate::value::Value;
use crate::Error;

/// How many critical positions a report shows, at most.
pub const CRITICAL_SHOWN: usize = 5;

/// How the mover's moves fare at the positions of one ply and seat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PlyRow {
    /// Moves from the start.
    pub ply: u32,
    /// The seat to move, from 0.
    pub seat: u8,
    /// Positions of the perfect-play subgraph at this ply with this seat to move, not
    /// over.
    pub positions: u64,
    /// The mean share of their legal moves that keep the value (0..=1).
    pub keep: f64,
    /// The mean share that lose one step.
    pub one_step: f64,
    /// The mean share that lose more.
    pub more: f64,
}

/// How forgiving the game is to one seat along perfect play.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SeatForgiveness {
    /// The seat, from 0.
    pub seat: u8,
    /// What the game calls its player.
    pub name: String,
    /// Positions of the subgraph where it moves (not over).
    pub positions: u64,
    /// The mean share of its legal moves that keep the value (0..=1).
    pub safe: f64,
    /// Its critical positions: exactly one of two or more legal moves keeps the value.
    pub critical: u64,
}

/// Forgiveness over the perfect-play subgraph: the positions reachable from the start
/// when both seats keep the value, each counted once (at the first ply it is reached).
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Forgiveness {
    /// Positions of the subgraph, terminal ones included.
    pub positions: u64,
    /// By ply and seat, in order of ply.
    pub by_ply: Vec<PlyRow>,
    /// By seat, the first player's first.
    pub seats: Vec<SeatForgiveness>,
    /// Critical positions: exactly one of two or more legal moves keeps the value.
    pub critical: u64,
    /// The first critical positions reached, in the game's notation (at most
    /// [`CRITICAL_SHOWN`]).
    pub critical_positions: Vec<String>,
}

/// Sums of shares, to be averaged.
#[derive(Default)]
struct Sums {
    positions: u64,
    shares: [f64; 3],
}

impl Sums {
    fn add(&mut self, shares: [f64; 3]) {
        self.positions += 1;
        for (s, x) in self.shares.iter_mut().zip(shares) {
            *s += x;
        }
    }

    fn mean(&self, i: usize) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.shares[i] / self.positions as f64
        }
    }
}

/// Forgiveness summed position by position.
struct Walk {
    rows: Vec<Vec<Sums>>,
    seats: Vec<(Sums, u64)>,
    out: Forgiveness,
}

impl Walk {
    fn new(seats: usize) -> Walk {
        Walk {
            rows: Vec::new(),
            seats: (0..seats).map(|_| (Sums::default(), 0)).collect(),
            out: Forgiveness::default(),
        }
    }

    /// Counts `p`, reached at `ply` with `seat` to move, whose legal moves have `classes`
    /// for its mover; the value it keeps (the best class), `None` when it has no moves.
    fn visit<G: Notation>(
        &mut self,
        game: &G,
        p: &G::Position,
        (ply, seat): (u32, u8),
        classes: &[i8],
    ) -> Option<i8> {
        let best = *classes.iter().max()?;
        let mut lost = [0u32; 3];
        for class in classes {
            lost[(best - class).clamp(0, 2) as usize] += 1;
        }
        let shares = lost.map(|n| f64::from(n) / classes.len() as f64);
        let seat = usize::from(seat);
        let at = ply as usize;
        if self.rows.len() <= at {
            self.rows.resize_with(at + 1, Vec::new);
        }
        if self.rows[at].len() <= seat {
            self.rows[at].resize_with(seat + 1, Sums::default);
        }
        self.rows[at][seat].add(shares);
        self.seats[seat].0.add(shares);
        if lost[0] == 1 && classes.len() > 1 {
            self.seats[seat].1 += 1;
            self.out.critical += 1;
            if self.out.critical_positions.len() < CRITICAL_SHOWN {
                self.out.critical_positions.push(game.format_position(p));
            }
        }
        Some(best)
    }

    fn finish<G: Notation>(mut self, game: &G, positions: u64) -> Forgiveness {
        self.out.positions = positions;
        for (ply, at) in self.rows.iter().enumerate() {
            for (seat, s) in at.iter().enumerate().filter(|(_, s)| s.positions > 0) {
                self.out.by_ply.push(PlyRow {
                    ply: ply as u32,
                    seat: seat as u8,
                    positions: s.positions,
                    keep: s.mean(0),
                    one_step: s.mean(1),
                    more: s.mean(2),
                });
            }
        }
        self.out.seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, (s, critical))| SeatForgiveness {
                seat: seat as u8,
                name: game.player_name(seat as u8),
                positions: s.positions,
                safe: s.mean(0),
                critical: *critical,
            })
            .collect();
        self.out
    }
}

/// Walks the perfect-play subgraph of `game` from `start`, breadth first: `moves_of`
/// gives a position's legal moves with their classes for the mover. Refused past `max`
/// positions, and stopped by `limit`.
pub fn forgiveness<G: Notation>(
    game: &G,
    start: &G::Position,
    mut moves_of: impl FnMut(&G::Position) -> Result<Vec<(G::Move, i8)>, Error>,
    max: u64,
    limit: &Limit,
) -> Result<Forgiveness, Error> {
    let mut walk = Walk::new(game.players());
    let mut seen: FxHashSet<G::Position> = FxHashSet::default();
    seen.insert(start.clone());
    let mut queue = VecDeque::from([(start.clone(), 0u32)]);
    while let Some((p, ply)) = queue.pop_front() {
        // Valuing a position's moves may take long: the clock is read at every one.
        if limit.positions.is_some_and(|most| seen.len() > most) || limit.passed() {
            return Err(limit.stop());
        }
        if game.outcome(&p).is_some() {
            continue;
        }
        let moves = moves_of(&p)?;
        let classes: Vec<i8> = moves.iter().map(|(_, c)| *c).collect();
        let Some(best) = walk.visit(game, &p, (ply, game.to_move(&p)), &classes) else {
            continue;
        };
        for (m, _) in moves.iter().filter(|(_, c)| *c == best) {
            let child = game.play(&p, m);
            if !seen.contains(&child) {
                if seen.len() as u64 >= max {
                    return Err(Error::too_big(format!(
                        "the perfect-play subgraph has more than {max} positions"
                    )));
                }
                seen.insert(child.clone());
                queue.push_back((child, ply + 1));
            }
        }
    }
    Ok(walk.finish(game, seen.len() as u64))
}

/// The same walk in one pass over a level table, level by level in order of rank:
/// `class` gives the class of a rank for its mover (`None`: no position). Positions are
/// the table's ranks, so a game whose ranks are classes under its symmetries counts each
/// class once, and a seat is told from the seats before it (a table may keep a position
/// with its colours swapped, so that the same seat always moves). Games of two seats;
/// stopped by `limit`.
pub fn forgiveness_by_levels<G: Levelled + Notation>(
    game: &G,
    start: &G::Position,
    class: impl Fn(u64) -> Option<i8>,
    limit: &Limit,
) -> Result<Forgiveness, Error> {
    const UNREACHED: u16 = u16::MAX;
    let size =
        usize::try_from(game.size()).map_err(|_| Error::too_big("the table is too large to walk here"))?;
    let mut ply = vec![UNREACHED; size];
    let mut seats = vec![0u8; size];
    ply[game.rank(start) as usize] = 0;
    seats[game.rank(start) as usize] = game.to_move(start);
    let mut walk = Walk::new(game.players());
    let mut reached = 1u64;
    let mut moves = Vec::new();
    let mut classes = Vec::new();
    let mut ticks = 0;
    // Visits the position of `rank`, marking the children that keep its value; children
    // in its own level and below its rank are left for later in `again`.
    let mut visit = |rank: u64,
                     p: G::Position,
                     ply: &mut [u16],
                     seats: &mut [u8],
                     again: &mut Vec<u64>,
                     walk: &mut Walk| {
        let (at, seat) = (ply[rank as usize], seats[rank as usize]);
        if game.outcome(&p).is_some() {
            return Ok::<u64, Error>(0);
        }
        moves.clear();
        game.moves(&p, &mut moves);
        let mover = game.to_move(&p);
        let children: Vec<(u64, i8, u8)> = moves
            .iter()
            .map(|m| {
                let child = game.play(&p, m);
                let r = game.rank(&child);
                let c = class(r).ok_or_else(|| Error::Unsupported(format!("rank {r} holds no value")))?;
                let same = game.to_move(&child) == mover;
                Ok((r, if same { c } else { -c }, if same { seat } else { 1 - seat }))
            })
            .collect::<Result<_, Error>>()?;
        classes.clear();
        classes.extend(children.iter().map(|(_, c, _)| *c));
        let Some(best) = walk.visit(game, &p, (u32::from(at), seat), &classes) else {
            return Ok(0);
        };
        let mut newly = 0;
        for &(r, _, child_seat) in children.iter().filter(|(_, c, _)| *c == best) {
            let next = at.saturating_add(1).min(UNREACHED - 1);
            let was = ply[r as usize];
            if next < was {
                ply[r as usize] = next;
                seats[r as usize] = child_seat;
                newly += u64::from(was == UNREACHED);
                if r <= rank && was == UNREACHED {
                    again.push(r);
                }
            }
        }
        Ok(newly)
    };
    for level in 0..game.levels() {
        let ranks = game.level_ranks(level);
        let mut again = Vec::new();
        let mut failed = None;
        game.for_each_position(ranks.clone(), |rank, p| {
            if failed.is_some() || ply[rank as usize] == UNREACHED {
                return;
            }
            let Some(p) = p else { return };
            if limit.reached(reached as usize, &mut ticks) {
                failed = Some(limit.stop());
                return;
            }
            match visit(rank, p, &mut ply, &mut seats, &mut again, &mut walk) {
                Ok(n) => reached += n,
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        // Positions reached within the level after its scan passed them: their own moves
        // all lead to higher levels.
        for rank in again.into_iter().filter(|r| ranks.contains(r)) {
            if let Some(p) = game.unrank(rank) {
                reached += visit(rank, p, &mut ply, &mut seats, &mut Vec::new(), &mut walk)?;
            }
        }
    }
    Ok(walk.finish(game, reached))
}

/// How far a first move's value leaves the game from even once the second player may take
/// it over: its class for the first player, its lead (margin or score gap) and its
/// remoteness. The order of the returned keys: smaller is fairer (an exact draw first,
/// then the smallest lead, then the longest game).
pub fn pie_key(class: Class, lead: Option<i32>, remoteness: Option<u32>) -> (bool, u32, i64) {
    let decisive = class != Class::Draw || lead.is_some_and(|m| m != 0);
    let gap = lead.map_or(0, i32::unsigned_abs);
    (decisive, gap, -i64::from(remoteness.unwrap_or(0)))
}

/// The indices of the fairest first moves under the swap rule, by [`pie_key`] of each.
pub fn pie_order(keys: &[(bool, u32, i64)]) -> Vec<usize> {
    let Some(best) = keys.iter().min() else {
        return Vec::new();
    };
    (0..keys.len()).filter(|&i| keys[i] == *best).collect()
}

/// The counts of a solved game and a SHA-256 over its values in a canonical order of
/// positions: the same on every run, thread count and machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Certificate {
    /// What the values are ordered by: "rank" (the game's index of positions, over a
    /// saved table) or "position" (the position texts sorted, over every position
    /// reachable from the start).
    pub order: &'static str,
    /// Positions valued.
    pub positions: u64,
    /// Positions where the game is over; `None` when a table does not tell.
    pub terminal: Option<u64>,
    /// Positions won by the player to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the player to move.
    pub losses: u64,
    /// The SHA-256 of the values, in hex.
    pub sha256: String,
}

impl Certificate {
    /// The certificate of the reachable positions' values: each position's text, whether
    /// it is over, and its value (`None`: unknown), hashed as lines `TEXT VALUE` sorted by
    /// text.
    pub fn of_positions(mut valued: Vec<(String, bool, Option<Value>)>) -> Certificate {
        valued.sort_by(|a, b| a.0.cmp(&b.0));
        let mut hash = Sha256::new();
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for (text, _, v) in &valued {
            let value = match v {
                Some(v) => format!("{} {}", v.word(), v.remoteness().unwrap_or(0)),
                None => "unknown".into(),
            };
            hash.update(format!("{text} {value}\n").as_bytes());
            wins += valued_as(*v, Class::Win);
            draws += valued_as(*v, Class::Draw);
            losses += valued_as(*v, Class::Lose);
        }
        Certificate {
            order: "position",
            positions: valued.len() as u64,
            terminal: Some(valued.iter().filter(|(_, over, _)| *over).count() as u64),
            wins,
            draws,
            losses,
            sha256: hex(&hash.finalize()),
        }
    }

    /// The certificate of a saved table: every layer's entries in order of rank (each
    /// layer's name, then its entries as 4-byte little-endian numbers), and the counts
    /// its header records.
    pub fn of_database(db: &Database) -> Result<Certificate, Error> {
        let h = db.header();
        let mut hash = Sha256::new();
        for &layer in &h.layers {
            hash.update(format!("{}\n", layer.name()).as_bytes());
            let step = layer.block_ranks().max(1 << 16);
            for start in (0..h.ranks).step_by(step as usize) {
                let ranks: Range<u64> = start..(start + step).min(h.ranks);
                for e in db.entries(layer, ranks)? {
                    hash.update(e.to_le_bytes());
                }
            }
        }
        Ok(Certificate {
            order: "rank",
            positions: h.count("positions"),
            terminal: None,
            wins: h.count("wins"),
            draws: h.count("draws"),
            losses: h.count("losses"),
            sha256: hex(&hash.finalize()),
        })
    }

    /// Whether a table's values can be certified: it holds win/lose/draw values.
    pub fn certifies(db: &Database) -> bool {
        db.header().layers.contains(&Layer::Wdl) && db.header().part.is_none()
    }
}

/// 1 when `v` is of the class `want`.
fn valued_as(v: Option<Value>, want: Class) -> u64 {
    u64::from(v.is_some_and(|v| v.class() == want))
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fairest_first_move_is_a_draw_then_the_smallest_margin() {
        let keys = [
            pie_key(Class::Win, Some(3), None),
            pie_key(Class::Lose, Some(-1), None),
            pie_key(Class::Win, Some(1), None),
        ];
        assert_eq!(pie_order(&keys), vec![1, 2]);
        let keys = [
            pie_key(Class::Win, None, Some(5)),
            pie_key(Class::Draw, None, None),
        ];
        assert_eq!(pie_order(&keys), vec![1]);
    }

    #[test]
    fn a_certificate_does_not_depend_on_the_order_positions_come_in() {
        let a = vec![
            ("b".to_string(), true, Some(Value::Lose(0))),
            ("a".to_string(), false, Some(Value::Win(1))),
        ];
        let mut b = a.clone();
        b.reverse();
        let (ca, cb) = (Certificate::of_positions(a), Certificate::of_positions(b));
        assert_eq!(ca, cb);
        assert_eq!((ca.wins, ca.losses, ca.terminal), (1, 1, Some(1)));
    }
}
