//! Graph files: the node-link JSON that `zermelo graph --format json` writes, and its
//! GraphML, read into a [`GameGraph`].

use std::path::Path;

use super::GameGraph;
use crate::Error;

/// Reads the graph file at `path` (GraphML when its name ends in `.graphml` or `.xml`,
/// else node-link JSON), naming the graph `name`.
pub fn read(path: &Path, name: &str) -> Result<GameGraph, Error> {
    let _ = name;
    Err(Error::Unsupported(format!("cannot read {} yet", path.display())))
}
