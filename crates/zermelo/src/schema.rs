//! The JSON schema of every document the front ends give (`zermelo COMMAND --json`, the
//! server's answers, the fields of Python's results), derived from the result types: a
//! result is declared once, by its Rust type, and `docs/schema.json` is [`document`]
//! written out (a test keeps the file current).

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{json, Map, Value};

use crate::analysis::selfplay::Estimate;
use crate::balance_map::BalanceMap;
use crate::catalog::Description;
use crate::games::bigpoints::sweep::FamilySweep;
use crate::games::impartial::grundy::GrundyReport;
use crate::session::saved::{DbCheck, DbInfo, DbList, DbMerge};
use crate::session::strength::SeatsReport;
use crate::session::{
    Counts, DesignReport, GameRecord, Graph, PositionView, SeatResults, Solution, Standings, Verdict,
};

/// Where the schema says it is published.
const ID: &str = "https://github.com/zermelo-games/zermelo/docs/schema.json";

/// A document: its definition's name, its `command` and the definition of its other
/// fields.
struct Doc {
    name: &'static str,
    command: &'static str,
    fields: Value,
}

/// The definition of `T`'s fields, added to the generator's definitions.
fn fields<T: JsonSchema>(generator: &mut SchemaGenerator) -> Value {
    generator.subschema_for::<T>().to_value()
}

/// Every document of a command whose fields are one result type, by the command's name.
fn documents(generator: &mut SchemaGenerator) -> Vec<Doc> {
    let mut docs = vec![
        ("solve", "solve", fields::<Solution>(generator)),
        ("moves", "moves", fields::<PositionView>(generator)),
        ("count", "count", fields::<Counts>(generator)),
        ("graph", "graph", fields::<Graph>(generator)),
        ("tournament", "tournament", fields::<Standings>(generator)),
        ("play", "play", fields::<GameRecord>(generator)),
        ("grundy", "grundy", fields::<GrundyReport>(generator)),
        ("estimate", "estimate", fields::<Estimate>(generator)),
        ("report", "report", fields::<DesignReport>(generator)),
        ("report_seats", "report", fields::<SeatsReport>(generator)),
        ("db_list", "db list", fields::<DbList>(generator)),
        ("db_info", "db info", fields::<DbInfo>(generator)),
        ("db_verify", "db verify", fields::<DbCheck>(generator)),
        ("db_merge", "db merge", fields::<DbMerge>(generator)),
    ];
    let games = fields::<Vec<Description>>(generator);
    docs.push(("games", "games", object(&[("games", games)])));
    let map = fields::<BalanceMap>(generator);
    docs.push(("balance_map", "balance", object(&[("map", map)])));
    let configs = fields::<Vec<FamilySweep>>(generator);
    let seconds = json!({ "type": "number", "minimum": 0 });
    docs.push((
        "balance_sweep",
        "balance",
        object(&[("configs", configs), ("seconds", seconds)]),
    ));
    docs.into_iter()
        .map(|(name, command, fields)| Doc {
            name,
            command,
            fields,
        })
        .collect()
}

/// An object of these fields, every one required.
fn object(fields: &[(&str, Value)]) -> Value {
    let properties: Map<String, Value> = fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    let required: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    json!({ "type": "object", "required": required, "properties": properties })
}

/// The documents only the server answers with, which no result type declares: a bot's
/// move and a refused request.
fn server_documents() -> [(&'static str, Value); 2] {
    let string = json!({ "type": "string" });
    let note = json!({
        "description": "How the move was chosen where the player fell back on a move it did not prove in time.",
        "type": "string"
    });
    let bot = json!({
        "description": "A bot's move (`GET /api/bot`).",
        "type": "object",
        "required": ["command", "game", "player", "move"],
        "additionalProperties": false,
        "properties": {
            "command": { "const": "bot" },
            "game": string,
            "player": string,
            "move": string,
            "note": note
        }
    });
    let error = json!({
        "description": "A refused request of the server (4xx or 5xx status).",
        "type": "object",
        "required": ["error"],
        "additionalProperties": false,
        "properties": { "error": string }
    });
    [("bot", bot), ("error", error)]
}

/// The schema of every document, as `docs/schema.json` holds it.
pub fn document() -> Value {
    let mut generator = SchemaSettings::draft2020_12().for_serialize().into_generator();
    let docs = documents(&mut generator);
    fields::<Verdict>(&mut generator);
    fields::<SeatResults>(&mut generator);
    let mut defs = generator.take_definitions(true);
    for doc in &docs {
        let mut schema = resolved(&doc.fields, &defs);
        let command = json!({ "const": doc.command });
        if let Value::Object(map) = &mut schema {
            let properties = map.entry("properties").or_insert_with(|| json!({}));
            if let Value::Object(properties) = properties {
                let mut with_command = Map::new();
                with_command.insert("command".into(), command);
                with_command.extend(std::mem::take(properties));
                *properties = with_command;
            }
            let required = map.entry("required").or_insert_with(|| json!([]));
            if let Value::Array(required) = required {
                required.insert(0, "command".into());
            }
        }
        defs.insert(doc.name.into(), schema);
    }
    let mut one_of: Vec<Value> = docs
        .iter()
        .map(|d| d.name)
        .filter(|&name| name != "balance_map" && name != "balance_sweep")
        .map(reference)
        .collect();
    defs.insert(
        "balance".into(),
        json!({
            "description": "`zermelo balance`: a Big Points sweep of arrangements (`configs`), or the balance map of a family of boards (`map`).",
            "oneOf": [reference("balance_sweep"), reference("balance_map")]
        }),
    );
    one_of.push(reference("balance"));
    for (name, schema) in server_documents() {
        defs.insert(name.into(), schema);
        one_of.push(reference(name));
    }
    // The parts several results take in whole, kept for clients to name.
    let parts = [reference("Verdict"), reference("SeatResults")];
    drop_unused(&mut defs, &[&one_of[..], &parts].concat());
    let taken_in: Vec<String> = defs.values().flat_map(flattened).collect();
    for (name, schema) in defs.iter_mut() {
        close(schema, !taken_in.contains(name));
        tidy(schema);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID,
        "title": "zermelo JSON output",
        "description": "Every JSON document a `zermelo` command prints, and every answer of the `zermelo serve` API, for every game. The field `command` tells which shape follows.",
        "oneOf": one_of,
        "$defs": defs,
    })
}

/// `{"$ref": …}` to the definition `name`.
fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

/// `schema` with a reference to a definition replaced by (a copy of) that definition.
fn resolved(schema: &Value, defs: &Map<String, Value>) -> Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(path) => defs[path.trim_start_matches("#/$defs/")].clone(),
        None => schema.clone(),
    }
}

/// The definitions reachable from `roots` only.
fn drop_unused(defs: &mut Map<String, Value>, roots: &[Value]) {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo: Vec<String> = roots.iter().flat_map(references).collect();
    while let Some(name) = todo.pop() {
        if seen.insert(name.clone()) {
            todo.extend(defs.get(&name).map(references).unwrap_or_default());
        }
    }
    defs.retain(|name, _| seen.contains(name));
}

/// The definitions `schema` refers to.
fn references(schema: &Value) -> Vec<String> {
    match schema {
        Value::Object(map) => map
            .iter()
            .flat_map(|(key, value)| match (key.as_str(), value.as_str()) {
                ("$ref", Some(path)) => vec![path.trim_start_matches("#/$defs/").to_string()],
                _ => references(value),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(references).collect(),
        _ => Vec::new(),
    }
}

/// The definitions whose fields `schema` takes in with its own (a flattened enum: one of
/// them, beside its properties).
fn flattened(schema: &Value) -> Vec<String> {
    if schema.get("properties").is_none() {
        return Vec::new();
    }
    ["allOf", "anyOf", "oneOf"]
        .iter()
        .filter_map(|key| schema.get(key))
        .flat_map(references)
        .collect()
}

/// Every object of `schema` that names its properties closed to others (`schema` itself
/// only when `this`): a document holds the fields its type declares and no more. An
/// object that takes in the fields of others closes over theirs too.
fn close(schema: &mut Value, this: bool) {
    match schema {
        Value::Object(map) => {
            if this && map.contains_key("properties") && !map.contains_key("additionalProperties") {
                let combined = ["allOf", "anyOf", "oneOf"].iter().any(|k| map.contains_key(*k));
                let key = if combined {
                    "unevaluatedProperties"
                } else {
                    "additionalProperties"
                };
                map.insert(key.into(), Value::Bool(false));
            }
            map.values_mut().for_each(|v| close(v, true));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| close(v, true)),
        _ => {}
    }
}

/// Every description of `schema` as readers of JSON take it: one line, without the
/// brackets of the doc comments' links.
fn tidy(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(text)) = map.get_mut("description") {
                *text = text.replace('\n', " ").replace("[`", "`").replace("`]", "`");
            }
            map.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}
