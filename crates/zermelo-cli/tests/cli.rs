//! The `zermelo` binary end to end: JSON answers and one-line errors.

mod common;

use std::process::Command;

use common::{error_line, json};
use serde_json::Value;

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
fn solve_mnk_four_by_four() {
    assert_eq!(json(&["solve", "mnk:m=4,n=4,k=3", "--json"])["value"], "win");
    assert_eq!(json(&["solve", "mnk:m=4,n=4,k=4", "--json"])["value"], "draw");
}

#[test]
fn count_tictactoe_with_symmetry() {
    let v = json(&["count", "tictactoe", "--symmetry", "--json"]);
    assert_eq!(v["games"], 255_168);
    assert_eq!(v["first_wins"], 131_184);
    assert_eq!(v["second_wins"], 77_904);
    assert_eq!(v["draws"], 46_080);
    assert_eq!(v["positions"], 765);
    assert_eq!(v["terminal"], 138);
    assert_eq!(v["terminal_first_wins"], 91);
    assert_eq!(v["terminal_second_wins"], 44);
    assert_eq!(v["terminal_draws"], 3);
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
    assert!(error_line(&["moves", "tictactoe", "--moves", "a1,a1"]).contains("'a1': that cell is taken"));
    assert!(error_line(&["moves", "tictactoe", "--moves", "zz"]).contains("'zz'"));
    assert!(
        error_line(&["tournament", "tictactoe", "--players", "nobody,random"]).contains("unknown player")
    );
}

#[test]
fn serve_answers_the_page_and_the_api() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::process::Stdio;

    let mut server = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut first_line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let addr = first_line
        .trim()
        .rsplit("http://")
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let get = |path: &str| {
        let mut stream = TcpStream::connect(&addr).expect("connects");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    let page = get("/");
    let api = get("/api/moves?spec=tictactoe&moves=a1,a2,b1,b2");
    let bad = get("/api/moves?spec=tictactoe&moves=a1,a1");
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("play the perfect bot"));
    let body: Value = serde_json::from_str(api.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["moves"][0]["move"], "c1");
    assert_eq!(body["moves"][0]["value"], "win");
    assert!(bad.starts_with("HTTP/1.1 400") && bad.contains("that cell is taken"));
}
