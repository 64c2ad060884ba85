//! A search of a game of one's own through its own Python methods, without exploring
//! it: null-window alpha-beta for the exact value (win, draw or loss, and how many moves
//! to the end), a transposition table of 128-bit fingerprints of the positions' keys,
//! the table's best move and the game's `heuristic` first.
//!
//! A position met again on the current line scores a draw, as play that never ends is one
//! in the graph solver; a result that leaned on such a repeat of a position above it holds
//! for that line only, and is never stored. A result stored leaned on nothing above it: it
//! is the value a search from that position alone gives, which is the position's value in
//! the game graph (a player who wins there wins with every remoteness falling, so never
//! meets a repeat; a player who draws keeps to drawn positions, where a repeat is a draw).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::{Whole, ZermeloError};

/// The score of a win at the end: a win `d` moves away scores `WIN - d`, a loss
/// `-(WIN - d)`, a draw 0.
const WIN: i32 = 1 << 28;

/// The deepest line searched (each move deeper takes a frame of the calling thread's
/// stack): a game whose lines run longer is refused.
const MAX_PLY: u32 = 2_000;

/// No position of the current line was met again.
const NONE: u32 = u32::MAX;

/// Positions searched between two looks at Ctrl-C and the clock.
const LOOK: u64 = 1024;

/// The table's size when no memory is given: 2^20 entries of 32 bytes (32 MiB).
const DEFAULT_TABLE: usize = 32 << 20;

/// A table entry: the fingerprint (two words, 0 and 0 for none), the bounds on the
/// score (lower in the high half, upper in the low half) and the best move's index.
type Entry = [u64; 4];

/// A 128-bit fingerprint of a key's text with the seat to move (XXH3, as exploring
/// fingerprints keys, seeded by the seat).
fn fingerprint(text: &str, seat: u32) -> u128 {
    xxhash_rust::xxh3::xxh3_128_with_seed(text.as_bytes(), u64::from(seat))
}

/// A child's score as its parent sees it: one move further from the end, and negated
/// when another seat moves there.
fn lift(score: i32, flip: bool) -> i32 {
    let s = if flip { -score } else { score };
    s - s.signum()
}

/// A parent's bound as the child's score: the inverse of `lift` on bounds.
fn unlift(bound: i32, flip: bool) -> i32 {
    let b = bound + bound.signum();
    if flip {
        -b
    } else {
        b
    }
}

/// What a child of a position is: its end, or the state to search.
enum Child {
    /// The game is over there: the score for the parent's seat, one move away.
    Over(i32),
    /// The game goes on: the state, its seat to move and its fingerprint.
    On(Py<PyAny>, u32, u128),
}

/// A search of a game of one's own, keeping its table between questions.
#[pyclass(unsendable, module = "zermelo._native")]
pub struct Search {
    to_move: Py<PyAny>,
    moves: Py<PyAny>,
    play: Py<PyAny>,
    outcome: Py<PyAny>,
    key: Py<PyAny>,
    heuristic: Option<Py<PyAny>>,
    over: Option<Py<PyAny>>,
    table: Vec<Entry>,
    /// The positions on the current line, by fingerprint, with their depth on it.
    line: HashMap<u128, u32>,
    searched: u64,
    deadline: Option<(Instant, f64)>,
}

/// The score of an outcome for `seat`, `distance` moves away.
fn end_score(end: &Bound<'_, PyAny>, seat: u32, distance: i32) -> PyResult<i32> {
    let win = WIN - distance;
    if let Ok(winner) = end.extract::<u32>() {
        return Ok(if winner == seat { win } else { -win });
    }
    if end.extract::<String>().is_ok_and(|t| t == "draw") {
        return Ok(0);
    }
    let points: Vec<i64> = end.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "an outcome is a seat, \"draw\" or a list of points, not {end}"
        ))
    })?;
    if points.len() != 2 || seat > 1 {
        return Err(PyValueError::new_err(format!(
            "the search takes two seats, not the points {end}"
        )));
    }
    let (mine, theirs) = (points[seat as usize], points[1 - seat as usize]);
    Ok(match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => win,
        std::cmp::Ordering::Less => -win,
        std::cmp::Ordering::Equal => 0,
    })
}

impl Search {
    fn slot(&self, fp: u128) -> usize {
        (fp as usize) & (self.table.len() - 1)
    }

    /// The bounds and best move stored for `fp`.
    fn probe(&self, fp: u128) -> Option<(i32, i32, usize)> {
        let e = &self.table[self.slot(fp)];
        if (u128::from(e[0]) << 64 | u128::from(e[1])) != fp || fp == 0 {
            return None;
        }
        Some(((e[2] >> 32) as u32 as i32, e[2] as u32 as i32, e[3] as usize))
    }

    /// Stores bounds on `fp`'s score (narrowed by those stored already) and its best move.
    fn store(&mut self, fp: u128, low: i32, high: i32, best: usize) {
        let (mut low, mut high) = (low, high);
        if let Some((l, h, _)) = self.probe(fp) {
            if l.max(low) <= h.min(high) {
                low = low.max(l);
                high = high.min(h);
            }
        }
        let slot = self.slot(fp);
        self.table[slot] = [
            (fp >> 64) as u64,
            fp as u64,
            (u64::from(low as u32) << 32) | u64::from(high as u32),
            best as u64,
        ];
    }

    /// Stops on Ctrl-C and past the deadline.
    fn look(&mut self, py: Python<'_>) -> PyResult<()> {
        self.searched += 1;
        if self.searched.is_multiple_of(LOOK) {
            py.check_signals()?;
            if let Some((until, seconds)) = self.deadline {
                if Instant::now() > until {
                    return Err(ZermeloError::new_err(format!(
                        "the search found no answer within {seconds} s ({} positions searched): give it more time",
                        self.searched
                    )));
                }
            }
        }
        Ok(())
    }

    /// The fingerprint of a state's key, `seat` to move.
    fn print(&self, state: &Bound<'_, PyAny>, seat: u32) -> PyResult<u128> {
        let key = self.key.bind(state.py()).call1((state,))?;
        let text = key.str()?;
        Ok(fingerprint(&text.to_cow()?, seat))
    }

    /// What the state after `mv` is, for the seat `seat` moving at `state`.
    fn child(&self, state: &Bound<'_, PyAny>, mv: &Bound<'_, PyAny>, seat: u32) -> PyResult<Child> {
        let py = state.py();
        let next = self.play.bind(py).call1((state, mv))?;
        let end = self.end(&next)?;
        if !end.is_none() {
            return Ok(Child::Over(end_score(&end, seat, 1)?));
        }
        let mover: u32 = self.to_move.bind(py).call1((&next,))?.extract()?;
        let fp = self.print(&next, mover)?;
        Ok(Child::On(next.unbind(), mover, fp))
    }

    /// The outcome of `state` (`None` while the game goes on), asked only where `over`
    /// says the game is over, when given.
    fn end<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = state.py();
        if let Some(over) = &self.over {
            if !over.bind(py).call1((state,))?.is_truthy()? {
                return Ok(py.None().into_bound(py));
            }
        }
        self.outcome.bind(py).call1((state,))
    }

    /// The legal moves at `state`, refused when there are none at a position not over.
    fn legal<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let moves: Vec<Bound<'py, PyAny>> = self
            .moves
            .bind(state.py())
            .call1((state,))?
            .try_iter()?
            .collect::<PyResult<_>>()?;
        if moves.is_empty() {
            return Err(PyValueError::new_err(
                "outcome(state) is None but moves(state) is empty",
            ));
        }
        Ok(moves)
    }

    /// The score of `state` (not over, `seat` to move, fingerprint `fp`, `ply` moves
    /// deep on the line) for `seat` within `alpha`..`beta` (fail-soft), and the least
    /// depth of a position on the line met again below it (`NONE`).
    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        state: &Bound<'_, PyAny>,
        seat: u32,
        fp: u128,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> PyResult<(i32, u32, usize)> {
        let py = state.py();
        self.look(py)?;
        if ply >= MAX_PLY {
            return Err(ZermeloError::new_err(format!(
                "the search went {MAX_PLY} moves deep: the game's lines are too long to search"
            )));
        }
        let mut first = usize::MAX;
        if let Some((low, high, best)) = self.probe(fp) {
            if low >= beta || low == high {
                return Ok((low, NONE, best));
            }
            if high <= alpha {
                return Ok((high, NONE, best));
            }
            alpha = alpha.max(low);
            beta = beta.min(high);
            first = best;
        }
        let moves = self.legal(state)?;
        // The table's best move first, then (with a heuristic) the best for `seat` by it.
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let mut children: Vec<Option<Child>> = (0..moves.len()).map(|_| None).collect();
        if let Some(h) = &self.heuristic {
            let mut rank = Vec::with_capacity(moves.len());
            for (i, mv) in moves.iter().enumerate() {
                let child = self.child(state, mv, seat)?;
                let r = match &child {
                    Child::Over(s) => -i64::from(*s),
                    Child::On(next, mover, _) => {
                        let v: i64 = h.bind(py).call1((next.bind(py),))?.extract()?;
                        if *mover == seat {
                            -v
                        } else {
                            v
                        }
                    }
                };
                rank.push(r);
                children[i] = Some(child);
            }
            order.sort_by_key(|&i| rank[i]);
        }
        if let Some(at) = order.iter().position(|&i| i == first) {
            order[..=at].rotate_right(1);
        }
        self.line.insert(fp, ply);
        let (start_alpha, mut best, mut best_move, mut repeat) = (alpha, -WIN - 1, 0, NONE);
        for (n, &i) in order.iter().enumerate() {
            let child = match children[i].take() {
                Some(c) => c,
                None => self.child(state, &moves[i], seat)?,
            };
            let score = match child {
                Child::Over(s) => s,
                Child::On(next, mover, child_fp) => {
                    if let Some(&depth) = self.line.get(&child_fp) {
                        repeat = repeat.min(depth);
                        0
                    } else {
                        let flip = mover != seat;
                        let next = next.bind(py);
                        let window = |a: i32, b: i32| {
                            if flip {
                                (unlift(b, true), unlift(a, true))
                            } else {
                                (unlift(a, false), unlift(b, false))
                            }
                        };
                        // A null window after the first move, searched again when it
                        // finds the move better than the best so far.
                        let (a, b) = if n == 0 {
                            window(alpha, beta)
                        } else {
                            window(alpha, alpha + 1)
                        };
                        let (s, r, _) = self.value(next, mover, child_fp, ply + 1, a, b)?;
                        repeat = repeat.min(r);
                        let mut s = lift(s, flip);
                        if n > 0 && s > alpha && s < beta {
                            let (a, b) = window(s, beta);
                            let (again, r, _) = self.value(next, mover, child_fp, ply + 1, a, b)?;
                            repeat = repeat.min(r);
                            s = lift(again, flip);
                        }
                        s
                    }
                }
            };
            if score > best {
                best = score;
                best_move = i;
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        self.line.remove(&fp);
        if repeat >= ply {
            let low = if best > start_alpha { best } else { -WIN };
            let high = if best < beta { best } else { WIN };
            self.store(fp, low, high, best_move);
        }
        let repeat = if repeat >= ply { NONE } else { repeat };
        Ok((best, repeat, best_move))
    }

    /// The exact score of `state` for `seat`: first whether it wins, draws or loses by
    /// null windows around 0, then (with `soon`) how soon within that; the score of a
    /// win or loss whose distance is not asked is `WIN` or `-WIN`.
    fn exact(&mut self, state: &Bound<'_, PyAny>, seat: u32, fp: u128, soon: bool) -> PyResult<(i32, usize)> {
        let (s, _, best) = self.value(state, seat, fp, 0, 0, 1)?;
        let (alpha, beta) = if s >= 1 {
            if !soon {
                return Ok((WIN, best));
            }
            (0, WIN)
        } else {
            let (s, _, best) = self.value(state, seat, fp, 0, -1, 0)?;
            if s >= 0 {
                return Ok((0, best));
            }
            if !soon {
                return Ok((-WIN, best));
            }
            (-WIN, 0)
        };
        let (s, _, best) = self.value(state, seat, fp, 0, alpha, beta)?;
        Ok((s, best))
    }
}

#[pymethods]
impl Search {
    /// A search of the game whose methods are given (`key(state)` printing the position's
    /// key; `play` giving the state the game's states stand for; `over(state)`, when
    /// given, whether the game is over, `outcome` then asked only where it is), its table
    /// taking at most `memory` bytes (default 32 MiB).
    #[new]
    #[pyo3(signature = (to_move, moves, play, outcome, key, heuristic=None, memory=None, over=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        to_move: Py<PyAny>,
        moves: Py<PyAny>,
        play: Py<PyAny>,
        outcome: Py<PyAny>,
        key: Py<PyAny>,
        heuristic: Option<Py<PyAny>>,
        memory: Option<Whole>,
        over: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let bytes = memory.map_or(DEFAULT_TABLE, |Whole(b)| usize::try_from(b).unwrap_or(usize::MAX));
        let entries = (bytes / std::mem::size_of::<Entry>()).max(1);
        if entries < 1024 {
            return Err(PyValueError::new_err(format!(
                "memory: {bytes} bytes is too little for the search's table (at least {})",
                1024 * std::mem::size_of::<Entry>()
            )));
        }
        // A power of two, so that a fingerprint's low bits pick its slot.
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        // Zeroed memory from the system: pages are taken as the table fills.
        let table = vec![[0u64; 4]; entries];
        Ok(Search {
            to_move,
            moves,
            play,
            outcome,
            key,
            heuristic,
            over,
            table,
            line: HashMap::new(),
            searched: 0,
            deadline: None,
        })
    }

    /// The value of `state` for its seat to move: 1 (a win), 0 (a draw) or -1 (a loss),
    /// the moves to the end (`None` for a draw, or where `remoteness` is false and the
    /// game goes on) and the index of a best move among `moves(state)` (`None` where the
    /// game is over; without `remoteness`, a move keeping the value, not the quickest),
    /// within `seconds`.
    #[pyo3(signature = (state, seconds=None, remoteness=true))]
    fn solve(
        &mut self,
        state: &Bound<'_, PyAny>,
        seconds: Option<f64>,
        remoteness: bool,
    ) -> PyResult<(i32, Option<u32>, Option<usize>)> {
        let py = state.py();
        self.deadline = match seconds {
            Some(s) if !(s.is_finite() && s > 0.0) => {
                return Err(PyValueError::new_err(format!(
                    "seconds: {s} is not a positive number"
                )))
            }
            Some(s) => Some((Instant::now() + Duration::from_secs_f64(s.min(1e9)), s)),
            None => None,
        };
        let seat: u32 = self.to_move.bind(py).call1((state,))?.extract()?;
        let end = self.end(state)?;
        self.line.clear();
        let (score, best) = if end.is_none() {
            let fp = self.print(state, seat)?;
            let (s, best) = self.exact(state, seat, fp, remoteness)?;
            (s, Some(best))
        } else {
            (end_score(&end, seat, 0)?, None)
        };
        let value = score.signum();
        let known = score != 0 && (remoteness || best.is_none());
        Ok((value, known.then(|| (WIN - score.abs()) as u32), best))
    }

    /// The positions searched so far (repeats included).
    #[getter]
    fn searched(&self) -> u64 {
        self.searched
    }

    /// The entries the table holds.
    #[getter]
    fn table_size(&self) -> usize {
        self.table.len()
    }
}
