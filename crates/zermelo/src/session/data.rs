//! The data folder: where a game's saved table lies, opening it for the solver that made it,
//! checking a sample of it, and room and rights to write there.

use std::path::PathBuf;

use super::{bytes_text, Fact, FactValue, Options};
use crate::error::{Part, Said};
use crate::table::db::Database;
use crate::{Error, Value};

/// The data folder a front end uses: the one it was `given` (named by `flag` in messages),
/// else `ZERMELO_DATA`, else `./zermelo-data`; an empty one is refused.
pub fn data_folder(given: Option<PathBuf>, flag: &str) -> Result<PathBuf, Error> {
    if let Some(dir) = given {
        if dir.as_os_str().is_empty() {
            return Err(Error::Unsupported(format!("{flag} is empty: name a folder")));
        }
        return Ok(dir);
    }
    match std::env::var_os("ZERMELO_DATA") {
        Some(v) if v.is_empty() => Err(Error::Unsupported(
            "ZERMELO_DATA is set but empty: unset it or name a folder".into(),
        )),
        Some(v) => Ok(PathBuf::from(v)),
        None => Ok(PathBuf::from("./zermelo-data")),
    }
}

/// Refuses a data folder that is a file or cannot be written, before any work starts.
pub fn writable(dir: &std::path::Path) -> Result<(), Error> {
    let fail = |why: String| Error::Io(format!("data folder {}: {why}", dir.display()));
    if dir.as_os_str().is_empty() {
        return Err(fail(
            "empty path (give a data folder, or set ZERMELO_DATA)".into(),
        ));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(fail("is not a folder".into()));
    }
    std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot be created: {e}")))?;
    let probe = dir.join(format!(".zermelo-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| fail(format!("is not writable: {e}")))?;
    std::fs::remove_file(&probe).map_err(|e| fail(e.to_string()))?;
    Ok(())
}

/// Where a game's saved table lies: its spec made a file name, in the data folder.
pub(crate) fn table_path(opts: &Options, spec: &str) -> PathBuf {
    opts.data_dir.join(format!("{}.zdb", table_name(spec)))
}

/// The longest table name kept whole: with the longest ending a table's files get (a
/// part's `.part1-of-64.zdb`, a write's `.PID-N.tmp`) it stays well under the 255 bytes a
/// file name may have.
const NAME_BYTES: usize = 180;

/// The name of a spec's table: the spec with every character but letters and digits
/// written `-`; past [`NAME_BYTES`], its start and a hash of the whole spec, so that a
/// long path, name or version still makes a file name, and another spec another name.
pub(crate) fn table_name(spec: &str) -> String {
    use sha2::{Digest, Sha256};
    let name: String = spec
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if name.len() <= NAME_BYTES {
        return name;
    }
    let hash = Sha256::digest(spec.as_bytes());
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{}-{hex}", &name[..NAME_BYTES - 17])
}

/// The lock of a table being solved into the data folder, held until dropped.
pub(crate) struct TableLock {
    _held: std::fs::File,
}

/// Takes the lock of the table to be saved at `path` (the file `NAME.lock` beside it) for
/// a solve of `spec`: while another solve, in any process, holds it, waits (saying so
/// on `opts`' progress) until it is free, the work is stopped, or its time is up.
pub(crate) fn lock_table(path: &std::path::Path, spec: &str, opts: &Options) -> Result<TableLock, Error> {
    let lock = path.with_extension("lock");
    let fail = |why: String| Error::Io(format!("{}: {why}", lock.display()));
    let file = crate::table::open_regular(
        &lock,
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false),
    )
    .map_err(|e| fail(e.to_string()))?;
    let deadline = opts.budget.clock().deadline;
    let mut waiting = false;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(TableLock { _held: file }),
            Err(std::fs::TryLockError::WouldBlock) => {}
            Err(std::fs::TryLockError::Error(e)) => return Err(fail(e.to_string())),
        }
        if !waiting {
            opts.progress.start(
                &format!("waiting for another solve of {spec} to save its table"),
                0,
            );
            waiting = true;
        }
        if opts.budget.cancelled() {
            return Err(Error::Cancelled);
        }
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(Error::too_big(format!(
                "another solve of {spec} is saving its table in {} now: ask again once it has ended",
                path.parent()
                    .map_or_else(String::new, |d| d.display().to_string())
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The table saved for `spec` (of `ranks` ranks, when given) in the data folder by
/// `saver` (a solver and the version of its output), when there is one; a table made by
/// another solver or version is refused.
pub(crate) fn saved_table(
    opts: &Options,
    spec: &str,
    ranks: Option<u64>,
    saver: (&str, u32),
) -> Result<Option<Database>, Error> {
    let path = table_path(opts, spec);
    if !path.exists() {
        return Ok(None);
    }
    let db = Database::open_for(&path, spec, ranks)?;
    let h = db.header();
    if (h.solver.as_str(), h.solver_version) != saver {
        return Err(Error::Database {
            path: path.display().to_string(),
            why: Said(vec![
                Part::Text(format!(
                    "made by the {} solver, version {}, not by {} version {}: solve again with ",
                    h.solver, h.solver_version, saver.0, saver.1
                )),
                Part::Switch("force"),
            ]),
        });
    }
    Ok(Some(db))
}

/// Re-solves up to `sample` random ranks of `db` (drawn from `seed`; at most 20 draws a
/// sample, as not every rank is a position) from their children's stored values:
/// `solve(rank)` gives the value of the position at `rank` from its children's, `None`
/// when the rank is no position. How many were checked, or the first that disagrees.
pub(crate) fn check_ranks(
    db: &Database,
    sample: u64,
    seed: u64,
    mut solve: impl FnMut(u64) -> Result<Option<Value>, Error>,
) -> Result<u64, Error> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..sample.saturating_mul(20) {
        if checked == sample {
            break;
        }
        let rank = rng.gen_range(0..db.header().ranks);
        let Some(solved) = solve(rank)? else { continue };
        let stored = db.value(rank)?;
        if stored != Some(solved) {
            return Err(Error::Database {
                path: db.path().display().to_string(),
                why: format!("rank {rank} holds {stored:?}, but its children's values give {solved:?}")
                    .into(),
            });
        }
        checked += 1;
    }
    Ok(checked)
}

/// The fact naming a saved table, its size and where its values came from.
pub(crate) fn table_fact(path: &std::path::Path, db: &Database, source: &str) -> Fact {
    Fact::new(
        "table",
        "table",
        FactValue::Text(format!(
            "{} ({} bytes, {source})",
            path.display(),
            db.file_bytes()
        )),
    )
}

/// Refuses to start a job that will write about `bytes` into `dir` when the disk holding
/// it has less room free.
pub fn check_room(dir: &std::path::Path, bytes: u64) -> Result<(), Error> {
    let Some(free) = free_space(dir) else {
        return Ok(());
    };
    if free < bytes {
        return Err(Error::too_big(format!(
            "data folder {}: the solve writes up to {}, but only {} is free",
            dir.display(),
            bytes_text(bytes),
            bytes_text(free)
        )));
    }
    Ok(())
}

/// Bytes free for this user on the disk holding `dir`, when the system tells.
pub fn free_space(dir: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `stat` is written by the call on success.
    let stat = unsafe {
        if libc::statvfs(path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    #[allow(clippy::useless_conversion)] // the field types differ between systems
    Some(u64::from(stat.f_bavail).saturating_mul(u64::from(stat.f_frsize)))
}
