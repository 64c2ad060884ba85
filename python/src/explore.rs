//! Exploring a game of one's own at the floor: each position kept as a 128-bit
//! fingerprint of its key (no key objects), its text, seat, end and moves in flat arrays,
//! each distinct move's text once; positions handed over from Python in batches.
//!
//! A fingerprint is XXH3-128 of the key's value written out
//! by kind: whole numbers (and floats equal to one, and `bool`s) as numbers, texts and
//! bytes as they are, tuples item by item, frozensets as the sum of their items'
//! fingerprints (order does not matter), anything else by its text (`str`) once `hash`
//! says it is hashable. Keys that Python finds equal get one fingerprint; two positions
//! share one only by a 128-bit collision, about `n² / 2¹²⁹` for `n` positions (10⁻²³ at
//! 10⁸), and a sample of the states met again is checked against the first of their
//! fingerprint anyway (`_own.explore`).

use std::hash::{DefaultHasher, Hasher};

use rustc_hash::FxHashMap;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyFrozenSet, PyInt, PyList, PyString, PyTuple};
use zermelo::explicit::{End, NodeId};
use zermelo::PlayerId;

use crate::{build_graph, py_error, Extras, GridCell};

/// The least share of repeats checked, and the count of repeats below which all are.
const RATE: f64 = 1.0 / 256.0;
const FULL: f64 = 128.0;

/// End codes: going on, a draw, a seat's win (`WIN + seat`), points (`POINTS | index`),
/// or an outcome the library does not take (`ODD | index`), kept for the error message.
pub(crate) const GOING_ON: u32 = 0;
pub(crate) const DRAW: u32 = 1;
pub(crate) const WIN: u32 = 2;
pub(crate) const POINTS: u32 = 1 << 30;
const ODD: u32 = 1 << 31;

/// The 128-bit fingerprint of bytes.
fn digest(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// Moves met lately, by their address (each held, so that the address stays theirs),
/// with their text's index: most games give the same few move objects again and again.
const LATELY: usize = 64;

/// Writes `value` out by kind into `out` (see the module's comment); `lists` takes lists
/// too (moves may be lists, keys may not).
fn encode(value: &Bound<'_, PyAny>, out: &mut Vec<u8>, lists: bool) -> PyResult<()> {
    if let Ok(text) = value.cast_exact::<PyString>() {
        let text = text.to_cow()?;
        out.push(b's');
        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    } else if value.is_instance_of::<PyInt>() {
        match value.extract::<i64>() {
            Ok(n) => {
                out.push(b'i');
                out.extend_from_slice(&n.to_le_bytes());
            }
            Err(_) => {
                let text = value.str()?;
                let text = text.to_cow()?;
                out.push(b'I');
                out.extend_from_slice(&(text.len() as u64).to_le_bytes());
                out.extend_from_slice(text.as_bytes());
            }
        }
    } else if let Ok(tuple) = value.cast_exact::<PyTuple>() {
        out.push(b't');
        out.extend_from_slice(&(tuple.len() as u64).to_le_bytes());
        for item in tuple.iter() {
            encode(&item, out, lists)?;
        }
    } else if let (true, Ok(list)) = (lists, value.cast_exact::<PyList>()) {
        out.push(b'l');
        out.extend_from_slice(&(list.len() as u64).to_le_bytes());
        for item in list.iter() {
            encode(&item, out, lists)?;
        }
    } else if let Ok(bytes) = value.cast_exact::<PyBytes>() {
        out.push(b'b');
        out.extend_from_slice(&(bytes.as_bytes().len() as u64).to_le_bytes());
        out.extend_from_slice(bytes.as_bytes());
    } else if value.is_none() {
        out.push(b'n');
    } else if let Ok(float) = value.cast_exact::<PyFloat>() {
        let x = float.value();
        if x.fract() == 0.0 && x.abs() < 9.0e18 {
            out.push(b'i');
            out.extend_from_slice(&(x as i64).to_le_bytes());
        } else {
            out.push(b'f');
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    } else if let Ok(set) = value.cast_exact::<PyFrozenSet>() {
        let mut sum = 0u128;
        let mut item_out = Vec::new();
        for item in set.iter() {
            item_out.clear();
            encode(&item, &mut item_out, lists)?;
            sum = sum.wrapping_add(digest(&item_out));
        }
        out.push(b'z');
        out.extend_from_slice(&sum.to_le_bytes());
    } else {
        if !lists {
            value.hash()?; // an unhashable key is refused, as a dict would
        }
        let text = value.str()?;
        let text = text.to_cow()?;
        out.push(b'o');
        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    Ok(())
}

/// Writes `value`'s text (`str`) into `out` where it is a text (at the top), a whole
/// number, `None` or a tuple of these (Python's text of them, made here); `false`
/// (`out` as it was) for anything else.
fn spell(value: &Bound<'_, PyAny>, out: &mut String, top: bool) -> PyResult<bool> {
    use std::fmt::Write;
    let mark = out.len();
    if let (true, Ok(text)) = (top, value.cast_exact::<PyString>()) {
        out.push_str(&text.to_cow()?);
    } else if value.cast_exact::<PyInt>().is_ok() {
        match value.extract::<i64>() {
            Ok(n) => write!(out, "{n}").expect("a String takes any text"),
            Err(_) => return Ok(false),
        }
    } else if value.is_none() {
        out.push_str("None");
    } else if let Ok(tuple) = value.cast_exact::<PyTuple>() {
        out.push('(');
        for (i, item) in tuple.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if !spell(&item, out, false)? {
                out.truncate(mark);
                return Ok(false);
            }
        }
        out.push_str(if tuple.len() == 1 { ",)" } else { ")" });
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// Each distinct move's text, printed by the game's `move_text` the first time a move of
/// its fingerprint is met, and its index.
pub(crate) struct MoveTexts {
    /// The game's `move_text`.
    text: Py<PyAny>,
    pub(crate) texts: Vec<String>,
    /// Each text's fingerprint, and its index by it.
    pub(crate) prints: Vec<u128>,
    ids: FxHashMap<u128, u32>,
    lately: Vec<Option<(Py<PyAny>, u32)>>,
    scratch: Vec<u8>,
}

impl MoveTexts {
    pub(crate) fn new(text: Py<PyAny>) -> Self {
        MoveTexts {
            text,
            texts: Vec::new(),
            prints: Vec::new(),
            ids: FxHashMap::default(),
            lately: (0..LATELY).map(|_| None).collect(),
            scratch: Vec::new(),
        }
    }

    /// The index of a move's text, printed by `move_text` the first time it is met.
    pub(crate) fn label(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<u32> {
        let at = (mv.as_ptr() as usize >> 4) % LATELY;
        if let Some((held, l)) = &self.lately[at] {
            if held.as_ptr() == mv.as_ptr() {
                return Ok(*l);
            }
        }
        // Only values that cannot change are remembered by address.
        let fixed = mv.cast_exact::<PyString>().is_ok()
            || mv.cast_exact::<PyInt>().is_ok()
            || mv.cast_exact::<PyTuple>().is_ok();
        let l = self.label_of(mv)?;
        if fixed {
            self.lately[at] = Some((mv.clone().unbind(), l));
        }
        Ok(l)
    }

    /// The index of a move's text, by its fingerprint.
    fn label_of(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<u32> {
        let fp = fingerprint(mv, true, &mut self.scratch)?;
        if let Some(&l) = self.ids.get(&fp) {
            return Ok(l);
        }
        let printed = self.text.bind(mv.py()).call1((mv,))?;
        let text: String = printed.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "move_text({}) gave {}, not a text",
                mv.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                printed
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })?;
        Ok(self.add(fp, text))
    }

    /// A new move text of fingerprint `fp`: its index.
    pub(crate) fn add(&mut self, fp: u128, text: String) -> u32 {
        let l = self.texts.len() as u32;
        self.texts.push(text);
        self.prints.push(fp);
        self.ids.insert(fp, l);
        l
    }
}

/// The fingerprint of `value` (see `encode`), written out in `scratch`.
pub(crate) fn fingerprint(value: &Bound<'_, PyAny>, lists: bool, scratch: &mut Vec<u8>) -> PyResult<u128> {
    scratch.clear();
    encode(value, scratch, lists)?;
    Ok(digest(scratch))
}

/// Writes the text of `key` (Python's `str`) into `texts`.
pub(crate) fn key_text(key: &Bound<'_, PyAny>, texts: &mut String) -> PyResult<()> {
    if !spell(key, texts, true)? {
        texts.push_str(&key.str()?.to_cow()?);
    }
    Ok(())
}

/// What was handed over of a node: its seat to move, outcome, moves' texts and targets.
type Handed = (PlayerId, Py<PyAny>, Vec<String>, Vec<NodeId>);

/// An explored game graph, built a batch of positions at a time, node 0 the start.
#[pyclass(unsendable, module = "zermelo._native")]
pub struct Explorer {
    /// Each node's fingerprint.
    prints: Vec<u128>,
    /// An open-addressing table of node ids plus one (0: empty), at most half full.
    slots: Vec<u32>,
    /// Each node's key text, end to end, and where each ends.
    texts: String,
    text_ends: Vec<u32>,
    movers: Vec<PlayerId>,
    ends: Vec<u32>,
    points: Vec<Vec<i32>>,
    odd: Vec<Py<PyAny>>,
    /// Node `i`'s moves are edges `firsts[i]..firsts[i + 1]` (one more than the nodes
    /// whose moves are known).
    firsts: Vec<u32>,
    targets: Vec<NodeId>,
    labels: Vec<u32>,
    /// Each distinct move's text.
    move_texts: MoveTexts,
    /// Repeats met; how many to pass before the next checked (0: none checked).
    repeats: u64,
    skip: u64,
    rng: u64,
    /// Where in its batch the position was whose hand-over failed.
    #[pyo3(get)]
    failed_at: Option<usize>,
    scratch: Vec<u8>,
    /// The fingerprints of the keys of the batch handed over.
    batch_prints: Vec<u128>,
}

impl Explorer {
    /// The node of fingerprint `fp`, or the free slot where it goes.
    fn slot(&self, fp: u128) -> (usize, Option<NodeId>) {
        let mask = self.slots.len() - 1;
        let mut i = (fp as usize) & mask;
        loop {
            match self.slots[i] {
                0 => return (i, None),
                id if self.prints[id as usize - 1] == fp => return (i, Some(id - 1)),
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        for (id, &fp) in self.prints.iter().enumerate() {
            let mut i = (fp as usize) & (size - 1);
            while self.slots[i] != 0 {
                i = (i + 1) & (size - 1);
            }
            self.slots[i] = id as u32 + 1;
        }
    }

    fn print(&mut self, key: &Bound<'_, PyAny>, lists: bool) -> PyResult<u128> {
        fingerprint(key, lists, &mut self.scratch)
    }

    /// Adds the node of fingerprint `fp` if new, its key's text written by `write`: its
    /// id and whether it is new.
    fn add(&mut self, write: impl FnOnce(&mut String) -> PyResult<()>, fp: u128) -> PyResult<(NodeId, bool)> {
        let (slot, found) = self.slot(fp);
        if let Some(id) = found {
            return Ok((id, false));
        }
        let id = self.prints.len();
        if id >= u32::MAX as usize - 1 {
            return Err(PyValueError::new_err("a graph has fewer than 2^32 positions"));
        }
        write(&mut self.texts)?;
        if self.texts.len() > u32::MAX as usize {
            return Err(PyValueError::new_err("the positions' texts take more than 4 GiB"));
        }
        self.text_ends.push(self.texts.len() as u32);
        self.prints.push(fp);
        self.slots[slot] = id as u32 + 1;
        if 2 * self.prints.len() > self.slots.len() {
            self.grow();
        }
        Ok((id as NodeId, true))
    }

    fn end_code(&mut self, end: &Bound<'_, PyAny>) -> u32 {
        if end.is_none() {
            return GOING_ON;
        }
        if end.is_instance_of::<PyInt>() {
            if let Ok(seat) = end.extract::<PlayerId>() {
                return WIN + u32::from(seat);
            }
        } else if end
            .cast_exact::<PyString>()
            .is_ok_and(|t| t.to_cow().is_ok_and(|t| t == "draw"))
        {
            return DRAW;
        } else if let Ok(points) = end.extract::<Vec<i32>>() {
            self.points.push(points);
            return POINTS | (self.points.len() as u32 - 1);
        }
        self.odd.push(end.clone().unbind());
        ODD | (self.odd.len() as u32 - 1)
    }

    fn end_object(&self, py: Python<'_>, code: u32) -> PyResult<Py<PyAny>> {
        Ok(match code {
            GOING_ON => py.None(),
            DRAW => "draw".into_pyobject(py)?.into_any().unbind(),
            c if c & ODD != 0 => self.odd[(c & !ODD) as usize].clone_ref(py),
            c if c & POINTS != 0 => self.points[(c & !POINTS) as usize]
                .clone()
                .into_pyobject(py)?
                .into_any()
                .unbind(),
            c => (c - WIN).into_pyobject(py)?.into_any().unbind(),
        })
    }

    fn end_of(&self, code: u32) -> Result<Option<End>, String> {
        Ok(match code {
            GOING_ON => None,
            DRAW => Some(End::Draw),
            c if c & ODD != 0 => {
                return Err(format!(
                    "an outcome is a seat, \"draw\" or a list of points, not {}",
                    self.odd[(c & !ODD) as usize]
                ))
            }
            c if c & POINTS != 0 => Some(End::Points(self.points[(c & !POINTS) as usize].clone())),
            c => Some(End::Win((c - WIN) as PlayerId)),
        })
    }

    /// Repeats to pass before the next checked: a geometric gap for the chance
    /// `max(RATE, min(1, FULL / repeats))`, from a fixed seed.
    fn gap(&mut self) -> u64 {
        let p = RATE.max((FULL / self.repeats.max(1) as f64).min(1.0));
        if p >= 1.0 {
            return 1;
        }
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let u = (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64;
        1 + ((1.0 - u).ln() / (1.0 - p).ln()) as u64
    }

    /// Counts a repeat met: whether it is one to check.
    fn checks_repeat(&mut self) -> bool {
        self.repeats += 1;
        if self.skip == 0 {
            return false;
        }
        self.skip -= 1;
        if self.skip > 0 {
            return false;
        }
        self.skip = self.gap();
        true
    }

    /// Ends the node whose moves were just added: its seat to move and outcome.
    fn close(&mut self, mover: PlayerId, code: u32) -> PyResult<()> {
        if self.targets.len() >= u32::MAX as usize {
            return Err(PyValueError::new_err("a graph has fewer than 2^32 moves"));
        }
        self.movers.push(mover);
        self.ends.push(code);
        self.firsts.push(self.targets.len() as u32);
        Ok(())
    }

    /// Adds the node of key text `text` (fingerprint `fp`) if new: its id and whether it is new.
    fn add_text(&mut self, text: &str, fp: u128) -> PyResult<(NodeId, bool)> {
        self.add(
            |texts| {
                texts.push_str(text);
                Ok(())
            },
            fp,
        )
    }

    fn text_of(&self, node: usize) -> &str {
        let from = if node == 0 {
            0
        } else {
            self.text_ends[node - 1] as usize
        };
        &self.texts[from..self.text_ends[node] as usize]
    }
}

#[pymethods]
impl Explorer {
    /// An explorer from the start whose key is `key`, moves printed by `text`; with
    /// `checked`, a sample of the repeats is handed back to be checked.
    #[new]
    fn new(key: &Bound<'_, PyAny>, text: Py<PyAny>, checked: bool) -> PyResult<Self> {
        let mut e = Explorer {
            prints: Vec::new(),
            slots: vec![0; 1024],
            texts: String::new(),
            text_ends: Vec::new(),
            movers: Vec::new(),
            ends: Vec::new(),
            points: Vec::new(),
            odd: Vec::new(),
            firsts: vec![0],
            targets: Vec::new(),
            labels: Vec::new(),
            move_texts: MoveTexts::new(text),
            repeats: 0,
            skip: u64::from(checked),
            rng: 0x9E37_79B9_7F4A_7C15,
            failed_at: None,
            scratch: Vec::new(),
            batch_prints: Vec::new(),
        };
        let fp = e.print(key, false)?;
        e.add(|texts| key_text(key, texts), fp)?;
        Ok(e)
    }

    /// Hands over a batch of positions, those after the last handed over, in order:
    /// each one's seat to move, outcome and number of moves, and flat over all their
    /// moves, the key of the state each leads to and the move. Returns where (in the flat
    /// lists) the new positions are, in the order of their ids, and the repeats to check:
    /// (where, the node whose move it is, the node its key found).
    #[allow(clippy::type_complexity)]
    fn batch(
        &mut self,
        movers: Vec<PlayerId>,
        ends: &Bound<'_, PyList>,
        counts: Vec<usize>,
        keys: &Bound<'_, PyList>,
        moves: &Bound<'_, PyList>,
    ) -> PyResult<(Vec<usize>, Vec<(usize, NodeId, NodeId)>)> {
        let mut new = Vec::new();
        let mut checks = Vec::new();
        self.failed_at = None;
        // The keys' fingerprints first, then a look at where each goes in the table (the
        // loads independent, so the memory serves many at once), then the table itself.
        let mut prints = std::mem::take(&mut self.batch_prints);
        prints.clear();
        let (mut p, mut left) = (0, counts.first().copied().unwrap_or(0));
        for f in 0..keys.len() {
            while left == 0 && p + 1 < counts.len() {
                p += 1;
                left = counts[p];
            }
            left = left.saturating_sub(1);
            let fp = self
                .print(&keys.get_item(f)?, false)
                .inspect_err(|_| self.failed_at = Some(p))?;
            prints.push(fp);
        }
        let mask = self.slots.len() - 1;
        let mut seen = 0u128;
        for &fp in &prints {
            let id = self.slots[(fp as usize) & mask] as usize;
            seen ^= if id == 0 { 0 } else { self.prints[id - 1] };
        }
        std::hint::black_box(seen);
        let mut flat = 0;
        for (p, (&mover, &count)) in movers.iter().zip(&counts).enumerate() {
            let node = self.movers.len() as NodeId;
            let end = ends.get_item(p)?;
            let code = self.end_code(&end);
            for (f, &fp) in prints.iter().enumerate().skip(flat).take(count) {
                let step = (|| {
                    let (id, fresh) = self.add(|texts| key_text(&keys.get_item(f)?, texts), fp)?;
                    let label = self.move_texts.label(&moves.get_item(f)?)?;
                    Ok::<_, PyErr>((id, fresh, label))
                })();
                let (id, fresh, label) = step.inspect_err(|_| self.failed_at = Some(p))?;
                if fresh {
                    new.push(f);
                } else if self.checks_repeat() {
                    checks.push((f, node, id));
                }
                self.targets.push(id);
                self.labels.push(label);
            }
            flat += count;
            self.close(mover, code)?;
        }
        self.batch_prints = prints;
        Ok((new, checks))
    }

    /// Joins the positions that worker processes explored (`Packer`), those after the
    /// last joined, in the order of their ids: `order` names the worker of each, and
    /// `parts` holds each worker's share in that order: the seats to move, outcomes and
    /// numbers of moves, its `Packer.pack`ed children, and the moves' texts it sent.
    /// Returns each new position's (worker, index of the child among that worker's
    /// children), in the order of their ids, and the repeats to check: (worker, index
    /// of the child, the node whose move it is, the node its key found). Joined in this
    /// order, the graph is the one a single process explores, node for node.
    #[allow(clippy::type_complexity)]
    fn merge(
        &mut self,
        order: &[u8],
        parts: Vec<(
            Vec<PlayerId>,
            Bound<'_, PyList>,
            Vec<usize>,
            Bound<'_, PyBytes>,
            Vec<(u128, String)>,
        )>,
    ) -> PyResult<(Vec<(usize, usize)>, Vec<(usize, usize, NodeId, NodeId)>)> {
        let damaged = || PyValueError::new_err("a worker's explored positions are damaged");
        let mut new = Vec::new();
        let mut checks = Vec::new();
        let mut texts: FxHashMap<u128, &str> = FxHashMap::default();
        for (_, _, _, _, sent) in &parts {
            texts.extend(sent.iter().map(|(fp, t)| (*fp, t.as_str())));
        }
        // Per worker: its next position, its next child and where that child is in its bytes.
        let mut at = vec![(0usize, 0usize, 0usize); parts.len()];
        for &w in order {
            let w = usize::from(w);
            let (movers, ends, counts, blob, _) = parts.get(w).ok_or_else(damaged)?;
            let (p, child, cursor) = &mut at[w];
            let (mover, count) = (
                *movers.get(*p).ok_or_else(damaged)?,
                *counts.get(*p).ok_or_else(damaged)?,
            );
            let code = self.end_code(&ends.get_item(*p)?);
            let node = self.movers.len() as NodeId;
            let bytes = blob.as_bytes();
            for _ in 0..count {
                let (fp, mv, text, next) = unpacked(bytes, *cursor).ok_or_else(damaged)?;
                *cursor = next;
                let (id, fresh) = self.add_text(text, fp)?;
                let label = match self.move_texts.ids.get(&mv) {
                    Some(&l) => l,
                    None => {
                        let text = texts.get(&mv).ok_or_else(damaged)?;
                        self.move_texts.add(mv, text.to_string())
                    }
                };
                if fresh {
                    new.push((w, *child));
                } else if self.checks_repeat() {
                    checks.push((w, *child, node, id));
                }
                self.targets.push(id);
                self.labels.push(label);
                *child += 1;
            }
            *p += 1;
            self.close(mover, code)?;
        }
        Ok((new, checks))
    }

    /// The worker of each position from `from` on: its fingerprint's high half modulo
    /// `workers` (the table's slots use the low half).
    fn owners<'py>(&self, py: Python<'py>, from_: usize, workers: u8) -> Bound<'py, PyBytes> {
        let of = |fp: &u128| ((*fp >> 64) as u64 % u64::from(workers.max(1))) as u8;
        let owners: Vec<u8> = self
            .prints
            .get(from_..)
            .unwrap_or_default()
            .iter()
            .map(of)
            .collect();
        PyBytes::new(py, &owners)
    }

    /// How many positions were found.
    #[getter]
    fn positions(&self) -> usize {
        self.prints.len()
    }

    /// How many moves were handed over.
    #[getter]
    fn moves(&self) -> usize {
        self.targets.len()
    }

    /// The node of `key`, `None` where it was never met.
    fn find(&mut self, key: &Bound<'_, PyAny>) -> PyResult<Option<NodeId>> {
        let fp = self.print(key, false)?;
        Ok(self.slot(fp).1)
    }

    /// The key text of `node`.
    fn text(&self, node: usize) -> String {
        self.text_of(node).to_string()
    }

    /// What was handed over of `node`: its seat to move, outcome, moves' texts and targets.
    fn node(&self, py: Python<'_>, node: usize) -> PyResult<Handed> {
        let edges = self.firsts[node] as usize..self.firsts[node + 1] as usize;
        let labels = edges
            .clone()
            .map(|e| self.move_texts.texts[self.labels[e] as usize].clone())
            .collect();
        Ok((
            self.movers[node],
            self.end_object(py, self.ends[node])?,
            labels,
            self.targets[edges].to_vec(),
        ))
    }

    /// Every node's seat to move, as bytes.
    fn movers<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.movers)
    }

    /// The graph as flat lists (texts, movers, ends, firsts, targets, labels), each
    /// move's text one shared string.
    #[allow(clippy::type_complexity)]
    fn lists<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Vec<&str>,
        Vec<u32>,
        Vec<Py<PyAny>>,
        Vec<u32>,
        Vec<NodeId>,
        Vec<Py<PyString>>,
    )> {
        let known = self.movers.len();
        let texts = (0..known).map(|i| self.text_of(i)).collect();
        let ends = self
            .ends
            .iter()
            .map(|&c| self.end_object(py, c))
            .collect::<PyResult<_>>()?;
        let shared: Vec<Py<PyString>> = self
            .move_texts
            .texts
            .iter()
            .map(|t| PyString::new(py, t).unbind())
            .collect();
        let labels = self
            .labels
            .iter()
            .map(|&l| shared[l as usize].clone_ref(py))
            .collect();
        Ok((
            texts,
            self.movers.iter().map(|&m| u32::from(m)).collect(),
            ends,
            self.firsts.clone(),
            self.targets.clone(),
            labels,
        ))
    }

    /// Whether play can come back to a position: some nodes are left once those without
    /// moves into them are taken away, again and again.
    fn comes_back(&self) -> bool {
        let nodes = self.movers.len();
        let mut into = vec![0u32; nodes];
        for &t in &self.targets {
            into[t as usize] += 1;
        }
        let mut ready: Vec<usize> = (0..nodes).filter(|&i| into[i] == 0).collect();
        let mut taken = 0;
        while let Some(node) = ready.pop() {
            taken += 1;
            for &t in &self.targets[self.firsts[node] as usize..self.firsts[node + 1] as usize] {
                into[t as usize] -= 1;
                if into[t as usize] == 0 {
                    ready.push(t as usize);
                }
            }
        }
        taken < nodes
    }

    /// A short hash of the graph: what names it when it is not saved.
    fn identity(&self) -> String {
        let mut h = DefaultHasher::new();
        h.write(self.texts.as_bytes());
        for list in [&self.firsts, &self.targets, &self.labels, &self.ends] {
            for &x in list.iter() {
                h.write_u32(x);
            }
        }
        h.write(&self.movers);
        for t in &self.move_texts.texts {
            h.write(t.as_bytes());
            h.write_u8(0);
        }
        format!("{:08x}", h.finish() as u32)
    }

    /// Bytes held: the fingerprints, table, texts and arrays (what exploring keeps of
    /// the positions and moves).
    fn held_bytes(&self) -> usize {
        16 * self.prints.capacity()
            + 4 * self.slots.capacity()
            + self.texts.capacity()
            + 4 * self.text_ends.capacity()
            + self.movers.capacity()
            + 4 * (self.ends.capacity()
                + self.firsts.capacity()
                + self.targets.capacity()
                + self.labels.capacity())
    }

    /// Installs the graph under `name` (see `install_graph`);
    /// with `board_from_key`, a node's board is its key text after the first `:`.
    #[pyo3(signature = (name, seat_names=None, version=None, boards=None, heuristics=None, pictures=None, board_from_key=false))]
    #[allow(clippy::too_many_arguments)]
    fn install(
        &mut self,
        py: Python<'_>,
        name: &str,
        seat_names: Option<Vec<String>>,
        version: Option<String>,
        boards: Option<Vec<String>>,
        heuristics: Option<Vec<i32>>,
        pictures: Option<Vec<Vec<Vec<GridCell>>>>,
        board_from_key: bool,
    ) -> PyResult<String> {
        let nodes = self.movers.len();
        let extras = Extras {
            seat_names,
            version,
            boards,
            heuristics,
            pictures,
            board_from_key,
        };
        if nodes != self.prints.len() || !extras.fits(nodes) {
            return Err(PyValueError::new_err(
                "an explored graph's positions and its boards, heuristics and pictures disagree",
            ));
        }
        let ends = self
            .ends
            .iter()
            .map(|&c| self.end_of(c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let this = &*self;
        py.detach(|| {
            build_graph(
                name,
                extras,
                &this.movers,
                ends,
                |node| this.text_of(node),
                &this.firsts,
                |e| (this.targets[e], &this.move_texts.texts[this.labels[e] as usize]),
            )
        })
        .map_err(py_error)
    }
}

/// One child as `Packer.pack` writes it: its key's fingerprint, its move's fingerprint and
/// its key's text; and where the next child starts.
fn unpacked(bytes: &[u8], at: usize) -> Option<(u128, u128, &str, usize)> {
    let word = |from: usize| Some(u128::from_le_bytes(bytes.get(from..from + 16)?.try_into().ok()?));
    let (fp, mv) = (word(at)?, word(at + 16)?);
    let len = u32::from_le_bytes(bytes.get(at + 32..at + 36)?.try_into().ok()?) as usize;
    let text = std::str::from_utf8(bytes.get(at + 36..at + 36 + len)?).ok()?;
    Some((fp, mv, text, at + 36 + len))
}

/// A worker process's side of exploring on several processes: the children of the
/// positions it explored packed for `Explorer.merge`, each move's text sent once.
#[pyclass(unsendable, module = "zermelo._native")]
pub struct Packer {
    move_texts: MoveTexts,
    /// How many of the moves' texts were sent.
    sent: usize,
    scratch: Vec<u8>,
    text: String,
    /// Where among the children the one whose packing failed is.
    #[pyo3(get)]
    failed_at: Option<usize>,
}

#[pymethods]
impl Packer {
    /// A packer of children whose moves are printed by `text`.
    #[new]
    fn new(text: Py<PyAny>) -> Self {
        Packer {
            move_texts: MoveTexts::new(text),
            sent: 0,
            scratch: Vec::new(),
            text: String::new(),
            failed_at: None,
        }
    }

    /// Packs children, each by its key and the move leading to it: the bytes, and the
    /// moves' texts not sent before, by their fingerprints.
    #[allow(clippy::type_complexity)]
    fn pack<'py>(
        &mut self,
        py: Python<'py>,
        keys: &Bound<'py, PyList>,
        moves: &Bound<'py, PyList>,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<(u128, String)>)> {
        if keys.len() != moves.len() {
            return Err(PyValueError::new_err("one key per move"));
        }
        self.failed_at = None;
        let mut out = Vec::with_capacity(keys.len() * 52);
        for (i, (key, mv)) in keys.iter().zip(moves.iter()).enumerate() {
            let mut step = || {
                let fp = fingerprint(&key, false, &mut self.scratch)?;
                let label = self.move_texts.label(&mv)?;
                self.text.clear();
                key_text(&key, &mut self.text)?;
                Ok::<_, PyErr>((fp, label))
            };
            let (fp, label) = step().inspect_err(|_| self.failed_at = Some(i))?;
            out.extend_from_slice(&fp.to_le_bytes());
            out.extend_from_slice(&self.move_texts.prints[label as usize].to_le_bytes());
            let len = u32::try_from(self.text.len())
                .map_err(|_| PyValueError::new_err("a key's text takes more than 4 GiB"))?;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(self.text.as_bytes());
        }
        let texts = &self.move_texts;
        let new = (self.sent..texts.texts.len())
            .map(|l| (texts.prints[l], texts.texts[l].clone()))
            .collect();
        self.sent = texts.texts.len();
        Ok((PyBytes::new(py, &out), new))
    }
}
