//! The report every command prints: text for people, one JSON document for programs.

use serde_json::Value as Json;

/// A command's result: text for people and one JSON document for programs.
pub struct Report {
    /// What a person reads.
    pub text: String,
    /// What `--json` prints.
    pub json: Json,
}
