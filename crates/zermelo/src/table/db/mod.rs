//! Solved databases: a table of values by rank in one file, compressed in blocks and
//! probed in place.
//!
//! One file per concern: `format` (the layout of a file: header, layers, block indexes,
//! checksums), `write` (writing a table through a temporary file renamed into place),
//! `read` ([`Database`]: opening a file and probing it through a cache of blocks) and
//! `merge` (putting together the parts of a split solve's table, [`Part`]).

mod format;
mod merge;
mod read;
mod write;

use std::path::Path;

use crate::error::Said;
use crate::Error;

pub use format::{checksum, pack, Header, Layer, LayerInfo, Part, BLOCK_BYTES, MAGIC, VALUE_COUNTS, VERSION};
pub use merge::merge;
pub use read::Database;
pub use write::{value_counts, write, write_codes, write_values, Fill, FillValues};

/// The error for the database at `path`, refused or failed for `why`.
fn db_error(path: &Path, why: impl Into<Said>) -> Error {
    Error::Database {
        path: path.display().to_string(),
        why: why.into(),
    }
}
