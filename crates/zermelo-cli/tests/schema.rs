//! Every command's `--json` output, for every game in the catalog, validates against the
//! one schema in `docs/schema.json`; commands a game does not offer fail in one line. The
//! file is the schema the library derives from its result types
//! (`zermelo::schema::document`), written out: `scripts/schema` (`ZERMELO_BLESS=1`) writes
//! it anew after a result type changes.

mod common;

use common::{schema_errors, validator, zermelo};
use serde_json::Value;

/// Runs `args` with `--json`: a document valid against the schema, or a one-line error
/// (`None`).
fn checked(schema: &jsonschema::Validator, data: &str, args: &[&str]) -> Option<Value> {
    let mut all = vec!["--data", data, "--json"];
    all.extend_from_slice(args);
    let out = zermelo(&all);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        return None;
    }
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let errors = schema_errors(schema, &doc);
    assert!(errors.is_empty(), "{args:?}: {errors:?}\n{doc:#}");
    Some(doc)
}

#[test]
fn the_schema_file_is_the_result_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/schema.json");
    let derived = serde_json::to_string_pretty(&zermelo::schema::document()).unwrap() + "\n";
    if std::env::var_os("ZERMELO_BLESS").is_some() {
        std::fs::write(path, &derived).unwrap();
    }
    let saved = std::fs::read_to_string(path).unwrap();
    assert!(
        saved == derived,
        "docs/schema.json is not the schema of the result types: run scripts/schema"
    );
}

/// `docs/options.json` is the dump of every command's declared options, from which
/// `scripts/options.py` writes Python's signatures.
#[test]
fn the_options_file_is_the_declarations() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/options.json");
    let derived = serde_json::to_string_pretty(&zermelo::command::document()).unwrap() + "\n";
    if std::env::var_os("ZERMELO_BLESS").is_some() {
        std::fs::write(path, &derived).unwrap();
    }
    let saved = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        saved == derived,
        "docs/options.json is not the commands' declared options: run scripts/schema"
    );
}

#[test]
fn every_command_for_every_game_matches_the_schema() {
    let schema = validator();
    let data_dir = std::env::temp_dir().join(format!("zermelo-schema-{}", std::process::id()));
    let data = data_dir.to_str().unwrap();
    let games = checked(&schema, data, &["games"]).expect("games lists the catalog");
    let mut graphs = 0;
    for game in games["games"].as_array().unwrap() {
        let examples = game["examples"].as_array().unwrap();
        assert!(!examples.is_empty(), "{}", game["name"]);
        for spec in examples {
            let spec = spec.as_str().unwrap();
            let solved = checked(&schema, data, &["solve", spec]).unwrap_or_else(|| panic!("{spec} solves"));
            assert!(solved["value"].is_string(), "{spec}");
            for solver in game["solvers"].as_array().unwrap() {
                checked(
                    &schema,
                    data,
                    &["solve", spec, "--solver", solver.as_str().unwrap()],
                )
                .unwrap_or_else(|| panic!("{spec} solves with {solver}"));
            }
            let start = checked(&schema, data, &["moves", spec]).expect("moves");
            let first = start["moves"][0]["move"].as_str().unwrap().to_string();
            let after = checked(&schema, data, &["moves", spec, "--moves", &first]).expect("moves after one");
            assert_eq!(after["game"], spec);
            checked(&schema, data, &["count", spec]);
            // A graph over the limit of nodes, or up to symmetries a game lacks, is refused.
            for symmetry in [&[][..], &["--symmetry"]] {
                if let Some(graph) = checked(&schema, data, &[&["graph", spec][..], symmetry].concat()) {
                    assert_eq!(graph["nodes"][0]["id"], 0, "{spec}");
                    graphs += 1;
                }
            }
            let standings =
                checked(&schema, data, &["tournament", spec, "--games", "4"]).expect("a tournament");
            let seats: Vec<&str> = standings["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|_| "random")
                .collect();
            let record =
                checked(&schema, data, &["play", spec, "--seats", &seats.join(",")]).expect("a played game");
            // Every game maps a family: here, of its one example.
            let map = checked(&schema, data, &["balance", spec, "--seconds", "30"]).expect("a map");
            assert_eq!(map["map"]["members"][0]["status"], "solved", "{spec}");
            assert!(!record["moves"].as_array().unwrap().is_empty(), "{spec}");
        }
    }
    assert!(graphs > 10, "most examples draw a graph: {graphs}");
    checked(&schema, data, &["grundy", "octal:code=0.77"]).expect("grundy");
    checked(&schema, data, &["balance", "bigpoints:colors=2,discs=2"]).expect("balance");
    for (spec, players) in [("bigpoints:players=3", "greedy"), ("tictactoe", "random")] {
        let args = [
            "balance",
            spec,
            "--players",
            players,
            "--games",
            "20",
            "--until",
            "0.9",
        ];
        checked(&schema, data, &args).expect("a self-play estimate");
    }
    let list = checked(&schema, data, &["db", "list"]).expect("db list");
    let saved = list["databases"].as_array().unwrap();
    assert!(!saved.is_empty(), "{list}");
    for db in saved {
        let path = db["path"].as_str().unwrap();
        checked(&schema, data, &["db", "info", path]).expect("db info");
        checked(&schema, data, &["db", "verify", path, "--sample", "50"]).expect("db verify");
    }
    let _ = std::fs::remove_dir_all(&data_dir);
}
