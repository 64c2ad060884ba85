//! The `zermelo` binary on Dots and Boxes: JSON answers and one-line errors.

mod common;

use common::{error_line, fact, json};

#[test]
fn solve_gives_value_and_margin() {
    let v = json(&["solve", "dots:size=3", "--json"]);
    assert_eq!(v["value"], "win");
    assert_eq!(v["margin"], 2);
    assert!(v["positions"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().is_some());
    let plain = json(&["solve", "dots:size=3", "--solver", "plain", "--json"]);
    assert_eq!(plain["margin"], 2);
    let rect = json(&["solve", "dots:rows=2,cols=4", "--json"]);
    assert_eq!(fact(&rect, "boxes"), 3);
}

#[test]
fn the_example_game_ends_in_a_draw() {
    let v = json(&[
        "moves",
        "dots:size=3",
        "--moves",
        "1ab,23a,12a,12c,1bc,12b,2ab,2bc,3ab,23c,3bc,23b",
        "--json",
    ]);
    assert_eq!(v["result"], "draw");
    assert_eq!(v["points"], serde_json::json!([2, 2]));
    assert_eq!(fact(&v, "boxes_first"), "1b 1c");
    assert_eq!(fact(&v, "boxes_second"), "2b 2c");
    assert_eq!(v["terminal"], true);
}

#[test]
fn moves_are_classified_with_margins() {
    // Lenient input: b1a is 1ab, a32 is 23a.
    let v = json(&[
        "moves",
        "dots:size=3",
        "--moves",
        "b1a,a32,12a,12c,1bc,12b",
        "--json",
    ]);
    assert_eq!(v["to_move"], "○");
    assert_eq!(v["points"], serde_json::json!([0, 0]));
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(moves[0]["move"], "2ab");
    assert_eq!(moves[0]["value"], "win");
    assert_eq!(v["margin"], moves[0]["margin"]);
    for m in moves {
        let margin = m["margin"].as_i64().unwrap();
        let class = match margin {
            1.. => "win",
            0 => "draw",
            _ => "lose",
        };
        assert_eq!(m["value"], class);
    }
}

#[test]
fn big_boards_list_moves_unclassified_with_a_suggestion_first() {
    let v = json(&["moves", "dots:size=9", "--moves", "1ab", "--json"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 143);
    assert!(moves.iter().all(|m| m["value"].is_null()));
    assert_eq!(v["to_move"], "●");
}

#[test]
fn bad_input_is_one_line_and_fails() {
    for (args, why) in [
        (vec!["moves", "dots:size=3", "--moves", "1ac"], "not adjacent"),
        (
            vec!["moves", "dots:size=3", "--moves", "1ab,ab1"],
            "already drawn",
        ),
        (vec!["moves", "dots:size=3", "--moves", "5ab"], "off the board"),
        (vec!["moves", "dots:size=3", "--moves", "xyz"], "not a move"),
        (vec!["solve", "dots:size=10"], "out of range"),
        (vec!["solve", "dots:size=random"], "tournaments"),
        (
            vec!["play", "dots:size=6", "--first", "perfect", "--second", "random"],
            "limited",
        ),
        (
            vec!["tournament", "dots:size=3", "--players", "nobody,random"],
            "unknown player",
        ),
    ] {
        let err = error_line(&args);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

#[test]
fn tournaments_report_percentages() {
    let v = json(&[
        "tournament",
        "dots:size=3",
        "--players",
        "greedy,random",
        "--games",
        "60",
        "--seed",
        "7",
        "--json",
    ]);
    assert_eq!(v["games"], 60);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players[0]["player"], "greedy");
    let total: f64 = ["win_pct", "draw_pct", "loss_pct"]
        .iter()
        .map(|k| players[0][k].as_f64().unwrap())
        .sum();
    assert!((total - 100.0).abs() < 1e-9);
    assert!(players[0]["wins"].as_u64() > players[1]["wins"].as_u64());
    let random = json(&[
        "tournament",
        "dots:size=random",
        "--players",
        "greedy,random",
        "--games",
        "6",
        "--json",
    ]);
    assert_eq!(random["games"], 6);
    assert_eq!(fact(&random, "random_sizes"), serde_json::json!([2, 9]));
}
