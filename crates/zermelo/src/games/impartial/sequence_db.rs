//! Value sequences of heap rules saved as databases: a rule's values by heap size (Grundy
//! values, or a misère win/loss table) with the period proven for them, under the spec of
//! the rule ([`Rule::sequence_spec`]), so one file serves every start of that rule.
//!
//! A file holds, in one layer, the values the recurrence computed for heaps `0..ranks`:
//! Grundy values in the narrowest of 8, 16 or 32 bits, win/loss in the 2-bit
//! win/lose/draw layer. Its counts are `positions` (the values stored), `max_value`
//! (Grundy values) and, when a period is proven, `preperiod` and `period`: the proof rule
//! holds over the stored values, so they are the period's proof.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::grundy::{prove, Column, Sequence, Term};
use super::values::GrundyValues;
use super::Rule;
use crate::solve::grundy::{mex, Periodicity};
use crate::table::db::{self, Database, Header, Layer};
use crate::table::{LOSE, WIN};
use crate::Error;

/// Values read from a file at a time.
const LOAD_SLICE: u64 = 1 << 20;

/// The solver that saves sequences, and the version of its output.
pub const SAVER: (&str, u32) = ("grundy", 1);

/// A value of a sequence, as a file stores it.
pub trait Stored: Term + std::fmt::Debug + Send + Sync + Sized {
    /// Whether a sequence of these values lies in `layer`.
    fn fits(layer: Layer) -> bool;
    /// The layer a sequence whose largest code is `max` is stored in.
    fn layer(max: u32) -> Layer;
    /// The entry stored for the value.
    fn code(&self) -> u32;
    /// The value of an entry, `None` for an entry no value has.
    fn decode(code: u32) -> Option<Self>;
    /// The value of heap `n` by `rule` from the values of the smaller heaps.
    fn from_options(rule: &Rule, values: &Self::Column, n: usize) -> Self;
}

/// Grundy values: the mex of the options' values (a split's value is the XOR of its heaps').
impl Stored for u32 {
    fn fits(layer: Layer) -> bool {
        layer.is_grundy()
    }

    fn layer(max: u32) -> Layer {
        Layer::grundy(max)
    }

    fn code(&self) -> u32 {
        *self
    }

    fn decode(code: u32) -> Option<Self> {
        Some(code)
    }

    fn from_options(rule: &Rule, values: &GrundyValues, n: usize) -> u32 {
        let mut moves = Vec::new();
        rule.moves(n as u64, &mut moves);
        let value = |heap: u64| u64::from(values.at(heap as usize));
        mex(moves.into_iter().map(|(take, left)| {
            let rest = n as u64 - take;
            match left {
                0 => value(rest),
                _ => value(left) ^ value(rest - left),
            }
        })) as u32
    }
}

/// Misère win/loss tables (true: the mover wins), the only win/loss tables saved: a heap
/// with no move is won, else won when a move leaves a lost heap.
impl Stored for bool {
    fn fits(layer: Layer) -> bool {
        layer == Layer::Wdl
    }

    fn layer(_: u32) -> Layer {
        Layer::Wdl
    }

    fn code(&self) -> u32 {
        (if *self { WIN } else { LOSE }).into()
    }

    fn decode(code: u32) -> Option<Self> {
        [WIN, LOSE]
            .iter()
            .position(|&c| u32::from(c) == code)
            .map(|i| i == 0)
    }

    fn from_options(rule: &Rule, values: &Vec<bool>, n: usize) -> bool {
        let mut moves = Vec::new();
        rule.moves(n as u64, &mut moves);
        moves.is_empty() || moves.iter().any(|&(take, _)| !values[n - take as usize])
    }
}

/// Saves the values `seq` computed by its recurrence, and its proven period, to `path` as
/// the sequence of `spec`.
pub fn write<T: Stored>(path: &Path, spec: &str, seq: &Sequence<T>) -> Result<(), Error> {
    write_values::<T>(path, spec, &seq.values, seq.direct, seq.shape)
}

/// Saves the first `len` of `values` and the period `shape` they prove, if any, to `path`
/// as the sequence of `spec`.
pub fn write_values<T: Stored>(
    path: &Path,
    spec: &str,
    values: &T::Column,
    len: usize,
    shape: Option<Periodicity>,
) -> Result<(), Error> {
    let value = |r: usize| values.get(r).expect("a stored heap has a value").code();
    let max = (0..len).map(value).max().unwrap_or(0);
    let layer = T::layer(max);
    let mut counts = vec![("positions".to_string(), len as u64)];
    if layer.is_grundy() {
        counts.push(("max_value".into(), max.into()));
    }
    if let Some(s) = shape {
        counts.push(("preperiod".into(), s.preperiod as u64));
        counts.push(("period".into(), s.period as u64));
    }
    let header = Header {
        spec: spec.into(),
        solver: SAVER.0.into(),
        solver_version: SAVER.1,
        ranks: len as u64,
        counts,
        layers: vec![layer],
        part: None,
    };
    db::write(path, &header, &|layer, span, out| {
        db::pack(layer, span, |r| value(r as usize), out);
        Ok(())
    })
}

/// The period a saved sequence proves, from its header.
pub fn shape(db: &Database) -> Option<Periodicity> {
    let h = db.header();
    (h.count("period") > 0).then(|| Periodicity {
        preperiod: h.count("preperiod") as usize,
        period: h.count("period") as usize,
    })
}

/// How many values of the saved sequence value every heap up to `max`: its preperiod and
/// period when proven, else `max + 1` when stored; `None` when it stops short of `max`.
pub fn needed(db: &Database, max: u64) -> Option<u64> {
    match shape(db) {
        Some(s) => Some((s.preperiod + s.period) as u64),
        None => (max < db.header().ranks).then_some(max + 1),
    }
}

fn corrupt(db: &Database, why: String) -> Error {
    Error::Database {
        path: db.path().display().to_string(),
        why: why.into(),
    }
}

/// The first `len` values of the saved sequence (at most those stored) with its period.
pub fn load<T: Stored>(db: &Database, len: u64) -> Result<Sequence<T>, Error> {
    let layer = match db.header().layers[..] {
        [layer] if T::fits(layer) => layer,
        _ => return Err(corrupt(db, "holds no sequence of values of this kind".into())),
    };
    let shape = shape(db);
    let stored = db.header().ranks;
    if shape.is_some_and(|s| (s.preperiod + s.period) as u64 > stored) {
        return Err(corrupt(
            db,
            "its period reaches past its values: the file is corrupt".into(),
        ));
    }
    // Read a slice at a time, so that only the kept values take memory.
    let mut values = T::Column::default();
    let end = len.min(stored);
    for from in (0..end).step_by(LOAD_SLICE as usize) {
        for (n, code) in (from..).zip(db.entries(layer, from..end.min(from + LOAD_SLICE))?) {
            let value = T::decode(code)
                .ok_or_else(|| corrupt(db, format!("heap {n} holds no value: the file is corrupt")))?;
            values.extend([value]);
        }
    }
    Ok(Sequence {
        direct: values.len(),
        values,
        shape,
    })
}

/// Checks the saved sequence of `rule`: its period proven again over every stored value,
/// and `sample` random heaps (drawn from `seed`) valued again from their options' stored
/// values. How many heaps were checked, or the first disagreement.
pub fn check_sample<T: Stored>(db: &Database, rule: &Rule, sample: u64, seed: u64) -> Result<u64, Error> {
    let seq: Sequence<T> = load(db, db.header().ranks)?;
    if seq.values.is_empty() {
        return Err(corrupt(db, "holds no values".into()));
    }
    let proven = prove::<T>(rule, &seq.values);
    if seq.shape.is_some() && proven != seq.shape {
        return Err(corrupt(
            db,
            format!(
                "claims the period {:?}, but its values prove {proven:?}",
                seq.shape
            ),
        ));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let heaps: Vec<usize> = (0..sample).map(|_| rng.gen_range(0..seq.values.len())).collect();
    let held = |n: usize| seq.values.get(n).expect("a sampled heap is stored");
    let wrong = heaps.par_iter().find_map_first(|&n| {
        let again = T::from_options(rule, &seq.values, n);
        (again != held(n)).then_some((n, again))
    });
    match wrong {
        Some((n, again)) => Err(corrupt(
            db,
            format!(
                "heap {n} holds {:?}, but its options' values give {again:?}",
                held(n)
            ),
        )),
        None => Ok(sample),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::impartial::grundy::{octal_grundy, subtraction_outcomes};

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("zermelo-seq-{name}-{}.zdb", std::process::id()))
    }

    #[test]
    fn saved_sequences_read_back_and_pass_their_checks() {
        let rule = Rule::Octal("0.77".parse().unwrap());
        let seq = octal_grundy(&"0.77".parse().unwrap(), None);
        let path = temp("kayles");
        write(&path, "octal:code=0.77", &seq).unwrap();
        let db = Database::open(&path).unwrap();
        assert_eq!(db.header().layers, [Layer::Grundy8]);
        let read: Sequence<u32> = load(&db, needed(&db, 1 << 40).unwrap()).unwrap();
        assert_eq!(read.shape, seq.shape);
        for n in [0, 70, 71, 1000, 1 << 40] {
            assert_eq!(read.at(n), seq.at(n), "heap {n}");
        }
        assert_eq!(check_sample::<u32>(&db, &rule, 300, 1).unwrap(), 300);
        let other = Rule::Octal("0.07".parse().unwrap());
        assert!(check_sample::<u32>(&db, &other, 300, 1).is_err());
        assert!(load::<bool>(&db, 5).is_err());
        let mut wrong = octal_grundy(&"0.77".parse().unwrap(), Some(60));
        wrong.values = (wrong.values.iter().enumerate())
            .map(|(n, v)| if n == 20 { v ^ 1 } else { v })
            .collect();
        write(&path, "octal:code=0.77", &wrong).unwrap();
        let db = Database::open(&path).unwrap();
        let e = check_sample::<u32>(&db, &rule, 200, 1).unwrap_err().to_string();
        assert!(e.contains("but its options' values give"), "{e}");

        let set = vec![1, 3, 4];
        let outcomes = subtraction_outcomes(&set, true, Some(40));
        let short: Sequence<bool> = Sequence {
            values: outcomes.values.clone(),
            direct: outcomes.values.len(),
            shape: None,
        };
        write(&path, "subtraction:set=1/3/4,misere=true", &short).unwrap();
        let db = Database::open(&path).unwrap();
        assert_eq!(needed(&db, 41), None);
        let read: Sequence<bool> = load(&db, needed(&db, 40).unwrap()).unwrap();
        assert_eq!(read.values, outcomes.values);
        let rule = Rule::Subtraction(set);
        assert_eq!(check_sample::<bool>(&db, &rule, 100, 2).unwrap(), 100);
        std::fs::remove_file(&path).unwrap();
    }
}
