//! `--position` end to end: every game in the catalog starts from a position given in its
//! notation as from the moves that reach it, in every command and in the server's API; a
//! malformed or impossible position is one line and a non-zero exit.

mod common;

use std::path::{Path, PathBuf};

use common::{documented, error_line, Server};
use serde_json::Value;

/// A data folder of the test `test` alone.
fn data(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("zermelo-position-{test}-{}", std::process::id()))
}

/// `args` run with the data folder `dir` first.
fn with_data<'a>(dir: &'a Path, args: &[&'a str]) -> Vec<&'a str> {
    [&["--data", dir.to_str().unwrap()], args].concat()
}

/// The first example spec of every game in the catalog.
fn examples() -> Vec<String> {
    let games = documented(&["games"]);
    games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["examples"][0].as_str().expect("an example").to_string())
        .collect()
}

/// A few moves into `spec`'s game, picked without chance: the moves and the document of
/// `zermelo moves` after them.
fn some_moves(dir: &Path, spec: &str) -> (Vec<String>, Value) {
    let mut moves: Vec<String> = Vec::new();
    let mut view = documented(&with_data(dir, &["moves", spec]));
    for step in 0..3 {
        let listed = view["moves"].as_array().unwrap();
        if view["terminal"] == true || listed.is_empty() {
            break;
        }
        let m = &listed[(step * 7 + 1) % listed.len()]["move"];
        moves.push(m.as_str().unwrap().to_string());
        let joined = moves.join(",");
        view = documented(&with_data(dir, &["moves", spec, "--moves", &joined]));
    }
    (moves, view)
}

#[test]
fn a_position_given_by_its_notation_answers_as_the_moves_that_reach_it() {
    let dir = data("moves");
    for spec in examples() {
        let (moves, reached) = some_moves(&dir, &spec);
        let position = reached["position"].as_str().unwrap();
        let given = documented(&with_data(&dir, &["moves", &spec, "--position", position]));
        assert_eq!(
            given, reached,
            "{spec}: --position {position} against --moves {moves:?}"
        );

        // Moves after the position are played from it.
        if reached["terminal"] == false {
            let next = reached["moves"][0]["move"].as_str().unwrap();
            let after = documented(&with_data(
                &dir,
                &["moves", &spec, "--position", position, "--moves", next],
            ));
            let all = [moves.clone(), vec![next.to_string()]].concat().join(",");
            let played = documented(&with_data(&dir, &["moves", &spec, "--moves", &all]));
            assert_eq!(after, played, "{spec}: {next} after {position}");
        }

        // A solve from the position gives the value the position shows, and names it.
        let solved = documented(&with_data(&dir, &["solve", &spec, "--position", position]));
        for key in ["value", "remoteness", "margin", "scores", "to_move"] {
            assert_eq!(solved[key], reached[key], "{spec}: solve from {position}: {key}");
        }
        assert_eq!(solved["position"], position, "{spec}");
        let start = documented(&with_data(&dir, &["solve", &spec]));
        assert_eq!(start["position"], Value::Null, "{spec}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_and_impossible_positions_fail_in_one_line_for_every_game() {
    let dir = data("bad");
    for spec in examples() {
        for bad in ["zz99!", "", "1:99999999999999999999999", "-|x\n|", "xx./.../..."] {
            for command in ["moves", "solve", "play", "tournament"] {
                let mut args = with_data(&dir, &[command, &spec, "--position", bad]);
                if command == "play" {
                    args.extend(["--first", "random", "--second", "random"]);
                }
                let line = error_line(&args);
                assert!(
                    line.starts_with("error: bad position '"),
                    "{spec} {command} {bad:?}: {line}"
                );
            }
        }
    }
    // What is wrong is named.
    let line = error_line(&["moves", "tictactoe", "--position", "xx./.../..."]);
    assert!(line.contains("impossible mark counts"), "{line}");
    let line = error_line(&["moves", "nim:heaps=3/4/5", "--position", "1:3/4/6"]);
    assert!(line.contains("more than the 5 it starts with"), "{line}");
    let line = error_line(&["moves", "domineering:rows=3,cols=3", "--position", "#../.#./..."]);
    assert!(line.contains("not dominoes"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_play_and_tournament_start_from_the_position() {
    let dir = data("games");
    let run = |args: &[&str]| documented(&with_data(&dir, args));
    // X has taken a corner and O the centre: a draw with X to move.
    let position = "x../.o./...";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["solve", "tictactoe", "--position", position])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("tictactoe at x../.o./...: draw for X, to move ("),
        "{text}"
    );
    let record = run(&[
        "play",
        "tictactoe",
        "--position",
        position,
        "--first",
        "perfect",
        "--second",
        "perfect",
    ]);
    assert_eq!(record["position"], position);
    assert_eq!(record["result"], "draw");
    let board = run(&[
        "moves",
        "tictactoe",
        "--position",
        position,
        "--moves",
        &record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect::<Vec<_>>()
            .join(","),
    ]);
    assert_eq!(board["terminal"], true);
    let standings = run(&[
        "tournament",
        "tictactoe",
        "--position",
        position,
        "--players",
        "perfect,random",
        "--games",
        "6",
    ]);
    assert_eq!(standings["position"], position);
    assert_eq!(standings["players"][0]["losses"], 0);
    let standings = run(&["tournament", "tictactoe", "--games", "2"]);
    assert_eq!(standings["position"], Value::Null);

    // The pawns game's board= key and --position agree.
    let spec = "pawns:cols=3,rows=5";
    let board = "B...P/.B.P./B...P black";
    let keyed = run(&["solve", &format!("{spec},board={board}")]);
    let given = run(&["solve", spec, "--position", board]);
    assert_eq!(
        (&given["value"], &given["remoteness"]),
        (&keyed["value"], &keyed["remoteness"])
    );
    assert_eq!(given["position"], board);
    let keyed = run(&["moves", &format!("{spec},board={board}")]);
    let given = run(&["moves", spec, "--position", board]);
    assert_eq!(given["moves"], keyed["moves"]);
    assert_eq!(given["position"], keyed["position"]);

    // A Big Points game that deals a path per round plays every game on the spec's own
    // path from the position.
    let start = run(&["moves", "bigpoints"]);
    let standings = run(&[
        "tournament",
        "bigpoints",
        "--position",
        start["position"].as_str().unwrap(),
        "--players",
        "greedy,random",
        "--games",
        "2",
    ]);
    assert_eq!(standings["games"], 2);
    let line = error_line(&[
        "tournament",
        "dots:size=random",
        "--position",
        "-|-|-|○",
        "--players",
        "greedy,random",
    ]);
    assert!(line.contains("draws a board per game"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_server_takes_a_position_to_start_from() {
    let dir = data("serve");
    let server = Server::start(&dir);
    let (status, reached) = server.json("/api/moves?spec=tictactoe&moves=a3,b2");
    assert_eq!(status, 200);
    let (status, given) = server.json("/api/moves?spec=tictactoe&position=x../.o./...");
    assert_eq!((status, &given), (200, &reached));
    let (status, empty) = server.json("/api/moves?spec=tictactoe&position=&moves=a3,b2");
    assert_eq!((status, &empty), (200, &reached));
    let (status, after) = server.json("/api/moves?spec=tictactoe&position=x../.o./...&moves=c1");
    let (_, played) = server.json("/api/moves?spec=tictactoe&moves=a3,b2,c1");
    assert_eq!((status, &after), (200, &played));
    // O must block at c3, whether X's b3 is in the position or played after it.
    for query in ["position=xx./.o./...", "position=x../.o./...&moves=b3"] {
        let (status, bot) = server.json(&format!("/api/bot?spec=tictactoe&{query}"));
        assert_eq!(
            (status, bot["move"].as_str()),
            (200, Some("c3")),
            "{query}: {bot}"
        );
    }
    let (status, pawns) =
        server.json("/api/moves?spec=pawns:cols=3,rows=5&position=B...P/.B.P./B...P%20black");
    assert_eq!(
        (status, pawns["to_move"].as_str()),
        (200, Some("Black")),
        "{pawns}"
    );
    for bad in ["xx./.../...", "zz99!", "x..%0A/.o./..."] {
        for api in ["moves", "bot"] {
            let (status, body) = server.json(&format!("/api/{api}?spec=tictactoe&position={bad}"));
            assert_eq!(status, 400, "{api} {bad}: {body}");
            let error = body["error"].as_str().unwrap();
            assert!(
                error.starts_with("bad position") && !error.contains('\n'),
                "{error}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
