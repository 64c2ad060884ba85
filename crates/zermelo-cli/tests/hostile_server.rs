//! A corpus of hostile and clumsy inputs to the server and the command line, one case (or
//! a few) for each item of issue 37 that they reach, each naming its item; and property
//! tests over the parsers a user reaches from the terminal and over HTTP (sizes, durations,
//! counts, query strings): every input is read or refused in one line, never a panic.
//! The soak test (`tests/soak.rs`) keeps item 12's flood; the browser test item 20.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{error_line, zermelo, Server};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// A scratch folder of this test process, made empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zermelo-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The status and body of `request` (a whole HTTP request, as bytes) sent to `addr`.
fn send(addr: &str, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // The server may answer and close before reading all of a huge request.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).to_string();
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

/// The error of a refusal's JSON body, checked to be one line.
fn json_error(status: u16, body: &str) -> String {
    let json: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("{status}: not JSON: {body:.200}"));
    let error = json["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{status}: no error in {body:.200}"))
        .to_string();
    assert_eq!(error.lines().count(), 1, "{error}");
    error
}

/// Item 12: one client cannot hold every turn of heavy work. While one address floods the
/// server with heavy requests, a heavy request from another address still gets a turn
/// (its answer is its own, not "busy").
#[test]
fn item_12_one_client_cannot_hold_every_turn() {
    let data = scratch("share");
    let server = Server::start_with(&data, &["--budget", "2"]);
    let heavy = "/api/moves?spec=mnk:m=8,n=8,k=5";
    let flood: Vec<_> = (0..8)
        .map(|_| {
            let addr = server.addr.clone();
            std::thread::spawn(move || {
                send(
                    &addr,
                    format!("GET {heavy} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
                )
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // The same request from another loopback address, a client of its own.
    let mut stream = common::connect_from("127.0.0.2", &server.addr);
    write!(
        stream,
        "GET {heavy} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status: u16 = answer[9..12].parse().unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    assert_ne!(status, 503, "another client is refused as busy: {body}");
    assert_eq!(status, 422, "{body}");
    let flooded: Vec<(u16, String)> = flood.into_iter().map(|t| t.join().unwrap()).collect();
    // The flood's own requests beyond its share wait, and are refused as busy.
    assert!(
        flooded.iter().any(|(s, b)| *s == 503 && b.contains("busy")),
        "{flooded:?}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// Item 14: a damaged table is a 500 naming the table by its name in the data folder;
/// HEAD answers as GET without a body; an address too long for the HTTP layer, and a
/// request it cannot read, answer the documented JSON error.
#[test]
fn item_14_refusals_say_why_in_json() {
    let data = scratch("damaged");
    let out = zermelo(&["--data", data.to_str().unwrap(), "solve", "pawns:cols=3,rows=4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "zdb"))
        .expect("a saved table");
    let bytes = std::fs::read(&table).unwrap();
    std::fs::write(&table, &bytes[..bytes.len() / 2]).unwrap();
    let server = Server::start(&data);
    let (status, body) = server.request("GET", "/api/moves?spec=pawns:cols=3,rows=4");
    assert_eq!(status, 500, "{body}");
    let error = json_error(status, &body);
    let name = table.file_name().unwrap().to_str().unwrap();
    assert!(error.contains(name), "{error}");
    assert!(
        !error.contains(data.to_str().unwrap()),
        "the server's path: {error}"
    );

    let (status, body) = server.request("HEAD", "/api/moves?spec=tictactoe");
    assert_eq!((status, body.as_str()), (200, ""));
    let (status, body) = server.request("POST", "/api/moves?spec=tictactoe");
    assert_eq!(status, 405);
    json_error(status, &body);

    for (size, expected) in [(10_000, 414), (100_000, 414), (1 << 20, 431)] {
        let path = format!("/api/moves?spec={}", "a".repeat(size));
        let (status, body) = send(
            &server.addr,
            format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
        );
        assert_eq!(status, expected, "{size} bytes: {body:.200}");
        assert!(json_error(status, &body).contains("8192"), "{body}");
    }
    let (status, body) = send(&server.addr, b"BREW /pot\r\n\r\n");
    assert_eq!(status, 400);
    json_error(status, &body);

    // A table of another format version: the server says how to solve it again, in a
    // terminal, as no request can.
    drop(server);
    let mut stale = bytes.clone();
    stale[8] ^= 0x10;
    std::fs::write(&table, &stale).unwrap();
    let server = Server::start(&data);
    let (status, body) = server.request("GET", "/api/moves?spec=pawns:cols=3,rows=4");
    let error = json_error(status, &body);
    assert!(
        error.ends_with("solve again with `zermelo solve --force` in a terminal"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// Item 15: moves too big to value within a request come with the refusal unvalued, so
/// that the page shows the board and its moves ("value not known here"), with advice
/// that works for any game.
#[test]
fn item_15_a_position_too_big_to_value_is_shown_unvalued() {
    let data = scratch("unvalued");
    let server = Server::start_with(&data, &["--budget", "1"]);
    let (status, body) = server.json("/api/moves?spec=mnk:m=8,n=8,k=5&moves=d4&all=true");
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("the bot `search` plays it here"), "{error}");
    let unvalued = &body["unvalued"];
    let moves = unvalued["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, unvalued["moves_total"].as_u64().unwrap());
    assert_eq!(moves.len(), 63, "{unvalued}");
    assert!(moves.iter().all(|m| m["value"].is_null()), "{unvalued}");
    assert!(unvalued["value"].is_null());
    assert!(!unvalued["board"].as_str().unwrap().is_empty());
    let _ = std::fs::remove_dir_all(&data);
}

/// Item 16: over-budget refusals name the front end's own limit.
#[test]
fn item_16_over_budget_names_the_limit() {
    let err = error_line(&["--memory", "1M", "moves", "mnk:m=8,n=8,k=5"]);
    assert!(err.contains("more than --memory 1 MiB allows"), "{err}");
    assert!(!err.contains("request"), "{err}");
    let data = scratch("budget");
    let server = Server::start_with(&data, &["--budget", "1"]);
    let (status, body) = server.json("/api/moves?spec=mnk:m=8,n=8,k=5");
    assert_eq!(status, 422, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("a request's budget (1 s"), "{error}");
    let _ = std::fs::remove_dir_all(&data);
}

/// Item 17: a tournament says why each forfeit was, in its JSON and its text: the illegal
/// move, and the exit status of a program that ended.
#[test]
fn item_17_forfeits_say_why() {
    let illegal = "cmd:while read l; do case $l in go*) echo zz;; esac; done";
    let crashes = "cmd:exit 3";
    let players = format!("{illegal},{crashes}");
    let args = ["tournament", "tictactoe", "--players", &players, "--games", "2"];
    let doc = common::documented(&args);
    let reasons = |i: usize| -> Vec<(String, u64)> {
        doc["players"][i]["forfeit_reasons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["why"].as_str().unwrap().to_string(),
                    r["games"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    for i in 0..2 {
        let total: u64 = reasons(i).iter().map(|r| r.1).sum();
        assert_eq!(total, doc["players"][i]["forfeits"].as_u64().unwrap(), "{doc}");
    }
    assert!(
        reasons(0).iter().any(|(why, _)| why.contains("zz")),
        "{:?}",
        reasons(0)
    );
    assert!(
        reasons(1).iter().any(|(why, _)| why.contains('3')),
        "{:?}",
        reasons(1)
    );
    let out = zermelo(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("by forfeit") && l.contains("zz"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("(1)") || line.contains("(2)"), "{line}");
}

/// Item 18: the guide's Graphviz example draws a graph small enough for `dot`.
#[test]
fn item_18_the_graphviz_example_is_small() {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/guide/solve.md"))
            .expect("the guide");
    let line = guide
        .lines()
        .find(|l| l.starts_with("zermelo graph") && l.contains("| dot"))
        .expect("the guide's Graphviz example");
    let args: Vec<&str> = line
        .split('|')
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .collect();
    let out = zermelo(&[&["--json"], &args[..]].concat());
    assert!(out.status.success(), "{line}");
    let graph: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = graph["nodes"].as_array().unwrap().len();
    assert!(
        nodes <= 300,
        "{line}: {nodes} nodes, more than dot lays out at once"
    );
}

/// Item 19: the wording list, each refused in one line that says what to do.
#[test]
fn item_19_wording() {
    let says = |args: &[&str], words: &str| {
        let err = error_line(args);
        assert!(err.contains(words), "{args:?}: {err}");
        err
    };
    // Negative numbers: no `-- -1` tip, which passes no value.
    let err = says(&["tournament", "tictactoe", "--seed", "-1"], "without a sign");
    assert!(!err.contains("-- -1"), "{err}");
    says(&["tournament", "tictactoe", "--games", "-0"], "without a sign");
    // Programs and players of other games are not NAME:P.
    says(
        &["tournament", "tictactoe", "--players", "CMD:true,random"],
        "lower case",
    );
    says(
        &["tournament", "tictactoe", "--players", "mcts:5s,random"],
        "unknown player 'mcts:5s'",
    );
    // No prefix twice.
    let err = says(&["balance", "mnk:m=3,n=3,k=3,bogus=1..2"], "bad game spec");
    assert_eq!(err.matches("bad game spec").count(), 1, "{err}");
    // A huge input is echoed in part.
    let huge = "a".repeat(100_000);
    let err = error_line(&["moves", &huge]);
    assert!(err.len() < 1000, "{} bytes", err.len());
    // Sizes that would read alike.
    let err = says(&["--memory", "1M", "solve", "pawns:cols=6,rows=8"], "needs about");
    assert!(!err.contains("1 MiB, more than the 1 MiB"), "{err}");
    // Only the documented forms of a spec.
    says(&["moves", "MNK:m=3"], "lower case (mnk)");
    says(&["moves", "mnk:m=+3"], "digits only");
    says(&["moves", "nim:heaps=1/2,misere=yes"], "expected true or false");
    // A Dots position names each line once.
    says(
        &["moves", "dots:size=2", "--position", "1ab,1ab|-|-|●"],
        "line '1ab' is given twice",
    );
    // A balance map's headers do not collide with a key of the game (`first`).
    let out = zermelo(&["balance", "pawns:cols=2,rows=3,first=white|black"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let header: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    let mut unique = header.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), header.len(), "{header:?}");
    // The server's own options, checked before it starts.
    says(&["serve", "--cache-memory", "0"], "positive");
    says(&["serve", "--budget-memory", "999999999"], "more than the");
    let data = scratch("data-file");
    let file = data.join("file");
    std::fs::write(&file, "").unwrap();
    says(&["--data", file.to_str().unwrap(), "serve"], "not a folder");
    let _ = std::fs::remove_dir_all(&data);
}

/// A refusal of the command line: one line on stderr, no panic.
fn refused_in_one_line(args: &[&str]) -> Result<(), TestCaseError> {
    let out = zermelo(args);
    let err = String::from_utf8_lossy(&out.stderr);
    prop_assert!(!err.contains("panicked"), "{:?}: {}", args, err);
    if !out.status.success() {
        prop_assert_eq!(err.trim_end().lines().count(), 1, "{:?}: {}", args, err);
    }
    Ok(())
}

/// Numbers as users type them: plain, signed, with units, exponents and junk.
fn numbers() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,25}",
        "-[0-9]{1,5}",
        "\\+?[0-9]{0,4}\\.?[0-9]{0,4}(e[+-]?[0-9]{1,3})?[kKmMgGtTbB]{0,2}",
        Just("inf".to_string()),
        Just("NaN".to_string()),
        Just("1e300".to_string()),
        Just("-0".to_string()),
        Just("99999999T".to_string()),
        // Anything else a command line can hold (no NUL).
        "[^\\x00]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Sizes (`--memory`), counts (`--threads`, `--games`) and durations (`--move-time`,
    /// `--budget`), before a game that is not there: what is read ends at once.
    #[test]
    fn numbers_on_the_command_line_are_read_or_refused_in_one_line(n in numbers()) {
        refused_in_one_line(&["--memory", &n, "moves", "nosuchgame"])?;
        refused_in_one_line(&["--threads", &n, "moves", "nosuchgame"])?;
        refused_in_one_line(&["tournament", "nosuchgame", "--games", &n])?;
        refused_in_one_line(&["tournament", "nosuchgame", "--move-time", &n])?;
        refused_in_one_line(&["balance", "nosuchgame", "--seconds", &n])?;
    }
}

/// Query strings: every answer is JSON, a refusal one line with a documented status.
#[test]
fn query_strings_are_answered_or_refused_in_one_line() {
    let data = scratch("queries");
    let server = Server::start_with(&data, &["--budget", "1"]);
    let part = prop_oneof![
        Just("spec=tictactoe".to_string()),
        Just("spec=nim:heaps=1/2".to_string()),
        Just("moves=".to_string()),
        Just("all=true".to_string()),
        Just("player=random".to_string()),
        "[a-z]{1,8}=[a-zA-Z0-9:,/.=%+-]{0,16}",
        "(spec|moves|position|player|seed|all)=%[0-9A-Fa-f]{2}[^ #&]{0,8}",
        "[^ #]{0,10}",
    ];
    let query = (
        prop::sample::select(vec!["/api/moves", "/api/bot", "/api/games", "/", "/nowhere"]),
        prop::collection::vec(part, 0..5),
    );
    let mut runner = TestRunner::new(Config::with_cases(96));
    runner
        .run(&query, |(path, parts)| {
            let target = format!("{path}?{}", parts.join("&"));
            let (status, body) = send(
                &server.addr,
                format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
            );
            prop_assert!(
                matches!(status, 200 | 400 | 404 | 414 | 422 | 503),
                "{}: {} {}",
                target,
                status,
                body
            );
            if status != 200 {
                json_error(status, &body);
            }
            Ok(())
        })
        .unwrap();
    let _ = std::fs::remove_dir_all(&data);
}
