//! What every command prints: text for people, one JSON document for programs.

use serde::Serialize;
use serde_json::{json, Value as Json};

/// A command's result: text for people and one JSON document for programs.
pub struct Report {
    /// What a person reads.
    pub text: String,
    /// What `--json` prints.
    pub json: Json,
}

/// The JSON document of `value` for `command`: its fields plus `"command"`.
pub fn document(command: &str, value: &impl Serialize) -> Json {
    let mut json = serde_json::to_value(value).expect("results serialise");
    if let Json::Object(map) = &mut json {
        map.insert("command".into(), json!(command));
    }
    json
}
