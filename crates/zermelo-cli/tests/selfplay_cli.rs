//! `zermelo balance SPEC --players NAME`: self-play estimates, the same on one thread as on
//! every core, stopping under `--until`, with one-line errors for bad input.

mod common;

use std::process::Command;

use common::{documented, error_line};
use serde_json::Value;

/// The estimate's JSON without its timings, under `RAYON_NUM_THREADS=threads`.
fn on_threads(threads: usize, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["seconds"] = Value::Null;
    v["games_per_second"] = Value::Null;
    v
}

#[test]
fn one_thread_and_two_give_the_same_estimate() {
    let args = [
        "--json",
        "balance",
        "bigpoints:players=3",
        "--players",
        "greedy,mcts:20,random",
        "--games",
        "150",
        "--seed",
        "9",
    ];
    let one = on_threads(1, &args);
    assert_eq!(one["games"], 150);
    assert_eq!(one["players"][1], "mcts:20");
    assert_eq!(one, on_threads(2, &args));
}

#[test]
fn until_stops_once_every_interval_is_narrow_enough_or_says_it_is_not() {
    let e = documented(&[
        "balance",
        "tictactoe",
        "--players",
        "random",
        "--games",
        "100000",
        "--until",
        "0.1",
    ]);
    let games = e["games"].as_u64().unwrap();
    assert!(games < 100_000 && games.is_multiple_of(100), "{games}");
    assert_eq!(e["reached"], true);
    let out = common::zermelo(&[
        "balance",
        "tictactoe",
        "--players",
        "random",
        "--games",
        "150",
        "--until",
        "0.01",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("150 games of tictactoe, random in every seat"),
        "{text}"
    );
    assert!(text.contains("stopped at --games 150"), "{text}");
}

#[test]
fn a_score_game_reports_margins_and_the_first_move_advantage() {
    let out = common::zermelo(&[
        "balance",
        "bigpoints:players=2",
        "--players",
        "greedy",
        "--games",
        "40",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "seat",
        "points %",
        "winner's margin",
        "first-move advantage",
        "games/s",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let e = documented(&[
        "balance",
        "dots:size=2",
        "--players",
        "greedy,random",
        "--games",
        "50",
    ]);
    assert!(e["margin"]["mean"].as_f64().unwrap() >= 0.0);
    assert!(e["first_move_advantage"].is_object());
    let shares: f64 = e["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"]["share"].as_f64().unwrap())
        .sum();
    assert!((shares - 1.0).abs() < 1e-9, "{shares}");
}

#[test]
fn bad_input_is_one_line() {
    let bad = |args: &[&str], says: &str| {
        let line = error_line(&[&["balance"], args].concat());
        assert!(line.contains(says), "{args:?}: {line}");
    };
    bad(&["tictactoe", "--players", "nobody"], "unknown player");
    bad(
        &["tictactoe", "--players", "random", "--games", "0"],
        "at least one game",
    );
    bad(
        &["tictactoe", "--players", "random", "--until", "1"],
        "less than 1",
    );
    bad(
        &["tictactoe", "--players", "random", "--until", "0"],
        "more than 0",
    );
    bad(&["tictactoe", "--players", "random,random,random"], "2 seats");
    bad(&["tictactoe", "--games", "10"], "--players");
    bad(
        &["tictactoe", "--players", "random", "--sample", "3"],
        "cannot be used",
    );
}
