//! Exploring a game of one's own past its memory budget, in a folder on disk: the
//! positions' fingerprints (as `explore` makes them) found lately in a table in memory,
//! the older ones in sorted runs on disk (20 bytes each: fingerprint and node id), each
//! run with a Bloom filter in memory (10 bits a position) and looked up by binary search
//! through a memory map, runs of like size merged as they come (so a few runs, as in
//! external-memory breadth-first search). Once a run exists, a child whose fingerprint is
//! not in the table waits: a batch of them is sorted and looked up in the runs at once,
//! and those found nowhere become new positions, numbered in the order they were met.
//! Every explored position's seat, outcome and moves (target id and move text index, 8
//! bytes a move) are appended to files as they are known; a checkpoint (`commit`)
//! records the files' lengths, so that exploring resumes from it after a stop. The graph
//! is installed from the files, read through memory maps.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString};
use rustc_hash::FxHashMap;
use serde_json::{json, Value};
use zermelo::explicit::{End, NodeId};
use zermelo::PlayerId;

use crate::explore::{fingerprint, key_text, MoveTexts, DRAW, GOING_ON, POINTS, WIN};
use crate::{build_graph, py_error, Extras};

/// Bytes of a run's record: a fingerprint and a node id.
const RECORD: usize = 20;
/// Bloom filter bits per position of a run, and probes per look-up (about 1 % false hits).
const BLOOM_BITS: usize = 10;
const PROBES: u64 = 7;
/// Bytes a table entry takes (fingerprint, id and the map's control byte, rounded up).
const ENTRY: usize = 33;
/// Children waiting to be looked up, or moves held, past which a settle is due.
const WAITING: usize = 1 << 16;
const HELD: usize = 1 << 20;

/// The files of a spilled graph, by their index in `Spill::files`: each node's
/// fingerprint (16 bytes, in id order), key text and where it ends (8 bytes), and of each
/// explored node its seat (1), end code (4) and first move (4); each move (8); points of
/// ends with points (their count, then each 4 bytes).
const FILES: [&str; 7] = [
    "prints",
    "texts",
    "text_ends",
    "movers",
    "ends",
    "firsts",
    "edges",
];
const PRINTS: usize = 0;
const TEXTS: usize = 1;
const TEXT_ENDS: usize = 2;
const MOVERS: usize = 3;
const ENDS: usize = 4;
const FIRSTS: usize = 5;
const EDGES: usize = 6;
const POINTS_FILE: &str = "points";

fn io(what: &str, e: std::io::Error) -> PyErr {
    PyOSError::new_err(format!("spilled graph: {what}: {e}"))
}

fn damaged(what: &str) -> PyErr {
    PyValueError::new_err(format!(
        "the spilled graph is damaged ({what}): delete its folder to explore again"
    ))
}

/// A file appended to, with the bytes written so far.
struct Out {
    file: BufWriter<File>,
    len: u64,
}

impl Out {
    fn open(path: &Path, len: Option<u64>) -> PyResult<Out> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io("open", e))?;
        let len = match len {
            Some(len) => {
                file.set_len(len).map_err(|e| io("truncate", e))?;
                len
            }
            None => {
                file.set_len(0).map_err(|e| io("truncate", e))?;
                0
            }
        };
        Ok(Out {
            file: BufWriter::with_capacity(1 << 16, file),
            len,
        })
    }

    fn put(&mut self, bytes: &[u8]) -> PyResult<()> {
        self.file.write_all(bytes).map_err(|e| io("write", e))?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    fn sync(&mut self) -> PyResult<()> {
        self.file.flush().map_err(|e| io("write", e))?;
        self.file.get_ref().sync_data().map_err(|e| io("sync", e))
    }
}

/// A sorted run of (fingerprint, id) records on disk, with its Bloom filter.
struct Run {
    name: String,
    map: Mmap,
    bloom: Vec<u64>,
}

fn probe(fp: u128, i: u64, bits: usize) -> usize {
    let (h1, h2) = ((fp >> 64) as u64, (fp as u64) | 1);
    (h1.wrapping_add(i.wrapping_mul(h2)) % bits as u64) as usize
}

fn record(bytes: &[u8], i: usize) -> (u128, NodeId) {
    let at = i * RECORD;
    let fp = u128::from_le_bytes(bytes[at..at + 16].try_into().expect("16 bytes"));
    let id = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().expect("4 bytes"));
    (fp, id)
}

impl Run {
    /// Opens the run `name` of `folder`, its filter made from its records.
    fn open(folder: &Path, name: String) -> PyResult<Run> {
        let file = File::open(folder.join(&name)).map_err(|e| io("open a run", e))?;
        // SAFETY: the run is this process's own file, written whole before it is mapped
        // and never changed after; a file changed under the map by another program is
        // outside what the folder promises.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io("map a run", e))?;
        if map.len() % RECORD != 0 {
            return Err(damaged("a run's length"));
        }
        let len = map.len() / RECORD;
        let bits = (len * BLOOM_BITS).max(64).next_multiple_of(64);
        let mut bloom = vec![0u64; bits / 64];
        for i in 0..len {
            let (fp, _) = record(&map, i);
            for p in 0..PROBES {
                let b = probe(fp, p, bits);
                bloom[b / 64] |= 1 << (b % 64);
            }
        }
        Ok(Run { name, map, bloom })
    }

    fn len(&self) -> usize {
        self.map.len() / RECORD
    }

    /// The id of `fp`, when this run holds it.
    fn find(&self, fp: u128) -> Option<NodeId> {
        let bits = self.bloom.len() * 64;
        for p in 0..PROBES {
            let b = probe(fp, p, bits);
            if self.bloom[b / 64] & (1 << (b % 64)) == 0 {
                return None;
            }
        }
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (at, id) = record(&self.map, mid);
            match at.cmp(&fp) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(id),
            }
        }
        None
    }
}

/// Writes sorted records as the run `name` of `folder`, synced.
fn write_run(folder: &Path, name: &str, records: impl Iterator<Item = (u128, NodeId)>) -> PyResult<()> {
    let file = File::create(folder.join(name)).map_err(|e| io("write a run", e))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    for (fp, id) in records {
        out.write_all(&fp.to_le_bytes())
            .map_err(|e| io("write a run", e))?;
        out.write_all(&id.to_le_bytes())
            .map_err(|e| io("write a run", e))?;
    }
    let file = out.into_inner().map_err(|e| io("write a run", e.into_error()))?;
    file.sync_all().map_err(|e| io("sync a run", e))
}

/// A game graph explored into a folder, node 0 the start (see the module).
#[pyclass(unsendable, module = "zermelo._native")]
pub struct Spill {
    folder: PathBuf,
    /// The bytes the table may take before its older part goes to a run.
    budget: usize,
    /// The fingerprints of the nodes from `spilled` on, with their ids.
    table: FxHashMap<u128, NodeId>,
    spilled: NodeId,
    runs: Vec<Run>,
    /// Runs merged into others, deleted at the next checkpoint (the last names them).
    stale: Vec<String>,
    next_run: u64,
    /// Nodes numbered, and explored (their moves known), in id order.
    #[pyo3(get)]
    created: NodeId,
    #[pyo3(get)]
    processed: NodeId,
    #[pyo3(get)]
    edges: u64,
    files: Vec<Out>,
    points: Out,
    /// How many ends with points were written.
    point_records: u32,
    /// Moves of explored nodes not yet written: target (or waiting child's index) and label.
    held: Vec<(NodeId, u32)>,
    /// Which of `held` wait for a child's look-up, and which child.
    holes: Vec<(usize, u32)>,
    /// Children waiting to be looked up in the runs: fingerprint, index, key text.
    pending: FxHashMap<u128, u32>,
    waiting: Vec<u128>,
    waiting_texts: String,
    waiting_ends: Vec<usize>,
    move_texts: MoveTexts,
    /// The frontier file named by the last checkpoint ("" when none), and whether
    /// exploring had finished there.
    #[pyo3(get)]
    frontier: String,
    #[pyo3(get)]
    done: bool,
    /// Where in its batch the position was whose hand-over failed.
    #[pyo3(get)]
    failed_at: Option<usize>,
    scratch: Vec<u8>,
    text: String,
}

impl Spill {
    fn state_path(&self) -> PathBuf {
        self.folder.join("state.json")
    }

    /// Numbers a new node of fingerprint `fp` and key text `text`.
    fn create(&mut self, fp: u128, text: &str) -> PyResult<NodeId> {
        let id = self.created;
        if id >= u32::MAX - 1 {
            return Err(PyValueError::new_err("a graph has fewer than 2^32 positions"));
        }
        self.files[PRINTS].put(&fp.to_le_bytes())?;
        self.files[TEXTS].put(text.as_bytes())?;
        let end = self.files[TEXTS].len;
        self.files[TEXT_ENDS].put(&end.to_le_bytes())?;
        self.table.insert(fp, id);
        self.created += 1;
        Ok(id)
    }

    fn end_code(&mut self, end: &Bound<'_, PyAny>) -> PyResult<u32> {
        if end.is_none() {
            return Ok(GOING_ON);
        }
        if end.is_instance_of::<PyInt>() {
            if let Ok(seat) = end.extract::<PlayerId>() {
                return Ok(WIN + u32::from(seat));
            }
        } else if end
            .cast_exact::<PyString>()
            .is_ok_and(|t| t.to_cow().is_ok_and(|t| t == "draw"))
        {
            return Ok(DRAW);
        } else if let Ok(points) = end.extract::<Vec<i32>>() {
            let index = self.point_records;
            self.point_records += 1;
            self.points.put(&(points.len() as u32).to_le_bytes())?;
            for p in points {
                self.points.put(&p.to_le_bytes())?;
            }
            return Ok(POINTS | index);
        }
        Err(PyValueError::new_err(format!(
            "an outcome is a seat, \"draw\" or a list of points, not {end}"
        )))
    }

    /// Writes the held moves (none waiting) to their file.
    fn write_held(&mut self) -> PyResult<()> {
        let mut bytes = Vec::with_capacity(self.held.len() * 8);
        for &(target, label) in &self.held {
            bytes.extend_from_slice(&target.to_le_bytes());
            bytes.extend_from_slice(&label.to_le_bytes());
        }
        self.files[EDGES].put(&bytes)?;
        self.held.clear();
        Ok(())
    }

    /// Puts the table's explored nodes in a run when it takes more than the budget,
    /// merging the last runs while the newer is at least half the older.
    fn spill_over(&mut self) -> PyResult<()> {
        if !self.over() {
            return Ok(());
        }
        let keep = self.processed;
        let mut out: Vec<(u128, NodeId)> = self
            .table
            .iter()
            .filter(|&(_, &id)| id < keep)
            .map(|(&fp, &id)| (fp, id))
            .collect();
        if out.is_empty() {
            return Ok(());
        }
        out.sort_unstable();
        let name = format!("run-{}", self.next_run);
        self.next_run += 1;
        write_run(&self.folder, &name, out.into_iter())?;
        self.runs.push(Run::open(&self.folder, name)?);
        self.table.retain(|_, id| *id >= keep);
        self.table.shrink_to_fit();
        self.spilled = keep;
        while self.runs.len() >= 2
            && 2 * self.runs[self.runs.len() - 1].len() >= self.runs[self.runs.len() - 2].len()
        {
            let (b, a) = (
                self.runs.pop().expect("two runs"),
                self.runs.pop().expect("two runs"),
            );
            let name = format!("run-{}", self.next_run);
            self.next_run += 1;
            write_run(&self.folder, &name, Merged::new(&a, &b))?;
            self.stale.extend([a.name, b.name]);
            self.runs.push(Run::open(&self.folder, name)?);
        }
        Ok(())
    }

    /// Whether the table is past its budget with at least half of it explored (the
    /// rest, the nodes waiting to be explored, stays in memory).
    fn over(&self) -> bool {
        self.table_bytes() > self.budget && 2 * (self.processed - self.spilled) as usize >= self.table.len()
    }

    fn table_bytes(&self) -> usize {
        self.table.capacity() * ENTRY
    }
}

/// Two runs' records in order.
struct Merged<'a> {
    a: &'a Run,
    b: &'a Run,
    i: usize,
    j: usize,
}

impl<'a> Merged<'a> {
    fn new(a: &'a Run, b: &'a Run) -> Self {
        Merged { a, b, i: 0, j: 0 }
    }
}

impl Iterator for Merged<'_> {
    type Item = (u128, NodeId);
    fn next(&mut self) -> Option<Self::Item> {
        let x = (self.i < self.a.len()).then(|| record(&self.a.map, self.i));
        let y = (self.j < self.b.len()).then(|| record(&self.b.map, self.j));
        match (x, y) {
            (Some(x), Some(y)) if x.0 <= y.0 => {
                self.i += 1;
                Some(x)
            }
            (_, Some(y)) => {
                self.j += 1;
                Some(y)
            }
            (Some(x), None) => {
                self.i += 1;
                Some(x)
            }
            (None, None) => None,
        }
    }
}

/// Reads a little-endian number of `N` bytes at record `i` of `bytes`.
fn word<const N: usize>(bytes: &[u8], i: usize) -> [u8; N] {
    bytes[i * N..i * N + N].try_into().expect("N bytes")
}

/// The points of every end with points written to `folder`.
fn read_points(folder: &Path) -> PyResult<Vec<Vec<i32>>> {
    let bytes = fs::read(folder.join(POINTS_FILE)).map_err(|e| io("read points", e))?;
    let mut points = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let count = bytes.get(at..at + 4).ok_or_else(|| damaged("points"))?;
        let count = u32::from_le_bytes(word(count, 0)) as usize;
        let values = bytes
            .get(at + 4..at + 4 + 4 * count)
            .ok_or_else(|| damaged("points"))?;
        points.push((0..count).map(|i| i32::from_le_bytes(word(values, i))).collect());
        at += 4 + 4 * count;
    }
    Ok(points)
}

fn mapped(path: &Path) -> PyResult<Mmap> {
    let file = File::open(path).map_err(|e| io("open", e))?;
    // SAFETY: see `Run::open`: the folder's files are this process's own, not changed
    // while mapped.
    unsafe { Mmap::map(&file) }.map_err(|e| io("map", e))
}

#[pymethods]
impl Spill {
    /// Exploring into `folder`, the table in memory kept within `budget` bytes: resumed
    /// from the folder's last checkpoint when it has one (`frontier` then names the file
    /// of the states left to explore, `done` says whether none were), else from the
    /// start whose key is `key`, moves printed by `text`.
    #[new]
    fn new(folder: PathBuf, budget: usize, key: &Bound<'_, PyAny>, text: Py<PyAny>) -> PyResult<Self> {
        fs::create_dir_all(&folder).map_err(|e| io("create the folder", e))?;
        let saved = fs::read(folder.join("state.json"))
            .ok()
            .map(|b| serde_json::from_slice::<Value>(&b).map_err(|_| damaged("state.json")))
            .transpose()?;
        let length = |name: &str| saved.as_ref().map(|s| s["lengths"][name].as_u64().unwrap_or(0));
        let files = FILES
            .iter()
            .map(|name| Out::open(&folder.join(name), length(name)))
            .collect::<PyResult<Vec<_>>>()?;
        let points = Out::open(&folder.join(POINTS_FILE), length(POINTS_FILE))?;
        let mut spill = Spill {
            folder,
            budget,
            table: FxHashMap::default(),
            spilled: 0,
            runs: Vec::new(),
            stale: Vec::new(),
            next_run: 0,
            created: 0,
            processed: 0,
            edges: 0,
            files,
            points,
            point_records: 0,
            held: Vec::new(),
            holes: Vec::new(),
            pending: FxHashMap::default(),
            waiting: Vec::new(),
            waiting_texts: String::new(),
            waiting_ends: Vec::new(),
            move_texts: MoveTexts::new(text),
            frontier: String::new(),
            done: false,
            failed_at: None,
            scratch: Vec::new(),
            text: String::new(),
        };
        let Some(state) = saved else {
            let fp = fingerprint(key, false, &mut spill.scratch)?;
            let mut text = String::new();
            key_text(key, &mut text)?;
            spill.create(fp, &text)?;
            return Ok(spill);
        };
        let number = |name: &str| state[name].as_u64().ok_or_else(|| damaged(name));
        spill.created = number("created")? as NodeId;
        spill.processed = number("processed")? as NodeId;
        spill.spilled = number("spilled")? as NodeId;
        spill.edges = number("edges")?;
        spill.next_run = number("next_run")?;
        spill.done = state["done"].as_bool().unwrap_or(false);
        spill.frontier = state["frontier"].as_str().unwrap_or_default().to_string();
        for run in state["runs"].as_array().ok_or_else(|| damaged("runs"))? {
            let name = run.as_str().ok_or_else(|| damaged("runs"))?.to_string();
            spill.runs.push(Run::open(&spill.folder, name)?);
        }
        for pair in state["moves"].as_array().ok_or_else(|| damaged("moves"))? {
            let fp = pair[0]
                .as_str()
                .and_then(|h| u128::from_str_radix(h, 16).ok())
                .ok_or_else(|| damaged("moves"))?;
            let text = pair[1].as_str().ok_or_else(|| damaged("moves"))?;
            spill.move_texts.add(fp, text.to_string());
        }
        spill.point_records = read_points(&spill.folder)?.len() as u32;
        let prints = mapped(&spill.folder.join(FILES[PRINTS]))?;
        if prints.len() != 16 * spill.created as usize || spill.spilled > spill.created {
            return Err(damaged("prints"));
        }
        for id in spill.spilled..spill.created {
            spill
                .table
                .insert(u128::from_le_bytes(word(&prints, id as usize)), id);
        }
        Ok(spill)
    }

    /// Hands over a batch of positions, those after the last explored, in order: each
    /// one's seat to move, outcome and number of moves, and flat over all their moves
    /// the key of the state each leads to and the move. Returns where (in the flat lists)
    /// the new positions are, in the order of their ids, and the children that wait to
    /// be looked up (`settle`), in the order of their index there.
    #[allow(clippy::type_complexity)]
    fn batch(
        &mut self,
        movers: Vec<PlayerId>,
        ends: &Bound<'_, PyList>,
        counts: Vec<usize>,
        keys: &Bound<'_, PyList>,
        moves: &Bound<'_, PyList>,
    ) -> PyResult<(Vec<usize>, Vec<usize>)> {
        let mut new = Vec::new();
        let mut waits = Vec::new();
        self.failed_at = None;
        let mut f = 0;
        for (p, (&mover, &count)) in movers.iter().zip(&counts).enumerate() {
            if self.processed >= self.created {
                return Err(PyValueError::new_err("more positions handed over than found"));
            }
            let code = self
                .end_code(&ends.get_item(p)?)
                .inspect_err(|_| self.failed_at = Some(p))?;
            let first = u32::try_from(self.edges)
                .map_err(|_| PyValueError::new_err("a graph has fewer than 2^32 moves"))?;
            for f in f..f + count {
                let mut step = || {
                    let key = keys.get_item(f)?;
                    let fp = fingerprint(&key, false, &mut self.scratch)?;
                    let label = self.move_texts.label(&moves.get_item(f)?)?;
                    if let Some(&id) = self.table.get(&fp) {
                        self.held.push((id, label));
                        return Ok::<_, PyErr>(());
                    }
                    self.text.clear();
                    key_text(&key, &mut self.text)?;
                    if self.runs.is_empty() {
                        let text = std::mem::take(&mut self.text);
                        let id = self.create(fp, &text);
                        self.text = text;
                        self.held.push((id?, label));
                        new.push(f);
                        return Ok(());
                    }
                    let w = match self.pending.get(&fp) {
                        Some(&w) => w,
                        None => {
                            let w = self.waiting.len() as u32;
                            self.pending.insert(fp, w);
                            self.waiting.push(fp);
                            self.waiting_texts.push_str(&self.text);
                            self.waiting_ends.push(self.waiting_texts.len());
                            waits.push(f);
                            w
                        }
                    };
                    self.holes.push((self.held.len(), w));
                    self.held.push((0, label));
                    Ok(())
                };
                step().inspect_err(|_| self.failed_at = Some(p))?;
                self.edges += 1;
            }
            f += count;
            self.files[MOVERS].put(&[mover])?;
            self.files[ENDS].put(&code.to_le_bytes())?;
            self.files[FIRSTS].put(&first.to_le_bytes())?;
            self.processed += 1;
        }
        Ok((new, waits))
    }

    /// Whether children wait, or moves are held, enough to `settle` now, or the table
    /// is past its budget.
    #[getter]
    fn due(&self) -> bool {
        self.waiting.len() >= WAITING || self.held.len() >= HELD || self.over()
    }

    /// How many children wait to be looked up.
    #[getter]
    fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Looks the waiting children up in the runs (sorted, so that the look-ups go
    /// through each run in order), numbers those found nowhere, writes the held moves and
    /// spills the table past the budget. Returns the waiting children that are new
    /// positions (their index among the waiting), in the order of their ids.
    fn settle(&mut self, py: Python<'_>) -> PyResult<Vec<usize>> {
        let mut order: Vec<u32> = (0..self.waiting.len() as u32).collect();
        let waiting = &self.waiting;
        order.sort_unstable_by_key(|&w| waiting[w as usize]);
        let mut found: Vec<Option<NodeId>> = vec![None; waiting.len()];
        let runs = &self.runs;
        py.detach(|| {
            for run in runs.iter().rev() {
                for &w in &order {
                    if found[w as usize].is_none() {
                        found[w as usize] = run.find(waiting[w as usize]);
                    }
                }
            }
        });
        let mut new = Vec::new();
        let texts = std::mem::take(&mut self.waiting_texts);
        for w in 0..self.waiting.len() {
            if found[w].is_none() {
                let from = if w == 0 { 0 } else { self.waiting_ends[w - 1] };
                found[w] = Some(self.create(self.waiting[w], &texts[from..self.waiting_ends[w]])?);
                new.push(w);
            }
        }
        for &(h, w) in &self.holes {
            self.held[h].0 = found[w as usize].expect("every waiting child found or numbered");
        }
        self.holes.clear();
        self.pending.clear();
        self.waiting.clear();
        self.waiting_ends.clear();
        self.waiting_texts = texts;
        self.waiting_texts.clear();
        self.write_held()?;
        self.spill_over()?;
        Ok(new)
    }

    /// Records a checkpoint (nothing waiting): the files synced and their lengths, the
    /// runs and the moves' texts in `state.json`, with the file `frontier` of the states
    /// left to explore (written by the caller) and whether exploring is `done`; runs
    /// merged since the last checkpoint are deleted.
    fn commit(&mut self, frontier: String, done: bool) -> PyResult<()> {
        if !self.waiting.is_empty() {
            return Err(PyValueError::new_err("a checkpoint with children waiting"));
        }
        self.write_held()?;
        let mut lengths = serde_json::Map::new();
        for (name, out) in FILES.iter().zip(&mut self.files) {
            out.sync()?;
            lengths.insert(name.to_string(), json!(out.len));
        }
        self.points.sync()?;
        lengths.insert(POINTS_FILE.into(), json!(self.points.len));
        let moves: Vec<Value> = (self.move_texts.prints.iter().zip(&self.move_texts.texts))
            .map(|(fp, t)| json!([format!("{fp:032x}"), t]))
            .collect();
        let state = json!({
            "created": self.created,
            "processed": self.processed,
            "spilled": self.spilled,
            "edges": self.edges,
            "next_run": self.next_run,
            "runs": self.runs.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
            "moves": moves,
            "lengths": lengths,
            "frontier": frontier,
            "done": done,
        });
        let temp = self.folder.join("state.json.new");
        let mut file = File::create(&temp).map_err(|e| io("write state.json", e))?;
        file.write_all(state.to_string().as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| io("write state.json", e))?;
        fs::rename(&temp, self.state_path()).map_err(|e| io("write state.json", e))?;
        for name in self.stale.drain(..) {
            let _ = fs::remove_file(self.folder.join(name));
        }
        self.frontier = frontier;
        self.done = done;
        Ok(())
    }

    /// Bytes held in memory: the table, the runs' filters, what waits and is held.
    fn held_bytes(&self) -> usize {
        self.table_bytes()
            + self.runs.iter().map(|r| 8 * r.bloom.len()).sum::<usize>()
            + 8 * self.held.capacity()
            + 16 * self.holes.capacity()
            + (16 + 8) * self.waiting.capacity()
            + ENTRY * self.pending.capacity()
            + self.waiting_texts.capacity()
    }

    /// Bytes on disk: the files and runs.
    fn disk_bytes(&self) -> u64 {
        self.files.iter().map(|o| o.len).sum::<u64>()
            + self.points.len
            + self.runs.iter().map(|r| r.map.len() as u64).sum::<u64>()
    }

    /// How many runs are on disk.
    #[getter]
    fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Installs the explored graph (every node explored, nothing waiting) under `name`,
    /// read from the folder's files through memory maps (see `install_graph`).
    #[pyo3(signature = (name, seat_names=None, version=None))]
    fn install(
        &mut self,
        py: Python<'_>,
        name: &str,
        seat_names: Option<Vec<String>>,
        version: Option<String>,
    ) -> PyResult<String> {
        if self.processed != self.created || !self.waiting.is_empty() {
            return Err(PyValueError::new_err(
                "the spilled graph is not explored to its end",
            ));
        }
        self.write_held()?;
        for out in &mut self.files {
            out.file.flush().map_err(|e| io("write", e))?;
        }
        self.points.file.flush().map_err(|e| io("write", e))?;
        let at = |i: usize| mapped(&self.folder.join(FILES[i]));
        let (texts, text_ends, movers, ends, firsts, edges) = (
            at(TEXTS)?,
            at(TEXT_ENDS)?,
            at(MOVERS)?,
            at(ENDS)?,
            at(FIRSTS)?,
            at(EDGES)?,
        );
        let n = self.created as usize;
        if movers.len() != n
            || ends.len() != 4 * n
            || firsts.len() != 4 * n
            || text_ends.len() != 8 * n
            || edges.len() as u64 != 8 * self.edges
        {
            return Err(damaged("lengths"));
        }
        let texts = std::str::from_utf8(&texts).map_err(|_| damaged("texts"))?;
        let points = read_points(&self.folder)?;
        let mut first: Vec<u32> = (0..n).map(|i| u32::from_le_bytes(word(&firsts, i))).collect();
        first.push(self.edges as u32);
        let lost_points = (0..n).any(|i| {
            let c = u32::from_le_bytes(word(&ends, i));
            c & POINTS != 0 && (c & !POINTS) as usize >= points.len()
        });
        if lost_points {
            return Err(damaged("points"));
        }
        let end_of = |i: usize| -> Option<End> {
            match u32::from_le_bytes(word(&ends, i)) {
                GOING_ON => None,
                DRAW => Some(End::Draw),
                c if c & POINTS != 0 => points.get((c & !POINTS) as usize).map(|p| End::Points(p.clone())),
                c => Some(End::Win((c - WIN) as PlayerId)),
            }
        };
        let text_of = |i: usize| {
            let from = if i == 0 {
                0
            } else {
                u64::from_le_bytes(word(&text_ends, i - 1)) as usize
            };
            texts
                .get(from..u64::from_le_bytes(word(&text_ends, i)) as usize)
                .unwrap_or("")
        };
        let labels = &self.move_texts.texts;
        let edge = |e: usize| {
            let target = u32::from_le_bytes(word(&edges[8 * e..], 0));
            let label = u32::from_le_bytes(word(&edges[8 * e + 4..], 0));
            (target, labels.get(label as usize).map_or("", String::as_str))
        };
        let extras = Extras {
            seat_names,
            version,
            boards: None,
            heuristics: None,
            pictures: None,
            board_from_key: false,
        };
        py.detach(|| build_graph(name, extras, &movers, (0..n).map(end_of), text_of, &first, edge))
            .map_err(py_error)
    }
}
