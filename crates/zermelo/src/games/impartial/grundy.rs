//! Grundy sequences of heap games by heap size: computed by doubling until a period is
//! proven (or up to a given heap), with the preperiod, period and pattern, as a typed
//! report.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::octal::{GrundySequence, RareSplit};
use super::values::GrundyValues;
use super::{subtraction, HeapGame, Octal, Rule};
use crate::session::quantity;
use crate::solve::budget::{bytes_text, Budget};
use crate::solve::grundy::{find_period, Periodic, Periodicity};
use crate::{Error, Spec};

/// Without a last heap, subtraction tables grow by doubling up to this length.
const SUBTRACTION_CAP: usize = 1 << 24;
/// Without a last heap, octal sequences grow by doubling up to this length...
const OCTAL_CAP: usize = 1 << 20;
/// ...and stop doubling once a step took this long (the next one would take about four
/// times as long when the rare-values method does not apply).
const OCTAL_STEP_BUDGET: Duration = Duration::from_secs(2);
/// Bytes a value of a sequence takes while it grows, about: a win/loss table's (a byte,
/// as much for the table of the step before, and 4 for the period search), a
/// subtraction game's (its values as computed, kept, and of the step before, and the
/// period search) and an octal game's (two bytes while values are below 65536, as much
/// again for the period search over half of them, and room for growing).
const OUTCOME_BYTES: u64 = 6;
const SUBTRACTION_BYTES: u64 = 16;
const OCTAL_BYTES: u64 = 6;
/// Octal values computed between two looks at the clock.
const OCTAL_CHUNK: usize = 16;
/// The largest last heap a report may ask for (heap numbers stay below 2^32).
pub const MAX_TO: u64 = (1 << 32) - 2;
/// Values (or letters) a report gives from the start of a sequence.
pub const SHOWN: usize = 100;
/// The [`GrundyReport::source`] of values computed now...
const COMPUTED: &str = "computed now";
/// ...of values read from the data folder...
const READ: &str = "read from the data folder";
/// ...and of values computed now, going on from those saved there.
const RESUMED: &str = "going on from the data folder";

/// A term of a sequence by heap size (a Grundy value, or whether the mover wins), and how
/// a sequence of them is kept in memory.
pub trait Term: Clone + Eq {
    /// The values of a sequence.
    type Column: Column<Self>;
}

/// Grundy values, kept in the narrowest width that holds them.
impl Term for u32 {
    type Column = GrundyValues;
}

/// Win/loss tables (true: the mover wins).
impl Term for bool {
    type Column = Vec<bool>;
}

/// The values of a sequence by heap size.
pub trait Column<T>: Clone + Default + FromIterator<T> + Extend<T> + Send + Sync {
    /// How many values there are.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value of heap `n`, `None` beyond them.
    fn get(&self, n: usize) -> Option<T>;
    /// The first `len` values (at most all).
    fn head(&self, len: usize) -> Vec<T>;
    /// Bytes they hold in memory.
    fn bytes(&self) -> u64;
    /// Bytes a value takes now.
    fn value_bytes(&self) -> u64;
    /// The period they prove by the proof rule `needed` (see [`find_period`]).
    fn find_period(&self, needed: impl Fn(usize, usize) -> usize) -> Option<Periodicity>;
}

impl<T: Clone + Eq + Send + Sync> Column<T> for Vec<T> {
    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn get(&self, n: usize) -> Option<T> {
        self.as_slice().get(n).cloned()
    }

    fn head(&self, len: usize) -> Vec<T> {
        self[..len.min(self.as_slice().len())].to_vec()
    }

    fn bytes(&self) -> u64 {
        (self.capacity() * std::mem::size_of::<T>()) as u64
    }

    fn value_bytes(&self) -> u64 {
        std::mem::size_of::<T>() as u64
    }

    fn find_period(&self, needed: impl Fn(usize, usize) -> usize) -> Option<Periodicity> {
        find_period(self, needed)
    }
}

impl Column<u32> for GrundyValues {
    fn len(&self) -> usize {
        GrundyValues::len(self)
    }

    fn get(&self, n: usize) -> Option<u32> {
        GrundyValues::get(self, n)
    }

    fn head(&self, len: usize) -> Vec<u32> {
        GrundyValues::head(self, len)
    }

    fn bytes(&self) -> u64 {
        GrundyValues::bytes(self)
    }

    fn value_bytes(&self) -> u64 {
        self.width() as u64
    }

    fn find_period(&self, needed: impl Fn(usize, usize) -> usize) -> Option<Periodicity> {
        GrundyValues::find_period(self, needed)
    }
}

/// A computed sequence and the period it proves, if any.
pub struct Sequence<T: Term> {
    /// The values of heaps `0..values.len()`.
    pub values: T::Column,
    /// How many of them the recurrence computed; the rest follow from the proven period.
    pub direct: usize,
    /// The proven periodicity.
    pub shape: Option<Periodicity>,
}

/// Grows a sequence by doubling from `first` until `step(len)` (which computes `len`
/// values and looks for a proven period, or fails) finds one, up to `to + 1` values when
/// `to` is given and to `cap` otherwise (or until a step takes longer than `budget`); the
/// period found, if any.
///
/// Within `within`, counting `value_bytes` a value: a step whose values would take more
/// than its memory is refused, and the growth stops (with the budget's error) at its
/// deadline or cancel flag, or as soon as the next step, taking about twice as long as
/// the last, would end past the deadline.
fn grow(
    to: Option<usize>,
    first: usize,
    cap: usize,
    budget: Option<Duration>,
    within: &Budget,
    value_bytes: u64,
    mut step: impl FnMut(usize) -> Result<Option<Periodicity>, Error>,
) -> Result<Option<Periodicity>, Error> {
    let limit = to.map_or(cap, |t| t + 1);
    let budget = budget.filter(|_| to.is_none()).unwrap_or(Duration::MAX);
    let clock = within.clock();
    let mut len = first.min(limit);
    loop {
        fits(len, value_bytes, within)?;
        let started = Instant::now();
        let shape = step(len)?;
        if shape.is_none() && clock.passed() {
            return Err(within.stopped("computing the values by heap size"));
        }
        if shape.is_some() || len >= limit || started.elapsed() > budget {
            return Ok(shape);
        }
        let next_ends = Instant::now() + 2 * started.elapsed();
        if clock.deadline.is_some_and(|d| next_ends > d) {
            return Err(within.stopped("computing the values by heap size"));
        }
        len = (2 * len).min(limit);
    }
}

/// Refuses `len` values of `value_bytes` each when they would take more than the memory
/// of `within`.
fn fits(len: usize, value_bytes: u64, within: &Budget) -> Result<(), Error> {
    let bytes = (len as u64).saturating_mul(value_bytes);
    let memory = within.bytes();
    if bytes > memory {
        return Err(Error::too_big(format!(
            "the values of heaps up to {} need about {}, more than the {} they may take",
            len.saturating_sub(1),
            bytes_text(bytes),
            bytes_text(memory)
        )));
    }
    Ok(())
}

impl<T: Term> Sequence<T> {
    /// The sequence of `values`, all computed by the recurrence, with the period they
    /// prove; filled in from it up to heap `to` when given (see [`Sequence::fill_to`]).
    fn new(
        values: T::Column,
        shape: Option<Periodicity>,
        to: Option<usize>,
        within: &Budget,
    ) -> Result<Self, Error> {
        let mut seq = Sequence {
            direct: values.len(),
            values,
            shape,
        };
        if let Some(to) = to {
            seq.fill_to(to, within)?;
        }
        Ok(seq)
    }

    /// Fills in the values of heaps up to `to` from the proven period, if any; refused
    /// when they would take more than the memory of `within`.
    pub fn fill_to(&mut self, to: usize, within: &Budget) -> Result<(), Error> {
        let Some(periodic) = self.periodic() else {
            return Ok(());
        };
        let have = self.values.len();
        if to < have {
            return Ok(());
        }
        fits(to + 1, self.values.value_bytes(), within)?;
        // From the place of heap `have` in the period on, round and round.
        let phase = periodic.shape.index(have as u64) - periodic.shape.preperiod;
        let pattern = periodic.pattern().iter().cycle().skip(phase);
        self.values.extend(pattern.take(to + 1 - have).cloned());
        Ok(())
    }

    /// The proven periodic extension.
    pub fn periodic(&self) -> Option<Periodic<T>> {
        self.shape.map(|shape| Periodic {
            head: self.values.head(shape.preperiod + shape.period),
            shape,
        })
    }

    /// The value of heap `n`: from the proven period, else computed; `None` beyond both.
    pub fn at(&self, n: u64) -> Option<T> {
        match self.shape {
            Some(s) => self.values.get(s.index(n)),
            None => self.values.get(usize::try_from(n).ok()?),
        }
    }
}

/// The period that `rule`'s proof rule proves for its computed `values` (by heap size),
/// if any: the pigeonhole bound for subtraction games, Guy–Smith for octal games; Nim's
/// values never repeat.
pub fn prove<T: Term>(rule: &Rule, values: &T::Column) -> Option<Periodicity> {
    match rule {
        Rule::Subtraction(set) => values.find_period(|pre, p| subtraction::proof_length(set, pre, p)),
        Rule::Octal(code) => values.find_period(|pre, p| code.proof_length(pre, p)),
        Rule::Nim => None,
    }
}

/// The win/loss table of a subtraction game (true: the mover wins) and its period, up
/// to heap `to` or until a period is proven.
pub fn subtraction_outcomes(set: &[u64], misere: bool, to: Option<usize>) -> Sequence<bool> {
    outcomes_within(set, misere, to, &unlimited()).expect("no limit")
}

/// [`subtraction_outcomes`] until a period is proven, within `within` (see [`grow`]).
pub fn subtraction_outcomes_within(
    set: &[u64],
    misere: bool,
    within: &Budget,
) -> Result<Sequence<bool>, Error> {
    outcomes_within(set, misere, None, within)
}

fn outcomes_within(
    set: &[u64],
    misere: bool,
    to: Option<usize>,
    within: &Budget,
) -> Result<Sequence<bool>, Error> {
    let rule = Rule::Subtraction(set.to_vec());
    let mut values = Vec::new();
    let shape = grow(to, 64, SUBTRACTION_CAP, None, within, OUTCOME_BYTES, |len| {
        values = subtraction::outcomes(set, misere, len);
        Ok(prove::<bool>(&rule, &values))
    })?;
    Sequence::new(values, shape, to, within)
}

/// The Grundy values of a subtraction game and their period, up to heap `to` or until a
/// period is proven.
pub fn subtraction_grundy(set: &[u64], to: Option<usize>) -> Sequence<u32> {
    grundy_within(set, to, &unlimited()).expect("no limit")
}

/// [`subtraction_grundy`] until a period is proven, within `within` (see [`grow`]).
pub fn subtraction_grundy_within(set: &[u64], within: &Budget) -> Result<Sequence<u32>, Error> {
    grundy_within(set, None, within)
}

fn grundy_within(set: &[u64], to: Option<usize>, within: &Budget) -> Result<Sequence<u32>, Error> {
    let rule = Rule::Subtraction(set.to_vec());
    let mut values = GrundyValues::default();
    let shape = grow(to, 64, SUBTRACTION_CAP, None, within, SUBTRACTION_BYTES, |len| {
        values = subtraction::grundy_values(set, len).into_iter().collect();
        Ok(prove::<u32>(&rule, &values))
    })?;
    Sequence::new(values, shape, to, within)
}

/// The Grundy values of an octal game and the period Guy–Smith proves: up to heap `to`,
/// or without it until a period is proven (within a cap and a time budget per doubling).
pub fn octal_grundy(code: &Octal, to: Option<usize>) -> Sequence<u32> {
    octal_sequence(code, to, OCTAL_CAP, &unlimited(), &())
        .expect("no limit")
        .0
}

/// The Grundy values of an octal game far enough to value a heap of `heap` tokens: until
/// a period is proven or the values reach that heap (with `thorough`, and at least as far
/// as [`octal_grundy`] goes without a last heap), or until a doubling step takes too long
/// (then they may stop short of it); within `within` (see [`grow`]).
pub fn octal_grundy_for(
    code: &Octal,
    heap: u64,
    thorough: bool,
    within: &Budget,
) -> Result<Sequence<u32>, Error> {
    let cap = usize::try_from(heap).map_or(usize::MAX, |h| h.saturating_add(1));
    let cap = if thorough { cap.max(OCTAL_CAP) } else { cap };
    Ok(octal_sequence(code, None, cap, within, &())?.0)
}

/// What a run of an octal sequence did with its [`OctalStore`].
struct Run {
    /// How many saved values it went on from.
    resumed: usize,
    /// Where it saved its values last.
    saved: Option<String>,
    /// How many values the store holds...
    kept: usize,
    /// ...since when.
    kept_at: Instant,
}

impl Run {
    /// Gives `store` the values of `code` and the period they prove, if any, when they go
    /// further than the store's or prove a period.
    fn keep(
        &mut self,
        store: &dyn OctalStore,
        code: &Octal,
        values: &GrundyValues,
        shape: Option<Periodicity>,
    ) -> Result<(), Error> {
        if values.len() <= self.kept && shape.is_none() {
            return Ok(());
        }
        if let Some(path) = store.save(code, values, shape)? {
            self.saved = Some(path);
            self.kept = values.len();
        }
        self.kept_at = Instant::now();
        Ok(())
    }
}

/// The values of `code` (see [`grow`]), going on from those `store` holds and saving them
/// to it every [`OctalStore::every`], when stopped (by the deadline or cancel flag of
/// `within`) and at the end.
fn octal_sequence(
    code: &Octal,
    to: Option<usize>,
    cap: usize,
    within: &Budget,
    store: &dyn OctalStore,
) -> Result<(Sequence<u32>, Run), Error> {
    let start = store.start(code)?;
    let mut run = Run {
        resumed: start.len(),
        saved: None,
        kept: start.len(),
        kept_at: Instant::now(),
    };
    let mut values = GrundySequence::resume(code, start);
    let rule = Rule::Octal(code.clone());
    let clock = within.clock();
    let grown = grow(
        to,
        run.resumed.max(1024),
        cap,
        Some(OCTAL_STEP_BUDGET),
        within,
        OCTAL_BYTES,
        |len| {
            // A value of a long code can take long: the clock is looked at every few values,
            // and a step cut short stops with the values it has.
            values.reserve(len);
            while values.values().len() < len && !clock.passed() {
                values.extend_to(len.min(values.values().len() + OCTAL_CHUNK));
                let due = store.every().is_some_and(|every| run.kept_at.elapsed() >= every);
                if due {
                    run.keep(store, code, values.values(), None)?;
                }
            }
            Ok(prove::<u32>(&rule, values.values()))
        },
    );
    let shape = match grown {
        Ok(shape) => shape,
        Err(e) => {
            run.keep(store, code, values.values(), None)?;
            return Err(e);
        }
    };
    run.keep(store, code, values.values(), shape)?;
    Ok((Sequence::new(values.into_values(), shape, to, within)?, run))
}

/// Where the report of an octal game keeps its values between runs: the data folder.
pub trait OctalStore {
    /// The saved sequence of `code` when it gives the report asked for: up to heap `to`,
    /// or as far as a report goes without it.
    fn read(&self, code: &Octal, to: Option<usize>) -> Result<Option<Sequence<u32>>, Error>;
    /// The values saved for `code` that a run goes on from: none when none are saved, or
    /// when those saved prove a period (they are read whole, or not used).
    fn start(&self, code: &Octal) -> Result<GrundyValues, Error>;
    /// Saves `values` of `code` and the period `shape` they prove, if any, unless what is
    /// saved already goes as far; where they went, `None` when they were not saved.
    fn save(
        &self,
        code: &Octal,
        values: &GrundyValues,
        shape: Option<Periodicity>,
    ) -> Result<Option<String>, Error>;
    /// How often a run saves its values while it computes; `None`: only when it stops
    /// or ends.
    fn every(&self) -> Option<Duration>;
}

/// No store: nothing read, nothing saved.
impl OctalStore for () {
    fn read(&self, _: &Octal, _: Option<usize>) -> Result<Option<Sequence<u32>>, Error> {
        Ok(None)
    }

    fn start(&self, _: &Octal) -> Result<GrundyValues, Error> {
        Ok(GrundyValues::default())
    }

    fn save(&self, _: &Octal, _: &GrundyValues, _: Option<Periodicity>) -> Result<Option<String>, Error> {
        Ok(None)
    }

    fn every(&self) -> Option<Duration> {
        None
    }
}

/// A budget that never stops a sequence: no deadline, no cancel flag, all the memory.
fn unlimited() -> Budget {
    Budget::default().with_memory(u64::MAX)
}

/// "W"/"L" letters of a win/loss table.
pub fn letters(outcomes: &[bool]) -> String {
    outcomes.iter().map(|&w| if w { 'W' } else { 'L' }).collect()
}

/// The Grundy analysis of a single-heap game: its sequence by heap size with the proven
/// preperiod, period and pattern. For subtraction games the preperiod, period and
/// pattern are those of the win/loss table.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct GrundyReport {
    /// The game spec.
    pub game: String,
    /// Where the repetition starts; `None` when no period is proven.
    pub preperiod: Option<usize>,
    /// The length of the repeating block; `None` when no period is proven.
    pub period: Option<usize>,
    /// The last heap size valued.
    pub computed_to: usize,
    /// The last heap valued by the recurrence rather than the period.
    pub recurrence_to: usize,
    /// Whether every period the report needs was proven.
    pub proven: bool,
    /// Where the values came from: computed now, read from the data folder, or computed
    /// now going on from the values saved there.
    pub source: &'static str,
    /// Octal games going on from saved values: the first heap computed now (those below it
    /// were read).
    pub resumed_from: Option<usize>,
    /// Where the values were saved, when they were.
    pub saved: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What the game's rule adds.
    #[serde(flatten)]
    pub rule: RuleReport,
    /// Why the period holds, for people.
    #[serde(skip)]
    pub proof: String,
    /// The values to plot.
    #[serde(skip)]
    pub series: Series,
}

/// What a [`GrundyReport`] says for each kind of heap game.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RuleReport {
    /// A subtraction game.
    Subtraction(SubtractionReport),
    /// An octal game.
    Octal(OctalReport),
}

/// The win/loss table of a subtraction game and, under normal play, its Grundy values.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct SubtractionReport {
    /// "normal" or "misere".
    pub rule: &'static str,
    /// The first [`SHOWN`] outcomes as `W`/`L` letters for the mover.
    pub outcomes: String,
    /// The repeating block of the table as letters; `None` when no period is proven.
    pub pattern: Option<String>,
    /// The Grundy sequence, under normal play.
    #[serde(flatten)]
    pub grundy: Option<SubtractionGrundy>,
}

/// The Grundy sequence of a subtraction game.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct SubtractionGrundy {
    /// The first [`SHOWN`] values.
    pub start: Vec<u32>,
    /// Where the repetition starts; `None` when no period is proven.
    pub grundy_preperiod: Option<usize>,
    /// The length of the repeating block; `None` when no period is proven.
    pub grundy_period: Option<usize>,
    /// The repeating block.
    pub grundy_pattern: Option<Vec<u32>>,
    /// The last heap size valued.
    pub grundy_computed_to: usize,
    /// The last heap valued by the recurrence rather than the period.
    pub grundy_recurrence_to: usize,
}

/// The Grundy sequence of an octal game.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct OctalReport {
    /// The code, `0.77`.
    pub code: String,
    /// Its usual name, when it has one.
    pub name: Option<&'static str>,
    /// The first [`SHOWN`] values.
    pub start: Vec<u32>,
    /// The repeating block; `None` when no period is proven.
    pub pattern: Option<Vec<u32>>,
    /// How the rare-values method splits the heaps valued (`None` when values are too
    /// large for it, or it leaves no heap common).
    pub rare: Option<RareReport>,
}

/// The rare heaps of an octal sequence: how many, the first of them, and the split.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct RareReport {
    /// How the heaps split.
    #[serde(flatten)]
    pub split: RareSplit,
    /// How many heaps are rare.
    pub count: usize,
    /// The first rare heaps, at most [`SHOWN`].
    pub first: Vec<usize>,
}

/// A sequence by heap size, ready to plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// The title of the plot.
    pub title: String,
    /// The value of every heap from 0.
    pub values: GrundyValues,
    /// Its proven periodicity.
    pub shape: Option<Periodicity>,
    /// What the values are ("Grundy value").
    pub what: &'static str,
}

/// The Grundy report of the single-heap game `spec`, for heaps up to `to` when given
/// (else until a period is proven), within `within`. The values of an octal game come
/// from `store` when it has them; else, with `to`, they go on from those it holds and
/// are saved to it (see [`OctalStore`]).
pub fn report(
    spec: &Spec,
    to: Option<u64>,
    within: &Budget,
    store: &dyn OctalStore,
) -> Result<GrundyReport, Error> {
    let started = Instant::now();
    let game = HeapGame::from_spec(spec)?;
    if let Some(to) = to.filter(|&t| t > MAX_TO) {
        return Err(Error::Unsupported(format!(
            "heaps up to {to} are out of range 0..={MAX_TO}"
        )));
    }
    let to = to.map(|t| t as usize);
    let [rule] = game.parts() else {
        return Err(Error::Unsupported(
            "grundy needs a single heap game (subtraction or octal), not a sum".into(),
        ));
    };
    let mut report = match rule {
        Rule::Subtraction(set) => subtraction_report(spec, set, game.misere(), to, within)?,
        Rule::Octal(code) => match store.read(code, to)? {
            Some(mut seq) => {
                if let Some(to) = to {
                    seq.fill_to(to, within)?;
                }
                GrundyReport {
                    source: READ,
                    ..octal_report(spec, code, seq)
                }
            }
            None => {
                let keeping = if to.is_some() { store } else { &() };
                let (seq, run) = octal_sequence(code, to, OCTAL_CAP, within, keeping)?;
                let resumed = (run.resumed > 0).then_some(run.resumed);
                GrundyReport {
                    source: if resumed.is_some() { RESUMED } else { COMPUTED },
                    resumed_from: resumed,
                    saved: run.saved,
                    ..octal_report(spec, code, seq)
                }
            }
        },
        Rule::Nim => {
            return Err(Error::Unsupported(
                "a Nim heap's Grundy value is its size; grundy needs subtraction or octal".into(),
            ))
        }
    };
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The first [`SHOWN`] of `values`.
fn first<T>(values: &impl Column<T>) -> Vec<T> {
    values.head(SHOWN)
}

fn subtraction_report(
    spec: &Spec,
    set: &[u64],
    misere: bool,
    to: Option<usize>,
    within: &Budget,
) -> Result<GrundyReport, Error> {
    let outcomes = outcomes_within(set, misere, to, within)?;
    let proof = format!(
        "two equal windows of {}",
        quantity(set.last().expect("a set has a move"), "entry")
    );
    let mut proven = outcomes.shape.is_some();
    let (grundy, series) = if misere {
        let values = outcomes.values.iter().map(|&w| u32::from(w)).collect();
        (None, (values, outcomes.shape, "win (1) or loss (0)"))
    } else {
        let seq = grundy_within(set, to, within)?;
        proven &= seq.shape.is_some();
        let grundy = SubtractionGrundy {
            start: first(&seq.values),
            grundy_preperiod: seq.shape.map(|s| s.preperiod),
            grundy_period: seq.shape.map(|s| s.period),
            grundy_pattern: seq.periodic().map(|p| p.pattern().to_vec()),
            grundy_computed_to: seq.values.len() - 1,
            grundy_recurrence_to: seq.direct - 1,
        };
        (Some(grundy), (seq.values, seq.shape, "Grundy value"))
    };
    Ok(GrundyReport {
        game: spec.to_string(),
        preperiod: outcomes.shape.map(|s| s.preperiod),
        period: outcomes.shape.map(|s| s.period),
        computed_to: outcomes.values.len() - 1,
        recurrence_to: outcomes.direct - 1,
        proven,
        source: COMPUTED,
        resumed_from: None,
        saved: None,
        seconds: 0.0,
        rule: RuleReport::Subtraction(SubtractionReport {
            rule: if misere { "misere" } else { "normal" },
            outcomes: letters(&first(&outcomes.values)),
            pattern: outcomes.periodic().map(|p| letters(p.pattern())),
            grundy,
        }),
        proof,
        series: Series {
            title: spec.to_string(),
            values: series.0,
            shape: series.1,
            what: series.2,
        },
    })
}

fn octal_report(spec: &Spec, code: &Octal, seq: Sequence<u32>) -> GrundyReport {
    let proof = match seq.shape {
        Some(s) if code.splits() => format!(
            "Guy–Smith, g(n + {p}) = g(n) for {pre} <= n < 2*{pre} + {p} + {k}",
            p = s.period,
            pre = s.preperiod,
            k = code.last_digit()
        ),
        _ => format!("two equal windows of {}", quantity(code.last_digit(), "value")),
    };
    let name = code.name().map_or(String::new(), |n| format!(" ({n})"));
    GrundyReport {
        game: spec.to_string(),
        preperiod: seq.shape.map(|s| s.preperiod),
        period: seq.shape.map(|s| s.period),
        computed_to: seq.values.len() - 1,
        recurrence_to: seq.direct - 1,
        proven: seq.shape.is_some(),
        source: COMPUTED,
        resumed_from: None,
        saved: None,
        seconds: 0.0,
        rule: RuleReport::Octal(OctalReport {
            code: code.to_string(),
            name: code.name(),
            start: first(&seq.values),
            pattern: seq.periodic().map(|p| p.pattern().to_vec()),
            rare: RareSplit::best(code, &seq.values, seq.direct).map(|split| RareReport {
                count: split.heaps.len(),
                first: split.heaps.head(SHOWN),
                split,
            }),
        }),
        proof,
        series: Series {
            title: format!("octal {code}{name}"),
            values: seq.values,
            shape: seq.shape,
            what: "Grundy value",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report_of(spec: &str, to: Option<u64>) -> GrundyReport {
        report(&spec.parse().unwrap(), to, &unlimited(), &()).unwrap()
    }

    #[test]
    fn one_two_three_repeats_lwww_and_zero_one_two_three() {
        let r = report_of("subtraction:set=1/2/3", None);
        assert_eq!((r.preperiod, r.period, r.proven), (Some(0), Some(4), true));
        let RuleReport::Subtraction(s) = &r.rule else {
            panic!("a subtraction game")
        };
        assert_eq!(s.pattern.as_deref(), Some("LWWW"));
        assert_eq!(s.grundy.as_ref().unwrap().grundy_pattern, Some(vec![0, 1, 2, 3]));
    }

    #[test]
    fn kayles_values_past_the_period_come_from_it() {
        let r = report_of("octal:code=0.77", Some(5000));
        assert_eq!((r.preperiod, r.period), (Some(71), Some(12)));
        assert_eq!(r.computed_to, 5000);
        assert!(r.recurrence_to < 5000);
        assert_eq!(r.series.values.len(), 5001);
        assert!(r.proof.starts_with("Guy–Smith"));
    }

    #[test]
    fn octal_values_for_a_heap_stop_at_a_proven_period() {
        let code: Octal = "0.77".parse().unwrap();
        let seq = octal_grundy_for(&code, 1_000_000, false, &unlimited()).unwrap();
        assert!(seq.shape.is_some());
        assert!(seq.values.len() <= 1024);
        assert_eq!(
            octal_grundy_for(&code, 10, false, &unlimited())
                .unwrap()
                .values
                .len(),
            11
        );
        assert!(octal_grundy_for(&code, 10, true, &unlimited())
            .unwrap()
            .shape
            .is_some());
    }

    #[test]
    fn nim_sums_and_huge_ranges_are_refused() {
        for (spec, to) in [
            ("nim:heaps=3", None),
            ("sum:nim=3", None),
            ("octal:code=0.77", Some(MAX_TO + 1)),
        ] {
            assert!(
                report(&spec.parse().unwrap(), to, &unlimited(), &()).is_err(),
                "{spec}"
            );
        }
    }

    /// A store in memory: the values saved last.
    #[derive(Default)]
    struct Memory {
        saved: std::cell::RefCell<GrundyValues>,
        every: Option<Duration>,
    }

    impl OctalStore for Memory {
        fn read(&self, _: &Octal, _: Option<usize>) -> Result<Option<Sequence<u32>>, Error> {
            Ok(None)
        }

        fn start(&self, _: &Octal) -> Result<GrundyValues, Error> {
            Ok(self.saved.borrow().clone())
        }

        fn save(
            &self,
            _: &Octal,
            values: &GrundyValues,
            _: Option<Periodicity>,
        ) -> Result<Option<String>, Error> {
            *self.saved.borrow_mut() = values.clone();
            Ok(Some("memory".into()))
        }

        fn every(&self) -> Option<Duration> {
            self.every
        }
    }

    #[test]
    fn a_stopped_run_goes_on_to_the_values_of_one_run() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let spec: Spec = "octal:code=0.6".parse().unwrap();
        let to: u64 = 300_000;
        let whole = report(&spec, Some(to), &unlimited(), &()).unwrap();
        let store = Memory {
            every: Some(Duration::from_millis(20)),
            ..Memory::default()
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                cancel.store(true, Ordering::Relaxed);
            })
        };
        let budget = Budget {
            cancel: Some(cancel),
            ..Budget::default()
        };
        assert!(matches!(
            report(&spec, Some(to), &budget, &store),
            Err(Error::Cancelled)
        ));
        stop.join().unwrap();
        let kept = store.saved.borrow().len();
        assert!(kept > 0 && kept <= to as usize, "{kept} values kept");
        let resumed = report(&spec, Some(to), &unlimited(), &store).unwrap();
        assert_eq!((resumed.source, resumed.resumed_from), (RESUMED, Some(kept)));
        assert_eq!(resumed.saved.as_deref(), Some("memory"));
        assert!(resumed.series.values == whole.series.values);
        assert!(*store.saved.borrow() == whole.series.values);
    }

    #[test]
    fn a_sequence_stops_at_its_budget() {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        let code: Octal = "4.777777777777777777777777777777777777777".parse().unwrap();
        let tight = Budget::default().with_memory(1 << 10);
        assert!(matches!(
            octal_grundy_for(&code, 1_000_000, false, &tight),
            Err(Error::TooBig(_))
        ));
        let started = Instant::now();
        let timed = Budget {
            seconds: Some(0.2),
            ..Budget::default()
        };
        assert!(octal_grundy_for(&code, 1_000_000, false, &timed).is_err());
        assert!(started.elapsed() < Duration::from_secs(2));
        let cancelled = Budget {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Budget::default()
        };
        let set: Vec<u64> = (1..=64).map(|a| a * 997).collect();
        assert!(matches!(
            subtraction_grundy_within(&set, &cancelled),
            Err(Error::Cancelled)
        ));
    }
}
