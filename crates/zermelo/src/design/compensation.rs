//! Compensation along one key of a game: the members of a range of the key (`komi=-5..5`)
//! or of its alternatives (`first=vertical|horizontal`) solved one by one from their
//! start, the first setting where the result for the first player changes, and the
//! fairest setting (a draw, else the smallest margin, else the longest game).
//!
//! Ranges of more than [`BISECT_ABOVE`] settings are bisected on the result, which then
//! must be monotone in the key (as a handicap is): the ends first, then halves, so that
//! only the settings around the change are solved.

use crate::analysis::report::pie_key;
use crate::session::{Compensation, Options, Setting, Verdict};
use crate::spec::Spec;
use crate::{catalog, Class, Error};

/// The most settings of a range solved one by one; longer ranges are bisected.
pub const BISECT_ABOVE: usize = 16;

/// The key and its settings of `KEY=A..B` (whole numbers, negative ones too) or
/// `KEY=a|b|c`, and whether they are a range.
pub fn settings(text: &str) -> Result<(String, Vec<String>, bool), Error> {
    let bad = |why: &str| Error::bad_option("compensate", Some(text), why);
    let (key, values) = text
        .split_once('=')
        .ok_or_else(|| bad("give KEY=A..B or KEY=a|b"))?;
    let key = key.trim().to_ascii_lowercase();
    let values = values.trim();
    if let Some((lo, hi)) = values.split_once("..") {
        let number = |t: &str| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| bad(&format!("'{}' is not a whole number", t.trim())))
        };
        let (lo, hi) = (number(lo)?, number(hi)?);
        if lo > hi || hi - lo >= 10_000 {
            return Err(bad("give a range A..B with A <= B, of at most 10000 settings"));
        }
        return Ok((key, (lo..=hi).map(|v| v.to_string()).collect(), true));
    }
    let values: Vec<String> = values.split('|').map(|v| v.trim().to_string()).collect();
    if values.len() < 2 || values.iter().any(String::is_empty) {
        return Err(bad("give two settings or more, KEY=a|b"));
    }
    Ok((key, values, false))
}

/// Solves `spec` at the settings of `along` (`KEY=A..B` or `KEY=a|b`) under `opts`.
pub fn along(spec: &str, along: &str, opts: &Options) -> Result<Compensation, Error> {
    let (key, values, range) = settings(along)?;
    let base: Spec = spec.parse()?;
    let solve = |i: usize| -> Result<Setting, Error> {
        let member = base.with(&key, &values[i]).to_string();
        let solution = catalog::open(&member)?.solve(opts)?;
        Ok(Setting {
            setting: values[i].clone(),
            game: solution.game,
            to_move: solution.to_move,
            verdict: solution.verdict,
        })
    };
    let bisected = range && values.len() > BISECT_ABOVE;
    let mut solved: Vec<(usize, Setting)> = Vec::new();
    if bisected {
        let (mut lo, mut hi) = (0, values.len() - 1);
        let first = solve(lo)?;
        let last = solve(hi)?;
        let changes = first.verdict.value != last.verdict.value;
        let word = first.verdict.value;
        solved.push((lo, first));
        solved.push((hi, last));
        // The result at `lo` is the first's; at `hi` it differs.
        while changes && hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let s = solve(mid)?;
            if s.verdict.value == word {
                lo = mid;
            } else {
                hi = mid;
            }
            solved.push((mid, s));
        }
        solved.sort_by_key(|(i, _)| *i);
    } else {
        for i in 0..values.len() {
            solved.push((i, solve(i)?));
        }
    }
    let solved: Vec<Setting> = solved.into_iter().map(|(_, s)| s).collect();
    let changes_at = solved
        .iter()
        .find(|s| s.verdict.value != solved[0].verdict.value)
        .map(|s| s.setting.clone());
    // Settings are valued at the start, for the first seat.
    let key_of = |v: &Verdict| pie_key(v.value.unwrap_or(Class::Draw), v.lead(0), v.remoteness);
    let best = solved.iter().map(|s| key_of(&s.verdict)).min();
    let fairest = solved
        .iter()
        .filter(|s| Some(key_of(&s.verdict)) == best)
        .map(|s| s.setting.clone())
        .collect();
    Ok(Compensation {
        key,
        settings: values.len() as u64,
        bisected,
        solved,
        changes_at,
        fairest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_signed_ranges_and_alternatives() {
        let (key, values, range) = settings("komi=-2..1").unwrap();
        assert_eq!((key.as_str(), range), ("komi", true));
        assert_eq!(values, ["-2", "-1", "0", "1"]);
        let (_, values, range) = settings("first=vertical|horizontal").unwrap();
        assert_eq!((values.len(), range), (2, false));
        assert!(settings("komi").is_err());
        assert!(settings("komi=3..1").is_err());
        assert!(settings("first=vertical").is_err());
    }
}
