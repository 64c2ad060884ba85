//! Honest numbers and the same guards everywhere: a loopy game's certificate and graph
//! value every position as `solve` and `db verify` do; counts past 128 bits say so;
//! points whose margin would not fit are refused; `soft:T` is refused where `perfect` is.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{error_line, stdout};
use serde_json::Value;

/// A folder of this test's own, empty.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-bounds-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `zermelo --data DATA ARGS --json`, checked against the schema.
fn documented(data: &Path, args: &[&str]) -> Value {
    common::documented(&[&["--data", data.to_str().unwrap()], args].concat())
}

/// A game whose play can loop: X moves from S to A or B; at A, O may go back to S,
/// resign, or play c and move again between C and E for as long as it likes; at B, O wins
/// at once or in two moves.
const LOOPS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/graphs/loops.json");

#[test]
fn a_loopy_games_certificate_and_graph_value_every_position_as_solve_does() {
    let data = scratch("loops");
    let spec = format!("graph:file={LOOPS}");
    assert_eq!(documented(&data, &["solve", &spec])["value"], "draw");
    let table = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "zdb"))
        .expect("the saved table");
    let verified = &documented(&data, &["db", "verify", table.to_str().unwrap()])["certificate"];
    let certified = &documented(&data, &["report", &spec])["certificate"];
    for count in ["positions", "wins", "draws", "losses"] {
        assert_eq!(
            certified[count], verified[count],
            "{count}: {certified} {verified}"
        );
    }
    // Worked out by hand: S, A, C and E draw (O may wait for ever); B and G win for O, to
    // move; the ends, where X is to move, are won (XW) and lost (OW).
    let counts = ["positions", "terminal", "wins", "draws", "losses"].map(|k| certified[k].as_u64());
    assert_eq!(counts, [8, 2, 3, 4, 1].map(Some), "{certified}");
    // The graph values every node as `moves` does from it.
    let graph = documented(&data, &["graph", &spec]);
    let nodes = graph["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 8);
    for node in nodes {
        let position = node["position"].as_str().unwrap();
        assert!(node["value"].is_string(), "{node}");
        let view = documented(&data, &["moves", &spec, "--position", position]);
        assert_eq!(
            (&node["value"], &node["remoteness"]),
            (&view["value"], &view["remoteness"]),
            "{position}"
        );
    }
    let written = data.join("graph.json");
    let text = stdout(&[
        "--data",
        data.to_str().unwrap(),
        "graph",
        &spec,
        "--output",
        written.to_str().unwrap(),
    ]);
    assert!(
        text.contains("nodes won by the player to move: 3, lost: 1, drawn: 4"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// A graph of `layers` rows of two nodes after the start, each node moving to both of the
/// next row: 2^layers complete games, each won by the first seat.
fn doubling(layers: u32) -> String {
    let id = |row: u32, k: u32| {
        if row == 0 {
            "s".to_string()
        } else {
            format!("{row}.{k}")
        }
    };
    let mut nodes = vec![r#"{"id": "s", "seat": 0}"#.to_string()];
    let mut edges = Vec::new();
    for row in 1..=layers {
        for k in 0..2 {
            nodes.push(match row {
                r if r == layers => format!(r#"{{"id": "{}", "winner": 0}}"#, id(row, k)),
                _ => format!(r#"{{"id": "{}", "seat": {}}}"#, id(row, k), row % 2),
            });
        }
        let from: &[u32] = if row == 1 { &[0] } else { &[0, 1] };
        for &f in from {
            for k in 0..2 {
                edges.push(format!(
                    r#"{{"source": "{}", "target": "{}", "move": "m{k}"}}"#,
                    id(row - 1, f),
                    id(row, k)
                ));
            }
        }
    }
    format!(
        r#"{{"nodes": [{}], "edges": [{}]}}"#,
        nodes.join(","),
        edges.join(",")
    )
}

#[test]
fn counts_past_128_bits_say_so_and_those_below_are_exact() {
    let data = scratch("counts");
    for (layers, games) in [
        (100, Value::from((1u128 << 100).to_string())),
        (40, Value::from(1u64 << 40)),
        (130, Value::from("more than 3.4 × 10^38")),
    ] {
        let file = data.join(format!("doubling-{layers}.json"));
        std::fs::write(&file, doubling(layers)).unwrap();
        let spec = format!("graph:file={}", file.display());
        let counted = documented(&data, &["count", &spec]);
        assert_eq!(counted["games"]["total"], games, "{layers}");
        assert_eq!(counted["games"]["first_wins"], games, "{layers}");
        assert_eq!(counted["positions"]["total"], u64::from(2 * layers + 1));
        let text = stdout(&["--data", data.to_str().unwrap(), "count", &spec]);
        let first = text.lines().next().unwrap();
        let shown = games.as_str().map_or_else(|| games.to_string(), str::to_string);
        assert!(
            first.starts_with(&format!("complete games: {shown} (")),
            "{first}"
        );
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn points_whose_margin_would_not_fit_are_refused_in_one_line() {
    let data = scratch("points");
    let graph = |points: &str| {
        format!(
            r#"{{"nodes": [{{"id": "s", "seat": 0}}, {{"id": "t", "points": {points}}}],
            "edges": [{{"source": "s", "target": "t", "move": "go"}}]}}"#
        )
    };
    // A margin of 2^32 - 1, which 32 bits would print as "by 1" (or -1).
    let file = data.join("wide.json");
    std::fs::write(&file, graph("[2147483647, -2147483648]")).unwrap();
    let spec = format!("graph:file={}", file.display());
    for command in ["solve", "moves", "count"] {
        let line = error_line(&["--data", data.to_str().unwrap(), command, &spec]);
        assert!(
            line.contains("2147483647 points") && line.contains("margin"),
            "{line}"
        );
    }
    // The widest points allowed give their margin exactly.
    let file = data.join("widest.json");
    std::fs::write(&file, graph("[1073741823, -1073741823]")).unwrap();
    let spec = format!("graph:file={}", file.display());
    let solved = documented(&data, &["solve", &spec]);
    assert_eq!(
        (&solved["value"], &solved["margin"]),
        (&Value::from("win"), &Value::from(2147483646))
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn soft_is_refused_at_once_where_perfect_is_with_the_same_advice() {
    let data = scratch("soft");
    let data = data.to_str().unwrap();
    // The first and second player of a tournament, self-play (`balance --players`) and
    // a game of `play`.
    let refused = |command: &str, first: &str, second: &str| {
        let players = format!("{first},{second}");
        let args = match command {
            "play" => vec!["play", "dots:size=5", "--first", first, "--second", second],
            "balance" => vec!["balance", "dots:size=5", "--players", &players, "--games", "4"],
            _ => vec!["tournament", "dots:size=5", "--players", &players, "--games", "4"],
        };
        let started = Instant::now();
        let line = error_line(&[&["--data", data], args.as_slice()].concat());
        (line, started.elapsed())
    };
    for command in ["tournament", "balance", "play"] {
        let (perfect, _) = refused(command, "perfect", "random");
        assert!(perfect.contains("perfect"), "{perfect}");
        for (first, second) in [("soft:1", "random"), ("random", "soft:0")] {
            let (line, took) = refused(command, first, second);
            assert_eq!(line, perfect, "{command} {first},{second}");
            // At once: no search starts (without the guard it searched for ten minutes).
            assert!(
                took < Duration::from_secs(5),
                "{command} {first},{second}: {took:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(data);
}
