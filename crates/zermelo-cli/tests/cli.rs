//! The `zermelo` binary end to end: JSON answers and one-line errors.

mod common;

use std::process::Command;

use common::{error_line, json, Server};

#[test]
fn solve_tictactoe_is_a_draw() {
    for solver in ["alphabeta", "memo", "retrograde"] {
        let v = json(&["solve", "tictactoe", "--solver", solver, "--json"]);
        assert_eq!(v["value"], "draw", "{solver}");
        assert!(v["positions"].as_u64().unwrap() > 0);
        assert!(v["seconds"].is_number());
    }
}

#[test]
fn a_reader_that_stops_ends_the_output_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["games", "--json"])
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn solve_mnk_four_by_four() {
    assert_eq!(json(&["solve", "mnk:m=4,n=4,k=3", "--json"])["value"], "win");
    assert_eq!(json(&["solve", "mnk:m=4,n=4,k=4", "--json"])["value"], "draw");
}

#[test]
fn solve_stops_at_its_seconds() {
    // Time enough: the same answer as without.
    let timed = json(&["solve", "tictactoe", "--no-save", "--seconds", "60", "--json"]);
    assert_eq!(timed["value"], "draw");
    // Too little: refused (up front, or stopped at the deadline), naming the flag.
    let err = error_line(&["solve", "pawns:cols=4,rows=5", "--no-save", "--seconds", "0.001"]);
    assert!(
        err.starts_with("error: solving pawns:cols=4,rows=5") && err.contains("--seconds 0.001"),
        "{err}"
    );
    let err = error_line(&["solve", "tictactoe", "--seconds", "0"]);
    assert!(err.contains("'0' is not a number of seconds"), "{err}");
}

#[test]
fn rules_lists_the_legal_moves_with_nothing_solved() {
    let data = std::env::temp_dir().join(format!("zermelo-rules-{}", std::process::id()));
    let data = data.to_str().unwrap();
    let v = json(&["--data", data, "rules", "tictactoe", "--moves", "a1,b2", "--json"]);
    assert!(common::schema_errors(&common::validator(), &v).is_empty(), "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    assert!(moves.iter().all(|m| m["value"].is_null()), "{v}");
    // The moves `moves` values, in the same notation.
    let valued = json(&["--data", data, "moves", "tictactoe", "--moves", "a1,b2", "--json"]);
    let names = |doc: &serde_json::Value| {
        let mut names: Vec<String> = doc["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].to_string())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&v), names(&valued));
    // A board far too large to solve: listed at once, its moves those of the rules.
    let big = json(&[
        "--data",
        data,
        "rules",
        "domineering:rows=10,cols=10",
        "--moves",
        "a1",
        "--json",
    ]);
    assert_eq!(big["moves"].as_array().unwrap().len(), 10 * 9 - 2);
    let err = error_line(&["--data", data, "rules", "tictactoe", "--moves", "a1,a1"]);
    assert!(err.starts_with("error: "), "{err}");
    let _ = std::fs::remove_dir_all(data);
}

#[test]
fn moves_of_an_mnk_board_agree_with_its_solve() {
    for (spec, cells) in [("mnk:m=4,n=4,k=3", 16), ("mnk:m=5,n=4,k=4", 20)] {
        let solved = json(&["solve", spec, "--json"]);
        let moves = json(&["moves", spec, "--json"]);
        assert_eq!(moves["moves"].as_array().unwrap().len(), cells, "{spec}");
        let best = &moves["moves"][0];
        assert_eq!(
            (&best["value"], &best["remoteness"]),
            (&solved["value"], &solved["remoteness"]),
            "{spec}"
        );
        assert_eq!(moves["value"], solved["value"], "{spec}");
    }
}

#[test]
fn count_tictactoe_with_symmetry() {
    let v = json(&["count", "tictactoe", "--symmetry", "--json"]);
    let games = &v["games"];
    assert_eq!(games["total"], 255_168);
    assert_eq!(games["first_wins"], 131_184);
    assert_eq!(games["second_wins"], 77_904);
    assert_eq!(games["draws"], 46_080);
    let positions = &v["positions"];
    assert_eq!(positions["total"], 765);
    assert_eq!(positions["terminal"], 138);
    assert_eq!(positions["first_wins"], 91);
    assert_eq!(positions["second_wins"], 44);
    assert_eq!(positions["draws"], 3);
    let plain = json(&["count", "tictactoe", "--json"]);
    assert_eq!(plain["positions"]["total"], 5478);
    assert_eq!(plain["positions"]["terminal"], 958);
}

#[test]
fn moves_lists_values_after_a_sequence() {
    let v = json(&["moves", "tictactoe", "--moves", "a1,a2,b1,b2", "--json"]);
    assert_eq!(v["position"], ".../oo./xx.");
    assert_eq!(v["to_move"], "X");
    assert_eq!(v["terminal"], false);
    let best = &v["moves"][0];
    assert_eq!(best["move"], "c1");
    assert_eq!(best["value"], "win");
    assert_eq!(best["remoteness"], 1);
    let done = json(&["moves", "tictactoe", "--moves", "a1,a2,b1,b2,c1", "--json"]);
    assert_eq!(done["terminal"], true);
    assert_eq!(done["result"], "X wins");
}

#[test]
fn tournament_perfect_never_loses() {
    let v = json(&[
        "tournament",
        "tictactoe",
        "--players",
        "perfect,random",
        "--games",
        "200",
        "--json",
    ]);
    assert_eq!(v["games"], 200);
    assert_eq!(v["players"][0]["losses"], 0);
    assert_eq!(v["players"][1]["wins"], 0);
}

#[test]
fn a_player_with_a_probability_plays_between_random_and_itself() {
    let args = |players| {
        [
            "tournament",
            "tictactoe",
            "--players",
            players,
            "--games",
            "200",
            "--json",
        ]
    };
    let sure = json(&args("perfect:1,random"));
    assert_eq!(sure["players"][0]["losses"], 0);
    let never = json(&args("perfect:0,random"));
    assert!(never["players"][0]["losses"].as_u64().unwrap() > 10, "{never}");
    let line = error_line(&["tournament", "tictactoe", "--players", "perfect:2,random"]);
    assert!(line.contains("from 0 to 1"), "{line}");
}

#[test]
fn games_lists_keys() {
    let v = json(&["games", "--json"]);
    let mnk = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "mnk")
        .unwrap();
    assert_eq!(mnk["keys"][0]["key"], "m");
}

#[test]
fn bad_input_gives_one_clear_line() {
    assert!(error_line(&["solve", "chess"]).contains("unknown game 'chess'"));
    assert!(error_line(&["solve", "mnk:m=9"]).contains("out of range"));
    assert!(error_line(&["solve", "mnk:q=3"]).contains("no key 'q'"));
    assert!(error_line(&["solve", "mnk:m"]).contains("not key=value"));
    assert!(
        error_line(&["moves", "tictactoe", "--moves", "a1,a1"]).contains("'a1': move 2: that cell is taken")
    );
    assert!(error_line(&["moves", "tictactoe", "--moves", "zz"]).contains("'zz'"));
    assert!(
        error_line(&["tournament", "tictactoe", "--players", "nobody,random"]).contains("unknown player")
    );
    assert!(error_line(&["tournament", "tictactoe", "--players", "perfect"]).contains("2 seats"));
    assert!(error_line(&["tournament", "tictactoe", "--players", "a,b,c"]).contains("not 3"));
    assert!(error_line(&["tournament", "tictactoe", "--games", "0"]).contains("at least one game"));
    assert!(error_line(&["solve", "tictactoe", "--solver", "magic"]).contains("unknown solver 'magic'"));
    assert!(
        error_line(&["play", "tictactoe", "--first", "random", "--second", "search:x"]).contains("depth")
    );
    assert!(error_line(&["solve", "mnk:m=8,n=8,k=5", "--solver", "retrograde"]).contains("memory"));
}

#[test]
fn an_empty_data_folder_setting_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["solve", "tictactoe"])
        .env("ZERMELO_DATA", "")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ZERMELO_DATA is set but empty"));
}

#[test]
fn play_records_a_game_and_quit_ends_it_cleanly() {
    let v = json(&[
        "play",
        "tictactoe",
        "--first",
        "perfect",
        "--second",
        "random",
        "--json",
    ]);
    assert_eq!(v["players"], serde_json::json!(["perfect", "random"]));
    assert!(v["moves"].as_array().unwrap().len() >= 5);
    assert_ne!(v["result"], "O wins");
    let mut child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["play", "tictactoe"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("quit"));
}

#[test]
fn tournament_rows_add_up_with_shared_wins() {
    let v = json(&[
        "tournament",
        "tictactoe",
        "--players",
        "random,random",
        "--games",
        "30",
        "--json",
    ]);
    for row in v["players"].as_array().unwrap() {
        let sum: u64 = ["wins", "shared", "draws", "losses"]
            .iter()
            .map(|k| row[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, 30);
    }
}

#[test]
fn serve_answers_the_page_and_the_api() {
    let data = std::env::temp_dir().join(format!("zermelo-serve-{}", std::process::id()));
    let server = Server::start(&data);
    let (status, page) = server.request("GET", "/");
    assert!(status == 200 && page.contains("play the perfect bot"));
    let (status, body) = server.json("/api/moves?spec=tictactoe&moves=a1,a2,b1,b2");
    assert_eq!(status, 200);
    assert_eq!(body["moves"][0]["move"], "c1");
    assert_eq!(body["moves"][0]["value"], "win");
    let (status, body) = server.json("/api/bot?spec=tictactoe&moves=a1,a2,b1,b2");
    assert_eq!((status, body["move"].clone()), (200, "c1".into()));
    let (status, games) = server.json("/api/games");
    assert_eq!(status, 200);
    assert!(games["games"].as_array().unwrap().len() >= 10);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn serve_reads_only_the_graph_files_it_was_given() {
    let data = std::env::temp_dir().join(format!("zermelo-serve-graph-{}", std::process::id()));
    let loops = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/graphs/loops.json");
    let offered = format!("graph:file={loops}");
    let server = Server::start_with(&data, &["--game", &offered]);
    let (status, body) = server.json(&format!("/api/moves?spec={offered}&moves=a"));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["value"], "draw");
    let (status, body) = server.json("/api/bot?spec=graph:file=/etc/hostname");
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("--game"), "{body}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn serve_refuses_bad_and_oversized_requests_with_json() {
    let data = std::env::temp_dir().join(format!("zermelo-serve-bad-{}", std::process::id()));
    let server = Server::start(&data);
    let refused = |path: &str, status: u16, says: &str| {
        let (got, body) = server.json(path);
        assert_eq!(got, status, "{path}: {body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{path}: {body}");
    };
    refused("/api/moves?spec=tictactoe&moves=a1,a1", 400, "that cell is taken");
    refused("/api/moves?spec=chess", 400, "unknown game");
    refused("/api/moves?spec=mnk:m", 400, "not key=value");
    // Said in the server's words, not its parser's.
    for path in ["/api/moves?moves=a1", "/api/bot", "/api/moves?spec="] {
        refused(path, 400, "give the game: ");
    }
    refused("/api/moves?spec=tictactoe&all=maybe", 400, "a bad query: ");
    refused("/api/moves?spec=openspiel:tic_tac_toe", 400, "python -m zermelo");
    refused("/api/nothing", 404, "no such page");
    refused(
        &format!("/api/moves?spec=tictactoe&moves={}", "a1,".repeat(4000)),
        414,
        "longer",
    );
    let (status, body) = server.request("POST", "/api/moves?spec=tictactoe");
    assert_eq!(status, 405, "{body}");
    assert!(body.contains("GET and HEAD only"));
    // A job far over the request budget is refused at once, before any work starts.
    let started = std::time::Instant::now();
    refused("/api/moves?spec=pawns:cols=8,rows=8", 422, "zermelo solve");
    assert!(started.elapsed().as_secs_f64() < 1.0);
    // A search that outgrows the budget stops at it.
    refused("/api/moves?spec=mnk:m=6,n=6,k=5", 422, "zermelo moves");
    let (status, _) = server.json("/api/moves?spec=tictactoe");
    assert_eq!(status, 200, "the server still answers");
    let _ = std::fs::remove_dir_all(&data);
}
