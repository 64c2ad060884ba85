//! `zermelo` on the pawns game: solves saved to the data folder, moves with board ids,
//! the perfect player, and one-line errors.

use std::path::{Path, PathBuf};
use std::process::Output;

use common::fact;
use serde_json::Value;

mod common;

/// A data folder of its own for each test.
fn data_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-pawns-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `args` after `--data DATA`.
fn with_data<'a>(data: &'a Path, args: &[&'a str]) -> Vec<&'a str> {
    [&["--data", data.to_str().expect("a UTF-8 path")], args].concat()
}

fn zermelo(data: &Path, args: &[&str]) -> Output {
    common::zermelo(&with_data(data, args))
}

fn json(data: &Path, args: &[&str]) -> Value {
    common::json(&with_data(data, args))
}

fn error_line(data: &Path, args: &[&str]) -> String {
    common::error_line(&with_data(data, args))
}

/// The board id a move leads to, from its note.
fn move_id(m: &Value) -> u64 {
    m["note"]
        .as_str()
        .unwrap()
        .trim_start_matches("board id ")
        .parse()
        .unwrap()
}

#[test]
fn moves_list_board_ids_and_values() {
    let data = data_dir("moves");
    let v = json(&data, &["moves", "pawns:cols=3,rows=5", "--json"]);
    assert_eq!(fact(&v, "id"), 1263);
    assert_eq!(v["to_move"], "White");
    let mut winning: Vec<u64> = Vec::new();
    let mut losing: Vec<u64> = Vec::new();
    for m in v["moves"].as_array().unwrap() {
        let id = move_id(m);
        if m["value"] == "win" {
            winning.push(id);
        } else {
            losing.push(id);
        }
    }
    winning.sort_unstable();
    losing.sort_unstable();
    assert_eq!(winning, [1271, 1275, 1423, 1503, 4463, 6063]);
    assert_eq!(losing, [1267, 1343, 2863]);
    assert!(data.join("pawns-3x5.zdb").exists(), "the table is saved");

    let after = json(
        &data,
        &["moves", "pawns:cols=3,rows=5", "--moves", "a3,c2", "--json"],
    );
    assert_eq!(after["position"], "..B.P/B...P/BP... white");
    assert_eq!(fact(&after, "id"), 11 + 3 * 20);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn solve_reports_classes_and_saves_the_table() {
    let data = data_dir("solve");
    let v = json(&data, &["solve", "pawns:cols=3,rows=5", "--json"]);
    assert_eq!(v["value"], "win");
    assert_eq!(fact(&v, "classes"), 1539);
    assert_eq!(v["positions"], fact(&v, "classes"));
    assert_eq!(fact(&v, "raw_positions"), 2 * (8000 - 1));
    assert_eq!(fact(&v, "source"), "solved now");
    assert!(v["seconds"].is_number());
    let path = data.join("pawns-3x5.zdb");
    let table = fact(&v, "table");
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert!(
        table.as_str().unwrap().contains(&format!("({bytes} bytes)")),
        "{table}"
    );
    let again = json(&data, &["solve", "pawns:cols=3,rows=5", "--json"]);
    assert_eq!(fact(&again, "source"), "read from the data folder");
    assert_eq!(again["remoteness"], v["remoteness"]);
    let forced = json(&data, &["solve", "pawns:cols=3,rows=5", "--force", "--json"]);
    assert_eq!(fact(&forced, "source"), "solved now");
    let black = json(&data, &["solve", "pawns:cols=3,rows=5,first=black", "--json"]);
    assert_eq!(
        (black["value"].clone(), black["to_move"].clone()),
        ("win".into(), "Black".into())
    );

    // A damaged table is refused, not used.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();
    assert!(error_line(&data, &["moves", "pawns:cols=3,rows=5"]).contains("corrupt"));
    std::fs::write(&path, b"not a table").unwrap();
    assert!(error_line(&data, &["moves", "pawns:cols=3,rows=5"]).contains("magic"));
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn count_compares_classes_with_raw_boards() {
    let data = data_dir("count");
    let v = json(&data, &["count", "pawns", "--json"]);
    assert_eq!(fact(&v, "raw_boards"), 550_731_776u64);
    assert_eq!(fact(&v, "classes"), 5_461_512 - 1);
    assert!(error_line(&data, &["count", "pawns", "--symmetry"]).contains("does nothing"));
}

#[test]
fn perfect_player_wins_from_the_start_as_first_mover() {
    let data = data_dir("play");
    let out = zermelo(
        &data,
        &[
            "play",
            "pawns:cols=3,rows=5",
            "--first",
            "perfect",
            "--second",
            "random",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.trim_end().lines().last().unwrap().starts_with("White wins"),
        "{text}"
    );

    let v = json(
        &data,
        &[
            "tournament",
            "pawns:cols=3,rows=5",
            "--players",
            "perfect,random",
            "--games",
            "40",
            "--json",
        ],
    );
    let perfect = &v["players"][0];
    assert_eq!(perfect["player"], "perfect");
    assert!(perfect["wins"].as_u64().unwrap() >= 20, "{v}");
    let v = json(
        &data,
        &[
            "tournament",
            "pawns:cols=3,rows=5",
            "--players",
            "perfect,search",
            "--games",
            "10",
            "--json",
        ],
    );
    assert!(v["players"][0]["wins"].as_u64().unwrap() >= 5, "{v}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_data_folder_that_is_a_file_is_refused_before_solving() {
    let file = data_dir("file");
    std::fs::write(&file, b"a file").unwrap();
    assert!(error_line(&file, &["solve", "pawns:cols=2,rows=4"]).contains("is not a folder"));
    assert_eq!(std::fs::read(&file).unwrap(), b"a file", "nothing saved is lost");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn bad_input_gets_one_line() {
    let data = data_dir("bad");
    for (args, why) in [
        (vec!["count", "pawns:cols=9"], "out of range"),
        (vec!["count", "pawns:rows=2"], "out of range"),
        (
            vec!["count", "pawns:cols=3,rows=5,board=B...P/....P/B...P"],
            "no White pawn",
        ),
        (
            vec!["count", "pawns:cols=3,rows=5,board=B...P/BB..P/B...P"],
            "two White pawns",
        ),
        (
            vec!["count", "pawns:cols=3,rows=5,board=B...P/B...P"],
            "2 columns",
        ),
        (vec!["count", "pawns:cols=3,rows=5,board=99999"], "not a board id"),
        (
            vec!["moves", "pawns:cols=3,rows=5", "--moves", "a1"],
            "cannot move",
        ),
        (
            vec!["moves", "pawns:cols=3,rows=5", "--moves", "pass"],
            "not allowed",
        ),
        (vec!["moves", "pawns:cols=3,rows=5", "--moves", "z2"], "off the"),
        (
            vec!["solve", "pawns:cols=3,rows=5", "--solver", "memo"],
            "solved one way only",
        ),
    ] {
        let err = error_line(&data, &args);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}
