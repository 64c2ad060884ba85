//! Merging the parts of a split solve's table ([`Part`]) into the database a solve in
//! one process writes.

use std::fs;
use std::path::{Path, PathBuf};

use super::db_error;
use super::read::Database;
use super::write::write_values;
use crate::Error;

/// Merges the parts of one split solve's table (the files at `paths`, in any order)
/// into the database at `out`: the file a solve in one process writes. Refuses parts
/// of different tables or solves, a part given twice, a missing part, and an `out`
/// that is one of the parts.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<(), Error> {
    let parts = paths
        .iter()
        .map(|p| Database::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let part = |db: &Database| {
        db.header.part.clone().ok_or_else(|| {
            db_error(
                &db.path,
                "holds a whole table, not a part of a split solve's table",
            )
        })
    };
    let first = parts
        .first()
        .ok_or_else(|| Error::Unsupported("give the parts of a table to merge".into()))?;
    let lead = part(first)?;
    let mut by_number: Vec<Option<&Database>> = vec![None; lead.count as usize];
    let mut pieces = Vec::new();
    for (index, db) in parts.iter().enumerate() {
        let p = part(db)?;
        let h = &db.header;
        if h.spec != first.header.spec {
            return Err(db_error(
                &db.path,
                format!(
                    "holds a part of the table of {}, not of {}",
                    h.spec, first.header.spec
                ),
            ));
        }
        if p.solve != lead.solve
            || p.count != lead.count
            || p.table_ranks != lead.table_ranks
            || (&h.solver, h.solver_version) != (&first.header.solver, first.header.solver_version)
        {
            return Err(db_error(
                &db.path,
                format!(
                    "is {} of another solve (solve {:016x}) than {} ({} of solve {:016x})",
                    p.name(),
                    p.solve,
                    first.path.display(),
                    lead.name(),
                    lead.solve
                ),
            ));
        }
        let slot = &mut by_number[p.number as usize - 1];
        if let Some(other) = slot {
            return Err(db_error(
                &db.path,
                format!("is {}, given twice (also as {})", p.name(), other.path.display()),
            ));
        }
        *slot = Some(db);
        let mut local = 0;
        for r in p.ranges.iter().filter(|r| !r.is_empty()) {
            pieces.push((r.clone(), index, local));
            local += r.end - r.start;
        }
    }
    if let Some(missing) = by_number.iter().position(Option::is_none) {
        return Err(Error::Unsupported(format!(
            "part {} of {} of {} (solve {:016x}) is missing: merge every part of the table",
            missing + 1,
            lead.count,
            first.header.spec,
            lead.solve
        )));
    }
    for db in &parts {
        if same_file(&db.path, out) {
            return Err(db_error(
                out,
                "is one of the parts: write the merged table elsewhere",
            ));
        }
    }
    pieces.sort_by_key(|(r, _, _)| r.start);
    let mut end = 0;
    for (r, _, _) in &pieces {
        if r.start != end {
            break;
        }
        end = r.end;
    }
    if end != lead.table_ranks {
        return Err(db_error(
            &first.path,
            format!("the parts do not hold every rank of the table once (rank {end} is missing or doubled)"),
        ));
    }
    let starts: Vec<u64> = pieces.iter().map(|(r, _, _)| r.start).collect();
    let h = &first.header;
    write_values(
        out,
        &h.spec,
        (&h.solver, h.solver_version),
        lead.table_ranks,
        None,
        &|ranks, values| {
            let mut at = starts.partition_point(|&s| s <= ranks.start) - 1;
            let mut next = ranks.start;
            while next < ranks.end {
                let (r, index, local) = &pieces[at];
                let end = r.end.min(ranks.end);
                let from = local + (next - r.start);
                parts[*index].values(from..from + (end - next), values)?;
                next = end;
                at += 1;
            }
            Ok(())
        },
    )
}

/// Whether `a` and `b` name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;
    use crate::table::db::{Layer, Part};
    use crate::value::Value;

    /// A value for every rank: holes, wins at odd, losses at even remoteness, draws.
    fn pattern(r: u64) -> Option<Value> {
        match r % 5 {
            0 => None,
            1 => Some(Value::Win((2 * (r % 7) + 1) as u32)),
            2 => Some(Value::Lose((2 * (r % 9)) as u32)),
            _ => Some(Value::Draw),
        }
    }

    /// Writes the ranks `ranges` of the pattern at `path`, as `part` when given.
    fn write_pattern(path: &Path, ranges: &[Range<u64>], table_ranks: u64, part: Option<Part>) {
        let globals: Vec<u64> = ranges.iter().flat_map(Clone::clone).collect();
        let ranks = part.as_ref().map_or(table_ranks, |_| globals.len() as u64);
        write_values(path, "g:a=1", ("test", 1), ranks, part, &|span, out| {
            out.extend(span.map(|j| pattern(globals[j as usize])));
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn parts_merge_into_the_whole_table_and_refuse_strangers() {
        let dir = std::env::temp_dir().join(format!("zermelo-db-parts-{}", std::process::id()));
        let ranks = 2 * Layer::HalfRemoteness.block_ranks() + 999;
        let whole = dir.join("whole.zdb");
        write_pattern(&whole, std::slice::from_ref(&(0..ranks)), ranks, None);
        // Two levels, each split in three shares, as a solve on three processes does.
        let levels = [0..ranks / 3, ranks / 3..ranks];
        let part = |number: u32, solve: u64| {
            let ranges: Vec<Range<u64>> = levels
                .iter()
                .map(|l| {
                    let len = l.end - l.start;
                    let i = u64::from(number - 1);
                    l.start + len * i / 3..l.start + len * (i + 1) / 3
                })
                .collect();
            let path = dir.join(format!("p{number}-{solve}.zdb"));
            let part = Part {
                number,
                count: 3,
                solve,
                table_ranks: ranks,
                ranges: ranges.clone(),
            };
            write_pattern(&path, &ranges, ranks, Some(part.clone()));
            let db = Database::open(&path).unwrap();
            assert_eq!(db.header().part.as_ref(), Some(&part));
            let mut values = Vec::new();
            db.values(0..db.header().ranks, &mut values).unwrap();
            let globals = ranges.iter().flat_map(Clone::clone);
            assert!(values.into_iter().eq(globals.map(pattern)));
            path
        };
        let parts: Vec<PathBuf> = (1..=3).rev().map(|n| part(n, 7)).collect();
        let merged = dir.join("merged.zdb");
        merge(&parts, &merged).unwrap();
        assert!(fs::read(&merged).unwrap() == fs::read(&whole).unwrap());
        let refused = |parts: &[PathBuf]| {
            let out = dir.join("refused.zdb");
            let e = merge(parts, &out).unwrap_err().to_string();
            assert!(!out.exists());
            e
        };
        let e = refused(&parts[..2]);
        assert!(e.contains("part 1 of 3") && e.contains("missing"), "{e}");
        let e = refused(&[&parts[..], &parts[1..2]].concat());
        assert!(e.contains("part 2 of 3, given twice"), "{e}");
        let e = refused(&[parts[0].clone(), part(2, 8), parts[2].clone()]);
        assert!(e.contains("another solve"), "{e}");
        assert!(refused(std::slice::from_ref(&whole)).contains("whole table"));
        // A part is refused with the way to merge, for each front end to word.
        match Database::open_for(&parts[0], "g:a=1", Some(ranks)).err().unwrap() {
            crate::Error::Database { why, .. } => {
                assert!(why.0.contains(&crate::error::Part::Merge(None)), "{why}")
            }
            e => panic!("{e}"),
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
