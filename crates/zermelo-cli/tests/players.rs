//! Programs of your own as players, over the player protocol (docs/player-protocol.md):
//! the example bots play whole tournaments, and a bot that crashes, answers an illegal move
//! or hangs forfeits its games while the tournament goes on.

mod common;

use std::time::{Duration, Instant};

use common::{documented, error_line, Server};
use serde_json::Value;

/// `cmd:` with the example bot `file` run by python3.
fn bot(file: &str) -> String {
    format!(
        "cmd:python3 {}/../../examples/bots/{file}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The row of the player named `name` in a tournament's JSON.
fn row<'a>(standings: &'a Value, name: &str) -> &'a Value {
    standings["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == name)
        .unwrap_or_else(|| panic!("no row for {name}: {standings:#}"))
}

#[test]
fn the_random_bot_never_beats_perfect_at_tictactoe() {
    let random = bot("random_bot.py");
    let players = format!("perfect,{random}");
    let s = documented(&["tournament", "tictactoe", "--players", &players, "--games", "20"]);
    assert_eq!(s["games"], 20);
    assert_eq!(row(&s, "perfect")["losses"], 0, "{s:#}");
    assert_eq!(row(&s, &random)["forfeits"], 0, "{s:#}");
    assert_eq!(row(&s, &random)["wins"], 0);
}

#[test]
fn the_greedy_dots_bot_beats_random_and_plays_legally() {
    let greedy = bot("greedy_dots.py");
    let players = format!("{greedy},random");
    let s = documented(&[
        "tournament",
        "dots:size=3",
        "--players",
        &players,
        "--games",
        "20",
    ]);
    let me = row(&s, &greedy);
    assert_eq!(me["forfeits"], 0, "{s:#}");
    assert!(me["wins"].as_u64() > row(&s, "random")["wins"].as_u64(), "{s:#}");
}

#[test]
fn a_bot_that_crashes_forfeits_every_game_and_the_tournament_goes_on() {
    let crash = "cmd:python3 -c 'import sys; sys.exit(3)'";
    let players = format!("random,{crash}");
    let s = documented(&["tournament", "tictactoe", "--players", &players, "--games", "6"]);
    assert_eq!(s["games"], 6);
    assert_eq!(row(&s, crash)["forfeits"], 6, "{s:#}");
    assert_eq!(row(&s, crash)["losses"], 6);
    assert_eq!(row(&s, "random")["wins"], 6);
}

#[test]
fn a_bot_that_answers_an_illegal_move_forfeits() {
    let illegal = "cmd:while read w rest; do [ \"$w\" = go ] && echo z9; done";
    let record = documented(&["play", "tictactoe", "--first", illegal, "--second", "random"]);
    let why = record["forfeit"].as_str().expect("a forfeit");
    assert!(why.contains("'z9' is not a legal move"), "{why}");
    assert_eq!(record["result"], "O wins");
    assert_eq!(record["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn a_bot_that_hangs_forfeits_after_its_move_time_and_is_stopped() {
    let hang = "cmd:sleep 600";
    let players = format!("{hang},random");
    let start = Instant::now();
    let s = documented(&[
        "tournament",
        "tictactoe",
        "--players",
        &players,
        "--games",
        "3",
        "--move-time",
        "0.3",
    ]);
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    assert_eq!(row(&s, hang)["forfeits"], 3, "{s:#}");
    let left = std::process::Command::new("pgrep")
        .args(["-f", "^sleep 600$"])
        .output()
        .expect("pgrep runs");
    assert!(left.stdout.is_empty(), "a stopped bot is still running");
}

#[test]
fn a_bad_move_time_or_an_empty_command_is_refused() {
    let line = error_line(&[
        "tournament",
        "tictactoe",
        "--players",
        "cmd:,random",
        "--games",
        "1",
    ]);
    assert!(line.contains("cmd: needs a command line"), "{line}");
    let out = common::zermelo(&["play", "tictactoe", "--move-time", "0", "--first", "random"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("'0' is not a number of seconds"), "{err}");
}

#[test]
fn the_server_runs_no_programs() {
    let data = std::env::temp_dir().join(format!("zermelo-players-{}", std::process::id()));
    let server = Server::start(&data);
    let (status, body) = server.json("/api/bot?spec=tictactoe&player=cmd:touch%20/tmp/zermelo-pwned");
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("command line and Python only"));
    assert!(!std::path::Path::new("/tmp/zermelo-pwned").exists());
}
