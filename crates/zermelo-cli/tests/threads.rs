//! `--threads N`: every answer is the same on 1, 2 and 4 threads — a level solve's
//! database byte for byte, null-window and Dots searches' values, a Big Points sweep's
//! CSV (its threads sharing one table of three families' positions), a Grundy sequence and
//! self-play tallies; a bad count is a one-line error.

mod common;

use common::{error_line, json, zermelo};
use serde_json::{json, Value};

const THREADS: [&str; 3] = ["1", "2", "4"];

fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-threads-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The answer of `args` on each thread count, as `pick` reads it from the JSON.
fn on_each(args: &[&str], pick: impl Fn(&Value) -> Value) -> Vec<Value> {
    THREADS
        .iter()
        .map(|t| pick(&json(&[&["--threads", t, "--json"], args].concat())))
        .collect()
}

fn assert_all_equal<T: PartialEq + std::fmt::Debug>(what: &str, answers: &[T]) {
    assert!(
        answers.windows(2).all(|w| w[0] == w[1]),
        "{what} differs with the threads: {answers:?}"
    );
}

#[test]
fn a_level_solve_saves_the_same_database_on_any_threads() {
    let dir = folder("levels");
    let files: Vec<Vec<u8>> = THREADS
        .iter()
        .map(|t| {
            let data = dir.join(t);
            let out = zermelo(&[
                "--threads",
                t,
                "--data",
                data.to_str().unwrap(),
                "solve",
                "pawns:cols=4,rows=5",
            ]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            std::fs::read(data.join("pawns-4x5.zdb")).unwrap()
        })
        .collect();
    assert!(!files[0].is_empty());
    assert!(files.windows(2).all(|w| w[0] == w[1]), "the databases differ");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn searches_find_the_same_values_on_any_threads() {
    let value =
        |doc: &Value| serde_json::json!([doc["solver"], doc["value"], doc["margin"], doc["remoteness"]]);
    for spec in [
        "mnk:m=4,n=4,k=4",
        "mnk:m=5,n=4,k=4",
        "dots:size=4",
        "dots:rows=3,cols=6",
    ] {
        let answers = on_each(&["solve", spec, "--no-save"], value);
        assert_all_equal(spec, &answers);
        assert_ne!(answers[0][1], Value::Null, "{spec}: {answers:?}");
    }
}

#[test]
fn a_sweep_writes_the_same_csv_on_any_threads() {
    let dir = folder("sweep");
    let sheets: Vec<String> = THREADS
        .iter()
        .map(|t| {
            let csv = dir.join(format!("{t}.csv"));
            let out = zermelo(&[
                "--threads",
                t,
                "balance",
                "bigpoints",
                "--configs",
                "2x2,3x2,4x2",
                "--csv",
                csv.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            std::fs::read_to_string(csv).unwrap()
        })
        .collect();
    assert!(sheets[0].lines().count() > 20, "{}", sheets[0]);
    assert_all_equal("the CSV", &sheets);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sequences_and_self_play_are_the_same_on_any_threads() {
    // Computed on each thread count, not read from values saved before.
    let values = on_each(
        &[
            "grundy",
            "octal:code=0.106",
            "--to",
            "5000",
            "--no-save",
            "--force",
        ],
        |doc| json!([doc["start"], doc["rare"], doc["source"]]),
    );
    assert_eq!(values[0][2], "computed now");
    assert_all_equal("the Grundy values", &values);
    let tallies = on_each(
        &[
            "balance",
            "tictactoe",
            "--players",
            "random",
            "--games",
            "300",
            "--seed",
            "5",
        ],
        |doc| {
            let seats = doc["seats"].as_array().unwrap();
            Value::Array(
                seats
                    .iter()
                    .map(|s| serde_json::json!([s["wins"], s["draws"], s["losses"]]))
                    .collect(),
            )
        },
    );
    assert_all_equal("the self-play tallies", &tallies);
}

#[test]
fn a_bad_thread_count_is_a_one_line_error() {
    for bad in ["0", "many", "5000"] {
        let line = error_line(&["--threads", bad, "games"]);
        assert!(line.contains("--threads"), "{line}");
    }
}
