//! Domineering from the command line and the server: who wins by proof, how soon with
//! `--remoteness`, boards up to 11 × 11, and the page's bot within a request's budget.

mod common;

use std::time::{Duration, Instant};

use common::{documented, error_line, stdout, Server};
use serde_json::Value;

#[test]
fn solve_proves_who_wins_and_remoteness_asks_how_soon() {
    let plain = stdout(&["solve", "domineering:rows=4,cols=5", "--no-save"]);
    let timed = stdout(&["solve", "domineering:rows=4,cols=5", "--no-save", "--remoteness"]);
    let first = |text: &str| text.lines().next().unwrap().to_string();
    assert!(
        first(&plain).contains(" for Vertical") && first(&plain).contains(", proof, "),
        "{plain}"
    );
    assert!(!first(&plain).contains(" in "), "no remoteness: {plain}");
    assert!(plain.contains("\nnodes: "), "{plain}");
    let value = first(&plain)
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    assert!(
        first(&timed).contains(&format!(": {value} in ")),
        "{value}: {timed}"
    );
    assert!(first(&timed).contains(", alphabeta, "), "{timed}");
    // The same shape of JSON, the remoteness null or a number.
    let plain = documented(&["solve", "domineering:rows=4,cols=5", "--no-save"]);
    let timed = documented(&["solve", "domineering:rows=4,cols=5", "--no-save", "--remoteness"]);
    assert_eq!(plain["value"], timed["value"]);
    assert_eq!(plain["remoteness"], Value::Null);
    assert!(timed["remoteness"].as_u64().is_some(), "{timed}");
    assert_eq!(plain["solver"], "proof");
    let help = stdout(&["solve", "--help"]);
    assert!(help.contains("--remoteness"), "{help}");
}

#[test]
fn moves_by_proof_are_valued_as_with_remoteness_the_winning_first() {
    for moves in ["a1", "b2,c2", "a1,a3,b1"] {
        let args = |more: &[&'static str]| -> Vec<String> {
            let mut all = vec![
                "moves".to_string(),
                "domineering:rows=4,cols=5".into(),
                "--moves".into(),
                moves.into(),
            ];
            all.extend(more.iter().map(|s| s.to_string()));
            all
        };
        let proof = args(&[]);
        let proof = documented(&proof.iter().map(String::as_str).collect::<Vec<_>>());
        let exact = args(&["--remoteness"]);
        let exact = documented(&exact.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(proof["value"], exact["value"], "{moves}");
        let listed = proof["moves"].as_array().unwrap();
        let values: Vec<&str> = listed.iter().map(|m| m["value"].as_str().unwrap()).collect();
        let wins = values.iter().take_while(|v| **v == "win").count();
        assert!(values[wins..].iter().all(|v| *v == "lose"), "{moves}: {values:?}");
        assert_eq!(listed.len(), exact["moves"].as_array().unwrap().len());
        for m in listed {
            assert_eq!(m["remoteness"], Value::Null, "{m}");
            let same = exact["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["move"] == m["move"])
                .unwrap();
            assert_eq!(m["value"], same["value"], "{moves}: {m} against {same}");
            assert!(same["remoteness"].as_u64().is_some(), "{same}");
        }
    }
}

#[test]
fn big_boards_refuse_in_one_line_what_they_cannot_do() {
    for side in ["9", "10", "11"] {
        let spec = format!("domineering:rows={side},cols={side}");
        let line = error_line(&["count", &spec]);
        assert!(line.contains("too many positions to number"), "{line}");
        let line = error_line(&["solve", &spec, "--solver", "retrograde"]);
        assert!(line.contains("too many positions to number"), "{line}");
        // The exact search stops at the memory. (The proof keeps its table within the
        // memory and runs until it ends, or until a caller's time or cancel flag.)
        let line = error_line(&["solve", &spec, "--memory", "1M", "--remoteness"]);
        assert!(line.contains("--memory"), "{line}");
        let line = error_line(&["moves", &spec, "--moves", "a1", "--memory", "1M", "--remoteness"]);
        assert!(line.contains("--memory"), "{line}");
        let line = error_line(&["graph", &spec, "--memory", "4M"]);
        assert!(line.contains("memory"), "{line}");
        let line = error_line(&["report", &spec, "--memory", "1M", "--seconds", "1"]);
        assert!(line.contains("--memory 1 MiB and --seconds 1"), "{line}");
        // A game between players that need no proof plays to its end.
        let played = stdout(&[
            "play", &spec, "--first", "random", "--second", "random", "--seed", "3",
        ]);
        assert!(played.trim_end().ends_with("moves"), "{played}");
    }
    let line = error_line(&[
        "solve",
        "domineering:rows=3,cols=3",
        "--solver",
        "proof",
        "--remoteness",
    ]);
    assert!(
        line.contains("--remoteness: the proof solver") && line.contains("leave it out"),
        "{line}"
    );
    let line = error_line(&["moves", "domineering:rows=11,cols=11", "--moves", "l1"]);
    assert!(line.contains("no such cell"), "{line}");
    let line = error_line(&["solve", "domineering:rows=12,cols=3"]);
    assert!(line.contains("12"), "{line}");
}

#[test]
fn the_bot_answers_big_boards_within_the_budget_and_says_when_it_did_not_prove() {
    let data = std::env::temp_dir().join(format!("zermelo-dom-serve-{}", std::process::id()));
    let server = Server::start_with(&data, &["--budget", "1"]);
    let within = Duration::from_secs_f64(2.5);
    for side in [8, 9, 10, 11] {
        let spec = format!("domineering:rows={side},cols={side}");
        let started = Instant::now();
        let (status, body) = server.json(&format!("/api/bot?spec={spec}&moves=a1"));
        let took = started.elapsed();
        assert_eq!(status, 200, "{body}");
        assert!(took < within, "{spec}: {took:?}");
        let note = body["note"].as_str().unwrap_or_default();
        assert!(note.contains("no proof within the time"), "{body}");
        let errors = common::schema_errors(&common::validator(), &body);
        assert!(errors.is_empty(), "{errors:?}");
        // The move is legal: it replays.
        let m = body["move"].as_str().unwrap();
        let (status, listed) = server.json(&format!("/api/moves?spec={spec}&moves=a1,{m}"));
        assert_eq!(status, 422, "{listed}");
        let started = Instant::now();
        let (status, listed) = server.json(&format!("/api/moves?spec={spec}&moves=a1"));
        assert!(started.elapsed() < within, "{spec}");
        assert_eq!(status, 422, "{listed}");
        assert!(listed["error"].as_str().unwrap().contains("budget"), "{listed}");
        let moves = listed["unvalued"]["moves"].as_array().unwrap();
        assert!(moves.iter().any(|e| e["move"] == m), "{m} among {listed}");
    }
    // A board the proof finishes in time: its own move, no note.
    let (status, body) = server.json("/api/bot?spec=domineering:rows=4,cols=4&moves=a1");
    assert_eq!(status, 200);
    assert_eq!(body.get("note"), None, "{body}");
    let _ = std::fs::remove_dir_all(&data);
}
